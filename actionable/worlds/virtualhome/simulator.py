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
    """

    def __init__(self, max_steps: int | None = None, cache_dir=None, check_names: bool = True):
        if max_steps is not None and max_steps < 1:
            raise SimulatorError(f"max_steps must be >= 1 or None, got {max_steps}")
        self.max_steps = max_steps
        self.cache_dir = cache_dir
        self.check_names = check_names
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
        self._state = environment.EnvironmentState(self._env_graph, {}, instance_selection=True)
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
