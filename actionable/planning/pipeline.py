"""The default planner (``--variant goal``): read the goal, plan to it, check the same goal.

:func:`plan_task` is what ``actionable plan`` and :func:`actionable.plan` run:

1. the world's ``goals`` capability reads the instruction as goal conditions
   (:class:`~actionable.core.conditions.GoalReading`); a refusal or an unreadable goal raises
   :class:`~actionable.core.errors.GoalReadingError` (exit 2) and no plan is made;
   A definite command presupposes a change (:func:`~actionable.core.conditions.presuppose`): "pop the
   toothpaste back in the cabinet" means a toothpaste not yet there;
2. conditions that already hold give an empty plan, ``stop_reason == "already_done"``
   ("Nothing to do"); a question (``reading.question``: "Is the TV on?") is answered from the initial
   state, never planned: ``stop_reason == "answered"``, ``result.answer`` (:func:`answer`), ``done``
   True for Yes and False for No, the verdict "Yes: ..." / "No: ...";
3. otherwise :func:`~actionable.planning.goaldirected.plan_to_goal` searches the world's exact
   affordance for a plan (or replays a world's classical plan: the ``pddl`` world's;
   ``result.config["planner"]`` says which);
4. the plan is replayed from the scene's initial state and the *same* clauses are checked on the
   final state (:func:`attach_goal_check`): ``result.done`` is True only when the plan executes and
   every clause holds on the instances the reading bound.

A world without a ``goals`` capability (or a reading with status ``none``) falls back to the
imitation planner (:class:`~actionable.planning.grounded.GroundedPlanner`) and the verdict says the
goal was not checked.
"""

from __future__ import annotations

import time

from actionable.core.conditions import GoalReading, check_clauses, goal_interpreter, presuppose
from actionable.core.errors import GoalReadingError
from actionable.core.program import Program
from actionable.planning.goaldirected import GoalSearchConfig, plan_to_goal
from actionable.planning.result import PlanResult, StepTrace


def interpreter_for(domain, embedder=None):
    """The goal interpreter of ``domain``'s world and scene, or ``None`` (no ``goals`` capability)."""
    interp = goal_interpreter(domain.world, getattr(domain, "graph", None) or domain.name)
    if interp is not None and embedder is not None and hasattr(interp, "embedder"):
        interp.embedder = embedder
        if hasattr(interp, "lex"):
            interp.lex.embedder = embedder
    return interp


def read_goal(interp, task: str, **kw) -> GoalReading:
    """``interp.read(task)``; raises :class:`GoalReadingError` for ``refuse`` and ``unclear``."""
    reading = interp.read(task, **kw) if kw else interp.read(task)
    if reading.status in ("refuse", "unclear"):
        err = GoalReadingError(reading.why)
        err.status, err.closest = reading.status, reading.closest
        raise err
    return reading


def attach_goal_check(result: PlanResult, interp, reading: GoalReading) -> dict:
    """Check ``reading``'s clauses on ``result.final_state`` and store the verdict in
    ``result.goal_check`` (``checked``, ``met``, ``total``, ``unmet``, ``task_success``, ``origin``,
    ``conditions``) and ``result.done`` (see the module doc)."""
    executable = bool((result.executability or {}).get("executable")) or not result.steps
    state = result.final_state
    ex = result.executability or {}
    steps = list(result.resolved_program.steps) if result.resolved_program is not None else []
    if not ex.get("executable") and ex.get("steps_executed") is not None:
        steps = steps[: ex["steps_executed"]]
    chk = check_clauses(reading.clauses, interp.view(state), steps)
    ok = chk.done and executable and result.stop_reason != "max_steps"
    became = _became_true(result, interp, reading, steps)
    result.goal_check = {"checked": True, "met": chk.met, "total": chk.total, "unmet": list(chk.unmet),
                         "task_success": ok, "origin": "read from the task (goal interpreter), bound to instances",
                         "conditions": [{**c.to_dict(), "met": f, "step": b}
                                        for c, f, b in zip(reading.clauses, chk.flags, became)]}
    result.reading = reading.to_dict()
    result.done = ok
    return result.goal_check


