"""Order repair in the simulator-grounded judge (issue 26): two adjacent steps in the wrong order,
a step written a few steps too late, and the plan's own later copy of an inserted precondition are
*moved* (one REMOVE where the step stands and one MISSING where it belongs, rule T3 of
benchmarks/data/verify_new), at cost :data:`~actionable.verify.grounded.MOVE`, instead of being
removed or copied.

:class:`OrderRepair` is a mixin of :class:`~actionable.verify.grounded.SimulatorJudge` (it uses the
judge's ``_run``, ``_met``, ``_goal_result``, ``_replaced`` and ``name``); split out of grounded.py
(7 Dec, eighth session), which had passed 770 lines.
"""

from __future__ import annotations

from actionable.core.program import Step
from actionable.verify.base import NAVIGATION, POSTURE_ACTIONS, mentions, undoes
from actionable.verify.critique import Critique, CritiqueKind

#: how far after the failing step a plan's own copy of an inserted precondition may stand to be
#: read as the same step written too late (a move, not an extra step)
LATE_WINDOW = 5


def _plan_own(new: list[Step], entries, k: int) -> list[list[Step]]:
    """The insertions to try for ``new``, in order: for one navigation step to an object, first the
    plan's own later navigation step to that object, when one stands within :data:`LATE_WINDOW`
    steps after the failing step ``k`` (``FIND <table>`` written after the ``PULL <table>`` it
    serves: moved up, not a new ``WALK``), then ``new`` itself."""
    if len(new) != 1 or new[0].action not in NAVIGATION or not new[0].args:
        return [new]
    target = new[0].args[0].id
    own = next((st for o, st in entries[k + 1:k + 1 + LATE_WINDOW]
                if o is not None and st.action in NAVIGATION and st.args and st.args[0].id == target), None)
    return [[own], new] if own is not None and own != new[0] else [new]


def _goes_back(new: list[Step], before: list[Step]) -> bool:
    """Whether ``new`` is one navigation step to an object that a step in ``before`` already
    navigated to (the agent had been there: a step moved later led it away, an order slip rather
    than a forgotten step)."""
    return (len(new) == 1 and new[0].action in NAVIGATION and bool(new[0].args)
            and any(b.action in NAVIGATION and b.args and b.args[0].id == new[0].args[0].id for b in before))


def _only_undoes(new: Step, prefix: list[Step]) -> int | None:
    """Index of the earlier step in ``prefix`` that ``new`` would only undo (its effect
    unused since), or ``None``."""
    for j in range(len(prefix) - 1, -1, -1):
        e = prefix[j]
        if undoes(new, e):
            return j
        if new.action in POSTURE_ACTIONS | {"STANDUP"}:
            if e.action not in NAVIGATION:
                return None  # the posture was used
        elif new.args and mentions(e, new.args[0]) and e.action not in NAVIGATION:
            return None
    return None


