"""Simulator judging in any :class:`~actionable.core.world.World`, through an adapter object.

The VirtualHome simulator judge (:mod:`actionable.verify.grounded`) is written against
VirtualHome's graph. This module judges plans in *any* world of :mod:`actionable.worlds`:
:class:`WorldJudge` knows only the plan (the project's :class:`~actionable.core.program.Step`
vocabulary, as every judge, the loop and the metrics use it) and a :class:`WorldAdapter`, which
holds what differs between worlds: how a step becomes a world action (and which object it binds),
what a failed precondition asks to insert, whether a failing step only asks for a state that
already holds, the world's goal predicates for a task, and a comparable summary of the final state.
Nothing here branches on a world's name; :func:`make_adapter` asks the registered world class
for its adapter (a ``verify_adapter(scene, task)`` classmethod, as ``planning_domain`` for planning).

:class:`ThorAdapter` runs plans in the THOR kitchen world (``make("thor", scene=...)``), from a
TEACh episode's own initial state (``teach:<game>``) or an ALFRED floor plan. Steps map to TEACh
actions: ``GRAB x`` -> ``PickUp``, ``PUTBACK/PUTIN x r`` -> ``Place(r)`` (the held object must be
an ``x``), ``POUR x r`` -> ``Pour(r)``, ``SWITCHON/SWITCHOFF`` -> ``ToggleOn/ToggleOff``, ``OPEN``,
``CLOSE``, ``CUT`` -> ``Slice``, ``WIPE`` -> ``Clean``, ``WALK`` -> ``GotoLocation``. TEACh plans
carry no walks (motion is not modelled), so before an action on an object out of reach the adapter
steps ``GotoLocation(<object>)``, as the world's own TEACh replay does. Class names bind to object
ids at replay time: the id a name was bound to before, else the held object, else reachable and
accessible instances first, then the rest by id, trying each until the action executes (a failed
``World.step`` leaves the state unchanged); a pick-up tries last the objects already standing
where the plan later puts that class ("Put all X on Y" moves an X that is not on a Y yet); types
absent from the scene fall back to aliases (``sink`` -> ``SinkBasin``, ``table`` ->
``DiningTable``/``CoffeeTable``/``SideTable``/``Desk``, ...). The THOR adapter lives in
:mod:`actionable.worlds.thor.verify_adapter`.

Minimal edits (the cost model of :mod:`actionable.verify.grounded`, same constants):

1. *precondition repair*, at the first failing step, cheapest first: remove the failing step when
   it only asks for a state that already holds (``ToggleOn`` of what is on; cost 1); insert what
   the unmet precondition names (``opened(Fridge)`` -> ``OPEN fridge``; not holding the object to
   place or pour -> ``GRAB x``; cost 1, or 3 when the insertion only undoes an earlier step, e.g.
   ``GRAB x`` right after ``PUTBACK x``); remove the earlier step it would undo instead (cost 1);
   remove the failing step (cost 3; 5 when it names an object of the goal text).
2. *goals*: the world's goal predicates for the task (``ThorWorld.goals``: Make coffee, Boil water,
   Water the plant; TEACh's "Put all X on one Y", "Clean all X" and "Boil X" descriptions are read
   too) are checked and reported; a removal never lowers the number met. Unmet goals are
   reported, not repaired.
3. *relevance*: groups of steps removed when the plan without them still executes, meets every
   goal it met, and **ends in the same final state** (agent pose aside): a step repeating the
   previous one, an undo pair (``ToggleOn..ToggleOff``, ``Open..Close``, either order, no step
   between naming the object), an object put down and picked up again with nothing between that
   names it, an object picked up and put back where it was; and, where the final state differs
   only in the moved object, the pick-up and placement (or a pick-up never used) of an object that
   the goal text does not name. Detours (put down, picked up again) are tried before the whole
   move they interrupt; the steps kept stay bound to the objects they acted on in the plan (a
   removal never re-binds them, :meth:`ThorAdapter.replay` ``bind``); a device whose running acts
   on other objects (faucet, stove, microwave, toaster, coffee machine) switched on and off again
   is a use, not an undo pair; a precondition inserted in phase 1 for a step removed here is
   withdrawn.
"""

