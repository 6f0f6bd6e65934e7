"""Column (a): action sequencing under EAI's own protocol, scored by EAI's own evaluator (issue 24).

    sequencing_inputs(pid) -> dict                 # what EAI's generate_prompts gives a model
    plan_output(program) -> str                    # EAI's JSON output format
    evaluate_action_sequencing(outputs, ids=None) -> EAIResult

The outputs (``{program id: output text}``) are written as one "model" file under a temporary
``llm_response/action_sequence`` folder and scored by
``virtualhome_eval.evaluation.action_sequence.scripts.evaluate_results.evaluate_results``; its
summary is returned as it is. Per task, the harness *observes* EAI's verdicts (it wraps EAI's
``construct_planner`` and ``scene_evaluate_wID`` to record their return values, and reads EAI's
``error_info``); it recomputes nothing and checks that the per-task verdicts add up to EAI's summary.

EAI's rules, read from ``evaluate_results.py`` of virtualhome-eval 0.1.1 (say them beside a number):

* the output is parsed with ``json.loads`` as one JSON object whose keys are the actions, so a
  repeated action name keeps **one** entry: the position of its first occurrence and the objects
  of its last (``{"WALK": [a], "GRAB": [b], "WALK": [c]}`` runs ``WALK c, GRAB b``);
* the objects are class names; each is bound to ``relevant_name_to_id`` (the nodes the gold program
  changes, the *last* node of a class winning): the model never chooses an instance, and any name
  outside that set is a **hallucination** (the whole plan fails);
* a plan equal to EAI's gold actions counts as executable and is **never** a success (its goals
  are not checked);
* only the first met relation goal counts (``break`` in ``scene_evaluate_wID``), so a task with two
  or more relation goals can never succeed; EAI drops from the denominator every task whose own gold
  final state fails that check ("did not pass gold test");
* a failed step ends execution; an "additional step" error (code 4) does not.
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping
from unittest import mock

from actionable.core.errors import EvaluationError
from actionable.evaluation.eai.source import eai_args, id_to_task, motion_planner, quiet, split_goals, task_goals

#: EAI's published VirtualHome action sequencing (task SR / execution SR, %), Li et al. 2024.
EAI_PUBLISHED_SEQUENCING = {"o1-preview": (71.1, 78.4), "Gemini 1.5 Pro": (73.1, 83.3), "GPT-4o": (61.6, 71.1),
                            "Mistral Large": (73.4, 83.6), "Llama-3-70B": (55.7, 63.0),
                            "Llama-3-8B": (21.6, 25.9)}


def sequencing_inputs(pid: str) -> dict:
    """EAI's action-sequencing inputs of ``pid``, built with EAI's code as its ``generate_prompts``
    does (``construct_planner``, ``get_symbolic_goal_nl``, ``get_nl_goal_string``).

    Returns:
        ``program_id``, ``task_name``, ``objects`` (``relevant_name_to_id``: class -> node id, the
        only names the output may use), ``object_text`` (relevant objects with ids), ``state_text``
        (their initial states and edges), ``node_goals`` / ``edge_goals`` / ``action_goals`` (EAI's
        goal lines) and ``goals`` (the raw ``vh_goal``).
    """
    mp, _, _, name, _ = motion_planner(pid)
    nodes, edges, actions = split_goals(task_goals()[pid])
    with quiet():
        objs, _, node_s, edge_s, act_s, name_to_id = mp.get_symbolic_goal_nl(nodes, edges, action_goals=actions)
        _, cur_change, _ = mp.get_nl_goal_string()
    return {"program_id": pid, "task_name": name.strip(), "objects": dict(name_to_id), "object_text": objs,
            "state_text": cur_change, "node_goals": node_s, "edge_goals": edge_s, "action_goals": act_s,
            "goals": task_goals()[pid]}


def plan_output(program) -> str:
    """EAI's output format of a plan: a JSON object text, one ``"ACTION": [class names]`` member a
    step, in order (``{"WALK": ["bathroom"], "GRAB": ["cup"]}``). A repeated action is written
    again, as a model would; EAI's ``json.loads`` then keeps one entry for it (module doc)."""
    parts = [f"{json.dumps(s.action)}: {json.dumps([a.name for a in s.args])}" for s in program.steps]
    return "{" + ", ".join(parts) + "}"


