"""Goal conditions over a scene-graph state, and their check: the one goal module of the core.

Goal conditions name node states, relations (edges) and actions that must have been done, on a
state given as a graph dict ``{"nodes": [{id, class_name, states}], "edges": [{from_id,
relation_type, to_id}]}`` (VirtualHome's evolving graph, and the representation of the Embodied
Agent Interface's goal annotations). Worlds with a dataset of annotated goals load them into
:class:`GoalSpec` (VirtualHome: :mod:`actionable.worlds.virtualhome.goals`).

Stable API (used by the evaluation runner, verify and continual):

    check_goals(spec, final_graph, executed_actions, match="id") -> GoalResult
    GoalResult.goal_condition_success (float in [0, 1]), .task_success (bool),
    GoalResult.to_dict() / GoalResult.unmet (list of human-readable unmet goals)

Source of the goals: ``virtualhome_eval/resources/virtualhome/
task_state_LTL_formula_accurate.json`` (Embodied Agent Interface, Li et al.
2024, Sec. 3 "goal interpretation"), key ``vh_goal``:

* ``goal`` holds *state goals* ``{id, class_name, state}`` (the node must have
  the state in the final graph) and *relation goals* ``{from_id,
  relation_type, to_id}`` (the edge must be in the final graph; the
  annotation's ``ON`` is the graph's ``ON`` edge, i.e. "on top of");
* ``actions`` holds *action goals*, each ``"A|B|C"``: at least one executed
  step must use one of the alternatives.

Unlike the EAI evaluator (see FIELD-NOTES), every relation goal is checked
(not only the first), zero-argument actions (SLEEP, STANDUP, WAKEUP) count,
and action names are compared case-insensitively. Identical goals listed twice
are counted once.

Goal-condition success is the share of (state + relation + action) goals met;
task success means all of them are met (EAI Sec. 4, "success rate" and
"goal-condition success"). With ``match="class"`` a goal on node ``i`` of
class ``c`` is met by *any* node of class ``c`` - use it for generated plans,
whose resolver may pick a different instance than the annotator's (e.g. the
other computer of the house).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Literal, Mapping

from actionable.core.errors import EvaluationError, InputError

MatchMode = Literal["id", "class"]


@dataclass(frozen=True)
class StateGoal:
    """Node ``node_id`` (class ``class_name``) must have ``state`` (e.g. ``ON``)."""

    node_id: int
    class_name: str
    state: str

    def describe(self) -> str:
        return f"{self.state}({self.class_name}.{self.node_id})"


@dataclass(frozen=True)
class RelationGoal:
    """Edge ``(from_id, relation, to_id)`` must be in the final graph."""

    from_id: int
    relation: str
    to_id: int

    def describe(self) -> str:
        return f"{self.relation}({self.from_id}, {self.to_id})"


@dataclass(frozen=True)
class ActionGoal:
    """At least one executed step's action is in ``alternatives`` (upper case)."""

    alternatives: tuple[str, ...]

    def describe(self) -> str:
        return "did(" + "|".join(self.alternatives) + ")"


@dataclass(frozen=True)
class GoalSpec:
    """The annotated goals of one program.

    Attributes:
        program_id: dataset program id, e.g. ``"384_1"``.
        task: task name, e.g. ``"Browse internet"``.
        states / relations / actions: de-duplicated goals, annotation order.
    """

    program_id: str
    task: str
    states: tuple[StateGoal, ...] = ()
    relations: tuple[RelationGoal, ...] = ()
    actions: tuple[ActionGoal, ...] = ()

    @property
    def total(self) -> int:
        return len(self.states) + len(self.relations) + len(self.actions)

    @classmethod
    def from_annotation(cls, program_id: str, task: str, vh_goal: Mapping) -> "GoalSpec":
        """Build from one ``vh_goal`` record of the annotation file.

        Raises:
            InputError: a goal record lacks the keys described in the module docstring.
        """
        states: list[StateGoal] = []
        relations: list[RelationGoal] = []
        actions: list[ActionGoal] = []
        try:
            for g in vh_goal.get("goal", []):
                if "state" in g:
                    item = StateGoal(int(g["id"]), str(g.get("class_name", "")).lower(),
                                     str(g["state"]).upper())
                    if item not in states:
                        states.append(item)
                else:
                    item = RelationGoal(int(g["from_id"]), str(g["relation_type"]).upper(),
                                        int(g["to_id"]))
                    if item not in relations:
                        relations.append(item)
            for a in vh_goal.get("actions", []):
                alts = tuple(x.strip().upper() for x in str(a).split("|") if x.strip())
                if alts and ActionGoal(alts) not in actions:
                    actions.append(ActionGoal(alts))
        except (KeyError, TypeError, ValueError) as exc:
            raise InputError(f"goal annotation of program {program_id!r} is malformed ({exc!r}); "
                             "expected {'goal': [{'id','class_name','state'} | "
                             "{'from_id','relation_type','to_id'}], 'actions': ['A|B']}") from None
        return cls(program_id, task, tuple(states), tuple(relations), tuple(actions))


