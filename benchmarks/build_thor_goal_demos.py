"""Build the THOR world's goal demonstrations: ``actionable/worlds/thor/data/goal_demos.json``.

Searches every (task, floor plan) of ``GOAL_TASKS`` x ``DEMO_FLOOR_PLANS``
(:mod:`actionable.worlds.thor.data`) with :func:`actionable.planning.demos.search_demo` (module doc
there). None of those floor plans is a floor plan of the kitchen planning measurement (docs/results.md).

    python benchmarks/build_thor_goal_demos.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from actionable.core.registry import planning_domain  # noqa: E402
from actionable.planning.demos import search_demo  # noqa: E402
from actionable.worlds.thor.bank import teach_bank  # noqa: E402
from actionable.worlds.thor.data import DEMO_FLOOR_PLANS, GOAL_DEMO_FILE, GOAL_TASKS  # noqa: E402


def build(out: Path = GOAL_DEMO_FILE) -> list[dict]:
    """Search every (task, floor plan) of :data:`GOAL_TASKS` x :data:`DEMO_FLOOR_PLANS` and write them."""
    from actionable.grounding.embedder import load_embedder

    emb = load_embedder("minilm")
    demos = []
    for plan in DEMO_FLOOR_PLANS:
        for task in GOAL_TASKS:
            d = search_demo(planning_domain("thor", plan), task, emb, teach_bank(goal_demos=False))
            print(f"{plan:12s} {task:16s} success={d['success']} {d['goals_met']}/{d['goals_total']} "
                  f"attempts={d['attempts']}: {' | '.join(d['steps'])}", flush=True)
            demos.append(d)
    out.write_text(json.dumps({"about": __doc__.splitlines()[0] + " Built by `python benchmarks/"
                                        "build_thor_goal_demos.py` (search_demo, depth 2, rounds 6).", "demos": demos}, indent=1) + "\n",
                   encoding="utf-8")
    return demos


if __name__ == "__main__":
    build()
