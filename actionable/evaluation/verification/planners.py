"""Cleaning real planners' plans with the judges (issue 14, item 4).

The plans are the ones the paper's planner variants (Huang et al. 2022,
*Language Models as Zero-Shot Planners*: ``translated``, ``full``, each with and
without ``+repair``) wrote for the goal-annotated tasks in the sequencing
benchmark (``actionable eval sequencing``, records of ``run.jsonl`` with
``status == "ok"``). Each plan is verified with the Judge/Planner loop of
arXiv 2509.02761 (Alg. 1; deterministic planner that applies the critiques)
and scored before and after cleaning with the sequencing benchmark's own
EAI-aligned scoring (:func:`actionable.evaluation.sequencing.score_plan`):
the class-level steps are grounded in the program's own initial scene
without repair (:func:`actionable.planning.affordance.ground_program`), goals
are matched by class, task success needs an executable plan.

Goal modes of the judge:

* ``annotated`` - the judge gets the program's annotated goal conditions, as
  ``actionable verify --program ID`` does;
* ``text`` - the judge gets only the task name and derives its goal
  conditions from it (:func:`actionable.worlds.virtualhome.goaltext.derive_goal_spec`), as
  ``actionable verify --goal "TASK"`` does.

A stored plan of a failed episode ends at its first failing step (the
benchmark keeps the grounded prefix), so the judge cleans that prefix; the
replayed "before" metrics equal the recorded ones (checked, see
:attr:`CleanedPlan.before_matches_record`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from actionable.core.errors import InputError

__all__ = ["PlannerRecord", "CleanedPlan", "load_records", "subsample", "score_steps", "clean_record",
           "summarise", "summary_markdown", "GOAL_MODES"]

GOAL_MODES = ("annotated", "text")
_METRICS = ("executable", "task_success", "gc_all", "gc_new", "lcs", "length")


@dataclass(frozen=True)
class PlannerRecord:
    """One planner episode: the plan (class-level step texts) for a program."""

    program_id: str
    row: str
    split: str
    plan: tuple[str, ...]
    recorded: dict = field(default_factory=dict)


def load_records(path: str | Path, rows: set[str] | None = None) -> list[PlannerRecord]:
    """The ``status == "ok"`` records of a sequencing ``run.jsonl``.

    A file another job is still appending to may end in a partial line: the
    last line is skipped when it is not valid JSON.

    Raises:
        InputError: missing file, or a malformed line that is not the last one.
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"{p}: no such run file (a sequencing run.jsonl)")
    lines = p.read_text().splitlines()
    out: list[PlannerRecord] = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            if n == len(lines):
                break
            raise InputError(f"{p}:{n}: not a JSON record ({exc.msg})") from exc
        res = rec.get("result") or {}
        if rec.get("status") != "ok" or "plan" not in res or (rows and res.get("row") not in rows):
            continue
        out.append(PlannerRecord(res["program_id"], res["row"], res.get("split", ""), tuple(res["plan"]),
                                 {k: res.get(k) for k in _METRICS}))
    return out


def subsample(records: list[PlannerRecord], n: int) -> list[PlannerRecord]:
    """``n`` non-empty plans taken at an even stride over the records sorted by
    (row, program id): deterministic, every planner row represented."""
    pool = sorted((r for r in records if r.plan), key=lambda r: (r.row, r.program_id))
    if n >= len(pool):
        return pool
    step = len(pool) / n
    return [pool[int(i * step)] for i in range(n)]


def score_steps(program_id: str, steps, annotations: dict, scene=None, gold=None) -> dict:
    """Sequencing-benchmark metrics of class-level ``steps`` in the program's scene
    (:func:`actionable.evaluation.sequencing.score_plan`, grounding without repair); ``scene`` and
    ``gold`` (the program's gold :class:`Program`) are loaded when not given."""
    from actionable.core.program import Program
    from actionable.evaluation.datasets import scene_domain as load_scene, program as load_program
    from actionable.evaluation.sequencing import score_plan
    from actionable.planning.affordance import ground_program

    scene = scene if scene is not None else load_scene(program_id)
    gold = gold if gold is not None else load_program(program_id)
    steps = [s.unresolved() for s in steps]
    g = ground_program(Program(tuple(steps)), scene, repair=False)
    out = {"steps": steps, "repaired": [False] * len(steps), "grounded": g}
    m = score_plan(out, gold.unresolved(), annotations.get(program_id), scene)
    return {k: m.get(k) for k in _METRICS}


@dataclass
class CleanedPlan:
    """Before/after metrics and the edits of one cleaned plan."""

    record: PlannerRecord
    judge: str
    mode: str
    before: dict
    after: dict
    removes: list[str]
    inserts: list[str]
    final_plan: list[str]
    rounds: int
    revisions: int
    converged: bool
    seconds: float
    before_matches_record: bool

    def to_dict(self) -> dict:
        return {"program_id": self.record.program_id, "row": self.record.row, "judge": self.judge,
                "mode": self.mode, "plan": list(self.record.plan), "final_plan": self.final_plan,
                "before": self.before, "after": self.after, "removes": self.removes, "inserts": self.inserts,
                "rounds": self.rounds, "revisions": self.revisions, "converged": self.converged,
                "seconds": round(self.seconds, 2), "before_matches_record": self.before_matches_record}


