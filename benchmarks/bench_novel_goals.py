"""Plan the novel-goal tasks (``benchmarks/data/novel_goals.jsonl``) with today's grounded planner
and score every plan with the independent checker (``actionable.evaluation.novel_goals``).

    ACTIONABLE_LM_THREADS=1 python benchmarks/bench_novel_goals.py [--set a|b|c|d|e|f|g] [--split tune] [--no-lm] [--out runs/novel-goals]

The planner is run as ``actionable plan`` runs it (``actionable.api.plan``'s path: the world's
planning domain, its default example bank, ``GroundedConfig()`` defaults, no exclusions) and is
given the instruction, world and scene only; it never sees the conditions or the reference plans.
Outcome mapping: an ``ActionableError`` from the planner (an ``error:`` line, exit 2) is a
refusal; ``stop_reason == "already_done"`` (or a question answered Yes, ``"answered"``) is "nothing to do"
(exit 0), a question answered No a refusal (nothing is done, as before 7 Dec); an executable plan is
"done" (exit 0); anything else failed (exit 1); an exception that is not an ``ActionableError``
(a planner crash) is recorded as failed with ``crash`` in its detail. Today's planner has no
"cannot tell" answer.

Only the **tune** half may be run while developing; the report half (``--split report``) needs
``--final-report`` and is for the lead's final run (benchmarks/data/novel_goals.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _goal_outcome(interp, task, domain):
    """``--variant goal``: the default planner's claims (``done`` True only when its own check of
    the goal it read holds; a refusal or "cannot tell" is its answer)."""
    from actionable.core.errors import ActionableError, GoalReadingError
    from actionable.evaluation.novel_goals import PlanOutcome
    from actionable.planning.pipeline import plan_task

    try:
        res = plan_task(domain, task.instruction, interp)
    except GoalReadingError as exc:
        kind = "cannot_tell" if exc.status == "unclear" else "refused"
        return PlanOutcome(kind, reason=f"{type(exc).__name__}: {exc}"), None
    except ActionableError as exc:
        return PlanOutcome("refused", reason=f"{type(exc).__name__}: {exc}"), None
    except Exception as exc:  # a planner bug: no claim, counted as a crash
        return PlanOutcome("failed", reason=f"crash: {type(exc).__name__}: {exc}"), None
    if res.done and res.stop_reason in ("already_done", "answered"):  # a question answered Yes: nothing to do
        return PlanOutcome("nothing_to_do", res.final_state), res
    if res.stop_reason == "answered":  # answered No: nothing done, the reason said (a refusal, as before 7 Dec)
        return PlanOutcome("refused", reason=res.verdict()), None
    if res.done:
        return PlanOutcome("done", res.final_state), res
    return PlanOutcome("failed", reason=res.verdict()), res


def _outcome(planner, task, domain):
    from actionable.core.errors import ActionableError
    from actionable.evaluation.novel_goals import PlanOutcome

    if planner[0] == "goal":
        if planner[1] is None:
            return PlanOutcome("failed", reason=f"world {task.world!r} has no goals capability"), None
        return _goal_outcome(planner[1], task, domain)
    planner = planner[1]
    try:
        res = planner.plan(task.instruction, domain)
    except ActionableError as exc:
        return PlanOutcome("refused", reason=f"{type(exc).__name__}: {exc}"), None
    except Exception as exc:  # a planner bug (a traceback, not an error: line): no claim, counted as a crash
        return PlanOutcome("failed", reason=f"crash: {type(exc).__name__}: {exc}"), None
    if res.stop_reason == "already_done":
        return PlanOutcome("nothing_to_do", res.final_state), res
    if res.executable and res.final_state is not None:
        return PlanOutcome("done", res.final_state), res
    return PlanOutcome("failed", reason=str((res.executability or {}).get("error") or res.stop_reason)), res


def _table(rows, key) -> list[str]:
    from actionable.evaluation.novel_goals import score

    groups = defaultdict(list)
    for r in rows:
        groups[key(r)].append(r["verdict"])
    out = ["| group | n | right | met | refused (right) | nothing to do (right) | wrong: claimed done | wrong: refused | "
           "failed | claims done (exit 0) | of those right |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for g in sorted(groups) + ["all"]:
        s = score(groups[g] if g != "all" else [r["verdict"] for r in rows])
        prec = "-" if s["claims_done_precision"] is None else f"{s['claims_done_right']}/{s['claims_done']} ({s['claims_done_precision']:.2f})"
        out.append(f"| {g} | {s['n']} | {s['right']} | {s['met']} | {s['refused']} | {s['nothing_to_do']} | "
                   f"{s['wrong_done']} | {s['wrong_refused'] + s['wrong_cannot_tell']} | {s['failed']} | "
                   f"{s['claims_done']} | {prec} |")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "report"), default="tune")
    ap.add_argument("--final-report", action="store_true", help="allow --split report (the lead's final run only)")
    ap.add_argument("--no-lm", action="store_true", help="GroundedConfig(use_lm=False) (--variant grounded)")
    ap.add_argument("--variant", choices=("goal", "grounded"), default="goal",
                    help="goal (default: the goal interpreter + goal-directed search, as `actionable plan`) or "
                         "grounded (the imitation planner)")
    ap.add_argument("--set", choices=("a", "b", "c", "d", "e", "f", "g", "h"), default="a",
                    help="a: novel_goals.jsonl (101 tasks, report half run once on 3 Dec); b: novel_goals_b.jsonl "
                         "(60 tasks written on 3 Dec by a helper who never ran a planner on them; report half run "
                         "once on 3 Dec); c: novel_goals_c.jsonl (60 more, written the same way on 3 Dec, "
                         "second session); d: novel_goals_d.jsonl (60 more, written the same way, third session); "
                         "e: novel_goals_e.jsonl (60 more, written the same way, fourth session); "
                         "f: novel_goals_f.jsonl (60 more, written the same way, fifth session); "
                         "g: novel_goals_g.jsonl (60 more, written the same way, sixth session); "
                         "h: novel_goals_h.jsonl (60 more, written the same way, seventh session)")
    ap.add_argument("--ids", default=None, help="comma-separated task ids (within the split)")
    ap.add_argument("--out", type=Path, default=Path("runs/novel-goals"))
    args = ap.parse_args(argv)
    if args.split == "report" and not args.final_report:
        ap.error("--split report is kept for the lead's final run; add --final-report to run it")

    from actionable.core.config import GroundedConfig, LMConfig
    from actionable.evaluation import novel_goals as ng
    from actionable.evaluation.novel_goals import load_novel_goals, verdict
    from actionable.lm.registry import load_lm
    from actionable.core.registry import planning_domain
    from actionable.planning.session import PlanningSession

    tasks = load_novel_goals({"a": ng.DATA_FILE, "b": ng.DATA_FILE_B, "c": ng.DATA_FILE_C,
                              "d": ng.DATA_FILE_D, "e": ng.DATA_FILE_E, "f": ng.DATA_FILE_F,
                              "g": ng.DATA_FILE_G, "h": ng.DATA_FILE_H}[args.set],
                             split=args.split)
    if args.ids:
        want = set(args.ids.split(","))
        tasks = [t for t in tasks if t.id in want]
    lcfg = LMConfig()
    lm = None if (args.no_lm or args.variant == "goal") else load_lm(lcfg.model, lcfg)
    from actionable.grounding.embedder import load_embedder
    from actionable.planning.pipeline import interpreter_for

    embedder = load_embedder(lcfg.translation_model, lcfg.cache_dir) if args.variant == "goal" else None
    cfg = GroundedConfig(use_lm=not args.no_lm)
    planners: dict = {}
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    with (args.out / f"{args.set}-{args.split}.jsonl").open("w", encoding="utf-8") as fh:
        for t in tasks:
            key = (t.world, t.scene)
            if key not in planners:
                dom = planning_domain(t.world, t.scene)
                if args.variant == "goal":
                    planners[key] = (("goal", interpreter_for(dom, embedder)), dom)
                else:
                    session = PlanningSession(lcfg, None, scene=dom, bank=dom.example_bank(), lm=lm)
                    planners[key] = (("grounded", session.grounded_planner(cfg)), dom)
            planner, dom = planners[key]
            t0 = time.perf_counter()
            outcome, res = _outcome(planner, t, dom)
            sec = time.perf_counter() - t0
            v = verdict(t, outcome)
            steps = [s.action for s in res.steps] if res is not None else []
            row = {"id": t.id, "world": t.world, "scene": t.scene, "category": t.category, "instruction": t.instruction,
                   "expected": t.expected, "outcome": outcome.kind, "label": v.label, "right": v.right,
                   "claims_done": v.claims_done, "detail": v.detail or outcome.reason, "steps": steps,
                   "stop": res.stop_reason if res is not None else "refused", "seconds": round(sec, 2)}
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            rows.append({**row, "verdict": v})
            print(f"{t.id:36s} {t.expected:14s} -> {outcome.kind:13s} {v.label:16s} {sec:5.1f}s  {' | '.join(steps)[:120]}",
                  flush=True)
    model = "none (--no-lm)" if lm is None else lm.model_id
    if args.variant == "goal":
        model = f"none (goal interpreter + search; translation LM {embedder.model_id})"
    crashes = [r["id"] for r in rows if r["detail"].startswith("crash:")]
    print(f"\nnovel-goal tasks, set {args.set.upper()}, {args.split} half: {len(rows)}; planner: {args.variant}, LM {model}; "
          f"crashes {len(crashes)} {crashes}\n")
    print("\n".join(_table(rows, lambda r: r["world"])))
    print()
    print("\n".join(_table(rows, lambda r: r["expected"])))
    print()
    print("\n".join(_table(rows, lambda r: r["category"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
