"""Plan the 30 novel household tasks (``benchmarks/data/novel_tasks.txt``,
outside the 26 packaged titles) in the default house with the grounded planner
and the embedded models; print executability, loops, whether each plan acts on
an object the task names, seconds per plan, and every plan (markdown).

    python benchmarks/bench_novel_tasks.py [--use-lm/--no-lm] [--out docs/novel-plans.md]

Per-plan seconds are measured after the models are loaded (the first plan also
pays for loading the scene and embedding the example bank once).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-lm", action="store_true", help="the grounded-no-lm ablation")
    ap.add_argument("--out", default=None, help="also write the plans as markdown here")
    args = ap.parse_args()
    from actionable.config import GroundedConfig, LMConfig
    from actionable.errors import ActionableError
    from actionable.planning.session import PlanningSession
    from tests.corpora.planning_tasks import NAMED_OBJECTS

    t0 = time.perf_counter()
    session = PlanningSession(LMConfig(), None, scene="default")
    planner = session.grounded_planner(GroundedConfig(use_lm=not args.no_lm))
    load_s = time.perf_counter() - t0
    rows, md = [], ["| # | task | executable | acts on a named object | loop | steps | s |", "|---|---|---|---|---|---|---|"]
    plans = []
    for i, (task, named) in enumerate(NAMED_OBJECTS.items(), 1):
        t = time.perf_counter()
        try:
            res = planner.plan(task, session.scene)
        except ActionableError as exc:
            rows.append((task, False, False, False, 0, time.perf_counter() - t))
            plans.append(f"**{task}**: refused: {exc}")
            continue
        s = time.perf_counter() - t
        acted = {a.name for st in res.steps for a in st.step.args}
        texts = [st.action for st in res.steps]
        loop = any(texts[j] == texts[j - 1] == texts[j - 2] for j in range(2, len(texts)))
        ok = bool(res.executability and res.executability["executable"])
        rows.append((task, ok, bool(acted & set(named)), loop, len(res.steps), s))
        plans.append(f"**{task}** ({len(res.steps)} steps): " + "; ".join(
            t + (" (repair)" if st.repaired else "") for t, st in zip(texts, res.steps)))
        print(f"{i:>2}. {task}: {'executable' if ok else 'NOT executable'}, "
              f"named object {'yes' if rows[-1][2] else 'NO'}, {len(res.steps)} steps, {s:.1f} s", flush=True)
    for j, (task, ok, named, loop, n, s) in enumerate(rows, 1):
        md.append(f"| {j} | {task} | {'yes' if ok else 'no'} | {'yes' if named else 'no'} | "
                  f"{'yes' if loop else 'no'} | {n} | {s:.1f} |")
    n = len(rows)
    summary = (f"novel tasks: {n}; executable {sum(r[1] for r in rows)}/{n}; act on a named object "
               f"{sum(r[2] for r in rows)}/{n}; loops {sum(r[3] for r in rows)}/{n}; mean {sum(r[5] for r in rows) / n:.1f} "
               f"s/plan, max {max(r[5] for r in rows):.1f} s (load {load_s:.1f} s); LM: {'none' if args.no_lm else session.lm.model_id}")
    print(summary)
    text = summary + "\n\n" + "\n".join(md) + "\n\nPlans:\n\n" + "\n".join(f"{j}. {p}" for j, p in enumerate(plans, 1)) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
