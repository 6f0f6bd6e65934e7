"""The goal check of a VirtualHome plan: the goal conditions a free-form task implies.

The annotated goals of the nearest packaged program with the task's title (EAI's annotations,
:mod:`.goals`), else conditions read from the text (:mod:`.goaltext`), checked by class on the
plan's final state (:func:`actionable.core.goals.check_goals`). The planning domain's
``goal_check`` (:class:`~actionable.worlds.virtualhome.planning.VirtualHomePlanning`).
"""

from __future__ import annotations


def implied_goal_check(retriever, result, graph, description: str | None = None,
                       min_similarity: float = 0.9) -> dict:
    """Check the goal a free-form task implies, where one can be derived.

    The goal is that of the nearest packaged program (kNN over the bank, the
    task's own programs included) whose task name equals the query's (case and
    punctuation aside) or whose similarity is at least ``min_similarity``, and
    that has goal annotations (342 of 518 do). Otherwise conditions are read
    from the text over the plan's objects ("turn on the TV" -> ON(television),
    :func:`actionable.worlds.virtualhome.goaltext.derive_goal_spec`, the same reader the
    verify judges use). Goals are matched by class on the state after the
    executed plan.

    Args:
        retriever: the session's program retriever (``nearest(task, description, k)``, the example
            bank's programs with their ids).
        result: the :class:`~actionable.planning.result.PlanResult` (``resolved_program``,
            ``final_state``, ``executability``).
        graph: the scene the plan ran in (:class:`~actionable.worlds.virtualhome.scene.SceneGraph`).

    Returns:
        ``{"checked": False, "reason": ...}`` or ``{"checked": True, "program_id",
        "task", "met", "total", "task_success", "unmet": [...]}``.
    """
    from actionable.core.dataset import normalize_task
    from actionable.core.goals import check_goals
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    ex = result.executability or {}
    if (result.final_state is None and not result.steps) or result.resolved_program is None:
        return {"checked": False, "reason": "no plan was grounded in the scene; goal not checked"}
    ann = load_goal_annotations()
    q = normalize_task(result.task)

    def check(spec, classes=None) -> dict:
        """Check ``spec`` on the state after the executed part of the plan."""
        state = result.final_state
        if state is None:
            from actionable.worlds.virtualhome.simulator import execute_program

            state = execute_program(result.resolved_program, graph).final_state
        executed = list(result.resolved_program.steps)
        if not ex.get("executable") and ex.get("steps_executed") is not None:
            executed = executed[: ex["steps_executed"]]
        gr = check_goals(spec, state.to_dict(), executed, match="class", classes=classes)
        out = {"checked": True, "met": gr.met, "total": gr.total, "unmet": list(gr.unmet),
               "task_success": bool(gr.task_success and ex.get("executable"))}
        descs = [g.describe() for g in (*spec.states, *spec.relations, *spec.actions)]
        unmet = set(gr.unmet)
        if len(descs) == gr.total and sum(d in unmet for d in descs) == gr.total - gr.met:
            out["conditions"] = [{"text": d, "met": d not in unmet} for d in descs]  # each, for the replays
        return out

    for r in retriever.nearest(result.task, description, k=10):
        src = r.example.source
        same = normalize_task(r.example.task) == q or r.similarity >= min_similarity
        if same and src in ann:
            from actionable.worlds.virtualhome.scene import load_scene

            own = load_scene(src)  # the annotation's ids name objects of the program's own scene
            out = check(ann[src], {i: own.class_of(i) for i in own.node_ids})
            return {**out, "program_id": src, "task": r.example.task}
    # no packaged title: read goal conditions from the text ("turn on the TV" -> ON(television))
    from actionable.worlds.virtualhome.goaltext import derive_goal_spec

    derived = derive_goal_spec(result.task, result.resolved_program, graph, scene_objects=True)
    if derived.spec is not None and derived.spec.total:
        return {**check(derived.spec), "program_id": "the task text", "task": result.task,
                "source": derived.source}
    return {"checked": False, "reason": "no annotated program with this task name, and no goal condition "
                                        "could be read from the text; goal not checked"}


__all__ = ["implied_goal_check"]
