"""Sources and build of the new verification set: gold programs, real planner output, the
LM noiser, and the case schedule (README ``benchmarks/data/verify_new``).

* **Planner plans** (:func:`planner_plans`): the grounded planner through
  :class:`~actionable.planning.session.PlanningSession` (leave-one-program-out retrieval) and
  the paper's ``translated`` / ``full`` variants (the bank without the program's title),
  each planned in the program's own scene and grounded on its node ids without repair. Only
  plans that execute and meet every annotated goal on the exact nodes become references.
* **LM noise** (:func:`lm_noise`): the embedded LM is asked, in the style of
  AnanthHariharan/Task-Agents' ``seq_redundancies``, to insert plausible redundant or
  unnecessary actions; its output is parsed strictly (README section 6), every rejected line
  is recorded with its reason.
* **Build** (:func:`build_cases`): a seeded schedule over references and noise kinds; every
  case is kept only when :func:`~actionable.evaluation.verify_noise.check_case` finds no
  violation. No judge is imported or run.

Command (regenerates ``benchmarks/data/verify_new/cases.jsonl``)::

    python -m actionable.evaluation.verify_noise_sources plans --out runs/verify_new/plans.jsonl --n 100 \
        --sources grounded,translated,full,translated+repair,full+repair
    python -m actionable.evaluation.verify_noise_sources build --plans runs/verify_new/plans.jsonl --seed 0
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Sequence

from actionable.core.errors import ConfigError
from actionable.evaluation.verify_noise import (CLEAN_KINDS, INSERT_KINDS, NoiseCase, PlanFacts, check_case,
                                                split_of, t1_alignment, write_cases)

PLANNER_SOURCES = ("grounded", "translated", "full")
#: the paper variants with the paper's ``--repair`` option (rule-based precondition repair when grounding)
REPAIR_SOURCES = ("translated+repair", "full+repair")
NOISE_PROMPT = (
    "Rewrite a robot's plan for a household task, inserting 1 to 3 plausible but redundant or "
    "unnecessary actions (repeat a step, visit or touch an object the task does not need, switch on or "
    "open something the task does not need). Keep every original line, in the same order. Write only "
    "the plan, one action a line, in exactly the same format.\n\n"
    "Task: Turn on light\nPlan:\n[WALK] <bedroom> (67)\n[WALK] <light> (245)\n[SWITCHON] <light> (245)\n"
    "Rewritten plan:\n[WALK] <bedroom> (67)\n[WALK] <tv> (248)\n[SWITCHON] <tv> (248)\n[WALK] <light> (245)\n"
    "[SWITCHON] <light> (245)\n[TURNTO] <light> (245)\n\n"
    "Task: {goal}\nPlan:\n{lines}\nRewritten plan:\n")
_SQUARE_ARG = re.compile(r"\[\s*([^\[\]<>()]+?)\s*\]")
_MARKER = re.compile(r"^\s*(?:step\s*)?(?:\d+\s*[.):]|[-*•])\s*", re.IGNORECASE)


def goal_text(prog) -> str:
    """Task name and description, as the verification benchmark tells a judge."""
    return prog.task + (". " + prog.description if prog.description else "")


# --- planner output -----------------------------------------------------------------------
def planner_plans(program_ids: Sequence[str], sources: Sequence[str] = PLANNER_SOURCES, out: str | Path | None = None,
                  session=None, progress=print) -> list[dict]:
    """Plan each program's task in its own scene with each planner source.

    Returns records ``{"program_id", "source", "plan": [script lines] | None, "correct",
    "why"}`` (``why``: ``correct``, ``not executable``, ``goals unmet``, ``refused: ...``).
    With ``out`` the records are appended to that JSONL file and programs already there are
    skipped (resumable).

    Raises:
        ConfigError: an unknown source.
    """
    bad = [s for s in sources if s not in PLANNER_SOURCES + REPAIR_SOURCES]
    if bad:
        raise ConfigError(f"unknown planner source(s) {bad}; choose from "
                          f"{', '.join(PLANNER_SOURCES + REPAIR_SOURCES)}")
    from actionable.core.config import LMConfig, PlannerConfig, make_config
    from actionable.core.program import Program
    from actionable.evaluation.datasets import program as load_program, scene_graph as load_scene
    from actionable.core.errors import PlanningError
    from actionable.planning.affordance import ground_program
    from actionable.planning.session import PlanningSession
    from actionable.planning.zero_shot import ZeroShotPlanner, default_cutoff

    done: dict[tuple[str, str], dict] = {}
    if out is not None and Path(out).is_file():
        for line in Path(out).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                done[(r["program_id"], r["source"])] = r
    session = session or PlanningSession(LMConfig(model="embedded"))
    recs = []
    for pid in program_ids:
        prog, scene = load_program(pid), load_scene(pid)
        facts = None
        for src in sources:
            if (pid, src) in done:
                recs.append(done[(pid, src)])
                continue
            steps, why = None, ""
            try:
                if src == "grounded":
                    res = session.grounded_planner().plan(prog.task, scene, description=prog.description or None,
                                                          exclude_sources={pid})
                    steps = list(res.resolved_program.steps) if res.resolved_program is not None else []
                else:
                    variant, repair = src.split("+")[0], src.endswith("+repair")
                    cfg = make_config(PlannerConfig, variant=variant, cutoff=default_cutoff("embedded"))
                    own = session.with_scene(scene)
                    res = ZeroShotPlanner(session.lm, own.index, session.bank, cfg).plan(
                        prog.task, scene=None, description=prog.description or None, exclude_task=prog.task)
                    g = ground_program(Program(tuple(res.steps_as_program())), scene, repair=repair)
                    steps = list(g.steps) if g.executable and not any(s.parse_error for s in res.steps) else None
                    why = "" if steps is not None else "not executable"
            except PlanningError as exc:
                why = f"refused: {str(exc)[:120]}"
            correct = False
            if steps:
                facts = facts or PlanFacts(pid)
                o = facts.outcome(steps)
                correct = o.correct
                why = "correct" if correct else ("goals unmet" if o.executes else "not executable")
            elif not why:
                why = "empty plan"
            rec = {"program_id": pid, "source": src, "correct": correct, "why": why,
                   "plan": [s.to_script() for s in steps] if steps else None}
            recs.append(rec)
            if out is not None:
                Path(out).parent.mkdir(parents=True, exist_ok=True)
                with open(out, "a", encoding="utf-8") as fh:
                    fh.write(json.dumps(rec) + "\n")
            if progress:
                progress(f"{pid} {src}: {why}")
    return recs


# --- the LM noiser --------------------------------------------------------------------------
def parse_lm_lines(text: str, facts: PlanFacts, ref) -> tuple[list, list[dict]]:
    """Strict parse of the LM's text (README section 6) -> ``(steps, rejected)``.

    ``rejected``: ``{"line", "why"}`` for every non-empty line that is not a VirtualHome step
    whose objects are classes of the scene. Ids are kept when the node has that class, else
    bound to the node R uses for the class, else the scene's lowest-id node of the class."""
    from actionable.core.program import Argument, Step, parse_step
    from actionable.core.errors import ProgramParseError

    sc = facts.scene
    by_class: dict[str, int] = {}
    for s in ref:
        for a in s.args:
            by_class.setdefault(a.name, a.id)
    steps, rejected = [], []
    for raw in text.splitlines():
        line = _MARKER.sub("", raw).strip()
        if not line:
            continue
        if line.startswith("["):  # the one tolerated slip: an object in [] instead of <>
            head, _, rest = line.partition("]")
            line = head + "]" + _SQUARE_ARG.sub(r"<\1>", rest)
        try:
            st = parse_step(line)
        except ProgramParseError as exc:
            rejected.append({"line": raw[:200], "why": f"not a step: {str(exc)[:80]}"})
            continue
        args, why = [], ""
        for a in st.args:
            if not sc.nodes_of_class(a.name):
                why = f"no <{a.name}> in the scene"
                break
            if a.id is not None and sc.class_of(a.id) == a.name:
                args.append(Argument(a.name, a.id))
            else:
                args.append(Argument(a.name, by_class.get(a.name, sc.nodes_of_class(a.name)[0])))
        if why:
            rejected.append({"line": raw[:200], "why": why})
            continue
        steps.append(Step(st.action, tuple(args)))
    return steps, rejected


