"""An exact 0/1 affordance from the simulator, with rule-based precondition repair.

SayCan (Ahn et al. 2022) multiplies an LM's usefulness score by an
affordance: the probability that a skill succeeds in the current state. In a
symbolic simulator that probability is exact: a class-level step is afforded
when some binding of its objects to node ids executes from the state the plan
has reached. :class:`AffordanceOracle` answers that question without changing
its state (the evolving graph is copy-on-write), and, when the step fails,
inserts the corrective steps of :mod:`actionable.planning.repair` (CAPE) within
a small budget.

Cost: one simulator step is about 1 ms; a candidate costs one to
``1 + 2 * repair_budget`` steps plus the resolver's ranking.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actionable.worlds.virtualhome.admissible import ACTION_RULES
from actionable.core.program import Argument, Step
from actionable.worlds.virtualhome.resolver import Resolver, ResolverConfig
from actionable.worlds.virtualhome.simulator import Simulator, StateView, state_diff
from actionable.core.errors import ResolutionError
from actionable.planning.repair import ESTABLISH, corrective_steps


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


# the object state each state-setting action makes (the inverse of repair's ESTABLISH table)
_EFFECT_STATE = {act: state for state, act in ESTABLISH.items()}


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


class AffordanceOracle(Committing):
    """Simulator-backed affordance and repair over one scene.

    Args:
        scene: a :class:`~actionable.worlds.virtualhome.scene.SceneGraph` (or a scene name).
        repair_budget: most corrective steps inserted before one step (0 = no repair).
        max_bindings: node-id bindings tried per class-level step.

    Raises:
        SceneError: unknown scene.
    """

    def __init__(self, scene, repair_budget: int = 3, max_bindings: int = 4):
        self.sim = Simulator()
        self.sim.reset(options={"scene": scene})
        self.scene = self.sim._scene
        self.resolver = Resolver(ResolverConfig(max_alternatives=max_bindings))
        self.repair_budget = max(0, int(repair_budget))
        self.max_bindings = max(1, int(max_bindings))
        self.memory: dict[str, int] = {}
        self.state = self.sim._state
        self.seen: set[int] = {self.fingerprint(self.state)}

    def fingerprint(self, state) -> int:
        """Hash of how ``state`` differs from the scene's initial state (canonical: two
        action sequences reaching the same state agree); the loop guard's key."""
        return hash(state_diff(state))

    def view(self, state=None) -> StateView:
        return StateView(self.state if state is None else state, self.sim._char_id, self.sim._mods[0].Relation)

    def _run(self, step: Step, state):
        return self.sim._run(step, state)

    def _bindings(self, step: Step, state) -> list[Step]:
        if step.is_resolved:
            return [step]
        return self.resolver.rank(step, self.view(state), self.memory)[: self.max_bindings]

    def attempt(self, step: Step, repair: bool = True) -> Attempt:
        """Try ``step`` from the current state (the oracle's state is not changed).

        With ``repair``, a failing best binding gets corrective steps for its
        unmet preconditions (each of which must itself execute, possibly after
        its own repair) until it executes or ``repair_budget`` steps were inserted.

        Raises:
            ResolutionError: a class of ``step`` is not in the scene.
        """
        bindings = self._bindings(step, self.state)
        first_fail = None
        for b in bindings:
            ok, new_state, info = self._run(b, self.state)
            if ok:
                fp = self.fingerprint(new_state)
                return Attempt(step, True, [b], [False], None, new_state, fp, [fp])
            if first_fail is None:
                first_fail = (b, info)
        b, info = first_fail
        fails = [info]
        if repair and self.repair_budget > 0:
            done: list[Step] = []
            states: list = []
            res = self._repair(b, info, self.state, self.repair_budget, done, states, fails)
            if res is not None:
                final_state, final_step = res
                fp = self.fingerprint(final_state)
                return Attempt(step, True, done + [final_step], [True] * len(done) + [False], None,
                               final_state, fp, [self.fingerprint(x) for x in states] + [fp])
        satisfied = (fails[-1] or {}).get("error_type") == "satisfied" and self._effect_in_state(b)
        return Attempt(step, False, [b], [False], info, satisfied=satisfied)

    def instances(self, step: Step) -> list[Step]:
        """One resolved copy of a one-object class-level ``step`` per node of its class (optional
        capability; the grounded planner's "nothing to do" check tries each)."""
        if len(step.args) != 1:
            return []
        return [Step(step.action, (Argument(step.args[0].name, i),))
                for i in self.view().nodes_of_class(step.args[0].name)]

    def cannot(self, step: Step) -> str | None:
        """Why no instance of the class-level ``step``'s object can ever do it (no node of the class
        has the property the action needs: a VirtualHome window has no ``CAN_OPEN``), or ``None``.
        An optional capability of the planning domain's affordance (grounded planner: a task whose
        own step no object here affords is refused)."""
        if step.action not in _EFFECT_STATE or not step.args:  # state-setting actions only
            return None
        need = ACTION_RULES[step.action][0]  # the admissible-action rule: any of these properties
        view = self.view()
        ids = view.nodes_of_class(step.args[0].name)
        if not ids or any(need & view.properties_of(i) for i in ids):
            return None
        return f"no {step.args[0].name} here has the property {' or '.join(sorted(need))}"

    def _effect_in_state(self, step: Step) -> bool:
        """The state a switch/open/plug step makes is really in the object's states (the simulator
        also calls "open a window that has neither OPEN nor CLOSED" satisfied); other actions
        (sit, grab: the character's own state) keep the simulator's verdict."""
        want = _EFFECT_STATE.get(step.action)
        if want is None or not step.args or step.args[0].id is None:
            return True
        return want in self.view().states_of(step.args[0].id)

    def _repair(self, step: Step, info: dict, state, budget: int, done: list[Step], states: list,
                fails: list | None = None):
        """Insert corrective steps before ``step`` (appended to ``done``, the state
        after each to ``states``; each failure of ``step`` itself to ``fails``); return
        ``(state after step, step)`` or ``None`` when the budget runs out."""
        for _ in range(budget + 1):
            fix = corrective_steps(info.get("unmet_raw") or [], self.view(state), step)
            if not fix or budget - len(done) < len(fix):
                return None
            for f in fix:
                ok, new_state, finfo = self._run(f, state)
                if not ok:
                    sub = self._repair(f, finfo, state, budget - len(done) - 1, done, states)
                    if sub is None:
                        return None
                    new_state = sub[0]
                done.append(f)
                states.append(new_state)
                state = new_state
            ok, new_state, info = self._run(step, state)
            if ok:
                return new_state, step
            if fails is not None:
                fails.append(info)
            if len(done) >= budget:
                return None
        return None


