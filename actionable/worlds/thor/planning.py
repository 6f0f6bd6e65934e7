"""The THOR kitchen's planning domain for the grounded planner (:mod:`actionable.core.planning`).

``actionable plan "Make coffee" --env thor --scene FloorPlan1`` plans here. The planner scores
class-level steps in the project's vocabulary (``grab mug``, ``put mug in coffee machine``,
``switch on coffee machine``, ``pour cup into house plant``); this module binds them to AI2-THOR
object ids and runs them with the THOR interpreter (:mod:`.actions`, ALFRED's PDDL plus TEACh):

=====================  ===============================  =================================
step                   THOR action                      note
=====================  ===============================  =================================
``WALK x``             ``GotoLocation(x)``              to the place ``x`` stands
``GRAB x``             ``PickUp(x)``
``PUTIN/PUTBACK x r``  ``Place(r)``                     ``x`` must be the held object
``POUR x t``           ``Pour(t)``                      ``x`` must be the held object
``OPEN/CLOSE x``       ``Open(x)`` / ``Close(x)``
``SWITCHON/OFF x``     ``ToggleOn(x)`` / ``ToggleOff(x)``
``WASH x``             ``Clean(x)``                     next to a sink
``CUT x``              ``Slice(x)``                     holding a knife
=====================  ===============================  =================================

Binding (a class to an id): the id the plan bound that class to before, an instance linked to an
object the plan used (the knob of the burner the pot went on, the faucet of the basin), the held
object, then instances in reach and not shut in a closed container, then the rest, by id (at most
``max_bindings`` tried). Class names are the types in snake case (``CoffeeMachine`` ->
``coffee_machine``). Rule repair from the unmet preconditions the interpreter names (CAPE):
``atLocation(agent, x)`` -> ``WALK x``; ``opened(c)`` -> ``OPEN c``; ``holds(agent, x)`` ->
``GRAB x``; ``not holdsAny(agent)`` -> put the held object down on a free surface in reach (else
walk to the nearest counter top first); ``isFilledWithLiquid(x)`` of the held vessel (to pour) ->
put it in the sink basin, run the faucet, take it back. Anything else (a missing knife) is left
to the planner. A rule inserts up to 3 steps, so the budget (``GroundedConfig.repair_budget``,
3) is counted in units of 3 steps (9 corrective steps before one step at most).

Example bank: the TEACh demonstrations packaged with the world (:mod:`.bank`);
:meth:`ThorPlanning.held_out_sources` lists those recorded in the scene's own AI2-THOR floor
plan, which a leak-free evaluation excludes.
"""

from __future__ import annotations

import functools
import itertools

from actionable.core.program import Argument, Step
from actionable.core.errors import ResolutionError
from actionable.core.planning import Attempt, Committing
from actionable.worlds.thor import actions as A
from actionable.worlds.thor import data
from actionable.worlds.thor.repair import class_name, corrective_steps, put_verb, resolved
from actionable.worlds.thor.scene import DEFAULT_SCENE, Obj, ThorState, load_scene, resolve_scene

_ONE = {"WALK": "GotoLocation", "GRAB": "PickUp", "OPEN": "Open", "CLOSE": "Close", "SWITCHON": "ToggleOn",
        "SWITCHOFF": "ToggleOff", "WASH": "Clean", "CUT": "Slice"}
_HELD = {"PUTIN": "Place", "PUTBACK": "Place", "POUR": "Pour"}
#: what a step makes true of its object (attribute of the THOR object, value); when that already
#: holds on every object the step could bind, the attempt fails as ``satisfied`` ("nothing to do")
_EFFECT = {"SWITCHON": ("on", True), "SWITCHOFF": ("on", False), "OPEN": ("open", True), "CLOSE": ("open", False)}
#: the project's step action -> the THOR action it runs as (the planner's mapping; the verify
#: adapter, :mod:`.verify_adapter`, reads plans with the same table)
STEP_TO_THOR: dict[str, str] = {**_ONE, **_HELD}
#: names users type for THOR classes (class -> aliases); the types' own names are always known
ALIASES: dict[str, tuple[str, ...]] = {
    "coffee_machine": ("coffee maker", "coffeemaker", "coffee"), "house_plant": ("plant", "houseplant"),
    "sink_basin": ("sink",), "faucet": ("tap", "water"), "stove_burner": ("stove", "burner", "hob"),
    "stove_knob": ("knob",), "fridge": ("refrigerator",), "counter_top": ("counter", "countertop"),
    "garbage_can": ("trash can", "bin"), "dining_table": ("table",), "television": ("tv",),
}
#: classes that stand for one another (a faucet and the sink basin it runs into)
WATER = {"faucet": ("faucet", "sink_basin"), "sink_basin": ("sink_basin", "faucet")}


