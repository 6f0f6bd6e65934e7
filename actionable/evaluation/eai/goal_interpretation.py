"""EAI's VirtualHome goal-interpretation task, scored by EAI's own evaluator (issue 24, benchmarks).

    goal_interpretation_inputs(ids=None) -> list[dict]        # EAI's inputs, one per task
    evaluate_goal_interpretation(predict, ids=None, groups=None) -> dict

``predict(task_name, prompt_inputs) -> output`` returns EAI's output format: a dict (or its JSON
text) ``{"node goals": [{"name", "state"}], "edge goals": [{"from_name", "relation", "to_name"}],
"action goals": [{"action"}]}``. The outputs are written as one "model" file per group under a
temporary ``llm_response`` folder and scored by
``virtualhome_eval.evaluation.goal_interpretation.scripts.evaluate_results.evaluate_results``;
nothing of its scoring is reimplemented. EAI's rules (read from that file): a name outside the
task's relevant objects is a hallucination (neither TP nor FP, counted apart); a predicted name is
bound to the *last* relevant node of that class, so two relevant nodes of one class can never both be
matched (the gold oracle scores below 100 there); an output that is not JSON scores nothing. With no goal predicted at all,
EAI's evaluator (0.1.1) divides by zero; the harness then reports F1 = 0 (TP = 0) with a note.

Published F1 (EAI, Li et al. 2024; embodied-agent-interface.github.io): :data:`EAI_PUBLISHED_F1`.
"""

from __future__ import annotations

import re

import json
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Mapping

from actionable.core.errors import EvaluationError
from actionable.evaluation.eai.source import (eai_args, id_to_task, motion_planner, package_dir, quiet,
                                              split_goals, task_goals)

#: EAI's published goal-interpretation F1 (all goals, %), VirtualHome.
EAI_PUBLISHED_F1 = {"o1-preview": 42.7, "Gemini 1.5 Pro": 37.9, "GPT-4o": 36.5, "Llama-3-8B": 22.6}
Predict = Callable[[str, dict], "dict | str"]


def _shipped_prompts() -> dict[str, str]:
    p = package_dir() / "evaluation" / "goal_interpretation" / "prompts" / "helm_prompts.json"
    with open(p, encoding="utf-8") as f:
        return {r["identifier"]: r["llm_prompt"] for r in json.load(f)}


def goal_interpretation_inputs(ids: Iterable[str] | None = None) -> list[dict]:
    """EAI's goal-interpretation inputs, built with EAI's code (``construct_planner``,
    ``MotionPlanner.get_goal_describe_nl``) for each program id (default: EAI's 342).

    Returns:
        One dict per task: ``program_id``, ``task_name``, ``description`` (EAI's prompt gives both),
        ``objects`` (``{class name: node id}``, EAI's ``relevant_name_to_id``), ``object_text`` (the
        prompt's object block: initial and possible states), ``prompt`` (EAI's full prompt as shipped
        in ``helm_prompts.json``).
    """
    import virtualhome_eval.simulation.evolving_graph.utils as utils

    states = utils.load_object_states()
    prompts = _shipped_prompts()
    out = []
    for pid in (list(ids) if ids is not None else list(id_to_task())):
        mp, _, _, name, desc = motion_planner(pid)
        with quiet():
            text, _, name_to_id = mp.get_goal_describe_nl(name, desc, states)
        prompt = prompts.get(pid, "")
        out.append({"program_id": pid, "task_name": name.strip(), "description": desc.strip(),
                    "objects": dict(name_to_id), "object_text": text, "prompt": prompt,
                    "relation_targets": relation_targets(prompt)})
    return out


_TARGETS = re.compile(r"possible set of 'to_name' objects:\s*(\{.*?\})\s*\n")


def relation_targets(prompt: str) -> dict[str, frozenset]:
    """The ``{relation: allowed to_name classes}`` table EAI's prompt gives every model ("Each
    relation has a fixed set of objects to be its 'to_name' target"; e.g. things put *into* the
    washing machine are ``ON`` it), ``{}`` when the prompt has none. The table is EAI's shipped
    prompt text, read as a Python literal (``ast.literal_eval``), never model output."""
    import ast

    m = _TARGETS.search(prompt or "")
    if not m:
        return {}
    table = ast.literal_eval(m.group(1))
    return {str(k): frozenset(map(str, v)) for k, v in table.items()}


