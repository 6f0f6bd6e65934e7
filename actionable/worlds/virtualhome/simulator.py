"""Gymnasium-style wrapper over VirtualHome's symbolic "evolving graph" simulator.

The executor is ``virtualhome_eval.simulation.evolving_graph`` (PyPI
``virtualhome-eval``): an :class:`EnvironmentState` overlay on an immutable
:class:`EnvironmentGraph`, advanced one script line at a time by
``ScriptExecutor.execute_one_step``. This wrapper

* keeps the ``EnvironmentState`` object between steps (rebuilding it from
  ``to_dict()`` loses grab bookkeeping and is about 10x slower);
* gives every step a fresh ``ExecutionInfo(eval_mode=True)``, so a failed step
  reports its ``error_type`` and ``missing_preconds`` (and messages do not pile up);
* checks node ids against the current state first: the raw executor raises
  ``AttributeError``/``TypeError`` on unknown ids, here they raise
  :class:`~actionable.core.errors.UnknownNodeError`;
* runs ``LOOKAT_SHORT``/``LOOKAT_LONG`` with the ``LOOKAT`` executor (the raw
  simulator has no executor for them and raises ``TypeError``).

Executability (Huang et al. 2022, Sec. 4: a plan is executable when every step
satisfies the simulator's preconditions) is what :func:`execute_program` reports.
The simulator is permissive, so executability is not task success.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actionable.core.program import Program, Step, parse_step
from actionable.worlds.virtualhome.scene import SceneGraph, load_graphs, load_scene
from actionable.core.errors import SceneError, SimulatorError, UnknownNodeError

#: ``ExecutionInfo.error_type`` codes of the evolving graph, by name.
ERROR_TYPES: dict[int, str] = {0: "time", 1: "missing", 2: "afford", 3: "unseen",
                               4: "satisfied", 5: "other", -1: "unknown"}
#: Actions the raw simulator lacks an executor for, run with a stand-in.
_ACTION_ALIASES = {"LOOKAT_SHORT": "LOOKAT", "LOOKAT_LONG": "LOOKAT"}
_HOLDS = ("HOLDS_RH", "HOLDS_LH")


def _vh():
    """The evolving-graph modules (imported lazily: they are slow to import)."""
    from virtualhome_eval.simulation.evolving_graph import environment, execution, scripts

    return environment, execution, scripts


_FAST_STATE: list = []


def fast_state_class():
    """``EnvironmentState`` with a cheaper step, reaching the same states (issue 26, "long plans").

    The evolving graph's ``change_state`` deep-copies the state's whole overlay on the scene graph
    (changed nodes with their bounding boxes, added and removed edge sets, grab bookkeeping) at
    every step, and a walk deletes the agent's INSIDE/CLOSE/FACING edges by trying every node of
    the house in both directions (about 1,800 ``delete_edge`` calls). Together a step cost 10-20 ms
    on a long plan. Here:

    * **copy-on-write overlays**: a new state shares the node map, the edge sets and the grab
      bookkeeping of the state it came from; an edge set is copied the first time this state
      changes it (``add_edge``/``delete_edge``; the executor never changes a node object in place:
      it ``copy()``-s a node before changing its states, and ``ChangeNode`` replaces it);
    * ``get_nodes_from``/``get_node_ids_from`` return a fresh set (the original adds the graph's
      edges into the state's own set as it reads; the value returned is the same);
    * ``DeleteEdges(..., AnyNode())``: only the nodes that have such an edge, in the graph or in the
      overlay, are tried (deleting an edge that exists nowhere does nothing; deletions commute).

    tests/verify/test_incremental.py replays every packaged program both ways and compares the
    graphs and each step's verdict."""
    if _FAST_STATE:
        return _FAST_STATE[0]
    environment = _vh()[0]
    base = environment.EnvironmentState
    DeleteEdges, AnyNode = environment.DeleteEdges, environment.AnyNode
    reverse_index: dict = {}  # id(graph) -> (graph, {(to_id, relation): {from_id}})

    def _rev(graph):
        hit = reverse_index.get(id(graph))
        if hit is None or hit[0] is not graph:
            rev: dict = {}
            for (frm, rel), targets in graph._edge_map.items():
                for to in targets:
                    rev.setdefault((to, rel), set()).add(frm)
            hit = reverse_index[id(graph)] = (graph, rev)
        return hit[1]

    class FastEnvironmentState(base):
        def __init__(self, graph, name_equivalence, instance_selection: bool = False):
            super().__init__(graph, name_equivalence, instance_selection)
            self._own_new: set = set()      # keys of _new_edges_from whose sets this state owns
            self._own_removed: set = set()  # same for _removed_edges_from

        def _owned(self, table: dict, own: set, key):
            if key not in own:
                table[key] = set(table[key])
                own.add(key)
            return table[key]

        def add_edge(self, from_node, relation, to_node):
            key = (from_node.id, relation)
            if key in self._removed_edges_from and to_node.id in self._removed_edges_from[key]:
                self._owned(self._removed_edges_from, self._own_removed, key).remove(to_node.id)
                return
            if not self._graph.has_edge(from_node, relation, to_node):
                if key not in self._new_edges_from:
                    self._new_edges_from[key] = set()
                    self._own_new.add(key)
                self._owned(self._new_edges_from, self._own_new, key).add(to_node.id)

        def delete_edge(self, from_node, relation, to_node):
            key = (from_node.id, relation)
            if self._graph.has_edge(from_node, relation, to_node):
                if key not in self._removed_edges_from:
                    self._removed_edges_from[key] = set()
                    self._own_removed.add(key)
                if to_node.id not in self._removed_edges_from[key]:
                    self._owned(self._removed_edges_from, self._own_removed, key).add(to_node.id)
            elif key in self._new_edges_from and to_node.id in self._new_edges_from[key]:
                self._owned(self._new_edges_from, self._own_new, key).discard(to_node.id)

        def get_node_ids_from(self, from_id, relation):
            key = (from_id, relation)
            ids = set(self._new_edges_from.get(key, ()))
            ids.update(self._graph.get_node_ids_from(from_id, relation))
            ids.difference_update(self._removed_edges_from.get(key, ()))
            return ids

        def get_nodes_from(self, from_node, relation):
            return [self.get_node(i) for i in self.get_node_ids_from(from_node.id, relation)]

        def change_state(self, changers, node=None, obj=None, in_place=False):
            new_state = FastEnvironmentState(self._graph, self._name_equivalence, self.instance_selection)
            if in_place:
                new_state._new_nodes = self._new_nodes
                new_state._removed_edges_from = self._removed_edges_from
                new_state._new_edges_from = self._new_edges_from
                new_state._script_objects = self._script_objects
                new_state.executor_data = self.executor_data
                new_state._own_new, new_state._own_removed = self._own_new, self._own_removed
            else:
                new_state._new_nodes = dict(self._new_nodes)
                new_state._removed_edges_from = dict(self._removed_edges_from)
                new_state._new_edges_from = dict(self._new_edges_from)
                new_state._script_objects = dict(self._script_objects)
                new_state.executor_data = dict(self.executor_data)
                self._own_new, self._own_removed = set(), set()  # the sets are shared from now on
            if obj is not None and node is not None:
                new_state._script_objects[(obj.name, obj.instance)] = node.id
            new_state.apply_changes(changers)
            return new_state

        def apply_changes(self, changers):
            for changer in changers:
                if type(changer) is DeleteEdges and type(changer.to_node) is AnyNode:
                    self._delete_any(changer)
                else:
                    changer.apply_changes(self)

        def _delete_any(self, changer):
            """``DeleteEdges(from, relations, AnyNode())`` trying only nodes with such an edge."""
            rev = _rev(self._graph) if changer.delete_reverse else None
            for n1 in list(changer.from_node.enumerate(self)):
                for e in changer.relations:
                    key = (n1.id, e)
                    fwd = set(self._graph.get_node_ids_from(n1.id, e)) | set(self._new_edges_from.get(key, ()))
                    for i in sorted(fwd):
                        self.delete_edge(n1, e, self.get_node(i))
                    if rev is None:
                        continue
                    back = set(rev.get((n1.id, e), ()))
                    back.update(k[0] for k, ids in self._new_edges_from.items() if k[1] == e and n1.id in ids)
                    for i in sorted(back):
                        self.delete_edge(self.get_node(i), e, n1)

    _FAST_STATE.append(FastEnvironmentState)
    return FastEnvironmentState


class StateView:
    """Read-only snapshot of a simulator state, with the query interface of
    :class:`~actionable.worlds.virtualhome.scene.SceneGraph` (``nodes_of_class``, ``room_of``,
    ``states_of``, ``targets``, ...). Later steps never change a view: the
    simulator advances by copy-on-write, so a view stays valid."""

    __slots__ = ("_state", "_char_id", "_R")

    def __init__(self, state: Any, char_id: int, relation_enum: Any = None):
        self._state = state
        self._char_id = char_id
        self._R = relation_enum if relation_enum is not None else _vh()[0].Relation

    @property
    def token(self) -> Any:
        """The state this view reads (:attr:`Simulator.state_token`)."""
        return self._state

    @property
    def character_id(self) -> int:
        return self._char_id

    def __contains__(self, node_id: object) -> bool:
        return isinstance(node_id, int) and self._state.get_node(node_id) is not None

    def class_of(self, node_id: int) -> str | None:
        n = self._state.get_node(node_id)
        return None if n is None else n.class_name

    def states_of(self, node_id: int) -> frozenset[str]:
        n = self._state.get_node(node_id)
        return frozenset() if n is None else frozenset(s.name for s in n.states)

    def properties_of(self, node_id: int) -> frozenset[str]:
        n = self._state.get_node(node_id)
        return frozenset() if n is None else frozenset(p.name for p in n.properties)

    def nodes_of_class(self, name: str) -> list[int]:
        """Ids (ascending) of nodes of class ``name``."""
        return sorted(n.id for n in self._state.get_nodes_by_attr("class_name", name))

    def class_names(self) -> list[str]:
        return sorted({n.class_name for n in self._state.get_nodes()})

    def targets(self, node_id: int, relation: str) -> list[int]:
        """Ids ``t`` with an edge ``node_id --relation--> t`` in this state."""
        return sorted(self._state.get_node_ids_from(node_id, self._R[relation]))

    def sources(self, node_id: int, relation: str) -> list[int]:
        """Ids ``s`` (ascending) with an edge ``s --relation--> node_id`` in this state (a scan of
        every node: for repairs, not for inner loops)."""
        r = self._R[relation]
        return sorted(n.id for n in self._state.get_nodes() if node_id in self._state.get_node_ids_from(n.id, r))

    def room_of(self, node_id: int) -> int | None:
        """Room holding ``node_id`` via INSIDE edges (transitively); ``None`` if none."""
        seen: set[int] = set()
        frontier = [node_id]
        while frontier:
            nid = frontier.pop(0)
            n = self._state.get_node(nid)
            if n is None or nid in seen:
                continue
            if n.category == "Rooms":
                return nid
            seen.add(nid)
            frontier.extend(sorted(self._state.get_node_ids_from(nid, self._R.INSIDE)))
        return None

    def held(self) -> list[int]:
        """Ids the character holds (right hand first)."""
        return [t for r in _HOLDS for t in self.targets(self._char_id, r)]

    def close_to_character(self) -> list[int]:
        """Ids with a CLOSE edge from the character."""
        return self.targets(self._char_id, "CLOSE")

    def character_room(self) -> int | None:
        return self.room_of(self._char_id)

    def to_dict(self) -> dict:
        """The state as a VirtualHome graph dict (a few ms for the 288-node house)."""
        return self._state.to_dict()


def state_diff(state: Any) -> tuple[tuple, tuple]:
    """Canonical ``(changed nodes, changed edges)`` of an ``EnvironmentState``
    against its base ``EnvironmentGraph``: ``((id, sorted states), ...)`` and
    ``((from_id, relation, sorted targets), ...)``, both sorted."""
    base = state._graph
    nodes = []
    for nid, n in state._new_nodes.items():
        b = base.get_node(nid)
        st = tuple(sorted(s.name for s in n.states))
        if b is None or st != tuple(sorted(s.name for s in b.states)):
            nodes.append((nid, st))
    edges = []
    for key in set(state._new_edges_from) | set(state._removed_edges_from):
        frm, rel = key
        was = set(base.get_node_ids_from(frm, rel))
        now = (was | state._new_edges_from.get(key, set())) - state._removed_edges_from.get(key, set())
        if now != was:
            edges.append((frm, rel.name, tuple(sorted(now))))
    return tuple(sorted(nodes)), tuple(sorted(edges))


def same_state(a: Any, b: Any) -> bool:
    """Whether two evolving-graph states of one scene graph are the same world state (nodes'
    class, states and properties, edges, grab bookkeeping), whatever overlay records produced
    them; equal to ``state_signature(a) == state_signature(b)``. Overlay entries that the two
    share (copy-on-write states descending from one state, :func:`fast_state_class`) are equal
    by identity, so comparing two states of related trajectories costs about one dict lookup per
    overlay entry."""
    if a is b:
        return True
    g = a._graph
    if b._graph is not g:
        return state_signature(a) == state_signature(b)
    an, bn = a._new_nodes, b._new_nodes
    if an is not bn:
        for nid in an.keys() | bn.keys():
            x, y = an.get(nid), bn.get(nid)
            if x is y:
                continue
            x = x if x is not None else g.get_node(nid)
            y = y if y is not None else g.get_node(nid)
            if x is None or y is None or (x.class_name, x.states, x.properties) != (y.class_name, y.states, y.properties):
                return False
    anew, bnew, arem, brem = a._new_edges_from, b._new_edges_from, a._removed_edges_from, b._removed_edges_from
    empty: frozenset = frozenset()
    for k in anew.keys() | bnew.keys() | arem.keys() | brem.keys():
        x1, y1, x2, y2 = anew.get(k), bnew.get(k), arem.get(k), brem.get(k)
        if x1 is y1 and x2 is y2:
            continue
        gids = set(g.get_node_ids_from(k[0], k[1]))
        if ((set(x1 or empty) | gids) - (x2 or empty)) != ((set(y1 or empty) | gids) - (y2 or empty)):
            return False
    ad, bd = a.executor_data, b.executor_data
    if ad is not bd and ad.keys() != bd.keys():
        return False
    if ad is not bd:
        for k in ad:
            x, y = ad[k], bd[k]
            if x is y:
                continue
            if not (isinstance(x, tuple) and isinstance(y, tuple) and len(x) == len(y) == 2
                    and getattr(x[0], "id", x[0]) == getattr(y[0], "id", y[0]) and x[1] == y[1]):
                return False
    return True


def state_signature(state: Any) -> tuple:
    """A hashable canonical form of an evolving-graph ``EnvironmentState``: equal for two states
    exactly when their nodes (class, states, properties), edges and grab bookkeeping are equal,
    whatever overlay records produced them (an edge added and deleted again leaves no trace).

    Cost: linear in the state's overlay on the scene graph (what the plan changed so far)."""
    g = state._graph
    nodes = []
    for nid, node in state._new_nodes.items():
        key = (node.class_name, frozenset(node.states), frozenset(node.properties))
        base = g.get_node(nid)
        if base is None or key != (base.class_name, frozenset(base.states), frozenset(base.properties)):
            nodes.append((nid, key))
    edges = []
    new, removed = state._new_edges_from, state._removed_edges_from
    for k in new.keys() | removed.keys():
        gids = set(g.get_node_ids_from(k[0], k[1]))
        eff = (set(new.get(k, ())) | gids) - removed.get(k, set())
        plus, minus = eff - gids, gids - eff
        if plus or minus:
            edges.append((k[0], k[1].name, frozenset(plus), frozenset(minus)))
    data = []
    for k, v in state.executor_data.items():
        dest, rel = v if isinstance(v, tuple) and len(v) == 2 else (v, None)
        data.append((str(k), getattr(dest, "id", dest), str(rel)))
    return frozenset(nodes), frozenset(edges), frozenset(data)


@dataclass(frozen=True)
class ExecutionResult:
    """Outcome of running a program (executability, Huang et al. 2022 Sec. 4).

    Attributes:
        executable: every step ran (preconditions satisfied).
        failed_index: 0-based index of the first failing step, ``None`` if none.
        error: the simulator's message for that step.
        error_type: ``time|missing|afford|unseen|satisfied|other|unknown``.
        unmet_preconditions: readable failed preconditions, e.g.
            ``"character(65) CLOSE mug(1001)"`` or ``"NOT character(65) SITTING"``.
        steps_executed: number of steps that ran.
        final_state: :class:`StateView` after the last executed step.
        program: the program that ran (resolved, with node ids).
    """

    executable: bool
    failed_index: int | None
    error: str | None
    error_type: str | None
    unmet_preconditions: list[str]
    steps_executed: int
    final_state: StateView = field(repr=False, compare=False)
    program: Program | None = field(default=None, repr=False, compare=False)

    @property
    def final_graph(self) -> dict:
        """Final state as a graph dict (computed on access)."""
        return self.final_state.to_dict()

    def to_dict(self) -> dict:
        """JSON-ready summary (without the graph)."""
        return {"executable": self.executable, "failed_index": self.failed_index,
                "error": self.error, "error_type": self.error_type,
                "unmet_preconditions": list(self.unmet_preconditions),
                "steps_executed": self.steps_executed,
                "program": None if self.program is None else self.program.to_dict()}


class Simulator:
    """Gymnasium-style episode interface over the evolving graph.

    ``reset`` -> ``(obs, info)``; ``step`` -> ``(obs, reward, terminated,
    truncated, info)``. ``obs`` is a :class:`StateView`. ``reward`` is 0.0 (the
    house defines no reward; goal checks live in evaluation), ``terminated`` is
    False, ``truncated`` is True once ``max_steps`` steps were attempted.

    Args:
        max_steps: truncation limit per episode (``None``: unlimited).
        cache_dir: cache folder for the merged default scene.
        check_names: a step whose class name disagrees with its node's class
            (``[WALK] <kitchen> (1)`` where node 1 is the bathroom) fails with
            ``error_type="unseen"`` instead of silently acting on node 1 (the raw
            simulator ignores class names). Names equivalent under VirtualHome's
            ``class_name_equivalence.json`` are accepted.
        fast_copy: step with :func:`fast_state_class` (same states, a cheaper copy of the
            state at each step); False: the evolving graph's own deep copy.
    """

    def __init__(self, max_steps: int | None = None, cache_dir=None, check_names: bool = True,
                 fast_copy: bool = True):
        if max_steps is not None and max_steps < 1:
            raise SimulatorError(f"max_steps must be >= 1 or None, got {max_steps}")
        self.max_steps = max_steps
        self.cache_dir = cache_dir
        self.check_names = check_names
        self.fast_copy = fast_copy
        self._equiv = None
        self._state = None
        self._scene: SceneGraph | None = None
        self._scene_named = False
        self._env_graph = None
        self._executor = None
        self._mods = None
        self._char_id = -1
        self._t = 0
        self.seed: int | None = None

    # --- episode ---
    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[StateView, dict]:
        """Start an episode.

        Args:
            seed: recorded for bookkeeping (the simulator is deterministic).
            options: ``{"scene": name | SceneGraph | graph dict}`` or
                ``{"program": program_id}`` (that program's initial graph).
                Default: the merged default scene.

        Returns:
            ``(obs, info)`` with ``info = {"scene": name, "step_index": 0}``.

        Raises:
            SceneError: unknown scene name or malformed graph.
            SimulatorError: unknown option keys.
        """
        self._mods = _vh()
        environment, execution, _ = self._mods
        opts = dict(options or {})
        unknown = set(opts) - {"scene", "program"}
        if unknown:
            raise SimulatorError(f"unknown reset option(s) {sorted(unknown)}; use 'scene' or 'program'")
        scene = self._scene_from(opts)
        src = opts.get("program", opts.get("scene"))
        named = src is None or isinstance(src, str)
        try:
            char_id = scene.character_id
        except SceneError as exc:
            raise SceneError(f"{exc}; the simulator needs a character node") from None
        if self._scene is not scene:
            # the executor never mutates its EnvironmentGraph (copy-on-write states),
            # so one graph per SceneGraph object is shared by all simulators
            env_graph = scene.derived.get("env_graph")
            if env_graph is None:
                env_graph = scene.derived["env_graph"] = environment.EnvironmentGraph(scene.to_dict())
            self._env_graph = env_graph
        self._scene = scene
        self._scene_named = named
        self._char_id = char_id
        self._executor = execution.ScriptExecutor(self._env_graph, {})
        state_cls = fast_state_class() if self.fast_copy else environment.EnvironmentState
        self._state = state_cls(self._env_graph, {}, instance_selection=True)
        self._t = 0
        self.seed = seed
        return self.observation, {"scene": scene.name, "step_index": 0}

    def _scene_from(self, opts: dict) -> SceneGraph:
        s = opts.get("program", opts.get("scene"))
        if self._scene is not None and (s is None or isinstance(s, str)):
            want = "default" if s is None or not s.strip() else s.strip()
            if want == self._scene.name and self._scene_named:
                return self._scene  # packaged scenes are immutable: reuse the parsed graph
        if "program" in opts:
            pid = opts["program"]
            return SceneGraph.from_dict(load_graphs(pid)[0], name=str(pid))
        if isinstance(s, SceneGraph):
            return s
        if isinstance(s, dict):
            return SceneGraph.from_dict(s, name="custom")
        if s is None or isinstance(s, str):
            return load_scene(s, cache_dir=self.cache_dir)
        raise SceneError(f"scene must be a name, SceneGraph or graph dict, got {type(s).__name__}")

    def step(self, step: Step | str) -> tuple[StateView, float, bool, bool, dict]:
        """Execute one resolved step (``[GRAB] <mug> (1001)``).

        Plan-level failures do not raise: ``info["executed"]`` is False, the state
        is unchanged, and ``info`` names the error and unmet preconditions.

        Returns:
            ``(obs, 0.0, False, truncated, info)`` with ``info = {"executed",
            "error", "error_type", "unmet_preconditions", "step_index"}``.

        Raises:
            SimulatorError: step before :meth:`reset`, or a step without node ids.
            UnknownNodeError: a node id absent from the current state.
            ProgramParseError: ``step`` is text that does not parse.
        """
        state = self._state
        if state is None:
            raise SimulatorError("step() called before reset(); call sim.reset(options={'scene': ...}) first")
        if isinstance(step, str):
            step = parse_step(step)
        ok, new_state, info = self._run(step, state)
        if ok:
            self._state = new_state
        self._t += 1
        truncated = self.max_steps is not None and self._t >= self.max_steps
        return StateView(self._state, self._char_id, self._mods[0].Relation), 0.0, False, truncated, info

    def _run(self, step: Step, state) -> tuple[bool, Any, dict]:
        _, execution, scripts = self._mods
        params = []
        for a in step.args:
            if a.id is None:
                raise SimulatorError(f"step '{step.to_text()}' has no node id for <{a.name}>; "
                                     "resolve class names to ids with actionable.worlds.virtualhome.resolver.Resolver")
            node = state.get_node(a.id)
            if node is None:
                raise UnknownNodeError(f"node id {a.id} (<{a.name}>) is not in scene "
                                       f"{self._scene.name!r}; pick an id listed by the scene graph")
            if self.check_names and node.class_name != a.name and not self._equivalent(a.name, node.class_name):
                return False, state, {
                    "executed": False, "error_type": "unseen", "unmet_preconditions": [],
                    "error": f"node {a.id} is <{node.class_name}>, not <{a.name}>, "
                             f"when executing \"{step.to_script()}\"", "step_index": self._t}
            params.append(scripts.ScriptObject(a.name, a.id))
        action = scripts.Action[_ACTION_ALIASES.get(step.action, step.action)]
        script = scripts.Script([scripts.ScriptLine(action, params, self._t)])
        xinfo = execution.ExecutionInfo(eval_mode=True)
        self._executor.info = xinfo
        try:
            ok, new_state = self._executor.execute_one_step(script, state)
        except Exception as exc:  # noqa: BLE001 - the raw executor asserts on odd states
            ok, new_state = False, state
            xinfo.messages.append(f"simulator raised {type(exc).__name__}: {exc}")
            xinfo.assign_error_type("other")
        if ok:
            return True, new_state, {"executed": True, "error": None, "error_type": None,
                                     "unmet_preconditions": [], "step_index": self._t}
        err = xinfo.get_error_string() or f"'{step.to_script()}' is not executable here"
        return False, state, {
            "executed": False, "error": err,
            "error_type": ERROR_TYPES.get(xinfo.error_type, "unknown") if xinfo.error_type is not None else "unknown",
            "unmet_preconditions": [self._fmt_precond(neg, p) for neg, p in xinfo.missing_preconds],
            "unmet_raw": [(bool(neg), dict(p)) for neg, p in xinfo.missing_preconds],
            "step_index": self._t}

    def _equivalent(self, name: str, class_name: str) -> bool:
        if self._equiv is None:
            from actionable.worlds.virtualhome.scene import load_name_equivalence

            self._equiv = load_name_equivalence()
        return class_name in self._equiv.get(name, ()) or name in self._equiv.get(class_name, ())

    def _fmt_precond(self, negate: bool, p: dict) -> str:
        def name(i: int) -> str:
            if i == -1:
                return "any"
            n = self._state.get_node(i)
            return f"{n.class_name}({i})" if n is not None else f"node({i})"

        if "state" in p:
            s = f"{name(p['id'])} {p['state']}"
        else:
            s = f"{name(p['from_id'])} {p['relation']} {name(p['to_id'])}"
        return ("NOT " + s) if negate else s

    # --- state tokens (incremental replay) ---
    @property
    def state_token(self) -> Any:
        """The current state, as an opaque token (copy-on-write: later steps never change it)."""
        self._require()
        return self._state

    def restore(self, token: Any, step_index: int | None = None) -> None:
        """Set the current state to a token of :attr:`state_token` taken in this episode's scene;
        ``step_index``: the step counter to go on from (it numbers the steps in error messages,
        and changes nothing else), default kept."""
        self._require()
        self._state = token
        if step_index is not None:
            self._t = step_index

    # --- accessors ---
    @property
    def graph(self) -> dict:
        """Current state as a VirtualHome graph dict."""
        self._require()
        return self._state.to_dict()

    @property
    def scene(self) -> SceneGraph:
        """Current state as a validated :class:`SceneGraph`."""
        self._require()
        return SceneGraph.from_dict(self._state.to_dict(), name=self._scene.name)

    @property
    def observation(self) -> StateView:
        self._require()
        return StateView(self._state, self._char_id, self._mods[0].Relation)

    @property
    def step_index(self) -> int:
        return self._t

    def _require(self) -> None:
        if self._state is None:
            raise SimulatorError("the simulator has no episode; call reset() first")


def execute_program(program: Program, scene: SceneGraph | str | dict | None = None,
                    sim: Simulator | None = None) -> ExecutionResult:
    """Run a resolved program from the scene's initial state; stop at the first
    failing step (executability, Huang et al. 2022 Sec. 4).

    Args:
        program: steps with node ids.
        scene: a scene name (``None``/``"default"``, a program id), a SceneGraph or
            a graph dict.
        sim: a simulator to reuse (its base graph is cached between calls on the
            same SceneGraph object).

    Raises:
        SimulatorError: a step lacks node ids. UnknownNodeError: unknown id.
        SceneError: unknown scene.
    """
    sim = sim or Simulator()
    sim.reset(options={"scene": scene})
    state = sim._state
    for i, step in enumerate(program.steps):
        ok, new_state, info = sim._run(step, state)
        sim._t += 1
        if not ok:
            return ExecutionResult(False, i, info["error"], info["error_type"],
                                   info["unmet_preconditions"], i, sim.observation, program)
        state = new_state
        sim._state = state
    return ExecutionResult(True, None, None, None, [], len(program.steps), sim.observation, program)
