"""Driving world time scale (issue 15 item 3): how long one skill drives, and how long conditions last.

A random patrol (each step ``go`` to a random other place; no LM) runs continual episodes in the
SUMO town (set size 3, seeded instructions and traffic) and prints per level:

* the simulated seconds one ``go`` skill takes (median, p10, p90);
* per instruction template, the activations (condition true, goal not) and how many steps they
  last; an activation that ends within the step that revealed it cannot be acted on by an agent
  that must look first.

    python benchmarks/bench_driving_timing.py --seeds 50,51,52 --levels low,medium,high --steps 20

Needs the driving extra (``pip install -e ".[dev,driving]" torch==2.13.0``). The seeds above are tuning seeds, not
those of the results table (0-3).
"""

from __future__ import annotations

import argparse
import collections
import random
import statistics


class Patrol:
    """Go to a random other place every step (seeded)."""

    name = "patrol"

    def reset(self, tasks, house, exclusive=None) -> None:
        self.house, self.rng = house, random.Random(0)

    def act(self, obs, t):
        from actionable.continual.agent import Decision
        nav = [z for z in self.house.navigation_skills() if self.house.rooms[z.args[0]] != obs.room]
        return Decision(self.rng.choice(nav), "random patrol")


def run(seeds, levels, steps: int) -> dict:
    from actionable.continual.episode import run_episode
    from actionable.worlds.driving.continual import CONTINUAL_WORLD as W

    out = {}
    for lv in levels:
        drive, lengths = [], collections.defaultdict(list)
        for s in seeds:
            house = W.make_house("town", lv)
            house.reset(s)
            ins = W.sample(house, 3, s)
            res = run_episode(Patrol(), house, ins, steps, s, world=W)
            drive += [b["sim_time"] - a["sim_time"] for a, b in zip(res.trace, res.trace[1:])]
            for a in res.activations:
                lengths[ins[a["instruction"] - 1].template].append(a["end"] - a["start"])
        q = sorted(drive)
        out[lv] = {"go_median_s": statistics.median(q), "go_p10_s": q[len(q) // 10], "go_p90_s": q[int(0.9 * len(q))],
                   "activations": {k: {"n": len(v), "median_steps": statistics.median(v),
                                       "one_step_share": sum(x == 1 for x in v) / len(v)} for k, v in lengths.items()}}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="50,51,52")
    ap.add_argument("--levels", default="low,medium,high")
    ap.add_argument("--steps", type=int, default=20)
    a = ap.parse_args()
    res = run([int(x) for x in a.seeds.split(",")], a.levels.split(","), a.steps)
    for lv, r in res.items():
        print(f"{lv}: go median {r['go_median_s']:.0f} s (p10 {r['go_p10_s']:.0f}, p90 {r['go_p90_s']:.0f})")
        for k, v in sorted(r["activations"].items()):
            print(f"   {k}: {v['n']} activations, median {v['median_steps']} steps, "
                  f"{100 * v['one_step_share']:.0f}% end within one step")


if __name__ == "__main__":
    main()
