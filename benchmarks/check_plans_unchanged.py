"""Plans before and after a speed change must be the same (issue 27): plan the first N packaged
task names with the paper's planner (embedded model, LM cache off, seed fixed) and either write
the plans to a JSON file or compare them with one written earlier.

    python benchmarks/check_plans_unchanged.py --write /tmp/plans_before.json   # on the old code
    python benchmarks/check_plans_unchanged.py --compare /tmp/plans_before.json # on the new code

Compared per task: the chosen actions, the sample each came from, the stop reason and where the
plan stopped, the selected example, the executability verdict, exactly; the per-step cosine and
total score to ``--tol`` (float32 sums in a different batch shape differ in the last bits). Exit
status 1 when any plan differs. Default run: ``full`` (step-wise, top-5 per sample) with
``--cutoff 0.4 --max-steps 6`` (the overhead benchmark's setting) and ``translated`` (one call,
top-1 per line), 24 task names each.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def _record(res) -> dict:
    ex = res.executability or {}
    return {
        "task": res.task,
        "example": (res.example or {}).get("task"),
        "example_similarity": res.example_similarity,
        "stop_reason": res.stop_reason,
        "stopped_at": {k: v for k, v in (res.stopped_at or {}).items() if k != "best_score"},
        "best_score": (res.stopped_at or {}).get("best_score"),
        "steps": [{"action": s.action, "sample": s.sample_text, "cosine": s.cosine, "total": s.total,
                   "top1": [x.get("action") for x in s.samples]} for s in res.steps],
        "executable": ex.get("executable"), "failed_index": ex.get("failed_index"),
        "lm_calls": res.lm_calls,
    }


def plan_all(tasks: int, variants: tuple[str, ...], cutoff: float, max_steps: int, model: str) -> dict:
    from actionable.core.config import LMConfig, PlannerConfig, make_config
    from actionable.core.registry import planning_domain
    from actionable.evaluation.splits import packaged_programs
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm
    from actionable.planning.examples import ExampleBank
    from actionable.planning.zero_shot import ZeroShotPlanner, build_action_index

    lm = load_lm(model, LMConfig(cache=False))
    emb = load_embedder("minilm")
    domain = planning_domain("virtualhome", "default")
    index = build_action_index(domain, emb, cache_dir=LMConfig().cache_dir)
    bank = ExampleBank.of_world()
    names = sorted({t for t, _ in packaged_programs().values()})[:tasks]
    out: dict = {"model": lm.model_id, "cutoff": cutoff, "max_steps": max_steps, "plans": {}}
    for variant in variants:
        cfg = make_config(PlannerConfig, variant=variant, max_steps=max_steps, cutoff=cutoff)
        planner = ZeroShotPlanner(lm, index, bank, cfg)
        t = time.perf_counter()
        out["plans"][variant] = [_record(planner.plan(n, scene=domain)) for n in names]
        print(f"{variant}: {len(names)} plans in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return out


def _close(a, b, tol: float) -> bool:
    if a is None or b is None:
        return a is b
    return abs(float(a) - float(b)) <= tol


def compare(old: dict, new: dict, tol: float) -> list[str]:
    """Every difference between two runs, as readable lines (empty: the same plans)."""
    diffs = []
    for variant, plans in old["plans"].items():
        got = new["plans"].get(variant)
        if got is None or len(got) != len(plans):
            diffs.append(f"{variant}: {len(plans)} plans before, {0 if got is None else len(got)} after")
            continue
        for a, b in zip(plans, got):
            where = f"{variant} / {a['task']!r}"
            for key in ("task", "example", "stop_reason", "stopped_at", "executable", "failed_index", "lm_calls"):
                if a[key] != b[key]:
                    diffs.append(f"{where}: {key} {a[key]!r} -> {b[key]!r}")
            if not _close(a["best_score"], b["best_score"], tol):
                diffs.append(f"{where}: best_score {a['best_score']} -> {b['best_score']}")
            if not _close(a["example_similarity"], b["example_similarity"], tol):
                diffs.append(f"{where}: example_similarity {a['example_similarity']} -> {b['example_similarity']}")
            if [s["action"] for s in a["steps"]] != [s["action"] for s in b["steps"]]:
                diffs.append(f"{where}: actions {[s['action'] for s in a['steps']]} -> "
                             f"{[s['action'] for s in b['steps']]}")
                continue
            for i, (sa, sb) in enumerate(zip(a["steps"], b["steps"]), 1):
                if sa["sample"] != sb["sample"] or sa["top1"] != sb["top1"]:
                    diffs.append(f"{where} step {i}: sample/top-1 translations differ")
                for key in ("cosine", "total"):
                    if not _close(sa[key], sb[key], tol):
                        diffs.append(f"{where} step {i}: {key} {sa[key]} -> {sb[key]}")
    return diffs


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write", help="write the plans to this JSON file")
    g.add_argument("--compare", help="compare with the plans in this JSON file")
    ap.add_argument("--tasks", type=int, default=24)
    ap.add_argument("--variants", default="full,translated")
    ap.add_argument("--cutoff", type=float, default=0.4)
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--tol", type=float, default=1e-5)
    a = ap.parse_args()
    if a.compare:
        with open(a.compare) as fh:
            old = json.load(fh)
        new = plan_all(a.tasks, tuple(old["plans"]), old["cutoff"], old["max_steps"], a.model)
        diffs = compare(old, new, a.tol)
        n = sum(len(p) for p in old["plans"].values())
        steps = sum(len(r["steps"]) for p in old["plans"].values() for r in p)
        print(f"{n} plans ({steps} steps) compared: {len(diffs)} differences")
        for d in diffs:
            print("  " + d)
        sys.exit(1 if diffs else 0)
    out = plan_all(a.tasks, tuple(v.strip() for v in a.variants.split(",") if v.strip()), a.cutoff,
                   a.max_steps, a.model)
    with open(a.write, "w") as fh:
        json.dump(out, fh, indent=1)
    print(f"wrote {sum(len(p) for p in out['plans'].values())} plans to {a.write}")


if __name__ == "__main__":
    main()
