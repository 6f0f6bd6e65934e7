"""Per-action P/R/F1 of the judges on the hand-labelled case corpus (issue 14).

    python benchmarks/bench_verify_cases.py --split report --judges rule,sim
    python benchmarks/bench_verify_cases.py --split tune --judges rule,sim,hybrid --verbose
    python benchmarks/bench_verify_cases.py --check        # labels restore an executable plan

Round-1 critiques are scored against the labels as in arXiv 2509.02761, Sec. 4
(:func:`actionable.evaluation.verification.metrics.score_critiques`); "clean" is the share of
cases whose loop (apply planner, 5 rounds) ends at the labelled plan. The
corpus lives in tests/corpora/verify_cases.txt (:mod:`actionable.evaluation.verification.cases`).
"""

from __future__ import annotations

import argparse
import time


def check(cases) -> int:
    """Replay every case: the plan with its labels applied must execute and meet
    every goal condition the gold-like plan meets. Returns the number of bad cases."""
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.verify.critique import Critique, CritiqueKind, apply_critiques
    from actionable.verify.replay import goal_check, replay

    ann, bad = load_goal_annotations(), 0
    for c in cases:
        crits = [Critique(CritiqueKind.REMOVE, i, s.to_script(), "", s) for i, s in enumerate(c.plan.steps)
                 if c.labels[i] != "valid"]
        crits += [Critique(CritiqueKind.MISSING, i, s.to_script(), "", s) for i, s in c.missing]
        fixed = apply_critiques(c.plan, crits)
        task = c.task(ann)
        r0, r1 = replay(c.plan.steps, c.program_id), replay(fixed.steps, c.program_id)
        g0, g1 = goal_check(task, r0), goal_check(task, r1)
        ok = r1.executable and (g1 is None or g1.task_success or c.cls == "gold")
        bad += not ok
        print(f"{c.id} {c.split:6s} {c.cls:14s} plan exec={r0.executable} goals={g0 and g0.met}/{g0 and g0.total}"
              f" | labelled fix exec={r1.executable} goals={g1 and g1.met}/{g1 and g1.total}"
              f"{'' if ok else '  <-- BAD'}")
    return bad


def score(cases, judges, model: str, verbose: bool) -> None:
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.verify.critique import Critique, CritiqueKind, apply_critiques
    from actionable.verify.judge import make_judge
    from actionable.verify.loop import VerificationLoop
    from actionable.evaluation.verification.metrics import Counts, score_critiques

    ann = load_goal_annotations()
    lm = None
    if any(j in ("llm", "hybrid") for j in judges):
        from actionable.core.config import LMConfig
        from actionable.lm.registry import load_lm

        lm = load_lm(model, LMConfig(cache=False))
    print("| judge | split | cases | P | R | F1 | clean | s/case |")
    print("|---|---|---|---|---|---|---|---|")
    for name in judges:
        judge = make_judge(name, lm=lm)
        by_split: dict[str, list] = {}
        for c in cases:
            t0 = time.perf_counter()
            res = VerificationLoop(judge, max_rounds=5).run(c.plan, c.task(ann))
            secs = time.perf_counter() - t0
            cnt = score_critiques(c.labelled(), res.first_critiques)
            crits = [Critique(CritiqueKind.REMOVE, i, s.to_script(), "", s) for i, s in enumerate(c.plan.steps)
                     if c.labels[i] != "valid"]
            crits += [Critique(CritiqueKind.MISSING, i, s.to_script(), "", s) for i, s in c.missing]
            want = [s.unresolved() for s in apply_critiques(c.plan, crits).steps]
            clean = [s.unresolved() for s in res.final.steps] == want
            by_split.setdefault(c.split, []).append((cnt, clean, secs))
            if verbose:
                print(f"  {name} {c.id} {c.cls}: tp={cnt.tp} fp={cnt.fp} fn={cnt.fn} clean={clean}")
                if cnt.fp or cnt.fn:
                    for cr in res.first_critiques:
                        print(f"      {cr.describe()}")
        for split, rows in sorted(by_split.items()):
            tot = Counts()
            for cnt, _, _ in rows:
                tot += cnt
            p, r, f = tot.prf()
            n = len(rows)
            print(f"| {name} | {split} | {n} | {100 * p:.1f} | {100 * r:.1f} | {100 * f:.1f} | "
                  f"{100 * sum(x[1] for x in rows) / n:.0f}% | {sum(x[2] for x in rows) / n:.2f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "report", "all"), default="report")
    ap.add_argument("--judges", default="rule,sim")
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--cls", default=None, help="only this case class")
    ap.add_argument("--check", action="store_true", help="validate the labels in the simulator")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    from actionable.evaluation.verification.cases import load_cases

    cases = load_cases(split=None if a.split == "all" else a.split)
    if a.cls:
        cases = [c for c in cases if c.cls == a.cls]
    if a.check:
        raise SystemExit(1 if check(cases) else 0)
    score(cases, [j.strip() for j in a.judges.split(",") if j.strip()], a.model, a.verbose)


if __name__ == "__main__":
    main()
