"""Pluggable planners for the EAI harness: ``(PlanTask, domain) -> Program``, by name.

A planner is a callable ``plan(task: PlanTask, domain) -> Program`` (``domain``: the world's
:class:`~actionable.core.planning.PlanningDomain` of the task's own initial scene). Steps may carry
node ids (the instances the planner chose) or not (then the world's resolver binds them). An empty
program means "nothing to do"; a :class:`~actionable.core.errors.PlanningError` is a refusal (a
failed task). ``program.meta["stop"]`` may say why the plan ended.

:data:`PLANNERS` maps a name to a factory ``make(settings: dict) -> plan`` (called once; it loads the
models). Register a new planner (e.g. the goal-directed planner) with :func:`register_planner`.

The goal rules of issue 24: a planner scored on columns (b)/(c) gets the task text only
(``task.goals`` is ``None``); only under EAI's protocol (column a) does it get EAI's inputs,
goals included (``task.eai``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Callable

from actionable.core.errors import ConfigError


@dataclass(frozen=True)
class PlanTask:
    """One query of the harness.

    Attributes:
        program_id: the annotated program whose initial scene the plan runs in.
        task: the task name. description: ``""`` in name-only rows.
        split: ``"lopo"`` or ``"lto"``; exclude_sources / exclude_tasks: what the planner's
            retrieval must not use (the program itself; every title of the held-out fold).
        eai: EAI's inputs (:func:`~actionable.evaluation.eai.protocol.sequencing_inputs`) under
            protocol (a), else ``None``.
    """

    program_id: str
    task: str
    description: str = ""
    split: str = "lopo"
    exclude_sources: frozenset = field(default_factory=frozenset)
    exclude_tasks: frozenset = field(default_factory=frozenset)
    eai: dict | None = None


Plan = Callable[[PlanTask, Any], Any]
PLANNERS: dict[str, Callable[[dict], Plan]] = {}


def register_planner(name: str, make: Callable[[dict], Plan]) -> None:
    """Add ``make(settings) -> plan`` under ``name`` (replacing an earlier one)."""
    PLANNERS[name] = make


def make_planner(name: str, settings: dict | None = None) -> Plan:
    """The planner ``name`` built with ``settings``.

    Raises:
        ConfigError: unknown name (the message names the flag and the choices).
    """
    if name not in PLANNERS:
        raise ConfigError(f"--planner: unknown planner {name!r}; choose from {', '.join(sorted(PLANNERS))}")
    return PLANNERS[name](dict(settings or {}))


def _gold(settings: dict) -> Plan:
    """The program's own human steps (with the annotator's node ids): the reference row."""
    from actionable.evaluation.datasets import dataset

    ds = dataset(settings.get("world"))
    return lambda task, domain: ds.program(task.program_id)


def _empty(settings: dict) -> Plan:
    """No steps ("nothing to do" for every task): the floor of every column."""
    from actionable.core.program import Program

    return lambda task, domain: Program((), meta={"stop": "already_done"})


def _grounded(overrides: dict) -> Callable[[dict], Plan]:
    """Today's grounded planner (:mod:`actionable.planning.grounded`) through the sequencing
    benchmark's worker (same models, bank, retriever and settings as ``eval sequencing``)."""

    def make(settings: dict) -> Plan:
        from actionable.core.program import Program
        from actionable.evaluation.sequencing import SequencingSettings, SequencingWorker

        w = SequencingWorker(SequencingSettings(model=settings.get("model", "embedded"),
                                                grounded=dict(overrides), cache_dir=settings.get("cache_dir")))
        row = "grounded" if overrides.get("use_lm", True) else "grounded-no-lm"

        def plan(task: PlanTask, domain):
            query = SimpleNamespace(task=task.task, description=task.description)
            out = w._plan(row, query, domain, set(task.exclude_sources), set(task.exclude_tasks))
            return Program(tuple(out["grounded"].steps), task.task, task.description,
                           meta={"stop": out["extra"].get("stop")})

        return plan

    return make


