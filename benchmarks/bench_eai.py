"""Action sequencing and goal interpretation scored as EAI scores them (issue 24).

    python benchmarks/bench_eai.py --planner gold                       # the reference row
    python benchmarks/bench_eai.py --planner grounded-no-lm --split lto [--name-only] [--limit 20]
    python benchmarks/bench_eai.py --planner gold --hard --out gold.jsonl   # + the hard subset (<= 2 steps)
    python benchmarks/bench_eai.py --planner grounded-no-lm --hard-from gold.jsonl   # the same flags
    python benchmarks/bench_eai.py --goals oracle|empty|interpreter:lto|interpreter:lopo|recorded:gpt-4o-2024-05-13
    python benchmarks/bench_eai.py --goals retrieval:lto:5:0.5 --half tune   # k, vote share; tune = even tasks
    python benchmarks/bench_eai.py --goals retrieval:lto:5:0.5 --half report # the odd tasks, untouched while tuning
    python benchmarks/bench_eai.py --goals retrieval:lto:3:0.5:title --read-description --half tune  # + description, title actions
    python benchmarks/bench_eai.py --planner goal-predicted --split lto --half report [--name-only]  # planned to predicted goals
    python benchmarks/bench_eai.py --goals retrieval:lto:3:0.5:title:conventions --read-clauses --half tune
    python benchmarks/bench_eai.py --goals retrieval:lto:3:0.5:title:conventions:device --read-clauses --half tune
        # + EAI's annotation conventions, actions' preconditions, the description clause by clause

Prints columns (a) EAI's protocol and evaluator, (b) exact annotated nodes on the planner's own
instances, (c) class-level; empty "nothing to do" plans apart; with ``--hard`` the subset of tasks
no admissible sequence of <= 2 steps satisfies (computed in this run, cached nowhere). ``--out F``
writes the per-task records as JSON lines. Planners: :data:`actionable.evaluation.eai.planners.PLANNERS`.
Column (a) depends on ``PYTHONHASHSEED`` (EAI orders action goals by string hash); the script fixes
it at 0 unless it is set (:func:`fixed_hash_seed`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}"


def _conventions(word: str) -> bool:
    """The fifth field of ``--goals retrieval:...``: ``conventions`` (EAI's annotation conventions and
    the actions' preconditions, ``goal_retrieval.retrieval_predictor(conventions=True)``) or nothing."""
    if word not in ("", "conventions"):
        raise ValueError(f"the fifth field must be 'conventions' or absent, got {word!r}")
    return word == "conventions"


def _device(word: str) -> bool:
    """The sixth field of ``--goals retrieval:...``: ``device`` (the device prior,
    ``retrieval_predictor(device_prior=True)``) or nothing."""
    if word not in ("", "device"):
        raise ValueError(f"the sixth field must be 'device' or absent, got {word!r}")
    return word == "device"


def goals_main(args) -> None:
    from actionable.evaluation.eai.goal_interpretation import (EAI_PUBLISHED_F1, evaluate_goal_interpretation,
                                                               gold_prediction, recorded_predictor)
    from actionable.evaluation.eai.source import task_ids

    text = "clauses" if args.read_clauses else "both" if args.read_description else "title"
    if args.goals == "oracle":
        predict = lambda name, x: gold_prediction(x["program_id"])  # noqa: E731
    elif args.goals == "empty":
        predict = lambda name, x: {}  # noqa: E731
    elif args.goals.startswith("interpreter"):  # interpreter[:lopo|lto]
        from actionable.evaluation.eai.planners import interpreter_predictor

        predict = interpreter_predictor(args.goals.partition(":")[2] or "lto", text=text)
    elif args.goals.startswith("retrieval"):  # retrieval[:split[:k[:threshold[:actions[:conventions[:device]]]]]]
        from actionable.core.errors import ConfigError
        from actionable.evaluation.eai.goal_retrieval import retrieval_predictor

        parts = args.goals.split(":")[1:]
        try:
            predict = retrieval_predictor(parts[0] if parts else "lto", int(parts[1]) if len(parts) > 1 else 5,
                                          float(parts[2]) if len(parts) > 2 else 0.5,
                                          with_interpreter=not args.no_interpreter,
                                          interpreter_text=text,
                                          actions=parts[3] if len(parts) > 3 else "vote",
                                          conventions=_conventions(parts[4] if len(parts) > 4 else ""),
                                          device_prior=_device(parts[5] if len(parts) > 5 else ""))
        except (ValueError, ConfigError) as exc:
            raise SystemExit(f"--goals retrieval:<split>:<k>:<threshold>[:vote|title|both[:conventions[:device]]]: {exc}")
    elif args.goals.startswith("recorded:"):
        predict = recorded_predictor(args.goals.split(":", 1)[1])
    else:
        raise SystemExit(f"--goals: choose oracle, empty, interpreter[:lopo|lto], retrieval:... or "
                         f"recorded:<model>, got {args.goals!r}")
    ids = task_ids()
    if args.half != "all":  # tune: even positions of EAI's task list; report: odd (fixed before tuning)
        ids = ids[0 if args.half == "tune" else 1:: 2]
    ids = ids[:: args.stride][: args.limit]
    res = evaluate_goal_interpretation(predict, ids)["all"]
    read = ", + description by clause" if args.read_clauses else ", + description" if args.read_description else ""
    print(f"goal interpretation ({args.goals}{read}, half {args.half}), {res['n']} tasks, EAI's evaluator "
          f"(virtualhome-eval 0.1.1)")
    print("| category | precision | recall | F1 |\n|---|---|---|---|")
    for c in ("node", "edge", "action", "all"):
        p = res.get(f"{c}_precision")
        print(f"| {c} | {'-' if p is None else f'{p:.1f}'} | {res.get(f'{c}_recall', 0):.1f} | {res[f'{c}_f1']:.1f} |")
    if res.get("note"):
        print(res["note"])
    print("EAI published F1: " + "; ".join(f"{k} {v}" for k, v in EAI_PUBLISHED_F1.items()))


def fixed_hash_seed() -> str:
    """Re-run this script with ``PYTHONHASHSEED`` fixed (0 unless set) and return it.

    EAI's evaluator orders a task's action goals by Python's string hash
    (``gold_action_goals = list(set(gold_action_goals))`` in
    ``evaluation/action_sequence/scripts/evaluate_results.py``), so column (a) changes between
    processes on identical plans (6 Dec 2026: 78.7% and 82.0% for the same 305 outputs). Fixing the
    seed makes a run reproducible; ``PYTHONHASHSEED=1 python benchmarks/bench_eai.py ...`` shows
    another ordering."""
    import os

    if os.environ.get("PYTHONHASHSEED") is None:
        os.environ["PYTHONHASHSEED"] = "0"
        os.execv(sys.executable, [sys.executable, *sys.argv])
    return os.environ["PYTHONHASHSEED"]


def main() -> None:
    seed = fixed_hash_seed()
    print(f"PYTHONHASHSEED={seed} (EAI's evaluator orders action goals by string hash; fixed per run)", flush=True)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--planner", default="gold")
    ap.add_argument("--split", default="lopo", choices=("lopo", "lto"))
    ap.add_argument("--name-only", action="store_true", help="the planner gets the task name only (as EAI)")
    ap.add_argument("--limit", type=int, default=None, help="first N tasks (after --stride)")
    ap.add_argument("--stride", type=int, default=1, help="every k-th of EAI's 342 tasks")
    ap.add_argument("--hard", action="store_true", help="also the subset not satisfiable in <= 2 steps")
    ap.add_argument("--hard-from", default=None,
                    help="read the hard-subset flags from an earlier --out file of this script (same tasks)")
    ap.add_argument("--model", default="embedded", help="planning LM of the grounded planner")
    ap.add_argument("--goals", default=None, help="score goal interpretation instead: oracle|empty|"
                    "interpreter[:lto|lopo]|retrieval[:lto|lopo[:k[:threshold]]]|recorded:<model>")
    ap.add_argument("--half", default="all", choices=("all", "tune", "report"),
                    help="all tasks, the tune half (even positions of EAI's list) or the report half (odd); goal "
                         "interpretation and action sequencing alike")
    ap.add_argument("--read-clauses", action="store_true",
                    help="goal interpretation: as --read-description, each sentence with the narrator's subject "
                         "dropped ('I sit on the sofa') and read clause by clause where it does not read whole")
    ap.add_argument("--read-description", action="store_true",
                    help="goal interpretation: the interpreter also reads each sentence of EAI's task description")
    ap.add_argument("--no-interpreter", action="store_true",
                    help="retrieval: without the goal interpreter's own reading")
    ap.add_argument("--out", default=None, help="write per-task records (JSON lines) here")
    args = ap.parse_args()
    if args.limit is not None and args.limit < 1:
        raise SystemExit(f"--limit must be >= 1, got {args.limit}")
    if args.stride < 1:
        raise SystemExit(f"--stride must be >= 1, got {args.stride}")
    if args.goals:
        return goals_main(args)
    from actionable.core.errors import ConfigError
    from actionable.evaluation.eai.columns import min_steps, run, summarise
    from actionable.evaluation.eai.planners import PLANNERS
    from actionable.evaluation.eai.protocol import EAI_PUBLISHED_SEQUENCING
    from actionable.evaluation.eai.source import task_ids

    if args.planner not in PLANNERS:
        raise SystemExit(str(ConfigError(f"--planner: unknown planner {args.planner!r}; choose from "
                                         f"{', '.join(sorted(PLANNERS))}")))
    ids = task_ids()
    if args.half != "all":  # the goal-interpretation halves: tune = even positions, report = odd
        ids = ids[0 if args.half == "tune" else 1:: 2]
    ids = ids[:: args.stride][: args.limit]
    t0 = time.perf_counter()
    out = run(args.planner, ids, args.split, args.name_only, {"model": args.model},
              progress=lambda i, n, r: print(f"  {i}/{n} {r['program_id']}", file=sys.stderr) if i % 25 == 0 else None)
    hard = {p: min_steps(p) for p in ids} if args.hard else None
    if args.hard_from:
        with open(args.hard_from, encoding="utf-8") as f:
            prior = {r["program_id"]: r.get("min_steps") for r in map(json.loads, f)}
        missing = [p for p in ids if prior.get(p) is None]
        if missing:
            raise SystemExit(f"--hard-from {args.hard_from}: no min_steps for {len(missing)} tasks "
                             f"(e.g. {missing[0]}); make it with --hard --out on the same tasks")
        hard = {p: prior[p] for p in ids}
    s = summarise(out["records"], out["eai"], hard)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            for r in out["records"]:
                f.write(json.dumps({**r, "eai": out["eai"].tasks.get(r["program_id"]),
                                    "min_steps": (hard or {}).get(r["program_id"])}) + "\n")
    rows = "name only" if args.name_only else "name + description"
    print(f"planner {args.planner}, split {args.split}, {rows}, {s['n']} tasks "
          f"(every {args.stride}. of EAI's 342), {time.perf_counter() - t0:.0f} s")
    print("| column | n | task success % | executable % |\n|---|---|---|---|")
    print(f"| (a) EAI protocol + EAI evaluator | {s['eai_n']} | {pct(s['eai_success'])} | {pct(s['eai_executable'])} |")
    print(f"| (b) exact annotated nodes, planner's instances | {s['n']} | {pct(s['exact'])} | {pct(s['executable'])} |")
    print(f"| (c) class-level | {s['n']} | {pct(s['class'])} | {pct(s['executable'])} |")
    print(f"\nGC exact {pct(s['gc_exact'])}%, GC class {pct(s['gc_class'])}%, LCS {s['lcs']:.2f}, "
          f"length {s['length']:.1f}, refused {s['refused']}, {s['seconds']:.2f} s/plan")
    print(f"empty plans (\"nothing to do\"): {s['empty']}, of which {s['empty_success_exact']} meet the exact goals; "
          f"(b) over non-empty plans {pct(s['exact_nonempty'])}%")
    if hard is not None:
        print(f"hard subset (no admissible <= 2-step sequence meets the goals): (b) {pct(s['hard_exact'])}% of "
              f"{s['hard_n_exact']} tasks; (c) {pct(s['hard_class'])}% of {s['hard_n_class']}")
    print(f"(a) EAI dropped {s['n'] - s['eai_n']} tasks whose gold final state fails EAI's own goal check; "
          f"{s['eai_identical_to_gold']} plans equal EAI's gold actions (executable, never a success under EAI). "
          "EAI's rules: the output is one JSON object (a repeated action keeps one entry), names are bound to the "
          "annotated nodes, a name outside the relevant objects is a hallucination.")
    print("EAI published (task SR / exec SR): " + "; ".join(f"{k} {a} / {b}" for k, (a, b) in EAI_PUBLISHED_SEQUENCING.items()))
    if s["eai_summary"]:
        print("EAI summary: " + json.dumps(s["eai_summary"]))


if __name__ == "__main__":
    main()
