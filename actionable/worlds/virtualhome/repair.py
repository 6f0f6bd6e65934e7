"""Precondition repair by rules (CAPE, Raman et al. 2024, "CAPE: Corrective
Actions from Precondition Errors": re-plan from the simulator's precondition
error; here the corrective steps come from rules, not from the LM).

When a step fails, the VirtualHome simulator names its unmet preconditions
(``info["unmet_raw"]``: ``(negate, precondition)`` pairs, a precondition being
``{"from_id", "relation", "to_id"}`` or ``{"id", "state"}``). :func:`corrective_steps`
maps the first one to the steps that establish it:

=====================================  =========================================
unmet precondition                     corrective steps
=====================================  =========================================
character CLOSE x                      ``[WALK] <x>``
character HOLDS x                      ``[WALK] <x>``, ``[GRAB] <x>``
NOT character HOLDS any (hands full)   ``[PUTBACK] <held> <s>``, s its own place or furniture nearby,
                                       else ``[WALK] <s>``, ``[PUTBACK] <held> <s>`` for furniture
                                       of the room (its own place, one beside the step's object, a
                                       counter or a table first), else another surface nearby, else
                                       ``[DROP] <held>``; never on what the character holds (the
                                       plate about to go in the dishwasher)
x OPEN (x inside a closed container)   ``[WALK] <c>``, ``[OPEN] <c>`` (before x itself)
x OPEN / CLOSED / ON / OFF /           ``[OPEN]`` / ``[CLOSE]`` / ``[SWITCHON]`` /
PLUGGED_IN / PLUGGED_OUT               ``[SWITCHOFF]`` / ``[PLUGIN]`` / ``[PLUGOUT]`` ``<x>``
NOT character SITTING / LYING          ``[STANDUP]``
PUTIN x c, c CLOSED (no unmet named)   ``[OPEN] <c>``
SIT / LIE x, x full ("Too many things  ``[GRAB] <o>``, ``[PUTBACK] <o> <surface nearby>`` for an
on x", no unmet named)                 object o on x (the lowest id: the scene's own before added)
character FACING x                     ``[TURNTO] <x>``
=====================================  =========================================

:class:`~actionable.planning.affordance.AffordanceOracle` applies the rules
repeatedly within a small budget (each corrective step must itself execute,
possibly after its own repair) and marks the inserted steps as repairs.
"""

from __future__ import annotations

from typing import Any

from actionable.core.program import Argument, Step

#: state the precondition asks for -> action that establishes it on the object
ESTABLISH: dict[str, str] = {"OPEN": "OPEN", "CLOSED": "CLOSE", "ON": "SWITCHON", "OFF": "SWITCHOFF",
                             "PLUGGED_IN": "PLUGIN", "PLUGGED_OUT": "PLUGOUT"}
#: state that must NOT hold -> action that removes it
REMOVE: dict[str, str] = {"OPEN": "CLOSE", "CLOSED": "OPEN", "ON": "SWITCHOFF", "OFF": "SWITCHON",
                          "PLUGGED_IN": "PLUGOUT", "PLUGGED_OUT": "PLUGIN", "SITTING": "STANDUP",
                          "LYING": "STANDUP"}


def _step(action: str, *nodes: tuple[str, int]) -> Step:
    return Step(action, tuple(Argument(n, i) for n, i in nodes))


def _node(view: Any, nid: int) -> tuple[str, int] | None:
    c = view.class_of(nid)
    return None if c is None else (c, nid)


def closed_container(view: Any, nid: int) -> int | None:
    """The closed, openable container holding ``nid`` (INSIDE edge), if any."""
    for t in view.targets(nid, "INSIDE"):
        if "CLOSED" in view.states_of(t) and "CAN_OPEN" in view.properties_of(t):
            return t
    return None


#: furniture to put a thing down on, before any other surface (a tv stand, a bookshelf, a floor)
_TABLES = ("counter", "table", "desk")


def _free_surface(view: Any, keep: set[int], furniture: bool = False) -> int | None:
    """A surface close to the character to put a held object on: never one the character holds (it
    is about to be moved: "wash the plate with the sponge and put it in the dishwasher" put the
    sponge on the plate, and both went in) nor one on or in a held object; furniture (a counter, a
    table) before a grabbable surface (another plate), the lowest id of each; with ``furniture``,
    furniture only."""
    held = set(view.held())
    keep = set(keep) | held
    ok = [t for t in sorted(view.close_to_character())
          if t not in keep and "SURFACES" in view.properties_of(t) and view.class_of(t) not in ("character",)
          and not held & (set(view.targets(t, "ON")) | set(view.targets(t, "INSIDE")))
          and not (furniture and "GRABBABLE" in view.properties_of(t))]
    return min(ok, key=lambda t: ("GRABBABLE" in view.properties_of(t), t)) if ok else None


def _own_place(view: Any, nid: int, home: Any, keep: set[int]) -> int | None:
    """The surface ``nid`` stood on in the scene's initial graph ``home``, when it is close to the
    character now and free to take it (the sponge back on the counter it came from), else ``None``."""
    if home is None:
        return None
    near, held = set(view.close_to_character()), set(view.held())
    for t in home.targets(nid, "ON"):
        if t in near and t not in keep | held and "SURFACES" in view.properties_of(t):
            return t
    return None