@dataclass
class EAIResult:
    """EAI's summary (``summary``, ``None`` when EAI dropped every task; its ``goal_evaluation`` and ``trajectory_evaluation`` dicts,
    percentages over ``n_scored`` tasks) and per-task verdicts (``tasks``: program id ->
    ``{"scored", "executable", "success", "error_type", "identical_to_gold"}``; ``scored`` is False
    for a task EAI drops because its gold final state fails EAI's own goal check)."""

    summary: dict
    tasks: dict = field(default_factory=dict)

    @property
    def n_scored(self) -> int:
        return sum(1 for t in self.tasks.values() if t["scored"])

    def rate(self, key: str, ids: Iterable[str] | None = None) -> float | None:
        """Share (0..1) of the scored tasks of ``ids`` (default all) whose verdict ``key`` is true."""
        keep = set(ids) if ids is not None else None
        rows = [t for p, t in self.tasks.items() if t["scored"] and (keep is None or p in keep)]
        return sum(bool(t[key]) for t in rows) / len(rows) if rows else None


def evaluate_action_sequencing(outputs: Mapping[str, str], ids: Iterable[str] | None = None) -> EAIResult:
    """Score ``outputs`` (program id -> EAI output text, e.g. :func:`plan_output`) with EAI's
    action-sequencing evaluator (module doc). A task of ``ids`` without an output gets ``"{}"``
    (EAI: a parsing error).

    Raises:
        EvaluationError: an output that is not a string; per-task verdicts that do not add up to EAI's
            summary (the observation of EAI's calls went wrong).
    """
    import virtualhome_eval.evaluation.action_sequence.scripts.evaluate_results as er

    pids = list(ids) if ids is not None else list(outputs)
    unknown = [p for p in pids if p not in id_to_task()]
    if unknown:
        raise EvaluationError(f"not EAI task ids: {unknown[:3]}; EAI's 342 are in id2task.json")
    rows = []
    for p in pids:
        text = outputs.get(p, "{}")
        if not isinstance(text, str):
            raise EvaluationError(f"the output for {p} must be EAI's JSON text (plan_output), got {type(text).__name__}")
        rows.append({"identifier": p, "llm_output": text})
    seen: dict[str, dict] = {}
    current: list[str] = []
    real_construct, real_scene = er.construct_planner, er.scene_evaluate_wID

    def construct(*a, **k):
        current[:] = [k["script_id"]]
        seen[k["script_id"]] = {"gold_ok": None, "success": False}
        return real_construct(*a, **k)

    def scene(*a, **k):
        out = real_scene(*a, **k)
        rec = seen[current[0]]
        if "action_seq" in k:
            rec["success"] = bool(out[3])
        else:
            rec["gold_ok"] = bool(out[3])
        return out

    with tempfile.TemporaryDirectory(prefix="eai-as-") as tmp:
        resp = Path(tmp) / "llm" / "action_sequence"
        resp.mkdir(parents=True)
        (resp / "run_outputs.json").write_text(json.dumps(rows), encoding="utf-8")
        with quiet(), mock.patch.object(er, "construct_planner", construct), \
                mock.patch.object(er, "scene_evaluate_wID", scene):
            try:
                summary, error_info = er.evaluate_results(eai_args(Path(tmp) / "out", Path(tmp) / "llm"))["run"]
            except ZeroDivisionError:  # EAI divides by the tasks it kept: none passed its gold test
                if any(r.get("gold_ok") for r in seen.values()):
                    raise
                summary, error_info = None, {}
    tasks = {}
    for p in pids:
        rec, info = seen.get(p, {}), error_info.get(p)
        scored = bool(rec.get("gold_ok"))
        identical = scored and info is None  # EAI's `actions == gd_actions` branch
        tasks[p] = {"scored": scored, "identical_to_gold": identical,
                    "executable": bool(identical or (info or {}).get("executable")),
                    "success": bool(rec.get("success")) and not identical,
                    "error_type": (info or {}).get("error_type")}
    res = EAIResult(summary, tasks)
    n = res.n_scored
    checks = () if summary is None else (
        ("task_success_rate", summary["goal_evaluation"]["task_success_rate"]),
        ("execution_success_rate", summary["trajectory_evaluation"]["execution_success_rate"]))
    for key, got in checks:
        mine = 100.0 * (res.rate("success" if key == "task_success_rate" else "executable") or 0.0)
        if n and abs(mine - got) > 0.051:
            raise EvaluationError(f"per-task EAI verdicts give {key} {mine:.2f}, EAI's summary {got}")
    return res


__all__ = ["EAIResult", "EAI_PUBLISHED_SEQUENCING", "evaluate_action_sequencing", "plan_output", "sequencing_inputs"]
