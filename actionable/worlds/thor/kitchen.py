"""The THOR kitchen as a non-stationary, partially observable house for ExRAP (arXiv 2509.08222).

:class:`KitchenHouse` offers what the agents of :mod:`actionable.continual` read from VirtualHome's
``NonStationaryHouse`` - ``rooms``, ``room_hops``, ``static_room``, ``entity()``,
``navigation_skills()``, ``distance()``, ``states_of()``, ``placement()``, ``holder_of()``,
``reset(seed, focus) -> Observation`` and ``step(skill, after_skill) -> StepResult`` - over the
symbolic AI2-THOR world (:class:`~actionable.worlds.thor.world.ThorWorld`: ALFRED's PDDL
semantics), so ExRAP, the baselines and the oracle run in a kitchen unchanged.

**Scenes.** The 30 ALFRED kitchens ``FloorPlan1`` ... ``FloorPlan30``; each has the six fixtures
below. **Areas** (the "rooms" of ExRAP's Eq. 11): the locations of ``counter`` (the first
CounterTop by id), ``sink`` (SinkBasin, with its Faucet), ``stove`` (the StoveBurner, switched by
its StoveKnob), ``fridge``, ``coffee_machine`` and ``microwave``. Every area is one GotoLocation
away from every other (``room_hops`` 1: a kitchen is one room).

**Objects** (int node ids; the agent is 65, areas 1000+): the six fixtures plus the Faucet, and one
instance each of ten movables (Apple, Tomato, Potato, Bread; dirtyable Mug, Cup, Plate, Bowl, Pan,
Pot). At ``reset`` the movables are placed by a fixed rule: the k-th movable (in the order above)
goes to the k-th area surface that can hold it (ALFRED's ``canContain``), cycling through
counter, sink, stove, fridge, coffee machine, microwave; nothing is dirty, on or open.

**States** (``is`` facts): on/off (Faucet, StoveBurner, CoffeeMachine, Microwave), open/closed
(Fridge, Microwave), dirty/clean (dishes), empty/occupied (StoveBurner: whether anything stands
on it). Placement: ``(x, "on", surface)`` for "on" and "in" alike.

**Partial observability.** The agent sees the objects at its area that no closed container hides
(:meth:`ThorWorld.observe`'s rule: receptacles' contents are seen when open or visited), its area
and what it holds, plus the objects a skill touched on the way (it saw the apple it put in the
fridge before closing the door).

**Non-stationarity.** Every ``period`` steps (low 8, medium 6, high 4, as in the VirtualHome house;
:class:`~actionable.worlds.virtualhome.nonstationary.DynamicsConfig`) someone else makes 3 changes: a dish gets
dirtied or washed, a movable is moved to another area surface that can hold it, an appliance or
the faucet is switched on or off (with AI2-THOR's effects: running water cleans what is in the
sink), the fridge or microwave is opened or closed. With probability 0.7 a change hits an object
the instructions mention, and a move drawn that way goes to a place the instructions name (when
one can hold the object), so that conditions such as "an apple on the counter" come and go. The draws depend only on ``(seed, event index)``, never on the agent.

**Skills** compile to ALFRED/TEACh actions executed by the THOR world, stopping at the first that
fails (``StepResult.error`` names the unmet PDDL preconditions): ``go`` (GotoLocation),
``switch_on``/``switch_off`` (ToggleOn/ToggleOff, the burner's knob for the stove), ``open``/
``close``, ``move_onto`` (go, open the container around it, PickUp, go, open, PutObject, close
what was opened), ``clean`` (in the sink: Clean; else pick it up, put it in the sink, Clean), ``wait``.
A skill that needs free hands first puts a held object on the counter.
"""

from __future__ import annotations

import numpy as np

from actionable.core.continual import AGENT, DynamicsConfig, Observation, Skill, StepResult, net_changes
from actionable.core.errors import SceneError, SimulatorError
from actionable.core.world import Action
from actionable.worlds.thor import actions as A
from actionable.worlds.thor import data

