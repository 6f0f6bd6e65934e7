"""Efficiency and speed of the goal-directed planner (issue 24): plan length against the shortest
plan the search finds with a larger budget (every order of the first 4 unmet clauses tried), and
against the human program; detour steps; seconds per plan once loaded.

    python benchmarks/bench_goal_efficiency.py [--stride 3] [--novel-split tune]

Tasks: EAI's 342 annotated programs (title read in the program's own scene, leave-one-program-out:
the program's own annotation may not inform the reading) and the novel-goal tasks of one split
(default tune; the report half is for the final run). Only plans that say "Done" under both budgets
count. A detour is a step that is neither an achiever of a clause nor a repair before one; the
planner commits no other steps, so that count is 0 by construction and is measured as a check.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=3, help="every k-th of the 342 programs")
    ap.add_argument("--novel-split", default="tune", choices=("tune", "report"))
    ap.add_argument("--final-report", action="store_true", help="allow --novel-split report")
    args = ap.parse_args()
    if args.novel_split == "report" and not args.final_report:
        ap.error("--novel-split report is for the final run; add --final-report")
    from actionable.core.errors import ActionableError
    from actionable.core.registry import planning_domain
    from actionable.evaluation.datasets import dataset
    from actionable.evaluation.novel_goals import load_novel_goals
    from actionable.grounding.embedder import load_embedder
    from actionable.planning.goaldirected import GoalSearchConfig
    from actionable.planning.pipeline import interpreter_for, plan_task

    emb = load_embedder("minilm")
    ds = dataset("virtualhome")
    ann = ds.goal_annotations()
    jobs = [("virtualhome", pid, ann[pid].task, len(ds.program(pid).steps), {"exclude_programs": (pid,)})
            for pid in sorted(ann)[:: args.stride]]
    jobs += [(t.world, t.scene, t.instruction, None, {}) for t in load_novel_goals(split=args.novel_split)
             if t.expected == "goal"]
    rows, secs, detours = [], [], 0
    for world, scene, text, human, kw in jobs:
        dom = planning_domain(world, scene)
        interp = interpreter_for(dom, emb)
        try:
            reading = interp.read(text, **kw) if kw else interp.read(text)
            if not reading.is_goal:
                continue
            t0 = time.perf_counter()
            a = plan_task(dom, text, interp, GoalSearchConfig(), reading)
            secs.append(time.perf_counter() - t0)
            b = plan_task(dom, text, interp, GoalSearchConfig(lookahead=4, max_steps=60), reading)
        except ActionableError:
            continue
        detours += sum(1 for s in a.steps if not s.score_parts.get("goal"))
        if a.done and b.done and a.steps:
            rows.append((len(a.steps), len(b.steps), human))
    ratio = [x / y for x, y, _ in rows if y]
    hum = [x / h for x, _, h in rows if h]
    print(f"goal-directed plans, Done under both budgets: {len(rows)} (342 every {args.stride}. + novel "
          f"{args.novel_split} half)")
    print(f"mean length: default {statistics.mean(r[0] for r in rows):.2f}, larger budget "
          f"{statistics.mean(r[1] for r in rows):.2f}; ratio default/shortest: mean {statistics.mean(ratio):.3f}, "
          f"max {max(ratio):.2f}; plans longer than the shortest: {sum(r > 1 for r in ratio)}")
    print(f"against the human program (342 only, n={len(hum)}): mean ratio {statistics.mean(hum):.2f}")
    print(f"detour steps (neither achiever nor repair): {detours} in {len(secs)} plans")
    print(f"seconds per plan once loaded (default budget): median {statistics.median(secs):.2f}, "
          f"p90 {sorted(secs)[int(0.9 * len(secs))]:.2f}, max {max(secs):.2f}")


if __name__ == "__main__":
    main()