def lm_noise(draft, facts: PlanFacts, lm, goal: str, seed: int, samples: int = 3):
    """Ask ``lm`` for inserted redundant actions and keep the confirmed ones.

    Returns ``(draft with one lm_insert edit per kept run of inserted lines | None, record)``;
    ``record`` holds the prompt, each sample's raw text, the parsed and rejected lines and why
    insertions were dropped (``breaks the plan``: R with them is not correct)."""
    from actionable.evaluation.verify_noise_kinds import Entry
    from actionable.lm.base import GenerationParams
    from actionable.lm.embedded import chat_prompt

    ref = [e.step for e in draft.entries if e.tag in ("ref", "del")]
    lines = "\n".join(s.to_script() for s in ref)
    # the answer is prefilled with R's first line, so that the model continues in the plan's format
    prompt = chat_prompt(NOISE_PROMPT.format(goal=goal, lines=lines)) + ref[0].to_script() + "\n"
    record: dict = {"prompt": NOISE_PROMPT.format(goal=goal, lines=lines), "samples": []}
    for k in range(samples):
        params = GenerationParams(n=1, temperature=0.7, top_p=0.95, max_tokens=min(400, 14 * (len(ref) + 4)),
                                  stop=("<|im_end|>",), presence_penalty=0.0, frequency_penalty=0.0,
                                  seed=seed * 1000 + k)
        text = ref[0].to_script() + "\n" + lm.generate(prompt, params)[0].text
        steps, rejected = parse_lm_lines(text, facts, ref)
        sample = {"seed": params.seed, "raw": text[:4000], "parsed": [s.to_script() for s in steps],
                  "rejected": rejected}
        record["samples"].append(sample)
        al = t1_alignment([s.to_script() for s in ref], [s.to_script() for s in steps])
        matched = {j: i for i, j in al}
        # the model may only insert: R's steps stay in order, each run of unmatched lines is
        # placed after the R steps before it (dropped or rewritten R lines are put back)
        runs, cur, ri = [], [], 0
        for j, s in enumerate(steps):
            if j in matched:
                if cur:
                    runs.append((ri, cur))
                    cur = []
                ri = matched[j] + 1
            else:
                cur.append(s)
        if cur:
            runs.append((ri, cur))
        # place the runs right to left, each a candidate edit
        d = draft
        kept = 0
        for pos, run in sorted(runs, key=lambda r: -r[0]):  # right to left: earlier positions stay valid
            p = _entry_pos(d, pos)
            e = d.next_edit
            trial = d.add(list(d.entries[:p]) + [Entry(s, "ins", e) for s in run] + list(d.entries[p:]),
                          "lm_insert", {"sample": k, "lines": [s.to_script() for s in run]})
            if facts.correct(trial.with_only(e)) and facts.correct(
                    [en.step for en in trial.entries if en.tag in ("ref", "del", "ins")]):
                d, kept = trial, kept + 1
            else:
                rejected.extend({"line": s.to_script(), "why": "breaks the plan (R with it is not correct)"}
                                for s in run)
        if kept:
            return d, record
    return None, record


