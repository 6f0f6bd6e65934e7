"""Relevance signals of the simulator judge: steps that feed neither a later step nor a goal.

arXiv 2509.02761 (Sec. 6) reports where LLM judges fail: long-range
redundancy, multi-step preparation flagged as redundant, a second use of an
object removed. :func:`relevance_candidates` proposes groups of steps from
the replayed plan; the simulator judge removes a group only when the plan
without it still executes and meets every goal condition it met.

Strict signals (flagged by the simulator judge):

* a step repeating the previous one (not a navigation step: walking or turning again where the
  agent already is changes nothing, and the demonstrations do it);
* an **undo pair** in either order: establish-then-undo (SWITCHON/SWITCHOFF,
  OPEN/CLOSE, PLUGIN/PLUGOUT of one object) with only navigation between
  (work between may use the state: running water while rinsing), and
  undo-then-restore (SWITCHOFF/SWITCHON, CLOSE/OPEN, PLUGOUT/PLUGIN) with no
  step between that names the object (the undone state serves nothing);
* a grab whose object is put back exactly where it lay, only navigation between;
* an object **picked up and never used**: no later step names it, no goal
  condition names it, and the goal text does not name its class;
* a **detour**: a walk superseded by a walk to another room, and the walk
  *back* after it (to the place of the last walk before the detour);
* a walk that only led to removed steps (not when the next kept step is on the walk's own
  object; also before a non-navigation step on another object, 7 Dec);
* a walk to a piece of furniture right after a walk to its room, nothing done there, when the
  next kept walk goes to an object in another room (the wrong room and its furniture; 7 Dec).

Not copies (7 Dec): a RINSE after a WASH/SCRUB of the same object since its last rinse
(:data:`FINISHES`).

Weak signals (``strict=False``, the hybrid judge lets an LLM decide them): a
repeat of an earlier non-navigation step, and a never-used grab of an object
that the goal names.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from actionable.core.program import Step
from actionable.verify.base import INVERSE_ACTIONS, NAVIGATION, POSTURE_ACTIONS as POSTURE, PUT_ACTIONS, mentions
from actionable.verify.replay import ReplayResult, StateView

WALKS = frozenset({"WALK", "RUN"})
#: The first action of an establish-then-undo pair.
ESTABLISH = frozenset({"SWITCHON", "OPEN", "PLUGIN"})
#: Steps that put a held object down; PUTOBJBACK returns it to where it was taken from.
PUTS_DOWN = PUT_ACTIONS | {"PUTOBJBACK"}
Runner = Callable[..., ReplayResult]


class Fallback(dict):
    """Per-step reasons of a candidate group tried only when no step of it was already removed
    (the alternative to a smaller group proposed just before it)."""


def _words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]+", text.lower().replace("_", " "))}


def _named_by_goal(name: str, goal_text: str) -> bool:
    parts = set(name.lower().split("_")) | {name.lower().replace("_", "")}
    words = _words(goal_text)
    words |= {w[:-1] for w in words if len(w) > 3 and w.endswith("s")}  # "the lights": light
    words |= {w[:-2] for w in words if len(w) > 4 and w.endswith(("shes", "ches", "xes", "sses"))}  # "dishes"
    if "tv" in words:
        words.add("television")
    if "light" in words:  # a lamp is a light ("turn on the lights": the floor lamp too)
        words.add("lamp")
    return bool(parts & words) and not parts <= {"table", "room"}


def relevance_candidates(steps: list[Step], run: Runner, *, strict: bool = True,
                         goal_nodes: frozenset[int] | set[int] = frozenset(),
                         goal_text: str = "", removed_after: frozenset[int] | set[int] = frozenset(),
                         label=None, walks: bool = True) -> list[tuple[set[int], str | dict[int, str]]]:
    """Groups of step indices (0-based) that feed neither a later step nor a goal.

    Args:
        steps: resolved steps.
        run: ``run(steps, observe=None) -> ReplayResult`` (the judge's replay).
        strict: only the strict signals (see the module docstring).
        goal_nodes: node ids named by goal conditions (their grabs are kept).
        goal_text: the instruction (an object it names is not "never used").
        removed_after: indices whose next step was already removed by an earlier
            critique (a walk there led to a removed step).
        label: ``label(index) -> str`` names a step in reasons (``None``: ``"step {index + 1}"``);
            a judge that inserted steps passes the original plan's numbering.
        walks: also the walk groups (detours, walks back, walks to removed steps), judged against
            the other candidates as if they were all removed. ``False``: without them; a judge
            that checks candidates first asks :func:`walk_candidates` against the removals it
            kept (a walk is judged against the next step that stays).

    Returns:
        ``[(indices, reason)]`` in discovery order; a group is a candidate, not
        a verdict (the caller checks the removal in the simulator).
    """
    label = label or _step_label
    placements: dict[tuple[int, str], Any] = {}
    rooms: dict[int, Any] = {}

    def observe(i, s, when, sim):
        if (when == "before" and s.action == "GRAB") or (when == "after" and s.action in PUTS_DOWN):
            placements[(i, when)] = StateView(sim.observation).placement(s.args[0].id)
        if when == "before" and s.action in NAVIGATION and s.args:
            rooms[i] = StateView(sim.observation).room_of(s.args[0].id)

    res = run(steps, observe=observe)
    limit = len(steps) if res.executable else res.failed_index
    groups: list[tuple[set[int], str | dict[int, str]]] = []
    for i in range(1, limit):
        if steps[i] == steps[i - 1] and steps[i].action not in NAVIGATION:
            # (a walk or turn written twice leaves the agent where it is: the demonstrations do it,
            # and the labelled sets keep a reference's steps valid)
            groups.append(({i}, "repeats the previous action"))
        elif not strict and steps[i] in steps[:i - 1] and steps[i].action not in NAVIGATION:
            groups.append(({i}, "repeats an earlier action"))
    paired: set[int] = set()
    # Undo pairs are matched from the last step back, so that in "ON, OFF, ON" the
    # pair is (OFF, ON): the later steps undo the first, which stays.
    for i in range(limit - 1, -1, -1):
        s = steps[i]
        inv = INVERSE_ACTIONS.get(s.action)
        if inv is not None and i not in paired:  # a paired step does not open a new pair
            for j in range(i + 1, limit):
                t = steps[j]
                if t.args and t.args[0].id == s.args[0].id and t.action in (s.action, inv):
                    if j in paired:
                        break
                    between = steps[i + 1:j]
                    # establish-then-undo (ON..OFF, OPEN..CLOSE) may serve the work between
                    # (running water while rinsing): only navigation between is a no-op.
                    # Undo-then-restore (OFF..ON, CLOSE..OPEN) serves nothing unless a step
                    # between names the object.
                    free = (all(b.action in NAVIGATION for b in between) if s.action in ESTABLISH
                            else not any(mentions(b, s.args[0]) for b in between))
                    if t.action == inv and free and not _use_cycle(steps, i, j, limit):
                        before = next((k for k in range(i - 1, -1, -1) if steps[k].args
                                       and steps[k].args[0].id == s.args[0].id and steps[k].action in (s.action, inv)),
                                      None)
                        pair = {i: f"{s.to_text()} is undone by {label(j)}", j: f"{t.to_text()} only undoes {label(i)}"}
                        if (s.action not in ESTABLISH and before is not None and steps[before].action == inv
                                and not any(mentions(steps[m], s.args[0]) for m in range(j + 1, limit))):
                            # "ON (work) OFF ... ON" with nothing after that uses it: the plan had
                            # turned it off after its work; the last ON is the stray, and removing
                            # it alone keeps the plan's end state; the pair only if that fails
                            groups.append(({j}, f"{t.to_text()} undoes {label(i)}, which ended the use "
                                                f"{label(before)} began"))
                            groups.append(({i, j}, Fallback(pair)))
                        else:
                            # each step of the pair gets its own reason (issue 16)
                            groups.append(({i, j}, pair))
                        paired |= {i, j}
                    break
                if mentions(t, s.args[0]) and t.action not in NAVIGATION:
                    break  # the object is used before being undone
    for i in range(limit):
        s = steps[i]
        if s.action == "GRAB":
            later = [j for j in range(i + 1, limit) if mentions(steps[j], s.args[0])]
            if later:
                j = later[0]
                t = steps[j]
                if (t.action in PUTS_DOWN and all(b.action in NAVIGATION for b in steps[i + 1:j])
                        and placements.get((i, "before")) == placements.get((j, "after"))
                        and (not strict or is_trip(steps, i, s.args[0]))):
                    groups.append(({i, j}, {i: f"{s.args[0].name} is put back where it was by {label(j)}, "
                                               "unused",
                                            j: f"{t.to_text()} only puts back what {label(i)} picked up"}))
            elif limit == len(steps):
                goal_obj = s.args[0].id in goal_nodes or _named_by_goal(s.args[0].name, goal_text)
                # picked up again after the plan had used it and put it down: the goal's object, but
                # this grab serves nothing after it (a step done twice, far apart)
                again = any(steps[k] == s and any(steps[m].action in PUTS_DOWN | {"DROP"} and mentions(steps[m], s.args[0])
                                                  for m in range(k + 1, i)) for k in range(i))
                if not strict or again or (not goal_obj and is_trip(steps, i, s.args[0])):
                    groups.append(({i}, f"{s.args[0].name} is picked up again and never used" if again and goal_obj
                                   else f"{s.args[0].name} is picked up and never used"))
    n0 = len(groups)
    if walks:
        _walk_groups(steps, res, limit, groups, removed_after, label, rooms)
    if limit == len(steps) and len(steps) < UNNEEDED_MAX_STEPS:
        # tried before the walk groups, but not counted as taken by them (a rejected candidate
        # must not hide a walk that only leads to removed steps)
        view = StateView(res.obs)
        groups[n0:n0] = unneeded_groups(steps, goal_nodes, goal_text, label,
                                        is_room=lambda nid: nid is not None and view.is_room(nid))
    return groups


#: :func:`unneeded_groups` is used on plans shorter than this: removing a side effect changes the
#: state for the rest of the plan, so the incremental replay cannot take over the reference's rest,
#: and testing each such group costs a replay of the plan's tail (quadratic on long plans).
UNNEEDED_MAX_STEPS = 200
#: Reason prefix of copy groups: the judge removes them only when the final state stays the same.
COPY = "copy: "
#: Actions that change an object's state and leave it so (a side effect when nothing needs it).
STATE_CHANGE = frozenset({"SWITCHON", "SWITCHOFF", "OPEN", "CLOSE", "PLUGIN", "PLUGOUT"})
#: A step that finishes what another began: RINSE after WASH/SCRUB of the same object (the soap
#: rinsed off) is a new rinse, not a copy of the rinse before the soaping (7 Dec). A RINSE after
#: WIPE (the hands dried) has nothing to finish and stays a copy.
FINISHES = {"RINSE": frozenset({"WASH", "SCRUB", "SOAP"})}
#: Steps that only turn the agent towards an object.
ORIENT = frozenset({"TURNTO", "LOOKAT", "LOOKAT_SHORT", "LOOKAT_LONG", "POINTAT"})


def _use_cycle(steps: list[Step], i: int, j: int, limit: int) -> bool:
    """Whether the undo ``steps[i]`` and the restore ``steps[j]`` (CLOSE ... OPEN, SWITCHOFF ...
    SWITCHON) close a use and open the next one: the object was used (a non-navigation step names
    it) since it was last opened or switched on, and is used again after ``j`` (the dishwasher
    closed after a plate is put in and opened again for the soap). Each state served a step, so
    the pair undoes nothing; the demonstrations do this, and the labelled sets keep a
    reference's steps valid (benchmarks/data/verify_new/README.md, section 2)."""
    obj, est = steps[i].args[0], steps[j].action
    def used(ks) -> bool:
        return any(steps[k].action not in NAVIGATION and steps[k].action not in (est, steps[i].action)
                   and mentions(steps[k], obj) for k in ks)
    opened = next((k for k in range(i - 1, -1, -1) if steps[k].action == est and mentions(steps[k], obj)), None)
    return opened is not None and used(range(opened + 1, i)) and used(range(j + 1, limit))


def is_trip(steps: list[Step], i: int, obj) -> bool:
    """Whether the plan walked to ``obj`` for step ``i``: a WALK/RUN to it among the navigation
    steps right before ``i`` (an errand). An object handled where the agent already is (found
    nearby, no walk of its own: the remote or the mouse taken along, a cup put down and taken up
    again) is how the demonstrations do a task; the labelled sets keep such steps of the human's
    plan valid however unneeded they look (benchmarks/data/verify_new/README.md, section 2), so
    an unused grab, or a grab put back where it lay, is only an error when it was a trip."""
    return any(steps[j].action in WALKS for j in _lead_in(steps, i, obj))


def _lead_in(steps: list[Step], i: int, obj) -> list[int]:
    """The navigation steps right before ``i`` that name ``obj`` (the walk/find that leads to it)."""
    out, j = [], i - 1
    while j >= 0 and steps[j].action in NAVIGATION and mentions(steps[j], obj):
        out.append(j)
        j -= 1
    return out


def unneeded_groups(steps: list[Step], goal_nodes=frozenset(), goal_text: str = "",
                    label=None, is_room=None) -> list[tuple[set[int], str | dict[int, str]]]:
    """Issue 26's kinds of unneeded steps, as candidate groups (the judge keeps a group only when
    the plan without it still executes and meets every goal condition it met):

    * **side effect**: a state change (SWITCHON/OFF, OPEN/CLOSE, PLUGIN/OUT) of an object that no
      goal condition names, that the goal text does not name, and that no other non-navigation
      step names, with the walk/find leading to it; or such an object moved (its grab and put,
      and the walks right before them);
    * **posture again**: a STANDUP and the same SIT/LIE right after it (only navigation between),
      when the agent already sat/lay there; or a SIT/LIE stood up from with only navigation
      between (nothing done seated), with the walk to the seat;
    * **copies** (reason starting :data:`COPY`; kept only when the plan without them also ends in
      the same state): a step identical to one three or more steps before it (far twin; not a
      walk), or a run of two or more steps each identical to a step before the run;
    * **facing a room** (``is_room(node_id)`` given): a turn to, look at or point at a room. The
      agent is in the room or walks to it; facing it serves no later step (a step that needs the
      agent to face an object names the object). Only the agent's facing changes, so the check is
      the goal check alone, not the final state.
    """
    label = label or _step_label
    n = len(steps)
    users: dict = {}
    for k, st in enumerate(steps):
        if st.action in NAVIGATION:
            continue
        for a in st.args:
            users.setdefault(a.id if a.id is not None else a.name, []).append(k)
    key = lambda a: a.id if a.id is not None else a.name  # noqa: E731
    # the goal text names a class ("turn on the computer"): when the goal conditions name an
    # instance of that class that the plan acts on, the text means that instance, and another
    # instance of the class (the other computer) is free
    meant = {a.name for st in steps for a in st.args if a.id is not None and a.id in goal_nodes}
    free = lambda a: (key(a) not in goal_nodes  # noqa: E731
                      and (a.name in meant or not _named_by_goal(a.name, goal_text)))
    out: list[tuple[set[int], str | dict[int, str]]] = []
    for i, s in enumerate(steps):
        if s.action in STATE_CHANGE and s.args and free(s.args[0]) and users.get(key(s.args[0])) == [i]:
            out.append(({i, *_lead_in(steps, i, s.args[0])},
                        f"side effect: {s.to_text()} changes {s.args[0].name}, which neither the goal nor "
                        "a later step needs"))
        elif s.action == "GRAB" and s.args and free(s.args[0]):
            use = users.get(key(s.args[0]), [])
            if (len(use) == 2 and use[0] == i and steps[use[1]].action in PUT_ACTIONS
                    and is_trip(steps, i, s.args[0])):
                j = use[1]
                between = range(i + 1, j)
                if all(steps[b].action in NAVIGATION for b in between):
                    out.append(({i, j, *between, *_lead_in(steps, i, s.args[0])},
                                f"side effect: {s.args[0].name} is moved, and neither the goal nor a later "
                                "step needs it moved"))
    for j, s in enumerate(steps):
        if s.action != "STANDUP":
            continue
        prev = next((p for p in range(j - 1, -1, -1) if steps[p].action in POSTURE | {"STANDUP"}), None)
        nxt = next((k for k in range(j + 1, n) if steps[k].action not in NAVIGATION), None)
        if prev is not None and steps[prev].action in POSTURE and nxt is not None and steps[nxt] == steps[prev]:
            out.append(({j, nxt}, {j: f"stands up only to {steps[nxt].to_text()} again ({label(nxt)})",
                                   nxt: f"{steps[nxt].to_text()} again: the agent was already there "
                                        f"({label(prev)})"}))
        if prev is not None and steps[prev].action in POSTURE and all(
                steps[b].action in NAVIGATION for b in range(prev + 1, j)):
            seat = steps[prev].args[0] if steps[prev].args else None
            lead = _lead_in(steps, prev, seat) if seat is not None and users.get(key(seat)) == [prev] else []
            out.append(({prev, j, *lead}, f"{steps[prev].to_text()} and stands up again with nothing done "
                                          "seated"))
    if is_room is not None:
        for i, s in enumerate(steps):
            if s.action in ORIENT and s.args and is_room(s.args[0].id):
                out.append(({i}, f"{s.to_text()}: facing a room serves no later step"))
    first: dict = {}
    for k, st in enumerate(steps):
        first.setdefault(st, k)

    def copy_of_earlier(k: int, start: int) -> bool:
        # a step identical to one before ``start``, unless a step it finishes came between its last
        # earlier occurrence and it (a rinse after the hands were soaped: a new rinse, 7 Dec)
        if first[steps[k]] >= start:
            return False
        done = FINISHES.get(steps[k].action)
        if done and steps[k].args:
            last = max(m for m in range(k) if steps[m] == steps[k])
            if any(steps[m].action in done and steps[m].args and steps[m].args[0].id == steps[k].args[0].id
                   for m in range(last + 1, k)):
                return False
        return True

    i = 0
    while i < n:  # copies (the judge keeps them only when the final state is unchanged too)
        j = i
        while j < n and copy_of_earlier(j, i):
            j += 1
        if j - i >= 2:
            out.append((set(range(i, j)), f"{COPY}{label(i)} to {label(j - 1)} repeat earlier steps"))
        elif j - i == 1 and first[steps[i]] <= i - 3 and steps[i].action not in WALKS:
            out.append(({i}, f"{COPY}{steps[i].to_text()} repeats {label(first[steps[i]])}"))
        i = max(j, i + 1)
    return out


def is_copy(why) -> bool:
    """Whether a candidate group's reason (``str`` or ``{index: reason}``) marks copies."""
    reasons = why.values() if isinstance(why, dict) else [why]
    return any(isinstance(r, str) and r.startswith(COPY) for r in reasons)


def _step_label(i: int) -> str:
    return f"step {i + 1}"


def reason_for(why, k: int) -> str:
    """The reason of step ``k`` of a candidate group: groups carry one reason for all their
    steps (``str``) or one per step (``{index: reason}``, e.g. an undo pair, where the second
    step is not "undone by" itself)."""
    if isinstance(why, dict):
        return why.get(k) or next(iter(why.values()), "")
    return why


def walk_candidates(steps: list[Step], run: Runner, taken: set[int] | frozenset[int] = frozenset(),
                    removed_after: frozenset[int] | set[int] = frozenset(),
                    label=None) -> list[tuple[set[int], str | dict[int, str]]]:
    """The walk groups of :func:`relevance_candidates` (detours, walks back, walks that only lead
    to removed steps) for the plan without ``taken`` (removals already kept): each walk is judged
    against the next step that stays, so a walk before an unneeded group that was removed is
    compared with what follows the group, not with the group's own walk."""
    rooms: dict[int, Any] = {}

    def observe(i, s, when, sim):
        if when == "before" and s.action in NAVIGATION and s.args:
            rooms[i] = StateView(sim.observation).room_of(s.args[0].id)

    res = run(steps, observe=observe)
    limit = len(steps) if res.executable else res.failed_index
    groups: list[tuple[set[int], str | dict[int, str]]] = [(set(taken), "")] if taken else []
    _walk_groups(steps, res, limit, groups, removed_after, label or _step_label, rooms)
    return groups[1:] if taken else groups


def _walk_groups(steps: list[Step], res: ReplayResult, limit: int, groups: list,
                 removed_after=frozenset(), label=_step_label, rooms=None) -> None:
    """Detours (a walk superseded by a walk to another room), walks back from a
    detour, and walks that only led to removed steps; appended to ``groups``.

    ``rooms``: the room of each navigation step's target when the step runs (an object the agent
    carries away later was in the room it walked to); without it, the rooms of the final state."""
    view0 = StateView(res.obs)
    rooms = rooms or {}
    room = lambda i: rooms[i] if i in rooms else view0.room_of(steps[i].args[0].id)  # noqa: E731
    taken = set().union(*(g for g, _ in groups)) if groups else set()
    detours: list[int] = []
    # Walks are judged from the last to the first, each against the next *kept*
    # step, so that in "A, B, C" a detour B is found first and A is then
    # compared with C (no double flag when C is in A's room).
    for i in range(limit - 2, -1, -1):
        s = steps[i]
        if s.action not in WALKS or i in taken:
            continue
        nxt = next((j for j in range(i + 1, limit) if j not in taken), None)
        between = range(i + 1, nxt if nxt is not None else limit)
        # the walk's own purpose (the step right after it) was removed, not just a later walk's
        led_to_removed = (i + 1 in taken and steps[i + 1].action not in WALKS) or i in removed_after
        if nxt is None:
            if led_to_removed and limit == len(steps):
                groups.append(({i, *between}, f"walk to {s.args[0].name} only leads to removed steps"))
                taken |= {i, *between}
            continue
        if led_to_removed and mentions(steps[nxt], s.args[0]):
            continue  # the next kept step is on the walk's own object: the walk still leads there
        if led_to_removed and steps[nxt].action in WALKS | {"FIND"} and not (
                view0.is_room(s.args[0].id) and room(nxt) == s.args[0].id):
            # (a walk to a room that holds the next kept step's object still leads there)
            block = {i, *(b for b in between if b in taken)}
            groups.append((block, f"walk to {s.args[0].name} only leads to removed steps"))
            taken |= block
            continue
        if (led_to_removed and steps[nxt].action not in NAVIGATION and not view0.is_room(s.args[0].id)
                and limit == len(steps)):
            # a walk to an object whose own steps were removed (an errand's OPEN and CLOSE), before
            # a step on something else (the phone in hand): nothing is left to do there (7 Dec)
            block = {i, *(b for b in between if b in taken)}
            groups.append((block, f"walk to {s.args[0].name} only leads to removed steps"))
            taken |= block
            continue
        if steps[nxt].action not in WALKS | {"FIND"}:
            continue
        x, y = s.args[0].id, steps[nxt].args[0].id
        if not view0.is_room(x):
            # a walk to an object (a landmark on the way, or its approach) is not a detour, unless
            # the next kept step walks on to another room, or to an object in another room (7 Dec),
            # and the object is never named again
            # (the object walk right after a walk to its own room: the agent went to that room and to
            # a piece of furniture in it, and did nothing there)
            there = y if view0.is_room(y) else (room(nxt) if i > 0 and steps[i - 1].action in WALKS
                                                and steps[i - 1].args[0].id == room(i) else None)
            if not (steps[nxt].action in WALKS and there is not None and room(i) != there
                    and not any(mentions(steps[m], s.args[0]) for m in range(i + 1, limit))):
                continue
            groups.append(({i}, f"walk to {s.args[0].name} is superseded by {label(nxt)}: nothing is done there"))
            taken.add(i)
            continue
        if x == y or room(i) == room(nxt):
            continue  # room then object in it, or object to object nearby: navigation
        groups.append(({i}, f"walk to {s.args[0].name} is superseded by {label(nxt)}"))
        taken.add(i)
        detours.append(i)
    for i in detours:  # the walk back: to where the last walk before the detour led
        prev = next((p for p in range(i - 1, -1, -1) if p not in taken and steps[p].action in WALKS), None)
        back = next((j for j in range(i + 1, limit) if j not in taken), None)
        if prev is None or back is None or steps[back].action not in WALKS:
            continue
        a, b = steps[prev].args[0].id, steps[back].args[0].id
        if a == b or (view0.is_room(b) and room(prev) == b):
            groups.append(({back}, f"walks back from the detour of {label(i)} to where {label(prev)} "
                                   "already led"))
            taken.add(back)


__all__ = ["Fallback", "relevance_candidates", "walk_candidates", "reason_for", "WALKS"]
