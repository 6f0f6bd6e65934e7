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

from actionable.evaluation.eai.actions import ACTION_WORDS, POSTURE_ACTIONS, STATELESS_ACTIONS, exclusive, title_actions


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


def _contradicts(g, h) -> bool:
    """Class-level node goals ``g`` and ``h`` ask one class for two states of which a thing has one
    at a time (:data:`~actionable.evaluation.eai.actions.EXCLUSIVE_STATES`)."""
    return g[0] == h[0] == "node" and g[1] == h[1] and exclusive(g[2], h[2])


def _as_output(goals) -> dict:
    goals = sorted(goals)
    return {"node goals": [{"name": g[1], "state": g[2]} for g in goals if g[0] == "node"],
            "edge goals": [{"from_name": g[1], "relation": g[2], "to_name": g[3]} for g in goals if g[0] == "edge"],
            "action goals": [{"action": g[1]} for g in goals if g[0] == "action"]}


#: What VirtualHome's executor requires of the character before each stateless action
#: (``virtualhome_eval/simulation/evolving_graph/execution.py``: ``ReadExecutor`` and ``DrinkExecutor``
#: need the thing held, ``WatchExecutor`` and ``LookAtExecutor`` the character facing it,
#: ``TouchExecutor`` close to it), as ``(relation, properties the thing has one of, must be grabbable)``.
#: EAI annotates that precondition with the action (tune half: READ 12/12 with HOLDS_RH, DRINK 11/11
#: HOLDS_RH, TOUCH 11/11 CLOSE, LOOKAT|WATCH 13/13 FACING).
ACTION_PRECONDITIONS = {"READ": ("HOLDS_RH", ("READABLE",), True),
                        "DRINK": ("HOLDS_RH", ("DRINKABLE", "RECIPIENT"), True),
                        "WATCH": ("FACING", ("LOOKABLE",), False),
                        "LOOKAT": ("FACING", ("LOOKABLE",), False),
                        "TOUCH": ("CLOSE", (), False)}

#: VirtualHome's room classes (never the thing an action is done on).
ROOM_CLASSES = frozenset({"bathroom", "bedroom", "dining_room", "home_office", "kitchen", "living_room",
                          "livingroom"})


@functools.lru_cache(maxsize=1)
def class_properties() -> dict[str, frozenset]:
    """``{class name: property names}`` from EAI's own properties data (``load_properties_data``)."""
    import virtualhome_eval.simulation.evolving_graph.utils as utils

    return {k: frozenset(getattr(p, "name", str(p)) for p in v) for k, v in utils.load_properties_data().items()}


def action_preconditions(goals, relevant, props: dict, rank=None) -> set:
    """Edge goals for the character's precondition of each stateless action goal in ``goals``
    (:data:`ACTION_PRECONDITIONS`) on the one relevant object that can take it (``relevant``:
    class names; ``props``: class -> properties). Where several can, ``rank(classes)`` orders them
    (best first; default: sorted); where none can, nothing is added."""
    out = set()
    for g in goals:
        if g[0] != "action" or g[1] not in ACTION_PRECONDITIONS:
            continue
        rel, need, grab = ACTION_PRECONDITIONS[g[1]]
        cands = sorted(c for c in relevant if c != "character" and c not in ROOM_CLASSES and c in props
                       and (not need or props[c] & set(need)) and (not grab or "GRABBABLE" in props[c]))
        if cands:
            best = rank(cands)[0] if rank is not None and len(cands) > 1 else cands[0]
            out.add(("edge", "character", rel, best))
    return out


def eai_conventions(goals, props: dict) -> set:
    """EAI's annotation conventions on a class-level goal set (``props``: class -> properties):
    an appliance that is ``ON`` and ``CAN_OPEN`` is ``CLOSED`` (tune half: 20 of 20 annotated ``ON``
    goals of ``CAN_OPEN`` classes carry ``CLOSED``) and so not ``OPEN``; one with ``HAS_PLUG`` is
    ``PLUGGED_IN`` (:func:`~actionable.evaluation.eai.planners.reading_prediction`)."""
    goals = set(goals)
    for g in list(goals):
        if g[0] == "node" and g[2] == "ON":
            p = props.get(g[1], frozenset())
            if "CAN_OPEN" in p:
                goals.add(("node", g[1], "CLOSED"))
                goals.discard(("node", g[1], "OPEN"))
            if "HAS_PLUG" in p:
                goals.add(("node", g[1], "PLUGGED_IN"))
    return goals


def device_in_use(relevant, props: dict, rank=None) -> set:
    """``{("node", device, "ON")}`` for the one switchable device among a task's ``relevant`` classes
    (``props``: class -> properties; ``HAS_SWITCH``; where several are, the first of ``rank(classes)``,
    nearest the task's name), else nothing: a task's relevant objects are what it uses, and a
    device in use is on ("Work" with a computer, a keyboard and a mouse). A prior for a task whose
    text and neighbours say nothing, not a reading."""
    cands = sorted(c for c in relevant if c != "character" and c not in ROOM_CLASSES
                   and "HAS_SWITCH" in props.get(c, ()))
    if not cands:
        return set()
    best = rank(cands)[0] if rank is not None and len(cands) > 1 else cands[0]
    return {("node", best, "ON")}