AGENT_ID = 65
#: (area name, fixture type) in area order
AREAS = (("counter", "CounterTop"), ("sink", "SinkBasin"), ("stove", "StoveBurner"), ("fridge", "Fridge"),
         ("coffee_machine", "CoffeeMachine"), ("microwave", "Microwave"))
MOVABLE_TYPES = ("Apple", "Tomato", "Potato", "Bread", "Mug", "Cup", "Plate", "Bowl", "Pan", "Pot")
SWITCH_TYPES = ("Faucet", "StoveBurner", "CoffeeMachine", "Microwave")
OPEN_TYPES = ("Fridge", "Microwave")
#: text names of fixtures (movables: the type in lower case)
NAMES = {"CounterTop": "counter", "SinkBasin": "sink", "StoveBurner": "stove burner", "Fridge": "fridge",
         "CoffeeMachine": "coffee machine", "Microwave": "microwave", "Faucet": "faucet"}
EXCLUSIVE_PAIRS = (("on", "off"), ("open", "closed"), ("dirty", "clean"), ("empty", "occupied"))
KITCHENS = tuple(f"FloorPlan{i}" for i in range(1, 31))


def _snake(t: str) -> str:
    return "".join("_" + c.lower() if c.isupper() and i else c.lower() for i, c in enumerate(t))


