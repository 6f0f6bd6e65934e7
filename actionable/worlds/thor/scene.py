"""Scenes and states of the THOR world.

A :class:`Scene` is immutable: object templates, where each top-level object stands
(its *location key*), which StoveKnob lights which StoveBurner and which Faucet runs
into which SinkBasin. A :class:`ThorState` is the mutable episode state built from it.

Two sources of scenes (``list_scenes()``):

* ``FloorPlan<N>`` — the 120 ALFRED layouts. The layout lists object *types* and receptacle
  instances, not where objects are, so objects are placed by a seeded rule
  (:func:`alfred_scene`).
* ``teach:<game id>`` — the initial state of one of 79 TEACh episodes (AI2-THOR metadata).

Locations (ALFRED's ``atLocation``/``receptacleAtLocation``): every object stands under one
top-level *anchor* (follow ``parent`` up; the Floor does not count). Objects that cannot be
picked up (fixtures, appliances, furniture) are always anchors: AI2-THOR's ``parentReceptacles``
of fixtures hold cycles (a cabinet inside a cabinet, a countertop on a plate). In ALFRED scenes an anchor's
location is the agent pose ALFRED reaches it from (receptacles sharing a pose share a location).
In TEACh scenes it is the anchor itself, and an agent at anchor A also reaches anchors whose
floor position lies within :data:`REACH_M` metres of A (AI2-THOR interacts within 1.5 m).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import re

from actionable.core.errors import UnknownSceneError
from actionable.worlds.thor import data

#: horizontal radius (metres) within which anchors of a TEACh scene are reachable together
REACH_M = 1.0
_FLOORPLAN = re.compile(r"^FloorPlan(\d+)$")


class Obj:
    """One object of a state. Capabilities are AI2-THOR's flags (``caps``); the rest are states:
    ``open``, ``on`` (isToggled), ``dirty``, ``filled`` (isFilledWithLiquid) with ``liquid``
    (``"water"``/``"coffee"``/None), ``cooked``, ``boiled`` (TEACh's simbotIsBoiled), ``sliced``,
    ``temp`` (``"RoomTemp"``/``"Hot"``/``"Cold"``), ALFRED's ``clean``/``hot``/``cool``/``toggled``."""

    __slots__ = ("id", "type", "parent", "children", "pos", "caps", "open", "on", "dirty", "filled",
                 "liquid", "cooked", "boiled", "sliced", "broken", "temp", "clean", "toggled")

    def __init__(self, t: dict):
        st = set(t.get("states", ()))
        self.id = t["id"]
        self.type = t["type"]
        self.parent = t.get("parent")
        self.children: list[str] = []
        self.pos = tuple(t["pos"]) if t.get("pos") else None
        self.caps = frozenset(t.get("caps", ()))
        self.open = "isOpen" in st
        self.on = "isToggled" in st
        self.dirty = "isDirty" in st
        self.filled = "isFilledWithLiquid" in st or "simbotIsFilledWithWater" in st \
            or "simbotIsFilledWithCoffee" in st
        self.liquid = ("coffee" if "simbotIsFilledWithCoffee" in st else "water") if self.filled else None
        self.cooked = "isCooked" in st or "simbotIsCooked" in st
        self.boiled = "simbotIsBoiled" in st
        self.sliced = "isSliced" in st
        self.broken = "isBroken" in st
        self.temp = t.get("temp", "RoomTemp")
        self.clean = self.toggled = False

    def states(self) -> list[str]:
        """Readable true states (``isOpen``, ``isToggled``, ``isDirty``, ``isFilledWithLiquid``...)."""
        out = [n for n, v in (("isOpen", self.open), ("isToggled", self.on), ("isDirty", self.dirty),
                              ("isFilledWithLiquid", self.filled), ("isCooked", self.cooked),
                              ("isBoiled", self.boiled), ("isSliced", self.sliced), ("isClean", self.clean),
                              ("isBroken", self.broken)) if v]
        if self.liquid:
            out.append(f"filledWith:{self.liquid}")
        if self.temp != "RoomTemp":
            out.append(self.temp)
        return out


class Scene:
    """Immutable scene: ``name``, ``source`` (``"alfred"``/``"teach"``), ``templates`` (object
    dicts), ``agent_pos`` ((x, z) or None), ``loc_key`` (anchor id -> location key), ``links``
    (StoveKnob -> StoveBurner, Faucet -> SinkBasin), ``short`` (id -> ``Mug_1`` style name)."""

    def __init__(self, name: str, source: str, templates: list[dict], agent_pos, loc_key: dict,
                 links: dict, meta: dict | None = None):
        self.name, self.source, self.templates = name, source, templates
        self.agent_pos, self.loc_key, self.links = agent_pos, loc_key, links
        self.meta = meta or {}
        self.ids = tuple(t["id"] for t in templates)
        counts: dict[str, int] = {}
        self.short: dict[str, str] = {}
        type_of = {t["id"]: t["type"] for t in templates}
        for i in sorted(self.ids):
            typ = type_of[i]
            counts[typ] = counts.get(typ, 0) + 1
            self.short[i] = f"{typ}_{counts[typ]}"
        self.by_short = {v: k for k, v in self.short.items()}


#: openable receptacles whose closed lid does not shut in what is on them
_LID_ONLY = frozenset({"Toilet"})


class ThorState:
    """Mutable episode state: ``objects`` (id -> :class:`Obj`), ``agent_loc`` (location key or
    None at the start), ``agent_pos`` ((x, z) or None), ``held`` (object id or None)."""

    __slots__ = ("scene", "objects", "agent_loc", "agent_pos", "held")

    def __init__(self, scene: Scene):
        self.scene = scene
        self.objects = {t["id"]: Obj(t) for t in scene.templates}
        objs = self.objects
        for o in objs.values():  # fixtures stand on their own; AI2-THOR's parent lists have cycles
            if o.parent is not None and (o.parent not in objs or "pickupable" not in o.caps):
                o.parent = None
        for o in objs.values():  # cut any remaining cycle at the object that closes it
            seen, p = {o.id}, o.parent
            while p is not None:
                if p in seen:
                    o.parent = None
                    break
                seen.add(p)
                p = objs[p].parent
        for o in objs.values():
            if o.parent is not None:
                self.objects[o.parent].children.append(o.id)
        for k, b in scene.links.items():  # a burner is lit while its knob is on
            if objs[k].type == "StoveKnob":
                objs[b].on = objs[k].on
        self.agent_loc = None
        self.agent_pos = scene.agent_pos
        self.held = None
        for oid in scene.meta.get("picked", ()):  # TEACh: an object picked up at the start is held
            self.held = oid
            self.move(oid, None)

    # --- spatial queries ---
    def anchor(self, oid: str) -> str | None:
        """Top-level object under which ``oid`` stands (None when held, directly or inside)."""
        objs = self.objects
        cur = oid
        while True:
            if cur == self.held:
                return None
            p = objs[cur].parent
            if p is None or objs[p].type == "Floor":
                return cur
            cur = p

    def location_of(self, oid: str) -> str | None:
        a = self.anchor(oid)
        return None if a is None else self.scene.loc_key.get(a, a)

    def reachable(self, oid: str) -> bool:
        """``atLocation(agent, l) and objectAtLocation(o, l)`` (or held; or, in TEACh scenes,
        within :data:`REACH_M` of where the agent stands)."""
        a = self.anchor(oid)
        if a is None:
            return True
        if self.scene.loc_key.get(a, a) == self.agent_loc and self.agent_loc is not None:
            return True
        p, q = self.objects[a].pos, self.agent_pos
        if self.scene.source != "teach" or p is None or q is None:
            return False
        return math.hypot(p[0] - q[0], p[2] - q[1]) <= REACH_M

    def enclosed(self, oid: str) -> str | None:
        """The first closed openable container around ``oid`` (None if none). A toilet's lid is not
        a container's door: what stands on a toilet (a candle, a spray bottle) is on top of it."""
        objs = self.objects
        p = objs[oid].parent
        while p is not None:
            o = objs[p]
            if "openable" in o.caps and not o.open and o.type not in _LID_ONLY:
                return p
            p = o.parent
        return None

    def contents(self, oid: str) -> list[str]:
        """Everything inside/on ``oid``, transitively (depth first)."""
        out, stack = [], list(self.objects[oid].children)
        while stack:
            c = stack.pop()
            out.append(c)
            stack.extend(self.objects[c].children)
        return out

    def move(self, oid: str, parent: str | None) -> None:
        o = self.objects[oid]
        if o.parent is not None:
            self.objects[o.parent].children.remove(oid)
        o.parent = parent
        if parent is not None:
            self.objects[parent].children.append(oid)

    def of_type(self, type_: str) -> list[str]:
        return sorted(i for i, o in self.objects.items() if o.type == type_)


# ------------------------------------------------------------------ scene catalogue
def _plan_key(name: str) -> int:
    return int(_FLOORPLAN.match(name).group(1))


#: the default scene of the THOR world and of its planning domain
DEFAULT_SCENE = "FloorPlan1"
#: prefixes a user may leave off a scene name (``teach:``)
SCENE_PREFIXES = ("teach:",)


def resolve_scene(name: str) -> str | None:
    """The scene ``name`` refers to: itself, or itself with a :data:`SCENE_PREFIXES` prefix;
    ``None`` when :func:`list_scenes` has neither."""
    names = set(list_scenes())
    return next((c for c in (name, *(p + name for p in SCENE_PREFIXES)) if c in names), None)


@functools.lru_cache(maxsize=1)
def list_scenes() -> tuple[str, ...]:
    """``FloorPlan1`` ... (120 ALFRED layouts, by number) then ``teach:<game>`` (79 episodes)."""
    return tuple(sorted(data.layouts(), key=_plan_key)) + tuple(f"teach:{g}" for g in sorted(data.teach_episodes()))


def load_scene(name: str, seed: int | None = None) -> Scene:
    """Scene by name; ``seed`` only matters for ALFRED layouts (object placement).

    Raises:
        UnknownSceneError: no such scene (the message lists examples).
    """
    if not isinstance(name, str):
        raise UnknownSceneError(f"a THOR scene is a name such as 'FloorPlan1' or 'teach:<game>', got {type(name).__name__}")
    if name.startswith("teach:"):
        return teach_scene(name[len("teach:"):])
    if _FLOORPLAN.match(name) and name in data.layouts():
        return alfred_scene(name, 0 if seed is None else int(seed))
    ex = ", ".join(list_scenes()[:3] + list_scenes()[-2:])
    raise UnknownSceneError(f"unknown THOR scene {name!r}; choose one of {len(list_scenes())} scenes, e.g. {ex}")


def _dist(a, b) -> float:
    return math.hypot(a[0] - b[0], a[2] - b[2])


def _pair(sources: list[dict], targets: list[dict]) -> dict[str, str]:
    """Assign each source to a distinct target minimising total floor distance (exact for <= 7)."""
    if not sources or not targets:
        return {}
    if len(sources) <= len(targets) <= 7:
        best = min(itertools.permutations(targets, len(sources)),
                   key=lambda perm: sum(_dist(s["pos"], t["pos"]) for s, t in zip(sources, perm)))
        return {s["id"]: t["id"] for s, t in zip(sources, best)}
    return {s["id"]: min(targets, key=lambda t: _dist(s["pos"], t["pos"]))["id"] for s in sources}


def _knob_links(world: str, knobs: list[dict], burners: list[dict]) -> dict[str, str]:
    """StoveKnob -> StoveBurner. AI2-THOR's metadata has no such link and burners never report
    ``isToggled``, but a burner is ``Hot`` while its knob is on: pick the one-to-one assignment that
    agrees most often with that over every recorded state (initial and final) of the same floor
    plan, ties broken by total floor distance."""
    if not knobs or not burners or len(knobs) > len(burners) or len(burners) > 7:
        return _pair(knobs, burners)
    states = []
    for ep in data.teach_episodes().values():
        if ep["world"] == world:
            for objs in (ep["objects"], ep["final"]):
                states.append({o["id"]: ("isToggled" in o["states"], o["temp"] == "Hot") for o in objs})
    best = min(itertools.permutations(burners, len(knobs)), key=lambda perm: (
        -sum(st.get(k["id"], (0, 0))[0] == st.get(b["id"], (0, 0))[1] for st in states for k, b in zip(knobs, perm)),
        sum(_dist(k["pos"], b["pos"]) for k, b in zip(knobs, perm))))
    return {k["id"]: b["id"] for k, b in zip(knobs, best)}


def knob_agreement() -> tuple[int, int]:
    """``(agreeing, total)`` (knob, state) pairs where knob on <=> its burner Hot, over all states."""
    ok = n = 0
    for g, ep in data.teach_episodes().items():
        links = teach_scene(g).links
        for objs in (ep["objects"], ep["final"]):
            st = {o["id"]: ("isToggled" in o["states"], o["temp"] == "Hot") for o in objs}
            for k, b in links.items():
                if k.startswith("StoveKnob") and k in st and b in st:
                    n += 1
                    ok += st[k][0] == st[b][1]
    return ok, n


@functools.lru_cache(maxsize=None)
def teach_scene(game: str) -> Scene:
    """The initial state of TEACh episode ``game`` (AI2-THOR metadata, CDLA-Sharing-1.0).

    Links: each StoveKnob lights the StoveBurner of a distance-minimising one-to-one assignment;
    each Faucet runs into its nearest SinkBasin (the metadata carries neither link)."""
    eps = data.teach_episodes()
    if game not in eps:
        raise UnknownSceneError(f"unknown TEACh game {game!r}; `actionable scenes --env thor` lists the 79 'teach:' scenes")
    ep = eps[game]
    objs = ep["objects"]
    by_type: dict[str, list[dict]] = {}
    for o in objs:
        by_type.setdefault(o["type"], []).append(o)
    links = _knob_links(ep["world"], by_type.get("StoveKnob", []), by_type.get("StoveBurner", []))
    basins = by_type.get("SinkBasin", []) + by_type.get("BathtubBasin", [])
    for f in by_type.get("Faucet", []) + by_type.get("ShowerHead", []):
        if basins:
            links[f["id"]] = min(basins, key=lambda b: _dist(f["pos"], b["pos"]))["id"]
    picked = {o["id"] for o in objs if "isPickedUp" in o["states"]}
    a = ep["agent"]
    return Scene(f"teach:{game}", "teach", objs, (a[0], a[2]), {}, links,
                 {"task": ep["task"], "desc": ep["desc"], "world": ep["world"], "picked": picked})


@functools.lru_cache(maxsize=256)
def alfred_scene(plan: str, seed: int = 0) -> Scene:
    """An ALFRED floor plan with objects placed by the documented seeded rule.

    Rule (``rng = random.Random(f"{plan}/{seed}")``, types in sorted order):

    1. every receptacle of ``-openable.json`` is an object at the location of its agent pose;
    2. a static type of the layout without such an instance gets one (``Type|alfred|1``), at its
       own location, except ``Faucet``/``Sink`` (at the first SinkBasin's location) and
       ``StoveKnob`` (one per StoveBurner, at that burner's location, lighting it);
    3. a pickupable type gets ``rng.randint(1, 2)`` instances (``Type|alfred|k``), each placed in a
       receptacle drawn with ``rng.choice`` among the static receptacles whose type can contain it
       (ALFRED's ``canContain``); a type no receptacle can contain is left out;
    4. openables start closed, toggleables off, nothing dirty, filled, hot or cold.
    """
    lay = data.layouts()[plan]
    caps_of = data.vocab()["TYPE_CAPS"]
    cc = data.can_contain()
    rng = random.Random(f"{plan}/{seed}")
    objs: list[dict] = []
    loc_key: dict[str, str] = {}
    for rid, pose in lay["receptacles"].items():
        rtype = rid.split("|")[0] if not rid.endswith("|SinkBasin") else "SinkBasin"
        objs.append({"id": rid, "type": rtype, "parent": None, "caps": caps_of.get(rtype, ["receptacle"])})
        loc_key[rid] = "pose({},{},{},{})".format(*pose)
    have = {o["type"] for o in objs}
    links: dict[str, str] = {}

    def first(t: str) -> dict | None:
        return next((o for o in objs if o["type"] == t), None)

    for t in sorted(lay["types"]):
        caps = caps_of.get(t, [])
        if t in have or "pickupable" in caps:
            continue
        if t == "StoveKnob":
            continue  # after the burners
        oid = f"{t}|alfred|1"
        objs.append({"id": oid, "type": t, "parent": None, "caps": caps})
        sink = first("SinkBasin")
        loc_key[oid] = loc_key[sink["id"]] if t in ("Faucet", "Sink") and sink else f"at({oid})"
        if t == "Faucet" and sink:
            links[oid] = sink["id"]
        have.add(t)
    if "StoveKnob" in lay["types"]:
        burners = [o for o in objs if o["type"] == "StoveBurner"]
        for k, b in enumerate(burners, 1):
            kid = f"StoveKnob|alfred|{k}"
            objs.append({"id": kid, "type": "StoveKnob", "parent": None, "caps": caps_of.get("StoveKnob", [])})
            loc_key[kid] = loc_key[b["id"]]
            links[kid] = b["id"]
    static = [o for o in objs if "receptacle" in o["caps"]]
    for t in sorted(lay["types"]):
        caps = caps_of.get(t, [])
        if "pickupable" not in caps:
            continue
        homes = [o["id"] for o in static if t in cc.get(o["type"], ())]
        if not homes:
            continue
        for k in range(1, rng.randint(1, 2) + 1):
            objs.append({"id": f"{t}|alfred|{k}", "type": t, "parent": rng.choice(homes), "caps": caps})
    return Scene(plan, "alfred", objs, None, loc_key, links, {"seed": seed})
