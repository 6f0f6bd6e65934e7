"""Plan replay in the VirtualHome evolving-graph simulator, for the grounded judge.

A thin layer over :class:`actionable.worlds.virtualhome.simulator.Simulator` that runs a list
of resolved steps from a scene's initial state, stops at the first failing
step and reports it, and offers read-only views of the state (who is close to
what, what is held, where an object lies). Used by
:mod:`actionable.verify.grounded` and :mod:`actionable.verify.corrupt`.

Class-level plans (no node ids, e.g. from ``actionable verify plan.txt``) are
bound to nodes step by step with :class:`actionable.worlds.virtualhome.resolver.Resolver`
against the current state (:func:`resolve_plan`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from actionable.core.program import Program, Step
from actionable.core.errors import ResolutionError, UnknownNodeError

#: Relations that say where an object lies.
PLACEMENT = ("ON", "INSIDE")


class StateView:
    """Judge-side queries over a simulator observation
    (:class:`actionable.worlds.virtualhome.simulator.StateView`, copy-on-write, stays valid)."""

    __slots__ = ("obs", "char")

    def __init__(self, obs: Any):
        self.obs = obs
        self.char = obs.character_id

    def __contains__(self, nid: object) -> bool:
        return nid in self.obs

    def states(self, nid: int) -> set[str]:
        return set(self.obs.states_of(nid))

    def props(self, nid: int) -> set[str]:
        return set(self.obs.properties_of(nid))

    def cls(self, nid: int) -> str:
        return self.obs.class_of(nid) or ""

    def targets(self, nid: int, rel: str) -> set[int]:
        return set(self.obs.targets(nid, rel))

    def has_edge(self, a: int, rel: str, b: int) -> bool:
        return b in self.obs.targets(a, rel)

    def is_room(self, nid: int) -> bool:
        return nid in self.obs and self.obs.room_of(nid) == nid

    def close(self, nid: int) -> bool:
        """The character is CLOSE to ``nid``."""
        return self.has_edge(self.char, "CLOSE", nid)

    def held(self) -> set[int]:
        return set(self.obs.held())

    def placement(self, nid: int) -> frozenset[tuple[str, int]]:
        """Where ``nid`` lies: its ON/INSIDE targets, rooms excluded."""
        return frozenset((r, t) for r in PLACEMENT for t in self.obs.targets(nid, r) if not self.is_room(t))

    def container_closed(self, nid: int) -> int | None:
        """A CLOSED, openable container that ``nid`` is INSIDE, if any."""
        for t in self.obs.targets(nid, "INSIDE"):
            if "CAN_OPEN" in self.obs.properties_of(t) and "CLOSED" in self.obs.states_of(t):
                return t
        return None

    def room_of(self, nid: int) -> int | None:
        return self.obs.room_of(nid)


@dataclass
class ReplayResult:
    """Outcome of replaying steps from the initial state.

    Attributes:
        executable: every step executed.
        failed_index: index of the first failing step (``None`` when executable).
        error / error_type / unmet: the simulator's report for that step.
        obs: simulator observation after the last executed step (the failing
            step changes nothing); ``final_graph`` is its graph dict.
        executed: the steps the simulator accepted, in order.
    """

    executable: bool
    failed_index: int | None
    error: str | None
    error_type: str | None
    unmet: list[str]
    obs: Any
    executed: list[Step] = field(default_factory=list)

    @property
    def final_graph(self) -> dict:
        return self.obs.to_dict()

    def view(self) -> StateView:
        return StateView(self.obs)


Observer = Callable[[int, Step, str, Any], None]


def make_simulator():
    """A fresh :class:`actionable.worlds.virtualhome.simulator.Simulator` (lazy import)."""
    from actionable.worlds.virtualhome.simulator import Simulator

    return Simulator()


def replay(steps: Sequence[Step], scene: Any, *, sim=None, observe: Observer | None = None) -> ReplayResult:
    """Execute ``steps`` (resolved) from the initial state of ``scene``.

    Args:
        steps: resolved steps (node ids set).
        scene: scene name, program id or SceneGraph, as ``Simulator.reset`` takes.
        sim: a Simulator to reuse (reset here); default a new one.
        observe: called as ``observe(i, step, "before"|"after", sim)`` around each step
            (read ``sim.observation``; do not step the simulator).

    Returns:
        ReplayResult. Unknown node ids count as a failure of that step
        (``error_type="unknown_node"``), never an exception.
    """
    sim = sim or make_simulator()
    sim.reset(options={"scene": scene})
    executed: list[Step] = []
    for i, s in enumerate(steps):
        if observe:
            observe(i, s, "before", sim)
        try:
            _, _, _, _, info = sim.step(s)
        except UnknownNodeError as exc:
            return ReplayResult(False, i, str(exc), "unknown_node", [], sim.observation, executed)
        if not info.get("executed", False):
            return ReplayResult(False, i, info.get("error"), info.get("error_type"),
                                list(info.get("unmet_preconditions") or []), sim.observation, executed)
        executed.append(s)
        if observe:
            observe(i, s, "after", sim)
    return ReplayResult(True, None, None, None, [], sim.observation, executed)


def resolve_plan(plan: Program, scene: Any, *, sim=None) -> Program:
    """Bind a class-level plan to node ids against the evolving state
    (:func:`actionable.worlds.virtualhome.resolver.resolve_and_execute`: proximity, room, state,
    and the first binding that executes). Steps after a failing step are bound
    against the state at the failure, so the judge can still critique them.
    Steps that already carry ids are kept.

    Raises:
        ResolutionError: a class named by the plan is absent from the scene.
    """
    if all(s.is_resolved for s in plan.steps):
        return plan
    from actionable.worlds.virtualhome.resolver import Resolver, resolve_and_execute

    resolver = Resolver()
    sim = sim or make_simulator()
    res = resolve_and_execute(plan, scene, resolver=resolver, sim=sim)
    done = list(res.program.steps)
    memory = {a.name: a.id for s in done for a in s.args}
    for i in range(len(done), len(plan)):
        s = plan.steps[i]
        r = s if s.is_resolved else resolver.resolve_step(s, sim.observation, memory, plan.steps[i + 1:])
        memory.update({a.name: a.id for a in r.args})
        done.append(r)
    return plan.replace_steps(done)


def goal_check(task: Any, result: ReplayResult, match: str = "id"):
    """Goal-condition result for ``task.goal_spec`` (``None`` without a spec); ``match``:
    ``"id"`` (the annotated node) or ``"class"`` (any node of its class,
    :func:`actionable.evaluation.goals.check_goals`)."""
    if getattr(task, "goal_spec", None) is None:
        return None
    from actionable.evaluation.goals import check_goals

    return check_goals(task.goal_spec, result.final_graph, result.executed, match=match)


__all__ = ["StateView", "ReplayResult", "replay", "resolve_plan", "goal_check", "make_simulator",
           "ResolutionError"]
