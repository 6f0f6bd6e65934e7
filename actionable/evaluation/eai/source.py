"""The installed ``virtualhome-eval`` package (EAI, Li et al. 2024) as the harness reads it.

Everything EAI-specific that the harness needs comes from EAI's own code: its task index
(``resources/virtualhome/id2task.json``, 342 ids), its goal file
(``task_state_LTL_formula_accurate.json``), its motion planner (``construct_planner``), the
relevant objects (``MotionPlanner.get_relevant_nodes`` / ``get_symbolic_goal_nl``) and its
evaluators (``evaluation/*/scripts/evaluate_results.py``), called with an ``args`` object the way
``virtualhome_eval.agent_eval.agent_evaluation`` builds it.

EAI's modules log every step at INFO; :func:`quiet` silences them while the harness runs.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
from pathlib import Path
from types import SimpleNamespace

from actionable.core.errors import EvaluationError

#: EAI's VirtualHome scene id (the 342 tasks all live in TrimmedTestScene1).
SCENE_ID = 1


@functools.lru_cache(maxsize=1)
def package_dir() -> Path:
    """Folder of the installed ``virtualhome_eval`` package.

    Raises:
        EvaluationError: the package is not installed.
    """
    try:
        import virtualhome_eval
    except ModuleNotFoundError:
        raise EvaluationError("virtualhome-eval is not installed; `pip install virtualhome-eval==0.1.1`") from None
    return Path(os.path.dirname(virtualhome_eval.__file__))


def eai_args(output_dir: str | Path, llm_response_path: str | Path | None = None) -> SimpleNamespace:
    """The ``args`` EAI's ``generate_prompts`` / ``evaluate_results`` read (as ``agent_evaluation``
    builds them): the package's resources, dataset and evaluation folders, ``output_dir``."""
    root = package_dir()
    return SimpleNamespace(resource_dir=str(root / "resources"), dataset_dir=str(root / "dataset"),
                           evaluation_dir=str(root / "evaluation"), dataset="virtualhome",
                           llm_response_path=str(llm_response_path or root / "llm_response"),
                           output_dir=str(output_dir), scene_id=SCENE_ID, mode="evaluate_results")


def data_dir() -> str:
    return str(package_dir() / "dataset" / "programs_processed_precond_nograb_morepreconds")


@functools.lru_cache(maxsize=1)
def id_to_task() -> dict[str, str]:
    """EAI's task index ``{program id: task title}`` (342 entries)."""
    with open(package_dir() / "resources" / "virtualhome" / "id2task.json", encoding="utf-8") as f:
        return json.load(f)


@functools.lru_cache(maxsize=1)
def task_goals() -> dict[str, dict]:
    """``{program id: vh_goal}`` from EAI's goal file (scene 1)."""
    with open(package_dir() / "resources" / "virtualhome" / "task_state_LTL_formula_accurate.json",
              encoding="utf-8") as f:
        data = json.load(f)[f"scene_{SCENE_ID}"]
    return {pid: rec["vh_goal"] for progs in data.values() for pid, rec in progs.items()}


def task_ids() -> list[str]:
    """EAI's 342 program ids, in its index order."""
    return list(id_to_task())


def split_goals(vh_goal: dict) -> tuple[list[dict], list[dict], list[str]]:
    """``(node goals, edge goals, action goals)`` of one ``vh_goal`` record, as EAI's scripts split
    it (node: ``{id, class_name, state}``; edge: ``{from_id, relation_type, to_id}``)."""
    nodes, edges = [], []
    for g in vh_goal["goal"]:
        (nodes if "state" in g else edges).append(g)
    return nodes, edges, list(vh_goal.get("actions", []))


@contextlib.contextmanager
def quiet():
    """Raise the level of EAI's loggers to WARNING for the block (they log every step at INFO)."""
    names = [n for n in logging.root.manager.loggerDict if n.startswith("virtualhome_eval")]
    names.append("virtualhome_eval")
    old = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.WARNING)
    try:
        yield
    finally:
        for n, lv in old.items():
            logging.getLogger(n).setLevel(lv)


def motion_planner(pid: str):
    """EAI's ``construct_planner`` for program ``pid``: ``(MotionPlanner, relevant ids of the gold
    steps, gold actions as EAI writes them, task name, task description)``."""
    import virtualhome_eval.simulation.evolving_graph.utils as utils
    from virtualhome_eval.simulation.evolving_graph.eval_utils import construct_planner

    with quiet():
        return construct_planner(utils.load_name_equivalence(), utils.load_properties_data(),
                                 utils.load_object_placing(), scenegraph_id=SCENE_ID, script_id=pid,
                                 dataset_root=data_dir())


def relevant_nodes(pid: str) -> list[tuple[str, int]]:
    """EAI's relevant objects of ``pid`` (``MotionPlanner.get_relevant_nodes``: the nodes the gold
    program changes and the ends of the edges it changes), as sorted ``(class name, id)``."""
    mp = motion_planner(pid)[0]
    with quiet():
        return sorted(mp.get_relevant_nodes(script_id=pid), key=lambda t: (t[0], t[1]))


__all__ = ["SCENE_ID", "data_dir", "eai_args", "id_to_task", "motion_planner", "package_dir", "quiet",
           "relevant_nodes", "split_goals", "task_goals", "task_ids"]
