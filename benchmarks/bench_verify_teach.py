"""Judges on real TEACh demonstrations (issue 14 item 3): the noised set and the shortest set.

    python benchmarks/bench_verify_teach.py --judges rule,sim --out runs/teach-det
    python benchmarks/bench_verify_teach.py --judges llm,hybrid --llm-n 20 --out runs/teach-lm
    python benchmarks/bench_verify_teach.py --judges sim --sets noised --by-split   # tune / report halves
    python benchmarks/bench_verify_teach.py --counts          # label counts of the converted data
    python benchmarks/bench_verify_teach.py --sample 25 --out runs/teach-det   # flagged shortest actions

Data: actionable/verify/data/teach_seq.json (actionable.evaluation.verification.teach, CDLA-Sharing-1.0).
``sim`` and ``hybrid`` run only on the 79 episodes whose initial state the THOR world has;
``rule`` and ``llm`` on all 100 (``--llm-n`` limits the LM-based judges to the first N episodes
they apply to, in source order). Runs resume from OUT/run.jsonl.
"""

from __future__ import annotations

import argparse
import json
import time


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judges", default="rule,sim")
    ap.add_argument("--sets", default="noised,shortest", help="noised, shortest or both")
    ap.add_argument("--n", type=int, default=None, help="first N episodes only")
    ap.add_argument("--llm-n", type=int, default=None, help="first N episodes for llm/hybrid")
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--out", default=None)
    ap.add_argument("--counts", action="store_true")
    ap.add_argument("--sample", type=int, default=0, help="print N flagged actions of the shortest set")
    ap.add_argument("--split", choices=("tune", "report"), default=None, help="run one half only")
    ap.add_argument("--by-split", action="store_true",
                    help="also one row per half: tune (even source positions) / report (odd)")
    a = ap.parse_args(argv)
    from actionable.evaluation.verification.teach import markdown, run_bench, summarize
    from actionable.worlds.thor.teach_demos import label_counts

    if a.counts:
        print(json.dumps(label_counts(), indent=1))
        return 0
    judges = [j.strip() for j in a.judges.split(",") if j.strip()]
    lm = None
    if any(j in ("llm", "hybrid") for j in judges):
        from actionable.lm.registry import load_lm

        lm = load_lm(a.model)
    t0 = time.time()
    recs = run_bench(judges, which=tuple(a.sets.split(",")), lm=lm, n=a.n, llm_n=a.llm_n,
                     max_rounds=a.max_rounds, out=a.out, split=a.split,
                     progress=lambda r: print(f"  {r['which']} {r['judge']} {r['id']}: r1 {r['r1']}", flush=True))
    print(markdown(summarize(recs, by_split=a.by_split)))
    print(f"\n{len(recs)} runs in {time.time() - t0:.0f} s")
    if a.sample:
        shown = 0
        for r in recs:
            if r["which"] == "shortest" and r["critiques"] and shown < a.sample:
                print(f"\n{r['id']} ({r['task']}), judge {r['judge']}:")
                for c in r["critiques"]:
                    print(f"    {c}")
                shown += 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
