"""Repair candidates of the simulator judge: what to insert at a failing step or
for an unmet goal condition.

Used by :class:`actionable.verify.grounded.SimulatorJudge`, which tries the
candidates in the simulator and keeps the cheapest that works (see the cost
model there). The diagnoses read the simulator's unmet preconditions and the
state before the failing step:

* not close to X -> ``WALK X``; not facing X -> ``TURNTO X``;
* not holding X (a put, pour ...) -> ``GRAB X`` at each earlier position;
* X inside a closed container C -> ``OPEN C`` (with a walk to C);
* a closed container to put into -> ``OPEN C``; unplugged -> ``PLUGIN``;
* sitting or lying -> ``STANDUP``; SLEEP/WAKEUP while standing -> ``LIE``/``SIT``;
* a step whose inverse effect is missing (switch off what is off) -> the inverse
  action right after the last step that named the object.

Goal proposals turn an unmet state (``ON(tv)``), relation (``INSIDE(mug,
sink)``) or action goal into the step(s) that establish it.
"""

from __future__ import annotations

import re
from typing import Sequence

from actionable.core.actions import STATE_FIX
from actionable.core.program import ACTION_ARITY, Step
from actionable.verify.base import PUT_ACTIONS, mentions
from actionable.verify.replay import StateView

NEEDS_CLOSE = frozenset({"GRAB", "OPEN", "CLOSE", "SWITCHON", "SWITCHOFF", "PLUGIN", "PLUGOUT",
                         "DRINK", "EAT", "TOUCH", "TYPE", "SIT", "LIE", "WIPE", "WASH", "RINSE",
                         "SCRUB", "PUSH", "PULL", "MOVE", "CUT", "SQUEEZE", "READ", "PUTON",
                         "PUTOBJBACK", "POUR", "PUTBACK", "PUTIN"})
#: Actions whose first object must be held.
MUST_HOLD = PUT_ACTIONS | {"PUTOBJBACK", "POUR"}
#: The state a step sets; the step is redundant when the state already holds.
ALREADY = {"SWITCHON": "ON", "SWITCHOFF": "OFF", "OPEN": "OPEN", "CLOSE": "CLOSED",
           "PLUGIN": "PLUGGED_IN", "PLUGOUT": "PLUGGED_OUT"}
#: The action whose effect a failing "already ..." step needed first.
ALREADY_INV = {"SWITCHOFF": "SWITCHON", "CLOSE": "OPEN", "PLUGOUT": "PLUGIN"}
_UNMET_RE = re.compile(r"^(NOT )?(\w+)\((-?\d+)\) (\w+)(?: (\w+)\((-?\d+)\))?$")


def parse_unmet(unmet) -> list[tuple[bool, tuple[str, int], str, tuple[str, int] | None]]:
    """Parse the simulator's unmet preconditions (``character(65) CLOSE mug(12)``,
    ``fridge(40) OPEN``, ``NOT character(65) SITTING``) into
    ``(negated, (class, id), relation_or_state, (class, id) | None)``."""
    out = []
    for u in unmet or ():
        m = _UNMET_RE.match(str(u).strip())
        if m:
            other = (m.group(5), int(m.group(6))) if m.group(5) else None
            out.append((bool(m.group(1)), (m.group(2), int(m.group(3))), m.group(4).upper(), other))
    return out


def _step(action: str, *nodes: tuple[str, int]) -> Step:
    return Step.of(action, *nodes)


