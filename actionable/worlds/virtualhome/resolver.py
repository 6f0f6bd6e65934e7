"""Instance resolver: bind class-level steps (``grab mug``) to node ids.

A planner (Huang et al. 2022) produces *class-level* admissible actions; the
simulator needs node ids. Taking the first node of a class executes only about
73% of the gold programs stripped to class level, because houses hold several
chairs, lights and cups in different rooms and states. The resolver ranks the
nodes of the named class in the *current* state of the house by, in order:

1. affordance: the node has the property the action needs (GRAB: GRABBABLE,
   SWITCHON: HAS_SWITCH, PUTIN target: CAN_OPEN/CONTAINERS, ...);
2. state: the node is in the state the action changes (SWITCHON an OFF light,
   OPEN a CLOSED cabinet);
3. lookahead: the same for the *later* steps of the program that use the same
   class ("walk to light; switch on light" walks to an OFF light), affordances
   included;
4. hands: held objects first when the action needs one in hand (PUTIN, DRINK,
   DROP...), not-held ones for GRAB;
   (before these: a node the goal names, when the caller gives the goal's instances
   as ``prefer``; ``actionable verify --goal``: "put the milk in the fridge" binds the
   plan's ``milk`` to the milk the goal means, not the one in the trash)
5. memory: the node this program already bound to the same class name, while
   it is held, close, or in the character's room;
6. reachability: for GRAB, not inside a closed container;
7. proximity: close to the character (or held), then in the character's room,
   then elsewhere;
8. the lowest id.

:func:`resolve_and_execute` binds step by step against the evolving simulator
state and, when the best candidate fails a precondition, tries the next ones
(``ResolverConfig.max_alternatives``).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any, Collection, Iterable, Mapping, Sequence

from actionable.worlds.virtualhome.admissible import AFFORDANCE_EXCEPTIONS
from actionable.core.program import Program, Step
from actionable.core.errors import ResolutionError

#: Affordance (any of) required per (action, argument position); from the
#: precondition checks of the evolving-graph executors (execution.py).
REQUIRED_PROPERTIES: dict[tuple[str, int], frozenset[str]] = {
    ("GRAB", 0): frozenset({"GRABBABLE"}), ("OPEN", 0): frozenset({"CAN_OPEN"}),
    ("CLOSE", 0): frozenset({"CAN_OPEN"}), ("SWITCHON", 0): frozenset({"HAS_SWITCH"}),
    ("SWITCHOFF", 0): frozenset({"HAS_SWITCH"}), ("TYPE", 0): frozenset({"HAS_SWITCH"}),
    ("SIT", 0): frozenset({"SITTABLE"}), ("LIE", 0): frozenset({"LIEABLE"}),
    ("READ", 0): frozenset({"READABLE"}), ("DRINK", 0): frozenset({"DRINKABLE", "RECIPIENT"}),
    ("PUTBACK", 0): frozenset({"GRABBABLE"}), ("PUTIN", 0): frozenset({"GRABBABLE"}),
    ("PUTBACK", 1): frozenset({"SURFACES"}), ("PUTIN", 1): frozenset({"CONTAINERS", "CAN_OPEN"}),
    ("POUR", 0): frozenset({"POURABLE", "DRINKABLE"}), ("POUR", 1): frozenset({"RECIPIENT"}),
    ("PLUGIN", 0): frozenset({"HAS_PLUG"}), ("PLUGOUT", 0): frozenset({"HAS_PLUG"}),
    ("WATCH", 0): frozenset({"LOOKABLE"}), ("PUTON", 0): frozenset({"CLOTHES"}),
    ("PUTOFF", 0): frozenset({"CLOTHES"}), ("SQUEEZE", 0): frozenset({"CLOTHES"}),
    ("PUSH", 0): frozenset({"MOVABLE"}), ("PULL", 0): frozenset({"MOVABLE"}),
    ("MOVE", 0): frozenset({"MOVABLE"}), ("EAT", 0): frozenset({"EATABLE"}),
    ("CUT", 0): frozenset({"CUTTABLE", "EATABLE"}), ("GREET", 0): frozenset({"PERSON"}),
}
#: (action, position) whose object must be in the character's hands.
NEEDS_HELD: frozenset[tuple[str, int]] = frozenset({
    ("PUTBACK", 0), ("PUTIN", 0), ("POUR", 0), ("DROP", 0), ("RELEASE", 0), ("DRINK", 0),
    ("READ", 0), ("PUTOBJBACK", 0)})
#: State the object must have (any of) and must not have, per action; the
#: evolving graph checks e.g. ``State.OFF in node.states`` before SWITCHON.
NEEDS_STATE: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "SWITCHON": (frozenset({"OFF"}), frozenset({"PLUGGED_OUT"})),
    "SWITCHOFF": (frozenset({"ON"}), frozenset()),
    "OPEN": (frozenset({"CLOSED"}), frozenset({"ON"})),
    "CLOSE": (frozenset({"OPEN"}), frozenset()),
    "PLUGIN": (frozenset({"PLUGGED_OUT"}), frozenset()),
    "PLUGOUT": (frozenset({"PLUGGED_IN"}), frozenset()),  # ON is reported yet allowed
}
_LOOKAHEAD = 12


@dataclass(frozen=True)
class ResolverConfig:
    """Knobs of the resolver.

    Attributes:
        max_alternatives: candidate bindings tried per step when the best one
            fails a precondition (1 = no retries).
        lookahead: later steps (of the same class) whose needs shape a binding.
        use_memory: prefer the node already bound to the same class name.
    """

    max_alternatives: int = 6
    lookahead: int = _LOOKAHEAD
    use_memory: bool = True


class _View:
    """Uniform queries over a SceneGraph or a simulator StateView."""

    def __init__(self, state: Any):
        self.s = state
        self.char = state.character_id
        self.held = {t for r in ("HOLDS_RH", "HOLDS_LH") for t in state.targets(self.char, r)}
        self.close = set(state.targets(self.char, "CLOSE"))
        self.char_room = state.room_of(self.char)
        self._room: dict[int, int | None] = {}

    def room(self, nid: int) -> int | None:
        if nid not in self._room:
            self._room[nid] = self.s.room_of(nid)
        return self._room[nid]

    def in_closed(self, nid: int) -> bool:
        return any("CLOSED" in self.s.states_of(t) and t != self.room(t)
                   for t in self.s.targets(nid, "INSIDE"))


def as_state(state: Any):
    """Accept a SceneGraph, a simulator StateView, a Simulator or a graph dict."""
    if hasattr(state, "targets") and hasattr(state, "room_of"):
        return state
    if hasattr(state, "observation"):
        return state.observation
    if isinstance(state, dict):
        from actionable.worlds.virtualhome.scene import SceneGraph

        return SceneGraph.from_dict(state)
    raise ResolutionError(f"cannot resolve against a {type(state).__name__}; pass a SceneGraph, "
                          "a StateView, a Simulator or a graph dict")


class Resolver:
    """Binds class-level steps to node ids using the current state (see module doc)."""

    def __init__(self, config: ResolverConfig | None = None):
        self.config = config or ResolverConfig()

    def class_candidates(self, name: str, state: Any) -> list[int]:
        """Node ids of class ``name`` (or a VirtualHome-equivalent class name).

        Raises:
            ResolutionError: no such class; the message suggests close class names.
        """
        ids = state.nodes_of_class(name)
        if ids:
            return ids
        from actionable.worlds.virtualhome.scene import load_name_equivalence

        eq = load_name_equivalence()
        for alt in (*eq.get(name, ()), *(k for k, v in eq.items() if name in v)):
            ids = state.nodes_of_class(alt)
            if ids:
                return ids
        names = state.class_names()
        squash = [c for c in names if c.replace("_", "") == name.replace("_", "")]
        if len(squash) == 1:  # "table lamp" (table_lamp) is the scene's tablelamp
            return state.nodes_of_class(squash[0])
        close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
        hint = f"; did you mean {', '.join(close)}?" if close else "; run 'actionable scenes' to see the scene's objects"
        err = ResolutionError(f"no object of class {name!r} in this scene{hint}")
        err.class_name, err.suggestions = name, close
        raise err

    def rank(self, step: Step, state: Any, memory: dict[str, int] | None = None,
             future: Sequence[Step] = (), prefer: Mapping[str, Collection[int]] | None = None) -> list[Step]:
        """All bindings of ``step`` (ids filled in), best first.

        Args:
            step: a class-level step (ids ignored).
            state: SceneGraph / StateView / Simulator / graph dict.
            memory: class name -> node id bound earlier in the program.
            future: the program's later steps (lookahead on the same classes).
            prefer: class name -> node ids the goal names; ranked first after affordance.

        Raises:
            ResolutionError: a class is absent from the scene.
        """
        st = as_state(state)
        view = _View(st)
        memory = memory or {}
        prefer = prefer or {}
        per_arg: list[list[int]] = []
        for pos, arg in enumerate(step.args):
            cands = self.class_candidates(arg.name, st)
            needs = self._future_needs(arg.name, future)
            wanted = prefer.get(arg.name, ())
            keyed = sorted(cands, key=lambda n: self._key(step.action, pos, n, view, memory.get(arg.name),
                                                          needs, bool(wanted) and n not in wanted))
            per_arg.append(keyed)
        if not per_arg:
            return [step]
        if len(per_arg) == 1:
            return [step.with_ids([a]) for a in per_arg[0]]
        first, second = per_arg
        out = [step.with_ids([a, b]) for a in first[:4] for b in second[:8] if a != b]
        out.sort(key=lambda s: (first.index(s.args[0].id) + second.index(s.args[1].id)))
        return out or [step.with_ids([first[0], second[0]])]

    def resolve_step(self, step: Step, state: Any, memory: dict[str, int] | None = None,
                     future: Sequence[Step] = (), prefer: Mapping[str, Collection[int]] | None = None) -> Step:
        """The best binding of ``step`` in ``state`` (see :meth:`rank`)."""
        return self.rank(step, state, memory, future, prefer)[0]

    def _future_needs(self, name: str, future: Sequence[Step]) -> list[tuple[str, int]]:
        needs = []
        for s in list(future)[: self.config.lookahead]:
            for pos, a in enumerate(s.args):
                if a.name == name:
                    needs.append((s.action, pos))
        return needs

    def _key(self, action: str, pos: int, nid: int, v: _View, remembered: int | None,
             needs: list[tuple[str, int]], unwanted: bool = False) -> tuple:
        props = v.s.properties_of(nid)
        states = v.s.states_of(nid)
        afford = _afford_bad(action, pos, v.s.class_of(nid), props)
        # memory holds while the remembered node is at hand: held, close, or in
        # the character's room (after walking elsewhere, proximity decides again)
        mem = 0 if (self.config.use_memory and remembered == nid and (
            nid in v.held or nid in v.close or v.room(nid) == v.char_room)) else 1
        if (action, pos) in NEEDS_HELD:
            hands = 0 if nid in v.held else 1
        elif action == "GRAB":
            hands = 1 if nid in v.held else 0
        else:
            hands = 0
        state_bad = _state_bad(action, pos, states)
        future_bad = 0
        for fa, fpos in needs:
            future_bad += 2 * _afford_bad(fa, fpos, v.s.class_of(nid), props)
            if fa in NEEDS_STATE and fpos == 0:
                future_bad += _state_bad(fa, fpos, states)
                break  # later steps change the state: only the first state need counts
        blocked = 1 if ((action == "GRAB" or ("GRAB", 0) in needs) and v.in_closed(nid)) else 0
        room = v.room(nid)
        if nid in v.close or nid in v.held:
            prox = 0
        elif room is not None and room == v.char_room:
            prox = 1
        else:
            prox = 2
        return (afford, unwanted, state_bad, future_bad, hands, mem, blocked, prox, nid)


def _afford_bad(action: str, pos: int, class_name: str | None, props: frozenset[str]) -> int:
    req = REQUIRED_PROPERTIES.get((action, pos))
    if req is None or props & req or class_name in AFFORDANCE_EXCEPTIONS.get((action, pos), ()):
        return 0
    return 1


def _state_bad(action: str, pos: int, states: frozenset[str]) -> int:
    want = NEEDS_STATE.get(action) if pos == 0 else None
    if want is None:
        return 0
    return 1 if (not states & want[0] or states & want[1]) else 0


def first_id_resolve(program: Program, scene: Any) -> Program:
    """Baseline: bind every class to its lowest node id (the "first node" rule).

    Raises:
        ResolutionError: a class is absent from the scene.
    """
    st = as_state(_scene_of(scene))
    r = Resolver()
    steps = []
    for s in program.steps:
        steps.append(s.with_ids([r.class_candidates(a.name, st)[0] for a in s.args]) if s.args else s)
    return program.replace_steps(steps)


def _scene_of(scene: Any):
    if scene is None or isinstance(scene, str):
        from actionable.worlds.virtualhome.scene import load_scene

        return load_scene(scene)
    return scene


def resolve_and_execute(program: Program, scene: Any = None, *, resolver: Resolver | None = None,
                        sim=None, prefer: Mapping[str, Collection[int]] | None = None):
    """Resolve a class-level program step by step against the evolving state and
    execute it; steps that already carry ids are kept as they are.

    For each step the ranked bindings (:meth:`Resolver.rank`) are tried in order,
    at most ``config.max_alternatives`` of them; the first that executes is kept.
    When none executes, the run stops there and reports the best binding's
    failure (like :func:`~actionable.worlds.virtualhome.simulator.execute_program`).

    Args:
        program: class-level (or partly resolved) program.
        scene: scene name (``None`` = default), SceneGraph or graph dict.
        resolver: a configured :class:`Resolver`.
        sim: a :class:`~actionable.worlds.virtualhome.simulator.Simulator` to reuse.
        prefer: class name -> node ids the goal names (:meth:`Resolver.rank`).

    Returns:
        ExecutionResult whose ``program`` holds the resolved steps (up to and
        including the failing one).

    Raises:
        ResolutionError: a class named by step ``index`` is absent (the error has
            ``index``, ``class_name`` and ``suggestions`` attributes).
    """
    from actionable.worlds.virtualhome.simulator import ExecutionResult, Simulator

    resolver = resolver or Resolver()
    sim = sim or Simulator()
    sim.reset(options={"scene": _scene_of(scene)})
    memory: dict[str, int] = {}
    done: list[Step] = []
    steps = program.steps
    for i, step in enumerate(steps):
        state = sim._state
        if step.is_resolved:
            options = [step]
        else:
            try:
                options = resolver.rank(step, sim.observation, memory, steps[i + 1:], prefer)
            except ResolutionError as exc:
                exc.index = i
                raise
            options = options[: max(1, resolver.config.max_alternatives)]
        first_fail = None
        for cand in options:
            ok, new_state, info = sim._run(cand, state)
            if ok:
                sim._state = new_state
                break
            if first_fail is None:
                first_fail = (cand, info)
        sim._t += 1
        if not ok:
            cand, info = first_fail
            done.append(cand)
            return ExecutionResult(False, i, info["error"], info["error_type"], info["unmet_preconditions"],
                                   i, sim.observation, program.replace_steps(done))
        done.append(cand)
        for a in cand.args:
            memory[a.name] = a.id
    return ExecutionResult(True, None, None, None, [], len(steps), sim.observation,
                           program.replace_steps(done))


def resolution_rate(program_ids: Iterable[str], method: str = "ours",
                    resolver: Resolver | None = None) -> tuple[int, int, list[str]]:
    """Executability after resolution of gold programs stripped to class level,
    each in its own scene. ``method``: ``"ours"`` or ``"first_id"``.

    Returns:
        ``(executable, total, failed_ids)``.
    """
    from actionable.worlds.virtualhome.scene import load_program, load_scene
    from actionable.worlds.virtualhome.simulator import Simulator, execute_program

    sim = Simulator()
    ok, total, failed = 0, 0, []
    for pid in program_ids:
        prog = load_program(pid).unresolved()
        scene = load_scene(pid)
        if method == "first_id":
            res = execute_program(first_id_resolve(prog, scene), scene, sim)
        else:
            res = resolve_and_execute(prog, scene, resolver=resolver, sim=sim)
        total += 1
        ok += res.executable
        if not res.executable:
            failed.append(pid)
    return ok, total, failed




def goal_instances(goal: str, scene: Any) -> dict[str, set[int]]:
    """Class name -> node ids that the goal interpreter's rule reading of ``goal`` binds (every
    option of every clause, subject and target; the character and rooms left out); ``{}`` when the
    text reads to no goal or names no object. Used to bind a class-level plan to the instances its
    goal means (:meth:`~actionable.worlds.virtualhome.replay.VirtualHomeReplay.resolve_plan`)."""
    from actionable.core.registry import capability  # the world's goal interpreter, looked up (no import circle)
    from actionable.worlds.virtualhome.scene import load_scene

    graph = load_scene(scene) if scene is None or isinstance(scene, str) else scene
    try:
        reading = capability("virtualhome", "goals")(graph).read(goal)
    except Exception:  # noqa: BLE001 - an unreadable goal leaves the binding to the resolver's own order
        return {}
    if not reading.is_goal:
        return {}
    rooms = set(graph.rooms)
    out: dict[str, set[int]] = {}
    for clause in reading.clauses:
        if clause.source != "rule":
            continue
        for o in clause.options:
            for nid in (o.subject, o.target):
                if isinstance(nid, int) and nid not in rooms and nid in graph:  # (the character is "character")
                    out.setdefault(graph.class_of(nid) or "", set()).add(nid)
    out.pop("", None)
    return out


__all__ = ["Resolver", "ResolverConfig", "goal_instances", "resolve_and_execute", "first_id_resolve",
           "resolution_rate", "REQUIRED_PROPERTIES", "NEEDS_HELD", "NEEDS_STATE"]