def gold_prediction(pid: str) -> dict:
    """The annotated goals of ``pid`` in EAI's output format (node ids -> class names; an action
    goal ``"A|B"`` -> its first alternative): the oracle of the harness tests."""
    mp = motion_planner(pid)[0]
    names = mp.id_to_name
    nodes, edges, actions = split_goals(task_goals()[pid])
    return {"node goals": [{"name": g["class_name"], "state": g["state"]} for g in nodes],
            "edge goals": [{"from_name": names[g["from_id"]], "relation": g["relation_type"],
                            "to_name": names[g["to_id"]]} for g in edges],
            "action goals": [{"action": a.split("|")[0]} for a in actions]}


def recorded_predictor(model: str) -> Predict:
    """A predictor returning the response EAI recorded for ``model``
    (``virtualhome_eval/llm_response/goal_interpretation/<model>_outputs.json``): scoring it must
    give EAI's published row for that model (a check of this harness).

    Raises:
        EvaluationError: no such recorded model (the message lists them).
    """
    d = package_dir() / "llm_response" / "goal_interpretation"
    p = d / f"{model}_outputs.json"
    if not p.is_file():
        have = sorted(x.name[: -len("_outputs.json")] for x in d.glob("*_outputs.json"))
        raise EvaluationError(f"no recorded EAI goal-interpretation responses for {model!r}; choose from "
                              f"{', '.join(have)}")
    with open(p, encoding="utf-8") as f:
        recorded = {r["identifier"]: r["llm_output"] for r in json.load(f)}
    return lambda task_name, inputs: recorded.get(inputs["program_id"], "")


def _as_text(output) -> str:
    if isinstance(output, str):
        return output
    if isinstance(output, Mapping):
        return json.dumps(output)
    raise EvaluationError(f"a goal-interpretation prediction must be a dict or its JSON text, got "
                          f"{type(output).__name__}")


def evaluate_goal_interpretation(predict: Predict, ids: Iterable[str] | None = None,
                                 groups: Mapping[str, Iterable[str]] | None = None,
                                 inputs: list[dict] | None = None) -> dict:
    """Score ``predict`` on EAI's goal-interpretation task with EAI's evaluator (module doc).

    Args:
        predict: ``(task_name, prompt_inputs) -> EAI output`` (dict or JSON text).
        ids: program ids (default: EAI's 342).
        groups: optional ``{name: ids}`` scored separately as well (e.g. by title).
        inputs: precomputed :func:`goal_interpretation_inputs` (for speed).

    Returns:
        ``{"all": summary, <group>: summary...}``; a summary is EAI's own dict (``node_precision``,
        ``node_recall``, ``node_f1``, ``edge_*``, ``action_*``, ``all_precision``, ``all_recall``,
        ``all_f1``; percentages) plus ``n`` (tasks).

    Raises:
        EvaluationError: a prediction of the wrong type; a group name that is not a plain word.
    """
    from virtualhome_eval.evaluation.goal_interpretation.scripts.evaluate_results import evaluate_results

    inputs = inputs if inputs is not None else goal_interpretation_inputs(ids)
    if ids is not None:
        keep = set(ids)
        inputs = [x for x in inputs if x["program_id"] in keep]
    outputs = {x["program_id"]: _as_text(predict(x["task_name"], x)) for x in inputs}
    sets = {"all": list(outputs)}
    for g, members in (groups or {}).items():
        if not g.replace("-", "").replace(".", "").isalnum():
            raise EvaluationError(f"group name {g!r} must be letters, digits, '-' or '.'")
        sets[g] = [p for p in members if p in outputs]
    out = {}
    for g, members in sets.items():  # one evaluator call a group, so that one group's failure stays its own
        with tempfile.TemporaryDirectory(prefix="eai-gi-") as tmp:
            resp = Path(tmp) / "llm" / "goal_interpretation"  # 0.1.1 reads <llm_response_path>/goal_interpretation
            resp.mkdir(parents=True)
            rows = [{"identifier": p, "llm_output": outputs[p]} for p in members]
            (resp / "run_outputs.json").write_text(json.dumps(rows), encoding="utf-8")
            try:
                with quiet():
                    out[g] = {**evaluate_results(eai_args(Path(tmp) / "out", Path(tmp) / "llm"))["run"][0],
                              "n": len(members)}
            except ZeroDivisionError:
                # virtualhome-eval 0.1.1 divides by the number of predicted goals for its format and
                # hallucination rates; with none predicted TP = 0, so recall and F1 are 0 by definition
                out[g] = {"n": len(members), "all_f1": 0.0, "all_recall": 0.0, "all_precision": None,
                          "node_f1": 0.0, "edge_f1": 0.0, "action_f1": 0.0,
                          "note": "no goal predicted: EAI's evaluator divides by zero; F1 = 0 (TP = 0)"}
    return out


__all__ = ["EAI_PUBLISHED_F1", "evaluate_goal_interpretation", "gold_prediction", "goal_interpretation_inputs",
           "recorded_predictor", "relation_targets"]
