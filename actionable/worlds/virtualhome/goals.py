"""VirtualHome's goal annotations: the 342 goal-annotated programs of the Embodied Agent Interface.

Source: ``virtualhome_eval/resources/virtualhome/task_state_LTL_formula_accurate.json``
(Embodied Agent Interface, Li et al. 2024, Sec. 3 "goal interpretation"), key ``vh_goal``, read
into the core's goal conditions (:class:`~actionable.core.goals.GoalSpec`; the layout is described
there). Reached by the methods through the world's ``dataset`` capability
(:mod:`actionable.worlds.virtualhome.tasks`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Mapping

from actionable.core.errors import EvaluationError, InputError
from actionable.core.goals import GoalSpec

ANNOTATION_FILE = "resources/virtualhome/task_state_LTL_formula_accurate.json"


def _annotation_path(path: str | Path | None) -> Path:
    if path is not None:
        return Path(path)
    try:
        from importlib.resources import files

        return Path(str(files("virtualhome_eval") / ANNOTATION_FILE))
    except ModuleNotFoundError:
        raise EvaluationError("virtualhome-eval is not installed; `pip install virtualhome-eval==0.1.1` "
                              "or pass the annotation file path explicitly") from None


def load_goal_annotations(path: str | Path | None = None) -> dict[str, GoalSpec]:
    """Load the goal annotations, keyed by program id (342 entries for the packaged file).

    Args:
        path: a JSON file in the EAI layout ``{scene: {task: {program_id: {"vh_goal": ...}}}}``;
            ``None`` = the file shipped with ``virtualhome_eval``.

    Raises:
        InputError: the file is missing, not JSON, or not in that layout.
    """
    p = _annotation_path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"goal annotation file {p} does not exist; pass an existing JSON file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"goal annotation file {p} is not UTF-8 JSON ({exc}); fix or regenerate it") from None
    if not isinstance(data, dict):
        raise InputError(f"goal annotation file {p}: expected a JSON object of scenes")
    out: dict[str, GoalSpec] = {}
    for scene, tasks in data.items():
        if not isinstance(tasks, dict):
            raise InputError(f"goal annotation file {p}: scene {scene!r} must map task names to programs")
        for task, progs in tasks.items():
            if not isinstance(progs, dict):
                raise InputError(f"goal annotation file {p}: task {task!r} must map program ids to goals")
            for pid, rec in progs.items():
                if not isinstance(rec, dict) or "vh_goal" not in rec:
                    raise InputError(f"goal annotation file {p}: program {pid!r} lacks 'vh_goal'")
                out[str(pid)] = GoalSpec.from_annotation(str(pid), str(task), rec["vh_goal"])
    return out


def goals_for_task(task: str, annotations: Mapping[str, GoalSpec]) -> list[GoalSpec]:
    """All annotated programs of ``task`` (case-insensitive), sorted by program id."""
    t = task.strip().lower()
    return sorted((s for s in annotations.values() if s.task.lower() == t), key=lambda s: s.program_id)


__all__ = ["ANNOTATION_FILE", "goals_for_task", "load_goal_annotations"]
