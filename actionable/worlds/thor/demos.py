"""Demonstrations from the world's goals: programs found by search in ALFRED layouts.

TEACh has no demonstration of boiling water (its "Boil Potato" drivers found the pot filled and on
a lit burner), and none in the ALFRED layouts. This module writes demonstrations of the kitchen
tasks that have goal predicates (:mod:`.goals`: Make coffee, Boil water, Water the plant) by a
search in the THOR world, in floor plans that the planning measurement does not use, and the
bank (:func:`.bank.teach_bank` with ``goal_demos=True``) adds them beside the TEACh ones.

Search (:func:`search_demo`), per task and ALFRED layout: the candidate steps are those the
grounded planner would consider for the task (the classes of the 5 nearest TEACh demonstrations
and of the task's words, :meth:`GroundedPlanner.relevant_classes`), each tried with the THOR
affordance and its repairs (:class:`.planning.ThorAffordance`). From the current state, a
breadth-first search of ``depth`` (2) steps keeps the sequence that meets the most goal
predicates (the shortest on ties); it is committed if it meets more than before; repeated until
every goal holds, nothing improves, or ``rounds`` (6). The program is the committed steps without
walks (as in TEACh demonstrations). The search sees the goal predicates: it is a demonstrator,
not the planner under test.

Leakage: a demonstration's source is ``goals:<floor plan>`` and
:meth:`ThorPlanning.held_out_sources` excludes those of the scene's own floor plan; the
measurement's floor plans (docs/results.md) are disjoint from :data:`DEMO_FLOOR_PLANS`.
Built by ``python -m actionable.worlds.thor.demos`` into ``data/goal_demos.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from actionable.worlds.thor.data import GOAL_DEMO_FILE, goal_demos  # noqa: F401  (goal_demos: re-exported)

#: ALFRED kitchens the demonstrations come from (none is a floor plan of the planning measurement;
#: none has a house plant: the ALFRED kitchens with one are exactly the ten TEACh kitchens measured,
#: so "Water the plant" has no goal demonstration and relies on TEACh's)
DEMO_FLOOR_PLANS = ("FloorPlan2", "FloorPlan6", "FloorPlan9", "FloorPlan11", "FloorPlan12", "FloorPlan13")
GOAL_TASKS = ("Make coffee", "Boil water", "Water the plant")
DEMO_FILE = GOAL_DEMO_FILE


def search_demo(scene: str, task: str, embedder, depth: int = 2, rounds: int = 6) -> dict:
    """Search a program meeting ``task``'s goal predicates in THOR ``scene`` (module doc).

    Returns:
        ``{"scene", "task", "steps": [phrase, ...], "success": bool, "goals_met": int,
        "goals_total": int, "attempts": int}``.

    Raises:
        UnknownSceneError: unknown scene. WorldGoalError: a task without goal predicates.
    """
    from actionable.core.config import GroundedConfig
    from actionable.planning.grounded import GroundedPlanner
    from actionable.planning.retrieval import ProgramRetriever
    from actionable.core.world import check_goals
    from actionable.worlds.thor.bank import teach_bank
    from actionable.worlds.thor.goals import task_goals
    from actionable.worlds.thor.planning import ThorPlanning

    goals = task_goals(task)
    dom = ThorPlanning(scene)
    oracle = dom.start()
    planner = GroundedPlanner(None, embedder, ProgramRetriever(teach_bank(goal_demos=False), embedder),
                              GroundedConfig(use_lm=False))
    retrieved = planner.retriever.nearest(task, None, k=5, exclude_sources=dom.held_out_sources())
    classes, _ = planner.relevant_classes(oracle, task, None, retrieved)
    cands = oracle.candidates(classes)
    n_met = lambda st: len(check_goals(goals, st).met)  # noqa: E731
    committed: list = []
    attempts = 0
    best_met = n_met(oracle.state)
    for _ in range(rounds):
        if best_met == len(goals):
            break
        cur, cur_mem = oracle.state, dict(oracle.memory)
        frontier = [(cur, [], cur_mem)]
        seen = {oracle.fingerprint(cur)}
        best = None
        for _d in range(depth):
            nxt = []
            for state, seq, mem in frontier:
                oracle.state, oracle.memory = state, mem
                for c in cands:
                    attempts += 1
                    att = oracle.attempt(c)
                    if not att.ok or att.fingerprint in seen:
                        continue
                    seen.add(att.fingerprint)
                    m = n_met(att.state)
                    if m > best_met and (best is None or m > best[0]):
                        best = (m, seq + [att])
                    new_mem = {**mem, **{a.name: a.id for st in att.steps for a in st.args}}
                    nxt.append((att.state, seq + [att], new_mem))
            frontier = nxt
            if best is not None:
                break
        oracle.state, oracle.memory = cur, cur_mem
        if best is None:
            break
        for att in best[1]:
            oracle.commit(att)
            committed.append(att)
        best_met = best[0]
    steps = [s.unresolved().to_text() for a in committed for s in a.steps if s.action != "WALK"]
    return {"scene": scene, "task": task, "steps": steps, "success": best_met == len(goals),
            "goals_met": best_met, "goals_total": len(goals), "attempts": attempts}


def build(out: Path = DEMO_FILE) -> list[dict]:
    """Search every (task, floor plan) of :data:`GOAL_TASKS` x :data:`DEMO_FLOOR_PLANS` and write them."""
    from actionable.grounding.embedder import load_embedder

    emb = load_embedder("minilm")
    demos = []
    for plan in DEMO_FLOOR_PLANS:
        for task in GOAL_TASKS:
            d = search_demo(plan, task, emb)
            print(f"{plan:12s} {task:16s} success={d['success']} {d['goals_met']}/{d['goals_total']} "
                  f"attempts={d['attempts']}: {' | '.join(d['steps'])}", flush=True)
            demos.append(d)
    out.write_text(json.dumps({"about": __doc__.splitlines()[0] + " Built by `python -m actionable.worlds.thor."
                                        "demos` (search_demo, depth 2, rounds 6).", "demos": demos}, indent=1) + "\n",
                   encoding="utf-8")
    return demos


if __name__ == "__main__":
    build()