class OrderRepair:
    """Order repairs of :class:`~actionable.verify.grounded.SimulatorJudge` (a mixin)."""

    def _drop_late_copy(self, entries, pos: int, n_new: int, k: int, task, crits) -> None:
        """After inserting one step before the failing step, the same step of the plan a little
        later (within :data:`LATE_WINDOW` steps after the failing one) is where the author wrote it
        too late: it goes (one REMOVE where it stands, with the MISSING just added: a move, rule T3
        of benchmarks/data/verify_new) when the plan without it runs as far and meets as many goal
        conditions as with it."""
        if n_new != 1:
            return
        new = entries[pos][1]
        at = k + n_new
        late = next((m for m in range(at + 1, min(len(entries), at + 1 + LATE_WINDOW))
                     if entries[m][0] is not None and entries[m][1] == new), None)
        if late is None:
            return
        steps = [s for _, s in entries]
        with_it, without = self._run(steps, task), self._run(steps[:late] + steps[late + 1:], task)
        reach = lambda r: len(steps) if r.executable else (r.failed_index or 0)  # noqa: E731
        # each one as good (a tuple comparison would let the longer reach hide a lost goal)
        if (without.executable < with_it.executable or reach(without) + 1 < reach(with_it)
                or self._met(without, task) < self._met(with_it, task)):
            return
        orig, st = entries.pop(late)
        self._replaced.add(orig)  # moved, not removed: a walk that led to it still serves
        crits.append(Critique(CritiqueKind.REMOVE, orig, st.to_script(),
                              f"misplaced: {st.to_text()} is needed before step {entries[at][0] + 1 if entries[at][0] is not None else '?'}, "
                              "where it was added; here it comes too late", st, self.name))

    def _move_back(self, entries, k: int, task, crits) -> bool:
        """Order repair for a step written late (cost :data:`MOVE`): the failing step ``k`` of the
        plan is moved back to right after the plan's last earlier navigation to its object (``FIND
        <glass>`` ... ``GRAB <glass>`` written after a walk elsewhere), when the whole plan then
        executes and meets every goal condition. One REMOVE (where it stands) and one MISSING
        (where it belongs), rule T3 of benchmarks/data/verify_new. Returns whether it moved."""
        steps = [s for _, s in entries]
        x = steps[k]
        if entries[k][0] is None or not x.args or x.action in NAVIGATION:
            return False
        nav = next((i for i in range(k - 2, -1, -1) if steps[i].action in NAVIGATION and steps[i].args
                    and steps[i].args[0].id == x.args[0].id), None)
        if nav is None:
            return False
        if not self._succeeds(steps[:nav + 1] + [x] + steps[nav + 1:k] + steps[k + 1:], task):
            return False
        anchor = next((o for o, _ in entries[nav + 1:] if o is not None), None)
        self._record_move(crits, x, entries[k][0], anchor,
                          f"misplaced: {x.to_text()} belongs right after {steps[nav].to_text()}; moved there, the "
                          "plan executes and meets every goal condition")
        entries[nav + 1:k + 1] = [(None, x)] + entries[nav + 1:k]
        return True

    def _succeeds(self, steps: list[Step], task) -> bool:
        """The plan ``steps`` executes and meets every goal condition (an order repair's test)."""
        r = self._run(steps, task)
        g = self._goal_result(r, task) if r.executable else None
        return g is not None and g.task_success

    def _record_move(self, crits, step: Step, moved_from: int, anchor, why: str) -> None:
        """A move of the plan's step ``moved_from`` (0-based) to before the plan's step ``anchor``:
        one REMOVE and one MISSING (rule T3 of benchmarks/data/verify_new); the step is marked
        replaced, not removed (a walk that led to it still serves)."""
        crits.append(Critique(CritiqueKind.REMOVE, moved_from, step.to_script(), why, step, self.name))
        crits.append(Critique(CritiqueKind.MISSING, anchor, step.to_script(), why, step, self.name))
        self._replaced.add(moved_from)

    def _exchange(self, entries, k: int, task, crits, same_object: bool = False) -> bool:
        """Order repair (cost :data:`MOVE`, tried before insertions): two adjacent steps of the plan
        at or next to the failing step ``k`` are in the wrong order when exchanging them makes the
        whole plan execute and meet every goal condition (the prerequisite came too late: ``WALK``
        after ``SIT`` on the same couch, ``TURNTO`` after the ``WATCH`` that needs it). The later
        step is moved before the earlier one: one REMOVE (where it stands) and one MISSING (where
        it belongs), rule T3 of benchmarks/data/verify_new; an exchange that moves a navigation
        step is tried first. Never an undo pair (``SWITCHON`` after
        ``SWITCHOFF`` is a contradiction, not an order slip), never a move after which the step
        would only undo an earlier one (``OPEN`` moved to right after a ``CLOSE``: that costs
        :data:`INSERT_UNDO`, and removing the ``CLOSE`` is cheaper), never with inserted steps, and only
        with goal conditions (without them a contradiction cannot be told from a slip). An insertion
        or a removal also costs 1, but would leave the misplaced step in or drop a step the plan's
        author wrote; the move keeps every step. ``same_object=True`` (tried before insertions):
        only a moved step that names an object of the step it goes before (``WALK <couch>`` before
        ``SIT <couch>``); a step on another object (``FIND <cat>`` before ``SIT <couch>``, close to
        the couch only because the cat lies there) is moved only when no insertion repairs the step
        (``same_object=False``, tried after them). Returns whether it moved a step."""
        steps = [s for _, s in entries]
        # a moved navigation step (walk, find, turn to) first: it changes where the agent is when
        # an action runs, not the order of the plan's actions
        pairs = [i for i in (k - 1, k, k - 2) if 0 <= i and i + 1 < len(steps)]
        for i in sorted(pairs, key=lambda i: steps[i + 1].action not in NAVIGATION):
            if entries[i][0] is None or entries[i + 1][0] is None:
                continue
            x, y = steps[i], steps[i + 1]
            if same_object and not any(mentions(y, a) for a in x.args):
                continue
            if x == y or undoes(x, y) or undoes(y, x) or _only_undoes(y, steps[:i]) is not None:
                continue  # moved there, y would only undo an earlier step: cost INSERT_UNDO, not MOVE
            if not self._succeeds(steps[:i] + [y, x] + steps[i + 2:], task):
                continue
            (ox, _), (oy, _) = entries[i], entries[i + 1]
            self._record_move(crits, y, oy, ox, f"misplaced: {y.to_text()} must come before {x.to_text()} "
                                                f"(step {ox + 1}); moved there, the plan executes and meets every goal condition")
            entries[i:i + 2] = [(None, y), (ox, x)]
            return True
        return False


__all__ = ["OrderRepair", "LATE_WINDOW"]
