"""VirtualHome's ``scene_map`` capability (:mod:`actionable.core.scene_map`): a schematic floor plan.

The packaged graphs carry no bounding boxes, so the plan is schematic: the rooms as a grid of
areas (sorted by node id, so a scene always gets the same layout), the focus objects placed in
their room by their INSIDE/ON edges (an object on or in a piece of furniture is drawn next to
it), and a door between two rooms where a door node has INSIDE/BETWEEN/ADJACENT edges to both.
The replay runs the resolved steps in the simulator and reports what each step changed on the
objects it touched or the character holds: states (``light (169): OFF -> ON``), the INSIDE/ON
parent (``mug (12): INSIDE sink (30)``), and what is held.
"""

from __future__ import annotations

from typing import Any, Iterable

from actionable.core.scene_map import grid_rooms, place_in

_DOORS = ("door", "doorjamb")
_PARENT_RELS = ("ON", "INSIDE")


class VirtualHomeSceneMap:
    """``scene``: a scene name (``"default"``, a program id) or a loaded
    :class:`~actionable.worlds.virtualhome.scene.SceneGraph` (the planning domain's ``graph``).

    Raises:
        SceneError: unknown scene name.
    """

    def __init__(self, scene: Any = "default"):
        from actionable.worlds.virtualhome.scene import load_scene

        self.graph = load_scene(scene) if scene is None or isinstance(scene, str) else scene
        self.name = getattr(self.graph, "name", "")

    # ------------------------------------------------------------------ the map
    def _label(self, nid: int) -> str:
        return str(self.graph.class_of(nid) or nid)

    def _parent(self, nid: int) -> tuple[int | None, str | None]:
        """The nearest non-room object ``nid`` is ON or INSIDE (ON first)."""
        rooms = set(self.graph.rooms)
        for rel in _PARENT_RELS:
            for t in sorted(self.graph.targets(nid, rel)):
                if t not in rooms:
                    return t, rel
        return None, None

    def layout(self, focus: Iterable[Any] = ()) -> dict:
        """The floor plan with the ``focus`` objects (node ids as int or str; class names allowed)
        and the furniture they are on or in. Deterministic for a scene and focus set."""
        g = self.graph
        rooms = list(g.rooms)
        areas = grid_rooms([(str(r), self._label(r)) for r in rooms], cell_w=160.0, cell_h=120.0)
        by_id = {a["id"]: a for a in areas}
        want: set[int] = set()
        for f in focus:
            s = str(f)
            if s.lstrip("-").isdigit() and int(s) in g:
                want.add(int(s))
            else:
                want.update(g.nodes_of_class(s))
        want -= set(rooms)
        try:
            want.discard(g.character_id)
        except Exception:  # noqa: BLE001 - a scene without a character still has a map
            pass
        for nid in list(want):  # the furniture they rest on or in
            p, _ = self._parent(nid)
            while p is not None and p not in want:
                want.add(p)
                p, _ = self._parent(p)
        per_room: dict[str, list[int]] = {}
        for nid in sorted(want):
            r = g.room_of(nid)
            per_room.setdefault(str(r) if r is not None else "", []).append(nid)
        items = []
        for rid, ids in sorted(per_room.items()):
            room = by_id.get(rid)
            for k, nid in enumerate(ids):
                x, y = place_in(room, k, len(ids)) if room else (10.0 + 14 * k, -10.0)
                p, rel = self._parent(nid)
                items.append({"id": str(nid), "name": self._label(nid), "room": rid or None,
                              "parent": str(p) if p is not None else None, "rel": rel,
                              "x": round(x, 1), "y": round(y, 1)})
        doors = []
        for cls in _DOORS:
            for d in g.nodes_of_class(cls):
                touch = sorted({t for rel in ("INSIDE", "BETWEEN", "ADJACENT") for t in g.targets(d, rel)
                                if t in by_id or str(t) in by_id})
                if len(touch) >= 2:
                    a, b = by_id[str(touch[0])], by_id[str(touch[1])]
                    doors.append({"id": str(d), "a": a["id"], "b": b["id"],
                                  "x": round((a["x"] + a["w"] / 2 + b["x"] + b["w"] / 2) / 2, 1),
                                  "y": round((a["y"] + a["h"] / 2 + b["y"] + b["h"] / 2) / 2, 1)})
        w = max((a["x"] + a["w"] for a in areas), default=100.0) + 6
        h = max((a["y"] + a["h"] for a in areas), default=60.0) + 6
        return {"kind": "rooms", "width": w, "height": h, "rooms": areas, "items": items, "doors": doors,
                "roads": [], "lights": []}

    # ------------------------------------------------------------------ the replay
    def replay(self, steps: list[Any]) -> list[dict]:
        """One frame per resolved step (``Step`` or ``[WALK] <kitchen> (11)`` lines); stops after
        the first failure. Raises ProgramParseError for a line that does not parse."""
        from actionable.core.program import parse_step
        from actionable.worlds.virtualhome.simulator import Simulator

        sim = Simulator()
        obs, _ = sim.reset(options={"scene": self.graph})
        frames = []
        for st in steps:
            st = parse_step(st) if isinstance(st, str) else st
            ids = [a.id for a in st.args if a.id is not None]
            before = obs
            held0 = set(before.held())
            try:
                obs, _, _, _, info = sim.step(st)
            except Exception as exc:  # noqa: BLE001 - an unknown id is a failed step of the replay
                frames.append({"executed": False, "room": None, "at": None, "held": [], "changes": [],
                               "error": str(exc), "unmet": []})
                break
            touched = sorted(set(ids) | held0 | set(obs.held()))
            changes = [] if not info["executed"] else self._changes(before, obs, touched)
            room = obs.character_room()
            at = str(ids[0]) if st.action in ("WALK", "RUN", "FIND") and ids else None
            frames.append({"executed": bool(info["executed"]), "room": str(room) if room is not None else None,
                           "at": at, "held": [f"{obs.class_of(h)} ({h})" for h in obs.held()],
                           "changes": changes, "error": info.get("error"),
                           "unmet": list(info.get("unmet_preconditions") or [])})
            if not info["executed"]:
                break
        return frames

    def _changes(self, before, after, ids: list[int]) -> list[str]:
        out = []
        rooms = set(self.graph.rooms)
        for nid in ids:
            if nid not in after:
                continue
            name = f"{after.class_of(nid)} ({nid})"
            s0, s1 = set(before.states_of(nid)) if nid in before else set(), set(after.states_of(nid))
            if s0 != s1:
                gone, new = sorted(s0 - s1), sorted(s1 - s0)
                out.append(f"{name}: {'/'.join(gone) or '-'} -> {'/'.join(new) or '-'}")
            for rel in _PARENT_RELS:
                t0 = {t for t in (before.targets(nid, rel) if nid in before else []) if t not in rooms}
                t1 = {t for t in after.targets(nid, rel) if t not in rooms}
                for t in sorted(t1 - t0):
                    out.append(f"{name}: {rel} {after.class_of(t)} ({t})")
        return out


__all__ = ["VirtualHomeSceneMap"]
