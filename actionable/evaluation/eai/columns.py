"""Columns (b) and (c) of the EAI-scored sequencing table, the hard subset, and the three-column run.

    run_task(plan, pid, split, name_only) -> dict     # one task: plan, (b), (c), EAI output text
    run(planner_name, ids, split, name_only) -> {"records", "eai"}
    summarise(records, eai, hard) -> dict
    min_steps(pid, depth=2) -> {"id": d, "class": d}  # d in 0..depth or None

Each task is planned in its own program's initial scene with the task text only (name, plus the
description unless ``name_only``) and the split's retrieval exclusions
(:mod:`actionable.evaluation.eai.folds`); the plan is executed there (no repair) and scored:

* (b) *exact*: the annotated goals on the annotated node ids, checked on the final state the
  planner's own instances reach (:func:`actionable.core.goals.check_goals`, ``match="id"``);
* (c) *class*: any node of the annotated class (``match="class"``, as ``eval sequencing``);
* (a) the same plan written in EAI's JSON format and scored by EAI's evaluator
  (:mod:`actionable.evaluation.eai.protocol`).

A task succeeds in (b)/(c) when the plan executes and every goal holds; an empty plan ("nothing to
do") executes and succeeds when the goals already hold, and is counted apart as well.

Hard subset: the tasks whose goals no admissible sequence of at most 2 steps meets
(:func:`min_steps`: breadth-first over the world's exact affordance from the initial scene, with the
steps over EAI's relevant objects of the task and walks to the rooms; no repair). Computed per run,
cached nowhere.
"""

from __future__ import annotations

import itertools
import time

from actionable.core.errors import PlanningError


_RELATIONS = frozenset({"ON", "INSIDE", "BETWEEN", "CLOSE", "FACING", "HOLDS_RH", "HOLDS_LH"})


def _domain(pid: str, world: str | None = None):
    from actionable.evaluation.datasets import scene_domain

    return scene_domain(pid, world)


def run_task(plan, pid: str, split: str = "lopo", name_only: bool = False, world: str | None = None) -> dict:
    """Plan ``pid``'s task with ``plan`` and score columns (b) and (c); also its EAI output text."""
    from actionable.core.goals import check_goals
    from actionable.core.program import Program
    from actionable.evaluation.datasets import dataset
    from actionable.evaluation.eai.folds import exclusions
    from actionable.evaluation.eai.planners import PlanTask
    from actionable.evaluation.eai.protocol import plan_output
    from actionable.evaluation.sequencing import score_plan
    from actionable.planning.affordance import ground_program

    ds = dataset(world)
    prog = ds.program(pid)
    spec = ds.goal_annotations()[pid]
    domain = _domain(pid, world)
    ex_src, ex_tasks = exclusions(pid, prog.task, split, world)
    task = PlanTask(pid, prog.task, "" if name_only else (prog.description or ""), split, ex_src, ex_tasks)
    t0 = time.perf_counter()
    refused = None
    try:
        program = plan(task, domain)
    except PlanningError as exc:  # a refusal is a failed task
        program, refused = Program(()), str(exc)[:300]
    seconds = time.perf_counter() - t0
    g = ground_program(program, domain, repair=False)
    steps = [s.unresolved() for s in g.steps]
    empty = not program.steps and refused is None
    out = {"steps": steps, "repaired": [False] * len(steps), "grounded": g,
           "extra": {"stop": "already_done" if empty else (program.meta or {}).get("stop")}}
    cls = score_plan(out, prog.unresolved(), spec, domain)
    executed = g.steps if g.executable else g.steps[:-1]
    exact = check_goals(spec, g.final_state.to_dict(), executed, match="id")
    return {"program_id": pid, "task": prog.task, "split": split, "name_only": name_only,
            "plan": [s.to_script() for s in g.steps], "length": len(program.steps), "empty": empty,
            "refused": refused, "executable": cls["executable"],
            "success_exact": bool(cls["executable"] and exact.task_success),
            "gc_exact": exact.goal_condition_success, "unmet_exact": list(exact.unmet)[:10],
            "success_class": bool(cls["task_success"]), "gc_class": cls["gc_all"], "lcs": cls["lcs"],
            "eai_output": plan_output(Program(tuple(program.steps))) if not refused else "{}",
            "seconds": round(seconds, 3)}


def run(planner: str, ids=None, split: str = "lopo", name_only: bool = False, settings: dict | None = None,
        progress=None, world: str | None = None) -> dict:
    """Run ``planner`` (a name of :data:`~actionable.evaluation.eai.planners.PLANNERS`) on ``ids``
    (default: EAI's 342) and score all three columns.

    Returns:
        ``{"records": [run_task dicts], "eai": EAIResult}`` (column a scores the same plans).
    """
    from actionable.evaluation.eai.planners import make_planner
    from actionable.evaluation.eai.protocol import evaluate_action_sequencing
    from actionable.evaluation.eai.source import task_ids

    plan = make_planner(planner, settings)
    ids = list(ids) if ids is not None else task_ids()
    records = []
    for i, pid in enumerate(ids):
        records.append(run_task(plan, pid, split, name_only, world))
        if progress:
            progress(i + 1, len(ids), records[-1])
    eai = evaluate_action_sequencing({r["program_id"]: r["eai_output"] for r in records}, ids)
    return {"records": records, "eai": eai}


