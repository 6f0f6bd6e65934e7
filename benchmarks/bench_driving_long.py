"""Driving episodes run to the end (issue 25): 1,000 steps x 5 seeds without a crash.

Runs continual episodes in the SUMO town (set size 3, seeded instructions and traffic) with the
oracle (no LM) and, with ``--agents oracle,exrap``, ExRAP on a scripted LM (control flow only: the
scripted LM's answers are not an LM's). Prints per episode: steps run, failed skills, simulated
seconds, SR / PS, activations, the wall time, and any exception (the episode's traceback's last
line; the benchmark goes on to the next one). Exit status 1 when any episode raised.

    python benchmarks/bench_driving_long.py --seeds 0,1,2,3,4 --steps 1000 --level high

Needs the driving extra (``pip install -e ".[dev,driving]" torch==2.13.0``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback


def run_one(agent: str, seed: int, steps: int, level: str, count: int) -> dict:
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world
    from actionable.lm.scripted import ScriptedLM

    w = get_world("driving")
    t0 = time.perf_counter()
    rec = {"agent": agent, "seed": seed, "level": level, "steps": steps}
    try:
        house = w.make_house("town", level)
        house.reset(seed)
        ins = w.sample(house, count, seed)
        ag = make_agent(agent, None if agent == "oracle" else ScriptedLM(), ins)
        res = run_episode(ag, house, ins, steps, seed, world=w, keep_trace=False)
        m, s = res.metrics, res.stats
        rec.update(ok=True, ran=s["steps"], failed_skills=s["failed_skills"], sim_seconds=s["sim_seconds"],
                   sr=m["sr"], ps=m["ps"], n_success=m["n_success"], n_failure=m["n_failure"],
                   n_cancelled=m["n_cancelled"])
        house.world.close()
    except Exception as exc:  # noqa: BLE001 - a crash is what this benchmark measures
        rec.update(ok=False, error=f"{type(exc).__name__}: {exc}",
                   where=traceback.format_exc().strip().splitlines()[-3:])
    rec["wall_s"] = round(time.perf_counter() - t0, 1)
    return rec


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--level", default="high")
    ap.add_argument("--agents", default="oracle")
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--json", default=None, help="also write the records here (JSONL)")
    a = ap.parse_args()
    recs = []
    for agent in a.agents.split(","):
        for s in (int(x) for x in a.seeds.split(",")):
            r = run_one(agent, s, a.steps, a.level, a.count)
            recs.append(r)
            if r["ok"]:
                sr = "-" if r["sr"] is None else f"{100 * r['sr']:.1f}%"
                print(f"{agent} seed {s}: {r['ran']} steps, {r['failed_skills']} failed skills, "
                      f"{r['sim_seconds']:.0f} sim s, SR {sr} ({r['n_success']}/{r['n_success'] + r['n_failure']}), "
                      f"{r['wall_s']} s wall", flush=True)
            else:
                print(f"{agent} seed {s}: CRASH {r['error']} {r['where']}", flush=True)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(r) + "\n" for r in recs)
    bad = [r for r in recs if not r["ok"]]
    print(f"{len(recs) - len(bad)} of {len(recs)} episodes ran to the end"
          f" ({sum(r.get('ran', 0) for r in recs)} steps)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
