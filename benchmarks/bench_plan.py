"""Benchmarks of ``actionable plan``: model load times, admissible-action index
build (cold vs cached), seconds per plan and executability per planner variant
on packaged VirtualHome tasks.

Usage (from the repo root)::

    python benchmarks/bench_plan.py load                 # load times + index cold/cached
    python benchmarks/bench_plan.py variants --tasks 20 --out runs/bench-plan \
        --variants vanilla,translated,corrected,full

``variants`` writes one JSON line per (task, variant) to ``<out>/plans.jsonl``
(resumable: finished pairs are skipped) and prints a markdown table. The query
is the task name alone and the query task is excluded from example selection.
Plans run in the merged default scene unless ``--scene`` says otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path


def _load(args) -> None:
    from actionable.config import LMConfig
    from actionable.env.admissible import admissible_actions
    from actionable.env.scene import load_scene
    from actionable.grounding.embedder import load_embedder
    from actionable.grounding.index import ActionIndex
    from actionable.lm.registry import load_lm

    t = time.perf_counter()
    lm = load_lm("embedded", LMConfig(cache=False))
    print(f"planning LM load ({lm.model_id}): {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    emb = load_embedder(args.translation_model)
    print(f"translation LM load ({emb.model_id}): {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    scene = load_scene(args.scene)
    print(f"scene {args.scene!r} load: {time.perf_counter() - t:.2f} s")
    t = time.perf_counter()
    steps = admissible_actions(scene)
    print(f"admissible actions: {len(steps)} ({time.perf_counter() - t:.2f} s to enumerate)")
    with tempfile.TemporaryDirectory() as d:
        cold = ActionIndex.from_steps(emb, steps, cache_dir=d)
        print(f"index build cold: {cold.build_seconds:.2f} s for {len(cold)} phrases")
        warm = ActionIndex.from_steps(emb, steps, cache_dir=d)
        assert warm.cache_hit
        print(f"index build cached: {warm.build_seconds:.3f} s")
        t = time.perf_counter()
        for _ in range(20):
            warm.search(["put the coffee cup in the sink"], k=5)
        print(f"top-5 search, 1 query: {(time.perf_counter() - t) / 20 * 1000:.2f} ms")


def _variants(args) -> None:
    from actionable.config import LMConfig, PlannerConfig
    from actionable.env.scene import list_program_ids, load_program
    from actionable.planning.session import PlanningSession

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "plans.jsonl"
    done = set()
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                r = json.loads(line)
                done.add((r["task"], r["variant"]))
            except (ValueError, KeyError):
                continue
    first_pid: dict[str, str] = {}
    for pid in list_program_ids():
        first_pid.setdefault(load_program(pid).task.strip(), pid)
    tasks = sorted(first_pid)[: args.tasks]
    variants = args.variants.split(",")
    lcfg = LMConfig(model=args.model, translation_model=args.translation_model)
    sessions: dict[str, PlanningSession] = {}
    base = None
    with open(path, "a", encoding="utf-8") as fh:
        for task in tasks:
            scene = first_pid[task] if args.scene == "program" else args.scene
            if base is None:
                base = PlanningSession(lcfg, PlannerConfig(), scene=scene)
                sessions[scene] = base
            elif scene not in sessions:  # reuse LMs and bank; index from the disk cache when present
                sessions[scene] = base.with_scene(scene)
            sess = sessions[scene]
            for v in variants:
                if (task, v) in done:
                    continue
                res = sess.plan(task, config=PlannerConfig(variant=v, seed=args.seed))
                rec = {"task": task, "variant": v, "scene": scene, "executable": res.executable,
                       "n_steps": len(res.program), "program": res.program.to_text(),
                       "error_type": (res.executability or {}).get("error_type"),
                       "stop_reason": res.stop_reason, "lm_calls": res.lm_calls,
                       "seconds": res.timings.get("total_s"), "lm_seconds": res.timings.get("lm_s"),
                       "planning_model": res.planning_model, "translation_model": res.translation_model}
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print(json.dumps(rec), flush=True)
    _summary(path)


def _summary(path: Path) -> None:
    rows: dict[str, list[dict]] = {}
    for line in path.read_text().splitlines():
        r = json.loads(line)
        rows.setdefault(r["variant"], []).append(r)
    print("\n| variant | plans | executable | mean steps | empty plans | s/plan (mean) | LM s/plan |")
    print("|---|---|---|---|---|---|---|")
    for v, rs in rows.items():
        n = len(rs)
        ex = sum(bool(r["executable"]) for r in rs)
        print(f"| {v} | {n} | {ex}/{n} ({100 * ex / n:.1f}%) | {sum(r['n_steps'] for r in rs) / n:.1f} | "
              f"{sum(r['n_steps'] == 0 for r in rs)} | {sum(r['seconds'] for r in rs) / n:.1f} | "
              f"{sum(r['lm_seconds'] or 0 for r in rs) / n:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("load")
    a.add_argument("--scene", default="default")
    a.add_argument("--translation-model", default="minilm")
    b = sub.add_parser("variants")
    b.add_argument("--tasks", type=int, default=20)
    b.add_argument("--variants", default="vanilla,translated,corrected,full")
    b.add_argument("--model", default="embedded")
    b.add_argument("--translation-model", default="minilm")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--scene", default="default",
                   help="'default' (merged house), a program id, or 'program' (each task's first program)")
    b.add_argument("--out", default="runs/bench-plan")
    c = sub.add_parser("summary")
    c.add_argument("path")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.cmd == "load":
        _load(args)
    elif args.cmd == "variants":
        _variants(args)
    else:
        _summary(Path(args.path))


if __name__ == "__main__":
    main()