def clone(s: ThorState) -> ThorState:
    """An independent copy of a state (objects copied; the scene shared)."""
    c = ThorState.__new__(ThorState)
    c.scene, c.agent_loc, c.agent_pos, c.held = s.scene, s.agent_loc, s.agent_pos, s.held
    objs = {}
    for i, o in s.objects.items():
        n = Obj.__new__(Obj)
        for k in Obj.__slots__:
            setattr(n, k, getattr(o, k))
        n.children = list(o.children)
        objs[i] = n
    c.objects = objs
    return c


class ThorAffordance(Committing):
    """Exact affordance and rule repair over one THOR scene (the planner's
    :class:`~actionable.core.planning.Affordance`). Attempts never change :attr:`state`."""

    def __init__(self, scene, repair_budget: int = 3, max_bindings: int = 4):
        self.scene = scene
        self.initial = ThorState(scene)
        self.state = clone(self.initial)
        # a THOR rule inserts up to 3 steps (filling a vessel), so the budget allows 3 steps per unit
        self.repair_budget, self.max_bindings = 3 * max(0, int(repair_budget)), max(1, int(max_bindings))
        self.memory: dict[str, str] = {}
        types = sorted({o.type for o in self.initial.objects.values() if o.type != "Floor"})
        self.types = {class_name(t): t for t in types}
        self.seen: set = {self.fingerprint(self.state)}

    # --- scene queries ---
    def fingerprint(self, s: ThorState) -> int:
        return hash((s.agent_loc, s.agent_pos, s.held, tuple(
            (i, o.parent, o.open, o.on, o.dirty, o.filled, o.liquid, o.cooked, o.boiled, o.sliced, o.temp, o.clean)
            for i, o in sorted(s.objects.items()))))

    def class_names(self) -> list[str]:
        return list(self.types)

    def equivalents(self, name: str):
        """A faucet and the sink basin it runs into are one water source (either brings both)."""
        return WATER.get(name, (name,))

    def step_classes(self, text: str) -> list[str]:
        from actionable.core.program import parse_step

        return [a.name for a in parse_step(text).args]

    def match_objects(self, task: str, embedder):
        from actionable.grounding.objects import match_task_objects

        return match_task_objects(task, self.class_names(), embedder, equivalence=ALIASES,
                                  vocabulary=thor_vocabulary())

    def _caps(self, cls: str) -> set:
        t = self.types[cls]
        return set().union(*(o.caps for o in self.initial.objects.values() if o.type == t))

    def candidates(self, classes) -> list[Step]:
        """Class-level steps over ``classes`` the scene's objects afford by their capabilities."""
        cls = [c for c in sorted(classes) if c in self.types]
        caps = {c: self._caps(c) for c in cls}
        cc = A.teach_can_contain()
        out = [Step.of("walk", c) for c in cls]
        for c in cls:
            for cap, acts in (("pickupable", ("grab",)), ("openable", ("open", "close")),
                              ("toggleable", ("switchon", "switchoff")), ("dirtyable", ("wash",)),
                              ("sliceable", ("cut",))):
                if cap in caps[c]:
                    out += [Step.of(a, c) for a in acts]
        for o in (c for c in cls if "pickupable" in caps[c]):
            for r in cls:
                if r != o and "receptacle" in caps[r] and self.types[o] in cc.get(self.types[r], ()):
                    out.append(Step(put_verb(self.types[r]), (Argument(o), Argument(r))))
            if "canFillWithLiquid" in caps[o]:
                for t in cls:
                    if t != o and ("canFillWithLiquid" in caps[t] or self.types[t] in ("SinkBasin", "Sink")):
                        out.append(Step("POUR", (Argument(o), Argument(t))))
        return list(dict.fromkeys(out))

    # --- affordance ---
    def _ids(self, cls: str, s: ThorState, walk: bool = False) -> list[str]:
        t = self.types.get(cls)
        if t is None:
            raise ResolutionError(f"no {cls!r} in THOR scene {self.scene.name!r}")
        ids = s.of_type(t)
        mem = self.memory.get(cls)
        used = set(self.memory.values())
        links = s.scene.links
        if walk:
            key = lambda i: (i != mem, s.enclosed(i) is not None, s.reachable(i), i)  # noqa: E731
        else:  # a knob (faucet) whose burner (basin) the plan used comes first
            key = lambda i: (i != mem, links.get(i) not in used, i != s.held, not s.reachable(i),  # noqa: E731
                             s.enclosed(i) is not None, i)
        return sorted(ids, key=key)

    def _bindings(self, step: Step, s: ThorState) -> list[Step]:
        if step.is_resolved:
            return [step]
        if step.action not in _ONE and step.action not in _HELD:
            raise ResolutionError(f"{step.action} is not an action of the THOR world")
        lists = [self._ids(a.name, s, walk=step.action == "WALK") for a in step.args]
        if step.action in _HELD and s.held in lists[0]:
            lists[0] = [s.held]
        combos = (c for c in itertools.product(*lists) if len(set(c)) == len(c))
        return [resolved(step.action, *c, s=s) for c in itertools.islice(combos, self.max_bindings)]

    def run(self, step: Step, s: ThorState) -> tuple[bool, ThorState | None, list[str]]:
        """Run a resolved step on a copy of ``s``: ``(ok, new state, unmet preconditions)``."""
        ids = tuple(a.id for a in step.args)
        if step.action in _HELD:
            if s.held != ids[0]:
                return False, None, [f"holds(agent, {ids[0]})"]
            name, args = _HELD[step.action], ids[1:]
        else:
            name, args = _ONE[step.action], ids
        unmet = A.execute(s, name, args, check_only=True)
        if unmet:
            return False, None, unmet
        new = clone(s)
        A.execute(new, name, args)
        return True, new, []

    def attempt(self, step: Step, repair: bool = True) -> Attempt:
        """Try ``step`` from :attr:`state` (unchanged); see
        :meth:`actionable.planning.affordance.AffordanceOracle.attempt` (same algorithm).

        Raises:
            ResolutionError: a class of ``step`` is not in the scene.
        """
        first_fail = None
        bindings = self._bindings(step, self.state)
        if bindings and self._satisfied(step.action, bindings):  # nothing to do: never "repaired" by undoing it
            return Attempt(step, False, bindings[:1], [False], {"unmet_preconditions": ["already holds"]},
                           satisfied=True)
        for b in bindings:
            ok, new, unmet = self.run(b, self.state)
            if ok:
                fp = self.fingerprint(new)
                return Attempt(step, True, [b], [False], None, new, fp, [fp])
            if first_fail is None:
                first_fail = (b, unmet)
        if first_fail is None:
            raise ResolutionError(f"no binding of {step.to_text()!r} in THOR scene {self.scene.name!r}")
        b, unmet = first_fail
        if repair and self.repair_budget > 0:
            done: list[Step] = []
            states: list = []
            res = self._repair(b, unmet, self.state, self.repair_budget, done, states)
            if res is not None:
                fp = self.fingerprint(res)
                return Attempt(step, True, done + [b], [True] * len(done) + [False], None, res, fp,
                               [self.fingerprint(x) for x in states] + [fp])
        return Attempt(step, False, [b], [False], {"unmet_preconditions": unmet})

    def _satisfied(self, action: str, bindings: list[Step]) -> bool:
        """What ``action`` does already holds on every object of ``bindings`` (the TV that is on,
        for "switch on"), from the object's own state; ``False`` for actions without such an effect."""
        eff = _EFFECT.get(action)
        objs = [self.state.objects.get(b.args[0].id) for b in bindings if b.args]
        return eff is not None and bool(objs) and all(o is not None and getattr(o, eff[0]) == eff[1]
                                                      for o in objs)

    def _repair(self, step: Step, unmet: list[str], s: ThorState, budget: int, done: list, states: list):
        for _ in range(budget + 1):
            fix = corrective_steps(unmet, s, step)
            if not fix or budget - len(done) < len(fix):
                return None
            for f in fix:
                ok, new, funmet = self.run(f, s)
                if not ok:
                    new = self._repair(f, funmet, s, budget - len(done) - 1, done, states)
                    if new is None:
                        return None
                done.append(f)
                states.append(new)
                s = new
            ok, new, unmet = self.run(step, s)
            if ok:
                return new
            if len(done) >= budget:
                return None
        return None

    def execute(self, resolved_steps) -> tuple[dict, ThorState]:
        """Replay from the initial state: ``(executability dict, final state)``."""
        s = clone(self.initial)
        steps = list(resolved_steps)
        for i, st in enumerate(steps):
            ok, new, unmet = self.run(st, s)
            if not ok:
                return ({"executable": False, "failed_index": i, "failed_step": st.unresolved().to_text(),
                         "error_type": "precondition", "unmet_preconditions": unmet, "steps_executed": i,
                         "error": f"{st.unresolved().to_text()} is not executable: unmet {', '.join(unmet)}"}, s)
            s = new
        return ({"executable": True, "failed_index": None, "failed_step": None, "error_type": None, "error": None,
                 "unmet_preconditions": [], "steps_executed": len(steps)}, s)