def precondition_fixes(steps: list[Step], k: int, view: StateView, unmet: Sequence[str] = (),
                       max_positions: int = 16) -> list[tuple[int, list[Step], str]]:
    """Candidate insertions ``(position, steps, reason)`` that may let the failing
    ``steps[k]`` execute, in the order they should be tried (cheapest diagnosis first)."""
    s = steps[k]
    out: list[tuple[int, list[Step], str]] = []
    ch = view.char
    if ch is not None and view.states(ch) & {"SITTING", "LYING"} and s.action not in ("SIT", "LIE",
                                                                                  "STANDUP"):
        out.append((k, [Step("STANDUP")], "the agent must stand up first"))
    args = [(a.name, a.id) for a in s.args]
    must_hold = [args[0]] if s.action in MUST_HOLD and args[0][1] not in view.held() else []
    known = {a.id: a.name for st in steps for a in st.args}  # keep the plan's names for its objects
    for neg, node, rel, other in parse_unmet(unmet):
        node = (known.get(node[1], node[0]), node[1])
        other = None if other is None else (known.get(other[1], other[0]), other[1])
        if rel.startswith("HOLDS") and not neg and other is not None and other[1] not in view.held():
            if other not in must_hold:
                must_hold.append(other)
        elif rel == "CLOSE" and not neg and other is not None:
            out.append((k, [_step("WALK", other)], f"the agent is not close to {other[0]}"))
        elif rel in STATE_FIX and other is None and not neg:
            out.append((k, [_step(STATE_FIX[rel], node)], f"{node[0]} must be {rel.lower().replace('_', ' ')}"))
        elif rel == "FACING" and other is not None and not neg:
            out.append((k, [_step("TURNTO", other)], f"the agent must face {other[0]}"))
    if any(str(u).strip().endswith("HOLDS any") for u in unmet or ()) and not view.held():
        # the step needs something in hand (WIPE with a cloth): the object a later step of the plan
        # puts down or drops without picking it up first is the one the author meant to hold
        must_hold += [o for o in _held_later(steps, k) if o not in must_hold]
    for obj in must_hold:
        for p in range(k, max(-1, k - max_positions), -1):
            out.append((p, [_step("GRAB", obj)], f"{obj[0]} must be held before step {k + 1}"))
    for obj in must_hold:  # the grab needs its own preconditions: fetch the object (issue 26)
        for fetch, why in fetches(obj, view):
            for p in range(k, max(-1, k - max_positions), -1):
                out.append((p, fetch, f"{obj[0]} must be held before step {k + 1} ({why})"))
    if s.action in ("SLEEP", "WAKEUP") and not view.states(ch) & {"SITTING", "LYING"}:
        seen: list[tuple[str, int]] = []
        for st in reversed(steps[:k]):
            for a in st.args:
                if a.id is not None and (a.name, a.id) not in seen and view.props(a.id) & {"LIEABLE", "SITTABLE"}:
                    seen.append((a.name, a.id))
        for o in seen[:3]:
            if "LIEABLE" in view.props(o[1]):
                out.append((k, [_step("LIE", o)], f"the agent must lie down before {s.action.lower()}"))
            out.append((k, [_step("SIT", o)], f"the agent must sit or lie before {s.action.lower()}"))
    if s.action in ALREADY_INV and s.is_resolved:
        # e.g. SWITCHOFF of something off: the earlier SWITCHON may be what is missing
        obj = args[0]
        for p in range(k, 0, -1):
            if mentions(steps[p - 1], s.args[0]):
                out.append((p, [_step(ALREADY_INV[s.action], obj)],
                            f"step {k + 1} ({s.to_text()}) needs {obj[0]} to be "
                            f"{ALREADY[ALREADY_INV[s.action]].lower().replace('_', ' ')} first"))
    if s.action == "GRAB":
        c = view.container_closed(args[0][1])
        if c is not None:
            cont = (view.cls(c), c)
            out.append((k, [_step("OPEN", cont)], f"{args[0][0]} is inside the closed {cont[0]}"))
            out.append((k, [_step("WALK", cont), _step("OPEN", cont)], f"{cont[0]} must be opened"))
    if s.action == "PUTIN" and "CAN_OPEN" in view.props(args[1][1]) and "CLOSED" in view.states(args[1][1]):
        out.append((k, [_step("OPEN", args[1])], f"{args[1][0]} is closed"))
        if not view.close(args[1][1]):
            out.append((k, [_step("WALK", args[1]), _step("OPEN", args[1])],
                        f"the agent is not close to {args[1][0]}, which is closed"))
    if s.action == "SWITCHON" and "PLUGGED_OUT" in view.states(args[0][1]):
        out.append((k, [_step("PLUGIN", args[0])], f"{args[0][0]} is unplugged"))
    if s.action in NEEDS_CLOSE:
        target = args[-1]
        if not view.close(target[1]):
            out.append((k, [_step("WALK", target)], f"the agent is not close to {target[0]}"))
    if s.action in ("LOOKAT", "WATCH", "LOOKAT_SHORT", "LOOKAT_LONG", "POINTAT") and args:
        out.append((k, [_step("TURNTO", args[0])], f"the agent must face {args[0][0]}"))
        out.append((k, [_step("WALK", args[0])], f"the agent is not near {args[0][0]}"))
    return out


def fetches(obj: tuple[str, int], view: StateView) -> list[tuple[list[Step], str]]:
    """The step sequences that bring ``obj`` ``(class, id)`` into hand when a bare ``GRAB`` does
    not execute (issue 26: a put whose grab was never written gets the grab inserted with what the
    grab needs, not the put removed), each with a reason, cheapest first: ``WALK obj, GRAB obj``;
    when ``obj`` lies in a closed container ``C`` (in ``view``), ``WALK C, OPEN C, GRAB obj`` and
    ``WALK C, OPEN C, WALK obj, GRAB obj``. Each step costs ``INSERT`` (1) in the simulator judge's
    cost model, so a fetch of 2-3 steps is cheaper than removing the put when the put serves a goal
    (``REMOVE_GOAL`` = 5), and no dearer than removing a failing put that does not (3)."""
    out = [([_step("WALK", obj), _step("GRAB", obj)], f"the agent is not close to {obj[0]}")]
    c = view.container_closed(obj[1])
    if c is not None:
        cont = (view.cls(c), c)
        why = f"{obj[0]} is inside the closed {cont[0]}"
        out.append(([_step("WALK", cont), _step("OPEN", cont), _step("GRAB", obj)], why))
        out.append(([_step("WALK", cont), _step("OPEN", cont), _step("WALK", obj), _step("GRAB", obj)], why))
    return out


