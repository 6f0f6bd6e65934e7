"""Action sequencing planned to *predicted* goals (issue 24, "goal-directed planning from the
interpreter's goals only, never the target's annotation").

Planner ``goal-predicted`` of :data:`~actionable.evaluation.eai.planners.PLANNERS`: the goals are
those the benchmark's goal-interpretation predictor reads
(:func:`~actionable.evaluation.eai.goal_retrieval.retrieval_predictor`: the goal interpreter on the
task name, and on the description unless the row is name-only, plus the annotated goals of the
nearest tasks the split allows, EAI's conventions, the device prior; 73.7 F1 on the report half of
EAI's goal interpretation, leave-title-out), bound to EAI's relevant objects of the task's scene
(:func:`predicted_reading`, with the interpreter's own readings of the name and description for
the instances a quantified reading names), then planned by the goal-directed planner
(:func:`~actionable.planning.pipeline.plan_task`). Where nothing is predicted on the relevant
objects, planner ``goal`` plans instead (the goal interpreter's reading of the task name). The split's
exclusions are the predictor's own (leave-title-out: no program with the task's title or a
step-for-step twin informs the goals; LOPO: not the program itself).

The relevant-object list is EAI's input (its ``generate_prompts``), as for EAI's models; the
product has none (``actionable plan`` reads goals with the interpreter alone: planner ``goal``).
"""

from __future__ import annotations

from actionable.evaluation.eai.goal_retrieval import ACTION_PRECONDITIONS
from actionable.evaluation.eai.planners import action_clause, make_planner, register_planner

#: the predictor's settings: k nearest tasks, vote share, action goals from the title, the device
#: prior (the goal-interpretation row of docs/results.md, tuned on the tune half)
K, THRESHOLD, ACTIONS, DEVICE = 3, 0.5, "title", True


def quantified(readings, graph) -> dict:
    """``{(class, state): instance ids}`` of the states a reading asks of several instances of one
    class, each its own clause ("turn on the lights in the kitchen": ``ON`` of each of the kitchen's
    lights), from ``readings`` (:class:`~actionable.core.conditions.GoalReading`s on ``graph``'s
    scene); a class asked of one instance, or of any one of several ("the light"), is not there."""
    groups: dict = {}
    for r in readings:
        for c in r.clauses:
            if len(c.options) == 1 and c.options[0].kind == "state" and not c.options[0].negate:
                o = c.options[0]
                groups.setdefault((graph.class_of(o.subject), o.value), []).append(o.subject)
    return {k: list(dict.fromkeys(v)) for k, v in groups.items() if k[0] is not None and len(set(v)) >= 2}


def predicted_reading(task: str, pred: dict, objects: dict, graph, readings=()):
    """EAI-format predicted goals (class names) as a :class:`~actionable.core.conditions.GoalReading`
    on ``graph``'s instances: a name is EAI's relevant object of that class (``objects``: name ->
    id), else every instance of the class in the scene; a state the interpreter's ``readings`` ask of
    several instances (:func:`quantified`: "the lights in the kitchen") is asked of each of them;
    ``HOLDS_RH``/``HOLDS_LH`` keep their hand (VirtualHome's GRAB fills the right hand first), but
    a left hand asked alone is either hand (the left is filled only once the right holds something); an
    action goal on any of the goals' objects, then EAI's other relevant objects (EAI's action goals
    name no object: "did POUR" is met pouring the water, which no state goal names), except an action
    whose precondition names its object (``ACTION_PRECONDITIONS``: DRINK, READ, WATCH, ...: held or
    faced, predicted as an edge goal), done on the goals' objects only (drinking the water found first
    would leave the glass the goal holds unheld;
    :func:`~actionable.evaluation.eai.planners.action_clause`). Goals naming a class the scene lacks
    are left out."""
    from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading

    def ids(name):
        if name == "character":
            return [CHARACTER]
        if name in objects:
            return [objects[name]]
        return list(graph.nodes_of_class(name))

    every = quantified(readings, graph)
    clauses, objs = [], []
    for g in pred.get("node goals", []):
        if (g["name"], g["state"]) in every:
            insts = every[(g["name"], g["state"])]
            clauses += [Clause((Condition("state", i, g["state"]),), f"{g['name']} {i} is {g['state']}", "predicted")
                        for i in insts]
            objs += insts
            continue
        opts = tuple(Condition("state", i, g["state"]) for i in ids(g["name"]))
        if opts:
            clauses.append(Clause(opts, f"{g['name']} is {g['state']}", "predicted"))
            objs += [i for i in ids(g["name"]) if i != CHARACTER]
    hands = {g["relation"] for g in pred.get("edge goals", []) if g["relation"] in ("HOLDS_RH", "HOLDS_LH")}
    for g in pred.get("edge goals", []):
        rel = "HOLDS" if g["relation"] == "HOLDS_LH" and "HOLDS_RH" not in hands else g["relation"]
        a, b = ids(g["from_name"]), ids(g["to_name"])
        opts = tuple(Condition("relation", x, rel, y) for x in a for y in b if x != y)
        if opts:
            clauses.append(Clause(opts, f"{g['from_name']} {g['relation']} {g['to_name']}", "predicted"))
            objs += [i for i in a + b if i != CHARACTER]
    rooms = set(graph.rooms)
    objs = list(dict.fromkeys(o for o in objs if o not in rooms and o != CHARACTER))
    more = list(dict.fromkeys(objs + [i for i in objects.values() if i not in rooms
                                      and graph.class_of(i) not in (None, "character")]))
    for g in pred.get("action goals", []):
        # an action whose precondition names its object (DRINK: the thing held, predicted as an edge
        # goal) is done on the goals' objects; another on any relevant object
        on = objs if g["action"] in ACTION_PRECONDITIONS and objs else more
        clauses.append(action_clause(g["action"], on, f"did {g['action']}", "predicted"))
    return GoalReading(task, tuple(clauses))


def make_goal_predicted(settings: dict):
    """``make(settings) -> plan`` of planner ``goal-predicted`` (module doc)."""
    from actionable.core.program import Program
    from actionable.evaluation.eai.folds import exclusions
    from actionable.evaluation.eai.goal_retrieval import _pool, retrieval_predictor
    from actionable.evaluation.eai.planners import description_readings
    from actionable.planning.pipeline import interpreter_for, plan_task

    predictors: dict = {}
    inputs = {x["program_id"]: x for x in _pool()[0]}
    fallback = make_planner("goal", settings)

    def plan(task, domain):
        said = "clauses" if task.description else "title"
        key = (task.split, said)
        if key not in predictors:
            predictors[key] = retrieval_predictor(task.split, K, THRESHOLD, interpreter_text=said, actions=ACTIONS,
                                                  conventions=True, device_prior=DEVICE)
        x = {**inputs[task.program_id], "description": task.description}
        interp = interpreter_for(domain)
        ex_p, ex_t = exclusions(task.program_id, task.task, task.split)
        said_readings = [r for _, r in description_readings(interp, task.task, task.description or "", said, ex_t, ex_p)
                         if r.is_goal]
        reading = predicted_reading(task.task, predictors[key](task.task, x), x["objects"], domain.graph,
                                    said_readings)
        if not reading.clauses:  # nothing predicted on the relevant objects: the interpreter's own reading
            return fallback(task, domain)
        res = plan_task(domain, task.task, interp, reading=reading)
        return Program(tuple(res.resolved_program.steps), task.task, task.description,
                       meta={"stop": res.stop_reason, "done": res.done})

    return plan


register_planner("goal-predicted", make_goal_predicted)

__all__ = ["make_goal_predicted", "predicted_reading", "quantified"]