def _goal(settings: dict) -> Plan:
    """The goal-directed planner (``--variant goal``): the world's goal interpreter reads the task
    name (the description is not read: it narrates steps, not the end state), with the split's
    exclusions applied to intent readings (no annotated goal of the program itself, nor under LTO
    of any title of its twin-aware fold), then :func:`~actionable.planning.pipeline.plan_task`."""
    from actionable.core.program import Program
    from actionable.grounding.embedder import load_embedder
    from actionable.planning.pipeline import interpreter_for, plan_task, read_goal

    emb = load_embedder(settings.get("translation_model", "minilm"), settings.get("cache_dir"))

    def plan(task: PlanTask, domain):
        interp = interpreter_for(domain, emb)
        reading = read_goal(interp, task.task, exclude_titles=task.exclude_tasks,
                            exclude_programs=task.exclude_sources)
        res = plan_task(domain, task.task, interp, reading=reading)
        return Program(tuple(res.resolved_program.steps), task.task, task.description,
                       meta={"stop": res.stop_reason, "done": res.done})

    return plan


def _goal_fallback(settings: dict) -> Plan:
    """``goal``, and where no goal could be read ("I can't tell what end state this asks for") the
    imitation planner without LM (``grounded-no-lm``) plans instead: "without interpreted goals the
    imitation planner remains". Refusals for a missing object stay refusals."""
    from actionable.core.errors import GoalReadingError

    goal, imitate = _goal(settings), _grounded({"use_lm": False})(settings)

    def plan(task: PlanTask, domain):
        try:
            return goal(task, domain)
        except GoalReadingError as exc:
            if exc.status != "unclear":
                raise
            return imitate(task, domain)

    return plan


def _goal_given(settings: dict) -> Plan:
    """Goal-directed planning from the task's annotated goals (EAI's action-sequencing inputs give
    the goals: its node, edge and action goals on the program's own nodes), not from the text:
    the reference for column (a), where EAI's models get the same goals."""
    from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading
    from actionable.core.program import Program
    from actionable.evaluation.datasets import dataset
    from actionable.planning.pipeline import interpreter_for, plan_task

    ds = dataset(settings.get("world"))

    def plan(task: PlanTask, domain):
        spec = ds.goal_annotations()[task.program_id]
        interp = interpreter_for(domain)
        char = domain.graph.character_id
        cid = lambda i: CHARACTER if i == char else i  # noqa: E731
        clauses = [Clause((Condition("state", cid(g.node_id), g.state),), g.describe(), "annotation (given)")
                   for g in spec.states]
        for g in spec.relations:
            clauses.append(Clause((Condition("relation", cid(g.from_id), g.relation, cid(g.to_id)),), g.describe(),
                                  "annotation (given)"))
        objs = [x for g in spec.states for x in (g.node_id,) if x != char]
        objs += [x for g in spec.relations for x in (g.from_id, g.to_id) if x != char]
        objs = list(dict.fromkeys(o for o in objs if o not in set(domain.graph.rooms)))
        if spec.actions and not objs:  # "Wash hands": did(RINSE|WASH) alone; EAI's inputs list the
            from actionable.evaluation.eai.protocol import sequencing_inputs  # relevant objects

            rooms = set(domain.graph.rooms)
            objs = [i for i in sequencing_inputs(task.program_id)["objects"].values()
                    if i != char and i not in rooms and domain.graph.class_of(i) is not None]
        clauses += [action_clause("|".join(g.alternatives), objs, g.describe(), "annotation (given)")
                    for g in spec.actions]
        reading = GoalReading(task.task, tuple(clauses))
        res = plan_task(domain, task.task, interp, reading=reading)
        return Program(tuple(res.resolved_program.steps), task.task, task.description,
                       meta={"stop": res.stop_reason, "done": res.done})

    return plan


