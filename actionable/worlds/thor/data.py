"""Packaged data of the THOR world (read-only, loaded once per process).

Files under ``actionable/worlds/thor/data/`` (built by :mod:`.convert`; see ``data/README.md``):

* ``alfred.pddl`` — ALFRED's PDDL domain as shipped in PyPI ``alfworld`` 0.4.2 (MIT).
* ``alfred_vocab.json`` — ALFRED's vocabularies from ``alfworld/gen/constants.py`` (MIT) plus
  ``TYPE_CAPS``: AI2-THOR capability flags per object type (observed in TEACh, completed from ALFRED).
* ``alfred_layouts.json.gz`` — 120 ALFRED floor plans: object types and receptacle instances with
  the agent pose ALFRED reaches them from (MIT).
* ``teach_episodes.json.gz`` — 79 TEACh episodes: initial and final object states and the driver's
  object interactions (CDLA-Sharing-1.0, changed: fields dropped, parents reduced to the innermost).
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

DATA_DIR = Path(__file__).parent / "data"
#: the goal demonstrations (built by benchmarks/build_thor_goal_demos.py, :func:`actionable.planning.demos.search_demo`)
GOAL_DEMO_FILE = DATA_DIR / "goal_demos.json"


def _gz(name: str):
    return json.loads(gzip.decompress((DATA_DIR / name).read_bytes()).decode("utf-8"))


@functools.lru_cache(maxsize=1)
def vocab() -> dict:
    """ALFRED vocabularies: ``OBJECTS``, ``RECEPTACLES``, ``MOVABLE_RECEPTACLES``,
    ``OPENABLE_CLASS_LIST``, ``VAL_RECEPTACLE_OBJECTS`` (receptacle type -> object types it can
    hold: the domain's ``canContain``), ``VAL_ACTION_OBJECTS`` (``Cleanable``, ``Heatable``,
    ``Coolable``, ``Toggleable``, ``Sliceable`` -> types) and ``TYPE_CAPS`` (type -> AI2-THOR caps)."""
    return json.loads((DATA_DIR / "alfred_vocab.json").read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def can_contain() -> dict[str, frozenset[str]]:
    """ALFRED's ``canContain``: receptacle type -> frozenset of object types."""
    return {k: frozenset(v) for k, v in vocab()["VAL_RECEPTACLE_OBJECTS"].items()}


@functools.lru_cache(maxsize=1)
def action_objects() -> dict[str, frozenset[str]]:
    """ALFRED's ``VAL_ACTION_OBJECTS``: ``Cleanable``/``Heatable``/``Coolable``/... -> types."""
    return {k: frozenset(v) for k, v in vocab()["VAL_ACTION_OBJECTS"].items()}


@functools.lru_cache(maxsize=1)
def layouts() -> dict[str, dict]:
    """``{"FloorPlan1": {"types": [...], "receptacles": {id: [x, z, rotation, horizon]}}, ...}``."""
    return _gz("alfred_layouts.json.gz")


@functools.lru_cache(maxsize=1)
def teach_episodes() -> dict[str, dict]:
    """TEACh episodes by game id: ``{"game", "task", "desc", "world", "agent": [x, y, z],
    "objects": [...], "final": [...], "interactions": [[action, oid, success], ...]}``; an object is
    ``{"id", "type", "parent", "pos": [x, y, z], "caps": [...], "states": [...], "temp"}``."""
    return {e["game"]: e for e in _gz("teach_episodes.json.gz")}


def domain_text() -> str:
    """``alfred.pddl`` as shipped (text)."""
    return (DATA_DIR / "alfred.pddl").read_text(encoding="utf-8")


@functools.lru_cache(maxsize=1)
def goal_demos() -> tuple[dict, ...]:
    """The packaged goal demonstrations (``data/goal_demos.json``, written by
    benchmarks/build_thor_goal_demos.py; empty when not built): ``({"scene", "task",
    "steps", "success", ...}, ...)``, successful searches only."""
    if not GOAL_DEMO_FILE.is_file():
        return ()
    return tuple(x for x in json.loads(GOAL_DEMO_FILE.read_text(encoding="utf-8"))["demos"] if x["success"])


#: ALFRED kitchens the demonstrations come from (none is a floor plan of the planning measurement;
#: none has a house plant: the ALFRED kitchens with one are exactly the ten TEACh kitchens measured,
#: so "Water the plant" has no goal demonstration and relies on TEACh's)
DEMO_FLOOR_PLANS = ("FloorPlan2", "FloorPlan6", "FloorPlan9", "FloorPlan11", "FloorPlan12", "FloorPlan13")
GOAL_TASKS = ("Make coffee", "Boil water", "Water the plant")
