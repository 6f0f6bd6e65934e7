"""Interpreter of the THOR world's actions: preconditions and effects.

Written from the ten task actions of ALFRED's PDDL domain (``data/alfred.pddl``, PyPI
``alfworld`` 0.4.2) and from AI2-THOR's behaviour as TEACh records it. Each action has a
precondition function returning the *unmet* conditions as readable strings (PDDL predicate
style: ``"opened(Fridge|-02.10|+00.00|+01.09)"``, ``"not holdsAny(agent)"``) and an effect
function run only when none is unmet. The agent and locations of the PDDL signatures are implicit.

ALFRED actions (PDDL order of the remaining parameters)::

    GotoLocation(r)          OpenObject(r)          CloseObject(r)
    PickupObject(o[, r])     PutObject(o, r)        ToggleObject(o[, r])
    SliceObject(co, ko)      CleanObject(r, o)      HeatObject(r, o)      CoolObject(r, o)

TEACh actions (one argument, the object the driver clicked)::

    PickUp(o)  Place(r)  Open(r)  Close(r)  ToggleOn(o)  ToggleOff(o)  Slice(o)  Pour(t)
    Clean(o)   Fill(o)

AI2-THOR side effects modelled (states TEACh needs beyond ALFRED, see docs/worlds.md):
a running Faucet cleans (``isDirty`` off) and fills with water (``isFilledWithLiquid``) what
is in its SinkBasin; a CoffeeMachine that is on fills the cups and mugs in it (or placed in it) with coffee;
a StoveKnob lights its StoveBurner, which heats what stands on it (``Hot``; cookables
``isCooked``; cookables in water ``isBoiled``; the water itself hot); a Microwave or Toaster
switched on heats/cooks its contents; a Fridge makes its contents ``Cold``; ``Pour`` empties the held
object into the target (filled when it can hold liquid; poured coffee is no longer "coffee", as
TEACh records it); ``Slice`` makes three
``<Type>Sliced`` objects in the same receptacle (an Egg: one ``EggCracked``, cookable and not
pickupable), which take that receptacle's standing effects.
"""

from __future__ import annotations

import functools

from actionable.worlds.thor import data
from actionable.worlds.thor.scene import ThorState

KNIVES = ("Knife", "ButterKnife")
HEATERS = ("StoveBurner", "Microwave", "Toaster")
#: action name -> allowed argument counts
ARITY: dict[str, tuple[int, ...]] = {
    "GotoLocation": (1,), "OpenObject": (1,), "CloseObject": (1,), "PickupObject": (1, 2),
    "PutObject": (2,), "ToggleObject": (1, 2), "SliceObject": (2,), "CleanObject": (2,),
    "HeatObject": (2,), "CoolObject": (2,),
    "PickUp": (1,), "Place": (1,), "Open": (1,), "Close": (1,), "ToggleOn": (1,), "ToggleOff": (1,),
    "Slice": (1,), "Pour": (1,), "Clean": (1,), "Fill": (1,),
}
ALFRED_ACTIONS = tuple(list(ARITY)[:10])
TEACH_ACTIONS = tuple(list(ARITY)[10:])


#: (receptacle type, object type) pairs TEACh's task definitions require that ALFRED's table lacks:
#: "Plate Of Toast" (TEACh task 106, Padmakumar et al. 2022) is a cooked BreadSliced on a Plate
TEACH_TASK_PAIRS = (("Plate", "BreadSliced"),)


@functools.lru_cache(maxsize=1)
def teach_can_contain() -> dict[str, frozenset[str]]:
    """ALFRED's ``canContain`` extended with every (receptacle type, object type) pair that
    stands so in a real AI2-THOR state of the 79 TEACh episodes (initial or final), and the pairs
    TEACh's task definitions require (:data:`TEACH_TASK_PAIRS`)."""
    pairs: dict[str, set[str]] = {k: set(v) for k, v in data.can_contain().items()}
    for rec, obj in TEACH_TASK_PAIRS:
        pairs.setdefault(rec, set()).add(obj)
    for ep in data.teach_episodes().values():
        for objs in (ep["objects"], ep["final"]):
            types = {o["id"]: o["type"] for o in objs}
            for o in objs:
                if o["parent"] in types:
                    pairs.setdefault(types[o["parent"]], set()).add(o["type"])
    return {k: frozenset(v) for k, v in pairs.items()}