def _room_surface(view: Any, nid: int, home: Any, keep: set[int]) -> int | None:
    """A piece of furniture with a surface in the character's room to walk to and put ``nid`` on when
    none is close: its own place in ``home`` when that is in this room, then one next to what the
    failed step is about (``keep``: the counter beside the dishwasher), then a counter, a table or a
    desk, a floor last (lowest id)."""
    room = view.character_room()
    if room is None:
        return None
    own = set(home.targets(nid, "ON")) if home is not None else set()
    beside = {t for k in keep if k in view for t in view.targets(k, "CLOSE")}
    ok = [t for t in view.sources(room, "INSIDE") if t not in keep and t != nid
          and "SURFACES" in view.properties_of(t) and "GRABBABLE" not in view.properties_of(t)]
    return min(ok, key=lambda t: (t not in own, t not in beside, not any(w in view.class_of(t) for w in _TABLES),
                                  view.class_of(t) == "floor", t)) if ok else None


def corrective_steps(unmet: list[tuple[bool, dict]], view: Any, step: Step, home: Any = None) -> list[Step] | None:
    """Resolved steps that establish the first repairable unmet precondition.

    Args:
        unmet: ``info["unmet_raw"]`` of the failed ``step``.
        view: the current :class:`~actionable.worlds.virtualhome.simulator.StateView`.
        step: the failed, resolved step (its objects are never put down).
        home: the scene's initial graph (``targets(id, "ON")``), for the place a held object came
            from; ``None``: any surface nearby.

    Returns:
        One or two resolved :class:`Step` objects, or ``None`` when no rule applies.
    """
    char = view.character_id
    args = {a.id for a in step.args if a.id is not None}
    for negate, p in unmet:
        if "relation" in p:
            frm, rel, to = p.get("from_id"), str(p.get("relation", "")).upper(), p.get("to_id")
            if frm != char:
                continue
            if rel == "CLOSE" and not negate and to is not None and to >= 0:
                n = _node(view, to)
                if n is not None:
                    return [_step("WALK", n)]
            if rel.startswith("HOLDS") and not negate and to is not None and to >= 0:
                n = _node(view, to)
                if n is not None:
                    return [_step("WALK", n), _step("GRAB", n)]
            if rel.startswith("HOLDS") and negate:
                held = [h for h in view.held() if h not in args]
                if not held:
                    continue
                h = _node(view, held[0])
                keep = args | {held[0]}
                surf = _own_place(view, held[0], home, args) or _free_surface(view, keep, furniture=True)
                if surf is not None:
                    return [_step("PUTBACK", h, _node(view, surf))]
                far = _room_surface(view, held[0], home, args) if home is not None else None
                if far is not None:  # (the failed step then walks back: its own CLOSE repair)
                    return [_step("WALK", _node(view, far)), _step("PUTBACK", h, _node(view, far))]
                surf = _free_surface(view, keep)  # (another plate nearby: not the one carried)
                if surf is not None:
                    return [_step("PUTBACK", h, _node(view, surf))]
                return [_step("DROP", h)]
            if rel == "FACING" and not negate and to is not None and to >= 0:
                n = _node(view, to)
                if n is not None:
                    return [_step("TURNTO", n)]
            continue
        nid, state = p.get("id"), str(p.get("state", "")).upper()
        if nid is None or nid < 0:
            continue
        if negate:
            act = REMOVE.get(state)
            if act == "STANDUP":
                return [Step("STANDUP", ())]
            if act is not None and nid != char:
                n = _node(view, nid)
                if n is not None:
                    return [_step(act, n)]
            continue
        if state == "OPEN":
            # "x OPEN" for an object inside a closed container (a milk carton in a closed fridge, a
            # closed beer bottle in a closed filing cabinet): the container is opened first, even
            # when x could be opened itself (grabbing the beer needs the cabinet open, not the
            # bottle; should x itself still need opening, the retried step says so next)
            c = closed_container(view, nid)
            if c is not None:
                n = _node(view, c)
                return [_step("WALK", n), _step("OPEN", n)]
            if "CAN_OPEN" not in view.properties_of(nid) or "CLOSED" not in view.states_of(nid):
                continue
        act = ESTABLISH.get(state)
        if act is not None and nid != char:
            n = _node(view, nid)
            if n is not None:
                return [_step(act, n)]
    if step.action in ("SIT", "LIE") and len(step.args) == 1 and step.args[0].id is not None:
        # VirtualHome's sit/lie executors refuse furniture with too many things on it (the bed after
        # "put the towel on the bed"), without naming a precondition: one object on it is moved off
        x = step.args[0].id
        near = view.close_to_character()
        on = sorted((o for o in view.sources(x, "ON") if "GRABBABLE" in view.properties_of(o)),
                    key=lambda o: (not isinstance(o, int), o if isinstance(o, int) else 0))  # the lowest id: the
        # furniture's own things (a pillow) before what the house's programs added on it (the book just put there)
        if x in near and on:
            o = _node(view, on[0])
            surf = _free_surface(view, args | {on[0], x})
            return [_step("GRAB", o)] + ([_step("PUTBACK", o, _node(view, surf))] if surf is not None else [])
    if step.action == "PUTIN" and len(step.args) == 2 and step.args[1].id is not None:
        # the simulator refuses to put into a closed container without naming OPEN as unmet
        t = step.args[1].id
        if "CLOSED" in view.states_of(t) and "CAN_OPEN" in view.properties_of(t):
            n = _node(view, t)
            if n is not None:
                return [_step("OPEN", n)]
    return None


__all__ = ["closed_container", "corrective_steps", "ESTABLISH", "REMOVE"]