def _relevant_steps(pid: str, aff) -> list:
    """Resolved admissible steps over EAI's relevant objects of ``pid`` (and walks to the rooms)."""
    from actionable.core.program import Argument, Step
    from actionable.evaluation.eai.source import relevant_nodes

    rel = [(c, i) for c, i in relevant_nodes(pid) if c != "character"]
    ids_of: dict[str, list[int]] = {}
    for c, i in rel:
        ids_of.setdefault(c, []).append(i)
    view = aff.view()
    out = []
    for s in aff.candidates(set(ids_of)):
        if not s.args:
            out.append(s)
            continue
        pools = [ids_of.get(a.name) or (view.nodes_of_class(a.name) if s.action in ("WALK", "RUN") else [])
                 for a in s.args]
        for combo in itertools.product(*pools):
            out.append(Step(s.action, tuple(Argument(a.name, i) for a, i in zip(s.args, combo))))
    return list(dict.fromkeys(out))


def min_steps(pid: str, depth: int = 2, world: str | None = None) -> dict:
    """Fewest admissible steps (0..``depth``) after which ``pid``'s annotated goals hold, by exact
    node ids (``"id"``) and by class (``"class"``); ``None`` when no sequence of at most ``depth``
    steps does (module doc). Cost: up to ``n + n**2`` simulator steps for ``n`` candidate steps
    (``depth`` 2), about 1 ms each."""
    from actionable.core.goals import check_goals
    from actionable.evaluation.datasets import dataset

    spec = dataset(world).goal_annotations()[pid]
    aff = _domain(pid, world).start(repair_budget=0)
    start = aff.state
    found: dict[str, int | None] = {"id": None, "class": None}

    def may_hold(view, m) -> bool:  # a necessary condition, read off the view (no graph copy)
        for g in spec.states:
            ids = [g.node_id] if m == "id" else view.nodes_of_class(g.class_name)
            if not any(g.state in view.states_of(i) for i in ids):
                return False
        return m == "class" or all(r.to_id in view.targets(r.from_id, r.relation) for r in spec.relations
                                   if r.relation in _RELATIONS)

    def check(state, done, d):
        view, g = aff.view(state), None
        for m in ("id", "class"):
            if found[m] is None and may_hold(view, m):
                g = g if g is not None else view.to_dict()
                if check_goals(spec, g, done, match=m).task_success:  # the one goal check decides
                    found[m] = d
        return found["id"] is not None and found["class"] is not None

    if check(start, [], 0) or depth < 1:
        return found
    steps = _relevant_steps(pid, aff)
    frontier = [(start, [])]
    for d in range(1, depth + 1):
        nxt, seen = [], set()
        for state, done in frontier:
            aff.state = state  # the affordance tries a step from its current state
            for s in steps:
                att = aff.attempt(s, repair=False)
                if not att.ok:
                    continue
                if check(att.state, done + [s], d):
                    aff.state = start
                    return found
                if d < depth and att.fingerprint not in seen:
                    seen.add(att.fingerprint)
                    nxt.append((att.state, done + [s]))
        frontier = nxt
    aff.state = start
    return found


def summarise(records: list[dict], eai=None, hard: dict | None = None) -> dict:
    """Rates (0..1) of a run: ``n``, executable, (b) ``exact``, (c) ``class``, their goal-condition
    means, LCS, length; ``empty`` (plans with no step) and ``empty_success_exact``; ``exact_nonempty``;
    with ``hard`` (pid -> :func:`min_steps`) the hard-subset rates ``hard_exact`` (tasks with
    ``min_steps["id"] is None``) and ``hard_class``; with ``eai`` (an EAIResult) EAI's ``eai_success``,
    ``eai_executable`` (over its ``eai_n`` scored tasks) and EAI's summary."""
    def mean(rows, key):
        xs = [float(r[key]) for r in rows if r.get(key) is not None]
        return sum(xs) / len(xs) if xs else None

    empty = [r for r in records if r["empty"]]
    non = [r for r in records if not r["empty"]]
    out = {"n": len(records), "executable": mean(records, "executable"), "exact": mean(records, "success_exact"),
           "class": mean(records, "success_class"), "gc_exact": mean(records, "gc_exact"),
           "gc_class": mean(records, "gc_class"), "lcs": mean(records, "lcs"), "length": mean(records, "length"),
           "refused": sum(1 for r in records if r["refused"]), "empty": len(empty),
           "empty_success_exact": sum(1 for r in empty if r["success_exact"]),
           "exact_nonempty": mean(non, "success_exact"), "seconds": mean(records, "seconds")}
    if hard is not None:
        hid = [r for r in records if r["program_id"] in hard and hard[r["program_id"]]["id"] is None]
        hcl = [r for r in records if r["program_id"] in hard and hard[r["program_id"]]["class"] is None]
        out.update(hard_n_exact=len(hid), hard_exact=mean(hid, "success_exact"),
                   hard_n_class=len(hcl), hard_class=mean(hcl, "success_class"))
    if eai is not None:
        out.update(eai_n=eai.n_scored, eai_success=eai.rate("success"), eai_executable=eai.rate("executable"),
                   eai_identical_to_gold=sum(1 for t in eai.tasks.values() if t["identical_to_gold"]),
                   eai_summary=eai.summary)
    return out


__all__ = ["min_steps", "run", "run_task", "summarise"]