@dataclass(frozen=True)
class GoalResult:
    """Which goals of a :class:`GoalSpec` hold.

    Attributes:
        met / total per kind (``states``, ``relations``, ``actions``), and
        ``unmet``: descriptions of the goals that do not hold.
    """

    program_id: str
    states_met: int
    states_total: int
    relations_met: int
    relations_total: int
    actions_met: int
    actions_total: int
    unmet: tuple[str, ...] = field(default=())

    @property
    def met(self) -> int:
        return self.states_met + self.relations_met + self.actions_met

    @property
    def total(self) -> int:
        return self.states_total + self.relations_total + self.actions_total

    @property
    def goal_condition_success(self) -> float:
        """Share of goals met, in [0, 1]; 1.0 for a spec without goals."""
        return self.met / self.total if self.total else 1.0

    @property
    def task_success(self) -> bool:
        return self.met == self.total

    def to_dict(self) -> dict:
        return {"program_id": self.program_id, "states": [self.states_met, self.states_total],
                "relations": [self.relations_met, self.relations_total],
                "actions": [self.actions_met, self.actions_total],
                "goal_condition_success": self.goal_condition_success,
                "task_success": self.task_success, "unmet": list(self.unmet)}


def _action_names(executed_actions: Iterable) -> set[str]:
    names = set()
    for a in executed_actions:
        name = getattr(a, "action", a)  # a Step or a plain action name
        if not isinstance(name, str):
            raise InputError(f"executed_actions must hold action names or Steps, got {type(a).__name__}")
        names.add(name.strip().upper())
    return names


def _graph_index(graph: Mapping):
    try:
        nodes = {int(n["id"]): n for n in graph["nodes"]}
        edges = {(int(e["from_id"]), str(e["relation_type"]).upper(), int(e["to_id"]))
                 for e in graph["edges"]}
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"final graph is malformed ({exc!r}); expected {{'nodes': [{{'id', "
                         "'class_name', 'states'}}], 'edges': [{'from_id','relation_type','to_id'}]}") from None
    return nodes, edges


def _tally(spec: GoalSpec, state_ok, rel_ok, done: set) -> GoalResult:
    """The :class:`GoalResult` of ``spec`` given a state test, a relation test and the executed
    action names (the one count of :func:`check_goals` and :func:`check_goals_on_view`)."""
    unmet: list[str] = []
    s_met = r_met = a_met = 0
    for g in spec.states:
        if state_ok(g):
            s_met += 1
        else:
            unmet.append(g.describe())
    for g in spec.relations:
        if rel_ok(g):
            r_met += 1
        else:
            unmet.append(g.describe())
    for g in spec.actions:
        if done.intersection(g.alternatives):
            a_met += 1
        else:
            unmet.append(g.describe())
    return GoalResult(spec.program_id, s_met, len(spec.states), r_met, len(spec.relations),
                      a_met, len(spec.actions), tuple(unmet))


