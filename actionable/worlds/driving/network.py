"""The town: a SUMO road network generated offline with ``netgenerate``, plus its names.

``netgenerate --grid`` (Eclipse SUMO 1.28, https://sumo.dlr.de/docs/netgenerate.html) builds an
``n x n`` grid of two-lane streets (plus a sidewalk lane 0) whose every junction has a traffic
light (``--default-junction-type traffic_light``; ``--tls.guess`` gave none on a small grid, see
shared FIELD-NOTES) and pedestrian crossings (``--sidewalks.guess --crossings.guess``). Junction
``A0`` lies at (0, 0) m, ``B1`` at (L, L) m with ``L`` the block length. Generated networks are
cached under ``$ACTIONABLE_CACHE_DIR/driving/`` keyed by their parameters, so only the first use
on a machine pays the ~0.5 s of ``netgenerate``.

Names (what instructions and observations use):

* **places** - one per junction (``market`` = ``B1`` in the 3x3 town), the TEKG "rooms";
* **roads** - a row is ``Dock Road``/``High Street``/..., a column ``Elm Lane``/``Oak Road``/...;
* **streets** - one directed edge, ``High Street towards the market`` (edge ``A1B1``).

Lanes of a street: 0 sidewalk, 1 the right lane, 2 the left lane.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from actionable.core.errors import UnknownSceneError

#: network name -> (junctions per side, block length in m)
NETWORKS: dict[str, tuple[int, float]] = {"town": (3, 150.0), "village": (2, 150.0), "city": (4, 150.0)}
PLACES = ("harbour", "school", "park", "garden", "station", "market", "library", "theatre", "hospital",
          "stadium", "museum", "bakery", "zoo", "airport", "castle", "bridge")
ROWS = ("Dock Road", "High Street", "North Avenue", "Hill Road")
COLUMNS = ("Elm Lane", "Oak Road", "Birch Lane", "Ash Road")
RIGHT_LANE, LEFT_LANE = 1, 2
SPEED = 13.89  # m/s, 50 km/h


def _cache_dir() -> Path:
    from actionable.core.config import default_cache_dir  # $ACTIONABLE_CACHE_DIR

    d = Path(default_cache_dir()) / "driving"
    d.mkdir(parents=True, exist_ok=True)
    return d


def netgenerate_binary() -> str:
    """Path of ``netgenerate`` (PyPI ``eclipse-sumo``'s bin dir first, then ``$PATH``)."""
    try:
        import sumo  # PyPI eclipse-sumo

        cand = Path(sumo.SUMO_HOME) / "bin" / "netgenerate"
        if cand.exists():
            return str(cand)
    except ImportError:
        pass
    found = shutil.which("netgenerate")
    if not found:
        from actionable.worlds.driving.sumo import SumoMissingError
        raise SumoMissingError("netgenerate not found")
    return found


def generate(name: str = "town", cycle: int = 60, out_dir: Path | None = None) -> Path:
    """Write (or reuse) the ``.net.xml`` of network ``name`` with light cycle ``cycle`` s.

    Raises:
        UnknownSceneError: ``name`` not in :data:`NETWORKS`.
        WorldError: netgenerate failed (its stderr is in the message).
    """
    if name not in NETWORKS:
        raise UnknownSceneError(f"unknown road network {name!r}; networks: {', '.join(NETWORKS)}")
    n, length = NETWORKS[name]
    args = ["--grid", "--grid.number", str(n), "--grid.length", str(length), "-L", "2", "-S", str(SPEED),
            "--default-junction-type", "traffic_light", "--sidewalks.guess", "--crossings.guess",
            "--tls.cycle.time", str(int(cycle)), "--no-turnarounds.geometry", "false", "--seed", "1"]
    key = hashlib.sha1(" ".join(args).encode()).hexdigest()[:10]
    path = (out_dir or _cache_dir()) / f"{name}-c{int(cycle)}-{key}.net.xml"
    if not path.exists():
        tmp = path.with_suffix(".tmp.xml")
        res = subprocess.run([netgenerate_binary(), *args, "-o", str(tmp)], capture_output=True, text=True,
                             timeout=120)
        if res.returncode != 0 or not tmp.exists():
            from actionable.core.errors import WorldError
            raise WorldError(f"netgenerate failed for network {name!r}: {res.stderr.strip()[:400]}")
        tmp.replace(path)
    return path


@dataclass
class Town:
    """Names and topology of a generated grid (read with ``sumolib``).

    Attributes:
        junctions: junction ids in grid order (``A0``, ``A1``, ...).
        place: junction id -> place name; ``junction_of`` the inverse.
        xy: junction id -> (x, y) in m.
        streets: directed edge ids (``A0A1``), sorted; ``ends[e] = (from_junction, to_junction)``.
        length: edge id -> length in m (to the stop line).
    """

    name: str
    path: Path
    junctions: list[str] = field(default_factory=list)
    place: dict[str, str] = field(default_factory=dict)
    junction_of: dict[str, str] = field(default_factory=dict)
    xy: dict[str, tuple[float, float]] = field(default_factory=dict)
    streets: list[str] = field(default_factory=list)
    ends: dict[str, tuple[str, str]] = field(default_factory=dict)
    length: dict[str, float] = field(default_factory=dict)
    uturn: dict[str, str] = field(default_factory=dict)

    @classmethod
    def load(cls, name: str, path: Path) -> "Town":
        import sumolib

        net = sumolib.net.readNet(str(path))
        t = cls(name, path)
        t.junctions = sorted(n.getID() for n in net.getNodes())
        for i, j in enumerate(t.junctions):
            t.place[j] = PLACES[i]
            t.junction_of[PLACES[i]] = j
            t.xy[j] = tuple(net.getNode(j).getCoord())
        for e in net.getEdges():
            if e.isSpecial() or e.getFunction():
                continue
            t.streets.append(e.getID())
            t.ends[e.getID()] = (e.getFromNode().getID(), e.getToNode().getID())
            t.length[e.getID()] = e.getLength()
            back = [o.getID() for o in e.getOutgoing() if o.getToNode() == e.getFromNode()]
            if back:
                t.uturn[e.getID()] = back[0]
        t.streets.sort()
        return t

    # ----------------------------------------------------------------- names
    def road(self, edge: str) -> str:
        a, b = self.ends[edge]
        return ROWS[int(a[1:])] if a[1:] == b[1:] else COLUMNS[ord(a[0]) - ord("A")]

    def street_name(self, edge: str) -> str:
        """``High Street towards the market``."""
        return f"{self.road(edge)} towards the {self.place[self.ends[edge][1]]}"

    def street_of(self, name: str) -> str:
        """Edge id of a street name (case-insensitive; ``the`` optional). Raises KeyError."""
        key = " ".join(name.lower().replace("the ", "").split())
        for e in self.streets:
            if " ".join(self.street_name(e).lower().replace("the ", "").split()) == key:
                return e
        raise KeyError(name)

    # ----------------------------------------------------------------- topology
    def out_edges(self, edge: str) -> dict[str, str]:
        """Turns from the end of ``edge``: ``{"left"|"right"|"straight": next edge}`` (no U-turns)."""
        a, b = self.ends[edge]
        (ax, ay), (bx, by) = self.xy[a], self.xy[b]
        out = {}
        for e in self.streets:
            u, w = self.ends[e]
            if u != b or w == a:
                continue
            wx, wy = self.xy[w]
            cross = (bx - ax) * (wy - by) - (by - ay) * (wx - bx)
            out["left" if cross > 0 else "right" if cross < 0 else "straight"] = e
        return out

    def moves(self, edge: str) -> list[str]:
        """Every street the ego may take from the end of ``edge``: :meth:`out_edges` plus the
        U-turn onto the same road's other direction where the network has one."""
        out = list(self.out_edges(edge).values())
        if edge in self.uturn:
            out.append(self.uturn[edge])
        return out

    def route(self, edge: str, *, to_edge: str | None = None, to_junction: str | None = None) -> list[str]:
        """Shortest edge sequence after ``edge`` (BFS over turns) ending on ``to_edge`` or on an edge
        into ``to_junction``; ``[]`` when already there. Raises KeyError when unreachable."""
        def done(e: str) -> bool:
            return e == to_edge if to_edge else self.ends[e][1] == to_junction

        if done(edge):
            return []
        prev: dict[str, str | None] = {edge: None}
        queue = [edge]
        while queue:
            cur = queue.pop(0)
            for nxt in sorted(self.moves(cur)):
                if nxt in prev:
                    continue
                prev[nxt] = cur
                if done(nxt):
                    seq = [nxt]
                    while prev[seq[-1]] != edge:
                        seq.append(prev[seq[-1]])
                    return seq[::-1]
                queue.append(nxt)
        raise KeyError(f"{to_edge or to_junction} unreachable from {edge}")

    def hops(self) -> dict[str, dict[str, int]]:
        """Manhattan junction distances (blocks), the room graph of the continual adapter."""
        def rc(j: str) -> tuple[int, int]:
            return ord(j[0]) - ord("A"), int(j[1:])
        return {a: {b: abs(rc(a)[0] - rc(b)[0]) + abs(rc(a)[1] - rc(b)[1]) for b in self.junctions}
                for a in self.junctions}