@functools.lru_cache(maxsize=1)
def thor_vocabulary() -> frozenset[str]:
    """Object names the THOR world knows (every AI2-THOR type in snake case, spaced, and the
    :data:`ALIASES`): a task word among them that the scene lacks is reported missing."""
    names = {class_name(t).replace("_", " ") for t in data.vocab()["TYPE_CAPS"]}
    names |= {class_name(t).replace("_", " ") for ep in data.teach_episodes().values() for t in
              {o["type"] for o in ep["objects"]}}
    names |= {a for alts in ALIASES.values() for a in alts}
    return frozenset(names)


class ThorPlanning:
    """A THOR scene as a planning domain (:class:`~actionable.core.planning.PlanningDomain`).

    Args:
        scene: ``FloorPlan<N>`` (an ALFRED layout, objects placed with ``seed``) or
            ``teach:<game>`` (a bare game id is read as one); ``"default"``: FloorPlan1.
        seed: placement seed of ALFRED layouts.

    Raises:
        UnknownSceneError: no such THOR scene (the message gives examples).
    """

    world = "thor"
    executes_in = "the THOR kitchen world (ALFRED's PDDL + TEACh)"
    #: no whole-scene admissible-action index: the paper's variants do not plan here

    def __init__(self, scene: str | None = DEFAULT_SCENE, seed: int = 0):
        if scene in (None, "default"):
            scene = DEFAULT_SCENE
        name = resolve_scene(scene) if isinstance(scene, str) else None
        self.scene = load_scene(name or scene, seed)
        self.name = self.scene.name
        self.classes_hint = f"run 'actionable scenes --env thor {self.name} --classes'"

    def start(self, repair_budget: int = 3) -> ThorAffordance:
        return ThorAffordance(self.scene, repair_budget=repair_budget)

    def example_bank(self):
        """The TEACh demonstrations (:func:`.bank.teach_bank`)."""
        from actionable.worlds.thor.bank import teach_bank

        return teach_bank()

    @staticmethod
    def world_text(step: Step) -> str:
        """A resolved step in the kitchen's action language, by type (``grab mug`` ->
        ``PickUp(Mug)``, ``put mug in coffee machine`` -> ``Place(CoffeeMachine)``), as
        ``actionable verify --env thor`` reads it."""
        act = _ONE.get(step.action) or _HELD[step.action]
        arg = step.args[-1].name
        return f"{act}({''.join(p.title() for p in arg.split('_'))})"

    def floor_plan(self) -> str:
        """The AI2-THOR floor plan of the scene (``FloorPlan10``)."""
        from actionable.worlds.thor.bank import floor_plan

        return floor_plan(self.scene.meta.get("world", self.name))

    def held_out_sources(self) -> tuple[str, ...]:
        """Bank sources recorded in this scene's floor plan (excluded for a leak-free evaluation)."""
        from actionable.worlds.thor.bank import held_out_sources

        return held_out_sources(self.floor_plan())

    def goal_progress(self, task: str):
        """``state -> (goals met, goals total)`` for a task with goal predicates (:mod:`.goals`),
        else ``None``: the optional capability the grounded planner uses to not stop, or undo a
        goal, while the task's goals are unmet (:mod:`actionable.planning.goalsearch`)."""
        from actionable.core.errors import WorldGoalError
        from actionable.core.world import check_goals
        from actionable.worlds.thor.goals import task_goals

        try:
            goals = task_goals(task)
        except WorldGoalError:
            return None
        return lambda state: (len(check_goals(goals, state).met), len(goals))

    def goal_check(self, result, session=None) -> dict:
        """The world's goal predicates of the task (:mod:`.goals`: Make coffee, Boil water,
        Water the plant) on the plan's final state; task success needs an executable plan."""
        from actionable.core.errors import WorldGoalError
        from actionable.core.world import check_goals
        from actionable.worlds.thor.goals import task_goals

        try:
            goals = task_goals(result.task)
        except WorldGoalError as exc:
            return {"checked": False, "reason": str(exc)}
        state = result.final_state if result.final_state is not None else ThorState(self.scene)
        gr = check_goals(goals, state)
        ok = bool((result.executability or {}).get("executable"))
        return {"checked": True, "met": len(gr.met), "total": len(gr.met) + len(gr.unmet), "unmet": list(gr.unmet),
                "task_success": bool(gr.success and ok), "program_id": "the THOR world's goal predicates",
                "task": result.task, "origin": f"from the THOR world's goal predicates of {result.task!r}",
                "conditions": [{"text": str(g), "met": True} for g in gr.met]
                + [{"text": str(g), "met": False} for g in gr.unmet]}


__all__ = ["ThorPlanning", "ThorAffordance", "clone", "thor_vocabulary", "ALIASES", "WATER", "STEP_TO_THOR"]
