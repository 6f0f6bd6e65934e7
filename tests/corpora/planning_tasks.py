"""Shared planning corpus (as unified-planning's example problems): every
planner test iterates these.

* ``GOLD_PROGRAMS``: packaged programs, one per kind of difficulty (containers,
  switches, sitting, two-object actions), whose class-level steps must ground.
* ``NOVEL_TASKS``: the 30 tasks outside the 26 packaged titles
  (``benchmarks/data/novel_tasks.txt``, the benchmark's data).
* ``NAMED_OBJECTS``: for each novel task, the classes it names.
* ``NAMED_OBJECTS_B``: set B, 20 more novel tasks (``benchmarks/data/novel_tasks_b.txt``).
"""

from __future__ import annotations

from pathlib import Path

NOVEL_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "novel_tasks.txt"
# set B: 20 more, written before the task-step termination rule was run on them (its held-out check)
NOVEL_FILE_B = NOVEL_FILE.with_name("novel_tasks_b.txt")

GOLD_PROGRAMS = ["3_1", "134_1", "221_2", "327_2", "384_1", "491_2", "628_1", "787_2", "962_1", "1003_2"]


def _load(path: Path = NOVEL_FILE) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        task, _, objs = line.partition("|")
        out[task.strip()] = [o.strip() for o in objs.split(",") if o.strip()]
    return out


NAMED_OBJECTS = _load()
NOVEL_TASKS = list(NAMED_OBJECTS)
assert len(NOVEL_TASKS) == 30, len(NOVEL_TASKS)
NAMED_OBJECTS_B = _load(NOVEL_FILE_B)
assert len(NAMED_OBJECTS_B) == 20 and not set(NAMED_OBJECTS_B) & set(NAMED_OBJECTS), len(NAMED_OBJECTS_B)