def retrieval_predictor(split: str = "lto", k: int = 5, threshold: float = 0.5, with_interpreter: bool = True,
                        interpreter_text: str = "title", actions: str = "vote", conventions: bool = False,
                        device_prior: bool = False):
    """``predict(task_name, inputs)`` for
    :func:`~actionable.evaluation.eai.goal_interpretation.evaluate_goal_interpretation` (module doc).
    Two states of one class that exclude each other (``actions.EXCLUSIVE_STATES``) are never both
    predicted: against the interpreter's reading, the own title's annotation decides, else the reading;
    the character's posture the reading finds (the description: "lie down on the sofa") always decides.

    Args:
        split: ``"lto"`` or ``"lopo"`` (what may inform the reading).
        k: nearest allowed tasks that vote (>= 1); every task tied with the k-th votes too (the
            programs of one title share one title vector).
        threshold: similarity-weighted vote share in [0, 1] a goal needs.
        with_interpreter: add the goal interpreter's reading.
        interpreter_text: what the interpreter reads (``"title"`` or ``"both"``: title and the
            description's sentences, :func:`~actionable.evaluation.eai.planners.interpreter_predictor`).
        actions: where action goals come from: ``"vote"`` (the neighbours' vote, as node and edge
            goals), ``"title"`` (the name's words in :data:`STATELESS_ACTIONS`, :func:`title_actions`),
            ``"both"``. With ``"title"``, the action goals a share ``threshold`` of the programs with
            the task's own title annotate are added too (LOPO; leave-title-out allows none).
        conventions: add each stateless action's precondition on the character
            (:func:`action_preconditions`) and apply EAI's annotation conventions
            (:func:`eai_conventions`).
        device_prior: where nothing else is predicted, the task's one switchable relevant object
            is ``ON`` (:func:`device_in_use`).

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

            interp.append(interpreter_predictor(split, embedder=emb, text=interpreter_text, conventions=conventions))
        pid = inputs["program_id"]
        relevant = set(inputs["objects"]) | {"character"}
        ex_p, ex_t = exclusions(pid, task_name, split)
        q = np.asarray(emb.encode([task_name])[0], dtype=np.float32)
        sims = mat @ (q / (np.linalg.norm(q) + 1e-9))
        votes: dict = {}
        same: dict = {}  # the votes of programs with the query's own title (LOPO only)
        total = same_total = 0.0
        taken, last = 0, None
        own = normalize_task(task_name)
        for j in np.argsort(-sims, kind="stable"):
            x = xs[int(j)]
            if x["program_id"] in ex_p or normalize_task(x["task_name"]) in ex_t:
                continue
            if taken >= k and not (last is not None and float(sims[j]) >= last - 1e-6):
                break  # k taken, and no tie with the k-th left
            usable = [g for g in gold[x["program_id"]] if set(_classes(g)) <= relevant]
            if not usable:
                continue
            if normalize_task(x["task_name"]) == own:
                same_total += 1.0
                for g in usable:
                    same[g] = same.get(g, 0.0) + 1.0
            if not any(set(_classes(g)) - {"character"} for g in usable):
                usable = []  # only goals on the character ("Go to sleep" for "Turn on light"): it votes for none
            w = max(float(sims[j]), 0.0)
            total += w
            for g in usable:
                votes[g] = votes.get(g, 0.0) + w
            taken, last = taken + 1, float(sims[j])
        goals = {g for g, v in votes.items() if total > 0 and v / total >= threshold
                 and (g[0] != "action" or actions != "title")}
        if actions in ("title", "both"):
            goals |= title_actions(task_name)
        if actions == "title" and same_total > 0:  # the task's own title's action goals (LOPO)
            goals |= {g for g, v in same.items() if g[0] == "action" and v / same_total >= threshold}
        if interp:
            got = {g for g in _goal_set(interp[0](task_name, inputs)) if set(_classes(g)) <= relevant}
            # the title's annotation decides a state the reading contradicts, but the posture the
            # person says ("... and lie down on the sofa") decides against other people's annotations
            said = {g for g in got if g[1] == "character"} if same_total > 0 else got
            got = {g for g in got if g in said or not any(_contradicts(g, h) for h in goals)}
            goals = {g for g in goals if not any(_contradicts(g, h) for h in said)}
            goals |= got
        props = class_properties() if conventions or device_prior else {}

        def rank(classes):  # the class nearest the task's name (MiniLM cosine)
            v = np.asarray(emb.encode([c.replace("_", " ") for c in classes]), dtype=np.float32)
            v /= np.linalg.norm(v, axis=1, keepdims=True) + 1e-9
            return [classes[i] for i in np.argsort(-(v @ (q / (np.linalg.norm(q) + 1e-9))), kind="stable")]
        if device_prior and not goals:
            goals = device_in_use(relevant, props, rank)
        if conventions:
            goals |= action_preconditions(goals, relevant, props, rank)
            goals = eai_conventions(goals, props)
        return _as_output(goals)

    return predict


__all__ = ["ACTION_PRECONDITIONS", "ACTION_WORDS", "POSTURE_ACTIONS", "STATELESS_ACTIONS", "action_preconditions", "class_properties",
           "device_in_use",
           "eai_conventions", "retrieval_predictor", "title_actions"]
