"""The verification benchmark: judges x planners (x models) on corrupted gold plans.

Each episode takes one goal-annotated gold program, injects seeded labelled
errors (:mod:`actionable.evaluation.verification.corrupt`), runs the Judge/Planner loop
(:mod:`actionable.verify.loop`) with one judge and one planner, and records
per-action counts (round-1 critiques and the loop's net edits), convergence,
and task-level outcomes (executability and goal-condition task success of the
gold, corrupted and cleaned plans). Episodes run through the resumable runner
(:func:`actionable.evaluation.runner.run_episodes`), so an interrupted run
resumes and a finished one can be re-reported without models.

Table columns follow arXiv 2509.02761 (Table 2: per-action P/R/F1; Sec. 5.3
rounds to convergence) plus our task-level columns.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Sequence

from actionable.core.errors import ConfigError

PLANNER_NAMES = ("apply", "llm")


@dataclass(frozen=True)
class VerifyBenchConfig:
    """One benchmark configuration (recorded in the run manifest).

    Attributes:
        n_programs: goal-annotated gold programs drawn (seeded) from the 342.
        seed: seeds program choice and error injection.
        n_errors: errors attempted per plan.
        judges / planners / models: the grid; ``models`` matters only for the
            ``llm``/``hybrid`` judges and the ``llm`` planner.
        max_rounds: loop limit (paper: 5).
        llm_programs: cap on programs for combinations that call an LM (CPU cost).
    """

    n_programs: int = 60
    seed: int = 0
    n_errors: int = 3
    judges: tuple[str, ...] = ("rule", "sim", "llm", "hybrid")
    planners: tuple[str, ...] = ("apply",)
    models: tuple[str, ...] = ("embedded",)
    max_rounds: int = 5
    llm_programs: int | None = None

    def __post_init__(self) -> None:
        from actionable.verify.judge import JUDGE_NAMES

        bad = [j for j in self.judges if j not in JUDGE_NAMES]
        if bad or not self.judges:
            from actionable.core.errors import unknown_names

            raise ConfigError(unknown_names("judge", bad, JUDGE_NAMES))
        badp = [p for p in self.planners if p not in PLANNER_NAMES]
        if badp or not self.planners:
            raise ConfigError(f"unknown planner(s) {badp}; choose from {', '.join(PLANNER_NAMES)}")
        if not 1 <= self.n_programs <= 342:
            raise ConfigError(f"n_programs must be in 1..342 (got {self.n_programs})")
        if not 1 <= self.max_rounds <= 20:
            raise ConfigError(f"max_rounds must be in 1..20 (got {self.max_rounds})")
        if not 1 <= self.n_errors <= 10:
            raise ConfigError(f"--errors must be in 1..10 (got {self.n_errors})")
        if self.llm_programs is not None and self.llm_programs < 1:
            raise ConfigError(f"--llm-n must be >= 1 (got {self.llm_programs})")

    def fingerprint(self) -> str:
        from actionable.evaluation.runner import config_fingerprint

        return config_fingerprint(asdict(self))


def select_programs(n: int, seed: int, annotations: dict) -> list[str]:
    """``n`` goal-annotated program ids, a seeded sample in dataset order."""
    from actionable.evaluation.datasets import program_ids as list_program_ids

    ids = [p for p in list_program_ids() if p in annotations]
    pick = random.Random(seed).sample(ids, min(n, len(ids)))
    order = {p: i for i, p in enumerate(ids)}
    return sorted(pick, key=order.__getitem__)


def episodes(config: VerifyBenchConfig, program_ids: Sequence[str]):
    """Runner episodes of the grid (keys ``pid|judge|planner|model``)."""
    from actionable.evaluation.runner import Episode

    out = []
    lm_pids = set(program_ids[:config.llm_programs] if config.llm_programs else program_ids)
    for pid in program_ids:  # program-major: a worker corrupts each program once
        for judge in config.judges:
            for planner in config.planners:
                uses_lm = judge in ("llm", "hybrid") or planner == "llm"
                if uses_lm and pid not in lm_pids:
                    continue
                for model in (config.models if uses_lm else ("-",)):
                    out.append(Episode(f"{pid}|{judge}|{planner}|{model}", {
                        "program_id": pid, "judge": judge, "planner": planner, "model": model,
                        "seed": config.seed, "n_errors": config.n_errors, "max_rounds": config.max_rounds}))
    return out


class VerifyWorker:
    """Runner worker factory (picklable): builds models lazily, once per worker."""

    def __init__(self, lm_cache: bool = False):
        self.lm_cache = lm_cache

    def __call__(self):
        state: dict = {"lms": {}, "corrupted": {}}

        def work(payload: dict) -> dict:
            return run_episode(payload, state, self.lm_cache)

        return work


def _outcome(steps, scene, spec, sim) -> dict:
    """Executability and goal success; task success needs both (the plan runs to
    the end and every annotated goal holds)."""
    from actionable.core.goals import check_goals
    from actionable.verify.replay import replay

    res = replay(steps, scene, sim=sim)
    g = check_goals(spec, res.final_graph, res.executed, match="id")
    return {"executable": res.executable, "task_success": res.executable and g.task_success,
            "goal_condition_success": g.goal_condition_success}


def run_episode(payload: dict, state: dict, lm_cache: bool = False) -> dict:
    """One (program, judge, planner, model) episode; returns a JSON-able record."""
    from actionable.core.config import LMConfig
    from actionable.evaluation.datasets import scene_graph as load_scene, program as load_program
    from actionable.evaluation.datasets import goal_annotations as load_goal_annotations
    from actionable.evaluation.verification.corrupt import corrupt_program
    from actionable.verify.judge import VerifyTask, make_judge
    from actionable.verify.loop import ApplyCritiquesPlanner, LLMPlanner, VerificationLoop
    from actionable.evaluation.verification.metrics import score_critiques, score_edits, valid_removed
    from actionable.verify.replay import make_simulator

    if "ann" not in state:
        state["ann"] = load_goal_annotations()
        state["sim"] = make_simulator()
    pid = payload["program_id"]
    spec = state["ann"][pid]
    key = (pid, payload["seed"], payload["n_errors"])
    if key not in state["corrupted"]:
        scene = load_scene(pid)
        state["corrupted"] = {key: (corrupt_program(pid, load_program(pid), scene, goal_spec=spec,
                                                    seed=payload["seed"], n_errors=payload["n_errors"]),
                                    scene)}
    example, scene = state["corrupted"][key]
    model = payload["model"]
    lm = None
    if model != "-":
        if model not in state["lms"]:
            from actionable.lm.registry import load_lm

            state["lms"][model] = load_lm(model, LMConfig(cache=lm_cache))
        lm = state["lms"][model]
    judge = make_judge(payload["judge"], lm=lm)
    planner = LLMPlanner(lm) if payload["planner"] == "llm" else ApplyCritiquesPlanner()
    goal = example.gold.task + (". " + example.gold.description if example.gold.description else "")
    task = VerifyTask(goal=goal, scene=scene, goal_spec=spec, program_id=pid)
    t0 = time.perf_counter()
    from actionable.verify.guard import referee_for

    result = VerificationLoop(judge, planner, payload["max_rounds"],  # the revision guard replays here
                              referee=referee_for(judge) if payload["planner"] == "llm" else None
                              ).run(example.corrupted, task)
    seconds = time.perf_counter() - t0
    from actionable.verify.replay import resolve_plan

    final = result.final
    if not all(s.is_resolved for s in final.steps):
        final = resolve_plan(final, scene)
    return {
        "errors": [e.kind for e in example.errors],
        "n_positives": len(example.remove_positives) + len(example.missing),
        "counts_round1": score_critiques(example, result.first_critiques).to_dict(),
        "counts_final": score_edits(example, final).to_dict(),
        "valid_removed": valid_removed(example, final),
        "revisions": result.revisions, "converged": result.converged, "rounds": len(result.rounds),
        "rejected": result.rejected, "critiques_rejected": result.critiques_rejected, "len_gold": len(example.gold), "len_corrupted": len(example.corrupted), "len_final": len(final),
        "gold": _outcome(example.gold.steps, scene, spec, state["sim"]),
        "corrupted": _outcome(example.corrupted.steps, scene, spec, state["sim"]),
        "final": _outcome(final.steps, scene, spec, state["sim"]),
        "loop_seconds": seconds, "final_plan": final.to_script(),
        "round_critiques": [[c.describe() for c in r.critiques] for r in result.rounds],
    }


def summarize(records: dict) -> list[dict]:
    """One row per (judge, planner, model) from runner records."""
    from actionable.evaluation.verification.metrics import Counts, convergence_shares

    groups: dict[tuple, list[dict]] = {}
    for key, rec in records.items():
        if rec.get("status") != "ok":
            continue
        p = rec["payload"]
        groups.setdefault((p["judge"], p["planner"], p["model"]), []).append(rec["result"])
    rows = []
    for (judge, planner, model), rs in sorted(groups.items()):
        c1, cf = Counts(), Counts()
        for r in rs:
            c1 += Counts.from_dict(r["counts_round1"])
            cf += Counts.from_dict(r["counts_final"])
        n = len(rs)
        mean = lambda f: sum(f(r) for r in rs) / n  # noqa: E731
        row = {"judge": judge, "planner": planner, "model": model, "plans": n,
               "p1": c1.prf()[0], "r1": c1.prf()[1], "f1_1": c1.prf()[2],
               "p": cf.prf()[0], "r": cf.prf()[1], "f1": cf.prf()[2],
               "f1_remove": cf.prf("remove")[2], "f1_missing": cf.prf("missing")[2],
               "valid_removed": sum(r["valid_removed"] for r in rs),
               "exec_final": mean(lambda r: r["final"]["executable"]),
               "success_gold": mean(lambda r: r["gold"]["task_success"]),
               "success_corrupted": mean(lambda r: r["corrupted"]["task_success"]),
               "success_final": mean(lambda r: r["final"]["task_success"]),
               "exec_corrupted": mean(lambda r: r["corrupted"]["executable"]),
               "len_reduction": mean(lambda r: (r["len_corrupted"] - r["len_final"]) / max(1, r["len_corrupted"])),
               "sec_per_plan": mean(lambda r: r["loop_seconds"])}
        row.update(convergence_shares([r["revisions"] for r in rs], [r["converged"] for r in rs]))
        rows.append(row)
    return rows


def markdown_table(rows: list[dict]) -> str:
    """The results table (percentages, 1 decimal)."""
    head = ("| judge | planner | model | plans | P (r1) | R (r1) | F1 (r1) | P (loop) | R (loop) | F1 (loop) "
            "| conv<=1 | conv<=2 | conv<=3 | exec corrupted | exec cleaned | success gold | success corrupted "
            "| success cleaned | length reduction | valid removed | s/plan |")
    sep = "|" + "---|" * 21
    pct = lambda x: f"{100 * x:.1f}"  # noqa: E731
    lines = [head, sep]
    for r in rows:
        lines.append("| " + " | ".join([
            r["judge"], r["planner"], r["model"], str(r["plans"]), pct(r["p1"]), pct(r["r1"]), pct(r["f1_1"]),
            pct(r["p"]), pct(r["r"]), pct(r["f1"]), pct(r["converged_le_1"]), pct(r["converged_le_2"]),
            pct(r["converged_le_3"]), pct(r["exec_corrupted"]), pct(r["exec_final"]), pct(r["success_gold"]),
            pct(r["success_corrupted"]), pct(r["success_final"]), pct(r["len_reduction"]),
            str(r["valid_removed"]), f"{r['sec_per_plan']:.2f}"]) + " |")
    return "\n".join(lines)


def run_benchmark(config: VerifyBenchConfig, run_dir: str | Path, *, executor: str = "local",
                  workers: int = 1, progress: bool = True, lm_cache: bool = False) -> list[dict]:
    """Run (or resume) the grid into ``run_dir`` and write ``run_dir/summary.md``.

    Returns the summary rows. Raises RunFileError when ``run_dir`` holds a
    different configuration.
    """
    from actionable.evaluation.datasets import goal_annotations as load_goal_annotations
    from actionable.evaluation.runner import run_episodes

    ann = load_goal_annotations()
    pids = select_programs(config.n_programs, config.seed, ann)
    eps = episodes(config, pids)
    manifest = {"fingerprint": config.fingerprint(), "kind": "verify", "config": asdict(config)}
    res = run_episodes(eps, VerifyWorker(lm_cache), run_dir, executor=executor, workers=workers,
                       manifest=manifest, progress=progress)
    rows = summarize(res.records)
    Path(run_dir, "summary.md").write_text(
        f"# Verification benchmark\n\nconfig: `{json.dumps(asdict(config))}`\n\n{markdown_table(rows)}\n"
        f"\nerrors: {res.errors} episode(s) failed (see run.jsonl)\n", encoding="utf-8")
    return rows
