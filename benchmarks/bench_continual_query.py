"""Query-answer quality and cost of the ExRAP query evaluator with the embedded LM.

For a fixed memory (the TEKG after seeing a room), asks every dynamic object's
state both ways (true value and its opposite) and reports, per answer format
(cloze / yes-no) and estimator (one scoring call = logprob / 10 samples):
mean P(true value), mean P(false value), accuracy of P > 0.5, seconds per
evaluation and LM calls. Side by side, one table.

    python benchmarks/bench_continual_query.py [--objects 6] [--samples 10]
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--objects", type=int, default=6)
    ap.add_argument("--samples", type=int, default=10)
    ap.add_argument("--scene", default="1003_2")
    a = ap.parse_args()

    from actionable.core.config import LMConfig
    from actionable.worlds.virtualhome.instructions import name_of
    from actionable.continual.query import QueryEvaluator
    from actionable.continual.tekg import TEKG
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.core.continual import Skill
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.lm.registry import load_lm

    lm = load_lm("embedded", LMConfig(cache=False))
    house = NonStationaryHouse(load_scene(a.scene))
    obs = house.reset(0)
    house.step(Skill("go", (house.room_id("dining_room"),)))
    obs = house.observe()
    mem = TEKG()
    mem.update(obs.facts, 1)
    objs = [n for n in house.dynamic if house.room_of(n) == house.room_id("dining_room")
            and house.states_of(n)][: a.objects]
    cases = []
    for n in objs:
        true = sorted(house.states_of(n))[0]
        alts = ("on", "off") if true in ("on", "off") else ("open", "closed")
        false = alts[1 - alts.index(true)]
        for value, truth in ((true, True), (false, False)):
            cases.append((f"{name_of(house, n)} is {value}", (house.entity(n), "is", value, alts), truth))
    print(f"model={lm.model_id} memory={len(mem)} quadruples, {len(cases)} queries "
          f"({len(objs)} objects x true/false value)")
    print("| answer | estimator | P(true) | P(false) | accuracy | s/query | LM calls |")
    print("|---|---|---|---|---|---|---|")
    for answer in ("cloze", "yesno"):
        for mode in ("logprob", "sample"):
            ev = QueryEvaluator(lm, mode=mode, samples=a.samples, reuse=False, temporal_consistency=False,
                                answer=answer)
            pt, pf, ok = [], [], 0
            t0 = time.perf_counter()
            for q, fact, truth in cases:
                p, _, _ = ev.evaluate(q, mem, 1, (fact,))
                (pt if truth else pf).append(p)
                ok += (p > 0.5) == truth
            dt = (time.perf_counter() - t0) / len(cases)
            print(f"| {answer} | {mode} | {sum(pt) / len(pt):.2f} | {sum(pf) / len(pf):.2f} | "
                  f"{ok}/{len(cases)} | {dt:.2f} | {ev.stats.lm_calls} |")


if __name__ == "__main__":
    main()
