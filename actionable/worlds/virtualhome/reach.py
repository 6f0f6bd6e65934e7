"""The planning domain's reach rule: a robot acts only on what it stands at.

VirtualHome's evolving-graph executor (``virtualhome_eval.simulation.evolving_graph.execution``,
``_is_character_close_to``) lets an interaction run when the character is CLOSE to the object, but
also under a *loose rule*: when the character is CLOSE to any node that is itself CLOSE to the
object. CLOSE edges of the scene graph link furniture across a room and, in the default house,
across rooms, and a grab leaves the character CLOSE to the surface the object came from. So the raw
executor accepts plans without walks: the plate put into the bathroom sink from the dining room,
the fridge opened from the kitchen counter. Some interactions (``WASH``, ``WIPE``, ``EAT``, ...) also
run on an object shut inside a closed cupboard.

The planning domain (:class:`~actionable.worlds.virtualhome.planning.AffordanceOracle`) is
stricter than the executor, so plans it builds execute on both (every plan that passes this rule
passes the executor's). For each object an at-object action acts on and the character does not
hold, :func:`out_of_reach` asks that

* the character is CLOSE to the object itself, or to the node the object is ON or INSIDE (a cup on
  the table the character stands at; the milk in the fridge it stands at), and
* the object is not INSIDE a closed, openable container (it is opened first).

The unmet precondition is returned in the executor's own format, so rule repair
(:func:`~actionable.worlds.virtualhome.repair.corrective_steps`) inserts the ``WALK`` or the
``WALK`` + ``OPEN`` that establishes it. Perception (``TURNTO``, ``LOOKAT``, ``WATCH``,
``POINTAT``) asks only that the object is in the character's room (7 Dec: "watch TV and go to
sleep" faced the office's TV from the bedroom); navigation (``WALK``, ``FIND``) and actions on
held things (``DRINK``, ``READ``, ``PUTON``) are not at-object actions.
"""

from __future__ import annotations

from typing import Any

from actionable.core.program import Step
from actionable.worlds.virtualhome.repair import closed_container

#: actions done at the object, whose executor checks (loosely) that the character is close to it
AT_OBJECT: frozenset[str] = frozenset({
    "GRAB", "OPEN", "CLOSE", "PUTIN", "PUTBACK", "PUTOBJBACK", "SWITCHON", "SWITCHOFF", "SIT", "LIE",
    "WIPE", "TOUCH", "POUR", "TYPE", "PUSH", "PULL", "MOVE", "RINSE", "WASH", "SCRUB", "SQUEEZE",
    "PLUGIN", "PLUGOUT", "CUT", "EAT"})


#: perception done from where the character is: the object must be in the character's room
IN_SIGHT: frozenset[str] = frozenset({"TURNTO", "LOOKAT", "WATCH", "POINTAT"})


def _out_of_sight(step: Step, view: Any) -> dict | None:
    """``TURNTO`` / ``LOOKAT`` / ``WATCH`` / ``POINTAT`` an object in another room than the
    character's (VirtualHome's executor lets the character face a TV through walls): the unmet
    ``CLOSE``, so rule repair walks to it; ``None`` when it is in the character's room (or held)."""
    char = view.character_id
    x = step.args[0].id
    if x is None or x in set(view.held()):
        return None
    here, there = view.room_of(char), view.room_of(x)
    if here is None or there is None or here == there:
        return None
    return _not_close(view, step.args[0].name, x, f"<{step.args[0].name}> ({x}) is in another room than the "
                                                  f"character; walk to it first")


def _not_close(view: Any, name: str, x: int, why: str) -> dict:
    """The simulator-format info of an unmet ``character CLOSE x`` (rule repair walks to ``x``)."""
    char = view.character_id
    who = view.class_of(char) or "character"
    return {"executed": False, "error_type": "missing", "error": f"{why} (the planning domain's reach rule)",
            "unmet_preconditions": [f"{who}({char}) CLOSE {name}({x})"],
            "unmet_raw": [(False, {"from_id": char, "relation": "CLOSE", "to_id": x})], "shut_in": None}


def out_of_reach(step: Step, view: Any) -> dict | None:
    """Why the resolved ``step`` cannot be done from where the character stands, or ``None``.

    Args:
        step: a resolved step (every argument has a node id).
        view: the :class:`~actionable.worlds.virtualhome.simulator.StateView` before the step.

    Returns:
        ``None`` when the step is not an at-object action or every object it acts on is within
        reach; else an ``info`` dict as the simulator writes one for a failed step
        (``executed`` False, ``error_type`` ``"missing"``, ``error``, ``unmet_preconditions``
        readable, ``unmet_raw`` as ``(negate, precondition)`` pairs: ``character CLOSE x`` or
        ``x OPEN`` for an object in a closed container) and ``shut_in`` (that container's id, or
        ``None`` when the object is only too far).
    """
    if step.action in IN_SIGHT and step.args:  # "watch TV" from the bedroom: the TV is in the office
        return _out_of_sight(step, view)
    if step.action not in AT_OBJECT or not step.args:
        return None
    char = view.character_id
    held = set(view.held())
    close = set(view.targets(char, "CLOSE"))
    for a in step.args:
        x = a.id
        if x is None or x in held or x == char:
            continue
        c = closed_container(view, x)
        if c is not None and step.action not in ("OPEN", "CLOSE"):
            return {"executed": False, "error_type": "missing",
                    "error": f"<{a.name}> ({x}) is inside the closed <{view.class_of(c)}> ({c}); open it first",
                    "unmet_preconditions": [f"{view.class_of(c)}({c}) OPEN"],
                    "unmet_raw": [(False, {"id": x, "state": "OPEN"})], "shut_in": c}
        supports = {t for rel in ("ON", "INSIDE") for t in view.targets(x, rel)}  # the character is never CLOSE to a room
        if x in close or supports & close:
            continue
        return _not_close(view, a.name, x, f"the character is not close to <{a.name}> ({x}); walk to it first")
    return None


__all__ = ["AT_OBJECT", "IN_SIGHT", "out_of_reach"]