from __future__ import annotations

import re
from typing import Sequence

from actionable.core.program import Program, Step
from actionable.core.replay import WorldAdapter, WorldReplay, judge_kind
from actionable.grounding.objects import compact_name
from actionable.core.errors import ConfigError, InputError
from actionable.verify.base import INVERSE_ACTIONS, PUT_ACTIONS, JudgeResult, VerifyTask, mentions, same_object
from actionable.verify.critique import Critique, CritiqueKind
from actionable.verify.grounded import INSERT, INSERT_UNDO, REMOVE_CAUSE, REMOVE_FAILING
from actionable.verify.relevance import _named_by_goal, reason_for

__all__ = ["WorldReplay", "WorldAdapter", "WorldJudge", "make_adapter", "verify_route",
           "world_undoes"]


def world_undoes(later: Step, earlier: Step) -> bool:
    """``later`` only undoes ``earlier``: an inverse toggle/open pair on one object, a pick-up of
    what ``earlier`` put down, or a put-down of what ``earlier`` picked up."""
    inv = INVERSE_ACTIONS.get(earlier.action)
    if inv is not None and later.action == inv and later.args and same_object(later.args[0], earlier.args[0]):
        return True
    if later.action == "GRAB" and earlier.action in PUT_ACTIONS:
        return same_object(later.args[0], earlier.args[0])
    if later.action in PUT_ACTIONS and earlier.action == "GRAB":
        return same_object(later.args[0], earlier.args[0])
    return False



_norm = compact_name


def _verify_capability(env: str):
    """World ``env``'s ``verify`` capability, or None (also when an optional world's extra is not
    installed, or it declares none)."""
    from actionable.core.registry import list_worlds, spec

    if env not in list_worlds("verify"):
        return None
    try:
        return spec(env).capability("verify")
    except ImportError:
        return None


def make_adapter(env: str, scene: str, task: str | None = None) -> WorldAdapter:
    """The adapter of world ``env`` on ``scene``: its ``verify`` capability called as
    ``(scene, task)`` (THOR: :class:`actionable.worlds.thor.verify_adapter.ThorAdapter`).

    Raises:
        ConfigError: no adapter for ``env`` (the message lists the worlds that have one).
        UnknownSceneError: the world does not know ``scene``.
    """
    from actionable.core.registry import list_worlds

    fn = _verify_capability(env)
    if fn is None or judge_kind(fn) != "adapter":
        have = [w for w in list_worlds("verify") if judge_kind(_verify_capability(w)) == "adapter"]
        raise ConfigError(f"no plan-verification adapter for world {env!r}; choose one of "
                          f"{', '.join(have)} (or the default VirtualHome simulator)")
    return fn(scene, task)


def verify_route(env: str) -> str:
    """How ``actionable verify --env <env>`` judges a plan, from the world's ``verify`` capability
    (never its name): ``"adapter"`` (:class:`WorldJudge` through the adapter it makes) or
    ``"graph"`` (the scene-graph judge of :mod:`actionable.verify.grounded`), by the capability's
    ``judge_kind`` (:func:`actionable.core.replay.judge_kind`).

    Raises:
        ConfigError: ``env`` is not a registered world, or a world that does not verify (the
            message lists the worlds that do).
    """
    from actionable.core.registry import list_worlds

    if env not in list_worlds():
        raise ConfigError(f"--env: unknown world {env!r}; choose one of {', '.join(list_worlds())}")
    cap = _verify_capability(env)
    if cap is not None:
        return judge_kind(cap)
    able = [w for w in list_worlds("verify") if _verify_capability(w) is not None]
    raise ConfigError(f"--env {env}: no plan-verification adapter; choose one of {', '.join(able)}")


# ---------------------------------------------------------------------------- judge
def _changed(a: dict, b: dict) -> set:
    return {k for k in a.keys() | b.keys() if a.get(k) != b.get(k)}


