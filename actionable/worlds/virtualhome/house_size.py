"""House size for the continual VirtualHome world: fewer or more rooms than the packaged house.

PyPI ``virtualhome-eval`` ships one house (``TrimmedTestScene1``: bathroom, bedroom, dining_room
and home_office in a chain of doors, 275 nodes plus each program's added objects) and PyPI
``virtualhome`` ships no environment graphs, so larger VirtualHome scenes cannot be loaded here.
House size is varied instead by *editing that house through its own graph* (nothing invented
but the room names of the copies):

* **fewer rooms** (``k`` below the house's room count): keep the ``k`` rooms nearest the
  character's start room along the doors (breadth-first from it, ties by node id, so the kept
  rooms stay connected) and drop every node inside the others, with their edges;
* **more rooms** (``k`` above it, at most two more): append copies of the rooms named in
  :data:`COPY_NAMES` (the dining room as ``kitchen``, then the home office as ``living_room``,
  the two room names the instruction reader knows that the house lacks) at the far end of the
  chain: the source room's furniture, appliances, lights and containers with their states and the
  edges among them, under fresh ids (from the highest id + 1), joined to the previous end of the
  chain by a doorjamb (no door: a door would add an openable, a dynamic fact the source lacks).
  Small movable objects (:data:`~.nonstationary.MOVABLE`) are *not* copied, so every movable keeps
  a unique name and the instruction pool's movables are the house's own; the dynamics can still
  carry them into the copies (onto the copied surfaces).

A sized scene is named ``<scene>:rooms=<k>`` (``1003_2:rooms=1`` ... ``1003_2:rooms=6``);
:func:`sized_scene` builds it and :func:`house_scene` accepts plain and sized names alike.
"""

from __future__ import annotations

import re

from actionable.core.errors import SceneError

#: Room names of the copies, by source room class, in the order copies are added.
COPY_NAMES = {"dining_room": "kitchen", "home_office": "living_room"}
MIN_ROOMS = 1
#: The packaged house's 4 rooms plus one copy per :data:`COPY_NAMES` entry.
MAX_ROOMS = 6
_SIZED = re.compile(r"^(?P<base>.*?):rooms=(?P<k>[^:]*)$")


def parse_sized(name: str) -> tuple[str, int | None]:
    """``"1003_2:rooms=3"`` -> ``("1003_2", 3)``; a plain name -> ``(name, None)``.

    Raises:
        SceneError: a ``:rooms=`` suffix whose value is not an integer in
            ``MIN_ROOMS..MAX_ROOMS``, or an empty base scene.
    """
    m = _SIZED.match(str(name).strip())
    if m is None:
        if ":rooms" in str(name):
            raise SceneError(f"cannot read scene {name!r}: write <scene>:rooms=<k>, e.g. 1003_2:rooms=2")
        return str(name), None
    base, k = m["base"].strip(), m["k"].strip()
    if not base:
        raise SceneError(f"scene {name!r} names no base scene; write e.g. 1003_2:rooms={k or 2}")
    if not k.isdigit() or not MIN_ROOMS <= int(k) <= MAX_ROOMS:
        raise SceneError(f"scene {name!r}: rooms must be an integer in {MIN_ROOMS}..{MAX_ROOMS} "
                         f"(the packaged house has 4; 5 and 6 add copies of its rooms)")
    return base, int(k)


def _rooms_bfs(graph: dict) -> list[int]:
    """Room ids breadth-first from the character's room along BETWEEN (door) edges."""
    nodes = {n["id"]: n for n in graph["nodes"]}
    rooms = sorted(i for i, n in nodes.items() if n.get("category") == "Rooms")
    inside = {e["from_id"]: e["to_id"] for e in graph["edges"]
              if e["relation_type"] == "INSIDE" and e["to_id"] in rooms}
    between: dict[int, set[int]] = {}
    for e in graph["edges"]:
        if e["relation_type"] == "BETWEEN" and e["to_id"] in rooms:
            between.setdefault(e["from_id"], set()).add(e["to_id"])
    adj: dict[int, set[int]] = {r: set() for r in rooms}
    for rs in between.values():
        for a in rs:
            adj[a] |= rs - {a}
    start = next((inside[i] for i, n in nodes.items() if n["class_name"] == "character" and i in inside),
                 rooms[0])
    order, frontier = [start], [start]
    while frontier:
        nxt = []
        for r in frontier:
            for b in sorted(adj[r]):
                if b not in order:
                    order.append(b)
                    nxt.append(b)
        frontier = nxt
    return order + [r for r in rooms if r not in order]  # rooms no door reaches go last


def _members(graph: dict, room: int) -> set[int]:
    """Ids of the nodes directly INSIDE ``room`` (VirtualHome links every object to its room)."""
    return {e["from_id"] for e in graph["edges"] if e["relation_type"] == "INSIDE" and e["to_id"] == room}


def restrict_rooms(graph: dict, keep: list[int]) -> dict:
    """The graph without the rooms not in ``keep``, the nodes inside them and their edges."""
    rooms = {n["id"] for n in graph["nodes"] if n.get("category") == "Rooms"}
    drop = set()
    for r in rooms - set(keep):
        drop |= _members(graph, r) | {r}
    drop -= {n["id"] for n in graph["nodes"] if n["class_name"] == "character"}
    return {"nodes": [dict(n) for n in graph["nodes"] if n["id"] not in drop],
            "edges": [dict(e) for e in graph["edges"] if e["from_id"] not in drop and e["to_id"] not in drop]}


