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
            rel = "HOLDS" if g.relation in ("HOLDS_RH", "HOLDS_LH") else g.relation
            clauses.append(Clause((Condition("relation", cid(g.from_id), rel, cid(g.to_id)),), g.describe(),
                                  "annotation (given)"))
        objs = [x for g in spec.states for x in (g.node_id,) if x != char]
        objs += [x for g in spec.relations for x in (g.from_id, g.to_id) if x != char]
        objs = list(dict.fromkeys(o for o in objs if o not in set(domain.graph.rooms)))
        if spec.actions and not objs:  # "Wash hands": did(RINSE|WASH) alone; EAI's inputs list the
            from actionable.evaluation.eai.protocol import sequencing_inputs  # relevant objects

            rooms = set(domain.graph.rooms)
            objs = [i for i in sequencing_inputs(task.program_id)["objects"].values()
                    if i != char and i not in rooms and domain.graph.class_of(i) is not None]
        for g in spec.actions:
            value = "|".join(g.alternatives)
            opts = [Condition("action", None, value)] + [Condition("action", o, value) for o in objs[:6]]
            opts += [Condition("action", o, value, t) for o in objs[:6] for t in objs[:6] if o != t]
            clauses.append(Clause(tuple(opts), g.describe(), "annotation (given)"))
        reading = GoalReading(task.task, tuple(clauses))
        res = plan_task(domain, task.task, interp, reading=reading)
        return Program(tuple(res.resolved_program.steps), task.task, task.description,
                       meta={"stop": res.stop_reason, "done": res.done})

    return plan


def _eai_relation(rel: str, target: str, targets: dict | None) -> str | None:
    """The relation EAI's table allows for ``target`` (``targets``: :func:`~actionable.evaluation.eai.
    goal_interpretation.relation_targets`): INSIDE and ON swap (EAI writes clothes *in* the washing
    machine as ``ON``), HOLDS_RH and HOLDS_LH swap; ``None`` when no relation of the pair allows it."""
    if not targets or target in targets.get(rel, ()):
        return rel
    pair = {"INSIDE": "ON", "ON": "INSIDE", "HOLDS_RH": "HOLDS_LH", "HOLDS_LH": "HOLDS_RH"}.get(rel)
    return pair if pair and target in targets.get(pair, ()) else None


def reading_prediction(reading, objects: dict, class_of=None, targets: dict | None = None,
                       properties_of=None) -> dict:
    """A goal reading in EAI's goal-interpretation output format (class names; of each clause the
    option whose objects are among EAI's relevant ``objects`` (name -> id), else its first; negated
    conditions and the character's room left out; HOLDS as ``HOLDS_RH``; with ``targets``, EAI's
    allowed ``to_name`` table, a relation its target does not allow is swapped for the one that does
    (:func:`_eai_relation`) or left out). With ``properties_of`` (id -> the scene's properties):
    ``ON`` of a device with ``HAS_PLUG`` also predicts ``PLUGGED_IN``, EAI's annotation convention
    (on the tune half, 39 of 40 annotated ``ON`` goals of ``HAS_PLUG`` classes carry it, and none
    of the 30 of classes without it)."""
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


def interpreter_predictor(split: str = "lto", translation_model: str = "minilm", embedder=None, text: str = "title"):
    """``predict(task_name, inputs)`` for :func:`~actionable.evaluation.eai.goal_interpretation.evaluate_goal_interpretation`:
    VirtualHome's goal interpreter in the program's own scene, under ``split``'s exclusions; a
    refused or unclear reading predicts no goals (``embedder``: a loaded translation LM, else
    ``translation_model`` is loaded).

    ``text``: what is read. ``"title"``: the task name only. ``"both"``: the name and each sentence
    of EAI's task description (an input of EAI's prompt: "I walk to the sofa, and lie down"), each
    read on its own, the goals of every reading merged (a sentence refused or unclear adds none).

    Raises:
        ConfigError: an unknown ``text``.
    """
    import re

    from actionable.core.errors import ConfigError
    from actionable.core.registry import capability
    from actionable.evaluation.eai.folds import exclusions
    from actionable.grounding.embedder import load_embedder

    if text not in ("title", "both"):
        raise ConfigError(f"interpreter text: choose title or both, got {text!r}")
    emb = embedder if embedder is not None else load_embedder(translation_model)
    goals = capability("virtualhome", "goals")

    def predict(task_name, inputs):
        pid = inputs["program_id"]
        ex_src, ex_tasks = exclusions(pid, task_name, split)
        interp = goals(pid, embedder=emb)
        texts = [task_name]
        if text == "both":
            texts += [t.strip() for t in re.split(r"[.!?;\n]+", inputs.get("description") or "")
                      if len(t.split()) >= 2]
        out = {"node goals": [], "edge goals": [], "action goals": []}
        for t in texts:
            r = interp.read(t, exclude_titles=ex_tasks, exclude_programs=ex_src)
            if not r.is_goal:
                continue
            for k, gs in reading_prediction(r, inputs["objects"], interp.graph.class_of,
                                            inputs.get("relation_targets"), interp.graph.properties_of).items():
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

__all__ = ["PLANNERS", "Plan", "PlanTask", "interpreter_predictor", "make_planner", "reading_prediction",
           "register_planner"]
