"""Plan replay in a scene-graph world, for the scene-graph judge (:mod:`actionable.verify.grounded`).

The replay itself is the world's ``verify`` capability (:class:`~actionable.core.replay.GraphReplay`;
VirtualHome's evolving graph: :class:`actionable.worlds.virtualhome.replay.VirtualHomeReplay`),
found through the registry (:func:`graph_replay`); the functions here take it as ``world=`` and
default to the default world's. :class:`StateView` offers the judge's read-only queries over the
replay's observation (who is close to what, what is held, where an object lies).
"""

from __future__ import annotations

from typing import Any, Sequence

from actionable.core.program import Program, Step
from actionable.core.errors import ResolutionError
from actionable.core.replay import Observer, ReplayResult

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


def graph_replay(world: str | None = None):
    """The ``verify`` capability of a scene-graph world (default: the default world,
    :data:`actionable.core.defaults.WORLD`), instantiated.

    Raises:
        MissingCapabilityError: the world does not verify. ConfigError: its verify capability is
            not a scene-graph replay (judge it with the world judge, :mod:`.worldsim`).
    """
    from actionable.core.defaults import WORLD
    from actionable.core.errors import ConfigError
    from actionable.core.registry import capability
    from actionable.core.replay import judge_kind

    cap = capability(world or WORLD, "verify")
    if judge_kind(cap) != "graph":
        raise ConfigError(f"world {world or WORLD!r} is judged through its adapter, not on a scene graph")
    return cap()


def make_simulator(world=None):
    """A fresh simulator of ``world`` (a :class:`~actionable.core.replay.GraphReplay`; default:
    the default world's)."""
    return (world or graph_replay()).simulator()


def replay(steps: Sequence[Step], scene: Any, *, sim=None, observe: Observer | None = None, world=None) -> ReplayResult:
    """Execute ``steps`` (resolved) from the initial state of ``scene``
    (:meth:`~actionable.core.replay.GraphReplay.replay` of ``world``, default the default world's)."""
    return (world or graph_replay()).replay(steps, scene, sim=sim, observe=observe)


def resolve_plan(plan: Program, scene: Any, *, sim=None, world=None) -> Program:
    """Bind a class-level plan to node ids (:meth:`~actionable.core.replay.GraphReplay.resolve_plan`).

    Raises:
        ResolutionError: a class named by the plan is absent from the scene.
    """
    return (world or graph_replay()).resolve_plan(plan, scene, sim=sim)


def goal_check(task: Any, result: ReplayResult, match: str = "id"):
    """Goal-condition result for ``task.goal_spec`` (``None`` without a spec); ``match``:
    ``"id"`` (the annotated node) or ``"class"`` (any node of its class,
    :func:`actionable.core.goals.check_goals`)."""
    if getattr(task, "goal_spec", None) is None:
        return None
    from actionable.core.goals import check_goals, check_goals_on_view

    obs = result.obs
    if match == "id" and hasattr(obs, "states_of") and hasattr(obs, "targets") and hasattr(obs, "__contains__"):
        return check_goals_on_view(task.goal_spec, obs, result.executed)  # no dict of the whole graph
    return check_goals(task.goal_spec, result.final_graph, result.executed, match=match)


__all__ = ["StateView", "ReplayResult", "graph_replay", "replay", "resolve_plan", "goal_check", "make_simulator",
           "ResolutionError"]