class WorldJudge:
    """Minimal-edit simulator judge over a :class:`WorldAdapter` (see the module doc).

    ``judge(plan, task) -> JudgeResult``; ``confirms_remove`` / ``confirms_missing`` let
    :class:`~actionable.verify.judge.HybridJudge` filter an LLM's critiques with it. ``task.goal``
    (and ``task.program_id``, read as the task name when given) select the goal predicates.
    Cost: O(groups + repairs) replays of the plan, about 4 ms each in a TEACh kitchen.
    """

    name = "sim"

    def __init__(self, adapter: WorldAdapter, max_repairs: int = 10):
        self.adapter = adapter
        self.max_repairs = max_repairs
        self._goal_cache: dict = {}
        self._serves: dict[int, int | None] = {}  # inserted step -> the plan step it is a precondition of

    def _goals(self, task: VerifyTask):
        key = (task.goal, task.program_id)
        if key not in self._goal_cache:
            self._goal_cache[key] = self.adapter.goals(task.goal, task.program_id)
        return self._goal_cache[key]

    def _run(self, steps, task, bind=None) -> WorldReplay:
        if bind is None:
            return self.adapter.replay(list(steps), self._goals(task)[0])
        return self.adapter.replay(list(steps), self._goals(task)[0], bind=bind)

    def _names_goal(self, step: Step, task) -> bool:
        """An argument's class is named by the goal text (plural ``s``/``es`` ignored: "Cloths",
        "Plates"; an instance number too: ``watch2`` is a watch)."""
        low = task.goal.lower()
        singular = [" ".join(re.sub(suffix, "", w) for w in low.split()) for suffix in (r"(?<=[a-z])s\b",
                                                                                         r"(?<=[a-z])es\b")]
        names = {n for a in step.args for n in (a.name, re.sub(r"\d+$", "", a.name))}
        return any(_named_by_goal(n, t) for n in names for t in (task.goal, *singular))

    def _serves_goal(self, steps: list[Step], k: int, task) -> bool:
        """``steps[k]`` names an object of the goal text and no later step repeats its action on
        its object (then the later one is what serves)."""
        st = steps[k]
        return self._names_goal(st, task) and not any(
            t.action == st.action and t.args[:1] == st.args[:1] for t in steps[k + 1:])

    # --- phase 1
    def _repair(self, entries, task, crits, notes) -> None:
        n_plan = sum(o is not None for o, _ in entries)
        for _ in range(self.max_repairs):
            steps = [s for _, s in entries]
            rep = self._run(steps, task)
            if rep.executable:
                return
            k = rep.failed_index
            cands: list = []
            red = self.adapter.already(steps[k], rep)
            if red and entries[k][0] is not None:
                cands.append((REMOVE_CAUSE, 0, "remove", k, f"redundant: {red}"))
            for pos, new, why in self.adapter.fixes(steps, k, rep):
                prefix = steps[:pos]
                undo = next((j for j in range(len(prefix) - 1, -1, -1) if world_undoes(new[0], prefix[j])), None)
                cands.append((INSERT_UNDO if undo is not None else INSERT * len(new), len(cands), "insert",
                              (pos, new), why))
                if undo is not None and entries[undo][0] is not None:
                    cands.append((REMOVE_CAUSE, len(cands), "remove", undo,
                                  f"contradictory: step {entries[k][0] + 1} needs what it undoes ({why})"
                                  if entries[k][0] is not None else f"contradictory: undone by a needed step ({why})"))
            if rep.held is not None:  # an object picked up and never used, filling the hand
                j = next((j for j in range(k - 1, -1, -1) if steps[j].action == "GRAB"
                          and steps[j].args[0].name == rep.held), None)
                if j is not None and entries[j][0] is not None and not any(
                        mentions(t, steps[j].args[0]) for t in steps[j + 1:]):
                    cands.append((REMOVE_CAUSE, len(cands), "remove", j,
                                  f"redundant: {rep.held} is picked up and never used (and step "
                                  f"{(entries[k][0] or 0) + 1} fails while it is held)"))
            if entries[k][0] is not None and not self._serves_goal(steps, k, task):
                cands.append((REMOVE_FAILING, 1000, "remove", k, f"cannot execute ({rep.error or 'precondition fails'})"))
            done = False
            for cost, _, kind, payload, why in sorted(cands, key=lambda c: (c[0], c[1])):
                if kind == "insert":
                    pos, new = payload
                    r2 = self._run(steps[:pos] + new + steps[pos:], task)
                    if not (r2.executable or r2.failed_index > k + len(new)):
                        continue
                    anchor = next((o for o, _ in entries[pos:] if o is not None), n_plan)
                    for st in new:
                        crits.append(Critique(CritiqueKind.MISSING, anchor, st.to_script(),
                                              f"precondition: {why}", st, self.name))
                    entries[pos:pos] = [(None, st) for st in new]
                    self._serves.update({id(st): entries[k + len(new)][0] for st in new})
                    done = True
                    break
                j = payload
                if j != k:
                    r2 = self._run(steps[:j] + steps[j + 1:], task)
                    if not (r2.executable or r2.failed_index >= k):
                        continue
                o, st = entries.pop(j)
                crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(), why, st, self.name))
                done = True
                break
            if not done:
                if entries[k][0] is not None:  # a goal step with no repair: kept, reported
                    notes.append(f"step {entries[k][0] + 1} ({steps[k].to_script()}) serves the goal but cannot "
                                 f"execute ({rep.error}); no edit repairs it, so it is kept")
                    return
                entries.pop(k)
                notes.append(f"dropped an inserted step that does not execute: {steps[k].to_script()}")
        notes.append(f"plan still fails after {self.max_repairs} repairs")

    # --- phase 3
    def groups(self, steps: list[Step], task, strict: bool = True) -> list[tuple[set[int], str | dict[int, str], bool]]:
        """Candidate groups ``(indices, reason, loose)``; ``loose`` groups may change the final
        state of the moved object itself (an object the goal text does not name)."""
        out: list[tuple[set[int], str | dict[int, str], bool]] = []
        n = len(steps)
        for i in range(1, n):
            if steps[i] == steps[i - 1]:
                out.append(({i}, "repeats the previous action", False))
            elif not strict and steps[i] in steps[:i - 1]:
                out.append(({i}, "repeats an earlier action", False))
        later: list[tuple[set[int], str | dict[int, str], bool]] = []  # whole pick-up/put-down moves
        uses = getattr(self.adapter, "use_devices", frozenset())
        undoes = getattr(self.adapter, "undoes", None)  # optional: the world's own undo pairs
        for i, s in enumerate(steps):
            for j in range(i + 1, n):
                t = steps[j]
                if s.args and mentions(t, s.args[0]):
                    if undoes is not None and undoes(t, s):
                        out.append(({i, j}, {i: f"{s.to_text()} is undone by step {j + 1}",
                                             j: f"{t.to_text()} only undoes step {i + 1}"}, False))
                    elif world_undoes(t, s) and s.action in INVERSE_ACTIONS:
                        if not (s.action in ("SWITCHON", "SWITCHOFF") and _norm(s.args[0].name) in uses):
                            out.append(({i, j}, {i: f"{s.to_text()} is undone by step {j + 1}",
                                                 j: f"{t.to_text()} only undoes step {i + 1}"}, False))
                    elif s.action in PUT_ACTIONS and t.action == "GRAB":
                        out.append(({i, j}, {i: f"{s.args[0].name} is put down and picked up again by step "
                                                f"{j + 1}",
                                             j: f"{t.to_text()} only picks up again what step {i + 1} put "
                                                "down"}, False))
                    elif s.action == "GRAB" and t.action in PUT_ACTIONS and t.args[0] == s.args[0]:
                        loose = not self._names_goal(s, task)
                        later.append(({i, j}, f"{s.args[0].name} is picked up and put down (step {j + 1}) "
                                      + ("for nothing" if not loose else "but the task does not need it"), loose))
                    break
            else:
                if s.action == "GRAB":
                    later.append(({i}, f"{s.args[0].name} is picked up and never used",
                                  not self._names_goal(s, task)))
        out += later  # a detour (put down, pick up again) is removed before the move it interrupts
        implicit = getattr(self.adapter, "implicit_navigation", None)
        for i in range(n):
            why = f"{steps[i].to_text()} changes nothing the plan or the goal needs"
            # a walk (the adapter would need it right before an action on its object) in a world
            # whose verifier navigates by itself: say so, the replay alone cannot show it is needed
            if implicit and getattr(self.adapter, "walk_needed", None) and steps[i].args and \
                    self.adapter.walk_needed(steps[i], Step("GRAB", steps[i].args[:1])):
                why += f" (no step right after it acts on {steps[i].args[0].name}; {implicit})"
            out.append(({i}, why, False))
        return out

    def _walk_kept(self, steps: list[Step], gone: set) -> bool:
        """A step of ``gone`` is a walk the next kept step needs (:meth:`WorldAdapter.walk_needed`,
        optional: worlds whose verifier navigates implicitly keep the walks a plan has)."""
        need = getattr(self.adapter, "walk_needed", None)
        if need is None:
            return False
        for k in gone:
            nxt = next((steps[j] for j in range(k + 1, len(steps)) if j not in gone), None)
            if nxt is not None and need(steps[k], nxt):
                return True
        return False

    def _accept(self, steps, drop, group, loose, task, base: WorldReplay) -> bool:
        gone = drop | group
        if self._walk_kept(steps, gone):
            return False
        kept = [k for k in range(len(steps)) if k not in gone]
        ids = base.bound_ids  # the other steps keep the objects they acted on in the plan
        rep = self._run([steps[k] for k in kept], task, [ids[k] if k < len(ids) else None for k in kept])
        if base.executable:
            if not rep.executable or rep.goals_met < base.goals_met:
                return False
        else:  # judged up to the failing step, which must still be where the plan stops
            fk = base.failed_index
            if max(gone) >= fk or rep.executable or rep.failed_index != fk - len(gone):
                return False
        diff = _changed(rep.outcome, base.outcome)
        if not diff:
            return True
        if not loose:
            return False
        names = {steps[k].args[0].name for k in group if steps[k].args}
        diff.discard("held")
        return all(self.adapter.type_name(i) == "floor" or _norm(self.adapter.type_name(i)) in
                   {_norm(n) for n in names} for i in diff)

    def _relevance(self, entries, task, crits) -> None:
        steps = [s for _, s in entries]
        base = self._run(steps, task)
        drop: set[int] = set()
        for group, why, loose in self.groups(steps, task):
            if group & drop or any(entries[k][0] is None for k in group):
                continue
            if self._accept(steps, drop, group, loose, task, base):
                drop |= group
                for k in sorted(group):
                    o, st = entries[k]
                    crits.append(Critique(CritiqueKind.REMOVE, o, st.to_script(),
                                          f"redundant: {reason_for(why, k)}", st, self.name))

    def _drop_orphans(self, entries, task, crits) -> None:
        """A precondition inserted for a step that the relevance phase then removed serves nothing:
        its MISSING critique is withdrawn when the plan executes without it and meets as many goals."""
        gone = {c.index for c in crits if c.kind is CritiqueKind.REMOVE}
        orphans = [st for o, st in entries if o is None and self._serves.get(id(st)) in gone]
        if not orphans:
            return
        keep = [st for o, st in entries if o not in gone or o is None]
        base = self._run(keep, task)
        rest = [st for st in keep if not any(st is x for x in orphans)]
        rep = self._run(rest, task)
        if base.executable and rep.executable and rep.goals_met >= base.goals_met:
            crits[:] = [c for c in crits if not any(c.step is x for x in orphans)]

    # --- API
    def judge(self, plan: Program, task: VerifyTask) -> JudgeResult:
        """Critiques of ``plan`` (0-based indices); warnings say which goal conditions were checked
        and how many hold after the edits."""
        if not len(plan):
            return JudgeResult((), ("empty plan: nothing to judge",))
        goals, note = self._goals(task)
        entries: list[tuple[int | None, Step]] = list(enumerate(plan.steps))
        crits: list[Critique] = []
        notes = [f"{note} (world {getattr(self.adapter.world, 'id', '?')}, scene {self.adapter.scene})"]
        self._serves: dict[int, int | None] = {}
        self._repair(entries, task, crits, notes)
        self._relevance(entries, task, crits)
        self._drop_orphans(entries, task, crits)
        if goals:
            rep = self._run([s for _, s in entries], task)
            notes.append(f"goals met {'after the edits' if crits else '(no edits)'}: {rep.goals_met} of "
                         f"{rep.goals_total}")
        crits.sort(key=lambda c: (c.index if c.index is not None else len(plan), c.kind.value))
        return JudgeResult(tuple(crits), tuple(notes), goal_conditions=tuple(g.text for g in goals))

    def outcomes(self, plans, task: VerifyTask):
        """Each of ``plans`` replayed through the adapter with the task's goal predicates (the
        revision guard's referee, :mod:`actionable.verify.guard`): a list of
        :class:`~actionable.verify.base.PlanOutcome` (the plans unchanged: the adapter binds
        class names at replay time)."""
        from actionable.verify.base import PlanOutcome

        out = []
        for p in plans:
            r = self._run(list(p.steps), task)
            out.append(PlanOutcome(r.executable, r.goals_met, r.goals_total, p, r.failed_index, r.error))
        return out

    def confirms_remove(self, plan: Program, task: VerifyTask, index: int | None) -> bool:
        """Removing ``plan[index]`` (with its group) keeps the plan executable, its goals and its
        final state (see :meth:`groups`, weak signals included)."""
        if index is None or not 0 <= index < len(plan):
            return False
        steps = list(plan.steps)
        base = self._run(steps, task)
        return any(self._accept(steps, set(), g, loose, task, base)
                   for g, _, loose in self.groups(steps, task, strict=False) if index in g)

    def confirms_missing(self, plan: Program, task: VerifyTask, critique: Critique) -> bool:
        """Inserting the critique's step lets a failing plan run further, or meets more goals."""
        if critique.step is None:
            return False
        steps = list(plan.steps)
        pos = len(steps) if critique.index is None else max(0, min(len(steps), critique.index))
        if any(world_undoes(critique.step, p) for p in steps[max(0, pos - 1):pos]):
            return False
        base = self._run(steps, task)
        r2 = self._run(steps[:pos] + [critique.step.unresolved()] + steps[pos:], task)
        if not base.executable:
            return r2.executable or (r2.failed_index or 0) > (base.failed_index or 0) + 1
        return r2.executable and r2.goals_met > base.goals_met


