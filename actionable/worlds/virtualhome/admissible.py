"""The admissible action space of a scene (Huang et al. 2022, Sec. 3.2).

The translation LM maps each free-text step to the nearest *admissible action*:
an action the agent can attempt in this house. Huang et al. enumerate every
action template x object (47,522 strings for their VirtualHome set). Here the
space is every action x object class present in the scene, kept only when the
class has the affordance the action needs: the union of the class's entry in
``properties_data.json`` (VirtualHome's class -> affordance table) and the
properties its nodes carry in the scene graph.

The rules (:data:`ACTION_RULES`) follow the precondition checks of the
evolving-graph executors and the 518 gold programs; e.g. GRAB needs GRABBABLE,
SWITCHON needs HAS_SWITCH, OPEN needs CAN_OPEN, SIT needs SITTABLE, WALK takes
any object or room. Two-argument actions pair a grabbable object with a target:
PUTIN needs a target with CONTAINERS or CAN_OPEN, PUTBACK one with SURFACES (or
a container: the dataset puts plates "on" dishwashers), POUR a POURABLE/
DRINKABLE source and a RECIPIENT target.

The result is a sorted list of class-level :class:`~actionable.core.program.Step`
objects (deterministic for a given scene).
"""

from __future__ import annotations

from typing import Any, Iterable

from actionable.core.program import ACTION_ARITY, Argument, Step
from actionable.core.errors import SceneError

ANY = "ANY"          # any non-room object (not the character)
ANY_OR_ROOM = "ANY_OR_ROOM"
ROOM = "ROOM"

#: action -> per-argument requirement: a set of affordances (any of), or ANY /
#: ANY_OR_ROOM / ROOM. Actions absent here (LOOKAT_SHORT, LOOKAT_LONG, RELEASE:
#: duplicates of LOOKAT and DROP) are not enumerated.
ACTION_RULES: dict[str, tuple] = {
    "WALK": (ANY_OR_ROOM,), "RUN": (ANY_OR_ROOM,), "FIND": (ANY,), "TURNTO": (ANY,),
    "LOOKAT": (ANY,), "POINTAT": (ANY,), "TOUCH": (ANY,),
    "GRAB": (frozenset({"GRABBABLE"}),), "DROP": (frozenset({"GRABBABLE"}),),
    "PUTOBJBACK": (frozenset({"GRABBABLE"}),),
    "OPEN": (frozenset({"CAN_OPEN"}),), "CLOSE": (frozenset({"CAN_OPEN"}),),
    "SWITCHON": (frozenset({"HAS_SWITCH"}),), "SWITCHOFF": (frozenset({"HAS_SWITCH"}),),
    "PLUGIN": (frozenset({"HAS_PLUG"}),), "PLUGOUT": (frozenset({"HAS_PLUG"}),),
    "SIT": (frozenset({"SITTABLE"}),), "LIE": (frozenset({"LIEABLE"}),),
    "DRINK": (frozenset({"DRINKABLE", "RECIPIENT"}),), "EAT": (frozenset({"EATABLE"}),),
    "CUT": (frozenset({"CUTTABLE"}),), "READ": (frozenset({"READABLE"}),),
    "TYPE": (frozenset({"HAS_SWITCH"}),), "WATCH": (frozenset({"LOOKABLE"}),),
    "PUTON": (frozenset({"CLOTHES"}),), "PUTOFF": (frozenset({"CLOTHES"}),),
    "SQUEEZE": (frozenset({"CLOTHES", "CREAM"}),), "GREET": (frozenset({"PERSON"}),),
    "PUSH": (frozenset({"MOVABLE"}),), "PULL": (frozenset({"MOVABLE"}),),
    "MOVE": (frozenset({"MOVABLE"}),),
    "WIPE": (frozenset({"SURFACES", "GRABBABLE", "BODY_PART"}),),
    "WASH": (frozenset({"GRABBABLE", "BODY_PART"}),),
    "RINSE": (frozenset({"GRABBABLE", "BODY_PART"}),),
    "SCRUB": (frozenset({"GRABBABLE", "BODY_PART"}),),
    "STANDUP": (), "SLEEP": (), "WAKEUP": (),
    "PUTBACK": (frozenset({"GRABBABLE"}), frozenset({"SURFACES", "CONTAINERS", "CAN_OPEN"})),
    "PUTIN": (frozenset({"GRABBABLE"}), frozenset({"CONTAINERS", "CAN_OPEN"})),
    "POUR": (frozenset({"POURABLE", "DRINKABLE"}), frozenset({"RECIPIENT", "CONTAINERS", "BODY_PART"})),
}
#: Classes the executors accept without the affordance (execution.py special
#: cases): GRAB water/child, TYPE on a keyboard.
AFFORDANCE_EXCEPTIONS: dict[tuple[str, int], frozenset[str]] = {
    ("GRAB", 0): frozenset({"water", "child"}),
    ("TYPE", 0): frozenset({"keyboard"}),
}


