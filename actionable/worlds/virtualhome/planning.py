"""VirtualHome's planning domain for the grounded planner (:mod:`actionable.core.planning`).

A thin layer over what the planner used before it became world-agnostic, unchanged: the
simulator affordance and rule repair of :class:`~actionable.planning.affordance.AffordanceOracle`
(CAPE rules of :mod:`actionable.worlds.virtualhome.repair`), the scene's class-level admissible actions
(:func:`~actionable.worlds.virtualhome.admissible.admissible_actions`) restricted to the task's classes plus
walks to the rooms and ``STANDUP`` / ``SLEEP`` / ``WAKEUP``, VirtualHome's name equivalences
(``class_name_equivalence.json``), task-object matching over the dataset's vocabulary
(:func:`~actionable.grounding.objects.match_task_objects`), the 518 packaged programs as the
example bank, and the implied goal check of
:func:`~actionable.planning.session.implied_goal_check`.
"""

from __future__ import annotations

import functools
from typing import Any

from actionable.core.errors import ResolutionError
from actionable.core.planning import Attempt, Committing
from actionable.core.program import Argument, Step
from actionable.grounding.objects import match_task_objects, normalize_name as norm_name
from actionable.worlds.virtualhome.admissible import ACTION_RULES
from actionable.worlds.virtualhome.reach import out_of_reach
from actionable.worlds.virtualhome.repair import ESTABLISH, corrective_steps
from actionable.worlds.virtualhome.resolver import Resolver, ResolverConfig
from actionable.worlds.virtualhome.simulator import Simulator, StateView, state_diff


#: Names users type that neither the dataset nor its equivalence table spell.
EXTRA_ALIASES: dict[str, tuple[str, ...]] = {
    "coffe_maker": ("coffee maker", "coffee machine", "coffeemaker"),
    "television": ("tv", "telly"), "computer": ("pc", "laptop"), "couch": ("sofa",),
    "freezer": ("fridge", "refrigerator"), "cellphone": ("mobile phone", "cell phone"),
}
@functools.lru_cache(maxsize=1)
def vocabulary() -> frozenset[str]:
    """Every object name of VirtualHome's dataset (normalised): its classes, its name equivalences and
    :data:`EXTRA_ALIASES` (task words in it but absent from a scene are *missing*)."""
    from actionable.worlds.virtualhome.scene import load_name_equivalence, load_properties_data

    eq = load_name_equivalence()
    names = {norm_name(c) for c in load_properties_data()}
    names |= {norm_name(a) for c, alts in eq.items() for a in (c, *alts)}
    names |= {norm_name(a) for c, alts in EXTRA_ALIASES.items() for a in (c, *alts)}
    return frozenset(names)


def match_objects(task: str, scene_classes, embedder=None):
    """:func:`~actionable.grounding.objects.match_task_objects` with VirtualHome's name equivalences
    (``class_name_equivalence.json``), :data:`EXTRA_ALIASES` and :func:`vocabulary`."""
    from actionable.worlds.virtualhome.scene import load_name_equivalence

    return match_task_objects(task, scene_classes, embedder, equivalence=load_name_equivalence(),
                              vocabulary=vocabulary(), extra=EXTRA_ALIASES)


# the object state each state-setting action makes (the inverse of repair's ESTABLISH table)
_EFFECT_STATE = {act: state for state, act in ESTABLISH.items()}


class AffordanceOracle(Committing):
    """Simulator-backed affordance and repair over one scene.

    Args:
        scene: a :class:`~actionable.worlds.virtualhome.scene.SceneGraph` (or a scene name).
        repair_budget: most corrective steps inserted before one step (0 = no repair).
        max_bindings: node-id bindings tried per class-level step.
        reach: apply the reach rule of :mod:`~actionable.worlds.virtualhome.reach` on top of the
            executor (an at-object step needs the character at the object, and the object not shut
            in a closed container); the rule repair inserts the walk or the opening. ``False``
            gives the raw executor's loose closeness.

    Raises:
        SceneError: unknown scene.
    """

    def __init__(self, scene, repair_budget: int = 3, max_bindings: int = 4, reach: bool = True):
        self.reach = bool(reach)
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
        why = out_of_reach(step, self.view(state)) if self.reach else None
        if why is not None and why["shut_in"]:  # open the container before walking to what is in it
            return False, state, dict(why, step_index=self.sim._t)
        ok, new_state, info = self.sim._run(step, state)
        if ok and why is not None:
            return False, state, dict(why, step_index=info.get("step_index"))
        return ok, new_state, info

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

    def refusal(self, step: Step) -> str | None:
        """Why VirtualHome refuses ``step`` here for a reason its simulator does not name as a
        precondition, with what the user can do, or ``None`` (an optional capability of the
        affordance: the goal search's blocker). Sitting or lying on furniture with too many things
        on it ("put the book on the couch and lie on it": the couch takes one thing for lying, and a
        curtain is already on it): the evolving graph's occupancy limit, what is on it, and which of
        those cannot be picked up."""
        if step.action not in ("SIT", "LIE") or len(step.args) != 1:
            return None
        view = self.view()
        ids = [step.args[0].id] if step.args[0].id is not None else view.nodes_of_class(step.args[0].name)
        execution = self.sim._mods[1]
        limits = (execution.SitExecutor if step.action == "SIT" else execution.LieExecutor)._MAX_OCCUPANCIES
        for x in ids:
            if x not in view:
                continue
            cls, limit = view.class_of(x), limits.get(view.class_of(x), 1)
            on = [o for o in view.sources(x, "ON") if o != view.character_id]
            if len(on) < limit:
                continue
            fixed = [o for o in on if "GRABBABLE" not in view.properties_of(o)]
            what = ", ".join(f"{view.class_of(o).replace('_', ' ')} {o}" for o in on)
            posture = "sitting" if step.action == "SIT" else "lying"
            return (f"VirtualHome refuses {step.action} on <{cls}> ({x}) while it holds {len(on)} "
                    f"object{'s' if len(on) != 1 else ''} ({what}; {posture} takes at most {limit - 1}"
                    + (f", and the {' and the '.join(view.class_of(o).replace('_', ' ') for o in fixed)} "
                       f"cannot be picked up" if fixed else "") + ")")
        return None

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
            fix = corrective_steps(info.get("unmet_raw") or [], self.view(state), step, home=self.scene)
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