def read_world_plan(adapter: WorldAdapter, text: str) -> tuple[Program, list[str]]:
    """A plan file in the world's language (one action a line; ``#`` comments, speech and motion
    lines are skipped with a note) -> ``(Program, notes)``.

    Raises:
        InputError: a line that is not an action (names the line), or no action at all.
    """
    from actionable.core.errors import ProgramParseError
    from actionable.verify.planfile import _NOTE, _NUMBERED, _task_of, is_listing

    steps, notes, held = [], [], None
    listing = is_listing(text)  # `plan`'s human output: only its numbered lines are steps
    lines = text.splitlines()
    for n, ln in enumerate(lines, 1):
        if listing:
            m = _NUMBERED.match(ln)
            if not m or "(not an admissible action" in m.group(2):
                continue  # Task: header, verdicts, goal check, warnings, stop line
            ln = _NOTE.sub("", m.group(2))
        raw = ln.strip().rstrip(",")
        if not raw or raw.startswith("#"):
            continue
        raw = re.sub(r"^\s*\d+\s*[.):]\s*", "", raw).strip().strip('"')
        try:
            st = adapter.parse_line(raw, held)
        except ProgramParseError as exc:
            raise InputError(f"line {n}: cannot read {raw[:80]!r} as an action ({exc}); write e.g. "
                             "'PickUp(Mug)', 'Place(CounterTop)', 'ToggleOn(Faucet)', 'Pour(Sink)'") from None
        if st is None:
            notes.append(f"line {n} ({raw[:40]}) is speech or motion; skipped")
            continue
        if st.action == "GRAB":
            has = getattr(adapter, "has_object", None)
            if has is None or has(st.args[0].name):  # an absent object is never in hand
                held = st.args[0].name
        elif st.action in PUT_ACTIONS:
            held = None
        steps.append(st)
    if not steps:
        raise InputError("the plan holds no action; write one action a line, e.g. 'PickUp(Mug)'")
    return Program(tuple(steps), _task_of(lines)), notes
