"""Corrective steps for a PDDL action whose preconditions are false (CAPE, Raman et al. 2024:
re-plan from the unmet precondition), shared by the planner's affordance (:mod:`.planning`) and the
sim judge's adapter (:mod:`.verify_adapter`).

:func:`establish` makes a grounded action applicable with at most ``budget`` inserted actions:

1. take the first false precondition; if it is an atom ``(p x)`` (or ``(not (p x))``), its
   *achievers* are the grounded actions whose plain effects make it true (false), fewest false
   preconditions first; an achiever that is not applicable is itself established first
   (recursively, inside the same budget);
2. a precondition of another shape (``or``, a comparison) takes the applicable action after which
   the fewest of the action's preconditions are false, if fewer than now;
3. repeat until the action is applicable; a chain that returns to a state it passed is not taken.

Everything runs in unified-planning's simulator (:class:`~.model.PddlTask`); only the grounded
actions' effects are read to find achievers.
"""

from __future__ import annotations

Key = tuple  # (action name, (object, ...))

#: achievers of one precondition tried at most (per level of the recursion)
MAX_ACHIEVERS = 4


class Repairer:
    """:func:`establish` over one problem, with the achiever index and per-state caches.

    Args:
        task: a :class:`~.model.PddlTask`.
    """

    def __init__(self, task):
        self.task = task
        self._index: dict | None = None
        self._applicable: dict = {}

    def applicable(self, state) -> list[Key]:
        """Applicable grounded actions in ``state`` (cached per state)."""
        k = self.task.key(state)
        if k not in self._applicable:
            if len(self._applicable) > 100_000:
                self._applicable.clear()
            self._applicable[k] = self.task.applicable_actions(state)
        return self._applicable[k]

    def _achievers(self, cond) -> list[Key] | None:
        if self._index is None:
            idx: dict = {}
            for key in self.task.actions:
                for fe, value in self.task.plain_effects(*key) or ():
                    idx.setdefault((fe, value), []).append(key)
            self._index = idx
        if cond.is_fluent_exp():
            return self._index.get((cond, True), [])
        if cond.is_not() and cond.args[0].is_fluent_exp():
            return self._index.get((cond.args[0], False), [])
        return None

    def establish(self, key: Key, state, budget: int, visited: set | None = None) -> tuple[list[Key], object] | None:
        """``(inserted actions, state after them)`` such that ``key`` is applicable there, with at
        most ``budget`` actions (``([], state)`` when it already is); ``None`` if none found."""
        t = self.task
        visited = set(visited or ()) | {t.key(state)}
        chain: list[Key] = []
        s = state
        while not t.applicable(s, *key):
            room = budget - len(chain)
            if room <= 0:
                return None
            fix = self._fix(key, s, room, visited)
            if fix is None:
                return None
            steps, s = fix
            chain += steps
            visited.add(t.key(s))
        return chain, s

    def _fix(self, key: Key, s, room: int, visited: set):
        t = self.task
        unmet = t.unmet(s, *key)
        for cond in unmet:
            achs = self._achievers(cond)
            if achs is None:
                continue
            ranked = sorted((a for a in achs if a != key), key=lambda a: len(t.unmet(s, *a)))
            for a in ranked[:MAX_ACHIEVERS]:
                sub = ([], s) if t.applicable(s, *a) else (
                    self.establish(a, s, room - 1, visited) if room > 1 else None)
                if sub is None:
                    continue
                pre, s2 = sub
                s3 = t.apply(s2, *a)
                if t.key(s3) in visited or len(pre) + 1 > room:
                    continue
                return pre + [a], s3
        n = len(unmet)  # no atom to achieve: the applicable action that leaves fewest false
        best = None
        for a in self.applicable(s):
            if a == key:
                continue
            s2 = t.apply(s, *a)
            if t.key(s2) in visited:
                continue
            m = len(t.unmet(s2, *key))
            if m < n and (best is None or m < best[0]):
                best = (m, [a], s2)
        return None if best is None else (best[1], best[2])


__all__ = ["Repairer", "MAX_ACHIEVERS"]
