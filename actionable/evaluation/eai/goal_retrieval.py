"""Goal interpretation by retrieval of annotated goals, mapped by role (issue 24, benchmarks).

    retrieval_predictor(split="lto", k=5, threshold=0.5, with_interpreter=True) -> predict

EAI's goal-interpretation inputs give the task name, its description and the task's *relevant
objects* (EAI's ``generate_prompts``). This predictor reads the goal as the annotated goals of the
nearest *other* tasks: the ``k`` EAI tasks whose titles are nearest to the query title (cosine of
the translation LM, MiniLM), among those the split allows (:func:`actionable.evaluation.eai.folds.exclusions`:
leave-title-out drops the query's own title and its step-for-step twins; LOPO its own program),
and that have at least one goal on the query's relevant classes. A goal (class-level: node
``(class, state)``, edge ``(class, relation, class)``, action) is predicted when its similarity-
weighted share of those ``k`` tasks is at least ``threshold`` and every class it names is a relevant
object of the query (or the character). With ``with_interpreter``, the goal interpreter's own
reading (:func:`actionable.evaluation.eai.planners.interpreter_predictor`) is added, kept to the
relevant classes.

It is a benchmark predictor, not the product's interpreter: the product has no relevant-object list
(EAI's protocol supplies it), so the same retrieval there would have to guess the classes.
Tune ``k``/``threshold`` on one half and report on the other (``benchmarks/bench_eai.py --goals
retrieval:lto --half report``).
"""

from __future__ import annotations

import functools

import numpy as np


@functools.lru_cache(maxsize=1)
def _pool():
    """``(inputs, gold class-level goals per program, title embedding matrix, embedder)`` of EAI's 342 tasks."""
    from actionable.evaluation.eai.goal_interpretation import gold_prediction, goal_interpretation_inputs
    from actionable.grounding.embedder import load_embedder

    emb = load_embedder("minilm")
    xs = goal_interpretation_inputs()
    gold = {x["program_id"]: _goal_set(gold_prediction(x["program_id"])) for x in xs}
    mat = np.asarray(emb.encode([x["task_name"] for x in xs]), dtype=np.float32)
    mat /= np.linalg.norm(mat, axis=1, keepdims=True) + 1e-9
    return xs, gold, mat, emb


def _goal_set(pred: dict) -> frozenset:
    out = set()
    for g in pred.get("node goals", []):
        out.add(("node", g["name"], g["state"]))
    for g in pred.get("edge goals", []):
        out.add(("edge", g["from_name"], g["relation"], g["to_name"]))
    for g in pred.get("action goals", []):
        out.add(("action", g["action"]))
    return frozenset(out)


def _classes(goal) -> tuple:
    if goal[0] == "node":
        return (goal[1],)
    return (goal[1], goal[3]) if goal[0] == "edge" else ()


def _as_output(goals) -> dict:
    goals = sorted(goals)
    return {"node goals": [{"name": g[1], "state": g[2]} for g in goals if g[0] == "node"],
            "edge goals": [{"from_name": g[1], "relation": g[2], "to_name": g[3]} for g in goals if g[0] == "edge"],
            "action goals": [{"action": g[1]} for g in goals if g[0] == "action"]}


#: EAI's actions that change no state VirtualHome records: when the task's name says one ("Read
#: book", "Drink"), node and edge goals cannot describe it, so it is an action goal (EAI's prompt:
#: "if node goals and edge goals are not enough to fully describe the goal, add action goals")
STATELESS_ACTIONS = frozenset({"READ", "DRINK", "EAT", "SLEEP", "TYPE", "TOUCH", "GREET"})


def retrieval_predictor(split: str = "lto", k: int = 5, threshold: float = 0.5, with_interpreter: bool = True,
                        interpreter_text: str = "title", actions: str = "vote"):
    """``predict(task_name, inputs)`` for
    :func:`~actionable.evaluation.eai.goal_interpretation.evaluate_goal_interpretation` (module doc).

    Args:
        split: ``"lto"`` or ``"lopo"`` (what may inform the reading).
        k: nearest allowed tasks that vote (>= 1).
        threshold: similarity-weighted vote share in [0, 1] a goal needs.
        with_interpreter: add the goal interpreter's reading.
        interpreter_text: what the interpreter reads (``"title"`` or ``"both"``: title and the
            description's sentences, :func:`~actionable.evaluation.eai.planners.interpreter_predictor`).
        actions: where action goals come from: ``"vote"`` (the neighbours' vote, as node and edge
            goals), ``"title"`` (the name's words in :data:`STATELESS_ACTIONS`), ``"both"``.

    Raises:
        ConfigError: ``k`` < 1, ``threshold`` outside [0, 1], an unknown split or ``actions``.
    """
    from actionable.core.dataset import normalize_task
    from actionable.core.errors import ConfigError
    from actionable.evaluation.eai.folds import exclusions

    if k < 1 or not 0.0 <= threshold <= 1.0:
        raise ConfigError(f"retrieval: k must be >= 1 and threshold in [0, 1], got k={k}, threshold={threshold}")
    if split not in ("lto", "lopo"):  # before any model loads
        raise ConfigError(f"--split: unknown split {split!r}; choose from lopo, lto")
    if actions not in ("vote", "title", "both"):
        raise ConfigError(f"retrieval actions: choose vote, title or both, got {actions!r}")
    interp = []  # the goal interpreter's predictor, made on first use with the pool's MiniLM (one load)

    def predict(task_name, inputs):
        xs, gold, mat, emb = _pool()
        if with_interpreter and not interp:
            from actionable.evaluation.eai.planners import interpreter_predictor

            interp.append(interpreter_predictor(split, embedder=emb, text=interpreter_text))
        pid = inputs["program_id"]
        relevant = set(inputs["objects"]) | {"character"}
        ex_p, ex_t = exclusions(pid, task_name, split)
        q = np.asarray(emb.encode([task_name])[0], dtype=np.float32)
        sims = mat @ (q / (np.linalg.norm(q) + 1e-9))
        votes: dict = {}
        total = 0.0
        taken = 0
        for j in np.argsort(-sims, kind="stable"):
            x = xs[int(j)]
            if x["program_id"] in ex_p or normalize_task(x["task_name"]) in ex_t:
                continue
            usable = [g for g in gold[x["program_id"]] if set(_classes(g)) <= relevant]
            if not usable:
                continue
            if not any(set(_classes(g)) - {"character"} for g in usable):
                usable = []  # only goals on the character ("Go to sleep" for "Turn on light"): it votes for none
            w = max(float(sims[j]), 0.0)
            total += w
            for g in usable:
                votes[g] = votes.get(g, 0.0) + w
            taken += 1
            if taken >= k:
                break
        goals = {g for g, v in votes.items() if total > 0 and v / total >= threshold
                 and (g[0] != "action" or actions != "title")}
        if actions in ("title", "both"):
            goals |= {("action", w) for w in task_name.upper().split() if w in STATELESS_ACTIONS}
        if interp:
            got = _goal_set(interp[0](task_name, inputs))
            goals |= {g for g in got if set(_classes(g)) <= relevant}
        return _as_output(goals)

    return predict


__all__ = ["STATELESS_ACTIONS", "retrieval_predictor"]
