"""The pddl world (issue 23, item 5): the grounded planner on the shipped PDDL problems against a
classical planner, and the speed of unified-planning's simulator.

For each shipped problem (``blocksworld:p01..p03``, ``household:p01..p03``):

* **pyperplan** (through up-pyperplan): ``pyperplan`` (greedy best-first search, hFF: any plan)
  and ``pyperplan-opt`` (A*, admissible heuristic: an optimal plan). Pyperplan reads STRIPS only,
  so the household problems (typing, negative and existential preconditions) are first compiled
  by unified-planning's quantifier, disjunction and negative-condition removers; plans are mapped
  back and replayed in the pddl world.
* **goal-directed planner** (the default of ``actionable plan --env pddl``,
  :mod:`actionable.worlds.pddl.goals`): row ``goal`` (the problem's goal read as conditions, a
  classical plan replayed in the world: pyperplan A*, then GBFS; the goal search if neither finds
  one) and ``goal-search`` (the world-agnostic goal search over the exact affordance alone), so
  the two ways issue 24 names are measured side by side.
* **grounded planner** (the project's, :mod:`actionable.planning.grounded`, through the world's
  planning domain): rows ``lm`` (the embedded SmolLM2-135M scores candidates), ``no-lm`` (prior
  and translation LM only) and ``no-lm-deep`` (no LM, goal search 8 steps / 3000 states instead of
  4 / 300). The task text is the problem's goal (``Reach the goal of sussman: (on a b) (on b
  c)``); the example bank is empty (the problems have no demonstrations). Success = executable
  and every goal conjunct holds (checked by replay in the world).
* **simulator speed**: a 200-step random walk of applicable actions per problem; ms per
  ``is_applicable`` (all grounded actions, each state), ``apply`` and ``get_unsatisfied_conditions``.

    python benchmarks/bench_pddl.py                       # every row (the lm row loads the embedded model)
    python benchmarks/bench_pddl.py --rows no-lm,no-lm-deep --out runs/pddl

Prints markdown tables; with ``--out`` also writes ``<out>/results.json``.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

ROWS = ("goal", "goal-search", "lm", "no-lm", "no-lm-deep")


def classical(scene: str) -> dict:
    """Plan lengths and seconds of pyperplan (any) and pyperplan-opt (optimal) on ``scene``."""
    import unified_planning.shortcuts as up

    from actionable.worlds import make
    from actionable.worlds.pddl.goals import strips_problem
    from actionable.worlds.pddl.model import load_task

    up.get_environment().credits_stream = None
    task = load_task(scene)
    problem, back = strips_problem(task.lifted)
    out = {}
    for name in ("pyperplan", "pyperplan-opt"):
        t = time.perf_counter()
        with up.OneshotPlanner(name=name) as planner:
            res = planner.solve(problem)
        secs = time.perf_counter() - t
        plan = res.plan
        if plan is None:
            out[name] = {"length": None, "s": round(secs, 2), "status": res.status.name}
            continue
        for r in reversed(back):
            plan = plan.replace_action_instances(r.map_back_action_instance)
        w = make("pddl", scene=scene)
        w.reset()
        steps = [f"({a.action.name} {' '.join(str(p) for p in a.actual_parameters)})" for a in plan.actions]
        ok = all(w.step(s)[4]["executed"] for s in steps) and w.check(w.goals("")).success
        out[name] = {"length": len(steps), "s": round(secs, 2), "valid": ok}
    return out


def goal_directed(scene: str, row: str) -> dict:
    """The default planner (``actionable plan --env pddl``): the problem's goal read by the world's
    ``goals`` capability, then a classical plan replayed (``goal``), or the goal search only
    (``goal-search``: ``GoalSearchConfig(planner="search")``)."""
    from actionable.planning.goaldirected import GoalSearchConfig
    from actionable.planning.pipeline import plan_task
    from actionable.worlds.pddl.goals import PddlGoals
    from actionable.worlds.pddl.planning import PddlPlanning

    d = PddlPlanning(scene)
    interp = PddlGoals(scene)
    reading = interp.read(d.task_text())
    cfg = GoalSearchConfig.for_reading(reading)
    if row == "goal-search":
        cfg = GoalSearchConfig(max_steps=cfg.max_steps, planner="search")
    t = time.perf_counter()
    res = plan_task(d, d.task_text(), interp, cfg, reading)
    secs = time.perf_counter() - t
    gc = res.goal_check
    return {"success": bool(res.done), "executable": bool(res.executable), "met": gc["met"], "total": gc["total"],
            "length": len(res.steps), "repairs": sum(s.repaired for s in res.steps), "stop": res.stop_reason,
            "s": round(secs, 2), "lm_calls": 0, "planner": res.config.get("planner")}


def grounded(scene: str, row: str, parts: dict) -> dict:
    """One plan of ``scene`` for ``row`` (:data:`ROWS`): the grounded planner, or the goal-directed one."""
    if row.startswith("goal"):
        return goal_directed(scene, row)
    from actionable.core.config import GroundedConfig
    from actionable.planning.grounded import GroundedPlanner
    from actionable.planning.retrieval import ProgramRetriever
    from actionable.worlds.pddl.planning import PddlPlanning

    d = PddlPlanning(scene)
    cfg = {"use_lm": row == "lm"}
    if row == "no-lm-deep":
        cfg.update(goal_search_depth=8, goal_search_nodes=3000)
    emb = parts["emb"]
    planner = GroundedPlanner(parts.get("lm") if row == "lm" else None, emb,
                              ProgramRetriever(d.example_bank(), emb), GroundedConfig(**cfg))
    t = time.perf_counter()
    res = planner.plan(d.task_text(), d)
    secs = time.perf_counter() - t
    gc = d.goal_check(res)
    return {"success": bool(gc["task_success"]), "executable": bool(res.executable), "met": gc["met"],
            "total": gc["total"], "length": len(res.steps), "repairs": res.repairs, "stop": res.stop_reason,
            "s": round(secs, 2), "lm_calls": res.lm_calls}


def simulator_speed(scene: str, n: int = 200, seed: int = 0) -> dict:
    """ms per call of UP's simulator on a random walk of applicable actions (module doc)."""
    from actionable.worlds.pddl.model import load_task

    task = load_task(scene)
    rng = random.Random(seed)
    s = task.initial
    t_app = t_apply = t_unsat = 0.0
    n_app = n_unsat = 0
    for _ in range(n):
        t = time.perf_counter()
        app = task.applicable_actions(s)
        t_app += time.perf_counter() - t
        n_app += len(task.actions)
        for k in task.actions[:5]:  # unmet conditions of a few actions (cache bypassed: fresh key)
            ga = task.grounded_action(*k)
            t = time.perf_counter()
            task.sim.get_unsatisfied_conditions(s.up, ga, ())
            t_unsat += time.perf_counter() - t
            n_unsat += 1
        if not app:
            break
        t = time.perf_counter()
        s = task.apply(s, *rng.choice(app))
        t_apply += time.perf_counter() - t
    return {"is_applicable_ms": round(1000 * t_app / max(1, n_app), 4), "apply_ms": round(1000 * t_apply / n, 4),
            "unsatisfied_ms": round(1000 * t_unsat / max(1, n_unsat), 4), "grounded_actions": len(task.actions)}