def copy_room(graph: dict, source: int, name: str, join_to: int) -> dict:
    """``graph`` plus a copy of room ``source`` named ``name``, joined to room ``join_to`` by a
    doorjamb. Doors, doorjambs and movables (:data:`~.nonstationary.MOVABLE`) of the source are not
    copied; edges leaving the copied nodes (e.g. FACING a television in another room) are dropped."""
    from actionable.worlds.virtualhome.nonstationary import MOVABLE

    nodes = {n["id"]: n for n in graph["nodes"]}
    members = {i for i in _members(graph, source) if nodes[i].get("category") != "Doors"
               and nodes[i]["class_name"] != "character" and nodes[i]["class_name"] not in MOVABLE}
    nid = max(nodes) + 1
    new = {source: nid}
    for i in sorted(members):
        nid += 1
        new[i] = nid
    out_nodes = [dict(n) for n in graph["nodes"]]
    for old, i in sorted(new.items(), key=lambda kv: kv[1]):
        n = dict(nodes[old], id=i)
        if old == source:
            n["class_name"] = name
        out_nodes.append(n)
    out_edges = [dict(e) for e in graph["edges"]]
    out_edges += [{"from_id": new[e["from_id"]], "relation_type": e["relation_type"], "to_id": new[e["to_id"]]}
                  for e in graph["edges"] if e["from_id"] in new and e["to_id"] in new
                  and e["from_id"] != source]
    jamb = nid + 1
    out_nodes.append({"id": jamb, "class_name": "doorjamb", "category": "Doors", "properties": [],
                      "states": ["OPEN", "CLEAN"], "prefab_name": None, "bounding_box": None})
    out_edges += [{"from_id": jamb, "relation_type": "INSIDE", "to_id": new[source]},
                  {"from_id": jamb, "relation_type": "BETWEEN", "to_id": new[source]},
                  {"from_id": jamb, "relation_type": "BETWEEN", "to_id": join_to}]
    return {"nodes": out_nodes, "edges": out_edges}


def resize(graph: dict, k: int) -> dict:
    """The house of ``graph`` with ``k`` rooms (see the module docstring); ``graph`` is not changed.

    Raises:
        SceneError: ``k`` below ``MIN_ROOMS``, or above the house's rooms plus the copies it can
            take (:data:`COPY_NAMES` entries whose source room it has and whose name it lacks).
    """
    order = _rooms_bfs(graph)
    if k < MIN_ROOMS:
        raise SceneError(f"a house has at least {MIN_ROOMS} room (got {k})")
    if k <= len(order):
        return restrict_rooms(graph, order[:k])
    names = {n["id"]: n["class_name"] for n in graph["nodes"]}
    by_name = {names[r]: r for r in order}
    sources = [(by_name[s], c) for s, c in COPY_NAMES.items() if s in by_name and c not in by_name]
    if k > len(order) + len(sources):
        raise SceneError(f"this house has {len(order)} rooms and can take {len(sources)} copied ones: "
                         f"at most {len(order) + len(sources)} rooms (got {k})")
    out, end = graph, order[-1]
    for src, name in sources[:k - len(order)]:
        out = copy_room(out, src, name, end)
        end = max(n["id"] for n in out["nodes"] if n["class_name"] == name)
    return out


def sized_scene(base: str, k: int):
    """The :class:`~actionable.worlds.virtualhome.scene.SceneGraph` of scene ``base`` resized to
    ``k`` rooms, named ``<base>:rooms=<k>``.

    Raises:
        SceneError: unknown ``base`` (as :func:`~actionable.worlds.virtualhome.scene.load_scene`)
            or ``k`` out of range.
    """
    from actionable.worlds.virtualhome.scene import SceneGraph, load_scene

    g = load_scene(base)
    return SceneGraph.from_dict(resize(g.to_dict(), k), name=f"{g.name}:rooms={k}")


def house_scene(name: str | None):
    """A scene for the continual house: ``<scene>:rooms=<k>`` through :func:`sized_scene`, any
    other name through :func:`~actionable.worlds.virtualhome.scene.load_scene`.

    Raises:
        SceneError: unknown scene, unreadable ``:rooms=`` suffix or ``k`` out of range.
    """
    from actionable.worlds.virtualhome.scene import load_scene

    if name is None:
        return load_scene(None)
    base, k = parse_sized(name)
    return load_scene(base) if k is None else sized_scene(base, k)


def describe_house(graph) -> dict:
    """``{"rooms": [...names, door order from the start room...], "nodes": int, "edges": int}``
    of a scene graph or graph dict (for tables and the sweep's log)."""
    g = graph.to_dict() if hasattr(graph, "to_dict") else graph
    names = {n["id"]: n["class_name"] for n in g["nodes"]}
    return {"rooms": [names[r] for r in _rooms_bfs(g)], "nodes": len(g["nodes"]), "edges": len(g["edges"])}


__all__ = ["COPY_NAMES", "MAX_ROOMS", "MIN_ROOMS", "copy_room", "describe_house", "house_scene", "parse_sized",
           "resize", "restrict_rooms", "sized_scene"]