def _entry_pos(d, n_ref_before: int) -> int:
    """Position in ``d.entries`` just after its ``n_ref_before``-th R entry (R = ref/del)."""
    if n_ref_before == 0:
        return 0
    k = 0
    for idx, e in enumerate(d.entries):
        if e.tag in ("ref", "del"):
            k += 1
            if k == n_ref_before:
                return idx + 1
    return len(d.entries)


# --- the build ------------------------------------------------------------------------------
#: cases wanted per kind, for gold references and for planner references (all three sources)
TARGETS = {
    "gold": {"side_effect": 14, "posture": 12, "far_twin": 10, "detour": 8, "missing": 12, "missing_prep": 10,
             "swap": 10, "wrong_instance": 10, "lm_insert": 12, "clean": 14, "early_pickup": 6, "harmless_swap": 5},
    "planner": {"side_effect": 10, "posture": 8, "far_twin": 6, "detour": 5, "missing": 8, "missing_prep": 6,
                "swap": 6, "wrong_instance": 6, "lm_insert": 8, "clean": 10, "early_pickup": 3, "harmless_swap": 3},
}
PER_REFERENCE = 2
COMBO_P = 0.25


def references(seed: int, plans: str | Path | None, n_gold: int) -> tuple[list[tuple[str, str, list]], dict]:
    """``[(source, program id, steps of R)]``: the first ``n_gold`` programs of the seeded order
    whose gold program is correct, then the correct planner plans of the plans file (each
    (program, plan) once), and counts of what was not used and why."""
    from actionable.evaluation.datasets import program as load_program
    from actionable.evaluation.verify_noise import _parse_lines

    log: dict = {"gold": {}, "planner": {}}
    refs = []
    for pid in program_order(seed)[:n_gold]:
        steps = list(load_program(pid).steps)
        ok = PlanFacts(pid).correct(steps)
        log["gold"]["correct" if ok else "not correct"] = log["gold"].get("correct" if ok else "not correct", 0) + 1
        if ok:
            refs.append(("gold", pid, steps))
    seen = set()
    recs = []
    if plans is not None:
        recs = [json.loads(x) for x in Path(plans).read_text(encoding="utf-8").splitlines() if x.strip()]
    rank = {p: i for i, p in enumerate(program_order(seed))}
    order = PLANNER_SOURCES + REPAIR_SOURCES
    for r in sorted(recs, key=lambda r: (rank.get(r["program_id"], 1e9), order.index(r["source"]))):
        key = f"{r['source']}: {r['why'].split(':')[0]}"
        log["planner"][key] = log["planner"].get(key, 0) + 1
        if r["correct"] and (r["program_id"], tuple(r["plan"])) not in seen:
            seen.add((r["program_id"], tuple(r["plan"])))
            steps = _parse_lines(r["plan"])
            if PlanFacts(r["program_id"]).own_redundancy(steps) is not None:
                log["planner"][f"{r['source']}: correct, own redundancy"] = \
                    log["planner"].get(f"{r['source']}: correct, own redundancy", 0) + 1
                continue
            refs.append((r["source"], r["program_id"], steps))
    # the rare paper-variant references first, so that the planner quotas do not fill on grounded plans alone
    refs.sort(key=lambda x: (x[0] == "grounded") if x[0] != "gold" else -1)
    return refs, log


