"""Resolver benchmark (issue 2): executability of the 518 gold programs stripped
to class level (``Program.unresolved()``) after instance resolution, ours vs the
first-id rule (every class bound to its lowest node id), each program in its own
scene; plus seconds per program and the admissible action space sizes.

    python benchmarks/bench_resolver.py [--limit N] [--no-alternatives]
"""

from __future__ import annotations

import argparse
import json
import time


def run(limit: int | None = None, alternatives: int = 6) -> dict:
    from actionable.worlds.virtualhome.admissible import admissible_actions
    from actionable.worlds.virtualhome.resolver import Resolver, ResolverConfig, resolution_rate
    from actionable.worlds.virtualhome.scene import list_program_ids, load_scene

    pids = list_program_ids()[:limit] if limit else list_program_ids()
    out: dict = {"programs": len(pids)}
    for method in ("first_id", "ours"):
        t = time.perf_counter()
        ok, total, failed = resolution_rate(
            pids, method, Resolver(ResolverConfig(max_alternatives=alternatives)))
        out[method] = {"executable": ok, "rate": round(ok / total, 4),
                       "s_per_program": round((time.perf_counter() - t) / total, 4),
                       "failed": failed if len(failed) <= 20 else f"{len(failed)} programs"}
    t = time.perf_counter()
    default = load_scene(None)
    out["default_scene_load_s"] = round(time.perf_counter() - t, 3)
    t = time.perf_counter()
    out["admissible_default"] = len(admissible_actions(default))
    out["admissible_default_s"] = round(time.perf_counter() - t, 3)
    sizes = [len(admissible_actions(load_scene(p))) for p in pids[:: max(1, len(pids) // 50)]]
    out["admissible_program_scenes"] = {"min": min(sizes), "max": max(sizes),
                                        "mean": round(sum(sizes) / len(sizes), 1), "sampled": len(sizes)}
    # coverage: gold class-level steps that lie in their own scene's admissible space
    from actionable.worlds.virtualhome.scene import load_program

    inside = total = 0
    for pid in pids:
        space = set(admissible_actions(load_scene(pid)))
        steps = load_program(pid).unresolved().steps
        total += len(steps)
        inside += sum(s in space for s in steps)
    out["admissible_gold_step_coverage"] = {"inside": inside, "steps": total,
                                            "rate": round(inside / total, 4)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--no-alternatives", action="store_true",
                    help="bind each step to the best-ranked node only (no retries)")
    a = ap.parse_args()
    print(json.dumps(run(a.limit, 1 if a.no_alternatives else 6), indent=2))


if __name__ == "__main__":
    main()
