"""Evaluation queries over a held-out / example-bank task split (issue 3).

The split itself is :func:`actionable.planning.examples.make_task_split`
(disjoint normalised task names, ordered by ``sha256(version:seed:task)``,
versioned by ``SPLIT_VERSION``); this module turns the held-out half into
evaluation queries and the other half into the example bank, so the planner
never sees a program of a held-out task.

Query modes (Huang et al. 2022 use the task name alone; the Embodied Agent
Interface, Li et al. 2024, adds the description):

* ``"name"`` - one query per held-out task. Goals: the mean over every
  goal-annotated program of the task (the plan is executed in each program's
  initial scene). LCS: best match over all gold programs of the task.
* ``"name+description"`` - one query per goal-annotated program of a held-out
  task; the plan is executed in that program's initial scene and checked
  against that program's goals. LCS as above.

Users can bring their own queries as JSONL (:func:`load_task_list`), one
object a line: ``{"task": "Watch TV", "description": "...", "goal_program_ids":
["98_1"], "gold_program_ids": ["98_1"]}`` (all but ``task`` optional).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Literal, Mapping, Sequence

from actionable.core.errors import InputError

QueryMode = Literal["name", "name+description"]
QUERY_MODES: tuple[str, ...] = ("name", "name+description")
#: Held-out share of task names: 88 / (88 + 204) in the paper.
DEFAULT_HELDOUT_FRACTION = 0.3


@dataclass(frozen=True)
class EvalQuery:
    """One evaluation query.

    Attributes:
        key: unique id, ``"<mode>|<task or program id>"``.
        mode: ``"name"`` or ``"name+description"`` (``"custom"`` for user files).
        task: task name (dataset spelling).
        description: the description given to the planner (``""`` for name-only).
        goal_program_ids: annotated programs whose goals are checked; their initial
            scenes are where the plan is executed. Empty: executed in the default scene,
            no goal metrics.
        gold_program_ids: gold programs for LCS (all programs of the task).
    """

    key: str
    mode: str
    task: str
    description: str
    goal_program_ids: tuple[str, ...]
    gold_program_ids: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"key": self.key, "mode": self.mode, "task": self.task, "description": self.description,
                "goal_program_ids": list(self.goal_program_ids),
                "gold_program_ids": list(self.gold_program_ids)}

    @classmethod
    def from_dict(cls, d: Mapping) -> "EvalQuery":
        return cls(str(d["key"]), str(d["mode"]), str(d["task"]), str(d.get("description", "")),
                   tuple(d.get("goal_program_ids", ())), tuple(d.get("gold_program_ids", ())))


def packaged_programs() -> dict[str, tuple[str, str]]:
    """``program_id -> (task name, description)`` for the 518 packaged programs.

    Raises:
        SceneError: virtualhome-eval data missing.
    """
    from actionable.evaluation.datasets import dataset

    ds = dataset()
    out = {}
    for pid in ds.program_ids():
        p = ds.program(pid)
        out[pid] = (p.task, p.description)
    return out


def default_split(seed: int = 0, heldout_fraction: float = DEFAULT_HELDOUT_FRACTION,
                  programs: Mapping[str, tuple[str, str]] | None = None):
    """The task split of the packaged programs (26 task names in virtualhome-eval 0.1.1).

    Returns:
        :class:`~actionable.planning.examples.TaskSplit`.
    """
    from actionable.planning.examples import make_task_split

    progs = programs if programs is not None else packaged_programs()
    return make_task_split([t for t, _ in progs.values()], seed=seed, heldout_fraction=heldout_fraction)


def heldout_queries(split, modes: Sequence[str], annotations: Mapping,
                    programs: Mapping[str, tuple[str, str]] | None = None) -> list[EvalQuery]:
    """Evaluation queries of the held-out tasks of ``split``, in a stable order.

    Args:
        split: a ``TaskSplit`` (``heldout_tasks`` are normalised names).
        modes: subset of :data:`QUERY_MODES`.
        annotations: ``load_goal_annotations()`` (program id -> GoalSpec).
        programs: ``packaged_programs()`` (computed when ``None``).

    Raises:
        InputError: an unknown mode.
    """
    from actionable.planning.examples import normalize_task

    bad = [m for m in modes if m not in QUERY_MODES]
    if bad or not modes:
        raise InputError(f"--query must be one or more of {', '.join(QUERY_MODES)} "
                         f"(comma-separated), got {','.join(modes) or 'nothing'}")
    progs = programs if programs is not None else packaged_programs()
    held = set(split.heldout_tasks)
    by_task: dict[str, list[str]] = {}
    spelling: dict[str, str] = {}
    for pid, (task, _) in progs.items():
        nt = normalize_task(task)
        if nt in held:
            by_task.setdefault(nt, []).append(pid)
            spelling.setdefault(nt, task)
    out: list[EvalQuery] = []
    for mode in modes:
        for nt in sorted(by_task):
            golds = tuple(by_task[nt])
            annotated = tuple(p for p in golds if p in annotations)
            if mode == "name":
                out.append(EvalQuery(f"name|{nt}", "name", spelling[nt], "", annotated, golds))
            else:
                for pid in annotated:
                    out.append(EvalQuery(f"name+description|{pid}", mode, progs[pid][0], progs[pid][1],
                                         (pid,), golds))
    return out


def load_task_list(path: str | Path, programs: Mapping[str, tuple[str, str]] | None = None
                   ) -> list[EvalQuery]:
    """Read user queries from JSONL (see the module docstring).

    ``gold_program_ids`` default to every packaged program with the same task name
    (may be empty: then LCS is not reported).

    Raises:
        InputError: unreadable file, bad JSON, missing ``task``, unknown program ids,
            or duplicate queries.
    """
    from actionable.core.jsonl import iter_task_records
    from actionable.planning.examples import normalize_task

    p = Path(path)
    progs = programs if programs is not None else packaged_programs()
    out: list[EvalQuery] = []
    seen: set[str] = set()
    for where, rec in iter_task_records(p, "task list"):
        from actionable.planning.prompts import MAX_TASK_CHARS

        if len(rec["task"]) > MAX_TASK_CHARS:  # the planner would refuse it in every episode
            raise InputError(f"{where}: the task is {len(rec['task'])} characters long; the limit is "
                             f"{MAX_TASK_CHARS}. Give a short instruction such as \"Make coffee\"")
        ids: dict[str, tuple[str, ...]] = {}
        for field in ("goal_program_ids", "gold_program_ids"):
            v = rec.get(field, None)
            if v is None:
                continue
            if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
                raise InputError(f"{where}: {field!r} must be a list of program ids like '98_1'")
            unknown = [x for x in v if x not in progs]
            if unknown:
                raise InputError(f"{where}: unknown program ids {unknown[:3]}; see `actionable scenes`")
            ids[field] = tuple(v)
        task = rec["task"].strip()
        desc = str(rec.get("description", "")).strip()
        golds = ids.get("gold_program_ids") or tuple(
            pid for pid, (t, _) in progs.items() if normalize_task(t) == normalize_task(task))
        key = f"custom|{normalize_task(task)}|{hashlib.sha256(desc.encode()).hexdigest()[:8]}"
        if key in seen:
            raise InputError(f"{where}: duplicate query (same task and description as an earlier line)")
        seen.add(key)
        out.append(EvalQuery(key, "custom", task, desc, ids.get("goal_program_ids", ()), golds))
    if not out:
        raise InputError(f"task list {str(p)!r} holds no queries")
    return out


def split_summary(split, queries: Iterable[EvalQuery]) -> dict:
    """Sizes of a split and its queries, for the manifest and the report."""
    qs = list(queries)
    return {"split": split.to_dict(), "n_heldout_tasks": len(split.heldout_tasks),
            "n_bank_tasks": len(split.bank_tasks), "n_queries": len(qs),
            "n_goal_programs": len({p for q in qs for p in q.goal_program_ids})}
