"""The ``pddl`` world: any PDDL domain + problem behind the :class:`~actionable.core.world.World`
interface, executed by unified-planning's sequential simulator (:mod:`.model`).

``make("pddl")`` (the shipped ``blocksworld:p01``), ``make("pddl", scene="household:p02")``, or a
user's own files: ``make("pddl", domain="my/domain.pddl", problem="my/p1.pddl")`` (scene names:
:mod:`.scenes`). Actions are :class:`~actionable.core.world.Action` objects ``Action("stack",
("a", "b"))``; text is ``stack(a, b)`` (:meth:`PddlWorld.format`), and :meth:`PddlWorld.parse`
also reads PDDL plan syntax ``(stack a b)`` (with an IPC cost ``[1]``) and the planner's phrase
``stack a b``. Names are case-insensitive (PDDL's), kept lower case.

A PDDL problem has one goal: :meth:`PddlWorld.goals` returns it, one :class:`Goal` per top-level
conjunct, whatever the task text says (the text is only a label of the problem). The world is
fully observable (PDDL has no sensing): :meth:`PddlWorld.observe` is the whole changeable state.
"""

from __future__ import annotations

from typing import Any

from actionable.core.errors import (ConfigError, UnknownObjectError, WorldActionError, WorldNotResetError,
                               unknown_names)
from actionable.core.world import Action, Goal, World, check_goals
from actionable.worlds.pddl.model import goal_task_text, load_task
from actionable.worlds.pddl.scenes import DEFAULT_SCENE, SEP, resolve, scene_of, shipped_scenes
from actionable.worlds.pddl.steps import PddlStep, format_action, split_action, split_phrase