def revisits_state(path) -> bool:
    """Whether a sequence of state fingerprints returns to a state after a change (``[a, b, a]``;
    ``[a, a]`` is a no-op, not a return): the no-progress loop of the planner's guard and of the
    sequencing benchmark's loop metric."""
    runs = [fp for i, fp in enumerate(path) if i == 0 or fp != path[i - 1]]
    return len(set(runs)) < len(runs)


__all__ = ["AffordanceOracle", "Attempt", "revisits_state"]


@dataclass
class GroundedProgram:
    """A class-level program grounded step by step (and optionally repaired).

    Attributes:
        steps: resolved steps that ran (repairs included), then the failing step if any.
        repaired: one flag per entry of ``steps``.
        executable: every step of the input ran.
        failed_index: index into the *input* program of the first step that failed.
        info: the simulator's info for that failure.
        final_state: :class:`StateView` after the executed prefix.
        fingerprints: state fingerprint after each executed step (loop metrics).
    """

    steps: list[Step]
    repaired: list[bool]
    executable: bool
    failed_index: int | None
    info: dict | None
    final_state: StateView
    fingerprints: list[int]

    @property
    def n_repairs(self) -> int:
        return sum(self.repaired)


def ground_program(program, scene, repair: bool = True, repair_budget: int = 3) -> GroundedProgram:
    """Bind and run ``program`` step by step from ``scene``'s initial state; with
    ``repair`` a failing step gets corrective steps first (CAPE-style, by rules).

    Used by the retrieval-only baseline and by ``--repair`` for the paper's
    variants. Steps that already carry node ids are run as they are.

    Raises:
        SceneError: unknown scene.
    """
    oracle = AffordanceOracle(scene, repair_budget=repair_budget if repair else 0)
    steps: list[Step] = []
    flags: list[bool] = []
    prints = []
    for i, step in enumerate(program.steps):
        try:
            att = oracle.attempt(step, repair=repair)
        except ResolutionError as exc:
            return GroundedProgram(steps, flags, False, i, {"error": str(exc), "error_type": "resolution",
                                                            "unmet_preconditions": []},
                                   oracle.view(), prints)
        if not att.ok:
            return GroundedProgram(steps + att.steps, flags + [False], False, i, att.info, oracle.view(), prints)
        oracle.commit(att)
        steps += att.steps
        flags += att.repaired
        prints += [att.fingerprint]
    return GroundedProgram(steps, flags, True, None, None, oracle.view(), prints)


__all__ += ["GroundedProgram", "ground_program"]
