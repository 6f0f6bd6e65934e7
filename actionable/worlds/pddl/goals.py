"""The ``pddl`` world's ``goals`` capability: the problem's ``:goal`` as goal conditions, planned
with a classical planner and replayed in the world.

``actionable plan "Stack a on b and b on c" --env pddl --scene blocksworld:p01`` runs the default
goal-directed planner (:mod:`actionable.planning.goaldirected`) here as in VirtualHome and THOR:

* **Reading** (:meth:`PddlGoals.read`): a PDDL problem states its goal, so the reading is that
  goal, one clause per top-level conjunct (``(on a b)``), source ``the problem's :goal``. The task
  text must say that goal, since a "Done" on the problem's goal would otherwise not be the task:
  every object of every conjunct named, those of a conjunct of two or more in their order with no
  other goal object between ("Stack a on b and b on c" says Sussman's (on a b) (on b c); "Put
  block c on the table" or "Stack a on b and b on a" do not, and are refused with the goal they
  miss), or the goal asked for as such ("reach the goal", "solve the problem"). A text that shares
  no word with the domain ("Turn on the TV" in Blocksworld) is refused as the grounded planner
  refuses it.
* **Planning** (:meth:`PddlGoals.classical`): unified-planning's ``OneshotPlanner``: Fast
  Downward's optimal search (``fast-downward-opt``, PyPI ``up-fast-downward``) on the lifted
  problem first, then pyperplan's A* (``pyperplan-opt``) on the problem compiled to STRIPS
  (quantifiers, disjunctions, negative conditions removed by UP's compilers, plans mapped back),
  then the two engines' satisficing searches, each within :data:`CLASSICAL_TIMEOUT_S`. The
  plan is replayed step by step in the world's affordance; the goal search of
  :mod:`~actionable.planning.goaldirected` runs when no classical plan is found or it does not
  replay. ``benchmarks/bench_pddl.py`` measures both (docs/results.md, "The pddl world").
* **Achievers** (:meth:`PddlGoals.achievers`, for the goal search): the grounded actions whose
  effects make a conjunct true (``stack a b`` for ``(on a b)``).
"""

from __future__ import annotations

import re
import threading
import time

from actionable.core.conditions import Clause, Condition, GoalReading

#: the classical planners tried in order (unified-planning engine names): optimal searches first
#: (Fast Downward's, then pyperplan's A*), then satisficing ones; an engine not installed is skipped
ENGINES = ("fast-downward-opt", "pyperplan-opt", "fast-downward", "pyperplan")
#: seconds a classical planner may search before the next one (or the goal search) is tried
CLASSICAL_TIMEOUT_S = 20.0
#: words that name no object even where a problem has an object of that name (Blocksworld's ``a``)
_ARTICLES = frozenset({"a", "an", "the"})
#: a text that asks for the problem's goal as such
_WHOLE_GOAL = re.compile(r"\b(?:reach|achieve|solve|satisfy|meet|plan for|plan to)\b.{0,40}\b(?:goal|problem)\b", re.I)
#: the source of every clause
SOURCE = "the problem's :goal"


class _View:
    """A PDDL state as a :class:`~actionable.core.conditions.ConditionView`."""

    def __init__(self, goals: "PddlGoals", state):
        self.goals, self.state = goals, state

    def holds(self, condition: Condition) -> bool:
        expr = self.goals.expr[condition.subject]
        return self.goals.task.holds(expr, self.state) != condition.negate


