"""The three scoring modes side by side (issue 27) on the action-sequencing benchmark: the grounded
row, LOPO split (``--split lto``: leave-title-out), a spread-out subset of the 342 goal-annotated tasks (every STRIDE-th), the
embedded SmolLM2-135M in mode (a) ``score``, (b) ``choice-logprobs`` and (c) ``choice-name``.

Each mode is one resumable ``actionable eval sequencing`` run (its command is printed); the table
compares executability, task success, goal-condition success and LCS, plus seconds per plan and the
share of steps where mode (c)'s answer named no candidate (the prior decided).

    python benchmarks/bench_lm_modes.py [--stride 17] [--limit N] [--split lopo|lto] [--out runs/lm-modes]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

MODES = ("score", "choice-logprobs", "choice-name")


def run(stride: int, out: Path, model: str = "embedded", limit: int | None = None, split: str = "lopo") -> list[dict]:
    rows = []
    for mode in MODES:
        d = out / mode
        cmd = [sys.executable, "-c", "from actionable.cli import run; run()", "eval", "sequencing", "--out", str(d),
               "--rows", "grounded", "--splits", split, "--stride", str(stride), "--model", model,
               "--lm-mode", mode, "--no-cache", "--no-progress"] + (["--limit", str(limit)] if limit else [])
        print("$ actionable " + " ".join(cmd[3:]), file=sys.stderr, flush=True)
        subprocess.run(cmd, check=False)
        recs = [json.loads(x) for x in (d / "run.jsonl").read_text().splitlines() if x.strip()]
        ok = [r["result"] for r in recs if r.get("status") == "ok" and "result" in r]
        n = len(ok)

        def mean(key):
            vals = [float(r[key]) for r in ok if r.get(key) is not None]
            return round(sum(vals) / len(vals), 3) if vals else None

        rows.append({"mode": mode, "tasks": n, "executability": mean("executable"),
                     "task_success": mean("task_success"), "gc_all": mean("gc_all"),
                     "lcs": mean("lcs"), "seconds": mean("seconds"),
                     "tasks_where_prior_decided_a_step": sum(bool(r.get("extra", {}).get("prior_decided")) for r in ok),
                     "modes_seen": sorted({r.get("extra", {}).get("lm_mode", "?") for r in ok})})
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=17)
    ap.add_argument("--out", type=Path, default=Path("runs/lm-modes"))
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--limit", type=int, default=None, help="only the first N programs of the subset")
    ap.add_argument("--split", choices=("lopo", "lto"), default="lopo",
                    help="leave-one-program-out (default) or leave-title-out")
    a = ap.parse_args()
    print(json.dumps(run(a.stride, a.out, a.model, a.limit, a.split), indent=2))