def action_clause(value: str, objs: list, text: str, source: str):
    """An EAI action goal as a clause: the action (``"RINSE|WASH"``) done with no object, on one of
    the first six ``objs``, or on a pair of them (EAI's action goals name no object), each only where
    one of the alternatives takes that many objects (``ACTION_ARITY``: POUR two)."""
    from actionable.core.conditions import Clause, Condition
    from actionable.core.program import ACTION_ARITY

    arity = {ACTION_ARITY.get(a, 1) for a in value.split("|")}  # options of an arity no alternative has
    opts = [Condition("action", None, value)] if 0 in arity else []  # are left out (POUR takes two
    opts += [Condition("action", o, value) for o in objs[:6]] if 1 in arity else []  # objects: the
    opts += ([Condition("action", o, value, t) for o in objs[:6] for t in objs[:6] if o != t]  # search tries
             if 2 in arity else [])  # a clause's first options only)
    return Clause(tuple(opts), text, source)


def _eai_relation(rel: str, target: str, targets: dict | None) -> str | None:
    """The relation EAI's table allows for ``target`` (``targets``: :func:`~actionable.evaluation.eai.
    goal_interpretation.relation_targets`): INSIDE and ON swap (EAI writes clothes *in* the washing
    machine as ``ON``), HOLDS_RH and HOLDS_LH swap; ``None`` when no relation of the pair allows it."""
    if not targets or target in targets.get(rel, ()):
        return rel
    pair = {"INSIDE": "ON", "ON": "INSIDE", "HOLDS_RH": "HOLDS_LH", "HOLDS_LH": "HOLDS_RH"}.get(rel)
    return pair if pair and target in targets.get(pair, ()) else None


#: VirtualHome's classes that wash what is put in them: with one among the relevant objects, the
#: washing is the machine's (its ``ON``, the things ``ON`` it), not the agent's WASH.
WASHING_MACHINES = frozenset({"dishwasher", "washing_machine"})


def reading_prediction(reading, objects: dict, class_of=None, targets: dict | None = None,
                       properties_of=None, clean_as_wash: bool = False) -> dict:
    """A goal reading in EAI's goal-interpretation output format (class names; of each clause the
    option whose objects are among EAI's relevant ``objects`` (name -> id), else its first; negated
    conditions and the character's room left out; HOLDS as ``HOLDS_RH``; with ``targets``, EAI's
    allowed ``to_name`` table, a relation its target does not allow is swapped for the one that does
    (:func:`_eai_relation`) or left out). With ``properties_of`` (id -> the scene's properties):
    ``ON`` of a device with ``HAS_PLUG`` also predicts ``PLUGGED_IN``, EAI's annotation convention
    (on the tune half, 39 of 40 annotated ``ON`` goals of ``HAS_PLUG`` classes carry it, and none
    of the 30 of classes without it).

    With ``clean_as_wash``: EAI never annotates ``CLEAN`` (0 of the tune half's goals); it writes
    washing by hand as the action goal WASH ("Wash hands": ``RINSE|WASH``). A ``CLEAN`` condition is
    so predicted as the action WASH, or as nothing where a washing machine
    (:data:`WASHING_MACHINES`) is among the relevant ``objects``."""
    ids = set(objects.values())
    known = {v: k for k, v in objects.items()}

    class name(dict):  # EAI's relevant name of an id, else its class in the scene
        def get(self, k, d=None):
            return known.get(k) or (class_of(k) if class_of is not None and k is not None else d)
    name = name()
    nodes, edges, actions = [], [], []
    for clause in reading.clauses:
        opts = sorted(clause.options, key=lambda o: -sum(x in ids or x == "character" for x in (o.subject, o.target)))
        o = opts[0]
        if o.negate:
            continue
        subj = "character" if o.subject == "character" else name.get(o.subject)
        if o.kind == "action":
            actions.append({"action": o.value.split("|")[0]})
        elif o.kind == "state" and o.value == "CLEAN" and clean_as_wash:
            if not WASHING_MACHINES & set(objects) and {"action": "WASH"} not in actions:
                actions.append({"action": "WASH"})
        elif o.kind == "state" and subj is not None:
            nodes.append({"name": subj, "state": o.value})
            if (o.value == "ON" and properties_of is not None and subj != "character"
                    and "HAS_PLUG" in properties_of(o.subject)):
                nodes.append({"name": subj, "state": "PLUGGED_IN"})
        elif o.kind == "relation" and subj is not None and name.get(o.target) is not None:
            rel = _eai_relation("HOLDS_RH" if o.value == "HOLDS" else o.value, name.get(o.target), targets)
            if rel is not None:
                edges.append({"from_name": subj, "relation": rel, "to_name": name.get(o.target)})
    return {"node goals": nodes, "edge goals": edges, "action goals": actions}


