"""Eq. 5 reuse of ExRAP with and without the retrieval relevance cut-off, side by side.

The same ExRAP episode (scene 1003_2, 5 instructions, high non-stationarity,
seed 1, rule instruction reader so both runs read identical tasks) is run with
``relevance`` 0 (plain top-12 retrieval) and 0.5 (keep quadruples scoring >=
half the best), embedded LM, cache off. Prints reuse rate, LM calls per step,
wall time and SR/PS for each, and the ratios.

    python benchmarks/bench_reuse.py [--steps 30] [--relevance 0,0.5]
"""

from __future__ import annotations

import argparse
import json
import time


def run(steps: int = 30, relevances: tuple[float, ...] = (0.0, 0.5), seed: int = 1, n: int = 5) -> dict:
    from actionable.core.config import LMConfig
    from actionable.continual.agent import ExRAPConfig
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.core.continual import DynamicsConfig
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.lm.registry import load_lm

    house = NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(level="high"))
    house.reset(0)
    ins = sample_instructions(house, n, seed=seed)
    lm = load_lm("embedded", LMConfig(cache=False))
    out = {}
    for rel in relevances:
        agent = make_agent("exrap", lm, ins, ExRAPConfig(relevance=rel))
        t0 = time.perf_counter()
        res = run_episode(agent, house, ins, steps=steps, seed=seed, lm=None, keep_trace=False)
        s = res.stats
        out[rel] = {"reuse_rate": s["reuse_rate"], "lm_calls_per_step": s["lm_calls_per_step"],
                    "query_lm_calls": s["query_lm_calls"], "inconsistent": s["inconsistent"],
                    "wall_s": time.perf_counter() - t0, "sr": res.metrics["sr"], "ps": res.metrics["ps"]}
        print(json.dumps({"relevance": rel, **out[rel]}, default=str), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--relevance", default="0,0.5")
    a = ap.parse_args()
    rels = tuple(float(x) for x in a.relevance.split(","))
    res = run(a.steps, rels)
    base = res[rels[0]]
    for rel in rels[1:]:
        r = res[rel]
        print(f"relevance {rel} vs {rels[0]}: reuse {r['reuse_rate']:.0%} vs {base['reuse_rate']:.0%}; "
              f"LM calls/step {r['lm_calls_per_step']:.2f} vs {base['lm_calls_per_step']:.2f} "
              f"({r['lm_calls_per_step'] / base['lm_calls_per_step']:.2f}x); wall "
              f"{r['wall_s']:.0f} s vs {base['wall_s']:.0f} s ({r['wall_s'] / base['wall_s']:.2f}x)")


if __name__ == "__main__":
    main()
