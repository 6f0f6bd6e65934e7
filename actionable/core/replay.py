"""The verify capability: what the simulator judges need from a world.

A world that verifies plans declares the capability ``verify`` (:mod:`actionable.core.registry`)
as one of two kinds, told apart by the capability's ``judge_kind`` attribute (never by the world's
name):

* ``"adapter"`` (the default): a factory ``adapter(scene, task) -> WorldAdapter``. The world judge
  (:class:`actionable.verify.worldsim.WorldJudge`) replays plans through it: how a step becomes a
  world action, what a failed precondition asks to insert, the world's goal predicates. THOR's
  :class:`actionable.worlds.thor.verify_adapter.ThorAdapter`, the PDDL world's adapter.
* ``"graph"``: a :class:`GraphReplay` class (constructed without arguments) for worlds whose
  state is a scene graph of nodes, states and relations; the scene-graph judge
  (:class:`actionable.verify.grounded.SimulatorJudge`) reasons over that graph (who is close to
  what, what lies inside what) for its minimal edits. VirtualHome's
  :class:`actionable.worlds.virtualhome.replay.VirtualHomeReplay`.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence

from actionable.core.program import Program, Step


def judge_kind(capability: Any) -> str:
    """``"graph"`` or ``"adapter"``: which judge a world's ``verify`` capability serves."""
    return getattr(capability, "judge_kind", "adapter")


# ---------------------------------------------------------------------------- adapter kind
@dataclass
class WorldReplay:
    """Outcome of replaying steps from the scene's initial state through a :class:`WorldAdapter`.

    Attributes:
        executable: every step executed. ``failed_index``: the first failing step (else None).
        error / unmet: the world's report for that step (readable strings).
        outcome: ``{object id: hashable state}`` of the final state, agent pose excluded
            (``"held"`` maps to the held object); compared by the relevance phase.
        goals_met / goals_total: goal predicates that hold at the end, out of how many.
        bound: per executed step, the world action text it ran (``PickUp(Mug|...)``).
        held: the class name of the object held after the last executed step (None: empty hand).
        bound_ids: per executed step, the object id it bound (for replays that keep bindings).
    """

    executable: bool
    failed_index: int | None
    error: str | None
    unmet: list[str]
    outcome: dict
    goals_met: int = 0
    goals_total: int = 0
    bound: list[str] = field(default_factory=list)
    held: str | None = None
    bound_ids: list = field(default_factory=list)


class WorldAdapter(Protocol):
    """What the world judge needs from a world (one scene)."""

    #: the world (``actionable.core.registry.make(...)``) and the scene plans replay from
    world: Any
    scene: str

    def replay(self, steps: Sequence[Step], goals: Sequence = (), tries: int = 4,
               bind: Sequence[str | None] | None = None) -> WorldReplay:
        """Run ``steps`` from the scene's initial state; stop at the first failure. ``bind``: per
        step, an object id to try first (``WorldReplay.bound_ids`` of an earlier replay)."""

    def goals(self, goal_text: str, task: str | None = None) -> tuple[list, str]:
        """The world's goal predicates for a task (``[]`` when none) and a note saying which."""

    def fixes(self, steps: Sequence[Step], k: int, rep: WorldReplay) -> list[tuple[int, list[Step], str]]:
        """Insertions ``(position, steps, reason)`` that may let the failing ``steps[k]`` execute."""

    def already(self, step: Step, rep: WorldReplay) -> str | None:
        """A reason when the failing ``step`` only asks for a state that already holds, else None."""

    def format_step(self, step: Step) -> str:
        """The step in the world's action language (``PickUp(Mug)``)."""

    def parse_line(self, text: str, held: str | None = None) -> Step | None:
        """A plan line in the world's language -> Step (None for lines that are not actions,
        e.g. speech or motion). Raises ``ProgramParseError``."""

    # optional: ``walk_needed(step, next_step) -> bool`` (a walk the next kept step needs: never
    # removed) and ``implicit_navigation`` (text: why other walks change nothing in the replay);
    # ``undoes(later, earlier) -> bool`` (the world's own undo pairs, for action names outside the
    # shared vocabulary: a PDDL domain's); ``default_goal`` (text: the goal when none is given,
    # for a scene that defines its goal); ``step_from_dict(record) -> Step`` (a ``plan --json`` step
    # record of the world's own step type)


# ---------------------------------------------------------------------------- graph kind
@dataclass
class ReplayResult:
    """Outcome of replaying steps in a scene-graph world.

    Attributes:
        executable: every step executed.
        failed_index: index of the first failing step (``None`` when executable).
        error / error_type / unmet: the simulator's report for that step.
        obs: the world's observation after the last executed step (the failing step changes
            nothing): a scene-graph view with ``states_of``, ``properties_of``, ``class_of``,
            ``targets``, ``room_of``, ``held``, ``character_id`` and ``to_dict()``.
        executed: the steps the simulator accepted, in order.
        complete: False when the replay stopped early on request (``until`` of
            :class:`~actionable.core.incremental.IncrementalReplay`): the steps after
            ``len(executed)`` were not run, so neither ``executable`` nor ``failed_index`` says
            anything about them.
    """

    executable: bool
    failed_index: int | None
    error: str | None
    error_type: str | None
    unmet: list[str]
    obs: Any
    executed: list[Step] = field(default_factory=list)
    complete: bool = True

    @property
    def final_graph(self) -> dict:
        return self.obs.to_dict()


#: ``observe(i, step, "before" | "after", sim)`` around each replayed step
Observer = Callable[[int, Step, str, Any], None]


class GraphReplay(abc.ABC):
    """Replays plans in a scene-graph world for the scene-graph judge (``judge_kind = "graph"``)."""

    judge_kind = "graph"

    @abc.abstractmethod
    def load_scene(self, scene: Any) -> Any:
        """A scene name (or ``None``: the default) -> the world's scene object. Raises SceneError."""

    @abc.abstractmethod
    def simulator(self) -> Any:
        """A fresh simulator (``reset(options={"scene": ...})``, ``step``, ``observation``)."""

    @abc.abstractmethod
    def replay(self, steps: Sequence[Step], scene: Any, *, sim=None, observe: Observer | None = None) -> ReplayResult:
        """Execute resolved ``steps`` from ``scene``'s initial state; stop at the first failure
        (an unknown object id is a failure of that step, never an exception)."""

    @abc.abstractmethod
    def resolve_plan(self, plan: Program, scene: Any, *, sim=None, goal: str | None = None) -> Program:
        """Bind a class-level plan to object ids against the evolving state (raises
        ResolutionError for a class absent from the scene); ``goal``: the instruction, whose
        instances a world may bind first."""

    @abc.abstractmethod
    def derive_goals(self, goal: str, plan: Program, scene: Any, scene_objects: bool = False):
        """Goal conditions for a free-text goal over the plan's objects
        (:class:`~actionable.core.goals.DerivedGoals`)."""

    def goal_check(self, spec, result: ReplayResult, match: str = "id"):
        """:func:`~actionable.core.goals.check_goals` of ``spec`` on the replay's final state
        (``None`` without a spec)."""
        if spec is None:
            return None
        from actionable.core.goals import check_goals

        return check_goals(spec, result.final_graph, result.executed, match=match)


__all__ = ["GraphReplay", "Observer", "ReplayResult", "WorldAdapter", "WorldReplay", "judge_kind"]
