"""Benchmarks of ``actionable plan``: model load times, admissible-action index
build (cold vs cached), seconds per plan and executability per planner variant
on packaged VirtualHome tasks.

Usage (from the repo root)::

    python benchmarks/bench_plan.py load [--cold]          # load times + index cold/cached
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
    from actionable.core.config import LMConfig
    from actionable.worlds.virtualhome.admissible import admissible_actions
    from actionable.worlds.virtualhome.scene import load_scene
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
    if args.cold:
        with tempfile.TemporaryDirectory() as d:
            cold = ActionIndex.from_steps(emb, steps, cache_dir=d)
            print(f"index build cold: {cold.build_seconds:.2f} s for {len(cold)} phrases")
    from actionable.core.config import default_cache_dir

    ActionIndex.from_steps(emb, steps, cache_dir=default_cache_dir())  # make sure it is cached
    warm = ActionIndex.from_steps(emb, steps, cache_dir=default_cache_dir())
    assert warm.cache_hit
    print(f"index load cached: {warm.build_seconds:.3f} s ({warm.matrix.nbytes / 2**20:.1f} MiB)")
    t = time.perf_counter()
    for _ in range(20):
        warm.search(["put the coffee cup in the sink"], k=5)
    print(f"embed + top-5 search, 1 query: {(time.perf_counter() - t) / 20 * 1000:.2f} ms")
    q = emb.encode(["put the coffee cup in the sink"] * 10)
    t = time.perf_counter()
    for _ in range(20):
        warm.search(q, k=5)
    print(f"top-5 search only, 10 queries: {(time.perf_counter() - t) / 20 * 1000:.2f} ms")


def _variants(args) -> None:
    from actionable.core.config import LMConfig, PlannerConfig
    from actionable.worlds.virtualhome.scene import list_program_ids, load_program
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
                cfg = PlannerConfig(variant=v, seed=args.seed, max_steps=args.max_steps,
                                    **({"cutoff": args.cutoff} if args.cutoff is not None else {}))
                res = sess.plan(task, config=cfg)
                rec = {"task": task, "variant": v, "scene": scene, "executable": res.executable,
                       "n_steps": len(res.program), "program": res.program.to_text(),
                       "error_type": (res.executability or {}).get("error_type"),
                       "stop_reason": res.stop_reason, "lm_calls": res.lm_calls,
                       "seconds": res.timings.get("total_s"), "lm_seconds": res.timings.get("lm_s"),
                       "planning_model": res.planning_model, "translation_model": res.translation_model,
                       "cutoff": cfg.cutoff, "max_steps": cfg.max_steps,
                       "steps": [{"action": st.action, "step": st.step.to_dict() if st.step else None,
                                  "total": st.total, "cosine": st.cosine, "logprob": st.logprob,
                                  "sample_text": st.sample_text} for st in res.steps]}
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
                print(json.dumps(rec), flush=True)
    _summary(path)


def _cutoffs(args) -> None:
    """Post-hoc early stop: a plan under cutoff c is the no-cutoff plan cut before
    its first step scoring below c (the LM calls before that are identical), so
    one run with ``--cutoff -10`` gives every cutoff; each prefix is re-executed."""
    from actionable.core.program import Program, Step
    from actionable.worlds.virtualhome.resolver import resolve_and_execute
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.core.errors import ResolutionError

    recs = [json.loads(x) for x in Path(args.path).read_text().splitlines() if x.strip()]
    scenes: dict = {}
    print("| variant | cutoff | plans | executable | mean steps | empty plans |")
    print("|---|---|---|---|---|---|")
    for v in ("corrected", "full"):
        rs = [r for r in recs if r["variant"] == v and r.get("cutoff", 0) <= -10]
        if not rs:
            continue
        for c in [float(x) for x in args.values.split(",")]:
            ex = lens = empty = 0
            for r in rs:
                steps = []
                for st in r["steps"]:
                    if st["total"] is not None and st["total"] < c:
                        break
                    steps.append(Step.from_dict(st["step"]))
                lens += len(steps)
                if not steps:
                    empty += 1
                    continue
                scene = scenes.setdefault(r["scene"], load_scene(r["scene"]))
                try:
                    ex += bool(resolve_and_execute(Program(tuple(steps)), scene).executable)
                except ResolutionError:
                    pass
            n = len(rs)
            print(f"| {v} | {c:g} | {n} | {ex}/{n} ({100 * ex / n:.1f}%) | {lens / n:.1f} | {empty} |")


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
    a.add_argument("--cold", action="store_true", help="also time a cold index build (minutes)")
    b = sub.add_parser("variants")
    b.add_argument("--tasks", type=int, default=20)
    b.add_argument("--variants", default="vanilla,translated,corrected,full")
    b.add_argument("--model", default="embedded")
    b.add_argument("--translation-model", default="minilm")
    b.add_argument("--seed", type=int, default=0)
    b.add_argument("--scene", default="default",
                   help="'default' (merged house), a program id, or 'program' (each task's first program)")
    b.add_argument("--out", default="runs/bench-plan")
    b.add_argument("--cutoff", type=float, default=None, help="override the cutoff (-10: never stop on score)")
    b.add_argument("--max-steps", type=int, default=20)
    c = sub.add_parser("summary")
    c.add_argument("path")
    d = sub.add_parser("cutoffs")
    d.add_argument("path")
    d.add_argument("--values", default="0.8,0.7,0.6,0.5,0.4,0.3,-10")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    if args.cmd == "load":
        _load(args)
    elif args.cmd == "variants":
        _variants(args)
    elif args.cmd == "cutoffs":
        _cutoffs(args)
    else:
        _summary(Path(args.path))


if __name__ == "__main__":
    main()
