"""Achievers of THOR's goal interpreter for the goal-directed planner
(:mod:`actionable.planning.goaldirected`): the resolved steps that make a goal condition hold once
the planning affordance repairs their preconditions, and the condition that puts an enabling one
back (a faucet switched on for a fill is switched off again).

:class:`ThorAchievers` is a mixin of :class:`~actionable.worlds.thor.interpret.ThorGoals` (it uses
the interpreter's ``initial``, ``scene``, ``after`` and ``_knobs``); split out of interpret.py,
which had passed 800 lines.
"""

from __future__ import annotations

from actionable.core.conditions import Condition
from actionable.core.program import Step
from actionable.worlds.thor.actions import teach_can_contain
from actionable.worlds.thor.intents import _inside
from actionable.worlds.thor.repair import put_verb, resolved
from actionable.worlds.thor.scene import ThorState

#: vessels that carry water to what is filled (a plant, a pot), in the order they are tried
_VESSELS = ("Cup", "Mug", "Bowl", "Pot", "Kettle", "WateringCan", "WineBottle", "Glassbottle", "Bottle")


class ThorAchievers:
    """Achievers and restoring conditions (see the module doc)."""

    def restore(self, c: Condition) -> Condition | None:
        """The condition that puts an enabling condition back once its effect is there: a faucet,
        heater or coffee machine switched on for it is switched off again (``None`` for any other
        condition: a knife in hand is simply put down with the next step that needs the hand)."""
        if c.kind == "state" and c.value == "isToggled" and not c.negate:
            return Condition("state", c.subject, "isToggled", negate=True)
        return None

    def achievers(self, c: Condition, view) -> list[Step]:
        """Resolved steps, best first, that make ``c`` hold once the affordance's repair adds
        their preconditions (empty: no single step does, or an ordering constraint is unmet)."""
        s: ThorState = getattr(view, "state", None) or self.initial
        if any(not (any(view.holds(y) for y in x) if isinstance(x, frozenset) else view.holds(x))
               for x in self.after.get(c, ())):  # (a frozenset: any of them)
            return []
        objs = s.objects

        def step(action, *ids):
            return resolved(action, *ids, s=s)
        if c.kind == "relation":
            if c.value == "HOLDS":
                if c.negate or c.target not in objs:
                    return []
                return [step("GRAB", c.target)]
            if c.subject not in objs or c.target not in objs:
                return []
            if c.negate:
                return [step("GRAB", c.subject)]
            return [step(put_verb(objs[c.target].type), c.subject, c.target)]
        x = c.subject
        if x not in objs:
            return []
        o = objs[x]
        v = c.value
        if v == "isToggled":
            if o.type == "StoveBurner":
                return [step("SWITCHOFF" if c.negate else "SWITCHON", k) for k in self._knobs(x)]
            return [step("SWITCHOFF" if c.negate else "SWITCHON", x)]
        if v == "isOpen":
            return [step("CLOSE" if c.negate else "OPEN", x)]
        if v == "isSliced" and not c.negate:
            return [step("CUT", x)]
        if v == "isDirty" and c.negate:
            return self._under_water(s, x) + [step("WASH", x)]
        if v in ("isFilledWithLiquid", "filledWith:water") and not c.negate:
            out = self._under_water(s, x) if "pickupable" in o.caps else []
            vessels = sorted((i for i, y in objs.items() if i != x and y.type in _VESSELS and "pickupable" in y.caps
                              and "canFillWithLiquid" in y.caps),
                             key=lambda i: (not (objs[i].filled and objs[i].liquid == "water"), i != s.held,
                                            _VESSELS.index(objs[i].type), s.enclosed(i) is not None, i))
            return out + [step("POUR", i, x) for i in vessels[:3]]
        if v == "filledWith:coffee":
            out = []
            for m in s.of_type("CoffeeMachine"):
                if _inside(s, x, m) and not objs[m].on:
                    out.append(step("SWITCHON", m))
                elif objs[m].on:
                    out.append(step("PUTIN", x, m))
            return out
        if v in ("Hot", "isCooked", "isBoiled"):
            out = []
            cc = teach_can_contain()
            for h, y in sorted(objs.items()):
                if y.type in ("Microwave", "Toaster", "StoveBurner"):
                    lit = y.on
                    if _inside(s, x, h) and not lit:
                        out += ([step("SWITCHON", k) for k in self._knobs(h)] if y.type == "StoveBurner"
                                else [step("SWITCHON", h)])
                    elif lit and o.type in cc.get(y.type, ()) and v != "isBoiled":
                        out.append(step(put_verb(y.type), x, h))
            if v == "isBoiled":
                out += [step("PUTIN", x, p) for p, y in sorted(objs.items()) if p != x and y.filled
                        and y.liquid == "water" and o.type in cc.get(y.type, ())]
            return out
        if v == "Cold" and not c.negate:
            return [step("PUTIN", x, f) for f in s.of_type("Fridge")]
        return []

    def _under_water(self, s: ThorState, x) -> list[Step]:
        """Put ``x`` under a running faucet, or run the faucet over the basin ``x`` stands in."""
        out = []
        cc = teach_can_contain()
        for f, basin in sorted(self.scene.links.items()):
            if s.objects[f].type != "Faucet" or basin not in s.objects:
                continue
            if s.objects[f].on and s.objects[x].type in cc.get(s.objects[basin].type, ()) \
                    and "pickupable" in s.objects[x].caps:
                out.append(resolved("PUTIN", x, basin, s=s))
            elif not s.objects[f].on and (_inside(s, x, basin) or _inside(s, x, basin.rsplit("|", 1)[0])):
                out.append(resolved("SWITCHON", f, s=s))
        return out


__all__ = ["ThorAchievers"]