class PddlWorld(World):
    """A PDDL domain + problem as a world (module doc).

    Args:
        scene: default scene for ``reset`` (``blocksworld:p01``, ``dom.pddl::prob.pddl``).
        domain / problem: a user's file pair (both or neither; sets ``scene``).
        max_steps: truncation limit (None: none).

    Raises:
        ConfigError: only one of ``domain`` / ``problem``, or both with a different ``scene``.
        At ``reset``: UnknownSceneError, PddlFileError, PddlSyntaxError, PddlMismatchError,
        PddlUnsupportedError (:mod:`.checks`).
    """

    id = "pddl"

    def __init__(self, scene: str | None = None, domain: str | None = None, problem: str | None = None,
                 max_steps: int | None = None):
        if (domain is None) != (problem is None):
            raise ConfigError("give both domain= and problem= (two PDDL files), or neither")
        if domain is not None:
            pair = scene_of(domain, problem)
            if scene not in (None, "default", pair):
                raise ConfigError(f"scene={scene!r} and domain=/problem= name different problems; give one of them")
            scene = pair
        self.default_scene = scene if scene not in (None, "default") else DEFAULT_SCENE
        self.max_steps = max_steps
        self._tasks: dict[str, Any] = {}   # this world's parsed scenes (parsing costs 0.1-0.7 s)
        self.task = None
        self._s = None
        self._goals: list[Goal] = []
        self._t = 0
        self._done = False

    def _load(self, scene: str | None):
        name = resolve(scene).name
        if name not in self._tasks:
            self._tasks[name] = load_task(name)
        return self._tasks[name]

    # --- episode ---
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start an episode from the problem's initial state. ``options``: ``{"scene": name,
        "goals": list[Goal] | text}`` (default: the problem's goal, so ``step`` rewards reaching it;
        ``[]``: no goal); ``seed`` changes nothing (PDDL is deterministic).

        Returns ``(observe(), {"scene", "domain", "problem", "step_index": 0})``."""
        opts = dict(options or {})
        bad = set(opts) - {"scene", "goals"}
        if bad:
            raise WorldActionError(unknown_names("reset option", sorted(bad), ("scene", "goals")))
        self.task = self._load(opts.get("scene") or self.default_scene)
        self._s = self.task.initial
        g = opts.get("goals", "")  # by default the problem's own goal
        self._goals = self.goals(g) if isinstance(g, str) else list(g)
        self._t, self._done = 0, False
        return self.observe(), {"scene": self.task.name, "domain": self.task.domain_name,
                                "problem": self.task.problem_name, "step_index": 0}

    def step(self, action: Action | PddlStep | str) -> tuple[dict, float, bool, bool, dict]:
        """Apply one action. Returns ``(observe(), reward, terminated, truncated, info)``, ``info =
        {"executed", "error", "unmet_preconditions", "step_index", "action"}``: the false
        preconditions as PDDL text (``(holding a)``, ``(not (lit kitchen-light))``; a statically
        impossible action names the static fact). Reward 1.0 on the step that first meets the
        reset's goals (then ``terminated``).

        Raises:
            WorldNotResetError: before ``reset``. WorldActionError: unknown action, arity or type.
            UnknownObjectError: an argument names no object of the problem.
        """
        s = self._state_or_raise()
        act = self._validate(self.to_action(action))
        t = self.task
        ok = t.applicable(s, act.name, act.args)
        unmet = [] if ok else t.unmet_text(s, act.name, act.args)
        if ok:
            self._s = t.apply(s, act.name, act.args)
        text = self.format(act)
        info = {"executed": ok, "unmet_preconditions": unmet, "step_index": self._t, "action": text,
                "error": None if ok else f"{text} is not executable: unmet {', '.join(unmet)}"}
        self._t += 1
        reward, term = 0.0, False
        if ok and self._goals and not self._done and check_goals(self._goals, self._s).success:
            reward, term, self._done = 1.0, True, True
        trunc = self.max_steps is not None and self._t >= self.max_steps
        return self.observe(), reward, term, trunc, info

    # --- action language ---
    def to_action(self, action: Any) -> Action:
        """An :class:`Action` from an Action, a :class:`PddlStep` or text (:meth:`parse`)."""
        if isinstance(action, str):
            return self.parse(action)
        if isinstance(action, PddlStep):
            return Action(action.action, tuple(a.id if a.id is not None else a.name for a in action.args))
        if isinstance(action, Action):
            return action
        raise WorldActionError(f"a PDDL action is an Action or text such as '(pick-up a)', got {type(action).__name__}")

    def _validate(self, act: Action) -> Action:
        t = self._task_or_raise()
        name = act.name.lower()
        if name not in t.schemas:
            raise WorldActionError(f"unknown action {act.name!r} in domain {t.domain_name!r}; actions: "
                                   f"{', '.join(t.schemas)}", line=str(act))
        args = tuple(a.lower() for a in act.args)
        for a in args:
            if a not in t.objects:
                raise UnknownObjectError(f"object {a!r} is not in problem {t.problem_name!r}; objects: "
                                         f"{', '.join(sorted(t.objects)[:20])}")
        params = t.schemas[name]
        if len(args) != len(params):
            sig = " ".join(f"?{p} - {ty}" for p, ty in params)
            raise WorldActionError(f"{name} takes {len(params)} argument(s) ({sig}), got {len(args)}", line=str(act))
        for a, (p, ty) in zip(args, params):
            if not t.is_a(a, ty):
                raise WorldActionError(f"{name}: ?{p} is a {ty}, and {a!r} is a {t.objects[a]}", line=str(act))
        return Action(name, args)

    def parse(self, text: str) -> Action:
        """``"(stack a b)"`` / ``"stack(a, b)"`` / ``"stack a b"`` -> ``Action("stack", ("a", "b"))``
        (``"pick up a"``: the action's hyphens may be spaces).

        Raises:
            WorldActionError: not an action of the domain (unknown name, arity, type).
            UnknownObjectError: an argument names no object. WorldNotResetError: before reset.
        """
        if not isinstance(text, str):
            raise WorldActionError(f"expected action text, got {type(text).__name__}")
        t = self._task_or_raise()
        parts = split_action(text[:500]) or split_phrase(text[:500], list(t.schemas))
        if parts is None:
            raise WorldActionError(f"cannot read {text[:80]!r} as an action of domain {t.domain_name!r}; write "
                                   f"e.g. '({next(iter(t.schemas))} ...)'; actions: {', '.join(t.schemas)}", line=text)
        return self._validate(Action(parts[0], tuple(parts[1])))

    def format(self, action: Action) -> str:
        """``stack(a, b)`` (:meth:`parse` reads it back)."""
        return format_action(action.name, action.args)

    def admissible(self, state: Any = None) -> list[Action]:
        """Actions executable in ``state`` (default: the current state), or with ``state="all"``
        every statically possible grounded action (UP's grounder drops those whose static
        preconditions never hold). Domain order, then arguments."""
        t = self._task_or_raise()
        if isinstance(state, str) and state == "all":
            return [Action(n, a) for n, a in t.actions]
        s = self._state_or_raise() if state is None else state
        return [Action(n, a) for n, a in t.applicable_actions(s)]

    # --- goals and views ---
    def goals(self, task: str | list | None = None) -> list[Goal]:
        """The problem's goal, one :class:`Goal` per top-level conjunct (``(on a b)``), for any
        task text (module doc); a list of Goals is returned as it is."""
        if isinstance(task, list):
            return list(task)
        t = self._task_or_raise() if self.task is not None else self._load(self.default_scene)
        return [Goal(text, (lambda s, g=g, t=t: t.holds(g, s))) for g, text in zip(t.goals, t.goal_texts)]

    @property
    def state(self):
        """The current state (a :class:`~actionable.worlds.pddl.model.PddlState`; immutable)."""
        return self._state_or_raise()

    def observe(self) -> dict:
        """``{"atoms": [...], "goals": {conjunct: bool}}``: every true changeable atom as PDDL text
        and the goal conjuncts' status (the world is fully observable)."""
        s = self._state_or_raise()
        t = self.task
        return {"atoms": t.atoms(s), "goals": dict(zip(t.goal_texts, t.goal_status(s)))}

    def state_key(self) -> tuple:
        return tuple(self.task.atoms(self._state_or_raise()))

    def scenes(self) -> list[str]:
        """The shipped scenes, plus this world's own file pair when it has one."""
        out = shipped_scenes()
        for name in (self.default_scene, *self._tasks):
            if SEP in name and name not in out:
                out.append(name)
        return out

    def resolve_scene(self, name: str) -> str | None:
        """A shipped scene, a bare domain name (its first problem) or a ``domain::problem`` pair
        whose files exist (a missing file raises PddlFileError naming it); else None."""
        from actionable.core.errors import UnknownSceneError

        try:
            return resolve(name).name
        except UnknownSceneError:
            return None

    def scene_info(self, name: str, classes: bool = False, admissible: bool = False) -> dict:
        """Domain, problem, requirements, objects, actions, grounded actions and goal of a scene
        (with ``classes``: objects per type)."""
        from collections import Counter

        t = self._load(name)
        info = t.describe()
        if classes:
            info["class_counts"] = dict(sorted(Counter(t.objects.values()).items()))
            info["objects_by_type"] = {ty: sorted(o for o, x in t.objects.items() if x == ty)
                                       for ty in sorted(set(t.objects.values()))}
        return info

    def task_text(self) -> str:
        """A task line for the problem (``Reach the goal of sussman: (on a b) (on b c)``), for the
        planner when the user gives none."""
        t = self.task if self.task is not None else self._load(self.default_scene)
        return goal_task_text(t)

    def _task_or_raise(self):
        if self.task is None:
            raise WorldNotResetError("the pddl world has no episode; call reset() first")
        return self.task

    def _state_or_raise(self):
        if self._s is None:
            raise WorldNotResetError("the pddl world has no episode; call reset() first")
        return self._s


__all__ = ["PddlWorld"]