def _caps(s: ThorState, oid: str):
    return s.objects[oid].caps


def _at(s: ThorState, oid: str, out: list[str]) -> None:
    if not s.reachable(oid):
        out.append(f"atLocation(agent, {oid})")


def _accessible(s: ThorState, oid: str, out: list[str]) -> None:
    c = s.enclosed(oid)
    if c is not None:
        out.append(f"opened({c})")


def _holds(s: ThorState, oid: str, out: list[str]) -> None:
    if s.held != oid:
        out.append(f"holds(agent, {oid})")


def _cap(s: ThorState, oid: str, cap: str, pred: str, out: list[str]) -> None:
    if cap not in s.objects[oid].caps:
        out.append(f"{pred}({oid})")


# ------------------------------------------------------------------ preconditions
def pre_goto(s, r):
    return [f"not holds(agent, {r})"] if s.anchor(r) is None else []


def pre_open(s, r, want_open=False):
    out: list[str] = []
    _cap(s, r, "openable", "openable", out)
    _at(s, r, out)
    if s.objects[r].open != want_open:
        out.append(("" if want_open else "not ") + f"opened({r})")
    return out


def pre_pickup(s, o, r=None):
    out: list[str] = []
    _cap(s, o, "pickupable", "pickupable", out)
    if s.held is not None:
        out.append("not holdsAny(agent)")
        if s.held == o:
            return out
    if r is not None and s.objects[o].parent != r:
        out.append(f"inReceptacle({o}, {r})")
    _at(s, o, out)
    _accessible(s, o, out)
    return out


def pre_put(s, o, r, table=None):
    out: list[str] = []
    _holds(s, o, out)
    ro = s.objects[r]
    if "receptacle" not in ro.caps:
        out.append(f"receptacle({r})")
    elif r == o or s.anchor(r) is None:
        out.append(f"not holds(agent, {r})")
    _at(s, r, out)
    if "openable" in ro.caps and not ro.open:
        out.append(f"opened({r})")
    _accessible(s, r, out)
    ctype = s.objects[o].type
    table = table or data.can_contain()
    if ctype not in table.get(ro.type, ()):
        out.append(f"canContain({ro.type}, {ctype})")
    return out


def pre_toggle(s, o, r=None, want=None):
    out: list[str] = []
    _cap(s, o, "toggleable", "toggleable", out)
    if r is not None and s.objects[o].parent != r:
        out.append(f"inReceptacle({o}, {r})")
    _at(s, o, out)
    _accessible(s, o, out)
    if want is not None and s.objects[o].on == want:
        out.append(("not " if want else "") + f"isToggled({o})")
    return out


def pre_slice(s, co, ko):
    out: list[str] = []
    _cap(s, co, "sliceable", "sliceable", out)
    if s.objects[ko].type not in KNIVES:
        out.append(f"objectType({ko}, KnifeType|ButterKnifeType)")
    _holds(s, ko, out)
    if s.anchor(co) is None:
        out.append(f"not holds(agent, {co})")
    _at(s, co, out)
    _accessible(s, co, out)  # not the bread shut in the fridge
    if s.objects[co].sliced:
        out.append(f"not isSliced({co})")
    return out


def pre_treat(s, r, o, rtype, ability):
    out: list[str] = []
    if s.objects[o].type not in data.action_objects()[ability]:
        out.append(f"{ability.lower()}({o})")
    if s.objects[r].type != rtype:
        out.append(f"receptacleType({r}, {rtype}Type)")
    _at(s, r, out)
    _holds(s, o, out)
    return out


def pre_pour(s, t):
    out: list[str] = []
    h = s.held
    if h is None:
        return ["holdsAny(agent)"]
    if not s.objects[h].filled:
        out.append(f"isFilledWithLiquid({h})")
    if t == h:
        out.append(f"not holds(agent, {t})")
    _at(s, t, out)
    _accessible(s, t, out)
    return out


def _near_water(s):
    return any(s.reachable(i) for i, x in s.objects.items() if x.type in ("SinkBasin", "Faucet"))


def pre_clean(s, o):
    out: list[str] = []
    _cap(s, o, "dirtyable", "dirtyable", out)
    if not s.objects[o].dirty:
        out.append(f"isDirty({o})")
    _at(s, o, out)
    _accessible(s, o, out)
    if not _near_water(s):
        out.append("atLocation(agent, SinkBasin)")
    return out