def main(argv=None) -> None:
    from actionable.worlds.pddl.scenes import shipped_scenes

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, of {', '.join(ROWS)}")
    ap.add_argument("--scenes", default=",".join(shipped_scenes()))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    rows = [r for r in args.rows.split(",") if r]
    bad = set(rows) - set(ROWS)
    if bad:
        ap.error(f"unknown rows {sorted(bad)}; choose from {', '.join(ROWS)}")
    from actionable.core.config import LMConfig
    from actionable.grounding.embedder import load_embedder

    lcfg = LMConfig()
    parts = {"emb": load_embedder("minilm", lcfg.cache_dir)}
    if "lm" in rows:
        from actionable.lm.registry import load_lm

        parts["lm"] = load_lm("embedded", lcfg.model_copy(update={"cache": False}))
    results = {}
    for sc in args.scenes.split(","):
        results[sc] = {"classical": classical(sc), "speed": simulator_speed(sc)}
        results[sc].update({r: grounded(sc, r, parts) for r in rows})
        print(sc, json.dumps(results[sc]), flush=True)
    print("\n| problem | optimal (A*) | pyperplan GBFS | " + " | ".join(rows) + " |")
    print("|---|---|---|" + "---|" * len(rows))
    for sc, r in results.items():
        c = r["classical"]
        cells = [f"{'yes' if g['success'] else 'no'} {g['length']} steps ({g['met']}/{g['total']}, {g['s']} s)"
                 for g in (r[x] for x in rows)]
        print(f"| {sc} | {c['pyperplan-opt']['length']} | {c['pyperplan']['length']} | " + " | ".join(cells) + " |")
    for row in rows:
        ok = [r[row] for r in results.values() if r[row]["success"]]
        opt = [results[sc]["classical"]["pyperplan-opt"]["length"] for sc, r in results.items() if r[row]["success"]]
        ratio = sum(g["length"] for g in ok) / max(1, sum(opt))
        print(f"\n{row}: success {len(ok)}/{len(results)}; on the solved ones {sum(g['length'] for g in ok)} steps "
              f"against {sum(opt)} optimal (x{ratio:.2f})")
    print("\n| problem | grounded actions | is_applicable ms | apply ms | get_unsatisfied_conditions ms |")
    print("|---|---|---|---|---|")
    for sc, r in results.items():
        s = r["speed"]
        print(f"| {sc} | {s['grounded_actions']} | {s['is_applicable_ms']} | {s['apply_ms']} | {s['unsatisfied_ms']} |")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "results.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