class PddlGoals:
    """The goal interpreter of one PDDL problem (:class:`~actionable.core.conditions.GoalInterpreter`).

    Args:
        scene: a scene name (``blocksworld:p01``, ``dom.pddl::prob.pddl``) or a loaded
            :class:`~actionable.worlds.pddl.model.PddlTask`.

    Raises:
        the errors of :func:`~actionable.worlds.pddl.model.load_task` (unknown scene, bad files).
    """

    def __init__(self, scene):
        from actionable.worlds.pddl.model import PddlTask, load_task
        from actionable.worlds.pddl.repair import Repairer

        self.task = scene if isinstance(scene, PddlTask) else load_task(scene)
        self.expr = dict(zip(self.task.goal_texts, self.task.goals))
        self.repairer = Repairer(self.task)
        #: the engine that made the last classical plan (``None``: none did)
        self.engine: str | None = None

    # --- reading ---
    def read(self, task: str) -> GoalReading:
        """The problem's goal conjuncts as clauses (module doc); ``status == "refuse"`` when the text
        is not about this problem's goal."""
        from actionable.grounding.objects import words

        t = self.task
        said = {w for w in words(task) if len(w) > 2}
        vocab = {w for n in [*t.objects, *t.objects.values(), *t.schemas, *t.goal_texts]
                 for w in words(n) if len(w) > 2}
        whole = bool(_WHOLE_GOAL.search(task))  # "reach the goal", "solve the problem": the goal as such
        if not whole and not (said & vocab) and not ((set(words(task)) - _ARTICLES) & set(t.objects)):
            return GoalReading(task, status="refuse", why=(
                f"the task {task!r} names nothing in PDDL domain {t.domain_name!r} (objects: "
                f"{', '.join(sorted(t.objects)[:8])}); in the pddl world the problem's :goal is what is planned "
                f"and checked, so describe that goal"))
        in_goal = {w for g in t.goal_texts for w in words(g)}
        named = [o for o in t.objects if o in set(words(task)) - _ARTICLES or " ".join(words(o)) in " ".join(words(task))]
        if not whole and named and not any(o in in_goal or set(words(o)) <= in_goal for o in named):
            return GoalReading(task, status="refuse", why=(
                f"the task names {', '.join(named)}, which the goal of PDDL problem {t.problem_name!r} does not "
                f"mention (its goal: {' '.join(t.goal_texts)}); the pddl world plans and checks the problem's "
                f":goal only: write a problem file with the goal you want"))
        unsaid = self._unsaid(task)
        if unsaid is not None:
            return GoalReading(task, status="refuse", why=(
                f"the task does not say the goal of PDDL problem {t.problem_name!r} ({' '.join(t.goal_texts)}): "
                f"{unsaid}; the pddl world plans and checks the problem's :goal only, so say that goal (e.g. "
                f"'{self._example()}'), or 'reach the goal', or write a problem file with the goal you want"))
        clauses = tuple(Clause((Condition("pddl", text, "holds"),), text, SOURCE) for text in t.goal_texts)
        note = (f"the task is read as the goal of PDDL problem {t.problem_name!r} ({len(clauses)} conjunct"
                f"{'s' if len(clauses) != 1 else ''}): the pddl world plans and checks the problem's :goal")
        return GoalReading(task, clauses, notes=[note])

    def _unsaid(self, task: str) -> str | None:
        """What of the problem's goal the text does not say, or ``None`` when it says all of it: every
        object of every conjunct named, the objects of a conjunct of two or more in its order with no
        other goal object between ("Stack a on b and b on c" says (on a b) (on b c); "Put block c on
        the table" or "Stack a on b and b on a" do not); a text that asks for the goal as such ("reach
        the goal", "solve the problem") says it all."""
        from actionable.grounding.objects import words
        from actionable.worlds.pddl.model import objects_of

        if _WHOLE_GOAL.search(task):
            return None
        ws = words(task)
        goal_objects = [[o for o in objects_of(g) if o in self.task.objects] for g in self.task.goals]
        every = {o for objs in goal_objects for o in objs}
        pos = {o: [i for i in range(len(ws)) if ws[i:i + len(words(o))] == words(o)] for o in every}
        for text, objs in zip(self.task.goal_texts, goal_objects):
            missing = [o for o in objs if not pos[o]]
            if missing:
                return f"{text} names {', '.join(missing)}, which the task does not"
            if len(objs) < 2:
                continue
            def follows(i, rest):  # an occurrence of each next object after i, no other goal object between
                if not rest:
                    return True
                for j in pos[rest[0]]:
                    between = {o for o in every for k in pos[o] if i < k < j} - set(objs)
                    if i < j <= i + 6 and not between and follows(j, rest[1:]):
                        return True
                return False
            if not any(follows(i, objs[1:]) for i in pos[objs[0]]):
                return f"{text} is not said (its objects in that order: {' '.join(objs)})"
        return None

    def _example(self) -> str:
        """The problem's goal as words ("on a b and on b c")."""
        return " and ".join(g.strip("()").replace("(", "").replace(")", "").replace("-", " ")
                            for g in self.task.goal_texts)

    def view(self, state=None) -> _View:
        return _View(self, self.task.initial if state is None else state)

    def achievers(self, condition: Condition, view) -> list:
        """Steps whose effects make ``condition`` true (for the goal search), most applicable first;
        ``[]`` for a conjunct no single action's plain effect makes true."""
        from actionable.worlds.pddl.steps import PddlStep

        keys = self.repairer._achievers(self.expr[condition.subject]) or []
        t = self.task
        keys = sorted(keys, key=lambda k: len(t.unmet(view.state, *k)))
        return [PddlStep.of(name, *args) for name, args in keys]

    # --- classical planning ---
    def classical(self, reading: GoalReading, max_steps: int, timeout_s: float = CLASSICAL_TIMEOUT_S):
        """A plan for the problem's goal from its initial state by a classical planner, or ``None``.

        Args:
            reading: a reading of this interpreter (its clauses are the problem's goal).
            max_steps: longest plan kept. timeout_s: seconds per engine (:data:`ENGINES`, in order).

        Returns:
            a list of resolved :class:`~actionable.worlds.pddl.steps.PddlStep`, or ``None`` (no
            engine installed, none found a plan in time, or the plan is longer than ``max_steps``).
            :attr:`engine` names the engine that planned.
        """
        from actionable.worlds.pddl.steps import PddlStep

        self.engine = None
        if [c.text for c in reading.clauses] != list(self.task.goal_texts):
            return None  # another goal than the problem's: the goal search plans it
        strips = None
        for name in ENGINES:
            problem, back = self.task.lifted, []
            if not _supports(name, problem):  # pyperplan reads STRIPS only: compile (once) and map back
                strips = strips or strips_problem(self.task.lifted)
                problem, back = strips
                if problem is None or not _supports(name, problem):
                    continue
            plan = _solve(name, problem, timeout_s)
            if plan is None:
                continue
            for r in reversed(back):
                plan = plan.replace_action_instances(r.map_back_action_instance)
            steps = [PddlStep.of(a.action.name, *(str(p) for p in a.actual_parameters)) for a in plan.actions]
            if len(steps) > max_steps:
                return None
            self.engine = name
            return steps
        return None


