"""The ``scene_map`` capability: a world's scene as a map, and a plan replayed on it step by step
(for the HTML and PNG replays of :mod:`actionable.viz`, which never imports a world package).

A world registers ``"scene_map": "module:factory"`` where ``factory(scene) -> SceneMapper``
(``scene``: a scene name, or the world's own scene object such as the planning domain's graph, so
nothing is loaded twice). All the returned data is plain JSON (lists, dicts, str, int, float, bool).

**Map** (:meth:`SceneMapper.layout`), coordinates in abstract units (``width`` x ``height``,
origin top left, y down), deterministic for a scene and a focus set::

    {"kind": "rooms" | "kitchen" | "roads", "width": float, "height": float,
     "rooms": [{"id": str, "name": str, "x", "y", "w", "h"}],          # areas
     "items": [{"id": str, "name": str, "room": str | None, "parent": str | None,
                "rel": "INSIDE" | "ON" | None, "x", "y"}],             # objects and furniture
     "doors": [{"id": str, "a": str, "b": str, "x", "y"}],              # room ids a-b
     "roads": [{"id": str, "pts": [[x, y], ...]}],                     # driving only
     "lights": [{"id": str, "x", "y"}]}                                 # driving only

**Frames** (:meth:`SceneMapper.replay`), one per step given (a failed step ends the list)::

    {"executed": bool, "room": str | None (room id), "at": str | None (item id walked to),
     "held": [str], "changes": ["light (169): OFF -> ON", "mug (12): INSIDE sink (30)"],
     "error": str | None, "unmet": [str]}
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, runtime_checkable

#: the map kinds :mod:`actionable.viz` draws
MAP_KINDS = ("rooms", "kitchen", "roads")


@runtime_checkable
class SceneMapper(Protocol):
    """One scene of a world, as a map (see the module doc for the data)."""

    def layout(self, focus: Iterable[str] = ()) -> dict:
        """The map. ``focus``: item ids (or class names) to draw besides the rooms (the objects a
        plan or episode touches); the rest of the scene is left out so the map stays small."""
        ...

    def replay(self, steps: list[Any]) -> list[dict]:
        """One frame per step (the world's resolved steps, or their script lines); stops after
        the first step that fails (its frame has ``executed`` False, ``error`` and ``unmet``)."""
        ...


def empty_map(kind: str = "rooms") -> dict:
    """A map with nothing in it (a world or scene with no geometry)."""
    return {"kind": kind, "width": 100.0, "height": 60.0, "rooms": [], "items": [], "doors": [], "roads": [],
            "lights": []}


def grid_rooms(names: list[tuple[str, str]], cell_w: float = 100.0, cell_h: float = 70.0,
               cols: int | None = None) -> list[dict]:
    """Rooms as a grid of equal areas, in the order given (deterministic): ``[(id, name), ...]`` ->
    ``[{"id", "name", "x", "y", "w", "h"}]`` with ``cols`` columns (default: ceil(sqrt(n)))."""
    import math

    n = len(names)
    cols = cols or max(1, math.ceil(math.sqrt(n)))
    return [{"id": rid, "name": name, "x": (k % cols) * cell_w, "y": (k // cols) * cell_h, "w": cell_w - 6,
             "h": cell_h - 6} for k, (rid, name) in enumerate(names)]


def place_in(room: dict, k: int, n: int, pad: float = 12.0) -> tuple[float, float]:
    """The ``k``-th of ``n`` slots inside ``room`` (a grid, row-major, deterministic)."""
    import math

    cols = max(1, math.ceil(math.sqrt(n)))
    rows = max(1, math.ceil(n / cols))
    w, h = room["w"] - 2 * pad, room["h"] - 2 * pad - 10
    return (room["x"] + pad + (k % cols + 0.5) * w / cols, room["y"] + pad + 10 + (k // cols + 0.5) * h / rows)


__all__ = ["MAP_KINDS", "SceneMapper", "empty_map", "grid_rooms", "place_in"]
