"""Goal-aware termination for the grounded planner: an optional capability of a planning domain.

Where a world knows the goal predicates of a task (the THOR kitchen's
:mod:`actionable.worlds.thor.goals`: Make coffee, Boil water, Water the plant), its planning domain
may offer ``goal_progress(task) -> Callable[[state], tuple[int, int]] | None``: a function from a
plan state to ``(goals met, goals total)``, or ``None`` when the task has no known goals. A domain
without the method (VirtualHome's) plans exactly as before: the planner never calls anything here.

With a progress function the grounded planner (:mod:`actionable.planning.grounded`,
``GroundedConfig.goal_search``) does two things:

1. **never undo a met goal**: a candidate whose resulting state meets fewer goals than the
   plan's current state is not offered to the LM (pouring away the coffee already made);
2. **no premature Done**: when ``Done`` wins (or no candidate is left) while goals are unmet,
   :func:`search_progress` runs a breadth-first search over the candidate steps (with the
   domain's rule repair, from the plan's state, at most ``goal_search_depth`` steps and
   ``goal_search_nodes`` expanded states) for the shortest step sequence whose end state meets
   more goals; if one is found its steps are committed (marked ``goal_search`` in the trace) and
   the LM plans on. States inside the sequence may meet fewer goals (rinse a dirty mug that
   holds coffee, then brew again), its end must meet strictly more, so the number of searches in
   one plan is at most the number of goals.

This uses the task's symbolic goals at planning time. EAI (Li et al. 2024, Embodied Agent
Interface) likewise gives its LLM planners the task's symbolic goal conditions in the prompt;
plans made this way are not comparable with planners that see only the instruction.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

from actionable.core.errors import ResolutionError

Progress = Callable[[Any], "tuple[int, int]"]


def goal_progress(domain, task: str) -> Progress | None:
    """The domain's progress function for ``task``, or ``None`` (a domain without the optional
    ``goal_progress`` method, or a task without known goals)."""
    fn = getattr(domain, "goal_progress", None)
    return None if fn is None else fn(task)


def search_progress(oracle, steps: Iterable, progress: Progress, depth: int, nodes: int,
                    repair: bool = True) -> list | None:
    """Shortest sequence of ``steps`` (each tried with repair) from ``oracle.state`` to a state that
    meets more goals than ``oracle.state``; ``None`` if none within the limits.

    Args:
        oracle: the plan's :class:`~actionable.core.planning.Affordance`; its ``state`` is set
            for each trial and restored before returning (its ``seen`` and ``memory`` untouched).
        steps: class-level candidate steps, in the order to try them (the planner's score order,
            so ties go to the demonstrated step).
        progress: ``state -> (met, total)``.
        depth: most steps in the sequence. nodes: most states expanded.
        repair: use the domain's rule repair (``GroundedConfig.repair``).

    Returns:
        the class-level steps of the sequence (``list[Step]``), or ``None``.
    """
    steps = list(steps)
    start = oracle.state
    base = progress(start)[0]
    seen = {oracle.fingerprint(start)}
    frontier: list[tuple[Any, list]] = [(start, [])]
    expanded = 0
    try:
        for _ in range(depth):
            nxt: list[tuple[Any, list]] = []
            for state, seq in frontier:
                if expanded >= nodes:
                    return None
                expanded += 1
                oracle.state = state
                for step in steps:
                    try:
                        att = oracle.attempt(step, repair=repair)
                    except ResolutionError:
                        continue
                    if not att.ok or att.fingerprint in seen:
                        continue
                    seen.add(att.fingerprint)
                    if progress(att.state)[0] > base:
                        return seq + [step]
                    nxt.append((att.state, seq + [step]))
            frontier = nxt
            if not frontier:
                return None
        return None
    finally:
        oracle.state = start


__all__ = ["goal_progress", "search_progress", "Progress"]
