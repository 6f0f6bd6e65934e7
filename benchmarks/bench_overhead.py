"""Planner overhead benchmark (issue 7): wall time of ``ZeroShotPlanner.plan`` split into
planning-LM time and everything else (translation LM, example selection, prompt
building, scoring, resolution and simulation), over the first N packaged task names,
``full`` variant, embedded model, LM cache off. Target: everything else <= 5%.

    python benchmarks/bench_overhead.py [--tasks 20] [--max-steps 20] [--samples 10] [--cutoff 0.8]
        [--model embedded | openai:<name>@<base_url> | hf:<path>]
"""

from __future__ import annotations

import argparse
import json
import time


def run(tasks: int = 20, max_steps: int | None = None, samples: int | None = None,
        variant: str = "full", cutoff: float | None = None, model: str = "embedded") -> dict:
    from actionable.core.config import LMConfig, PlannerConfig, make_config
    from actionable.core.registry import planning_domain
    from actionable.evaluation.splits import packaged_programs
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm
    from actionable.planning.examples import ExampleBank
    from actionable.planning.zero_shot import ZeroShotPlanner, build_action_index

    t = time.perf_counter()
    lm = load_lm(model, LMConfig(cache=False))
    emb = load_embedder("minilm")
    scene = planning_domain("virtualhome", "default")  # the paper variants need the planning domain
    index = build_action_index(scene, emb, cache_dir=LMConfig().cache_dir)
    bank = ExampleBank.of_world()
    setup_s = time.perf_counter() - t
    cfg = make_config(PlannerConfig, variant=variant, max_steps=max_steps, samples=samples, cutoff=cutoff)
    planner = ZeroShotPlanner(lm, index, bank, cfg)
    names = sorted({t for t, _ in packaged_programs().values()})[:tasks]
    total = lm_s = tr_s = ex_s = 0.0
    calls = steps = 0
    for name in names:
        t = time.perf_counter()
        res = planner.plan(name, scene=scene)
        total += time.perf_counter() - t
        lm_s += res.timings.get("lm_s", 0.0)
        tr_s += res.timings.get("translation_s", 0.0)
        ex_s += res.timings.get("execution_s", 0.0)
        calls += res.lm_calls
        steps += len(res.program.steps) if res.program is not None else 0
    rest = total - lm_s
    return {"tasks": len(names), "variant": variant, "model": lm.model_id, "setup_s": setup_s,
            "total_s": total, "lm_s": lm_s, "rest_s": rest, "rest_share": rest / total if total else None,
            "translation_s": tr_s, "execution_s": ex_s, "lm_calls": calls, "plan_steps": steps,
            "s_per_plan": total / len(names), "cutoff": cfg.cutoff, "target_rest_share": 0.05}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=20)
    ap.add_argument("--max-steps", type=int, default=None)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--cutoff", type=float, default=None,
                    help="early-stop threshold (default 0.8); lower it when plans stop at step 1")
    ap.add_argument("--model", default="embedded", help="planning LM spec (any backend)")
    a = ap.parse_args()
    out = run(a.tasks, a.max_steps, a.samples, cutoff=a.cutoff, model=a.model)
    out["model"] = a.model
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
