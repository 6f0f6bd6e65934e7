"""The merged default scene for free-form tasks: the VirtualHome house plus the
objects that all 518 packaged programs add, duplicates merged and ids
renumbered, so that "Make coffee" finds a coffee maker and a cup.

Building it reads every program's initial graph (seconds), so the result is
memoised per process and cached on disk under the cache directory; both caches
are keyed by :data:`~actionable.worlds.virtualhome.scene.DEFAULT_SCENE_VERSION` and the
``virtualhome-eval`` version. The construction is deterministic.
"""

from __future__ import annotations

import functools
import json
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Iterable

from actionable.worlds.virtualhome.dataset import (
    ADDED_ID_START, DEFAULT_SCENE_VERSION, _copy_node, _dataset_dir, _pid_key, _program_ids, load_graphs,
)
from actionable.core.errors import SceneError

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4)
def default_scene_dict(cache_dir: str) -> dict:
    """Per-process memo of the merged scene (the dict is never handed out; callers
    get a validated copy through :meth:`SceneGraph.from_dict`)."""
    path = Path(cache_dir) / f"default_scene_v{DEFAULT_SCENE_VERSION}_{_data_stamp()}.json"
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        pass
    graph = build_default_scene()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text(json.dumps(graph), encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:  # read-only home: fine, just slower next time
        log.info("could not cache the default scene at %s: %s", path, exc)
    return graph


def _data_stamp() -> str:
    try:
        from importlib.metadata import version

        return "vhe" + version("virtualhome-eval")
    except Exception:  # noqa: BLE001 - metadata missing: fall back to folder mtime
        return f"m{int(_dataset_dir('init_and_final_graphs').stat().st_mtime)}"


def build_default_scene(program_ids: Iterable[str] | None = None) -> dict:
    """Merge the house with the added objects of all programs (deterministic).

    * Base house (ids < 1000): each node takes its most frequent state set over
      the programs' initial graphs (ties: the lexicographically smallest), and a
      base-to-base edge is kept when it is present in more than half of them.
    * Added objects (ids >= 1000) of every program, in sorted program order, are
      keyed by (class, place, k): *place* is the set of their ON/INSIDE edges with
      targets mapped to merged ids, and *k* counts equal (class, place) objects
      within that program. Equal keys are one object (so "same class in the same
      place" is merged, while a program's two cups on one table stay two); new
      keys get fresh ids 1000, 1001, ... in first-seen order. Their CLOSE/FACING
      edges to other objects are kept.
    * The character's position differs per program: it stands in its most
      frequent room (INSIDE edge only); its other edges are dropped.

    Returns:
        A VirtualHome graph dict. Reads all 518 graph files (a few seconds).
    """
    pids = sorted(program_ids if program_ids is not None else _program_ids(), key=_pid_key)
    if not pids:
        raise SceneError("no programs to build the default scene from")
    base_nodes: dict[int, dict] = {}
    state_votes: dict[int, Counter] = {}
    edge_votes: Counter = Counter()
    char_room_votes: Counter = Counter()
    merged: dict[tuple, int] = {}
    added_nodes: dict[int, dict] = {}
    added_edges: set[tuple[int, str, int]] = set()
    next_id = ADDED_ID_START
    frequency: Counter = Counter()  # merged added id -> number of programs that place it there
    for pid in pids:
        init, _ = load_graphs(pid)
        nodes = {n["id"]: n for n in init["nodes"]}
        char_ids = {i for i, n in nodes.items() if n["class_name"] == "character"}
        for nid, n in nodes.items():
            if nid < ADDED_ID_START:
                base_nodes.setdefault(nid, n)
                state_votes.setdefault(nid, Counter())[tuple(sorted(n["states"]))] += 1
        place: dict[int, set] = {}
        for e in init["edges"]:
            a, r, b = e["from_id"], e["relation_type"], e["to_id"]
            if a in char_ids or b in char_ids:
                if a in char_ids and r == "INSIDE" and b < ADDED_ID_START:
                    char_room_votes[(a, b)] += 1
            elif a < ADDED_ID_START and b < ADDED_ID_START:
                edge_votes[(a, r, b)] += 1
            elif a >= ADDED_ID_START and r in ("ON", "INSIDE"):
                place.setdefault(a, set()).add((r, b))
        # Map this program's added ids to merged ids, parents (targets) first.
        local: dict[int, int] = {}
        counts: Counter = Counter()
        pending = sorted(i for i in nodes if i >= ADDED_ID_START)
        while pending:
            progress = []
            for nid in pending:
                targets = [b for _, b in place.get(nid, ()) if b >= ADDED_ID_START and b != nid]
                if all(t in local for t in targets):
                    progress.append(nid)
            if not progress:  # a cycle of added objects: break it deterministically
                progress = [pending[0]]
            for nid in progress:
                spot = tuple(sorted((r, local.get(b, b)) for r, b in place.get(nid, ())))
                cls = nodes[nid]["class_name"]
                counts[(cls, spot)] += 1
                key = (cls, spot, counts[(cls, spot)])
                if key not in merged:
                    merged[key] = next_id
                    added_nodes[next_id] = {**_copy_node(nodes[nid]), "id": next_id}
                    next_id += 1
                local[nid] = merged[key]
                frequency[merged[key]] += 1
            pending = [i for i in pending if i not in local]
        for e in init["edges"]:
            a, r, b = e["from_id"], e["relation_type"], e["to_id"]
            if a < ADDED_ID_START and b < ADDED_ID_START:
                continue
            if a in char_ids or b in char_ids:
                continue
            added_edges.add((local.get(a, a), r, local.get(b, b)))
    half = len(pids) / 2
    out_nodes = []
    for nid in sorted(base_nodes):
        votes = state_votes[nid]
        best = min(votes.items(), key=lambda kv: (-kv[1], kv[0]))
        out_nodes.append({**_copy_node(base_nodes[nid]), "states": list(best[0])})
    out_nodes.extend(added_nodes[i] for i in sorted(added_nodes))
    edges = sorted(e for e, c in edge_votes.items() if c > half)
    for char in sorted({a for a, _ in char_room_votes}):
        room = min((b for a, b in char_room_votes if a == char),
                   key=lambda b: (-char_room_votes[(char, b)], b))
        edges.append((char, "INSIDE", room))
    edges += sorted(added_edges)
    out_nodes, edges = declutter(out_nodes, edges, frequency)
    return {"nodes": out_nodes,
            "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in edges]}


#: Added instances kept per class in the default house.
MAX_PER_CLASS = 3
#: Furniture the character sits or lies on, with the evolving graph's occupancy
#: limit (the smaller of ``SitExecutor`` and ``LieExecutor._MAX_OCCUPANCIES``):
#: SIT/LIE fail with "Too many things on <x>" once that many objects are ON it,
#: so at most ``limit - 1`` are kept.
OCCUPANCY: dict[str, int] = {"couch": 2, "bed": 3, "chair": 1, "loveseat": 2, "sofa": 2, "toilet": 1,
                             "pianobench": 2, "bench": 1, "bathtub": 2}


def declutter(nodes: list[dict], edges: list[tuple[int, str, int]], frequency: Counter,
              max_per_class: int = MAX_PER_CLASS) -> tuple[list[dict], list[tuple[int, str, int]]]:
    """The rule that keeps the merged house one a person could live in (issue 12).

    1. Of the objects the programs add (ids >= 1000), each class keeps its
       ``max_per_class`` most frequent placements (the (class, place) keys the
       most programs use; ties: lowest id). Every class any program uses keeps
       at least one instance.
    2. Furniture in :data:`OCCUPANCY` keeps fewer objects ON it than its limit,
       so it stays usable: the least frequent added objects on it are dropped, or,
       when one is its class's last instance, moved off it (it stays in the room).
    3. Added objects ON or INSIDE a dropped object are dropped with it (unless
       they are their class's last instance, then they stay where they are,
       without the edge to the dropped object).

    Returns:
        ``(nodes, edges)`` of the decluttered graph.
    """
    by_id = {n["id"]: n for n in nodes}
    cls = {i: n["class_name"] for i, n in by_id.items()}
    added = [i for i in by_id if i >= ADDED_ID_START]
    per_class: dict[str, list[int]] = {}
    for i in sorted(added, key=lambda i: (-frequency.get(i, 0), i)):
        per_class.setdefault(cls[i], []).append(i)
    edge_set = set(edges)

    def enclosed(i: int) -> bool:
        return any(r == "INSIDE" and "CLOSED" in by_id.get(b, {}).get("states", ())
                   and "CAN_OPEN" in by_id.get(b, {}).get("properties", ()) for a, r, b in edge_set if a == i)

    keep: set[int] = set()
    for c, ids in per_class.items():
        chosen = ids[:max_per_class]
        if all(enclosed(i) for i in chosen):  # keep one instance in the open when the programs have one
            free = next((i for i in ids[max_per_class:] if not enclosed(i)), None)
            if free is not None:
                chosen = chosen[:-1] + [free]
        keep.update(chosen)

    def kept_of_class(c: str) -> int:
        return sum(1 for i in per_class.get(c, ()) if i in keep)

    # 2. occupancy of sittable / lieable furniture
    for f in sorted(i for i, c in cls.items() if c in OCCUPANCY):
        on = [a for a, r, b in edge_set if r == "ON" and b == f and (a < ADDED_ID_START or a in keep)]
        extra = len(on) - (OCCUPANCY[cls[f]] - 1)
        movable = sorted((a for a in on if a >= ADDED_ID_START), key=lambda a: (frequency.get(a, 0), -a))
        for a in movable[: max(0, extra)]:
            if kept_of_class(cls[a]) > 1:
                keep.discard(a)
            else:
                edge_set.discard((a, "ON", f))
                if not any(r == "INSIDE" and b < ADDED_ID_START for x, r, b in edge_set if x == a):
                    room = next((b for x, r, b in edge_set if x == f and r == "INSIDE"), None)
                    if room is not None:
                        edge_set.add((a, "INSIDE", room))
    # 3. cascade: objects on / in dropped objects
    changed = True
    while changed:
        changed = False
        for a, r, b in list(edge_set):
            if r in ("ON", "INSIDE") and a in keep and b >= ADDED_ID_START and b not in keep:
                if kept_of_class(cls[a]) > 1:
                    keep.discard(a)
                    changed = True
                else:
                    edge_set.discard((a, r, b))
    alive = {i for i in by_id if i < ADDED_ID_START} | keep
    out_nodes = [n for n in nodes if n["id"] in alive]
    out_edges = sorted(e for e in edge_set if e[0] in alive and e[2] in alive)
    return out_nodes, out_edges