class VirtualHomeAffordance(AffordanceOracle):
    """:class:`AffordanceOracle` plus the scene-side queries of
    :class:`~actionable.core.planning.Affordance` (on the simulator's scene graph)."""

    def class_names(self) -> list[str]:
        return self.scene.class_names()

    def equivalents(self, name: str):
        from actionable.worlds.virtualhome.scene import load_name_equivalence

        eq = load_name_equivalence()
        return (name, *eq.get(name, ()), *(k for k, v in eq.items() if name in v))

    def step_classes(self, text: str) -> list[str]:
        from actionable.core.program import parse_step

        return [a.name for a in parse_step(text).args]

    def match_objects(self, task: str, embedder):
        return match_objects(task, self.class_names(), embedder)

    def candidates(self, classes) -> list:
        from actionable.worlds.virtualhome.admissible import admissible_actions
        from actionable.core.program import Step

        graph = self.scene
        rooms = {graph.class_of(r) for r in graph.rooms}
        pool = [s for s in admissible_actions(graph) if s.args and (
            (s.action in ("WALK", "RUN") and s.args[0].name in rooms)
            or all(a.name in classes for a in s.args))]
        pool += [Step(a, ()) for a in ("STANDUP", "SLEEP", "WAKEUP")]
        return list(dict.fromkeys(pool))

    def execute(self, resolved_steps) -> tuple[dict, Any]:
        from actionable.core.program import Program
        from actionable.worlds.virtualhome.simulator import execute_program

        steps = list(resolved_steps)
        er = execute_program(Program(tuple(steps)), self.scene)
        fi = er.failed_index
        return ({"executable": bool(er.executable), "failed_index": fi,
                 "failed_step": steps[fi].unresolved().to_text() if fi is not None else None,
                 "error_type": er.error_type, "error": er.error,
                 "unmet_preconditions": list(er.unmet_preconditions or []),
                 "steps_executed": er.steps_executed}, er.final_state)


class VirtualHomePlanning:
    """VirtualHome scene ``scene`` (a name or a :class:`~actionable.worlds.virtualhome.scene.SceneGraph`).

    Raises:
        SceneError: unknown scene name.
    """

    world = "virtualhome"
    executes_in = "the VirtualHome simulator"

    def __init__(self, scene: Any = "default"):
        from actionable.worlds.virtualhome.scene import load_scene

        self.graph = load_scene(scene) if scene is None or isinstance(scene, str) else scene
        self.name = getattr(self.graph, "name", "")
        self.classes_hint = f"run 'actionable scenes {self.name or 'default'} --classes'"

    def start(self, repair_budget: int = 3) -> VirtualHomeAffordance:
        return VirtualHomeAffordance(self.graph, repair_budget=repair_budget)

    def example_bank(self) -> list:
        """The 518 packaged programs as :class:`~actionable.core.dataset.Example` records."""
        from actionable.worlds.virtualhome.tasks import DATASET

        return DATASET.examples()

    def goal_check(self, result, session=None) -> dict:
        """:func:`actionable.worlds.virtualhome.goalcheck.implied_goal_check` with the session's
        program retriever."""
        from actionable.worlds.virtualhome.goalcheck import implied_goal_check

        if session is None:
            return {"checked": False, "reason": "no planning session to find the task's annotated program"}
        return implied_goal_check(session.retriever, result, self.graph)

    # --- the paper's variants (Huang et al. 2022): a whole-scene admissible-action space
    #: this domain offers :meth:`admissible_actions` and :meth:`resolve_and_execute`
    paper_variants = True

    def admissible_actions(self) -> list:
        """Every class-level admissible action of the scene (the translation LM's action set;
        :func:`~actionable.worlds.virtualhome.admissible.admissible_actions`)."""
        from actionable.worlds.virtualhome.admissible import admissible_actions

        return admissible_actions(self.graph)

    def resolve_and_execute(self, program, goal: str | None = None):
        """Bind a class-level program to node ids step by step and run it
        (:func:`~actionable.worlds.virtualhome.resolver.resolve_and_execute`); raises
        ResolutionError for a class absent from the scene. ``goal``: the instruction; the instances
        its reading binds come first (:func:`~actionable.worlds.virtualhome.resolver.goal_instances`)."""
        from actionable.worlds.virtualhome.resolver import goal_instances, resolve_and_execute

        prefer = goal_instances(goal, self.graph) if goal else None
        return resolve_and_execute(program, self.graph, prefer=prefer)


__all__ = ["VirtualHomePlanning", "VirtualHomeAffordance"]