def _became_true(result, interp, reading, steps) -> list:
    """Per clause, the 1-based step after which it first holds (0: before any step; ``None``:
    never), replaying ``steps`` in the plan's world when its domain is at hand."""
    domain = getattr(result, "_domain", None)
    if domain is None:
        return [None] * len(reading.clauses)
    aff = domain.start(repair_budget=0)
    out = [0 if f else None for f in check_clauses(reading.clauses, interp.view(aff.state)).flags]
    for k, st in enumerate(steps, 1):
        att = aff.attempt(st, repair=False)
        if not att.ok:
            break
        aff.commit(att)
        for i, f in enumerate(check_clauses(reading.clauses, interp.view(aff.state), steps[:k]).flags):
            if f and out[i] is None:
                out[i] = k
    return out


def plan_task(domain, task: str, interp, config: GoalSearchConfig | None = None,
              reading: GoalReading | None = None) -> PlanResult:
    """Plan ``task`` in ``domain`` to the goal ``interp`` reads (see the module doc).

    Args:
        domain: a :class:`~actionable.core.planning.PlanningDomain`.
        task: the instruction.
        interp: the world's goal interpreter for the same scene.
        config: search limits. reading: a reading already made (skips ``interp.read``).

    Returns:
        a :class:`PlanResult` with ``variant == "goal"``, ``reading``, ``done`` and ``goal_check``.

    Raises:
        GoalReadingError: the goal is refused or cannot be read.
    """
    t0 = time.perf_counter()
    reading = reading or read_goal(interp, task)
    cfg = config or GoalSearchConfig.for_reading(reading)
    res = PlanResult(task=task, variant="goal", config={"max_steps": cfg.max_steps,
                                                       "repair_budget": cfg.repair_budget,
                                                       "lookahead": cfg.lookahead})
    res.world, res.scene = domain.world, domain.name
    res._domain = domain  # for the step each condition became true at (not serialised)
    start = domain.start(repair_budget=cfg.repair_budget)
    reading = presuppose(reading, task, interp.view(start.state))  # "the toothpaste": one not yet in the cabinet
    t_read = time.perf_counter() - t0
    if reading.question:  # a question: answered from the state, no plan (module doc)
        res.answer = answer(reading, interp, start.state, task)
    if reading.question or check_clauses(reading.clauses, interp.view(start.state)).done:
        res.stop_reason = "answered" if reading.question else "already_done"
        res.program = Program(())
        res.resolved_program = Program(())
        res.final_state = start.state
        res.executability = {"executable": True, "failed_index": None, "failed_step": None, "error_type": None,
                             "error": None, "unmet_preconditions": [], "steps_executed": 0}
        res.task_steps = [c.text for c in reading.clauses]
        if not reading.question:
            res.warnings.append("nothing to do: every goal condition already holds")
    else:
        gp = plan_to_goal(domain, interp, reading, cfg)
        res.steps = [StepTrace(position=i + 1, sample_text="", action=s.unresolved().to_text(), step=s.unresolved(),
                               repaired=bool(r), resolved=s, score_parts={"goal": why})
                     for i, (s, r, why) in enumerate(zip(gp.steps, gp.repaired, gp.serves))]
        res.program = Program(tuple(s.unresolved() for s in gp.steps))
        res.resolved_program = Program(tuple(gp.steps))
        res.stop_reason = gp.stop_reason
        res.config["planner"] = gp.planner
        res.stopped_at = {"remaining": gp.remaining, "blockers": gp.blockers, "attempts": gp.attempts}
        t_ex = time.perf_counter()
        res.executability, res.final_state = start.execute(gp.steps)
        res.timings["execution_s"] = time.perf_counter() - t_ex
        res.timings["search_s"] = gp.seconds
    res.timings["read_s"] = t_read
    res.timings["total_s"] = time.perf_counter() - t0
    attach_goal_check(res, interp, reading)
    return res