def check_goals(spec: GoalSpec, final_graph: Mapping, executed_actions: Iterable,
                match: MatchMode = "id", classes: Mapping[int, str] | None = None) -> GoalResult:
    """Check ``spec`` against a final graph and the actions that were executed.

    Args:
        spec: the goals of one annotated program.
        final_graph: ``{"nodes": [...], "edges": [...]}`` after execution.
        executed_actions: the steps (or action names) that the simulator accepted,
            in order; a failed step and those after it must not be included.
        match: ``"id"`` (the annotated node ids, strict) or ``"class"`` (any node of
            the annotated node's class; ids are mapped to classes via ``classes``
            when given, else via ``final_graph``).
        classes: node id -> class name in the annotated program's own scene; give
            it when ``final_graph`` is another scene (a free-form task checked
            against the goals of a packaged program), whose ids mean other objects.

    Returns:
        A :class:`GoalResult`. Cost: O(nodes + edges + goals).

    Raises:
        InputError: malformed graph, bad ``executed_actions`` items, or unknown ``match``.
    """
    if match not in ("id", "class"):
        raise InputError(f"match must be 'id' or 'class', got {match!r}")
    nodes, edges = _graph_index(final_graph)
    done = _action_names(executed_actions)
    cls_of = {i: str(n.get("class_name", "")).lower() for i, n in nodes.items()}
    goal_cls = dict(cls_of) if classes is None else {int(i): str(c).lower() for i, c in classes.items()}

    def state_ok(g: StateGoal) -> bool:
        if match == "id":
            n = nodes.get(g.node_id)
            return n is not None and g.state in {str(s).upper() for s in n.get("states", [])}
        cname = g.class_name or goal_cls.get(g.node_id, "")
        return any(cls_of[i] == cname and g.state in {str(s).upper() for s in n.get("states", [])}
                   for i, n in nodes.items())

    def rel_ok(g: RelationGoal) -> bool:
        if match == "id":
            return (g.from_id, g.relation, g.to_id) in edges
        fc, tc = goal_cls.get(g.from_id), goal_cls.get(g.to_id)
        if fc is None or tc is None:
            return False
        return any(r == g.relation and cls_of.get(f) == fc and cls_of.get(t) == tc for f, r, t in edges)

    return _tally(spec, state_ok, rel_ok, done)


def check_goals_on_view(spec: GoalSpec, view: Any, executed_actions: Iterable) -> GoalResult:
    """:func:`check_goals` with ``match="id"`` read straight off a world's state view, without
    building the ``{"nodes", "edges"}`` dict (the judges check goals hundreds of times per plan;
    building the dict was a quarter of judging a 1,000-step plan).

    Args:
        spec: the goals.
        view: an object with ``__contains__(id)``, ``states_of(id) -> set[str]`` and
            ``targets(id, relation) -> ids`` (VirtualHome's ``StateView``).
        executed_actions: as in :func:`check_goals`.

    Returns:
        The same :class:`GoalResult` as ``check_goals(spec, view.to_dict(), executed_actions)``
        (a property test holds them equal). Cost: O(goals).
    """
    done = _action_names(executed_actions)

    def state_ok(g: StateGoal) -> bool:
        return g.node_id in view and g.state in {str(x).upper() for x in view.states_of(g.node_id)}

    def rel_ok(g: RelationGoal) -> bool:
        if g.from_id not in view:
            return False
        try:
            return g.to_id in view.targets(g.from_id, g.relation)
        except KeyError:  # a relation the world does not have
            return False

    return _tally(spec, state_ok, rel_ok, done)


@dataclass(frozen=True)
class DerivedGoals:
    """Goal conditions derived for a free-text goal.

    Attributes:
        spec: a :class:`~actionable.core.goals.GoalSpec` over the plan's
            nodes, or ``None`` when no condition could be derived.
        source: where the conditions came from, in words (or why there are none).
        exact: the conditions name the instances the goal means (the world's goal interpreter,
            bound as ``actionable plan`` binds them), so a judge checks them on those node ids even
            for a plan written without ids; ``False``: conditions by class (a packaged title's
            annotated goals), met by any node of the class.
    """

    spec: object | None
    source: str
    exact: bool = False

    @property
    def conditions(self) -> tuple[str, ...]:
        if self.spec is None:
            return ()
        return describe_spec(self.spec)


def describe_spec(spec) -> tuple[str, ...]:
    """Descriptions of every condition of a GoalSpec (``ON(television.410)``, ...)."""
    return tuple(g.describe() for g in (*spec.states, *spec.relations, *spec.actions))


def mean_goal_results(results: Iterable[GoalResult]) -> dict:
    """Mean goal-condition success and task-success rate over several results
    (name-only queries: the mean over a task's annotated programs).

    Returns ``{"goal_condition_success": float, "task_success": float, "n": int}``.

    Raises:
        EvaluationError: ``results`` is empty.
    """
    rs = list(results)
    if not rs:
        raise EvaluationError("no goal results to average; the task has no annotated programs")
    return {"goal_condition_success": sum(r.goal_condition_success for r in rs) / len(rs),
            "task_success": sum(1.0 for r in rs if r.task_success) / len(rs), "n": len(rs)}