def pre_fill(s, o):
    out: list[str] = []
    _cap(s, o, "canFillWithLiquid", "canFillWithLiquid", out)
    if s.objects[o].filled:
        out.append(f"not isFilledWithLiquid({o})")
    _at(s, o, out)
    _accessible(s, o, out)
    if not _near_water(s):
        out.append("atLocation(agent, SinkBasin)")
    return out


# ------------------------------------------------------------------ side effects
def _basins(s: ThorState, basin: str) -> list[str]:
    """A SinkBasin and its Sink (``Sink|..|SinkBasin`` -> ``Sink|..``): water reaches both."""
    sink = basin.rsplit("|", 1)[0]
    return [basin, sink] if basin.endswith("|SinkBasin") and sink in s.objects else [basin]


def _running(s: ThorState, recep: str) -> bool:
    return any(s.objects[f].on and recep in _basins(s, b) for f, b in s.scene.links.items()
               if s.objects[f].type in ("Faucet", "ShowerHead"))


def _water(s: ThorState, basin: str) -> None:
    for c in [c for b in _basins(s, basin) for c in s.objects[b].children]:
        x = s.objects[c]
        if "dirtyable" in x.caps:
            x.dirty = False
        if "canFillWithLiquid" in x.caps and not x.filled:
            x.filled, x.liquid = True, "water"


def _heat(s: ThorState, source: str) -> None:
    src = s.objects[source]
    targets = src.children if src.type == "StoveBurner" else [source]
    for top in targets:
        t = s.objects[top]
        if top != source:
            t.temp = "Hot"
        for c in s.contents(top):
            x = s.objects[c]
            x.temp = "Hot"
            if "cookable" in x.caps:
                x.cooked = True
                p = s.objects[x.parent]
                if p.filled and p.liquid == "water":
                    x.boiled = True
        if top != source and "cookable" in t.caps:
            t.cooked = True


def settle(s: ThorState, oid: str) -> None:
    """Apply the standing effects of the containers around ``oid`` (running water, a lit burner,
    a microwave or toaster that is on, a fridge)."""
    p = s.objects[oid].parent
    while p is not None:
        a = s.objects[p]
        if a.type in ("SinkBasin", "Sink", "BathtubBasin") and _running(s, p):
            _water(s, p)
        elif a.type == "CoffeeMachine" and a.on:
            _coffee(s, p)
        elif a.type in HEATERS and a.on:
            _heat(s, p)
        elif a.type == "Fridge":
            for c in [oid, *s.contents(oid)]:
                s.objects[c].temp = "Cold"
        p = a.parent


def _coffee(s: ThorState, machine: str) -> None:
    for c in s.objects[machine].children:
        x = s.objects[c]
        if "canFillWithLiquid" in x.caps:
            x.filled, x.liquid, x.temp = True, "coffee", "Hot"


def toggled(s: ThorState, oid: str) -> None:
    """Effects of ``oid`` having been switched on or off."""
    o = s.objects[oid]
    linked = s.scene.links.get(oid)
    if o.type == "StoveKnob" and linked:
        s.objects[linked].on = o.on
        if o.on:
            _heat(s, linked)
    elif o.type in ("Faucet", "ShowerHead") and linked and o.on:
        _water(s, linked)
    elif o.type == "CoffeeMachine" and o.on:
        _coffee(s, oid)
    elif o.type in HEATERS and o.on:
        _heat(s, oid)


def sliced(s: ThorState, oid: str) -> None:
    from actionable.worlds.thor.scene import Obj

    o = s.objects[oid]
    o.sliced = True
    if o.type == "Egg":  # AI2-THOR: one EggCracked, cookable, not pickupable
        pieces = [(f"{oid}|EggCracked_0", "EggCracked", ["cookable"])]
    else:
        caps = ["pickupable"] + (["cookable"] if "cookable" in o.caps or o.type == "Bread" else [])
        pieces = [(f"{oid}|{o.type}Sliced_{k}", f"{o.type}Sliced", caps) for k in range(3)]
    for sid, typ, caps in pieces:
        if sid not in s.objects:
            s.objects[sid] = Obj({"id": sid, "type": typ, "parent": None, "caps": caps})
            s.move(sid, o.parent)
            settle(s, sid)  # cut in a pan on a lit burner: cooked there


# ------------------------------------------------------------------ dispatch
def _do_pickup(s, o):
    s.move(o, None)
    s.held = o


