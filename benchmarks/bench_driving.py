"""Driving world speed: one simulation step (SUMO step of 1 s + the ego's observation), issue 15.

Target: <= 5 ms per step on this machine. Measured per level (traffic density differs) after the
reset's warm-up, while the ego drives a route around the town; also reported: reset time and the
simulated seconds per skill of a short skill sequence.

    pip install -e ".[dev,driving]" torch==2.13.0
    python benchmarks/bench_driving.py [--steps 500] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time


def bench(level: str, steps: int, seed: int) -> dict:
    from actionable.worlds import make

    w = make("driving", nonstationarity=level)
    t0 = time.perf_counter()
    w.reset(seed=seed)
    reset_s = time.perf_counter() - t0
    w.step("drive_to(hospital)")  # give the ego a long route
    sim = w.sim
    sim.ls.vehicle.setRoute("ego", [sim.ego()["edge"], *sim.town.route(sim.ego()["edge"], to_junction="A0")])
    per = []
    for _ in range(steps):
        t = time.perf_counter()
        sim.tick()
        w.observe()
        per.append((time.perf_counter() - t) * 1000)
    per.sort()
    return {"level": level, "ms_per_step_median": round(statistics.median(per), 3),
            "ms_per_step_p90": round(per[int(0.9 * len(per))], 3), "ms_per_step_mean": round(sum(per) / len(per), 3),
            "vehicles": len(sim.ls.vehicle.getIDList()), "persons": len(sim.ls.person.getIDList()),
            "reset_s": round(reset_s, 2), "steps": steps}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=500)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    rows = [bench(lv, a.steps, a.seed) for lv in ("low", "medium", "high")]
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print("| level | ms/step median | p90 | mean | vehicles | pedestrians | reset (s) |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['level']} | {r['ms_per_step_median']} | {r['ms_per_step_p90']} | {r['ms_per_step_mean']} | "
              f"{r['vehicles']} | {r['persons']} | {r['reset_s']} |")
    worst = max(r["ms_per_step_p90"] for r in rows)
    print(f"target <= 5 ms/step: {'met' if worst <= 5 else 'MISSED'} (worst p90 {worst} ms)")


if __name__ == "__main__":
    main()
