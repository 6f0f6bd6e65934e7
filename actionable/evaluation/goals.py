"""Goal-condition checker for the 342 goal-annotated VirtualHome programs.

Stable API (used by the evaluation runner, verify and continual):

    load_goal_annotations(path=None) -> dict[str, GoalSpec]   # by program id, e.g. "384_1"
    goals_for_task(task, annotations) -> list[GoalSpec]       # case-insensitive task name
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

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Literal, Mapping

from actionable.core.errors import EvaluationError, InputError

MatchMode = Literal["id", "class"]
ANNOTATION_FILE = "resources/virtualhome/task_state_LTL_formula_accurate.json"


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


def _annotation_path(path: str | Path | None) -> Path:
    if path is not None:
        return Path(path)
    try:
        from importlib.resources import files

        return Path(str(files("virtualhome_eval") / ANNOTATION_FILE))
    except ModuleNotFoundError:
        raise EvaluationError("virtualhome-eval is not installed; `pip install virtualhome-eval==0.1.1` "
                              "or pass the annotation file path explicitly") from None


def load_goal_annotations(path: str | Path | None = None) -> dict[str, GoalSpec]:
    """Load the goal annotations, keyed by program id (342 entries for the packaged file).

    Args:
        path: a JSON file in the EAI layout ``{scene: {task: {program_id: {"vh_goal": ...}}}}``;
            ``None`` = the file shipped with ``virtualhome_eval``.

    Raises:
        InputError: the file is missing, not JSON, or not in that layout.
    """
    p = _annotation_path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"goal annotation file {p} does not exist; pass an existing JSON file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"goal annotation file {p} is not UTF-8 JSON ({exc}); fix or regenerate it") from None
    if not isinstance(data, dict):
        raise InputError(f"goal annotation file {p}: expected a JSON object of scenes")
    out: dict[str, GoalSpec] = {}
    for scene, tasks in data.items():
        if not isinstance(tasks, dict):
            raise InputError(f"goal annotation file {p}: scene {scene!r} must map task names to programs")
        for task, progs in tasks.items():
            if not isinstance(progs, dict):
                raise InputError(f"goal annotation file {p}: task {task!r} must map program ids to goals")
            for pid, rec in progs.items():
                if not isinstance(rec, dict) or "vh_goal" not in rec:
                    raise InputError(f"goal annotation file {p}: program {pid!r} lacks 'vh_goal'")
                out[str(pid)] = GoalSpec.from_annotation(str(pid), str(task), rec["vh_goal"])
    return out


def goals_for_task(task: str, annotations: Mapping[str, GoalSpec]) -> list[GoalSpec]:
    """All annotated programs of ``task`` (case-insensitive), sorted by program id."""
    t = task.strip().lower()
    return sorted((s for s in annotations.values() if s.task.lower() == t), key=lambda s: s.program_id)


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
    unmet: list[str] = []
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