def class_affordances(scene: Any) -> dict[str, frozenset[str]]:
    """Class name -> affordances for every class of ``scene``: the union of
    ``properties_data.json`` and the properties of the class's nodes."""
    from actionable.worlds.virtualhome.scene import load_properties_data

    table = load_properties_data()
    out: dict[str, frozenset[str]] = {}
    for name in scene.class_names():
        props = set(table.get(name, ()))
        for nid in scene.nodes_of_class(name):
            props |= scene.properties_of(nid)
        out[name] = frozenset(props)
    return out


def _rooms(scene: Any) -> set[str]:
    return {scene.class_of(r) for r in scene.rooms} if hasattr(scene, "rooms") else set()


def _matches(rule, name: str, props: frozenset[str], rooms: set[str],
             exception: frozenset[str] = frozenset()) -> bool:
    if name in exception:
        return True
    if rule == ANY_OR_ROOM:
        return True
    if rule == ROOM:
        return name in rooms
    if rule == ANY:
        return name not in rooms
    return bool(props & rule) and name not in rooms


def admissible_actions(scene: Any = None, actions: Iterable[str] | None = None) -> list[Step]:
    """Every affordance-compatible action x object class of a scene.

    Args:
        scene: a :class:`~actionable.worlds.virtualhome.scene.SceneGraph` (or a scene name;
            ``None`` = the merged default scene).
        actions: restrict to these action names (default: all of
            :data:`ACTION_RULES`).

    Returns:
        Class-level steps, sorted by (action, argument names); the character is
        never an argument. Size for the default scene: see docs/results.md.

    Raises:
        SceneError: unknown scene name or action.
    """
    if scene is None or isinstance(scene, str):
        from actionable.worlds.virtualhome.scene import load_scene

        scene = load_scene(scene)
    acts = sorted(ACTION_RULES) if actions is None else sorted({a.upper() for a in actions})
    bad = [a for a in acts if a not in ACTION_RULES]
    if bad:
        known = [a for a in bad if a in ACTION_ARITY]
        raise SceneError(f"no admissible-action rule for {', '.join(bad)}"
                         + ("" if not known else " (enumerated as their duplicates LOOKAT/DROP)")
                         + f"; choose from {', '.join(sorted(ACTION_RULES))}")
    aff = class_affordances(scene)
    aff.pop("character", None)
    rooms = _rooms(scene)
    names = sorted(aff)
    out: list[Step] = []
    for act in acts:
        rule = ACTION_RULES[act]
        if not rule:
            out.append(Step(act, ()))
            continue
        slots = [[n for n in names
                  if _matches(r, n, aff[n], rooms, AFFORDANCE_EXCEPTIONS.get((act, i), frozenset()))]
                 for i, r in enumerate(rule)]
        if len(slots) == 1:
            out.extend(Step(act, (Argument(n),)) for n in slots[0])
        else:
            out.extend(Step(act, (Argument(a), Argument(b))) for a in slots[0] for b in slots[1] if a != b)
    out.sort(key=lambda s: (s.action, s.names))
    return out


def admissible_texts(scene: Any = None) -> list[str]:
    """The admissible actions as natural text (``put mug in fridge``), same order."""
    return [s.to_text() for s in admissible_actions(scene)]


def is_admissible(step: Step, scene: Any) -> bool:
    """Whether the class-level form of ``step`` is in the scene's admissible space
    (checked by rule, without enumerating the space)."""
    rule = ACTION_RULES.get(step.action)
    if rule is None:
        return False
    aff = class_affordances(scene)
    rooms = _rooms(scene)
    if len(rule) != len(step.args):
        return False
    return all(a.name in aff and a.name != "character"
               and _matches(r, a.name, aff[a.name], rooms,
                            AFFORDANCE_EXCEPTIONS.get((step.action, i), frozenset()))
               for i, (r, a) in enumerate(zip(rule, step.args))) and len({a.name for a in step.args}) == len(step.args)