def _do_put(s, o, r):
    s.held = None
    s.move(o, r)
    settle(s, o)


def _do_toggle(s, o, value=None):
    x = s.objects[o]
    x.on = (not x.on) if value is None else value
    x.toggled = True
    toggled(s, o)


def _do_goto(s, r):
    a = s.anchor(r)
    s.agent_loc = s.scene.loc_key.get(a, a)
    p = s.objects[a].pos
    s.agent_pos = (p[0], p[2]) if p is not None else None


def _do_open(s, r, value):
    s.objects[r].open = value


def _do_treat(s, o, **kw):
    x = s.objects[o]
    for k, v in kw.items():
        setattr(x, k, v)


def _do_pour(s, t):
    h = s.objects[s.held]
    x = s.objects[t]
    if "canFillWithLiquid" in x.caps:  # TEACh: only a CoffeeMachine makes coffee (simbotIsFilledWithCoffee)
        x.filled, x.liquid = True, "water" if h.liquid == "water" else "liquid"
        settle(s, t)
    h.filled, h.liquid = False, None


def _do_fill(s, o):
    x = s.objects[o]
    x.filled, x.liquid = True, "water"
    settle(s, o)


def execute(s: ThorState, name: str, args: tuple[str, ...], check_only: bool = False) -> list[str]:
    """Check the preconditions of ``name(*args)`` on ``s``; apply its effects when all hold.

    Args are existing object ids (the world checks them). Returns the unmet preconditions
    (empty list: executed, or executable when ``check_only``)."""
    a = args
    if name == "PickUp":
        name, a = "PickupObject", (a[0],)
    elif name in ("Open", "Close"):
        name = name + "Object"
    if name == "Place":
        if s.held is None:
            return ["holdsAny(agent)"]
        o, r = s.held, a[0]
        unmet = pre_put(s, o, r, teach_can_contain())
        fx = (_do_put, o, r)
    elif name == "PutObject":
        unmet, fx = pre_put(s, *a), (_do_put, *a)
    elif name == "PickupObject":
        unmet, fx = pre_pickup(s, *a), (_do_pickup, a[0])
    elif name == "GotoLocation":
        unmet, fx = pre_goto(s, *a), (_do_goto, *a)
    elif name in ("OpenObject", "CloseObject"):
        want = name == "CloseObject"
        unmet, fx = pre_open(s, a[0], want), (_do_open, a[0], not want)
    elif name == "ToggleObject":
        unmet, fx = pre_toggle(s, *a), (_do_toggle, a[0])
    elif name in ("ToggleOn", "ToggleOff"):
        want = name == "ToggleOn"
        unmet, fx = pre_toggle(s, a[0], None, want), (_do_toggle, a[0], want)
    elif name == "SliceObject":
        unmet, fx = pre_slice(s, *a), (sliced, a[0])
    elif name == "Slice":
        knife = s.held if s.held is not None else a[0]
        unmet = pre_slice(s, a[0], knife) if s.held is not None else ["holds(agent, Knife|ButterKnife)"] + \
            [u for u in pre_slice(s, a[0], a[0]) if "isSliced" in u or "sliceable" in u or "atLocation" in u]
        fx = (sliced, a[0])
    elif name == "CleanObject":
        unmet, fx = pre_treat(s, *a, "SinkBasin", "Cleanable"), (_do_treat, a[1], {"clean": True, "dirty": False})
    elif name == "HeatObject":
        unmet, fx = pre_treat(s, *a, "Microwave", "Heatable"), (_do_treat, a[1], {"temp": "Hot"})
    elif name == "CoolObject":
        unmet, fx = pre_treat(s, *a, "Fridge", "Coolable"), (_do_treat, a[1], {"temp": "Cold"})
    elif name == "Pour":
        unmet, fx = pre_pour(s, a[0]), (_do_pour, a[0])
    elif name == "Clean":
        unmet, fx = pre_clean(s, a[0]), (_do_treat, a[0], {"clean": True, "dirty": False})
    elif name == "Fill":
        unmet, fx = pre_fill(s, a[0]), (_do_fill, a[0])
    else:  # pragma: no cover - the world validates names first
        raise KeyError(name)
    if not unmet and not check_only:
        fn, *rest = fx
        if isinstance(rest[-1], dict):
            fn(s, *rest[:-1], **rest[-1])
        else:
            fn(s, *rest)
    return unmet
