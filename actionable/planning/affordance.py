"""Grounding a class-level program through a world's affordance (any world).

:func:`ground_program` binds and runs a program step by step from a scene's initial state through
the world's :class:`~actionable.core.planning.Affordance` (the exact 0/1 affordance of SayCan, in a
symbolic simulator), optionally with the world's rule repair (CAPE) inserted before a failing step.
Used by the retrieval baselines of the sequencing benchmark and by ``--repair`` for the paper's
variants. :func:`revisits_state` is the no-progress loop test of the planner and of the benchmark's
loop metric.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from actionable.core.errors import ResolutionError
from actionable.core.program import Step


def revisits_state(path) -> bool:
    """Whether a sequence of state fingerprints returns to a state after a change (``[a, b, a]``;
    ``[a, a]`` is a no-op, not a return): the no-progress loop of the planner's guard and of the
    sequencing benchmark's loop metric."""
    runs = [fp for i, fp in enumerate(path) if i == 0 or fp != path[i - 1]]
    return len(set(runs)) < len(runs)


__all__ = ["revisits_state"]


@dataclass
class GroundedProgram:
    """A class-level program grounded step by step (and optionally repaired).

    Attributes:
        steps: resolved steps that ran (repairs included), then the failing step if any.
        repaired: one flag per entry of ``steps``.
        executable: every step of the input ran.
        failed_index: index into the *input* program of the first step that failed.
        info: the simulator's info for that failure.
        final_state: the affordance's view of the state after the executed prefix (its ``view()``,
            VirtualHome: a ``StateView`` with ``to_dict()``; else its ``state``).
        fingerprints: state fingerprint after each executed step (loop metrics).
    """

    steps: list[Step]
    repaired: list[bool]
    executable: bool
    failed_index: int | None
    info: dict | None
    final_state: Any
    fingerprints: list[int]

    @property
    def n_repairs(self) -> int:
        return sum(self.repaired)


def _view(affordance) -> Any:
    view = getattr(affordance, "view", None)
    return view() if callable(view) else affordance.state


def ground_program(program, domain, repair: bool = True, repair_budget: int = 3) -> GroundedProgram:
    """Bind and run ``program`` step by step from the initial state of ``domain``'s scene; with
    ``repair`` a failing step gets the world's corrective steps first (CAPE-style, by rules).

    Args:
        program: a :class:`~actionable.core.program.Program` of class-level (or resolved) steps.
        domain: a :class:`~actionable.core.planning.PlanningDomain` (``planning`` capability of
            a world, e.g. ``actionable.core.registry.planning_domain("virtualhome", scene)``).

    Steps that already carry ids are run as they are.
    """
    oracle = domain.start(repair_budget=repair_budget if repair else 0)
    steps: list[Step] = []
    flags: list[bool] = []
    prints = []
    for i, step in enumerate(program.steps):
        try:
            att = oracle.attempt(step, repair=repair)
        except ResolutionError as exc:
            return GroundedProgram(steps, flags, False, i, {"error": str(exc), "error_type": "resolution",
                                                            "unmet_preconditions": []},
                                   _view(oracle), prints)
        if not att.ok:
            return GroundedProgram(steps + att.steps, flags + [False], False, i, att.info, _view(oracle), prints)
        oracle.commit(att)
        steps += att.steps
        flags += att.repaired
        prints += [att.fingerprint]
    return GroundedProgram(steps, flags, True, None, None, _view(oracle), prints)


__all__ += ["GroundedProgram", "ground_program"]