def _supports(name: str, problem) -> bool:
    """Whether engine ``name`` is installed and reads ``problem``'s kind."""
    import unified_planning.shortcuts as up

    up.get_environment().credits_stream = None
    try:
        with up.OneshotPlanner(name=name) as planner:
            return planner.supports(problem.kind)
    except Exception:  # noqa: BLE001 - UP raises its own errors for an engine not installed
        return False


def strips_problem(problem):
    """``(problem, compilation results)`` compiled to STRIPS (what pyperplan reads), or
    ``(None, [])`` when unified-planning's compilers are missing."""
    try:
        from unified_planning.engines import CompilationKind
        from unified_planning.engines.compilers import (DisjunctiveConditionsRemover, NegativeConditionsRemover,
                                                        QuantifiersRemover)
    except ImportError:
        return None, []
    back = []
    for comp, kind in ((QuantifiersRemover, CompilationKind.QUANTIFIERS_REMOVING),
                       (DisjunctiveConditionsRemover, CompilationKind.DISJUNCTIVE_CONDITIONS_REMOVING),
                       (NegativeConditionsRemover, CompilationKind.NEGATIVE_CONDITIONS_REMOVING)):
        c = comp()
        if c.supports(problem.kind):
            r = c.compile(problem, kind)
            problem = r.problem
            back.append(r)
    return problem, back


def _solve(name: str, problem, timeout_s: float):
    """The plan of engine ``name`` on ``problem`` within ``timeout_s`` seconds, or ``None``.

    Fast Downward runs as a subprocess that unified-planning stops at ``timeout_s``; pyperplan has
    no time limit of its own, so every engine searches in a daemon thread that is left behind when
    the limit passes (its result is then ignored)."""
    import unified_planning.shortcuts as up

    up.get_environment().credits_stream = None
    box: dict = {}

    def run():
        try:
            with up.OneshotPlanner(name=name) as planner:
                kw = {"timeout": timeout_s} if name.startswith("fast-downward") else {}
                box["plan"] = planner.solve(problem, **kw).plan
        except Exception as exc:  # noqa: BLE001 - an engine that fails is skipped, the next one runs
            box["error"] = exc

    th = threading.Thread(target=run, daemon=True, name=f"classical-{name}")
    t0 = time.perf_counter()
    th.start()
    th.join(max(0.0, timeout_s - (time.perf_counter() - t0)))
    return None if th.is_alive() else box.get("plan")


__all__ = ["CLASSICAL_TIMEOUT_S", "ENGINES", "PddlGoals", "strips_problem"]
