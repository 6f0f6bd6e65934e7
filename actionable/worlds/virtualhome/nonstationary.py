"""A non-stationary, partially observable house for continual instructions.

This is the environment of ExRAP (arXiv 2509.08222, Sec. 4 and App. B), built
on VirtualHome's symbolic simulator (the evolving graph of PyPI
``virtualhome-eval``):

* **Partial observability.** The agent observes only the dynamic objects of the
  room it stands in (their ON/OFF and OPEN/CLOSED states and where they lie) and
  its own location and what it holds (:meth:`NonStationaryHouse.observe`).
* **Non-stationarity.** Every ``period`` steps (low 8, medium 6, high 4; ExRAP
  Sec. 5.1) the house sets ``changes_per_event`` dynamic facts to values drawn
  by a seeded generator: appliances/lights/TV/computer on or off, doors and
  containers open or closed, movable objects relocated to another surface
  (possibly in another room). The schedule of *which* facts get *which*
  values depends only on ``(seed, event index)``, never on what the agent did,
  so every agent meets the same house; ``reset(seed)`` replays it exactly.
  With probability ``focus_prob`` a change is drawn among the *focus* objects
  (those the active instructions mention), otherwise among all dynamic facts,
  so that instruction conditions actually come and go within an episode.
* **Skills** are the unit of a step (:class:`Skill`): go to a room or object,
  switch on/off, open/close, grab, put on/in, move an object onto a surface, or
  wait. Each compiles to VirtualHome atomic actions (``[WALK]``, ``[SWITCHOFF]``,
  ...) that the evolving-graph ``ScriptExecutor`` executes on the live
  ``EnvironmentState`` (kept between steps, never rebuilt from a dict). An
  invalid skill does not raise: ``StepResult.error`` holds the simulator's
  reason (e.g. ``<character> (65) is not close to <cup> (2009)``).

Entities are named ``<class>_<id>`` (``television_248``); rooms by class name.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
import numpy as np

from actionable.core.continual import (AGENT, PERIODS, SKILL_KINDS, DynamicsConfig, Level, Observation,  # noqa: F401
                                     Skill, StepResult, net_changes)
from actionable.core.errors import SceneError, SimulatorError

#: Object classes whose ON/OFF state changes (allow-list, intersected with the scene).
SWITCHABLE = ("television", "light", "tablelamp", "computer", "faucet", "toaster",
              "coffe_maker", "radio", "stove", "dishwasher")
#: Object classes whose OPEN/CLOSED state changes.
OPENABLE = ("door", "cupboard", "bathroom_cabinet", "dresser", "nightstand", "microwave",
            "oven", "freezer", "fridge", "filing_cabinet", "curtain", "closet")
#: Movable (grabbable) object classes relocated by the dynamics.
MOVABLE = ("cup", "mug", "knife", "tea", "food_food", "pencil", "napkin", "picture", "check",
           "form", "band-aids", "oil", "book", "remote_control", "glass", "plate", "towel",
           "cellphone", "keys", "wallet", "apple", "bananas", "dishbowl", "wineglass")
#: Surfaces movables are put on (PUTBACK targets).
SURFACES = ("table", "desk", "kitchen_counter", "bathroom_counter", "nightstand", "bed",
            "couch", "sofa", "coffee_table", "tvstand", "bench", "kitchen_table")

CHARACTER_ID = 65


_ATOMIC = {"switch_on": "SWITCHON", "switch_off": "SWITCHOFF", "open": "OPEN", "close": "CLOSE",
           "grab": "GRAB"}
class NonStationaryHouse:
    """The ExRAP environment over one VirtualHome scene (see module docstring).

    Args:
        scene: a scene dict ``{"nodes": [...], "edges": [...]}``, a ``SceneGraph``
            (anything with ``to_dict()``), or a scene name for
            :func:`actionable.worlds.virtualhome.scene.load_scene` (``None`` = default house).
        config: :class:`DynamicsConfig`.

    Raises:
        SceneError: the scene lacks rooms, the character or dynamic objects.
    """

    def __init__(self, scene=None, config: DynamicsConfig | None = None):
        self.config = config or DynamicsConfig()
        if isinstance(scene, dict):
            graph_dict = scene
        elif hasattr(scene, "to_dict"):
            graph_dict = scene.to_dict()
        else:
            from actionable.worlds.virtualhome.scene import load_scene
            graph_dict = load_scene(scene).to_dict()
        self._init_dict = copy.deepcopy(graph_dict)
        self._index_scene(graph_dict)
        self.focus: set[int] = set()
        self._state = None
        self.t = 0
        self.seed = 0

    # ------------------------------------------------------------------ scene index
    def _index_scene(self, g: dict) -> None:
        try:
            nodes = {int(n["id"]): n for n in g["nodes"]}
            edges = g["edges"]
        except (KeyError, TypeError, ValueError) as exc:
            raise SceneError(f"scene dict needs 'nodes' with ids and 'edges' ({exc})") from None
        self.class_of = {i: n["class_name"] for i, n in nodes.items()}
        self.rooms = {i: n["class_name"] for i, n in nodes.items() if n.get("category") == "Rooms"}
        if not self.rooms or CHARACTER_ID not in nodes:
            raise SceneError("scene has no rooms or no character node 65; use a VirtualHome "
                             "scene such as load_scene(None)")
        room_of = {e["from_id"]: e["to_id"] for e in edges
                   if e["relation_type"] == "INSIDE" and e["to_id"] in self.rooms}
        self.static_room = room_of

        def pick(classes, prop=None):
            return sorted(i for i, n in nodes.items() if n["class_name"] in classes
                          and i in room_of and (prop is None or prop in n.get("properties", [])))

        self.switchables = pick(SWITCHABLE, "HAS_SWITCH")
        self.openables = pick(OPENABLE, "CAN_OPEN")
        self.movables = pick(MOVABLE, "GRABBABLE")
        self.surfaces = pick(SURFACES, "SURFACES")
        if not (self.switchables and self.openables and self.movables and self.surfaces):
            raise SceneError("scene lacks switchable, openable, movable objects or surfaces; "
                             "use a furnished VirtualHome house")
        self.dynamic = sorted(set(self.switchables) | set(self.openables) | set(self.movables))
        # Room adjacency from doors (BETWEEN edges): a networkx graph of rooms.
        import networkx as nx
        rg = nx.Graph()
        rg.add_nodes_from(self.rooms)
        between: dict[int, list[int]] = {}
        for e in edges:
            if e["relation_type"] == "BETWEEN" and e["to_id"] in self.rooms:
                between.setdefault(e["from_id"], []).append(e["to_id"])
        for rs in between.values():
            for a in rs:
                for b in rs:
                    if a != b:
                        rg.add_edge(a, b)
        if not nx.is_connected(rg):  # no door information: treat the house as fully connected
            rg = nx.complete_graph(list(self.rooms))
        self.room_hops = dict(nx.all_pairs_shortest_path_length(rg))
        counts: dict[tuple[int, str], int] = {}
        for i in self.dynamic + self.surfaces:
            key = (room_of[i], self.class_of[i])
            counts[key] = counts.get(key, 0) + 1
        self._ambiguous = {k for k, c in counts.items() if c > 1}

    def entity(self, node_id: int) -> str:
        """TEKG entity label ``<class>_<id>`` (rooms: the class name)."""
        if node_id in self.rooms:
            return self.rooms[node_id]
        return f"{self.class_of[node_id]}_{node_id}"

    def describe(self, node_id: int) -> str:
        """Human name for prompts and instruction text: ``dining_room television``."""
        if node_id in self.rooms:
            return self.rooms[node_id]
        room = self.static_room.get(node_id)
        name = self.class_of[node_id]
        if node_id in self.movables or room is None:
            return name
        base = f"{self.rooms[room]} {name}"
        return f"{base} {node_id}" if (room, name) in self._ambiguous else base

    # ------------------------------------------------------------------ simulator
    def reset(self, seed: int = 0, focus: set[int] | None = None) -> Observation:
        """Restore the initial house, seed the dynamics, and return the first observation.

        Args:
            seed: dynamics seed; the same seed replays the same sequence of changes.
            focus: node ids the instructions mention (biases changes, see ``focus_prob``).
        """
        from virtualhome_eval.simulation.evolving_graph import utils
        from virtualhome_eval.simulation.evolving_graph.environment import (
            EnvironmentGraph, EnvironmentState)
        from virtualhome_eval.simulation.evolving_graph.execution import ScriptExecutor

        graph = EnvironmentGraph(copy.deepcopy(self._init_dict))
        ne = utils.load_name_equivalence()
        self._state = EnvironmentState(graph, ne, instance_selection=True)
        self._executor = ScriptExecutor(graph, ne)
        self.seed = int(seed)
        self.t = 0
        self.focus = {f for f in (focus or set()) if f in set(self.dynamic)}
        return self.observe()

    def _need_reset(self):
        if self._state is None:
            raise SimulatorError("NonStationaryHouse.step/observe called before reset(); call "
                                 "house.reset(seed=...) first")

    def _run_atomic(self, line: str) -> str | None:
        from virtualhome_eval.simulation.evolving_graph.scripts import Script, parse_script_line
        self._executor.info.messages = []
        ok, state = self._executor.execute_one_step(Script([parse_script_line(line, 0)]),
                                                    self._state, in_place=True)
        self._state = state
        return None if ok else (self._executor.info.get_error_string() or f"{line} failed")

    def compile(self, skill: Skill) -> list[str]:
        """VirtualHome script lines of a skill, e.g. ``[WALK] <tv> (248)``.

        Raises:
            SimulatorError: unknown skill kind, wrong arity or unknown node id.
        """
        if skill.kind not in SKILL_KINDS:
            raise SimulatorError(f"unknown skill kind {skill.kind!r}; use one of {SKILL_KINDS}")
        need = {"wait": 0, "put_on": 2, "put_in": 2, "move_onto": 2}.get(skill.kind, 1)
        if len(skill.args) != need:
            raise SimulatorError(f"skill {skill.kind} takes {need} node id(s), got {skill.args}")
        for a in skill.args:
            if a not in self.class_of:
                raise SimulatorError(f"skill {skill.kind} names node {a}, absent from the scene")

        def ref(i: int) -> str:
            return f"<{self.class_of[i]}> ({i})"

        k, a = skill.kind, skill.args
        if k == "wait":
            return []
        if k == "go":
            return [f"[WALK] {ref(a[0])}"]
        if k in _ATOMIC:
            return [f"[WALK] {ref(a[0])}", f"[{_ATOMIC[k]}] {ref(a[0])}"]
        if k in ("put_on", "put_in"):
            act = "PUTBACK" if k == "put_on" else "PUTIN"
            return [f"[WALK] {ref(a[1])}", f"[{act}] {ref(a[0])} {ref(a[1])}"]
        return [f"[WALK] {ref(a[0])}", f"[GRAB] {ref(a[0])}", f"[WALK] {ref(a[1])}",
                f"[PUTBACK] {ref(a[0])} {ref(a[1])}"]

    def step(self, skill: Skill, after_skill=None) -> StepResult:
        """Execute one skill, advance time, apply scheduled changes, observe.

        Order within a step: the skill's atomic actions run in the simulator
        (stopping at the first failure); ``after_skill()`` is called if given
        (scoring hooks see the agent's effect before the house moves); ``t``
        increases; if ``t`` is a multiple of the period the house changes; the
        agent observes its room.

        Raises:
            SimulatorError: before :meth:`reset`, or a malformed skill (caller bug).
        """
        self._need_reset()
        lines = self.compile(skill)
        error = None
        done = []
        for line in lines:
            error = self._run_atomic(line)
            if error is not None:
                break
            done.append(line)
        if skill.kind in ("put_on", "put_in", "move_onto") and done:
            self._rehome(skill.args[0])
        if after_skill is not None:
            after_skill()
        self.t += 1
        changed = []
        if self.t % self.config.steps_between_changes == 0:
            changed = self._apply_event(self.t // self.config.steps_between_changes)
        return StepResult(self.observe(), error is None, error, done, changed)

    # ------------------------------------------------------------------ dynamics
    def _apply_event(self, k: int) -> list[str]:
        """Apply change event ``k``: draws depend only on (seed, k)."""
        rng = np.random.default_rng([self.seed, k, 7919])
        focus = sorted(self.focus)
        changed = []
        for _ in range(self.config.changes_per_event):
            use_focus = focus and rng.random() < self.config.focus_prob
            pool = focus if use_focus else self.dynamic
            node = int(pool[int(rng.integers(len(pool)))])
            coin = bool(rng.random() < 0.5)
            dest = int(self.surfaces[int(rng.integers(len(self.surfaces)))])
            before = self._fact(node)
            msg = self._set_fact(node, coin, dest)
            if msg:
                changed.append((node, before, self._fact(node), msg))
        return net_changes(changed)  # one line per object: "X became off; X became on" is no change

    def _fact(self, node: int):
        """The one dynamic fact of ``node`` that :meth:`_set_fact` changes (placement or states)."""
        return self.placement(node) if node in self.movables else frozenset(self.states_of(node))

    def _set_fact(self, node: int, coin: bool, dest: int) -> str | None:
        from virtualhome_eval.simulation.evolving_graph.environment import State
        st = self._state
        if node in self.movables:
            if self.holder_of(node) is not None or self.placement(node) == ("on", dest):
                return None
            self._relocate(node, dest)
            return f"{self.entity(node)} moved onto {self.entity(dest)}"
        if node in self.switchables:
            new, old = (State.ON, State.OFF) if coin else (State.OFF, State.ON)
        else:
            new, old = (State.OPEN, State.CLOSED) if coin else (State.CLOSED, State.OPEN)
        cur = st.get_node(node)
        if new in cur.states:
            return None
        n2 = cur.copy()
        n2.states = set(n2.states) - {old} | {new}
        st.change_node(n2)
        return f"{self.entity(node)} became {new.name.lower()}"

    def _relocate(self, node: int, dest: int) -> None:
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        st = self._state
        me, to = st.get_node(node), st.get_node(dest)
        for rel in (Relation.ON, Relation.INSIDE, Relation.CLOSE, Relation.FACING):
            for other in list(st.get_node_ids_from(node, rel)):
                st.delete_edge(me, rel, st.get_node(other))
                if rel == Relation.CLOSE:
                    st.delete_edge(st.get_node(other), rel, me)
        room = st.get_node(self.room_of(dest))
        st.add_edge(me, Relation.ON, to)
        st.add_edge(me, Relation.INSIDE, room)
        st.add_edge(me, Relation.CLOSE, to)
        st.add_edge(to, Relation.CLOSE, me)

    def _rehome(self, node: int) -> None:
        """Put a placed object's ``INSIDE`` room edge in the room of what it now stands on / in.

        VirtualHome's GRAB adds ``INSIDE <room of the grab>`` and PUTBACK / PUTIN add only ``ON`` /
        ``INSIDE`` the destination, so an object carried to another room kept its old room edge
        and :meth:`room_of` (hence the continual truth and the oracle's distances) named the room
        it was taken from (issue 25 item 2)."""
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        if self.holder_of(node) is not None:
            return
        where = self.placement(node)
        if where is None:
            return
        room = self.room_of(where[1])
        st = self._state
        me = st.get_node(node)
        old = [r for r in st.get_node_ids_from(node, Relation.INSIDE) if r in self.rooms]
        if old == [room]:
            return
        for r in old:
            st.delete_edge(me, Relation.INSIDE, st.get_node(r))
        st.add_edge(me, Relation.INSIDE, st.get_node(room))

    # ------------------------------------------------------------------ true state
    def states_of(self, node: int) -> set[str]:
        """Lower-case dynamic states of a node (subset of on/off/open/closed)."""
        self._need_reset()
        return {s.name.lower() for s in self._state.get_node(node).states} & {
            "on", "off", "open", "closed"}

    def room_of(self, node: int) -> int:
        """Current room id of a node (the agent: character 65)."""
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        self._need_reset()
        if node in self.rooms:
            return node
        if node != CHARACTER_ID and self.holder_of(node) is not None:
            return self.room_of(CHARACTER_ID)  # carried: where the agent is (GRAB's room edge is stale)
        rs = [r for r in self._state.get_node_ids_from(node, Relation.INSIDE) if r in self.rooms]
        if rs:
            return rs[0]
        return self.static_room[node]

    def placement(self, node: int) -> tuple[str, int] | None:
        """``("on", surface)`` or ``("inside", container)`` of a movable, else ``None``."""
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        for rel, name in ((Relation.ON, "on"), (Relation.INSIDE, "inside")):
            for o in sorted(self._state.get_node_ids_from(node, rel)):
                if o not in self.rooms:
                    return (name, o)
        return None

    def holder_of(self, node: int) -> int | None:
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        for rel in (Relation.HOLDS_RH, Relation.HOLDS_LH):
            if node in self._state.get_node_ids_from(CHARACTER_ID, rel):
                return CHARACTER_ID
        return None

    def held(self) -> list[int]:
        from virtualhome_eval.simulation.evolving_graph.environment import Relation
        return sorted(set(self._state.get_node_ids_from(CHARACTER_ID, Relation.HOLDS_RH))
                      | set(self._state.get_node_ids_from(CHARACTER_ID, Relation.HOLDS_LH)))

    def facts_about(self, node: int) -> list[tuple[str, str, str]]:
        """True triples of one dynamic object (state, placement, room)."""
        ent = self.entity(node)
        out = [(ent, "is", s) for s in sorted(self.states_of(node))]
        if node in self.movables:
            if self.holder_of(node) is not None:
                out.append((AGENT, "holds", ent))
            else:
                p = self.placement(node)
                if p is not None:
                    out.append((ent, p[0], self.entity(p[1])))
        out.append((ent, "in_room", self.rooms[self.room_of(node)]))
        return out

    def observe(self, full: bool = False) -> Observation:
        """Triples the agent sees: its room's dynamic objects (all rooms if ``full``)."""
        self._need_reset()
        here = self.room_of(CHARACTER_ID)
        facts: list[tuple[str, str, str]] = [(AGENT, "in_room", self.rooms[here])]
        for h in self.held():
            facts.append((AGENT, "holds", self.entity(h)))
        for node in self.dynamic:
            if full or self.room_of(node) == here:
                facts.extend(f for f in self.facts_about(node) if f[1] != "holds")
        return Observation(self.t, self.rooms[here], facts)

    def distance(self, node_a: int, node_b: int) -> int:
        """Room hops between two nodes (0 = same room); the graph distance of Eq. 11."""
        return self.room_hops[self.room_of(node_a)][self.room_of(node_b)]

    def room_id(self, name: str) -> int:
        for i, r in self.rooms.items():
            if r == name:
                return i
        raise SceneError(f"no room named {name!r}; rooms: {sorted(self.rooms.values())}")

    def navigation_skills(self) -> list[Skill]:
        """``go`` to every room: the exploration moves."""
        return [Skill("go", (r,), f"go to the {name.replace('_', ' ')}") for r, name in sorted(self.rooms.items())]
