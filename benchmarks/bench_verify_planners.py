"""Clean the paper's planner variants' plans with the sim / hybrid judges (issue 14, item 4).

    cp runs/seq-paper/run.jsonl /tmp/seq-paper.jsonl      # a snapshot: another job may append
    python benchmarks/bench_verify_planners.py /tmp/seq-paper.jsonl --judges sim --modes annotated,text
    python benchmarks/bench_verify_planners.py /tmp/seq-paper.jsonl --judges hybrid --modes annotated --n 40

Prints the before -> after table (executability, task success, GC, LCS, length,
edits) per judge, goal mode and planner row, then examples of edits.
Scoring: the sequencing benchmark's own (`actionable.evaluation.sequencing.score_plan`).
``--n`` takes an even-stride subsample of the non-empty plans (the hybrid judge
runs the embedded LM, about 20 s a plan on 2 cores); ``--out`` writes one JSON
line per cleaned plan.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv=None) -> int:
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.verify.judge import make_judge
    from actionable.evaluation.verification.planners import (clean_record, load_records, subsample, summarise,
                                                 summary_markdown)

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", help="a sequencing run.jsonl (a snapshot copy)")
    ap.add_argument("--judges", default="sim", help="comma list of sim, hybrid, rule, llm")
    ap.add_argument("--modes", default="annotated,text", help="goal modes: annotated, text")
    ap.add_argument("--rows", default="", help="planner rows to keep (default all)")
    ap.add_argument("--n", type=int, default=0, help="even-stride subsample of non-empty plans (0 = all)")
    ap.add_argument("--model", default="embedded", help="LM of the llm / hybrid judge")
    ap.add_argument("--examples", type=int, default=8, help="edit examples to print")
    ap.add_argument("--out", default="", help="write per-plan JSON lines here")
    a = ap.parse_args(argv)

    recs = load_records(a.run, set(filter(None, a.rows.split(","))) or None)
    if a.n:
        recs = subsample(recs, a.n)
    ann = load_goal_annotations()
    lm = None
    judges = [j for j in a.judges.split(",") if j]
    if any(j in ("llm", "hybrid") for j in judges):
        from actionable.core.config import LMConfig
        from actionable.lm.registry import load_lm

        lm = load_lm(a.model, LMConfig(cache=False))
    results = []
    out = open(a.out, "w") if a.out else None
    t0 = time.perf_counter()
    for name in judges:
        judge = make_judge(name, lm=lm)
        for mode in a.modes.split(","):
            for i, rec in enumerate(recs, 1):
                r = clean_record(rec, judge, mode, ann)
                results.append(r)
                if out:
                    out.write(json.dumps(r.to_dict()) + "\n")
                    out.flush()
                if i % 20 == 0:
                    print(f"  {name}/{mode}: {i}/{len(recs)} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    print(f"{len(recs)} plans from {a.run}\n")
    print(summary_markdown(summarise(results)))
    worse = [r for r in results if (r.before["task_success"] and not r.after["task_success"])
             or (r.before["executable"] and not r.after["executable"])]
    print(f"\nplans whose executability or task success fell: {len(worse)}")
    for r in worse:
        print(f"  {r.judge}/{r.mode} {r.record.row} {r.record.program_id}: {list(r.record.plan)} -> {r.final_plan}")
    print("\nexamples of edits (plans whose task success rose first):")
    shown = sorted((r for r in results if r.removes or r.inserts),
                   key=lambda r: (-(bool(r.after["task_success"]) - bool(r.before["task_success"])),
                                  r.record.row, r.record.program_id))
    for r in shown[:a.examples]:
        print(f"- {r.judge}/{r.mode} {r.record.row} {r.record.program_id} "
              f"(exec {r.before['executable']}->{r.after['executable']}, "
              f"success {r.before['task_success']}->{r.after['task_success']})")
        print(f"    plan:    {'; '.join(r.record.plan)}")
        for e in r.removes:
            print(f"    REMOVE  {e}")
        for e in r.inserts:
            print(f"    MISSING {e}")
        print(f"    cleaned: {'; '.join(r.final_plan)}")
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
