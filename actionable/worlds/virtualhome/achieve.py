"""Achievers of VirtualHome's goal interpreter for the goal-directed planner
(:mod:`actionable.planning.goaldirected`): the resolved steps, best first, that make a goal
condition hold once the planning affordance repairs their preconditions.

:class:`VirtualHomeAchievers` is a mixin of
:class:`~actionable.worlds.virtualhome.interpret.VirtualHomeGoals` (it uses the interpreter's
``graph``); split out of interpret.py, which had passed 800 lines.
"""

from __future__ import annotations

from actionable.core.conditions import CHARACTER, Condition
from actionable.core.program import ACTION_ARITY, Argument, Step
from actionable.worlds.virtualhome.goalview import HOLDING
from actionable.worlds.virtualhome.intents import _room_classes

#: state -> the step that makes it (one object)
_ACHIEVE = {"ON": ("SWITCHON",), "OFF": ("SWITCHOFF",), "OPEN": ("OPEN",), "CLOSED": ("CLOSE",),
            "PLUGGED_IN": ("PLUGIN",), "PLUGGED_OUT": ("PLUGOUT",), "CLEAN": ("WASH", "WIPE", "RINSE", "SCRUB")}
#: what the character sits or lies on, in the order tried (a bed first for lying)
_SEATS = ("couch", "sofa", "chair", "bed", "bench")
#: surfaces an object taken to a room is put on only when the room has no other
_FLOORS = frozenset({"floor", "rug", "mat", "carpet", "ceiling", "wall"})


class VirtualHomeAchievers:
    """Achievers of the goal conditions (see the module doc)."""

    def achievers(self, c: Condition, view) -> list[Step]:
        g = self.graph

        def arg(x):
            return Argument(g.class_of(x), x)
        if c.subject != CHARACTER and (c.target == CHARACTER or (c.subject is not None and g.class_of(c.subject) is None)):
            return []  # a condition on the character as an object ("CLOSE(cat, character)"): no step names it
        if c.kind == "action":
            alts = c.value.split("|")
            if c.subject is None:
                return [Step(a) for a in alts if ACTION_ARITY.get(a, 1) == 0]
            args = (arg(c.subject),) if c.target is None else (arg(c.subject), arg(c.target))
            return [Step(a, args) for a in alts if ACTION_ARITY.get(a, 1) == len(args)]
        if c.kind == "state":
            if c.subject == CHARACTER:
                if c.negate:
                    return [Step("STANDUP")]
                act = "SIT" if c.value == "SITTING" else "LIE"
                order = _SEATS if act == "SIT" else ("bed",) + _SEATS  # "go to bed", "lie down": a bed first
                seats = [i for n in dict.fromkeys(order) for i in g.nodes_of_class(n)
                         if ("SITTABLE" if act == "SIT" else "LIEABLE") in g.properties_of(i)]
                return [Step(act, (arg(i),)) for i in seats[:3]]
            if c.negate:
                inv = {"ON": "OFF", "OFF": "ON", "OPEN": "CLOSED", "CLOSED": "OPEN", "DIRTY": "CLEAN",
                       "PLUGGED_IN": "PLUGGED_OUT", "PLUGGED_OUT": "PLUGGED_IN"}.get(c.value)
                return [Step(a, (arg(c.subject),)) for a in _ACHIEVE.get(inv, ())]
            return [Step(a, (arg(c.subject),)) for a in _ACHIEVE.get(c.value, ())]
        s, t = c.subject, c.target
        if c.negate:
            if c.value == "INSIDE" and s != CHARACTER and g.class_of(t) in _room_classes(g):
                # "take the book out of the home office": set down in another room (the rooms in the
                # house's order, two pieces of furniture each), else carried out in the hands
                return [st for r in g.rooms if r != t for st in self._room_tops(s, r)[:2]] + [Step("GRAB", (arg(s),))]
            if c.value in ("INSIDE", "ON") and s != CHARACTER:
                return [Step("GRAB", (arg(s),))]
            return []
        if s == CHARACTER:
            if c.value == "INSIDE":
                return [Step("WALK", (arg(t),))]
            if c.value in HOLDING:  # a hand named: VirtualHome's GRAB takes the
                return [Step("GRAB", (arg(t),))]  # right hand when it is free, else the left
            if c.value == "ON":
                return [Step("SIT", (arg(t),)), Step("LIE", (arg(t),))]
            if c.value == "FACING":
                return [Step("TURNTO", (arg(t),)), Step("LOOKAT", (arg(t),))]
            if c.value == "CLOSE":
                return [Step("WALK", (arg(t),))]
            return []
        if c.value == "INSIDE":
            if g.class_of(t) in _room_classes(g):
                return self._room_tops(s, t)
            return [Step("PUTIN", (arg(s), arg(t)))]
        if c.value == "ON":
            return [Step("PUTBACK", (arg(s), arg(t)))]
        return []

    def _room_tops(self, obj, room) -> list[Step]:
        """An object taken to ``room``: put on one of the room's surfaces (furniture before the floor,
        then by id; at most 4)."""
        g = self.graph
        tops = sorted((i for i in g.node_ids if "SURFACES" in g.properties_of(i) and i != obj
                       and g.room_of(i) == room), key=lambda i: (g.class_of(i) in _FLOORS, i))[:4]
        return [Step("PUTBACK", (Argument(g.class_of(obj), obj), Argument(g.class_of(i), i))) for i in tops]


__all__ = ["VirtualHomeAchievers"]