def _is_posture(g: dict) -> bool:
    """The character's posture in EAI's output: ``SITTING``/``LYING``, or the character ``ON`` something."""
    if "state" in g:
        return g["name"] == "character" and g["state"] in ("SITTING", "LYING")
    return g["from_name"] == "character" and g["relation"] == "ON"


_NARRATOR = re.compile(r"^(?:(?:and|then|so|now|first|finally|next|after that)[ ,]+)*"
                       r"(?:i|we|you)(?:'ll|'m| will| would| need to| have to| want to| can| should| then| just| go and)*\s+",
                       re.IGNORECASE)


def narrated_as_said(text: str) -> str:
    """A description's first-person narration as the imperative the interpreter reads: the
    narrator's subject dropped ("I turn on CD player" -> "turn on CD player"; "Then I sit on the
    sofa" -> "sit on the sofa"). EAI's descriptions are mostly written so ("I walk to the sofa, and
    lie down on the sofa")."""
    return _NARRATOR.sub("", text.strip()).strip()


def narrated_clauses(text: str) -> list[str]:
    """The clauses of a description sentence (split at commas, "and", "then"), each with the
    narrator's subject dropped (:func:`narrated_as_said`); clauses of fewer than two words left out."""
    parts = re.split(r",|\band then\b|\bthen\b|\band\b", text, flags=re.IGNORECASE)
    return [c for c in (narrated_as_said(p) for p in parts) if len(c.split()) >= 2]


def description_readings(interp, task_name: str, description: str, text: str = "clauses", exclude_titles=(),
                         exclude_programs=()) -> list:
    """``[(i, GoalReading)]``: the goal interpreter's readings of the task name (``i == 0``) and,
    unless ``text == "title"``, of each sentence ``i`` of the description (``"clauses"``: read with
    the narrator's subject dropped, and a sentence that does not read is read clause by clause;
    :func:`interpreter_predictor`)."""
    texts = [task_name]
    if text in ("both", "clauses"):
        texts += [t.strip() for t in re.split(r"[.!?;\n]+", description or "") if len(t.split()) >= 2]
    readings = []
    for i, t in enumerate(texts):
        r = interp.read(narrated_as_said(t) if i and text == "clauses" else t,
                        exclude_titles=exclude_titles, exclude_programs=exclude_programs)
        if r.is_goal or not i or text != "clauses":
            readings.append((i, r))
            continue
        for part in narrated_clauses(t):  # a sentence that does not read: its clauses, each alone
            readings.append((i, interp.read(part, exclude_titles=exclude_titles, exclude_programs=exclude_programs)))
    return readings


