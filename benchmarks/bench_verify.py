"""Verification speed benchmark (issue 5): seconds per plan of each judge and of
error injection, and plan replays per second, on seeded corruptions of the
goal-annotated gold programs. No LM (the LM judges' cost is the LM's; see
docs/results.md for their per-plan times in the full benchmark).

    python benchmarks/bench_verify.py [--n 20] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import time


def run(n: int = 20, seed: int = 0) -> dict:
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.worlds.virtualhome.scene import load_program, load_scene
    from actionable.evaluation.verification.bench import select_programs
    from actionable.evaluation.verification.corrupt import corrupt_program
    from actionable.verify.grounded import SimulatorJudge
    from actionable.verify.judge import VerifyTask
    from actionable.verify.replay import make_simulator, replay
    from actionable.verify.rules import RuleJudge

    ann = load_goal_annotations()
    pids = select_programs(n, seed, ann)
    scenes = {p: load_scene(p) for p in pids}
    t = time.perf_counter()
    exs = [corrupt_program(p, load_program(p), scenes[p], goal_spec=ann[p], seed=seed) for p in pids]
    out: dict = {"plans": len(exs), "corrupt_s_per_plan": round((time.perf_counter() - t) / len(exs), 4)}
    sim = make_simulator()
    t = time.perf_counter()
    steps = 0
    for ex in exs:
        replay(ex.corrupted.steps, scenes[ex.program_id], sim=sim)
        steps += len(ex.corrupted)
    dt = time.perf_counter() - t
    out["replays_per_s"] = round(len(exs) / dt, 1)
    out["steps_per_s"] = round(steps / dt, 1)
    for judge in (RuleJudge(), SimulatorJudge()):
        t = time.perf_counter()
        for ex in exs:
            judge.judge(ex.corrupted, VerifyTask(goal=ex.gold.task, scene=scenes[ex.program_id],
                                                 goal_spec=ann[ex.program_id]))
        out[f"{judge.name}_judge_s_per_plan"] = round((time.perf_counter() - t) / len(exs), 4)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    print(json.dumps(run(a.n, a.seed), indent=2))
