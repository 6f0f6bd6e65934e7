"""Run the benchmark suite in one process and print the side-by-side ratios (issue 7).

    python benchmarks/run_all.py [--only grounding,simulator,overhead,throughput,continual]
                                 [--quick] [--json results.json]

``--quick`` shrinks every benchmark (fewer programs, tasks and queries) for a smoke
run; the figures in docs/results come from a full run. Each benchmark that fails is
reported with its error and the others still run. Machine facts (CPU count, RAM)
are printed with the results.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

BENCHES = ("grounding", "simulator", "overhead", "throughput", "continual")


def _machine() -> dict:
    mem = None
    try:
        with open("/proc/meminfo") as f:
            mem = round(int(f.readline().split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "ram_gb": mem, "python": platform.python_version(),
            "platform": platform.platform()}


def _run(name: str, quick: bool) -> dict:
    if name == "grounding":
        import bench_grounding
        return bench_grounding.run(queries=50 if quick else 200, naive_queries=5 if quick else 20,
                                   max_actions=2000 if quick else None)
    if name == "simulator":
        import bench_simulator
        return bench_simulator.run(repeat=1 if quick else 3, limit=60 if quick else None)
    if name == "overhead":
        import bench_overhead
        return bench_overhead.run(tasks=2 if quick else 20, max_steps=4 if quick else None,
                                  samples=4 if quick else None)
    if name == "throughput":
        import bench_throughput
        return bench_throughput.run(queries=2 if quick else 6)
    if name == "continual":
        import bench_continual
        if quick:
            return bench_continual.run(steps=5, agents=("exrap", "llm-planner"))
        return bench_continual.run(steps=20)
    raise SystemExit(f"unknown benchmark {name!r}; choose from {', '.join(BENCHES)}")


def _lines(name: str, r: dict) -> list[str]:
    f = lambda x, d=1: "n/a" if x is None else f"{x:.{d}f}"  # noqa: E731
    if name == "grounding":
        return [f"grounding top-1 over {r['actions']} actions (batch {r['batch']}): ours "
                f"{f(r['ours_us_per_query'])} us/query | semantic_search {f(r['semantic_search_us_per_query'])} "
                f"({f(r['ratio_semantic_search_over_ours'])}x ours) | naive loop "
                f"{f(r['naive_loop_us_per_query'])} ({f(r['ratio_naive_over_ours'])}x ours); "
                f"top-1 agreement {f(100 * r['top1_agree_ours_vs_semantic_search'])}% / "
                f"{f(100 * r['top1_agree_ours_vs_naive'])}%",
                f"action space embedding: cold {f(r['embed_action_space_cold_s'], 2)} s, from disk cache "
                f"{f(r['load_action_space_cached_s'], 3)} s ({f(r['cache_speedup'])}x)"]
    if name == "simulator":
        return [f"simulator step over {r['programs']} gold programs: ours {f(r['ours_step_us'])} us/step vs raw "
                f"{f(r['raw_step_us'])} us/step -> ratio {f(r['ratio_step_ours_over_raw'], 3)} (target <= 1.10); "
                f"reset ours {f(r['ours_reset_ms'], 2)} ms vs raw {f(r['raw_reset_ms'], 2)} ms; executable "
                f"ours {r['executable_ours']} / raw {r['executable_raw']}"]
    if name == "overhead":
        return [f"planner overhead ({r['tasks']} tasks, {r['variant']}): LM {f(r['lm_s'])} s, rest "
                f"{f(r['rest_s'], 2)} s -> rest {f(100 * r['rest_share'], 2)}% (target <= 5%); "
                f"{f(r['s_per_plan'], 2)} s/plan, {r['plan_steps']} plan steps, {r['lm_calls']} LM calls"]
    if name == "throughput":
        return [f"eval throughput ({r['local']['episodes']} episodes): local {f(r['local']['episodes_per_min'])}/min, "
                f"ray x{r['workers']} {f(r['ray']['episodes_per_min'])}/min -> speedup {f(r['speedup_wall'], 2)}x, "
                f"efficiency {f(100 * r['scaling_efficiency_wall'])}% (steady speedup "
                f"{f(r['speedup_steady'], 2)}x); same metrics: {r['same_metrics']}"]
    if name == "continual":
        return [f"continual {a}: {f(v['lm_calls_per_step'], 2)} LLM calls/step, {f(v['steps_per_s'], 1)} steps/s"
                for a, v in r.get("agents", {}).items()]
    return [json.dumps(r)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", default=",".join(BENCHES))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json", type=Path, default=None)
    a = ap.parse_args()
    names = [n.strip() for n in a.only.split(",") if n.strip()]
    results = {"machine": _machine(), "quick": a.quick, "started": time.strftime("%Y-%m-%d %H:%M:%S")}
    failed = 0
    print(f"machine: {results['machine']['cpus']} CPUs, {results['machine']['ram_gb']} GB RAM", flush=True)
    for n in names:
        t = time.perf_counter()
        try:
            results[n] = _run(n, a.quick)
            results[n]["bench_wall_s"] = time.perf_counter() - t
            for line in _lines(n, results[n]):
                print(line, flush=True)
        except Exception as exc:  # noqa: BLE001 - report and go on
            failed += 1
            results[n] = {"error": f"{type(exc).__name__}: {exc}", "traceback": traceback.format_exc()}
            print(f"{n}: FAILED {results[n]['error']}", flush=True)
        print(f"[{n} done in {time.perf_counter() - t:.1f} s]", file=sys.stderr, flush=True)
        if a.json:  # after every benchmark, so a killed run keeps what finished
            a.json.write_text(json.dumps(results, indent=2, default=str))
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