def _held_later(steps: list[Step], k: int) -> list[tuple[str, int]]:
    """Objects that a step after ``k`` puts down or drops (``MUST_HOLD``, ``DROP``) with no grab
    of them between ``k`` and it, in plan order."""
    out: list[tuple[str, int]] = []
    grabbed: set = set()
    for st in steps[k + 1:]:
        if not st.args or st.args[0].id is None:
            continue
        o = (st.args[0].name, st.args[0].id)
        if st.action == "GRAB":
            grabbed.add(o)
        elif st.action in MUST_HOLD | {"DROP"} and o not in grabbed and o not in out:
            out.append(o)
    return out


def already(s: Step, view: StateView) -> str | None:
    """Why ``s`` is redundant because its effect already holds (``None`` otherwise)."""
    if s.action in ALREADY and ALREADY[s.action] in view.states(s.args[0].id):
        return f"{s.args[0].name} is already {ALREADY[s.action].lower().replace('_', ' ')}"
    if s.action == "GRAB" and s.args[0].id in view.held():
        return f"{s.args[0].name} is already held"
    if s.action == "STANDUP" and not view.states(view.char) & {"SITTING", "LYING"}:
        return "the agent is already standing"
    return None


def goal_proposals(spec, view: StateView, steps: list[Step], goal_text: str = "") -> list[tuple[list[Step], str]]:
    """Candidate insertions ``(steps, reason)`` that may meet an unmet goal condition of ``spec``.
    Of an action goal's alternatives (``did(RINSE|WASH)``), the verbs ``goal_text`` says come first
    ("... and wash the hands": WASH)."""
    props: list[tuple[list[Step], str]] = []
    targets = [g.to_id for g in spec.relations if g.from_id == view.char and g.relation == "ON"]
    for g in spec.states:
        if g.node_id == view.char and g.state in ("SITTING", "LYING") and g.state not in view.states(g.node_id):
            act = "SIT" if g.state == "SITTING" else "LIE"
            for b in targets + [a.id for st in reversed(steps) for a in st.args
                                if a.id is not None and view.props(a.id) & {"SITTABLE", "LIEABLE"}][:3]:
                if b in view:
                    nb = (view.cls(b), b)
                    props.append(([_step(act, nb)], f"goal {g.describe()} is not met"))
                    props.append(([_step("WALK", nb), _step(act, nb)], f"goal {g.describe()} is not met"))
            continue
        if g.node_id in view and g.state in STATE_FIX and g.state not in view.states(g.node_id):
            node = (view.cls(g.node_id), g.node_id)
            st = _step(STATE_FIX[g.state], node)
            props.append(([st], f"goal {g.describe()} is not met"))
            props.append(([_step("WALK", node), st], f"goal {g.describe()} is not met"))
    for g in spec.relations:
        if view.has_edge(g.from_id, g.relation, g.to_id):
            continue
        a, b = g.from_id, g.to_id
        if a not in view or b not in view:
            continue
        na, nb = (view.cls(a), a), (view.cls(b), b)
        if a == view.char:
            act = {"HOLDS_RH": "GRAB", "HOLDS_LH": "GRAB", "FACING": "TURNTO", "CLOSE": "WALK",
                   "INSIDE": "WALK", "ON": "SIT"}.get(g.relation)
            cand = [[_step(act, nb)]] if act else []
            if act and act != "WALK":
                cand.append([_step("WALK", nb), _step(act, nb)])
        elif g.relation in ("ON", "INSIDE"):
            act = "PUTBACK" if g.relation == "ON" else "PUTIN"
            cand = [[_step(act, na, nb)], [_step("WALK", nb), _step(act, na, nb)]]
        else:
            cand = []
        props += [(c, f"goal {g.describe()} is not met") for c in cand]
    objs: list[tuple[str, int]] = []
    for g in spec.relations:  # objects of the relation goals first (e.g. CLOSE(character, cat))
        for x in (g.to_id, g.from_id):
            if x in view and x != view.char and not view.is_room(x) and (view.cls(x), x) not in objs:
                objs.append((view.cls(x), x))
    for st in reversed(steps):
        for a in st.args:
            if (a.name, a.id) not in objs and a.id is not None and not view.is_room(a.id):
                objs.append((a.name, a.id))
    done = {st.action for st in steps}
    for g in spec.actions:
        if done & set(g.alternatives):
            continue
        said = set(re.findall(r"[a-z]+", goal_text.lower()))
        for alt in sorted(g.alternatives, key=lambda a: a.lower() not in said):
            if ACTION_ARITY.get(alt) == 1:
                props += [([_step(alt, o)], f"goal {g.describe()} is not met") for o in objs[:6]]
            elif ACTION_ARITY.get(alt) == 0:
                props.append(([Step(alt)], f"goal {g.describe()} is not met"))
    return props


__all__ = ["parse_unmet", "precondition_fixes", "already", "goal_proposals", "NEEDS_CLOSE", "MUST_HOLD",
           "ALREADY", "ALREADY_INV", "STATE_FIX"]
