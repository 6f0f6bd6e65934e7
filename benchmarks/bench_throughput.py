"""Evaluation throughput benchmark (issue 7): episodes per minute of ``actionable eval
plan`` with ``--executor local`` against ``--executor ray --workers 2`` on the same
episodes (first N name-only held-out queries x one variant, embedded model, LM
cache off), and the scaling efficiency ``(ray rate / local rate) / workers``.

Wall time includes worker start-up (model loading, Ray start); the steady rate
is measured between the first and the last finished episode.

    python benchmarks/bench_throughput.py [--queries 6] [--variant translated] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path


def _one(executor: str, workers: int, queries: int, variant: str, out: Path) -> dict:
    from actionable.evaluation.plan_eval import prepare_plan_run
    from actionable.evaluation.runner import run_episodes

    eps, factory, manifest = prepare_plan_run(variants=[variant], query_modes=("name",), limit=queries,
                                              lm_cache=False)
    t = time.perf_counter()
    res = run_episodes(eps, factory, out, executor=executor, workers=workers, manifest=manifest,
                       progress=False)
    wall = time.perf_counter() - t
    fin = sorted(r["finished"] for r in res.records.values())
    steady = (len(fin) - 1) / (fin[-1] - fin[0]) * 60 if len(fin) > 1 and fin[-1] > fin[0] else None
    metrics = {k: r["result"]["metrics"]["executability"] for k, r in res.records.items()
               if r["status"] == "ok"}
    return {"episodes": len(eps), "errors": res.errors, "wall_s": wall,
            "episodes_per_min": len(eps) / wall * 60, "steady_episodes_per_min": steady,
            "executability": metrics}


def run(queries: int = 6, variant: str = "translated", workers: int = 2) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        local = _one("local", 1, queries, variant, Path(tmp) / "local")
        ray = _one("ray", workers, queries, variant, Path(tmp) / "ray")
    same = local.pop("executability") == ray.pop("executability")
    return {"local": local, "ray": ray, "workers": workers,
            "speedup_wall": local["wall_s"] / ray["wall_s"],
            "scaling_efficiency_wall": local["wall_s"] / ray["wall_s"] / workers,
            "speedup_steady": (ray["steady_episodes_per_min"] / local["steady_episodes_per_min"]
                               if ray["steady_episodes_per_min"] and local["steady_episodes_per_min"]
                               else None),
            "same_metrics": same}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=6)
    ap.add_argument("--variant", default="translated")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    print(json.dumps(run(a.queries, a.variant, a.workers), indent=2))


if __name__ == "__main__":
    main()
