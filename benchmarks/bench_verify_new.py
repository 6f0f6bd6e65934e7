"""Judges on the new labelled verification set (issue 26; benchmarks/data/verify_new).

    python benchmarks/bench_verify_new.py --split tune --judges rule,sim
    python benchmarks/bench_verify_new.py --split tune --judges llm,hybrid --llm-n 40
    python benchmarks/bench_verify_new.py --split tune --judges sim --kinds far_twin,posture --verbose
    python benchmarks/bench_verify_new.py --split report --final-report --judges rule,sim,llm,hybrid

The set was written apart from the judges (README there); this script only calls the
loop's public API (``actionable.verify.loop.make_loop``, deterministic ``apply`` planner) and
scores with ``actionable.evaluation.verification.metrics``. Columns (percent unless said):

* P / R / F1: round-1 critiques per action (arXiv 2509.02761, Sec. 4): a REMOVE on a labelled
  step and a MISSING matching a missing step (same action, same node ids) are true positives.
  They credit a REMOVE of an identical adjacent copy of a labelled step (rule T2 of the README:
  deleting either gives the same plan); "F1_strict" does not. F1_remove / F1_missing: each
  positive type alone. "F1_loop": the loop's net edits (input plan -> final plan).
* exact: the cleaned plan equals the labelled plan (R for a case with errors, the plan itself
  for a clean one), node ids compared.
* no_loss: the cleaned plan meets every annotated goal (exact node ids) the input met, and
  executes when the input did; success_before / success_after: the input / cleaned plan is
  correct (executes and meets every goal). A final plan with an unbound step counts as failed.
* unchanged: 0 revisions; conv_le_1 / conv_le_3: converged (no new critique) with at most
  1 / 3 revisions (paper: 62% need no change after round 1, 96.5% within 3).
* Per noise kind: recall of that kind's positives, the FPs in the cases that hold it, and
  the table above over the cases that have only that kind.

Precision of a group without positives or FPs is 100 by the ``prf`` convention; for clean
cases read "unchanged" and "exact". **The report half is refused without ``--final-report``:
it is scored once, at the end, never while the judges are developed.**
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections import defaultdict
from pathlib import Path


def t2(plan: list[str], labels, crits):
    """Credit a REMOVE of an identical adjacent copy of a labelled step to that step (T2)."""
    from actionable.verify.critique import CritiqueKind

    pos = {i for i, lab in enumerate(labels) if lab == "remove"}
    claimed = {c.index for c in crits if c.kind is CritiqueKind.REMOVE and c.index in pos}
    out = []
    for c in crits:
        if c.kind is CritiqueKind.REMOVE and c.index is not None and c.index not in pos:
            drop = plan[:c.index] + plan[c.index + 1:]
            alt = next((i for i in sorted(pos - claimed) if plan[:i] + plan[i + 1:] == drop), None)
            if alt is not None:
                claimed.add(alt)
                c = dataclasses.replace(c, index=alt)
        out.append(c)
    return out


def labelled(case):
    """The case as a ``CorruptedPlan`` (the label record ``actionable.evaluation.verification.metrics`` scores)."""
    from actionable.core.program import Program, parse_script_step
    from actionable.verify.labels import CorruptedPlan

    plan = Program(tuple(case.steps()), task=case.goal)
    ref = Program(tuple(parse_script_step(x) for x in case.reference), task=case.goal)
    labels = tuple("valid" if lab == "valid" else "redundant" for lab in case.labels)
    return CorruptedPlan(case.program_id, ref, plan, labels, tuple(case.missing_steps()), ())


def run_case(case, loop, ann, facts_cache):
    from actionable.evaluation.verify_noise import PlanFacts
    from actionable.verify.base import VerifyTask
    from actionable.verify.critique import CritiqueKind
    from actionable.evaluation.verification.metrics import score_critiques, score_edits

    ex = labelled(case)
    task = VerifyTask(goal=case.goal, scene=case.scene, goal_spec=ann[case.program_id], program_id=case.program_id)
    t0 = time.perf_counter()
    res = loop.run(ex.corrupted, task)
    secs = time.perf_counter() - t0
    crits = list(res.first_critiques)
    strict = score_critiques(ex, crits)
    lenient = score_critiques(ex, t2(list(case.plan), case.labels, crits))
    final = res.final
    want = list(case.plan) if case.is_clean else list(case.reference)
    exact = [s.to_script() for s in final.steps] == want
    # which positives were found (round 1, T2), by the reason (noise kind) of each
    found = defaultdict(lambda: [0, 0])
    rm = {c.index for c in t2(list(case.plan), case.labels, crits) if c.kind is CritiqueKind.REMOVE}
    for i, lab in enumerate(case.labels):
        if lab == "remove":
            found[case.reasons[i]][1] += 1
            found[case.reasons[i]][0] += int(i in rm)
    # MISSING: the metric's own matching (each proposal, in order, takes the first unmatched
    # missing step it matches), so the kinds' counts add up to tp_missing
    from actionable.evaluation.verification.metrics import _same_missing

    left = [(m["reason"], st) for m, (_, st) in zip(case.missing, case.missing_steps())]
    for reason, _ in left:
        found[reason][1] += 1
    for p in (c.step for c in crits if c.kind is CritiqueKind.MISSING and c.step is not None):
        hit = next((k for k, (_, g) in enumerate(left) if _same_missing(p, g)), None)
        if hit is not None:
            found[left.pop(hit)[0]][0] += 1
    f = facts_cache.setdefault(case.program_id, PlanFacts(case.program_id))
    before = f.outcome(case.steps())
    ok = all(s.is_resolved for s in final.steps)  # a plan with an unbound step cannot run: not a success
    after = f.outcome(final.steps) if ok else None
    # no loss of task success: the cleaned plan meets every goal the input plan met, and still
    # executes when the input did (for an input that is correct: the cleaned plan is correct)
    no_loss = after is not None and after.met >= before.met and (after.executes or not before.executes)
    return {"id": case.id, "source": case.source, "kinds": list(case.kinds), "clean_case": case.is_clean,
            "strict": strict.to_dict(), "t2": lenient.to_dict(), "loop": score_edits(ex, final).to_dict(),
            "exact": exact, "revisions": res.revisions, "converged": res.converged, "rounds": len(res.rounds),
            "rejected": res.rejected, "critiques_rejected": res.critiques_rejected,
            "found": {k: v for k, v in found.items()}, "seconds": secs,
            "success_before": before.correct, "success_after": after is not None and after.correct,
            "no_loss": no_loss, "unresolved_final": not ok,
            "critiques": [c.describe() for c in crits], "final": [s.to_script() for s in final.steps]}


def summarize(rows) -> dict:
    """Pooled numbers of per-case rows (fractions in [0, 1]; counts summed over cases)."""
    from actionable.evaluation.verification.metrics import Counts, convergence_shares

    c, s, lp = Counts(), Counts(), Counts()
    for r in rows:
        c += Counts.from_dict(r["t2"])
        s += Counts.from_dict(r["strict"])
        lp += Counts.from_dict(r["loop"])
    n = max(len(rows), 1)
    conv = convergence_shares([r["revisions"] for r in rows], [r["converged"] for r in rows])
    p, rr, f1 = c.prf()
    return {"cases": len(rows), "positives": c.tp + c.fn, "P": p, "R": rr, "F1": f1,
            "F1_remove": c.prf("remove")[2], "F1_missing": c.prf("missing")[2], "F1_strict": s.prf()[2],
            "F1_loop": lp.prf()[2], "exact": sum(r["exact"] for r in rows) / n,
            "no_loss": sum(r["no_loss"] for r in rows) / n,
            "success_before": sum(r["success_before"] for r in rows) / n,
            "success_after": sum(r["success_after"] for r in rows) / n,
            "unchanged": sum(r["revisions"] == 0 for r in rows) / n,
            "conv_le_1": conv["converged_le_1"], "conv_le_3": conv["converged_le_3"],
            "seconds": sum(r["seconds"] for r in rows) / n, "counts": c.to_dict()}


COLUMNS = ("cases", "positives", "P", "R", "F1", "F1_remove", "F1_missing", "F1_strict", "F1_loop", "exact",
           "no_loss", "success_before", "success_after", "unchanged", "conv_le_1", "conv_le_3", "seconds")


def table(rows, key, title):
    groups = defaultdict(list)
    for r in rows:
        for k in key(r):
            groups[k].append(r)
    print(f"\n{title}\n")
    print("| group | " + " | ".join(COLUMNS).replace("seconds", "s/case") + " |")
    print("|" + "---|" * (len(COLUMNS) + 1))
    for g, rs in sorted(groups.items(), key=lambda kv: str(kv[0])):
        m = summarize(rs)
        cells = [str(m[k]) if k in ("cases", "positives") else f"{m[k]:.2f}" if k == "seconds"
                 else f"{100 * m[k]:.1f}" for k in COLUMNS]
        print(f"| {g} | " + " | ".join(cells) + " |")


def kind_recall(rows):
    tot = defaultdict(lambda: [0, 0])
    fps = defaultdict(lambda: [0, 0, 0])
    for r in rows:
        for k, (a, b) in r["found"].items():
            tot[k][0] += a
            tot[k][1] += b
        for k in r["kinds"]:
            fps[k][0] += r["t2"]["fp_remove"]
            fps[k][1] += r["t2"]["fp_missing"]
            fps[k][2] += 1
    print("\nRecall by noise kind (round 1; positives of that kind found / labelled) and false positives "
          "in the cases that hold the kind\n")
    print("| kind | cases | found / positives | recall | FP REMOVE | FP MISSING |")
    print("|---|---|---|---|---|---|")
    for k in sorted(fps):
        a, b = tot.get(k, [0, 0])
        print(f"| {k} | {fps[k][2]} | {a} / {b} | {'-' if not b else f'{100 * a / b:.1f}'} | {fps[k][0]} | "
              f"{fps[k][1]} |")


def compare(rows) -> None:
    """Judges side by side: pooled numbers, then each noise kind's positives found and FPs."""
    judges = list(dict.fromkeys(r["judge"] for r in rows))
    pct = lambda x: f"{100 * x:.1f}"  # noqa: E731
    print("\n## Judges side by side\n")
    print("| judge | cases | P | R | F1 | F1 REMOVE | F1 MISSING | F1 strict | F1 loop | exact (errors / clean) "
          "| no loss | success before -> after | unchanged (clean) | conv <=1 / <=3 | s/case |")
    print("|" + "---|" * 15)
    for j in judges:
        rs = [r for r in rows if r["judge"] == j]
        m = summarize(rs)
        e = summarize([r for r in rs if not r["clean_case"]])
        c = summarize([r for r in rs if r["clean_case"]])
        print(f"| {j} | {m['cases']} | {pct(m['P'])} | {pct(m['R'])} | {pct(m['F1'])} | {pct(m['F1_remove'])} | "
              f"{pct(m['F1_missing'])} | {pct(m['F1_strict'])} | {pct(m['F1_loop'])} | {pct(m['exact'])} "
              f"({pct(e['exact'])} / {pct(c['exact'])}) | {pct(m['no_loss'])} | {pct(m['success_before'])} -> "
              f"{pct(m['success_after'])} | {pct(m['unchanged'])} ({pct(c['unchanged'])}) | "
              f"{pct(m['conv_le_1'])} / {pct(m['conv_le_3'])} | {m['seconds']:.2f} |")
    print("\nPer noise kind: positives of the kind found in round 1 (T2), and FP REMOVE / FP MISSING in the "
          "cases that hold the kind; F1 over the cases with only that kind\n")
    print("| kind | cases | positives | " + " | ".join(f"{j} found (FP R/M) | {j} F1" for j in judges) + " |")
    print("|" + "---|" * (3 + 2 * len(judges)))
    for k in sorted({k for r in rows for k in r["kinds"]}):
        cells, n, pos = [], 0, 0
        for j in judges:
            rs = [r for r in rows if r["judge"] == j and k in r["kinds"]]
            found = sum(r["found"].get(k, [0, 0])[0] for r in rs)
            pos = sum(r["found"].get(k, [0, 0])[1] for r in rs)
            fr, fm = sum(r["t2"]["fp_remove"] for r in rs), sum(r["t2"]["fp_missing"] for r in rs)
            one = summarize([r for r in rs if r["kinds"] == [k]])
            cells += [f"{found} ({fr}/{fm})", "-" if not one["positives"] else pct(one["F1"])]
            n = len(rs)
        print(f"| {k} | {n} | {pos} | " + " | ".join(cells) + " |")


