"""Re-grounding in the simulator-grounded judge (issue 26): a step that names a wrong or absent
instance, or an instance the goal conditions do not name while they name another of its class, is
re-bound to the right instance as an edit of cost :data:`~actionable.verify.grounded.REGROUND` an
object (REMOVE + MISSING each re-bound step, with the reason), instead of being deleted.

:class:`Regrounding` is a mixin of :class:`~actionable.verify.grounded.SimulatorJudge` (it uses the
judge's ``_run``, ``_met``, ``_goal_result``, ``_replaced`` and ``name``); split out of grounded.py,
which had passed 900 lines.
"""

from __future__ import annotations

from actionable.core.program import Step
from actionable.verify.critique import Critique, CritiqueKind
from actionable.verify.replay import StateView


def _runs_past(res, index: int) -> bool:
    """The replay executed steps ``0..index`` (it ran to the end, failed later, or stopped on
    request after ``index``)."""
    return res.executable or not getattr(res, "complete", True) or (
        res.failed_index is not None and res.failed_index > index)


def _goal_nodes(spec) -> set[int]:
    """Node ids named by goal conditions (empty without a spec)."""
    if spec is None:
        return set()
    ids = {g.node_id for g in spec.states}
    for g in spec.relations:
        ids |= {g.from_id, g.to_id}
    return ids


def _last_visit(steps: list[Step], y) -> int | None:
    """Where the plan's last visit to node ``y`` starts: a walk to or find of ``y`` after a step
    that acted on ``y`` (the plan went back to it; a turn to it is no new visit); ``None`` when the
    plan visits ``y`` once."""
    start, acted = None, False
    for k, st in enumerate(steps):
        if not any(b.id == y for b in st.args):
            continue
        if st.action in ("WALK", "RUN", "FIND"):
            if acted:
                start, acted = k, False
        else:
            acted = True
    return start


