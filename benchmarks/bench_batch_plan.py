"""Batch planning throughput (issue 27): ``actionable plan --tasks FILE`` (one model load) against
separate ``actionable plan TASK --json`` calls, on the same tasks, LM cache off, embedded model.

Both pay a process start; the separate calls pay the model loading once per task. The tasks are
the first N distinct task names of the packaged VirtualHome programs with goal annotations.

    python benchmarks/bench_batch_plan.py [--tasks 20] [--model embedded]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CLI = [sys.executable, "-c", "from actionable.cli import run; run()"]


def task_names(n: int) -> list[str]:
    from actionable.core.registry import capability

    ds = capability("virtualhome", "dataset")
    ann = ds.goal_annotations()
    names: list[str] = []
    for pid in ds.program_ids():
        if pid in ann:
            t = ds.program(pid).task
            if t not in names:
                names.append(t)
        if len(names) >= n:
            break
    return names


def run(n: int = 20, model: str = "embedded") -> dict:
    tasks = task_names(n)
    flags = ["--model", model, "--no-cache", "--quiet"]
    t0 = time.perf_counter()
    separate_ok = 0
    for t in tasks:
        p = subprocess.run([*CLI, "plan", t, "--json", *flags], capture_output=True, text=True)
        separate_ok += p.returncode in (0, 1) and bool(p.stdout.strip())
    separate = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "tasks.jsonl"
        f.write_text("".join(json.dumps({"id": str(i), "task": t}) + "\n" for i, t in enumerate(tasks)))
        out = Path(d) / "plans.jsonl"
        t0 = time.perf_counter()
        subprocess.run([*CLI, "plan", "--tasks", str(f), "--out", str(out), *flags], capture_output=True, text=True)
        batch = time.perf_counter() - t0
        lines = [json.loads(x) for x in out.read_text().splitlines()]
    return {"tasks": len(tasks), "separate_s": round(separate, 1), "separate_ok": separate_ok,
            "batch_s": round(batch, 1), "batch_lines": len(lines), "batch_ok": sum(x["ok"] for x in lines),
            "speedup": round(separate / batch, 2)}


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tasks", type=int, default=20)
    ap.add_argument("--model", default="embedded")
    a = ap.parse_args()
    print(json.dumps(run(a.tasks, a.model), indent=2))
