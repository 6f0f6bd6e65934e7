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
NOT character HOLDS any (hands full)   ``[PUTBACK] <held> <surface nearby>`` or ``[DROP] <held>``
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


def _free_surface(view: Any, keep: set[int]) -> int | None:
    """A surface close to the character to put a held object on (lowest id)."""
    for t in sorted(view.close_to_character()):
        if t not in keep and "SURFACES" in view.properties_of(t) and view.class_of(t) not in ("character",):
            return t
    return None


def corrective_steps(unmet: list[tuple[bool, dict]], view: Any, step: Step) -> list[Step] | None:
    """Resolved steps that establish the first repairable unmet precondition.

    Args:
        unmet: ``info["unmet_raw"]`` of the failed ``step``.
        view: the current :class:`~actionable.worlds.virtualhome.simulator.StateView`.
        step: the failed, resolved step (its objects are never put down).

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
                surf = _free_surface(view, args | {held[0]})
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
