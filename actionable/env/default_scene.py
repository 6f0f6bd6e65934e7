"""The merged default scene for free-form tasks: the VirtualHome house plus the
objects that all 518 packaged programs add, duplicates merged and ids
renumbered, so that "Make coffee" finds a coffee maker and a cup.

Building it reads every program's initial graph (seconds), so the result is
memoised per process and cached on disk under the cache directory; both caches
are keyed by :data:`~actionable.env.scene.DEFAULT_SCENE_VERSION` and the
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

from actionable.env.scene import (
    ADDED_ID_START, DEFAULT_SCENE_VERSION, _copy_node, _dataset_dir, _pid_key, _program_ids, load_graphs,
)
from actionable.errors import SceneError

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4)
def default_scene_graph(cache_dir: str):
    """The merged default scene as one shared SceneGraph per process and cache dir
    (read-only by convention: its accessors return copies)."""
    from actionable.env.scene import DEFAULT_SCENE, SceneGraph

    return SceneGraph.from_dict(default_scene_dict(cache_dir), name=DEFAULT_SCENE)


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
    return {"nodes": out_nodes,
            "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in edges]}