def report(rows, judge: str, split: str, note: str) -> None:
    print(f"\n## judge {judge}, split {split}, {len(rows)} cases{note}")
    table(rows, lambda r: ["all"], "All cases")
    table(rows, lambda r: ["clean cases" if r["clean_case"] else "cases with errors"],
          "Clean cases (unchanged = no false alarm) vs cases with errors")
    table(rows, lambda r: [r["source"]], "By source")
    table(rows, lambda r: [r["kinds"][0]] if len(r["kinds"]) == 1 else ["(two kinds)"],
          "By noise kind (cases with one kind)")
    kind_recall(rows)


def run_judge(cases, judge: str, *, lm=None, max_rounds: int = 5, verbose: bool = False, ann=None,
              facts=None) -> list[dict]:
    """One judge (with the deterministic ``apply`` planner) over ``cases``: one row per case
    (fields of :func:`run_case` plus ``judge``). ``lm``: the LM of the ``llm``/``hybrid`` judges."""
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.verify.loop import make_loop

    ann = load_goal_annotations() if ann is None else ann
    facts = {} if facts is None else facts
    loop = make_loop(judge, "apply", lm=lm, max_rounds=max_rounds)
    rows = []
    for k, c in enumerate(cases):
        r = run_case(c, loop, ann, facts)
        r["judge"] = judge
        rows.append(r)
        if verbose and any(r["t2"][x] for x in ("fp_remove", "fn_remove", "fp_missing", "fn_missing")):
            print(f"  {judge} {c.id}: {r['t2']}", file=sys.stderr)
            for line in r["critiques"]:
                print(f"      {line}", file=sys.stderr)
        print(f"[{judge} {k + 1}/{len(cases)}] {c.id}", file=sys.stderr, flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "report"), required=True)
    ap.add_argument("--final-report", action="store_true",
                    help="required with --split report: the one final run on the held-out half")
    ap.add_argument("--judges", default="rule,sim")
    ap.add_argument("--model", default="embedded")
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=None, help="only the first N cases of the split (every judge)")
    ap.add_argument("--llm-n", type=int, default=None, help="LM judges: only the first N cases of the split")
    ap.add_argument("--kinds", default=None, help="only cases holding one of these kinds")
    ap.add_argument("--out", default=None, help="per-case JSONL")
    ap.add_argument("--data", default=str(Path(__file__).resolve().parent / "data" / "verify_new"),
                    help="folder holding the cases.jsonl to read (default: benchmarks/data/verify_new; "
                         "e.g. benchmarks/data/verify_slips)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--render", default=None,
                    help="print the tables of JSONL files (comma-separated) written by --out (no judge runs)")
    a = ap.parse_args(argv)
    from actionable.core.errors import ConfigError

    if a.split == "report" and not a.final_report:
        raise ConfigError("--split report is the held-out half, scored once at the end; it is refused while "
                          "the judges are developed. Use --split tune, or add --final-report for the final run.")
    if a.render:
        rows = [json.loads(x) for f in a.render.split(",") for x in open(f, encoding="utf-8") if x.strip()]
        if any(r.get("split", a.split) != a.split for r in rows):
            raise ConfigError(f"{a.render} holds rows of another split than --split {a.split}")
        for j in dict.fromkeys(r["judge"] for r in rows):
            report([r for r in rows if r["judge"] == j], j, a.split, "")
        compare(rows)
        return 0
    from actionable.worlds.virtualhome.goals import load_goal_annotations
    from actionable.evaluation.verify_noise import KINDS, load_cases
    from actionable.verify.loop import loop_lm

    judges = [j.strip() for j in a.judges.split(",") if j.strip()]
    bad = [j for j in judges if j not in ("rule", "sim", "llm", "hybrid")]
    if bad:
        raise ConfigError(f"--judges: unknown judge(s) {bad}; choose from rule, sim, llm, hybrid")
    cases = load_cases(Path(a.data) / "cases.jsonl", split=a.split)
    if a.kinds:
        want = {k.strip() for k in a.kinds.split(",")}
        if want - set(KINDS):
            raise ConfigError(f"--kinds: unknown kind(s) {sorted(want - set(KINDS))}; known: {', '.join(KINDS)}")
        cases = [c for c in cases if want & set(c.kinds)]
    if a.n:
        cases = cases[: a.n]
    ann = load_goal_annotations()
    facts: dict = {}
    all_rows = []
    for j in judges:
        lm = loop_lm(j, "apply", a.model, cache=False)
        cs = cases[: a.llm_n] if a.llm_n and j in ("llm", "hybrid") else cases
        rows = run_judge(cs, j, lm=lm, max_rounds=a.max_rounds, verbose=a.verbose, ann=ann, facts=facts)
        for r in rows:
            r["split"] = a.split
        all_rows += rows
        report(rows, j, a.split, f" (model {a.model if lm else '-'})")
    compare(all_rows)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as fh:
            for r in all_rows:
                fh.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    from actionable.core.errors import ActionableError

    try:
        raise SystemExit(main())
    except ActionableError as exc:  # bad flags or a bad case file: the message, no traceback
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2)
