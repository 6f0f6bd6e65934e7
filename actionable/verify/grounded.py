"""Simulator-grounded judge: minimal-edit critiques from replaying the plan in VirtualHome.

The LLM judge of arXiv 2509.02761 never executes the plan; its reported
failure modes are long-range redundancy, multi-step preparation flagged as
redundant, and a second use of an object wrongly removed (Sec. 6). This judge
replays the plan in the evolving-graph simulator (about 1,000 steps/s) and
proposes the **smallest set of edits** (``REMOVE`` / ``MISSING``, the paper's
critique format) that makes the plan execute and meet its goal conditions,
under this cost model:

====================================================  ======================
edit                                                  cost
====================================================  ======================
insert a missing precondition or goal step            ``INSERT`` = 1 a step
remove an earlier step that broke the precondition    ``REMOVE_CAUSE`` = 1
or goal (the fix would only undo it), or an object
picked up and never used that occupies a hand
insert a step that only undoes an earlier step        ``INSERT_UNDO`` = 3
remove the failing step (its precondition is merely   ``REMOVE_FAILING`` = 3
missing; the last resort)
remove a step that serves the goal (names a goal      ``REMOVE_GOAL`` = 5
object or does an action goal)
re-ground a wrong or absent instance: every step      ``REGROUND`` = 1 an
naming ``<class> (id)`` re-bound to the nearest       object (tried first)
instance of the class (REMOVE + MISSING a step)
====================================================  ======================

So a step whose precondition is missing gets the precondition inserted rather
than being removed; ``LIE, STANDUP, SLEEP`` loses the ``STANDUP`` rather than
gaining a second ``LIE``; and an unmet ``ON(tv)`` after ``SWITCHON, SWITCHOFF``
loses the ``SWITCHOFF`` rather than gaining another ``SWITCHON``.

Phases (each candidate edit set is checked by replaying the plan):

1. **precondition repair** - at the first failing step, candidate edit sets
   (:mod:`actionable.verify.repairs` insertions; removal of the step the
   insertion would undo; removal of an unused grab when a hand is needed; the
   failing step itself) are tried cheapest first; the first that lets the
   plan run past the step is kept. Repeats until the plan executes.
2. **goal repair** - each unmet goal condition (annotated with ``--program``,
   else derived from the goal text by :mod:`actionable.worlds.virtualhome.goaltext`) is
   met by the cheapest candidate: removing the step that undid it, or
   inserting the step(s) that establish it at the latest position that works.
3. **relevance** - :mod:`actionable.verify.relevance` groups (repeats, undo
   pairs in either order, put back unused, picked up and never used, detours
   and the walk back) are removed when the plan without them still executes
   and meets every goal condition it met.

Plans without node ids are bound with the resolver first. The result lists
the goal conditions checked (``JudgeResult.goal_conditions``) and says where
they came from, or that none could be derived.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from actionable.core.program import Program, Step
from actionable.core.errors import ConfigError
from actionable.verify.base import NAVIGATION, POSTURE_ACTIONS, JudgeResult, VerifyTask, mentions, undoes
from actionable.verify.critique import Critique, CritiqueKind, _bind_ids
from actionable.verify.relevance import Fallback, is_copy, reason_for, relevance_candidates, walk_candidates
from actionable.verify.repairs import ALREADY_INV, STATE_FIX, already, goal_proposals, precondition_fixes
from actionable.verify.replay import StateView, goal_check, graph_replay
from actionable.verify.reground import Regrounding, _goal_nodes, _runs_past
from actionable.verify.ordering import LATE_WINDOW, OrderRepair, _goes_back, _only_undoes, _plan_own  # noqa: F401
from actionable.core.incremental import IncrementalReplay, supports_incremental

INSERT, REMOVE_CAUSE, INSERT_UNDO, REMOVE_FAILING, REMOVE_GOAL = 1, 1, 3, 3, 5
#: re-bind every step naming a wrong or absent instance to the nearest instance of its class
#: (issue 26): cheaper than any removal, and tried first
REGROUND = 1
#: move a step of the plan before its neighbour (two adjacent steps in the wrong order): tried
#: before insertions of the same cost, since it keeps every step the plan's author wrote
MOVE = 1
#: the agent's posture goals and the action that establishes them (a STANDUP undoes both)
POSTURE_FIX = {"SITTING": "SIT", "LYING": "LIE"}


@dataclass(frozen=True)
class SimJudgeConfig:
    """Budgets of :class:`SimulatorJudge` (each unit is one plan replay, ~10 ms).

    Raises:
        ConfigError: a budget out of range.
    """

    max_repairs: int = 10
    max_positions: int = 16
    use_goals: bool = True
    derive_goals: bool = True
    incremental: bool = True

    def __post_init__(self) -> None:
        if not (1 <= self.max_repairs <= 100 and 1 <= self.max_positions <= 200):
            raise ConfigError("SimJudgeConfig: max_repairs must be in 1..100 and max_positions in 1..200")


#: The longest plan the simulator judge takes (a plan file holds at most 200,000 characters,
#: about 7,000 steps). Judging grows about linearly with length (incremental replay,
#: :mod:`actionable.core.incremental`): about 3-5 s for 1,000 steps on 2 shared cores
#: (docs/results.md, "Long plans").
MAX_JUDGE_STEPS = 5000
#: Plans this long get progress lines (``SimulatorJudge.progress``).
PROGRESS_MIN_STEPS = 200


def check_length(plan) -> None:
    """Raises :class:`~actionable.core.errors.InputError` when ``plan`` has more than
    :data:`MAX_JUDGE_STEPS` steps (the message says how to split it)."""
    if len(plan) > MAX_JUDGE_STEPS:
        from actionable.core.errors import InputError

        raise InputError(f"the plan has {len(plan):,} steps; the simulator judge takes at most "
                         f"{MAX_JUDGE_STEPS:,} (split the plan into parts of at most {MAX_JUDGE_STEPS:,} "
                         "steps and verify each from the state the previous part ends in)")


def repair_budget(max_repairs: int, n_steps: int) -> int:
    """Precondition repairs tried on a plan of ``n_steps``: ``max_repairs``, or one per 25 steps
    on long plans (a 1,000-step plan may hold dozens of independent failures)."""
    return max(max_repairs, n_steps // 25)


def _last_breaker(fix: Step, steps: list[Step]) -> int | None:
    """Index of the last step that undid what ``fix`` establishes (e.g. the last
    SWITCHOFF of the TV for ``SWITCHON tv``), unless the plan re-established it later."""
    for j in range(len(steps) - 1, -1, -1):
        if undoes(fix, steps[j]):
            return j
        if steps[j].action == fix.action and steps[j].args[:1] == fix.args[:1]:
            return None
        if fix.action in POSTURE_ACTIONS and steps[j].action in POSTURE_ACTIONS:
            return None  # the agent sat or lay down again after the last STANDUP
    return None


class SimulatorJudge(OrderRepair, Regrounding):
    """Simulator-grounded minimal-edit judge (ours). ``judge(plan, task) -> JudgeResult``.

    ``task.scene`` names the scene (program id, scene name or SceneGraph);
    ``task.goal_spec`` (optional) gives the goal conditions, else they are
    derived from ``task.goal`` (:func:`actionable.worlds.virtualhome.goaltext.derive_goal_spec`).
    Cost: O(repairs * candidates) plan replays, typically 10-60 per plan.

    Raises:
        ResolutionError / SceneError: the plan names objects absent from the scene.
    """

    name = "sim"

    def __init__(self, config: SimJudgeConfig | None = None, world=None):
        self.config = config or SimJudgeConfig()
        #: the world's scene-graph replay (its ``verify`` capability; default: the default world's)
        self.world = world if world is not None else graph_replay()
        self._sim = None
        self._scenes: dict = {}
        self._match = "id"  # goal matching; "class" for a plan written without node ids
        self._inc: dict = {}  # scene -> IncrementalReplay
        #: ``progress(message)`` for plans of :data:`PROGRESS_MIN_STEPS` steps or more (the CLI
        #: prints them on stderr); None: silent
        self.progress = None
        self._long = False
        self._goal_memo: dict = {}
        #: plan indices re-grounded in the current judgement (REMOVE + MISSING of one step: replaced)
        self._replaced: set[int] = set()

    def _bind(self, plan: Program, task):
        """Resolve ``plan`` in the task's scene and choose the goal matching: a plan written
        without node ids names classes ("the television"), so its goals are met by any node of
        the annotated class (as the sequencing benchmark scores generated plans); a plan with ids
        must meet them on the annotated nodes. The goal text's instances bind first also in later
        rounds, whose conditions were derived from it (``goal_source``): the steps a round inserted
        bind to the milk the goal means, as the plan's own steps did in round 1."""
        self._match = "id" if all(s.is_resolved for s in plan.steps) else "class"
        derived = task.goal_spec is None or task.goal_source is not None
        return self.world.resolve_plan(plan, self._scene(task), goal=task.goal if derived else None)

    # ---------------------------------------------------------------- helpers
    def _say(self, message: str) -> None:
        if self._long and self.progress is not None:
            self.progress(message)

    def _scene(self, task):
        """The task's scene as a SceneGraph, loaded once per judge."""
        s = task.scene
        if s is None or isinstance(s, str):
            key = s or "default"
            if key not in self._scenes:
                if len(self._scenes) >= 8:
                    self._scenes.pop(next(iter(self._scenes)))
                self._scenes[key] = self.world.load_scene(s)
            return self._scenes[key]
        return s

    def _run(self, steps, task, observe=None, until=None):
        """Replay ``steps`` in the task's scene: incrementally (:mod:`actionable.core.incremental`,
        prefix caching and convergence; exact) when the world offers the hooks, else from the
        initial state. ``until``: only whether steps ``0..until`` execute is needed."""
        scene = self._scene(task)
        if self.config.incremental and supports_incremental(self.world):
            inc = self._inc.get(id(scene))
            if inc is None or inc.scene is not scene:
                if len(self._inc) >= 8:
                    self._inc.pop(next(iter(self._inc)))
                inc = self._inc[id(scene)] = IncrementalReplay(self.world, scene, self.world.simulator())
            return inc.replay(steps, observe=observe, until=until)
        if self._sim is None:
            self._sim = self.world.simulator()
        return self.world.replay(steps, scene, sim=self._sim, observe=observe)

    def _met(self, res, task) -> int:
        if not self.config.use_goals:
            return 0
        g = self._goal_result(res, task)
        return 0 if g is None else g.met

    def _goal_result(self, res, task):
        """:func:`goal_check`, memoised by final state and executed actions (many candidate edits
        end in the same state object: the incremental replay's convergence)."""
        if task.goal_spec is None:
            return None
        token = getattr(res.obs, "token", None)
        if token is None:
            return goal_check(task, res, self._match)
        key = (id(token), id(task.goal_spec), self._match,
               frozenset(s.action for s in res.executed) if task.goal_spec.actions else None)
        hit = self._goal_memo.get(key)
        if hit is not None and hit[0] is token:
            return hit[1]
        g = goal_check(task, res, self._match)
        if len(self._goal_memo) > 4096:
            self._goal_memo.clear()
        self._goal_memo[key] = (token, g)
        return g

    def _ok_without(self, steps: list[Step], drop: set[int], task, base_met: int) -> bool:
        res = self._run([s for k, s in enumerate(steps) if k not in drop], task)
        return res.executable and self._met(res, task) >= base_met

    def _same_final(self, steps: list[Step], drop: set[int], task) -> bool:
        """The plan without ``drop`` ends in the state the plan ends in (the world's
        ``same_state``; without it, not checked)."""
        same = getattr(self.world, "same_state", None)
        a = getattr(self._run(steps, task).obs, "token", None)
        b = getattr(self._run([s for k, s in enumerate(steps) if k not in drop], task).obs, "token", None)
        return same is None or a is None or b is None or same(a, b)

    def with_goals(self, plan: Program, task: VerifyTask) -> tuple[VerifyTask, str]:
        """``task`` with goal conditions (annotated, or derived from the goal text for
        the resolved ``plan``) and a note saying which conditions are checked."""
        from actionable.core.goals import describe_spec

        if not self.config.use_goals:
            return task, "goal conditions: not checked (use_goals=False); only executability"
        if task.goal_spec is not None:
            conds = describe_spec(task.goal_spec)
            source = task.goal_source or f"annotated for program {task.goal_spec.program_id}"
            return task, f"goal conditions checked ({len(conds)}, {source}): {', '.join(conds)}"
        if not self.config.derive_goals:
            return task, "goal conditions: none given; only executability is checked"
        d = self.world.derive_goals(task.goal, plan, self._scene(task))
        if d.spec is not None and getattr(d, "exact", False):
            self._match = "id"  # "turn on the TV": the TV the reading means, not any television
        if d.spec is None:
            return task, (f"goal conditions: none could be derived from the goal ({d.source}); "
                          "only executability is checked")
        return (dataclasses.replace(task, goal_spec=d.spec, goal_source=d.source),
                f"goal conditions checked ({len(d.conditions)}, {d.source}): {', '.join(d.conditions)}")

    def _serves_goal(self, steps: list[Step], j: int, task) -> bool:
        """``steps[j]`` names a goal object or does an action goal, and no later step
        repeats its action on its object (then the later one is what serves)."""
        spec, step = task.goal_spec, steps[j]
        if spec is None:
            return False
        if not (any(a.id in _goal_nodes(spec) for a in step.args)
                or any(step.action in g.alternatives for g in spec.actions)):
            return False
        return not any(t.action == step.action and t.args[:1] == step.args[:1] for t in steps[j + 1:])

    def _remove_cost(self, steps: list[Step], j: int, task, base: int) -> int:
        return REMOVE_GOAL if self._serves_goal(steps, j, task) else base

    def _insert_cost(self, new: list[Step], prefix: list[Step]) -> int:
        cost, seq = 0, list(prefix)
        for st in new:
            cost += INSERT_UNDO if _only_undoes(st, seq) is not None else INSERT
            seq.append(st)
        return cost

    # ---------------------------------------------------------------- phase 1
    def _candidates(self, entries, k, res, task) -> list[tuple[int, int, str, object, str]]:
        """Edit sets for the failing step ``k``: ``(cost, order, kind, payload, why)``."""
        steps = [s for _, s in entries]
        s, view = steps[k], StateView(res.obs)
        is_orig = lambda j: entries[j][0] is not None  # noqa: E731
        out: list = []
        red = already(s, view) if s.is_resolved and res.error_type != "unknown_node" else None
        if res.error_type != "unknown_node":
            fixes = precondition_fixes(steps, k, view, res.unmet, self.config.max_positions)
            if red is not None:  # only the inverse-action repair applies
                fixes = [f for f in fixes if f[1][0].action == ALREADY_INV.get(s.action)]
            for pos, new, why in fixes:
                out.append((self._insert_cost(new, steps[:pos]), len(out), "insert", (pos, new), why))
                for st in new:  # the cause: an earlier step that the fix would only undo
                    j = _only_undoes(st, steps[:pos])
                    if j is not None and is_orig(j):
                        out.append((self._remove_cost(steps, j, task, REMOVE_CAUSE), len(out), "remove", j,
                                    f"contradictory: undoes what step {entries[k][0] + 1} needs ({why})"))
            goal_nodes = _goal_nodes(task.goal_spec)
            full = len(view.held()) >= 2  # both hands busy: try the unused objects first
            for h in sorted(view.held()):  # an object picked up and never used: dropping it is free
                grabs = [j for j in range(k) if steps[j].action == "GRAB" and steps[j].args[0].id == h]
                if not grabs or not is_orig(grabs[-1]) or h in goal_nodes:
                    continue
                j = grabs[-1]
                if not any(mentions(t, steps[j].args[0]) for t in steps[j + 1:]):
                    out.append((REMOVE_CAUSE, -1 if full else len(out), "remove", j,
                                f"redundant: {steps[j].args[0].name} is picked up and never used (and "
                                f"step {entries[k][0] + 1} fails while it is held)"))
        if red is not None and is_orig(k):
            out.append((REMOVE_CAUSE if s.action not in ALREADY_INV else REMOVE_FAILING, len(out), "remove", k,
                        f"redundant: {red}"))
        why = f"cannot execute ({res.error or res.error_type or 'precondition fails'})"
        out.append((self._remove_cost(steps, k, task, REMOVE_FAILING), len(out) + 1000, "remove", k, why))
        return sorted(out, key=lambda c: (c[0], c[1]))

    def _repair(self, entries, task, crits, notes) -> None:
        n_plan = sum(1 for o, _ in entries if o is not None)
        budget = repair_budget(self.config.max_repairs, n_plan)
        for r in range(budget):
            if r and r % 10 == 0:
                self._say(f"sim judge: {r} repairs so far (budget {budget})")
            steps = [s for _, s in entries]
            res = self._run(steps, task)
            if res.executable:
                return
            k = res.failed_index
            if res.error_type in ("unknown_node", "unseen") and self._reground(entries, k, res, task, crits, notes):
                continue
            if task.goal_spec is not None and self._goal_reground(entries, task, crits, res, None, k):
                continue
            if task.goal_spec is not None and self._exchange(entries, k, task, crits, same_object=True):
                continue
            if task.goal_spec is not None and self._reground(entries, k, res, task, crits, notes, far=True):
                continue
            cands = self._candidates(entries, k, res, task)
            chain_tried = False
            for cost, _, kind, payload, why in cands:
                if cost > 2 * INSERT and not chain_tried:
                    chain_tried = True  # two insertions (cost 2) before any dearer edit
                    if self._chain(entries, k, res, task, cands, crits, n_plan):
                        break
                if kind == "insert":
                    pos, proposed = payload
                    for new in _plan_own(proposed, entries, k):  # the plan's own later step first
                        r2 = self._run(steps[:pos] + new + steps[pos:], task, until=k + len(new))
                        if _runs_past(r2, k + len(new)):
                            break
                    else:
                        continue
                    if (task.goal_spec is not None and _goes_back(new, steps[:pos])
                            and (self._exchange(entries, k, task, crits, same_object=False)
                                 or self._move_back(entries, k, task, crits))):
                        break  # the agent had gone there already and a later step led it away: an order slip
                    anchor = next((o for o, _ in entries[pos:] if o is not None), n_plan)
                    for st in new:
                        crits.append(Critique(CritiqueKind.MISSING, anchor, st.to_script(),
                                              f"precondition of step {entries[k][0] + 1 if entries[k][0] is not None else '?'}: {why}",
                                              st, self.name))
                    entries[pos:pos] = [(None, st) for st in new]
                    self._drop_late_copy(entries, pos, len(new), k, task, crits)
                    break
                j = payload
                if j != k:
                    r2 = self._run(steps[:j] + steps[j + 1:], task, until=k - 1)
                    if not _runs_past(r2, k - 1):
                        continue
                orig, bad = entries.pop(j)
                if orig is not None:
                    crits.append(Critique(CritiqueKind.REMOVE, orig, bad.to_script(), why, bad, self.name))
                else:
                    notes.append(f"dropped an inserted step that does not execute: {bad.to_script()}")
                break
            else:
                if task.goal_spec is not None:
                    self._exchange(entries, k, task, crits, same_object=False)
        notes.append(f"plan still fails after {budget} repairs")

    def _chain(self, entries, k: int, res, task, cands, crits, n_plan: int) -> bool:
        """Two missing preconditions of one failing step (``POUR water`` with the water not held
        *and* the coffee maker closed): a one-step insertion after which the step still fails, but
        on another precondition, plus a one-step fix of that one (cost ``2 * INSERT``, less than
        removing the step, ``REMOVE_FAILING``). Inserts both (MISSING) and returns whether it did."""
        steps = [s for _, s in entries]
        firsts = [c for c in cands if c[2] == "insert" and c[0] == INSERT and len(c[3][1]) == 1][:6]
        for _, _, _, (pos, new), why in firsts:
            s1, k1 = steps[:pos] + new + steps[pos:], k + 1
            r1 = self._run(s1, task, until=k1)
            f = r1.failed_index
            # the inserted step needs a precondition of its own, or the step now fails on another one
            if _runs_past(r1, k1) or f not in (pos, k1) or (f == k1 and set(r1.unmet or ()) == set(res.unmet or ())):
                continue
            fixes = precondition_fixes(s1, f, StateView(r1.obs), r1.unmet, self.config.max_positions)
            for pos2, new2, why2 in fixes[:8]:
                if len(new2) != 1 or self._insert_cost(new2, s1[:pos2]) != INSERT:
                    continue
                if not _runs_past(self._run(s1[:pos2] + new2 + s1[pos2:], task, until=k1 + 1), k1 + 1):
                    continue
                step_no = entries[k][0] + 1 if entries[k][0] is not None else "?"
                entries[pos:pos] = [(None, new[0])]
                entries[pos2:pos2] = [(None, new2[0])]
                at_of = lambda st: next(m for m, e in enumerate(entries) if e[0] is None and e[1] is st)  # noqa: E731
                # in plan order: two MISSING steps before one step are inserted in critique order
                for st, reason in sorted(((new[0], why), (new2[0], why2)), key=lambda p: at_of(p[0])):
                    at = at_of(st)
                    anchor = next((o for o, _ in entries[at:] if o is not None), n_plan)
                    crits.append(Critique(CritiqueKind.MISSING, anchor, st.to_script(),
                                          f"precondition of step {step_no}: {reason}", st, self.name))
                return True
        return False

    # ---------------------------------------------------------------- phase 2
    def _goal_repair(self, entries, task, crits) -> None:
        steps = [s for _, s in entries]
        res = self._run(steps, task)
        g = self._goal_result(res, task)
        if not res.executable or g is None or g.task_success:
            return
        met = g.met
        met = self._goal_reground(entries, task, crits, res, met)
        steps = [s for _, s in entries]
        res = self._run(steps, task)
        g = self._goal_result(res, task)
        if g is None or g.task_success:
            return
        met = self._undo_moves_away(entries, task, crits, met)
        steps = [s for _, s in entries]
        res = self._run(steps, task)
        g = self._goal_result(res, task)
        if g is None or g.task_success:
            return
        n_plan = sum(1 for o, _ in entries if o is not None)
        solved: set[str] = set()
        props = goal_proposals(task.goal_spec, StateView(res.obs), steps, task.goal)
        for goal in task.goal_spec.states:  # the step that undid a goal state: remove it (cheaper)
            act = STATE_FIX.get(goal.state) or POSTURE_FIX.get(goal.state)
            if act is not None and goal.node_id in StateView(res.obs):
                fix = Step.of(act, (StateView(res.obs).cls(goal.node_id), goal.node_id))
                props.insert(0, (("remove", fix), f"goal {goal.describe()} is not met"))
        for new, why in props:
            if why in solved:
                continue
            steps = [s for _, s in entries]
            if isinstance(new, tuple):  # ("remove", fix): drop the last step that undid the goal
                j = _last_breaker(new[1], steps)
                if j is None or entries[j][0] is None:
                    continue
                r2 = self._run(steps[:j] + steps[j + 1:], task)
                if r2.executable and self._met(r2, task) > met:
                    o, st = entries.pop(j)
                    crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(),
                                          f"contradictory: it undoes the {why.removesuffix(' is not met')}", st,
                                          self.name))
                    met = self._met(r2, task)
                    solved.add(why)
                continue
            lo = max(-1, len(steps) - self.config.max_positions)
            for pos in range(len(steps), lo, -1):
                r2 = self._run(steps[:pos] + new + steps[pos:], task)
                if r2.executable and self._met(r2, task) > met:
                    anchor = next((o for o, _ in entries[pos:] if o is not None), n_plan)
                    for st in new:
                        crits.append(Critique(CritiqueKind.MISSING, anchor, st.to_script(), why, st, self.name))
                    entries[pos:pos] = [(None, st) for st in new]
                    met = self._met(r2, task)
                    solved.add(why)
                    break

    def _undo_moves_away(self, entries, task, crits, met: int) -> int:
        """A placement goal met part-way and undone later (the mug put in the sink, then taken to the
        table): the plan's steps after the last prefix that met more goals and that act on a
        relation goal's object (grab, put, drop, and the walk right before such a step to where it
        acts) are removed when the plan without them executes and meets more goals (the cause is removed, not
        compensated). Returns the goals met after the edit."""
        spec = task.goal_spec
        subjects = {r.from_id for r in getattr(spec, "relations", ())}
        if not subjects:
            return met
        steps = [s for _, s in entries]
        k = next((k for k in range(len(steps) - 1, 0, -1) if self._met(self._run(steps[:k], task), task) > met), None)
        if k is None:
            return met
        drop = [j for j in range(k, len(steps)) if entries[j][0] is not None and steps[j].action not in NAVIGATION
                and steps[j].args and steps[j].args[0].id in subjects]
        if not drop:
            return met
        # the walk right before a removed step, to where that step acted, goes with it
        drop += [j - 1 for j in drop if j - 1 >= k and j - 1 not in drop and entries[j - 1][0] is not None
                 and steps[j - 1].action in NAVIGATION and steps[j - 1].args
                 and any(a.id == steps[j - 1].args[0].id for a in steps[j].args)]
        r2 = self._run([s for j, s in enumerate(steps) if j not in drop], task)
        m2 = self._met(r2, task) if r2.executable else -1
        if m2 <= met:
            return met
        for j in sorted(drop, reverse=True):
            o, st = entries.pop(j)
            crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(),
                                  f"contradictory: it moves {st.args[0].name} away after the goal placed it "
                                  f"(the goal held after step {k})", st, self.name))
        return m2

    # ---------------------------------------------------------------- phase 3
    def relevance_candidates(self, steps: list[Step], task, strict: bool = True,
                             removed_after=frozenset(), label=None,
                             walks: bool = True) -> list[tuple[set[int], str | dict[int, str]]]:
        """Groups of step indices that feed neither a later step nor a goal
        (:func:`actionable.verify.relevance.relevance_candidates`)."""
        return relevance_candidates(steps, lambda st, observe=None: self._run(st, task, observe), strict=strict,
                                    goal_nodes=_goal_nodes(task.goal_spec), goal_text=task.goal,
                                    removed_after=removed_after, label=label, walks=walks)

    def _relevance(self, entries, task, crits) -> None:
        steps = [s for _, s in entries]
        base = self._run(steps, task)
        if not base.executable:
            return
        base_met = self._met(base, task)
        # a re-grounded step is replaced, not removed: the walk that led to it still serves
        gone = {c.index for c in crits if c.kind is CritiqueKind.REMOVE} - self._replaced
        removed_after = {k for k, (o, _) in enumerate(entries) if o is not None and o + 1 in gone}
        drop: set[int] = set()
        def label(k: int) -> str:  # reasons number steps as the plan (and the critique headers) do
            o, st = entries[k]
            return f"step {o + 1}" if o is not None else f"the added step {st.to_text()!r}"

        # Two stages: first the groups that do not depend on what else goes (repeats, undo pairs,
        # unused grabs, side effects, posture changes, copies), then the walks, each judged
        # against the next step that stays once those removals are kept (a room walk before an
        # inserted side effect is compared with the step after the side effect).
        groups = self.relevance_candidates(steps, task, removed_after=removed_after, label=label, walks=False)
        self._take(groups, entries, steps, task, base_met, drop, crits)
        walks = walk_candidates(steps, lambda st, observe=None: self._run(st, task, observe), taken=drop,
                                removed_after=removed_after, label=label)
        self._take(walks, entries, steps, task, base_met, drop, crits)

    def _take(self, groups, entries, steps, task, base_met: int, drop: set[int], crits) -> None:
        """Keep each candidate group whose removal (with ``drop``, the removals kept so far) leaves
        the plan executable and every goal it met met; copies also only when the final state stays
        the same. Adds the kept groups to ``drop`` and their REMOVE critiques to ``crits``."""
        for g_i, (group, why) in enumerate(groups):
            if g_i and g_i % 100 == 0:
                self._say(f"sim judge: relevance, {g_i} of {len(groups)} candidate groups checked")
            # of two identical adjacent copies, deleting either gives the same plan: when the
            # candidate is a copy the judge inserted (a moved step), the plan's own copy goes
            group = {k - 1 if entries[k][0] is None and k and entries[k - 1][0] is not None
                     and steps[k - 1] == steps[k] and k - 1 not in group else k for k in group}
            if any(entries[k][0] is None for k in group) or group <= drop or (isinstance(why, Fallback) and group & drop):
                continue
            if is_copy(why) and any(entries[steps.index(steps[k])][0] is None for k in group):
                continue  # a copy of a step the judge inserted: the plan's own step was kept on purpose
            if self._ok_without(steps, drop | group, task, base_met) and (
                    not is_copy(why) or self._same_final(steps, drop | group, task)):
                fresh = group - drop
                drop |= group
                for k in sorted(fresh):
                    o, st = entries[k]
                    crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(),
                                          f"redundant: {reason_for(why, k)}", st, self.name))

    # ---------------------------------------------------------------- API
    def judge(self, plan: Program, task: VerifyTask) -> JudgeResult:
        """Critiques of ``plan`` (0-based indices) with the goal conditions checked."""
        if not len(plan):
            return JudgeResult((), ("empty plan: nothing to judge",))
        check_length(plan)
        self._long = len(plan) >= PROGRESS_MIN_STEPS
        self._say(f"sim judge: binding and replaying {len(plan)} steps")
        plan = self._bind(plan, task)
        given = task.goal_spec
        task, goal_note = self.with_goals(plan, task)
        derived = (task.goal_spec, task.goal_source) if given is None and task.goal_spec is not None else None
        entries: list[tuple[int | None, Step]] = list(enumerate(plan.steps))
        self._replaced = set()
        crits: list[Critique] = []
        notes: list[str] = [goal_note]
        self._say("sim judge: phase 1 of 3, precondition repair")
        self._repair(entries, task, crits, notes)
        if self.config.use_goals and task.goal_spec is not None:
            self._say("sim judge: phase 2 of 3, goal repair")
            self._goal_repair(entries, task, crits)
        self._say("sim judge: phase 3 of 3, relevance")
        self._relevance(entries, task, crits)
        self._say(f"sim judge: done, {len(crits)} critique(s)")
        crits.sort(key=lambda c: (c.index if c.index is not None else len(plan), c.kind.value))
        from actionable.core.goals import describe_spec

        conds = describe_spec(task.goal_spec) if task.goal_spec is not None else ()
        return JudgeResult(tuple(crits), tuple(notes), goal_conditions=conds, derived=derived)

    def outcomes(self, plans, task: VerifyTask):
        """Each of ``plans`` replayed in the task's scene (the revision guard's referee,
        :mod:`actionable.verify.guard`): a list of :class:`~actionable.verify.base.PlanOutcome`,
        goal conditions matched as the judge matches them for ``plans[0]`` (by node id for a plan
        with ids, by class for a class-level one), for every plan.

        Raises:
            ResolutionError: a plan names a class the scene lacks."""
        from actionable.verify.base import PlanOutcome

        out = []
        task0, match = task, None
        for p in plans:
            bound = self._bind(p, task0)
            if match is None:
                task0, _ = self.with_goals(bound, task)
                match = self._match
            self._match = match
            res = self._run(list(bound.steps), task0)
            g = self._goal_result(res, task0) if self.config.use_goals else None
            out.append(PlanOutcome(res.executable, g.met if g else 0, g.total if g else 0, bound,
                                   res.failed_index, res.error or res.error_type))
        return out

    def confirms_remove(self, plan: Program, task: VerifyTask, index: int | None) -> bool:
        """Whether removing ``plan[index]`` is safe *and* supported by a weak
        relevance signal (used by the hybrid judge to filter LLM critiques)."""
        if index is None or not 0 <= index < len(plan):
            return False
        plan = self._bind(plan, task)
        task, _ = self.with_goals(plan, task)
        steps = list(plan.steps)
        weak = [g for g, _ in self.relevance_candidates(steps, task, strict=False) if index in g]
        if not weak:
            return False
        base = self._run(steps, task)
        if not base.executable:
            return False
        base_met = self._met(base, task)
        return any(self._ok_without(steps, g, task, base_met) for g in weak)

    def confirms_missing(self, plan: Program, task: VerifyTask, critique: Critique) -> bool:
        """Whether inserting the critique's step lets the plan run further or meet more
        goals, and it does not only undo an earlier step."""
        if critique.step is None:
            return False
        plan = self._bind(plan, task)
        task, _ = self.with_goals(plan, task)
        step = _bind_ids(critique.step, plan)
        if not step.is_resolved:
            return False
        steps = list(plan.steps)
        pos = len(steps) if critique.index is None else max(0, min(len(steps), critique.index))
        if _only_undoes(step, steps[:pos]) is not None:
            return False
        base = self._run(steps, task)
        r2 = self._run(steps[:pos] + [step] + steps[pos:], task)
        if not base.executable:
            return r2.executable or (r2.failed_index or 0) > (base.failed_index or 0) + 1
        return r2.executable and self._met(r2, task) > self._met(base, task)