class Regrounding:
    """Re-grounding edits of the simulator-grounded judge (see the module doc)."""

    def _rebind(self, entries, new_steps: list[Step], why: str, crits) -> None:
        """Apply a re-grounding: every step that ``new_steps`` changes replaces its entry, and each
        such step of the plan is one REMOVE (as written) and one MISSING (re-bound) at its place,
        marked replaced (a walk that led to it still serves)."""
        for idx, (o, st) in enumerate(entries):
            if new_steps[idx] is st:
                continue
            entries[idx] = (None, new_steps[idx])
            if o is not None:
                self._replaced.add(o)
                crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(), why, st, self.name))
                crits.append(Critique(CritiqueKind.MISSING, o, new_steps[idx].to_script(), why,
                                      new_steps[idx], self.name))

    def _nearest(self, view: StateView, name: str, steps: list[Step]) -> int | None:
        """The instance of class ``name`` nearest the agent in ``view``: one the agent is close
        to, else one in the agent's room, else one the plan already names, else the lowest id."""
        try:
            ids = list(view.obs.nodes_of_class(name))
        except (AttributeError, KeyError):
            return None
        if not ids:
            return None
        here = view.room_of(view.char) if view.char is not None else None
        named = {a.id for st in steps for a in st.args if a.name == name}
        return min(ids, key=lambda i: (not view.close(i), view.room_of(i) != here, i not in named, i))

    def _goal_reground(self, entries, task, crits, res, met: int | None, failing: int | None = None):
        """Goal re-grounding (cost :data:`REGROUND` an object): a goal condition names node ``X``
        that no step names, while the plan acts on another node ``Y`` of ``X``'s class (the other
        lamp, the other cup), and no goal condition names ``Y``: every step naming ``Y`` is re-bound
        to ``X`` when the plan then executes and meets more goal conditions, or as many when the plan
        walks to ``Y`` (the goal step still missing is then inserted after the re-bound walk, not
        with a walk of its own beside the steps on ``Y``) (REMOVE + MISSING each re-bound step, T4 of
        benchmarks/data/verify_new). When the plan acted on ``Y`` and then walks to / finds it
        again, the last visit alone is re-bound first (7 Dec: the water poured into one pot, the
        other pot put on the stove; fewer steps changed). Returns the goal conditions met.

        With ``failing=k`` (phase 1): only a node named by the failing step ``k`` is re-bound, and
        the edit is kept when the plan then runs past step ``k``; returns whether it re-bound."""
        view = StateView(res.obs)
        steps = [s for _, s in entries]
        named = {a.id for st in steps for a in st.args}
        here = {a.id for a in steps[failing].args} if failing is not None else None
        for x in sorted(_goal_nodes(task.goal_spec) - named):
            if x not in view or x == view.char or view.is_room(x):
                continue
            cls = view.cls(x)
            for y in sorted({a.id for st in steps for a in st.args if a.id is not None and a.id != x
                             and a.id in view and view.cls(a.id) == cls and (here is None or a.id in here)}):
                def rebind(st: Step) -> Step:
                    return Step(st.action, tuple(type(b)(b.name, x) if b.id == y else b for b in st.args))

                new_steps = [rebind(st) if any(b.id == y for b in st.args) else st for st in steps]
                if failing is not None:
                    r2 = self._run(new_steps, task, until=failing)
                    if not _runs_past(r2, failing):
                        continue
                else:
                    if y in _goal_nodes(task.goal_spec):
                        continue
                    # the plan's last visit to Y alone first (7 Dec): when the plan used Y for an
                    # earlier part of the task (poured water into the pot) and went back to it
                    # later (the pot put on the stove), only the later visit is re-bound if that
                    # meets the goals (fewer steps changed)
                    last = _last_visit(steps, y)
                    tries = [[rebind(st) if k >= last and any(b.id == y for b in st.args) else st
                              for k, st in enumerate(steps)]] if last is not None else []
                    for cand in tries + [new_steps]:
                        r2 = self._run(cand, task)
                        # as many goals met (not more) is enough when the plan goes to Y (a walk or
                        # find of Y): re-bound, it goes to X, where the goal step still missing is
                        # then inserted without a walk of its own (the same cost, and no steps left
                        # on Y)
                        goes = any(st.action in ("WALK", "RUN", "FIND") and st.args[0].id == y for st in steps)
                        got = self._met(r2, task) if r2.executable else -1
                        if got > met or (goes and got == met):
                            new_steps = cand
                            break
                    else:
                        continue
                why = (f"re-grounded: the goal names <{cls}> ({x}), the plan acts on <{cls}> ({y}); "
                       f"every step naming ({y}) re-bound to ({x})")
                self._rebind(entries, new_steps, why, crits)
                if failing is not None:
                    return True
                met = self._met(r2, task)
                steps = new_steps
                break
        return False if failing is not None else met

    def _reground(self, entries, k, res, task, crits, notes, far: bool = False) -> bool:
        """Re-grounding (cost :data:`REGROUND`, tried before any other repair): step ``k`` names a
        node id the scene lacks (``unknown_node``) or a node of another class (``unseen``); every
        step naming that ``<class> (id)`` is bound to the nearest instance of the class
        (:meth:`_nearest`) when the plan then runs past step ``k``. Each re-bound step of the plan
        is one REMOVE (the step as written) and one MISSING (the step re-bound) at its place, with
        the reason. Returns whether it re-grounded.

        With ``far=True`` (tried after the order repair, only with goal conditions): step ``k``
        names an instance in another room than the agent's, no goal condition names it, and an
        instance of its class is in the agent's room (the other television, next to the couch
        the agent lies on); the steps naming it are re-bound to that instance when the whole plan
        then executes and meets every goal condition."""
        steps = [s for _, s in entries]
        view = StateView(res.obs)
        here = view.room_of(view.char) if view.char is not None else None
        for a in steps[k].args:
            if a.id is None:
                continue
            if far:
                if (a.id not in view or view.cls(a.id) != a.name or a.id in _goal_nodes(task.goal_spec)
                        or here is None or view.room_of(a.id) == here):
                    continue
            elif a.id in view and view.cls(a.id) == a.name:
                continue
            new_id = self._nearest(view, a.name, steps)
            if new_id is None or new_id == a.id or (far and view.room_of(new_id) != here):
                continue
            what = (f"node {a.id} is in another room than the agent, <{a.name}> ({new_id}) is in its room"
                    if far else f"node {a.id} is not in the scene" if a.id not in view
                    else f"node {a.id} is <{view.cls(a.id)}>, not <{a.name}>")
            why = f"re-grounded: {what}; the nearest <{a.name}> is node {new_id}"

            def rebind(st: Step) -> Step:
                return Step(st.action, tuple(type(b)(b.name, new_id) if (b.name, b.id) == (a.name, a.id) else b
                                             for b in st.args))

            new_steps = [rebind(st) if any((b.name, b.id) == (a.name, a.id) for b in st.args) else st
                         for st in steps]
            r2 = self._run(new_steps, task, until=None if far else k)
            if not _runs_past(r2, k) or (far and not (r2.executable and self._goal_result(r2, task).task_success)):
                continue
            self._rebind(entries, new_steps, why, crits)
            notes.append(f"{why} (every step naming <{a.name}> ({a.id}) re-bound)")
            return True
        return False


__all__ = ["Regrounding"]