class KitchenHouse:
    """An ALFRED kitchen as a non-stationary house (see the module docstring).

    Args:
        scene: ``FloorPlan1`` ... ``FloorPlan30``.
        config: :class:`~actionable.worlds.virtualhome.nonstationary.DynamicsConfig` (level -> period 8 / 6 / 4).

    Raises:
        UnknownSceneError: not a THOR scene. SceneError: a THOR scene that is not an ALFRED kitchen.
    """

    def __init__(self, scene: str = "FloorPlan1", config: DynamicsConfig | None = None):
        from actionable.worlds.thor.world import ThorWorld

        self.config = config or DynamicsConfig()
        self.world = ThorWorld(scene)
        self.world.reset(seed=0, options={"scene": scene})  # UnknownSceneError for a bad name
        if scene not in KITCHENS:
            raise SceneError(f"THOR scene {scene!r} is not an ALFRED kitchen; the kitchen world uses "
                             "FloorPlan1 ... FloorPlan30 (`actionable scenes --env thor` lists all scenes)")
        self.scene_name = scene
        self._index(self.world.state)
        self.focus: set[int] = set()
        self.t, self.seed, self._ready, self.focus_surfaces = 0, 0, False, set()

    # ----------------------------------------------------------------- scene index
    def _index(self, s) -> None:
        first = {}
        for i in sorted(s.objects):
            first.setdefault(s.objects[i].type, i)
        missing = [t for _, t in AREAS if t not in first] + [t for t in MOVABLE_TYPES + ("Faucet",) if t not in first]
        if missing:
            raise SceneError(f"kitchen {self.scene_name} lacks {', '.join(missing)}")
        self.rooms, self.area_anchor, self.oid, self.node = {}, {}, {}, {}
        for k, (name, t) in enumerate(AREAS):
            self.rooms[1000 + k] = name
            self.area_anchor[1000 + k] = first[t]
        fixtures = [first[t] for _, t in AREAS] + [first["Faucet"]]
        movables = [first[t] for t in MOVABLE_TYPES]
        for k, i in enumerate(fixtures + movables):
            self.oid[100 + k], self.node[i] = i, 100 + k
        self.class_of = {n: _snake(s.objects[i].type) for n, i in self.oid.items()}
        self.class_of[AGENT_ID] = "character"
        self.type_of = {n: s.objects[i].type for n, i in self.oid.items()}
        self.static_room = {self.node[first[t]]: 1000 + k for k, (_, t) in enumerate(AREAS)}
        self.static_room[self.node[first["Faucet"]]] = 1001  # the faucet is at the sink
        self.room_hops = {a: {b: (0 if a == b else 1) for b in self.rooms} for a in self.rooms}
        self.surfaces = [self.node[first[t]] for _, t in AREAS]
        self.movables = [self.node[i] for i in movables]
        self.switchables = sorted(n for n, t in self.type_of.items() if t in SWITCH_TYPES)
        self.openables = sorted(n for n, t in self.type_of.items() if t in OPEN_TYPES)
        self.dirtyables = [n for n in self.movables if "dirtyable" in s.objects[self.oid[n]].caps]
        self.dynamic = sorted(set(self.switchables) | set(self.openables) | set(self.movables))
        self._knob = {b: k for k, b in s.scene.links.items() if s.objects[k].type == "StoveKnob"}
        self._loc_area = {s.scene.loc_key.get(a, a): r for r, a in self.area_anchor.items()}
        cc = data.can_contain()
        self.homes = {n: [f for f in self.surfaces if self.type_of[n] in cc.get(self.type_of[f], ())]
                      for n in self.movables}

    # ----------------------------------------------------------------- names
    def entity(self, node: int) -> str:
        """TEKG label: an area name, ``agent``, or ``<snake_type>_<id>`` (``stove_burner_102``)."""
        if node in self.rooms:
            return self.rooms[node]
        if node == AGENT_ID:
            return AGENT
        return f"{self.class_of[node]}_{node}"

    def name(self, node: int) -> str:
        """Text name: ``fridge``, ``stove burner``, ``apple``; areas with spaces."""
        if node in self.rooms:
            return self.rooms[node].replace("_", " ")
        t = self.type_of[node]
        return NAMES.get(t, t.lower())

    def room_id(self, name: str) -> int:
        """Area id (1000+) of an area name such as ``sink``. Raises SceneError for another name."""
        for r, n in self.rooms.items():
            if n == name:
                return r
        raise SceneError(f"no kitchen area {name!r}; areas: {', '.join(self.rooms.values())}")

    def navigation_skills(self) -> list[Skill]:
        """``go`` to every area: ExRAP's exploration moves (Eq. 11 candidates), in area order."""
        return [Skill("go", (r,), f"go to the {n.replace('_', ' ')}") for r, n in sorted(self.rooms.items())]

    # ----------------------------------------------------------------- true state
    @property
    def state(self):
        if not self._ready:
            raise SimulatorError("KitchenHouse used before reset(); call house.reset(seed=...) first")
        return self.world.state

    def room_of(self, node: int) -> int:
        """Area of a node (the agent: where it stands; held objects: with the agent)."""
        if node in self.rooms:
            return node
        s = self.state
        if node == AGENT_ID or s.held == self.oid.get(node):
            return self._loc_area.get(s.agent_loc) or 1000
        r = self._loc_area.get(s.location_of(self.oid[node]))
        return r if r is not None else self.static_room.get(node, 1000)

    def distance(self, a: int, b: int) -> int:
        """Area hops between two nodes (0 same area, else 1): Eq. 11's graph distance."""
        return self.room_hops[self.room_of(a)][self.room_of(b)]

    def states_of(self, node: int) -> set[str]:
        """True ``is`` states of a node (vocabulary in the module docstring)."""
        o = self.state.objects[self.oid[node]]
        t, out = self.type_of[node], set()
        if t in SWITCH_TYPES:
            out.add("on" if o.on else "off")
        if t in OPEN_TYPES:
            out.add("open" if o.open else "closed")
        if node in self.dirtyables:
            out.add("dirty" if o.dirty else "clean")
        if t == "StoveBurner":
            out.add("occupied" if o.children else "empty")
        return out

    def states_of_vocab(self, node: int) -> set[str]:
        """Every ``is`` state ``node`` can take (no reset needed): e.g. ``{"dirty", "clean"}``."""
        t, out = self.type_of[node], set()
        for ok, pair in ((t in SWITCH_TYPES, ("on", "off")), (t in OPEN_TYPES, ("open", "closed")),
                         (node in self.dirtyables, ("dirty", "clean")), (t == "StoveBurner", ("empty", "occupied"))):
            if ok:
                out.update(pair)
        return out

    def placement(self, node: int) -> tuple[str, int] | None:
        """``("on", surface node)`` of a movable on/in an area surface, else ``None``."""
        p = self.state.objects[self.oid[node]].parent
        return ("on", self.node[p]) if p in self.node else None

    def holder_of(self, node: int) -> int | None:
        """65 (the agent) when it holds ``node``, else ``None``."""
        return AGENT_ID if self.state.held == self.oid.get(node) else None

    def facts_about(self, node: int) -> list[tuple[str, str, str]]:
        """True TEKG triples of one object: its ``is`` states, ``on`` placement (or the agent's
        ``holds``) and ``in_room`` area (ExRAP Sec. 3.1's observation quadruples without ``t``)."""
        ent = self.entity(node)
        out = [(ent, "is", v) for v in sorted(self.states_of(node))]
        if self.holder_of(node) is not None:
            return out + [(AGENT, "holds", ent)]
        p = self.placement(node)
        if p is not None:
            out.append((ent, "on", self.entity(p[1])))
        return out + [(ent, "in_room", self.rooms[self.room_of(node)])]

    def observe(self, full: bool = False, touched=()) -> Observation:
        """Triples the agent sees (all tracked objects if ``full``); ``touched``: nodes a skill handled."""
        s = self.state
        here = self.room_of(AGENT_ID)
        facts = [(AGENT, "in_room", self.rooms[here])]
        if s.held in self.node:
            facts.append((AGENT, "holds", self.entity(self.node[s.held])))
        for n in sorted(self.oid):
            i = self.oid[n]
            seen = full or n in touched or (s.reachable(i) and s.enclosed(i) is None and s.held != i
                                            and self.room_of(n) == here)
            if seen:
                facts += [f for f in self.facts_about(n) if f[1] != "holds"]
        return Observation(self.t, self.rooms[here], facts)

    # ----------------------------------------------------------------- episode
    def reset(self, seed: int = 0, focus: set[int] | None = None) -> Observation:
        """Restore the initial kitchen (placement rule of the module docstring), seed the dynamics."""
        self.world.reset(seed=0, options={"scene": self.scene_name})
        self._ready = True
        s = self.world.state
        for k, n in enumerate(self.movables):
            homes = self.homes[n]
            s.move(self.oid[n], self.oid[homes[k % len(homes)]])
        self._do(Action("GotoLocation", (self.area_anchor[1000],)))
        self.seed, self.t = int(seed), 0
        self.focus = set(focus or ()) & set(self.dynamic)
        self.focus_surfaces = set(focus or ()) & set(self.surfaces)
        return self.observe()

    def _do(self, act: Action) -> str | None:
        _, _, _, _, info = self.world.step(act)
        return info["error"]

    def compile(self, skill: Skill) -> list[Action]:
        """ALFRED/TEACh actions of a skill on the current state (see the module docstring).

        Raises:
            SimulatorError: unknown skill kind, wrong arity or an unknown node.
        """
        need = {"wait": 0, "move_onto": 2}.get(skill.kind, 1)
        if skill.kind not in ("go", "switch_on", "switch_off", "open", "close", "move_onto", "clean", "wait"):
            raise SimulatorError(f"unknown kitchen skill {skill.kind!r}; use go, switch_on, switch_off, open, "
                                 "close, move_onto, clean or wait")
        if len(skill.args) != need or any(a not in self.oid and a not in self.rooms for a in skill.args):
            raise SimulatorError(f"skill {skill.kind} takes {need} node id(s) of this kitchen, got {skill.args}")
        s, k = self.state, skill.kind
        if k == "wait":
            return []
        if k == "go":
            return [Action("GotoLocation", (self.area_anchor[skill.args[0]],))]
        x = self.oid[skill.args[0]]
        goto = [] if s.held == x else [Action("GotoLocation", (x,))]
        if k in ("switch_on", "switch_off"):
            target = self._knob.get(x, x)
            return goto + [Action("ToggleOn" if k == "switch_on" else "ToggleOff", (target,))]
        if k in ("open", "close"):
            return goto + [Action("Open" if k == "open" else "Close", (x,))]
        out = list(goto)
        if s.held is not None and s.held != x:  # free the hands first (a skill that failed half-way)
            counter = self.area_anchor[1000]
            out = [Action("GotoLocation", (counter,)), Action("PutObject", (s.held, counter))] + out
        c = s.enclosed(x)
        if s.held != x:
            out += ([Action("Open", (c,))] if c else []) + [Action("PickUp", (x,))] + ([Action("Close", (c,))] if c else [])
        if k == "clean":
            sink = self.area_anchor[1001]
            if s.objects[x].parent == sink and s.held != x:
                return goto + [Action("Clean", (x,))]
            return out + [Action("GotoLocation", (sink,)), Action("PutObject", (x, sink)), Action("Clean", (x,))]
        y = self.oid[skill.args[1]]
        shut = "openable" in s.objects[y].caps and not s.objects[y].open
        return out + [Action("GotoLocation", (y,))] + ([Action("Open", (y,))] if shut else []) + \
            [Action("PutObject", (x, y))] + ([Action("Close", (y,))] if shut else [])

    def step(self, skill: Skill, after_skill=None) -> StepResult:
        """Run one skill, call ``after_skill()``, advance time, apply scheduled changes, observe.

        Raises:
            SimulatorError: before :meth:`reset`, or a malformed skill (caller bug).
        """
        self.state  # noqa: B018 - raises before reset
        error, done = None, []
        for act in self.compile(skill):
            error = self._do(act)
            if error is not None:
                break
            done.append(self.world.format(act))
        if after_skill is not None:
            after_skill()
        self.t += 1
        changed = []
        if self.t % self.config.steps_between_changes == 0:
            changed = self._apply_event(self.t // self.config.steps_between_changes)
        touched = [a for a in skill.args if a in self.oid] if skill.kind not in ("go", "wait") else []
        return StepResult(self.observe(touched=touched), error is None, error, done, changed)

    # ----------------------------------------------------------------- dynamics
    def _apply_event(self, k: int) -> list[str]:
        """Apply change event ``k``: four draws per change, from ``(seed, k)`` only."""
        rng = np.random.default_rng([self.seed, k, 7927])
        focus = sorted(self.focus)
        changed = []
        for _ in range(self.config.changes_per_event):
            use_focus = focus and rng.random() < self.config.focus_prob
            pool = focus if use_focus else self.dynamic
            node = int(pool[int(rng.integers(len(pool)))])
            coin, u_kind, u_dest = bool(rng.random() < 0.5), float(rng.random()), float(rng.random())
            before = self._facts(node)
            msg = self._change(node, coin, u_kind, u_dest, bool(use_focus))
            if msg:
                after = self._facts(node)
                attr = next((a for a in after if after[a] != before[a]), msg)
                changed.append(((node, attr), before.get(attr), after.get(attr), msg))
        return net_changes(changed)  # one line per object attribute: off then on again is no change

    def _facts(self, node: int) -> dict:
        """The attributes of ``node`` that :meth:`_change` sets: dirt, place, power, door."""
        o = self.state.objects[self.oid[node]]
        knob = self.state.objects[self._knob.get(self.oid[node], self.oid[node])]
        return {"dirty": o.dirty, "place": o.parent, "power": knob.on, "open": o.open}

    def _change(self, node: int, coin: bool, u_kind: float, u_dest: float, focused: bool = False) -> str | None:
        s = self.state
        i = self.oid[node]
        o = s.objects[i]
        ent = self.entity(node)
        if node in self.movables:
            if s.held == i:
                return None
            if node in self.dirtyables and u_kind < 0.5:
                if o.dirty == coin:
                    return None
                o.dirty = coin
                return f"{ent} became {'dirty' if coin else 'clean'}"
            dests = [f for f in self.homes[node] if self.oid[f] != o.parent]
            if focused and any(f in self.focus_surfaces for f in dests):  # to a place an instruction names
                dests = [f for f in dests if f in self.focus_surfaces]
            if not dests:
                return None
            dest = dests[int(u_dest * len(dests))]
            s.move(i, self.oid[dest])
            A.settle(s, i)
            return f"{ent} moved onto {self.entity(dest)}"
        if node in self.switchables and (node not in self.openables or u_kind < 0.5):
            target = self._knob.get(i, i)
            if s.objects[target].on == coin:
                return None
            s.objects[target].on = coin
            A.toggled(s, target)
            return f"{ent} became {'on' if coin else 'off'}"
        if o.open == coin:
            return None
        o.open = coin
        return f"{ent} became {'open' if coin else 'closed'}"
