"""Merge ``actionable eval sequencing`` run directories into one table.

    python benchmarks/report_sequencing.py runs/seq-grounded runs/seq-nolm runs/seq-paper [--stride 3]

With ``--stride k`` only the programs of ``goal_program_ids()[::k]`` count
(the fixed subsample the LM rows were run on), so every row is compared on the
same tasks. Reads run.jsonl only (no model is run).

    python benchmarks/report_sequencing.py --same-plans runs/cold runs/warm

``--same-plans A B``: for every (program, row, split) in both directories, whether the two plans are
identical step for step (the cold-cache reproducibility check of issue 12 item 6).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--stride", type=int, default=1)
    ap.add_argument("--same-plans", action="store_true", help="compare the plans of two run directories")
    args = ap.parse_args()
    if args.same_plans:
        return same_plans(*args.runs)
    from actionable.evaluation.runner import RunStore
    from actionable.evaluation.sequencing import goal_program_ids, summarise, summary_markdown

    keep = set(goal_program_ids()[:: args.stride])
    by_key: dict[str, dict] = {}
    for d in args.runs:  # one record per (program, row, split); a later directory wins
        for key, r in RunStore(d).read().items():
            if r.get("payload", {}).get("program_id", key.split("|")[0]) in keep:
                by_key[key] = r
    records = [r for r in by_key.values() if r.get("status") == "ok"]
    errors = sorted(k for k, r in by_key.items() if r.get("status") != "ok")
    print(f"programs: every {args.stride}. of the 342 goal-annotated ({len(keep)} programs)\n")
    if errors:
        print(f"left out, errored episodes ({len(errors)}): {', '.join(errors)}\n")
    print(summary_markdown(summarise(records)))


def same_plans(a: str, b: str) -> None:
    from actionable.evaluation.runner import RunStore

    ra, rb = RunStore(a).read(), RunStore(b).read()
    common = sorted(k for k in ra.keys() & rb.keys()
                    if ra[k].get("status") == "ok" and rb[k].get("status") == "ok")
    diff = [k for k in common if ra[k]["result"]["plan"] != rb[k]["result"]["plan"]]
    print(f"{len(common) - len(diff)} of {len(common)} plans identical ({a} vs {b})")
    for k in diff:
        print(f"  differs: {k}: {ra[k]['result']['plan']} | {rb[k]['result']['plan']}")


if __name__ == "__main__":
    main()
