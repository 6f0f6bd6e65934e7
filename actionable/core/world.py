"""One environment interface for every world (Gymnasium-style).

A *world* owns its action language, its scenes, its goal checks and what an agent
may see. Planners, judges, evaluation and the continual agent talk to it only
through :class:`World`; nothing outside a world branches on its name.

Shapes (every world):

* ``reset(*, seed=None, options=None) -> (obs, info)``; ``info["scene"]`` names the scene.
* ``step(action) -> (obs, reward, terminated, truncated, info)``. A plan-level failure
  never raises: ``info["executed"]`` is False, the state is unchanged and
  ``info["error"]`` (str) and ``info["unmet_preconditions"]`` (list of readable str)
  say why. Caller bugs raise typed errors: :class:`~actionable.core.errors.WorldNotResetError`
  for a step before ``reset``, :class:`~actionable.core.errors.UnknownObjectError` for an
  object id absent from the scene, :class:`~actionable.core.errors.WorldActionError` for
  text that is not an action of the world.
* ``admissible(state=None) -> list[Action]``: with ``state=None`` the actions executable
  in the current state; with ``state="all"`` every grounded action of the scene.
* ``parse(text) -> Action`` / ``format(action) -> str`` round-trip.
* ``check(goals, state=None) -> GoalResult``; ``observe() -> dict`` (partial view);
  ``scenes() -> list[str]``.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from actionable.core.errors import WorldNotResetError


@dataclass(frozen=True)
class Action:
    """A grounded action: a name and object ids (the world decides what ids are).

    ``Action("PickupObject", ("Mug|-01.64|+00.04|+00.67",))``. Worlds with their own
    step type (VirtualHome's :class:`~actionable.core.program.Step`) may use it instead.
    """

    name: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if isinstance(self.args, list):
            object.__setattr__(self, "args", tuple(self.args))

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"


@dataclass(frozen=True)
class Goal:
    """One goal condition: a readable ``text`` and a predicate over a world state.

    ``test(state) -> bool``; the state is whatever the world's ``state`` property returns.
    """

    text: str
    test: Callable[[Any], bool] = field(compare=False, repr=False)


@dataclass(frozen=True)
class GoalResult:
    """Outcome of a goal check.

    Attributes:
        met: texts of the goals that hold.
        unmet: texts of the goals that do not hold.
    """

    met: tuple[str, ...]
    unmet: tuple[str, ...]

    @property
    def success(self) -> bool:
        """Every goal holds (task success)."""
        return not self.unmet

    @property
    def goal_condition_success(self) -> float:
        """Fraction of goals that hold, in [0, 1] (1.0 for an empty goal list)."""
        n = len(self.met) + len(self.unmet)
        return 1.0 if n == 0 else len(self.met) / n

    def to_dict(self) -> dict:
        return {"success": self.success, "goal_condition_success": self.goal_condition_success,
                "met": list(self.met), "unmet": list(self.unmet)}


def check_goals(goals: Iterable[Goal], state: Any) -> GoalResult:
    """Evaluate goal predicates on ``state`` (a predicate that raises counts as unmet)."""
    met, unmet = [], []
    for g in goals:
        try:
            ok = bool(g.test(state))
        except Exception:  # noqa: BLE001 - a goal on a vanished object is simply not met
            ok = False
        (met if ok else unmet).append(g.text)
    return GoalResult(tuple(met), tuple(unmet))


class World(abc.ABC):
    """Abstract world. Subclasses implement the abstract methods; :attr:`id` is the
    registry id (``"thor"``, ``"virtualhome"``)."""

    id: str = ""
    #: what ``admissible(state="all")`` enumerates, for translation indexes
    max_steps: int | None = None

    # --- episode ---
    @abc.abstractmethod
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        """Start an episode; ``options={"scene": name}`` picks a scene (else the default)."""

    @abc.abstractmethod
    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        """Apply one action (an :class:`Action`, the world's own step type, or text)."""

    # --- action language ---
    @abc.abstractmethod
    def admissible(self, state: Any = None) -> list:
        """Actions executable now (``state=None``) or all grounded actions (``state="all"``)."""

    @abc.abstractmethod
    def parse(self, text: str) -> Any:
        """Text in the world's action language -> action. Raises ``WorldActionError``."""

    @abc.abstractmethod
    def format(self, action: Any) -> str:
        """Action -> text that :meth:`parse` reads back."""

    # --- goals and views ---
    @abc.abstractmethod
    def goals(self, task: str) -> list[Goal]:
        """Goal predicates of a named task (raises ``WorldGoalError`` for an unknown task)."""

    def check(self, goals: Sequence[Goal], state: Any = None) -> GoalResult:
        """Evaluate ``goals`` on ``state`` (default: the current state)."""
        return check_goals(goals, self.state if state is None else state)

    @property
    @abc.abstractmethod
    def state(self) -> Any:
        """The current full state (raises ``WorldNotResetError`` before ``reset``)."""

    @abc.abstractmethod
    def observe(self) -> dict:
        """Partial observation for a continual agent: what is visible from where the agent is."""

    @abc.abstractmethod
    def scenes(self) -> list[str]:
        """Scene names ``reset(options={"scene": ...})`` accepts."""

    #: prefixes a user may leave off a scene name (THOR: ``teach:``)
    scene_prefixes: tuple[str, ...] = ()

    def resolve_scene(self, name: str) -> str | None:
        """The scene ``name`` refers to: itself, or itself with one of :attr:`scene_prefixes`;
        ``None`` when :meth:`scenes` has neither."""
        names = set(self.scenes())
        return next((c for c in (name, *(p + name for p in self.scene_prefixes)) if c in names), None)

    def scene_info(self, name: str, classes: bool = False, admissible: bool = False) -> dict:
        """Facts about scene ``name`` for ``actionable scenes --env <world> <scene>`` (counts,
        source; with ``classes``, ``class_counts``; with ``admissible``, the size of the admissible
        action space where the world counts it). Default: none."""
        return {}

    def scene_listing(self, task: str | None = None) -> dict:
        """The scene list of ``actionable scenes --env <world>``: ``{"scenes": [{"scene", "task",
        "desc"}], "count"}``, the scenes whose task, description or name contain ``task`` (any case)
        when given. A world may return more keys (VirtualHome: its default house and programs)."""
        tasks = self.scene_tasks()
        rows = []
        for sc in self.scenes():
            t, desc = tasks.get(sc, (None, None))
            if task and task.lower() not in f"{t or ''} {desc or ''} {sc}".lower():
                continue
            rows.append({"scene": sc, "task": t, "desc": desc})
        return {"scenes": rows, "count": len(rows)}

    def scene_tasks(self) -> dict[str, tuple]:
        """``{scene: (task, description)}`` for scenes that are a recorded demonstration's initial
        state (THOR: TEACh episodes), for ``actionable scenes``. Default: none."""
        return {}

    def state_key(self) -> Any:
        """A hashable summary of the current state (used by the checker for determinism)."""
        return repr(self.observe())

    def _require_reset(self, ready: bool) -> None:
        if not ready:
            raise WorldNotResetError(f"{type(self).__name__}.step() called before reset(); call reset() first")