def interpreter_predictor(split: str = "lto", translation_model: str = "minilm", embedder=None, text: str = "title",
                          conventions: bool = False):
    """``predict(task_name, inputs)`` for :func:`~actionable.evaluation.eai.goal_interpretation.evaluate_goal_interpretation`:
    VirtualHome's goal interpreter in the program's own scene, under ``split``'s exclusions; a
    refused or unclear reading predicts no goals (``embedder``: a loaded translation LM, else
    ``translation_model`` is loaded).

    ``text``: what is read. ``"title"``: the task name only. ``"both"``: the name and each sentence
    of EAI's task description (an input of EAI's prompt: "I walk to the sofa, and lie down"), each
    read on its own, the goals of every reading merged (a sentence refused or unclear adds none).
    ``"clauses"``: as ``"both"``, each sentence read with the narrator's subject dropped
    (:func:`narrated_as_said`), and a sentence that still does not read is read clause by clause
    (:func:`narrated_clauses`: "Go to office, sit at desk, turn on computer, enter password").

    ``conventions``: EAI's conventions on the reading: ``CLEAN`` as the action WASH
    (:func:`reading_prediction`); no room of the character (EAI annotates it in 2 of the tune
    half's 171 tasks; "I walk to the kitchen" narrates a step on the way); and a posture the
    description reads (the character ``SITTING`` / ``LYING`` / ``ON`` a seat) only where it is the
    task: kept when nothing else is read and the name says no action, or when the name's action
    needs a posture (:data:`~actionable.evaluation.eai.actions.POSTURE_ACTIONS`: SLEEP);
    "sit on the couch and watch TV" narrates where the watching is done (tune half: EAI annotates a
    posture only for "Relax on sofa" and "Go to sleep"), and kept always when it replaces a posture the
    name read ("Relax on sofa": sitting; "... and lie down to sleep"). Of two states of one thing that
    exclude each other, a later reading's replaces an earlier one ("turn on the computer ... turn it
    off": OFF).

    Raises:
        ConfigError: an unknown ``text``.
    """
    from actionable.core.errors import ConfigError
    from actionable.core.registry import capability
    from actionable.evaluation.eai.actions import exclusive
    from actionable.evaluation.eai.folds import exclusions
    from actionable.grounding.embedder import load_embedder

    if text not in ("title", "both", "clauses"):
        raise ConfigError(f"interpreter text: choose title, both or clauses, got {text!r}")
    emb = embedder if embedder is not None else load_embedder(translation_model)
    goals = capability("virtualhome", "goals")

    def predict(task_name, inputs):
        pid = inputs["program_id"]
        ex_src, ex_tasks = exclusions(pid, task_name, split)
        interp = goals(pid, embedder=emb)
        out = {"node goals": [], "edge goals": [], "action goals": []}
        rooms = {interp.graph.class_of(r) for r in interp.graph.rooms} if conventions else set()
        readings = description_readings(interp, task_name, inputs.get("description") or "", text, ex_tasks, ex_src)
        posture = {"node goals": [], "edge goals": []}  # the description's posture, kept below or not
        for i, r in readings:
            if not r.is_goal:
                continue
            for k, gs in reading_prediction(r, inputs["objects"], interp.graph.class_of,
                                            inputs.get("relation_targets"), interp.graph.properties_of,
                                            clean_as_wash=conventions).items():
                if conventions and k == "edge goals":  # the character's room: not EAI's goal
                    gs = [g for g in gs if not (g["from_name"] == "character" and g["relation"] == "INSIDE"
                                                and g["to_name"] in rooms)]
                if conventions and i and k != "action goals":
                    post = [g for g in gs if _is_posture(g)]
                    posture[k] += [g for g in post if g not in posture[k]]
                    gs = [g for g in gs if not _is_posture(g)]
                if conventions and k == "node goals":  # a later reading's state replaces an earlier
                    out[k] = [h for h in out[k]  # one it excludes ("turn on ..., turn off the computer")
                              if not any(h["name"] == g["name"] and exclusive(h["state"], g["state"]) for g in gs)]
                out[k] += [g for g in gs if g not in out[k]]
        if conventions and any(posture.values()):
            from actionable.evaluation.eai.actions import POSTURE_ACTIONS, title_actions

            said = {a for _, a in title_actions(task_name)}
            # the name's posture, which the description says otherwise
            moved = [h for h in out["node goals"] if any(h["name"] == g["name"] and exclusive(h["state"], g["state"])
                                                         for g in posture["node goals"])]
            if moved or not any(out.values()) and not said - POSTURE_ACTIONS or said & POSTURE_ACTIONS:
                out["node goals"] = [h for h in out["node goals"] if h not in moved]  # ("relax": sit; "lie down")
                for k, gs in posture.items():
                    out[k] += [g for g in gs if g not in out[k]]
        return out if any(out.values()) else {}

    return predict


register_planner("goal", _goal)
register_planner("goal+fallback", _goal_fallback)
register_planner("goal-given", _goal_given)
register_planner("gold", _gold)
register_planner("empty", _empty)
register_planner("grounded", _grounded({}))
register_planner("grounded-no-lm", _grounded({"use_lm": False}))

__all__ = ["PLANNERS", "Plan", "PlanTask", "action_clause", "description_readings", "WASHING_MACHINES", "interpreter_predictor", "make_planner",
           "narrated_as_said", "narrated_clauses", "reading_prediction", "register_planner"]
