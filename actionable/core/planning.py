"""The planning capability: what the grounded planner needs from a world.

A world that plans declares the capability ``planning`` in the registry
(:mod:`actionable.core.registry`): a factory ``domain(scene) -> PlanningDomain``. The state-grounded
planner (:mod:`actionable.planning.grounded`) is written against the two protocols here and never
against a world: VirtualHome's :mod:`actionable.worlds.virtualhome.planning` (the simulator
oracle), THOR's :mod:`actionable.worlds.thor.planning` and the PDDL world implement them.

Optional capability of a domain: ``goal_progress(task) -> Callable[[state], tuple[int, int]] | None``
(goals met and total of the task's goal predicates in a plan state, ``None`` for a task without
known goals); the planner uses it for goal-aware termination (:mod:`actionable.planning.goalsearch`).
It is not part of :class:`PlanningDomain`, so ``isinstance`` checks hold for domains without it.

Optional attribute: ``goal_is_task = True`` (with ``goal_progress``): the goal predicates are the whole
task (a PDDL problem's goal), so the planner ends the plan as soon as they all hold and looks for no
"task's own step" in the text (grounded module doc). THOR's goal predicates are the world's reading
of a task and do not set it.

Optional in an attempt: ``satisfied`` (the step failed only because what it would do already
holds). A world that leaves it False gets no "nothing to do" and no "never undo the task's step".
Optional in an affordance: ``instances(step)`` and ``cannot(step)`` (:mod:`actionable.planning.taskstep`),
``view(state=None)`` (a read-only view of a state for goal checks).

Both use the shared step vocabulary (:class:`~actionable.core.program.Step`: ``grab mug``,
``put mug in coffee machine``) for the class-level steps the planning LM scores; resolved steps
carry the world's object ids in :attr:`Argument.id` (VirtualHome: node ints; THOR: AI2-THOR id
strings; PDDL: object names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol, runtime_checkable

from actionable.core.errors import ResolutionError
from actionable.core.program import Step


@dataclass
class Attempt:
    """The outcome of trying one class-level step from the current state.

    Attributes:
        step: the class-level step asked for.
        ok: it executes (after the repairs, if any).
        steps: resolved steps that ran, repairs first, the asked step last.
        repaired: one flag per entry of ``steps`` (True = inserted by repair).
        info: the simulator's info of the failure when ``ok`` is False.
        state: the evolving-graph state after ``steps`` (``None`` when not ok).
        fingerprint: hash of ``state``'s difference from the scene (loop guard).
        path: fingerprints after each entry of ``steps`` (the last is ``fingerprint``).
        satisfied: ``ok`` is False only because what the step would do already holds (switch on
            what is on; VirtualHome's ``satisfied`` error, directly or after the repairs). Worlds
            that cannot tell leave it False.
    """

    step: Step
    ok: bool
    steps: list[Step] = field(default_factory=list)
    repaired: list[bool] = field(default_factory=list)
    info: dict | None = None
    state: Any = None
    fingerprint: int | None = None
    path: list[int] = field(default_factory=list)
    satisfied: bool = False

    @property
    def n_repairs(self) -> int:
        return sum(self.repaired)


class Committing:
    """``commit(attempt)`` for an affordance with ``state``, ``seen`` (fingerprints visited, the
    loop guard) and ``memory`` (object name -> bound id): shared by every world's affordance."""

    state: Any
    seen: set
    memory: dict

    def commit(self, attempt: Attempt) -> None:
        """Advance to ``attempt``'s state; its fingerprints join :attr:`seen` and its bindings the
        resolver memory.

        Raises:
            ResolutionError: ``attempt`` failed (``ok`` is False)."""
        if not attempt.ok:
            raise ResolutionError(f"cannot commit a failed step ({attempt.step.to_text()})")
        self.state = attempt.state
        self.seen.add(attempt.fingerprint)
        self.seen.update(attempt.path)
        for s in attempt.steps:
            for a in s.args:
                self.memory[a.name] = a.id


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
        :class:`Attempt` (``ok``, ``steps``, ``repaired``,
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
        (:class:`~actionable.grounding.objects.ObjectMatch`)."""

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
            (``"the VirtualHome simulator"``).

    Optional, for the paper's variants (Huang et al. 2022, a whole-scene admissible-action space):
    ``paper_variants = True`` with ``admissible_actions() -> list[Step]`` (every class-level
    admissible action of the scene) and ``resolve_and_execute(program)`` (bind and run a
    class-level program; an execution result with ``executable``, ``failed_index``, ``error``,
    ``error_type``, ``unmet_preconditions``, ``program``, ``final_state``).
    """

    world: str
    name: str
    classes_hint: str
    executes_in: str

    def start(self, repair_budget: int = 3) -> Affordance:
        """A fresh :class:`Affordance` at the scene's initial state."""

    def example_bank(self) -> list:
        """The world's default example bank for retrieval: :class:`~actionable.core.dataset.Example`
        records (the planner wraps them in an ``ExampleBank``)."""

    def goal_check(self, result, session=None) -> dict:
        """Goal conditions the task implies, checked on the plan's final state
        (``{"checked": False, "reason"}`` or ``{"checked": True, "met", "total", "unmet",
        "task_success", ...}``)."""


__all__ = ["Affordance", "Attempt", "Committing", "PlanningDomain"]
