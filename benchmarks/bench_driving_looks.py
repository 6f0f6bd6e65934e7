"""ExRAP's exploration in the driving world over long episodes (issue 25, the A-B-A-B loop that
missed looks caused): SR, PS, distinct places visited, the longest run alternating between two
places, and the share of beliefs stuck at 0.5, per level and seed.

    python benchmarks/bench_driving_looks.py --lm reader --seeds 60,61,62,63,64 --steps 300 --count 5
    python benchmarks/bench_driving_looks.py --lm embedded --seeds 65 --levels medium --steps 60 --count 5

``--lm reader``: a test LM that answers from the memory in its prompt (the one the continual tests
use), so the exploration values matter; ``benchmarks/bench_driving_long.py``'s test LM answers
about 0.5 for every condition, which hides the loop. ``--lm embedded``: SmolLM2-135M. Compare
``ExRAPConfig(looks="ignored")`` (the old rule) by running the code before 367b009. Seeds 60-74 are
calibration seeds, in no table.
"""
from __future__ import annotations

import argparse
import json
import time
from actionable.continual.metrics import longest_shuttle


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lm", default="reader", help="reader (memory-reading test LM), scripted or embedded")
    ap.add_argument("--seeds", default="60,61,62,63,64")
    ap.add_argument("--levels", default="low,medium,high")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--count", type=int, default=3, help="instruction set size")
    ap.add_argument("--json", default=None, help="write the per-episode records here")
    a = ap.parse_args()
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world
    w = get_world("driving")
    if a.lm == "reader":
        from actionable.lm.scripted import MemoryReaderLM
        lm = MemoryReaderLM()
    elif a.lm == "scripted":
        from actionable.lm.scripted import ScriptedLM
        lm = ScriptedLM()
    else:
        from actionable.lm.registry import load_lm
        lm = load_lm("embedded")
    recs = []
    for level in a.levels.split(","):
        for s in map(int, a.seeds.split(",")):
            t0 = time.time()
            house = w.make_house("town", level)
            house.reset(s)
            ins = w.sample(house, a.count, s)
            res = run_episode(make_agent("exrap", lm, ins), house, ins, a.steps, s, world=w, keep_trace=True)
            rooms = [r["room"] for r in res.trace]
            m = res.metrics
            qs = list(res.trace[0]["beliefs"])
            stuck = sum(1 for r in res.trace for q in qs if abs(r["beliefs"][q] - 0.5) < 0.005) / (len(qs) * len(rooms))
            rec = dict(level=level, seed=s, sr=m["sr"], ps=m["ps"], ok=m["n_success"], miss=m["n_failure"],
                       distinct=len(set(rooms)), abab=longest_shuttle(rooms), stuck=round(stuck, 3),
                       failed=res.stats["failed_skills"], wall=round(time.time() - t0))
            recs.append(rec)
            print(json.dumps(rec), flush=True)
            house.world.close()
    for level in a.levels.split(","):
        rs = [r for r in recs if r["level"] == level]
        ok, miss = sum(r["ok"] for r in rs), sum(r["miss"] for r in rs)
        pss = [r["ps"] for r in rs if r["ps"] is not None]
        print(f"{level}: pooled SR {100*ok/max(1,ok+miss):.1f}% ({ok}/{ok+miss}), mean PS {sum(pss)/max(1,len(pss)):.2f}, "
              f"mean distinct {sum(r['distinct'] for r in rs)/len(rs):.1f}, max ABAB {max(r['abab'] for r in rs)}, "
              f"mean stuck@0.5 {sum(r['stuck'] for r in rs)/len(rs):.2f}", flush=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(recs, f)

if __name__ == "__main__":
    main()
