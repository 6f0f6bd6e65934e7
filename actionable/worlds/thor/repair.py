"""Rule repair in the THOR kitchen (CAPE, Raman et al. 2024, with rules instead of the LM).

When a step fails, the THOR interpreter (:mod:`.actions`) names its unmet preconditions as
readable PDDL-style strings (``atLocation(agent, Mug|...)``, ``opened(Cabinet|...)``, ``not
holdsAny(agent)``). :func:`corrective_steps` maps the first repairable one to resolved steps:

=====================================  ===================================================
unmet precondition                     corrective steps
=====================================  ===================================================
``atLocation(agent, x)``               ``WALK x`` (a type such as ``SinkBasin``: its first instance)
``opened(c)``                          ``OPEN c``
``holds(agent, x)``                    ``GRAB x``
``not holdsAny(agent)``                ``PUTBACK/PUTIN <held> <surface in reach>`` (else walk to
                                       the nearest counter top / table first)
``isFilledWithLiquid(x)``, x held      ``PUTIN x <sink basin>``, ``SWITCHON <faucet>`` (unless it
                                       runs), ``GRAB x``: AI2-THOR fills what stands under water
=====================================  ===================================================

:class:`~actionable.worlds.thor.planning.ThorAffordance` applies them repeatedly within a budget
(each corrective step must itself execute, possibly after its own repair).
"""

from __future__ import annotations

import re

from actionable.core.program import Argument, Step
from actionable.worlds.thor import actions as A
from actionable.worlds.thor.scene import ThorState

_UNMET = re.compile(r"^(not )?(\w+)\((.*)\)$")
#: receptacle types a thing is put *in* (``put mug in sink basin``); others take ``on``
CONTAINERS = frozenset({"SinkBasin", "Sink", "CoffeeMachine", "Pot", "Pan", "Bowl", "Cup", "Mug", "Kettle",
                        "GarbageCan", "Microwave", "Fridge", "Toaster", "Box", "Drawer", "Cabinet", "Safe",
                        "BathtubBasin", "LaundryHamper"})
#: where a held object is put down to free the hands, by preference
SURFACES = ("CounterTop", "DiningTable", "SideTable", "Desk", "CoffeeTable", "Shelf", "Chair")
_SNAKE = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def class_name(type_: str) -> str:
    """AI2-THOR type -> the planner's class name (``CoffeeMachine`` -> ``coffee_machine``)."""
    return _SNAKE.sub("_", type_).lower()


def put_verb(type_: str) -> str:
    """``PUTIN`` for containers (:data:`CONTAINERS`, openables), else ``PUTBACK`` (put on)."""
    from actionable.worlds.thor import data

    caps = data.vocab()["TYPE_CAPS"].get(type_, ())
    return "PUTIN" if type_ in CONTAINERS or "openable" in caps else "PUTBACK"


def resolved(action: str, *ids: str, s: ThorState) -> Step:
    """A resolved step on object ids of ``s`` (class names from their types)."""
    return Step(action, tuple(Argument(class_name(s.objects[i].type), i) for i in ids))


def corrective_steps(unmet: list[str], s: ThorState, step: Step) -> list[Step] | None:
    """Resolved steps that establish the first repairable unmet precondition (module doc), or None."""
    args = {a.id for a in step.args}
    for u in unmet:
        m = _UNMET.match(u)
        if not m:
            continue
        neg, pred, rest = m.group(1), m.group(2), [x.strip() for x in m.group(3).split(",")]
        x = rest[-1]
        if pred == "atLocation" and not neg:
            if x not in s.objects:  # atLocation(agent, SinkBasin): a type
                ids = s.of_type(x)
                if not ids:
                    continue
                x = ids[0]
            if s.anchor(x) is not None:
                return [resolved("WALK", x, s=s)]
        elif pred == "opened" and not neg and x in s.objects:
            return [resolved("OPEN", x, s=s)]
        elif pred == "holds" and not neg and x in s.objects and x not in (s.held,):
            return [resolved("GRAB", x, s=s)]
        elif pred == "holdsAny" and neg and s.held is not None and s.held not in args:
            return _put_down(s, args)
        elif pred == "isFilledWithLiquid" and not neg and x == s.held:
            return _fill(s, x)
    return None


def _fill(s: ThorState, h: str) -> list[Step] | None:
    """Fill the held vessel ``h`` with water: put it in a sink basin a faucet runs into, run
    the faucet (unless it runs), take it back (AI2-THOR fills what stands under running water)."""
    links = s.scene.links
    for f in sorted(i for i in links if s.objects[i].type == "Faucet"):
        basin = links[f]
        if basin not in s.objects or s.objects[h].type not in A.teach_can_contain().get(s.objects[basin].type, ()):
            continue
        out = [resolved("PUTIN", h, basin, s=s)]
        if not s.objects[f].on:
            out.append(resolved("SWITCHON", f, s=s))
        return out + [resolved("GRAB", h, s=s)]
    return None


def _put_down(s: ThorState, keep: set) -> list[Step] | None:
    h = s.held
    cc = A.teach_can_contain()
    ht = s.objects[h].type

    def free(i: str) -> bool:
        o = s.objects[i]
        return (i not in keep and i != h and "receptacle" in o.caps and ht in cc.get(o.type, ())
                and not ("openable" in o.caps and not o.open) and s.enclosed(i) is None and s.anchor(i) is not None)

    rank = {t: k for k, t in enumerate(SURFACES)}
    near = sorted((i for i in s.objects if free(i) and s.reachable(i) and s.objects[i].type in rank),
                  key=lambda i: (rank[s.objects[i].type], i))
    if near:
        return [resolved(put_verb(s.objects[near[0]].type), h, near[0], s=s)]
    far = sorted((i for i in s.objects if free(i) and s.objects[i].type in rank),
                 key=lambda i: (rank[s.objects[i].type], i))
    if far:
        return [resolved("WALK", far[0], s=s), resolved(put_verb(s.objects[far[0]].type), h, far[0], s=s)]
    return None


__all__ = ["corrective_steps", "class_name", "put_verb", "resolved", "CONTAINERS", "SURFACES"]
