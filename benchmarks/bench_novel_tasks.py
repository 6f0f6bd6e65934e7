"""Plan the 30 novel household tasks (``benchmarks/data/novel_tasks.txt``,
outside the 26 packaged titles) in the default house with the grounded planner
and the embedded models; print executability, loops, whether each plan acts on
an object the task names, seconds per plan, and every plan (markdown).

    python benchmarks/bench_novel_tasks.py [--no-lm] [--set a|b] [--out docs/novel-plans.md]

Set a: the 30 tasks of ``novel_tasks.txt``; set b: the 20 of ``novel_tasks_b.txt``, written before
the task-step termination rule (turn 5) was run on them.

Per-plan seconds are measured after the models are loaded (the first plan also
pays for loading the scene and embedding the example bank once).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-lm", action="store_true", help="the grounded-no-lm ablation")
    ap.add_argument("--grounded", default="{}", help="GroundedConfig overrides (JSON), e.g. '{\"w_task_done\": 0}'")
    ap.add_argument("--set", default="a", choices=["a", "b"], help="task set (module doc)")
    ap.add_argument("--out", default=None, help="also write the plans as markdown here")
    args = ap.parse_args()
    from actionable.core.config import GroundedConfig, LMConfig
    from actionable.core.errors import ActionableError
    from actionable.planning.session import PlanningSession
    from tests.corpora.planning_tasks import NAMED_OBJECTS, NAMED_OBJECTS_B

    t0 = time.perf_counter()
    session = PlanningSession(LMConfig(), None, scene="default")
    planner = session.grounded_planner(GroundedConfig(**{"use_lm": not args.no_lm, **json.loads(args.grounded)}))
    load_s = time.perf_counter() - t0
    rows, md = [], ["| # | task | executable | acts on a named object | loop | steps | stop | s |",
                    "|---|---|---|---|---|---|---|---|"]
    plans = []
    tasks = NAMED_OBJECTS if args.set == "a" else NAMED_OBJECTS_B
    for i, (task, named) in enumerate(tasks.items(), 1):
        t = time.perf_counter()
        try:
            res = planner.plan(task, session.scene)
        except ActionableError as exc:
            rows.append((task, False, False, False, 0, time.perf_counter() - t, "refused"))
            plans.append(f"**{task}**: refused: {exc}")
            continue
        s = time.perf_counter() - t
        acted = {a.name for st in res.steps for a in st.step.args}
        texts = [st.action for st in res.steps]
        loop = any(texts[j] == texts[j - 1] == texts[j - 2] for j in range(2, len(texts)))
        # an empty plan because what the task asks already holds counts as executable (nothing to run)
        ok = bool(res.executability and res.executability["executable"]) or res.stop_reason == "already_done"
        rows.append((task, ok, None if res.stop_reason == "already_done" else bool(acted & set(named)), loop, len(res.steps), s,
                     res.stop_reason + (" (task step)" if (res.stopped_at or {}).get("task_step_done") else "")))
        if res.stop_reason == "already_done":  # evidence from the scene graph, not from the planner
            nodes = session.scene.to_dict()["nodes"]
            states = "; ".join(f"{n['class_name']} {n['id']}: {', '.join(sorted(n.get('states') or [])) or '-'}"
                               for n in nodes if n["class_name"] in named)
            plans.append(f"**{task}**: nothing to do ({', '.join(res.task_steps)} already holds); scene "
                         f"states of the named objects: {states}")
            continue
        plans.append(f"**{task}** ({len(res.steps)} steps): " + "; ".join(
            t + (" (repair)" if st.repaired else "") for t, st in zip(texts, res.steps)))
        print(f"{i:>2}. {task}: {'executable' if ok else 'NOT executable'}, "
              f"named object {'yes' if rows[-1][2] else 'NO'}, {len(res.steps)} steps, {s:.1f} s", flush=True)
    for j, (task, ok, named, loop, n, s, stop) in enumerate(rows, 1):
        md.append(f"| {j} | {task} | {'yes' if ok else 'no'} | {'-' if named is None else 'yes' if named else 'no'} | "
                  f"{'yes' if loop else 'no'} | {n} | {stop} | {s:.1f} |")
    n = len(rows)
    summary = (f"novel tasks: {n}; executable {sum(r[1] for r in rows)}/{n}; act on a named object "
               f"{sum(bool(r[2]) for r in rows)}/{n}; loops {sum(r[3] for r in rows)}/{n}; at the step limit "
               f"{sum(r[6] == 'max_steps' for r in rows)}/{n}; nothing to do {sum(r[6] == 'already_done' for r in rows)}/{n}; mean {sum(r[5] for r in rows) / n:.1f} "
               f"s/plan, max {max(r[5] for r in rows):.1f} s (load {load_s:.1f} s); LM: {'none' if args.no_lm else session.lm.model_id}")
    print(summary)
    text = summary + "\n\n" + "\n".join(md) + "\n\nPlans:\n\n" + "\n".join(f"{j}. {p}" for j, p in enumerate(plans, 1)) + "\n"
    if args.out:
        Path(args.out).write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
