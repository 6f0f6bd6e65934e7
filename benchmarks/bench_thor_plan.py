"""The grounded planner in the THOR kitchen world (issue 13, item 3): Make coffee, Boil water and
Water the plant in TEACh initial states (and ALFRED floor plans), scored by executability and the
world's goal predicates (:mod:`actionable.worlds.thor.goals`).

Scenes: one TEACh initial state per floor plan with a coffee machine, a stove and a house plant
(:func:`teach_kitchens`, ten kitchens) and two ALFRED layouts.

Leak-free: the example bank (TEACh demonstrations, :func:`actionable.worlds.thor.bank.teach_bank`)
never shows a program recorded in the scene's own AI2-THOR floor plan
(:meth:`ThorPlanning.held_out_sources`); ``--protocol title-out`` also hides every program with
the task's name (TEACh's "Water the plant" included); ``--protocol goal-demos`` adds the
demonstrations searched to the world's goals in six other ALFRED kitchens.

    ACTIONABLE_LM_THREADS=1 python benchmarks/bench_thor_plan.py --out runs/thor-plan            # embedded LM
    python benchmarks/bench_thor_plan.py --no-lm --out runs/thor-plan-nolm                        # prior only
    python benchmarks/bench_thor_plan.py --no-lm --protocol title-out --out runs/thor-plan-nolm-lto
    python benchmarks/bench_thor_plan.py --no-lm --protocol goal-demos --out runs/thor-plan-nolm-goals
    python benchmarks/bench_thor_plan.py --no-lm --no-goal-search --out runs/thor-plan-nolm-nogs  # goals unused

The planner uses the task's goal predicates by default (``GroundedConfig.goal_search``:
no undo of a met goal, a bounded search for progress instead of a premature Done;
:mod:`actionable.planning.goalsearch`); ``--no-goal-search`` plans without them.

Writes ``<out>/plans.jsonl`` (one plan a line) and prints a per-task table: success = every goal
predicate holds after an executable plan; *open* = scenes where the task's goals do not all hold
at the start (success there is the honest number); GC = share of goal conditions met (at the
end; at the start).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

TASKS = ("Make coffee", "Boil water", "Water the plant")
#: two ALFRED layouts (objects placed by the documented seeded rule) besides the TEACh kitchens
ALFRED = ("FloorPlan1", "FloorPlan5")


def teach_kitchens() -> list[str]:
    """One TEACh initial state per AI2-THOR floor plan: the first episode (by game id) whose
    kitchen has a coffee machine, a stove knob and a house plant (all three tasks possible)."""
    from actionable.worlds.thor import data
    from actionable.worlds.thor.bank import floor_plan

    out, seen = [], set()
    for g, ep in sorted(data.teach_episodes().items()):
        types = {o["type"] for o in ep["objects"]}
        fp = floor_plan(ep["world"])
        if fp not in seen and {"CoffeeMachine", "StoveKnob", "HousePlant"} <= types:
            seen.add(fp)
            out.append(f"teach:{g}")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("runs/thor-plan"))
    ap.add_argument("--no-lm", action="store_true", help="GroundedConfig(use_lm=False): prior and task cosine only")
    ap.add_argument("--no-goal-search", action="store_true",
                    help="GroundedConfig(goal_search=False): the planner does not use the goal predicates "
                         "(no undo guard, Done ends the plan)")
    ap.add_argument("--scenes", default=None, help="comma-separated scenes (default: teach_kitchens() + ALFRED)")
    ap.add_argument("--tasks", default=",".join(TASKS))
    ap.add_argument("--protocol", choices=("floor-plan-out", "title-out", "goal-demos"), default="floor-plan-out",
                    help="floor-plan-out: exclude the bank's programs recorded in the scene's floor plan; "
                         "title-out: also every program with the task's name; goal-demos: floor-plan-out "
                         "with the goal demonstrations (benchmarks/build_thor_goal_demos.py) added to TEACh's")
    args = ap.parse_args(argv)

    from actionable.core.config import GroundedConfig, LMConfig
    from actionable.grounding.embedder import load_embedder
    from actionable.core.registry import planning_domain
    from actionable.planning.grounded import GroundedPlanner
    from actionable.planning.retrieval import ProgramRetriever

    emb = load_embedder("minilm")
    lm = None
    if not args.no_lm:
        from actionable.lm.registry import load_lm

        lm = load_lm("embedded", LMConfig(cache=False))  # seconds per plan without the response cache
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    retriever = None
    with (args.out / "plans.jsonl").open("w", encoding="utf-8") as fh:
        scenes = args.scenes.split(",") if args.scenes else [*teach_kitchens(), *ALFRED]
        for scene in scenes:
            dom = planning_domain("thor", scene)
            if retriever is None:
                from actionable.worlds.thor.bank import teach_bank

                retriever = ProgramRetriever(teach_bank(goal_demos=args.protocol == "goal-demos"), emb)
            for task in args.tasks.split(","):
                planner = GroundedPlanner(lm, emb, retriever, GroundedConfig(use_lm=lm is not None,
                                                                          goal_search=not args.no_goal_search))
                t = time.perf_counter()
                res = planner.plan(task, dom, exclude_sources=dom.held_out_sources(),
                                   exclude_tasks=(task,) if args.protocol == "title-out" else ())
                sec = time.perf_counter() - t
                gc = dom.goal_check(res)
                from actionable.core.world import check_goals
                from actionable.worlds.thor.goals import task_goals
                from actionable.worlds.thor.scene import ThorState

                at_start = len(check_goals(task_goals(task), ThorState(dom.scene)).met)
                row = {"scene": dom.name, "task": task, "executable": bool(res.executable),
                       "goals_met": gc["met"], "goals_total": gc["total"], "success": gc["task_success"],
                       "goals_met_at_start": at_start,
                       "steps": len(res.steps), "repairs": res.repairs, "seconds": round(sec, 2),
                       "stop": res.stop_reason, "plan": [s.action for s in res.steps],
                       "goal_search_steps": sum(1 for s in res.steps if s.score_parts.get("goal_search")),
                       "retrieved": [r["source"] for r in res.retrieved[:3]], "unmet": gc["unmet"]}
                rows.append(row)
                fh.write(json.dumps(row) + "\n")
                fh.flush()
                print(f"{dom.name:32s} {task:16s} exec={row['executable']!s:5s} goals={gc['met']}/{gc['total']} (start {at_start}) "
                      f"{sec:5.1f}s  {' | '.join(row['plan'])}", flush=True)
    print(f"\n{'task':16s} {'scenes':>6s} {'executable':>10s} {'success':>8s} {'open':>5s} {'success(open)':>13s} "
          f"{'GC':>5s} {'GC(start)':>9s} {'s/plan':>6s}")
    for name, rs in [(t, [r for r in rows if r["task"] == t]) for t in args.tasks.split(",")] + [("all", rows)]:
        tot = max(1, sum(r["goals_total"] for r in rs))
        open_ = [r for r in rs if r["goals_met_at_start"] < r["goals_total"]]  # not already done at the start
        print(f"{name:16s} {len(rs):6d} {sum(r['executable'] for r in rs):10d} {sum(r['success'] for r in rs):8d} "
              f"{len(open_):5d} {sum(r['success'] for r in open_):13d} {sum(r['goals_met'] for r in rs) / tot:5.2f} "
              f"{sum(r['goals_met_at_start'] for r in rs) / tot:9.2f} "
              f"{sum(r['seconds'] for r in rs) / max(1, len(rs)):6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