def answer(reading: GoalReading, interp, state, task: str | None = None) -> dict:
    """A question's answer on ``state``: ``{"answer": "yes" | "no", "holds": [...], "unmet": [...],
    "hint": ...}``: "yes" when every clause holds; ``holds`` names the instances that make each
    clause hold ("television 248 in the dining room is ON" for "Is the TV on?"), ``unmet`` the
    clauses that do not (their instances named), ``hint`` the command that would make it so (from
    ``task``, the question as asked; default ``reading.task``)."""
    from actionable.core.conditions import clause_holds
    from actionable.grounding.spoken import as_command

    view = interp.view(state)
    describe = getattr(interp, "describe", None)
    holds, unmet = [], []
    for c in reading.clauses:
        if not clause_holds(c, view):
            unmet.append(c.text)
            continue
        opts = [o for o in c.options if o.kind != "action" and view.holds(o)]
        holds += [describe(o) for o in opts] if describe is not None and opts else [c.text]
    command = as_command(task or reading.task) if unmet else None
    return {"answer": "no" if unmet else "yes", "holds": holds, "unmet": unmet,
            "hint": f"say it as a command (e.g. '{command}') to make it so" if command else None}


def unused_model_note(model: str, translation_model: str) -> str:
    """The note a goal plan carries when a planning LM (``--model``, ``model=``) was given: the goal
    planner reads the task by rules and the translation LM and searches the world's affordance, so
    it never loads a planning LM (the grounded planner, the paper variants and the fallback for a task
    that reads as no goal do)."""
    return (f"--model {model} was not used: the goal planner reads the task by rules and the translation LM "
            f"({translation_model}, for names and known tasks) and searches the world's affordance without a "
            f"planning LM; --model plans with --variant grounded, a paper variant, or the fallback for a task "
            f"the goal reader cannot read")


class LazyEmbedder:
    """The translation LM, loaded on the first ``encode`` (only intent readings need it)."""

    def __init__(self, spec: str, cache_dir):
        self.spec, self.cache_dir, self._e = spec, cache_dir, None

    @property
    def model_id(self) -> str:
        return self._e.model_id if self._e is not None else self.spec

    def encode(self, texts):
        if self._e is None:
            from actionable.grounding.embedder import load_embedder

            self._e = load_embedder(self.spec, self.cache_dir)
        return self._e.encode(texts)


def check_with_interpreter(result, domain, embedder=None) -> None:
    """Check ``result`` (any variant) against the goal the world's interpreter reads from its task;
    leaves ``result.done = None`` with the reason in ``goal_check`` when no goal can be read."""
    interp = interpreter_for(domain, embedder)
    if interp is None:
        result.done = None
        return
    reading = interp.read(result.task)
    if not reading.is_goal:
        result.done = None
        result.goal_check = {"checked": False, "reason": reading.why or "no goal conditions could be read"}
        result.reading = reading.to_dict()
        return
    if result.final_state is None and result.resolved_program is not None:  # a paper variant: replay it
        ex = result.executability or {}
        steps = list(result.resolved_program.steps)
        if not ex.get("executable") and ex.get("steps_executed") is not None:
            steps = steps[: ex["steps_executed"]]
        try:
            _, result.final_state = domain.start().execute(steps)
        except Exception as exc:  # noqa: BLE001 - a replay failure leaves the goal unchecked, said why
            result.done = None
            result.goal_check = {"checked": False, "reason": f"the plan could not be replayed ({exc})"}
            return
    if result.final_state is None:
        result.done = None
        result.goal_check = {"checked": False, "reason": "no plan was grounded in the scene; goal not checked"}
        return
    attach_goal_check(result, interp, reading)


def check_result(result, domain, session) -> None:
    """The one goal check of any variant's plan: :func:`check_with_interpreter`; a world without a
    goal interpreter keeps its domain's ``goal_check``, which sets ``done`` only where the goal is
    the task (a PDDL problem, ``goal_is_task``)."""
    check_with_interpreter(result, domain, session.embedder)
    if result.done is None and result.goal_check is None:
        result.goal_check = domain.goal_check(result, session)
        if result.goal_check.get("checked") and getattr(domain, "goal_is_task", False):
            result.done = bool(result.goal_check.get("task_success"))


__all__ = ["LazyEmbedder", "answer", "attach_goal_check", "check_result", "check_with_interpreter", "interpreter_for",
           "plan_task", "read_goal", "unused_model_note"]