def _case(draft, source: str, pid: str, ref, goal: str, facts: PlanFacts, kinds, extra_facts=None, lm_rec=None):
    from actionable.evaluation.verify_noise_kinds import materialize

    m = materialize(draft)
    o = facts.outcome(_lines_of(m["plan"]))
    fx = {"plan_executes": o.executes, "plan_goals_met": len(o.met), "goals_total": o.total, **(extra_facts or {})}
    cid = f"{source.replace('+', '_')}-{pid}-{'+'.join(kinds)}"
    if source.endswith("+repair"):
        fx["planner_repair"] = True
    return NoiseCase(cid, source.split("+")[0], pid, pid, goal, tuple(m["plan"]), tuple(m["labels"]), tuple(m["reasons"]),
                     tuple(m["edit_ids"]), tuple(m["missing"]), tuple(m["edits"]), tuple(kinds), split_of(pid),
                     tuple(s.to_script() for s in ref), fx, lm_rec)


def _lines_of(lines):
    from actionable.evaluation.verify_noise import _parse_lines

    return _parse_lines(lines)


def build_cases(seed: int, plans: str | Path | None, n_gold: int = 120, lm=None, progress=print,
                targets: dict | None = None) -> tuple[list[NoiseCase], dict]:
    """Generate and label the set (README sections 1-8). Deterministic for ``seed``, the
    plans file and the LM (``lm=None`` skips ``lm_insert``).

    Returns ``(cases, log)``; ``log`` counts references, attempts and every dropped edit or
    case with the rule it broke."""
    from actionable.evaluation.datasets import program as load_program
    from actionable.evaluation.verify_noise_kinds import KIND_FUNCS, Draft, prep_steps

    targets = targets or TARGETS
    refs, log = references(seed, plans, n_gold)
    log.update({"attempts": {}, "failed": {}, "dropped": [], "lm": {"samples": 0, "parsed": 0, "rejected": {}}})
    counts = {g: {k: 0 for k in targets[g]} for g in targets}
    cases: list[NoiseCase] = []
    facts_of: dict[str, PlanFacts] = {}
    for source, pid, ref in refs:
        group = "gold" if source == "gold" else "planner"
        want, have = targets[group], counts[group]
        rng = random.Random(f"{seed}:{source}:{pid}")
        facts = facts_of.setdefault(pid, PlanFacts(pid))
        goal = goal_text(load_program(pid))
        tried: set[str] = set()
        made = 0
        while made < PER_REFERENCE:
            open_kinds = [k for k in want if have[k] < want[k] and k not in tried and (k != "lm_insert" or lm)]
            if not open_kinds:
                break
            open_kinds.sort(key=lambda k: (have[k] / want[k], rng.random()))
            kind = open_kinds[0]
            tried.add(kind)
            log["attempts"][kind] = log["attempts"].get(kind, 0) + 1
            case = _make(kind, source, pid, ref, goal, facts, rng, lm, log, Draft, KIND_FUNCS, prep_steps, seed)
            if case is None:
                log["failed"][kind] = log["failed"].get(kind, 0) + 1
                continue
            probs = check_case(case, facts)
            if probs:
                log["dropped"].append({"id": case.id, "why": probs})
                continue
            if any(c.id == case.id for c in cases):
                continue
            cases.append(case)
            have[kind] += 1
            made += 1
            if progress:
                progress(f"{case.id}: {len(case.remove_positives)} remove, {len(case.missing)} missing "
                         f"[{case.split}]")
    log["counts"] = counts
    return cases, log