def clean_record(rec: PlannerRecord, judge, mode: str, annotations: dict, max_rounds: int = 5) -> CleanedPlan:
    """Verify ``rec.plan`` with ``judge`` in the Judge/Planner loop and score it
    before and after.

    Raises:
        InputError: ``mode`` not in :data:`GOAL_MODES`, or a step text that is not an
        admissible-action phrase (``ProgramParseError``).
    """
    from actionable.core.program import Program, parse_text_step
    from actionable.evaluation.datasets import scene_domain as load_scene, program as load_program
    from actionable.verify.base import VerifyTask
    from actionable.verify.critique import CritiqueKind
    from actionable.verify.loop import VerificationLoop

    if mode not in GOAL_MODES:
        raise InputError(f"goal mode {mode!r}: choose from {', '.join(GOAL_MODES)}")
    scene, gold = load_scene(rec.program_id), load_program(rec.program_id)
    steps = [parse_text_step(t) for t in rec.plan]
    before = score_steps(rec.program_id, steps, annotations, scene, gold)
    same = all(before[k] == rec.recorded.get(k) for k in ("executable", "task_success")
               if rec.recorded.get(k) is not None)
    t0 = time.perf_counter()
    removes: list[str] = []
    inserts: list[str] = []
    final, rounds, revisions, converged = steps, 0, 0, True
    if steps:
        task = VerifyTask(goal=gold.task, scene=rec.program_id,
                          goal_spec=annotations.get(rec.program_id) if mode == "annotated" else None,
                          program_id=rec.program_id)
        res = VerificationLoop(judge, max_rounds=max_rounds).run(Program(tuple(steps)), task)
        for rd in res.rounds:
            if rd.plan_after.steps == rd.plan_before.steps:
                continue
            for c in rd.new_critiques:
                text = c.step.unresolved().to_text() if c.step is not None else c.action
                (removes if c.kind is CritiqueKind.REMOVE else inserts).append(f"{text}: {c.reason}")
        final = [s.unresolved() for s in res.final.steps]
        rounds, revisions, converged = len(res.rounds), res.revisions, res.converged
    secs = time.perf_counter() - t0
    after = score_steps(rec.program_id, final, annotations, scene, gold)
    return CleanedPlan(rec, getattr(judge, "name", "?"), mode, before, after, removes, inserts,
                       [s.to_text() for s in final], rounds, revisions, converged, secs, same)


def _mean(xs) -> float | None:
    xs = [float(x) for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else None


def summarise(results: list[CleanedPlan]) -> list[dict]:
    """One row per (judge, mode, planner row) plus an ``all`` row per (judge, mode):
    means before / after (``*_0`` / ``*_1``), edit counts, plans changed, and the
    count of plans whose task success or executability fell."""
    groups: dict[tuple, list[CleanedPlan]] = {}
    for r in results:
        groups.setdefault((r.judge, r.mode, r.record.row), []).append(r)
        groups.setdefault((r.judge, r.mode, "all"), []).append(r)
    out = []
    for (judge, mode, row), rs in groups.items():
        d = {"judge": judge, "mode": mode, "row": row, "n": len(rs),
             "removes": sum(len(r.removes) for r in rs), "inserts": sum(len(r.inserts) for r in rs),
             "changed": sum(r.final_plan != list(r.record.plan) for r in rs),
             "ts_lost": sum(bool(r.before["task_success"]) and not r.after["task_success"] for r in rs),
             "exec_lost": sum(bool(r.before["executable"]) and not r.after["executable"] for r in rs),
             "seconds": _mean(r.seconds for r in rs), "record_mismatch": sum(not r.before_matches_record for r in rs)}
        for k in _METRICS:
            d[f"{k}_0"] = _mean(r.before[k] for r in rs)
            d[f"{k}_1"] = _mean(r.after[k] for r in rs)
        out.append(d)
    order = {"all": 99}
    return sorted(out, key=lambda d: (d["judge"], d["mode"], order.get(d["row"], 0), d["row"]))


def summary_markdown(rows: list[dict]) -> str:
    """The before -> after table (percentages; LCS and length as numbers)."""
    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}"

    lines = ["| judge | goals | planner row | n | executable % | task success % | GC all % | GC new % | LCS "
             "| length | removes | inserts | plans changed | TS lost | s/plan |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for d in rows:
        lines.append(
            f"| {d['judge']} | {d['mode']} | {d['row']} | {d['n']} | {pct(d['executable_0'])} → "
            f"{pct(d['executable_1'])} | {pct(d['task_success_0'])} → {pct(d['task_success_1'])} | "
            f"{pct(d['gc_all_0'])} → {pct(d['gc_all_1'])} | {pct(d['gc_new_0'])} → {pct(d['gc_new_1'])} | "
            f"{d['lcs_0']:.2f} → {d['lcs_1']:.2f} | {d['length_0']:.1f} → {d['length_1']:.1f} | {d['removes']} | "
            f"{d['inserts']} | {d['changed']} | {d['ts_lost']} | {d['seconds']:.1f} |")
    return "\n".join(lines)
