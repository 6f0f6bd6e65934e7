"""Action sequencing planned to *predicted* goals (issue 24, "goal-directed planning from the
interpreter's goals only, never the target's annotation").

Planner ``goal-predicted`` of :data:`~actionable.evaluation.eai.planners.PLANNERS`: the goals are
those the benchmark's goal-interpretation predictor reads
(:func:`~actionable.evaluation.eai.goal_retrieval.retrieval_predictor`: the goal interpreter on the
task name, and on the description unless the row is name-only, plus the annotated goals of the
nearest tasks the split allows, EAI's conventions; 66.8 F1 on the report half of EAI's goal
interpretation, leave-title-out), bound to EAI's relevant objects of the task's scene, then planned
by the goal-directed planner (:func:`~actionable.planning.pipeline.plan_task`). Where nothing is
predicted on the relevant objects ("Turn on light" in a scene whose relevant object is a floor
lamp), planner ``goal`` plans instead (the goal interpreter's reading of the task name). The split's
exclusions are the predictor's own (leave-title-out: no program with the task's title or a
step-for-step twin informs the goals; LOPO: not the program itself).

The relevant-object list is EAI's input (its ``generate_prompts``), as for EAI's models; the
product has none (``actionable plan`` reads goals with the interpreter alone: planner ``goal``).
"""

from __future__ import annotations

from actionable.evaluation.eai.planners import action_clause, make_planner, register_planner

#: the predictor's settings: k nearest tasks, vote share, action goals from the title (the
#: goal-interpretation row of docs/results.md, tuned on the tune half)
K, THRESHOLD, ACTIONS = 3, 0.5, "title"


def predicted_reading(task: str, pred: dict, objects: dict, graph):
    """EAI-format predicted goals (class names) as a :class:`~actionable.core.conditions.GoalReading`
    on ``graph``'s instances: a name is EAI's relevant object of that class (``objects``: name ->
    id), else every instance of the class in the scene; ``HOLDS_RH``/``HOLDS_LH`` as ``HOLDS``; an
    action goal on any of the goals' objects (:func:`~actionable.evaluation.eai.planners.action_clause`).
    Goals naming a class the scene lacks are left out."""
    from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading

    def ids(name):
        if name == "character":
            return [CHARACTER]
        if name in objects:
            return [objects[name]]
        return list(graph.nodes_of_class(name))

    clauses, objs = [], []
    for g in pred.get("node goals", []):
        opts = tuple(Condition("state", i, g["state"]) for i in ids(g["name"]))
        if opts:
            clauses.append(Clause(opts, f"{g['name']} is {g['state']}", "predicted"))
            objs += [i for i in ids(g["name"]) if i != CHARACTER]
    for g in pred.get("edge goals", []):
        rel = "HOLDS" if g["relation"] in ("HOLDS_RH", "HOLDS_LH") else g["relation"]
        a, b = ids(g["from_name"]), ids(g["to_name"])
        opts = tuple(Condition("relation", x, rel, y) for x in a for y in b if x != y)
        if opts:
            clauses.append(Clause(opts, f"{g['from_name']} {g['relation']} {g['to_name']}", "predicted"))
            objs += [i for i in a + b if i != CHARACTER]
    objs = list(dict.fromkeys(o for o in objs if o not in set(graph.rooms)))
    if not objs:
        objs = [i for i in objects.values() if i not in set(graph.rooms) and graph.class_of(i) not in (None, "character")]
    clauses += [action_clause(g["action"], objs, f"did {g['action']}", "predicted") for g in pred.get("action goals", [])]
    return GoalReading(task, tuple(clauses))


def make_goal_predicted(settings: dict):
    """``make(settings) -> plan`` of planner ``goal-predicted`` (module doc)."""
    from actionable.core.program import Program
    from actionable.evaluation.eai.goal_retrieval import _pool, retrieval_predictor
    from actionable.planning.pipeline import interpreter_for, plan_task

    predictors: dict = {}
    inputs = {x["program_id"]: x for x in _pool()[0]}
    fallback = make_planner("goal", settings)

    def plan(task, domain):
        said = "clauses" if task.description else "title"
        key = (task.split, said)
        if key not in predictors:
            predictors[key] = retrieval_predictor(task.split, K, THRESHOLD, interpreter_text=said, actions=ACTIONS,
                                                  conventions=True)
        x = {**inputs[task.program_id], "description": task.description}
        reading = predicted_reading(task.task, predictors[key](task.task, x), x["objects"], domain.graph)
        if not reading.clauses:  # nothing predicted on the relevant objects: the interpreter's own reading
            return fallback(task, domain)
        res = plan_task(domain, task.task, interpreter_for(domain), reading=reading)
        return Program(tuple(res.resolved_program.steps), task.task, task.description,
                       meta={"stop": res.stop_reason, "done": res.done})

    return plan


register_planner("goal-predicted", make_goal_predicted)

__all__ = ["make_goal_predicted", "predicted_reading"]