def _make(kind, source, pid, ref, goal, facts, rng, lm, log, Draft, funcs, prep_steps, seed):
    d0 = Draft.of(ref)
    if kind == "clean":
        prep = prep_steps(ref, facts)
        name = "prep_needed" if prep else ("clean_gold" if source == "gold" else "clean_planner")
        return _case(d0, source, pid, ref, goal, facts, [name], {"needed_prep": prep} if prep else None)
    lm_rec = None
    if kind == "lm_insert":
        d, lm_rec = lm_noise(d0, facts, lm, goal, seed=_lm_seed(seed, source, pid))
        _lm_stats(log, lm_rec)
    else:
        d = funcs[kind](d0, facts, rng)
    if d is None:
        return None
    kinds = [kind]
    if kind not in CLEAN_KINDS and rng.random() < COMBO_P:
        extra = [k for k in ("side_effect", "posture", "far_twin", "detour", "missing", "missing_prep",
                             "swap", "wrong_instance") if k != kind]
        k2 = rng.choice(extra)
        d2 = funcs[k2](d, facts, rng)
        if d2 is not None:
            d, kinds = d2, [kind, k2]
    return _case(d, source, pid, ref, goal, facts, kinds, None, _trim(lm_rec))


def _lm_seed(seed: int, source: str, pid: str) -> int:
    import hashlib

    return int(hashlib.sha256(f"{seed}:{source}:{pid}".encode()).hexdigest()[:6], 16)


def _lm_stats(log: dict, rec: dict) -> None:
    for s in rec["samples"]:
        log["lm"]["samples"] += 1
        log["lm"]["parsed"] += len(s["parsed"])
        for r in s["rejected"]:
            why = r["why"].split(":")[0].split(" (")[0]
            why = "unknown class" if why.startswith("no <") else why
            log["lm"]["rejected"][why] = log["lm"]["rejected"].get(why, 0) + 1


def _trim(rec: dict | None) -> dict | None:
    if rec is None:
        return None
    return {"prompt": rec["prompt"], "samples": [{**s, "raw": s["raw"][:1500]} for s in rec["samples"]]}


def program_order(seed: int) -> list[str]:
    """The 342 goal-annotated program ids in the seeded order the build walks."""
    from actionable.evaluation.datasets import program_ids as list_program_ids
    from actionable.evaluation.datasets import goal_annotations as load_goal_annotations

    ann = load_goal_annotations()
    ids = [p for p in list_program_ids() if p in ann]
    random.Random(f"verify_new:{seed}").shuffle(ids)
    return ids


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m actionable.evaluation.verify_noise_sources",
                                 description="Build the new labelled verification set (issue 26).")
    sub = ap.add_subparsers(dest="cmd", required=True)
    pp = sub.add_parser("plans", help="plan the first N programs (seeded order) with the planner sources")
    pp.add_argument("--out", required=True)
    pp.add_argument("--n", type=int, default=100)
    pp.add_argument("--start", type=int, default=0, help="skip the first START programs (parallel runs)")
    pp.add_argument("--seed", type=int, default=0)
    pp.add_argument("--sources", default=",".join(PLANNER_SOURCES))
    pb = sub.add_parser("build", help="generate and label the cases")
    pb.add_argument("--plans", default=None, help="JSONL written by the plans command (none: gold only)")
    pb.add_argument("--seed", type=int, default=0)
    pb.add_argument("--out", default=None, help="default: benchmarks/data/verify_new/cases.jsonl")
    pb.add_argument("--n-gold", type=int, default=120, help="gold references to walk")
    pb.add_argument("--no-lm", action="store_true", help="skip the LM noiser (tests)")
    pb.add_argument("--log", default=None, help="write the build log (references, attempts, drops, LM rejects)")
    a = ap.parse_args(argv)
    if a.cmd == "plans":
        srcs = [s.strip() for s in a.sources.split(",") if s.strip()]
        planner_plans(program_order(a.seed)[a.start: a.n], srcs, out=a.out)
        return 0
    from actionable.evaluation.verify_noise import default_path

    lm = None
    if not a.no_lm:
        from actionable.core.config import LMConfig
        from actionable.lm.registry import load_lm

        lm = load_lm("embedded", LMConfig(cache=True))  # cached: a rerun gives the same text, fast
    cases, log = build_cases(a.seed, a.plans, n_gold=a.n_gold, lm=lm)
    out = a.out or default_path()
    write_cases(cases, out)
    if a.log:
        Path(a.log).write_text(json.dumps(log, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{len(cases)} cases -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
