"""What the grounded planner needs from a world: a *planning domain* (issue 13, item 3).

The state-grounded planner (:mod:`actionable.planning.grounded`) is written against two small
protocols, never against a world's name. A world offers planning by defining the classmethod
``planning_domain(scene) -> PlanningDomain`` on its :class:`~actionable.worlds.base.World`
class; :func:`planning_domain` finds it through the world registry, so adding a world touches
neither this module nor the planner. Implementations live in the world's package:
:mod:`actionable.worlds.virtualhome_planning` (VirtualHome's evolving graph, the simulator
oracle of :mod:`actionable.planning.affordance`) and :mod:`actionable.worlds.thor.planning`
(the AI2-THOR kitchen, ALFRED/TEACh semantics).

Optional capability: ``goal_progress(task) -> Callable[[state], tuple[int, int]] | None`` (goals
met and total of the task's goal predicates in a plan state, ``None`` for a task without known
goals). The THOR domain offers it; VirtualHome's does not, and plans there are unchanged. The
planner uses it for goal-aware termination (:mod:`actionable.planning.goalsearch`); it is not part
of the :class:`PlanningDomain` protocol, so ``isinstance`` checks hold for domains without it.

Optional attribute: ``goal_is_task = True`` (with ``goal_progress``): the goal predicates are the whole
task (a PDDL problem's goal), so the planner ends the plan as soon as they all hold and looks for no
"task's own step" in the text (grounded module doc). THOR's goal predicates are the world's reading of a task and do not set it.

Optional in an attempt: ``satisfied`` (the step failed only because what it would do already
holds). VirtualHome's oracle sets it (the simulator's ``satisfied`` error); THOR's from the object's
state (switch on / off, open / close, when every object the step could bind already is so). A world
that leaves it False gets no "nothing to do" and no "never undo the task's step" (grounded module
doc).

Both use the project's step vocabulary (:class:`~actionable.env.program.Step`: ``grab mug``,
``put mug in coffee machine``) for the class-level steps the planning LM scores; resolved steps
carry the world's object ids in :attr:`Argument.id` (VirtualHome: node ints; THOR: AI2-THOR id
strings).
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, runtime_checkable

from actionable.errors import ConfigError


class Affordance(Protocol):
    """One plan's view of a scene: an exact 0/1 affordance with rule repair, from a state that
    only :meth:`commit` advances (SayCan's affordance; CAPE's corrective steps).

    Attributes:
        state: the state the plan has reached (world-specific).
        seen: fingerprints of every state the plan passed (loop guards).
    """

    state: Any
    seen: set

    def fingerprint(self, state) -> Any:
        """Hashable, canonical key of ``state`` (two step sequences reaching one state agree)."""

    def attempt(self, step, repair: bool = True):
        """Try a class-level step from :attr:`state` without changing it; returns an
        :class:`~actionable.planning.affordance.Attempt` (``ok``, ``steps``, ``repaired``,
        ``state``, ``fingerprint``, ``path``). Raises ``ResolutionError`` when an object class of
        the step is absent from the scene."""

    def commit(self, attempt) -> None:
        """Advance to ``attempt``'s state (raises ``ResolutionError`` for a failed attempt)."""

    def class_names(self) -> list[str]:
        """Object classes of the scene (the vocabulary of the candidate steps)."""

    def equivalents(self, name: str) -> Iterable[str]:
        """``name`` and the names the world treats as the same object (the planner keeps those
        present in :meth:`class_names`)."""

    def step_classes(self, text: str) -> list[str]:
        """Object classes an example-bank step names (raises on a step that does not parse)."""

    def match_objects(self, task: str, embedder):
        """The task's object words mapped onto the scene
        (:class:`~actionable.planning.objects.ObjectMatch`)."""

    def candidates(self, classes) -> list:
        """Class-level candidate steps (admissible actions of the scene) over ``classes``,
        deterministic order."""

    def execute(self, resolved_steps) -> tuple[dict, Any]:
        """Replay resolved steps from the scene's initial state: ``(executability, final state)``;
        executability as :attr:`PlanResult.executability`."""


@runtime_checkable
class PlanningDomain(Protocol):
    """A scene of a world that plans can be grounded in.

    Attributes:
        world: the registry id. name: the scene's name. classes_hint: the command that lists
            the scene's objects (for error messages). executes_in: where plans run, for output
            (``"the VirtualHome simulator"``). paper_graph: the scene graph the paper's variants
            plan on (a whole-scene admissible-action index), or ``None`` when the world has none.
    """

    world: str
    name: str
    classes_hint: str
    executes_in: str
    paper_graph: Any

    def start(self, repair_budget: int = 3) -> Affordance:
        """A fresh :class:`Affordance` at the scene's initial state."""

    def example_bank(self):
        """The default :class:`~actionable.planning.examples.ExampleBank` for retrieval."""

    def goal_check(self, result, session=None) -> dict:
        """Goal conditions the task implies, checked on the plan's final state
        (``{"checked": False, "reason"}`` or ``{"checked": True, "met", "total", "unmet",
        "task_success", ...}``)."""


def planning_domain(world: str, scene: Any) -> PlanningDomain:
    """The planning domain of ``scene`` in registered world ``world``.

    Args:
        world: a registry id (``actionable.worlds.list_worlds()``).
        scene: a scene name of that world (VirtualHome also takes a ``SceneGraph``).

    Raises:
        UnknownWorldError: no such world. ConfigError: the world offers no planning domain
        (the message lists those that do). SceneError: the world does not know ``scene``.
    """
    from actionable.worlds.registry import list_worlds, spec

    cls = spec(world).load()
    fn = getattr(cls, "planning_domain", None)
    if fn is None:
        able = [w for w in list_worlds() if _plans(w)]
        raise ConfigError(f"world {world!r} has no planning domain; plan in one of: {', '.join(able)}")
    return fn(scene)


def _plans(world: str) -> bool:
    from actionable.worlds.registry import spec

    try:
        return getattr(spec(world).load(), "planning_domain", None) is not None
    except ImportError:  # an optional world whose extra is not installed
        return False


__all__ = ["Affordance", "PlanningDomain", "planning_domain"]
