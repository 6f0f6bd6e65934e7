"""The driving world's ``scene_map`` capability (:mod:`actionable.core.scene_map`): the SUMO town.

The map is the road network read with ``sumolib`` (:class:`~.network.Town`): each junction a
place (the TEKG's "rooms": ``market``, ``school``, ...) drawn as a small square at its position,
every street a line between its junctions, and a traffic light at every junction (the grid's
junctions all have one). The driving world plans no programs, so :meth:`DrivingSceneMap.replay`
only accepts the empty plan; a ``follow`` episode is drawn from its trace (the place per step).
"""

from __future__ import annotations

from typing import Any, Iterable


class DrivingSceneMap:
    """``scene``: a network name (``town``, ``village``, ``city``; ``default`` = town).

    Raises:
        UnknownSceneError: no such network. SumoMissingError: the ``driving`` extra is missing.
    """

    def __init__(self, scene: Any = "town"):
        from actionable.worlds.driving.network import Town, generate

        name = "town" if scene in (None, "", "default") else str(scene)
        self.town = Town.load(name, generate(name))
        self.name = name

    def layout(self, focus: Iterable[Any] = ()) -> dict:
        """Places, streets and lights, scaled to about 300 units; deterministic for a network."""
        t = self.town
        xs = [p[0] for p in t.xy.values()] or [0.0]
        ys = [p[1] for p in t.xy.values()] or [0.0]
        span = max(max(xs) - min(xs), max(ys) - min(ys), 1.0)
        k = 300.0 / span

        def xy(j):
            x, y = t.xy[j]
            return round(30 + (x - min(xs)) * k, 1), round(30 + (max(ys) - y) * k, 1)

        rooms = []
        for j in t.junctions:
            x, y = xy(j)
            rooms.append({"id": t.place[j], "name": t.place[j], "x": x - 18, "y": y - 18, "w": 36, "h": 36})
        roads, seen = [], set()
        for e in t.streets:
            a, b = t.ends[e]
            key = tuple(sorted((a, b)))
            if key in seen:
                continue
            seen.add(key)
            roads.append({"id": e, "pts": [list(xy(a)), list(xy(b))]})
        lights = [{"id": j, "x": xy(j)[0] + 14, "y": xy(j)[1] - 14} for j in t.junctions]
        size = round(60 + span * k, 1)
        return {"kind": "roads", "width": size, "height": size, "rooms": rooms, "items": [], "doors": [],
                "roads": roads, "lights": lights}

    def replay(self, steps: list[Any]) -> list[dict]:
        """The driving world has no plan programs: only the empty plan replays (no frame)."""
        return [{"executed": False, "room": None, "at": None, "held": [], "changes": [],
                 "error": "the driving world replays no plan (follow episodes are drawn from their trace)",
                 "unmet": []}] if steps else []


__all__ = ["DrivingSceneMap"]
