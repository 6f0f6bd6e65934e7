"""The revision guard of the verification loop (issue 26, "no plan loses task success after
cleaning"; actionable/verify/guard.py): an LM planner's rewrite is replayed in the task's world
and kept only when it executes, meets at least as many goal conditions as the plan it revises and
as the critiques applied as written, and, gaining nothing, is not longer than the plan plus the
insertions asked for; otherwise the round takes the deterministic revision and says why.

Scripted-LM planners on the shared hand corpus (tests/corpora/verify_cases.txt) in VirtualHome, and
on a THOR kitchen plan through the world adapter (the same loop code, no world branch); a property
over the shared corpus; one real-model run (SmolLM2) on a real verify_new tune case."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from actionable.core.goals import check_goals
from actionable.core.program import Program
from actionable.evaluation.verification.cases import load_cases
from actionable.lm.scripted import ScriptedLM
from actionable.verify.base import VerifyTask
from actionable.verify.critique import Critique, CritiqueKind
from actionable.verify.guard import PlanOutcome, check_revision, referee_for, requested_inserts
from actionable.verify.judge import make_judge
from actionable.verify.loop import LLMPlanner, VerificationLoop, make_loop
from tests.verify.edits import apply_edits

CASES = {c.id: c for c in load_cases()}


@pytest.fixture(scope="module")
def ann():
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()


def _lm_text(lines) -> str:
    """What the planner LM writes after the prefilled ``1.``: the numbered plan."""
    return " " + "\n".join(ln if i == 1 else f"{i}. {ln}" for i, ln in enumerate(lines, 1)) + "\n"


def _c01_loop(ann, rewrite):
    """c01 (1057_1 "Watch TV"): the TV is switched on, then off (the judge: REMOVE the SWITCHOFF).
    The planner LM answers ``rewrite`` (lines) every round."""
    case = CASES["c01"]
    lm = ScriptedLM([_lm_text(rewrite)] * 5)
    res = VerificationLoop(make_judge("sim"), LLMPlanner(lm)).run(case.plan, case.task(ann))
    return case, res


def _met(steps, pid, ann):
    from actionable.worlds.virtualhome.replay import VirtualHomeReplay

    res = VirtualHomeReplay().replay(list(steps), pid)
    return res.executable, check_goals(ann[pid], res.final_graph, res.executed).met


APPLIED = ["[WALK] <home_office> (319)", "[WALK] <couch> (352)", "[FIND] <couch> (352)", "[SIT] <couch> (352)",
           "[FIND] <remote_control> (1000)", "[FIND] <television> (410)", "[SWITCHON] <television> (410)",
           "[TURNTO] <television> (410)", "[WATCH] <television> (410)"]


def test_a_rewrite_that_drops_a_goal_step_is_rejected_and_the_critiques_are_applied(ann):
    rewrite = [ln for ln in APPLIED if "WATCH" not in ln and "SWITCHON" not in ln]  # no WATCH: an action goal
    case, res = _c01_loop(ann, rewrite)
    assert res.rejected == 1 and res.rounds[0].rejected.startswith("revision rejected: it meets fewer goal "
                                                                   "conditions (2 of 4; the plan it revises meets 3)")
    assert "applied deterministically instead" in res.rounds[0].rejected
    assert res.final.to_script().splitlines() == APPLIED and res.converged  # the fallback: apply's revision
    assert res.to_dict()["rewrites_rejected"] == 1 and res.to_dict()["rounds"][0]["rejected"]
    assert _met(res.final.steps, case.program_id, ann) == (True, 4)


def test_a_rewrite_the_deterministic_revision_beats_is_rejected(ann):
    """Dropping the SWITCHON along with the critiqued SWITCHOFF meets as many conditions as the input
    (the TV is off in both) but one fewer than the critiques applied as written."""
    case, res = _c01_loop(ann, [ln for ln in APPLIED if "SWITCHON" not in ln])
    assert res.rejected == 1 and "than the critiques applied as written (4)" in res.rounds[0].rejected
    assert res.final.to_script().splitlines() == APPLIED


def test_a_rewrite_that_repeats_steps_is_rejected(ann):
    case, res = _c01_loop(ann, APPLIED + ["[TURNTO] <television> (410)"] * 10)
    assert res.rejected == 1
    assert ("it has 19 steps, more than the critiques applied as written (9), and meets no more goal "
            "conditions (4 of 4)") in res.rounds[0].rejected
    assert res.final.to_script().splitlines() == APPLIED


def test_a_good_rewrite_is_accepted(ann):
    """The critique applied, plus a step the goal does not need left out: as many goal conditions,
    shorter. The LM's plan is kept (not the deterministic one)."""
    good = [ln for ln in APPLIED if "remote" not in ln]
    case, res = _c01_loop(ann, good)
    assert res.rejected == 0 and not any(r.rejected for r in res.rounds)
    assert res.final.to_script().splitlines() == good and res.converged
    assert _met(res.final.steps, case.program_id, ann) == (True, 4)


def test_a_class_level_rewrite_is_kept_bound_to_the_instances_it_was_checked_on(ann):
    """The LM writes no ids for a step the plan never named: the guard replays it bound to the scene's
    instances, and the loop keeps that bound plan (an unbound step could not be scored)."""
    good = [ln for ln in APPLIED if "remote" not in ln]
    good[3:3] = ["[FIND] <pillow>"]  # a class the plan never named: no id to restore from the plan
    case, res = _c01_loop(ann, good)
    kept = res.rounds[0].plan_after
    assert res.rejected == 0 and len(kept) == 9, res.rounds[0].rejected
    assert all(s.is_resolved for s in kept.steps) and kept.steps[3].args[0].name == "pillow"


def test_the_rule_on_outcomes_alone():
    """The three conditions, on a referee that returns fixed outcomes (no simulator)."""
    class Fixed:
        def __init__(self, *outs):
            self.outs = {id(p): o for p, o in outs}

        def outcomes(self, plans, task):
            return [self.outs[id(p)] for p in plans]

    task = VerifyTask(goal="Watch TV")
    a, b, d = (Program.parse("walk to tv\nswitch on tv"), Program.parse("walk to tv\nswitch on tv\nwatch tv"),
               Program.parse("walk to tv"))
    o = lambda ex, met, p: PlanOutcome(ex, met, 3, p, None if ex else 0, None if ex else "not close")  # noqa: E731
    miss = [Critique(CritiqueKind.MISSING, 2, "[WATCH] <tv>", "goal", Program.parse("watch tv").steps[0])]
    assert requested_inserts(miss) == 1
    assert check_revision(Fixed((a, o(True, 2, a)), (b, o(True, 3, b))), a, b, miss, task).accepted
    v = check_revision(Fixed((a, o(True, 2, a)), (b, o(False, 3, b))), a, b, miss, task)
    assert not v.accepted and v.reason == "it does not execute (step 1: not close)"
    v = check_revision(Fixed((a, o(True, 2, a)), (d, o(True, 1, d))), a, d, miss, task)
    assert not v.accepted and "fewer goal conditions (1 of 3; the plan it revises meets 2)" in v.reason
    long = Program.parse("walk to tv\nswitch on tv\nwatch tv\nwatch tv")  # 4 > 2 + 1, no more goals
    v = check_revision(Fixed((a, o(True, 3, a)), (long, o(True, 3, long))), a, long, miss, task)
    assert not v.accepted and "it has 4 steps" in v.reason
    assert "it has 4 steps, more than the plan's 2 plus the 1 the critiques asked to insert" in v.reason
    # with the deterministic revision: no longer than it, when meeting no more
    v = check_revision(Fixed((a, o(True, 2, a)), (b, o(True, 3, b)), (long, o(True, 3, long))), a, long, miss,
                       task, fallback=b)
    assert not v.accepted and "it has 4 steps, more than the critiques applied as written (3)" in v.reason
    # meeting more than both baselines, a longer rewrite is not bounded (the next round judges it)
    assert check_revision(Fixed((a, o(True, 2, a)), (long, o(True, 3, long)), (b, o(True, 2, b))),
                          a, long, miss, task, fallback=b).accepted


def test_the_guard_works_through_the_world_protocol_in_thor():
    """The THOR kitchen through its adapter (the world judge as referee): the same loop code. A
    rewrite that drops the coffee machine's ToggleOn and one that repeats steps are rejected, with
    the ``sim`` judge and with the LLM judge (whose referee is a sim judge of the loop's world)."""
    from actionable.verify.worldsim import WorldJudge, make_adapter, read_world_plan

    ad = make_adapter("thor", "FloorPlan1")
    plan, _ = read_world_plan(ad, "PickUp(Mug)\nOpen(Fridge)\nClose(Fridge)\nPlace(CoffeeMachine)\n"
                                  "ToggleOn(CoffeeMachine)\n")
    task = VerifyTask(goal="Make coffee")
    want = ["[GRAB] <mug>", "[PUTBACK] <mug> <coffee_machine>", "[SWITCHON] <coffee_machine>"]
    drops = ["[GRAB] <mug>", "[PUTBACK] <mug> <coffee_machine>"]
    repeats = want + ["[SWITCHOFF] <coffee_machine>", "[SWITCHON] <coffee_machine>"] * 5
    judged = " OK\n2. #REMOVE: undone by step 3\n3. #REMOVE: undoes step 2\n4. OK\n5. OK"
    for judge in ("sim", "llm"):
        for rewrite, why in ((drops, "it meets fewer goal conditions (0 of 2; the plan it revises meets 2)"),
                             (repeats, "it has 13 steps, more than the critiques applied as written (3)")):
            outs = [judged, _lm_text(rewrite), " OK\n2. OK\n3. OK"] if judge == "llm" else [_lm_text(rewrite)] * 5
            loop = make_loop(judge, "llm", ScriptedLM(outs), 5, world=ad)
            assert isinstance(loop.referee, WorldJudge)
            res = loop.run(plan, task)
            assert res.rejected == 1 and why in res.rounds[0].rejected, (judge, res.rounds[0].rejected)
            assert res.final.to_script().splitlines() == want
            rep = ad.replay(res.final.steps, ad.goals("Make coffee")[0])
            assert rep.executable and rep.goals_met == 2


def test_the_referee_is_the_judges_simulator_or_a_sim_judge_of_the_world():
    from actionable.verify.grounded import SimulatorJudge

    sim = make_judge("sim")
    assert referee_for(sim) is sim
    hybrid = make_judge("hybrid", lm=ScriptedLM([]))
    assert referee_for(hybrid) is hybrid.sim
    assert isinstance(referee_for(make_judge("llm", lm=ScriptedLM([]))), SimulatorJudge)
    assert make_loop("sim", "apply").referee is not None  # the apply planner is never checked: no cost
    # an llm judge's critiques are checked with the default planner too (a clean-clone check: only
    # `--planner llm` got a referee, so `verify --judge llm` let SmolLM2 break a working plan)
    assert make_loop("llm", "apply", ScriptedLM([])).referee is not None
    assert make_loop("rule", "apply").referee is not None
    loop = VerificationLoop(make_judge("llm", lm=ScriptedLM([])), LLMPlanner(ScriptedLM([])))
    assert loop.referee is None  # no simulator given: revisions unchecked (a model note says so)


# ---------------------------------------------------------------------------- property
#: the shared hand corpus's cases judged against their program's annotated conditions
GOAL_CASES = sorted(c.id for c in CASES.values() if c.use_program_goals)
edits = st.lists(st.tuples(st.sampled_from(("drop", "dup", "move", "copy")), st.integers(0, 50),
                           st.integers(0, 50)), min_size=0, max_size=4)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(case_id=st.sampled_from(GOAL_CASES), ops=edits, garbage=st.booleans())
def test_with_any_lm_rewrite_cleaning_never_loses_goal_conditions(ann, case_id, ops, garbage):
    """A scripted planner LM that answers every round with the input plan edited at random (steps
    dropped, repeated, moved, copied; sometimes a line no parser reads): whatever it writes, the
    cleaned plan meets at least as many annotated goal conditions (exact ids, checked apart from the
    judge) as the input, and executes when the input did."""
    case = CASES[case_id]
    lines = apply_edits([s.to_script() for s in case.plan.steps], ops)
    if garbage:
        lines.insert(len(lines) // 2, "then the robot is happy")
    res = VerificationLoop(make_judge("sim"), LLMPlanner(ScriptedLM([_lm_text(lines)] * 5))).run(
        case.plan, case.task(ann))
    ex0, met0 = _met(case.plan.steps, case.program_id, ann)
    ex1, met1 = _met(res.final.steps, case.program_id, ann)
    assert met1 >= met0, (case_id, ops, res.final.to_script())
    assert ex1 or not ex0, (case_id, ops, res.final.to_script())


# ---------------------------------------------------------------------------- real model
@pytest.mark.slow
def test_smollm2_as_the_planner_loses_nothing_on_a_real_tune_case(ann):
    """The embedded SmolLM2-135M as the paper's planner on verify_new's tune case
    ``grounded-3_1-detour`` (a walk away and back before sitting on the couch): in the eighth
    session's Table 2 run its rewrite came back as 30 lines, most of them ``SIT couch``, and the
    cleaned plan lost its task success. With the guard the cleaned plan keeps the success and is
    no longer than the input; a rejected rewrite is counted and said."""
    from pathlib import Path

    from actionable.core.config import LMConfig, make_config
    from actionable.evaluation.verify_noise import load_cases as load_noise
    from actionable.lm.registry import load_lm

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "verify_new" / "cases.jsonl"
    case = next(c for c in load_noise(path, split="tune") if c.id == "grounded-3_1-detour")
    lm = load_lm("embedded", make_config(LMConfig, model="embedded", cache=False))
    task = VerifyTask(goal=case.goal, scene=case.scene, goal_spec=ann[case.program_id], program_id=case.program_id)
    plan = Program(tuple(case.steps()))
    res = VerificationLoop(make_judge("sim"), LLMPlanner(lm)).run(plan, task)
    ex0, met0 = _met(plan.steps, case.program_id, ann)
    ex1, met1 = _met(res.final.steps, case.program_id, ann)
    assert ex0 and met0 == len(ann[case.program_id].states) + len(ann[case.program_id].relations) + \
        len(ann[case.program_id].actions)  # the input is correct (a redundant detour)
    assert ex1 and met1 >= met0, res.final.to_script()
    assert len(res.final) <= len(plan), res.final.to_script()
    assert sum(s.action == "SIT" for s in res.final.steps) == 1, res.final.to_script()
    assert res.rejected == sum(1 for r in res.rounds if r.rejected.startswith("revision rejected: "))


def test_a_rewrite_that_ignores_a_removal_and_gains_nothing_is_rejected(ann):
    """In the first Table 2 run with the bound "the plan plus the insertions asked for", SmolLM2 kept
    a detour the judge had asked to remove (no goal lost, the plan no longer than the input). Now a
    rewrite that gains nothing may be no longer than the critiques applied as written: here one
    that keeps a step more than them (a second FIND of the TV) is rejected."""
    case, res = _c01_loop(ann, APPLIED[:7] + ["[FIND] <television> (410)"] + APPLIED[7:])
    assert res.rejected == 1 and "more than the critiques applied as written (9)" in res.rounds[0].rejected
    assert res.final.to_script().splitlines() == APPLIED


def test_an_llm_judges_critiques_that_lose_a_goal_condition_are_refused_and_the_plan_kept(ann):
    """An LLM judge (scripted) asks to remove the SWITCHON that "Watch TV" needs (SmolLM2 as judge
    asked to remove a needed faucet step on verify_new). With the guard, the round's revision is
    replayed against the plan it revises and refused: the plan is kept and the round says why.
    Without the guard (the paper's loop as published) the plan loses the condition. A needless
    removal that loses nothing (the SWITCHOFF) is kept."""
    case = CASES["c01"]
    bad = " " + "\n".join(f"{i}. {ln}" if i > 1 else ln for i, ln in enumerate(case.plan.to_script().splitlines(), 1))
    bad = bad.replace("[SWITCHON] <television> (410)", "[SWITCHON] <television> (410) #REMOVE: not needed") + "\n"
    task = case.task(ann)
    referee = referee_for(make_judge("llm", lm=ScriptedLM([])))
    res = VerificationLoop(make_judge("llm", lm=ScriptedLM([bad] * 5)), referee=referee).run(case.plan, task)
    # (without the SWITCHON the SWITCHOFF after it no longer executes either)
    assert res.rounds[0].rejected.startswith("critiques rejected: the plan executes and its revision does not"), \
        res.rounds[0].rejected
    assert res.rounds[0].rejected.endswith("the plan is kept")
    assert res.final.steps == case.plan.steps and res.critiques_rejected >= 1 and res.rejected == 0
    assert res.to_dict()["critiques_rejected"] == res.critiques_rejected
    unguarded = VerificationLoop(make_judge("llm", lm=ScriptedLM([bad] * 5)), referee=referee,
                                 guard=False).run(case.plan, task)
    assert _met(unguarded.final.steps, case.program_id, ann) != _met(case.plan.steps, case.program_id, ann)
    good = bad.replace(" #REMOVE: not needed", "").replace("[SWITCHOFF] <television> (410)",
                                                           "[SWITCHOFF] <television> (410) #REMOVE: undoes it")
    res = VerificationLoop(make_judge("llm", lm=ScriptedLM([good] * 5)), referee=referee).run(case.plan, task)
    assert not any(r.rejected for r in res.rounds) and "SWITCHOFF" not in res.final.to_script()
    watch = bad.replace(" #REMOVE: not needed", "").replace("[WATCH] <television> (410)",
                                                            "[WATCH] <television> (410) #REMOVE: not needed")
    res = VerificationLoop(make_judge("llm", lm=ScriptedLM([watch] * 5)), referee=referee).run(case.plan, task)
    assert res.rounds[0].rejected.startswith("critiques rejected: the revision meets fewer goal conditions"), \
        res.rounds[0].rejected
    assert res.final.steps == case.plan.steps


@pytest.mark.slow
def test_smollm2_as_the_judge_never_costs_a_real_plan_its_success(ann):
    """The embedded SmolLM2-135M as the paper's judge, with the default `apply` planner, as
    `actionable verify --judge llm` builds the loop (`make_loop`), on verify_new's tune case
    ``gold-660_1-far_twin``: in Table 2 (seventh/eighth sessions) its critiques removed the faucet's
    FIND and SWITCHON and the cleaned plan no longer executed. With the critique guard the loop has a
    referee and the cleaned plan executes and meets at least the input's goal conditions."""
    from pathlib import Path

    from actionable.core.config import LMConfig, make_config
    from actionable.evaluation.verify_noise import load_cases as load_noise
    from actionable.lm.registry import load_lm

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "verify_new" / "cases.jsonl"
    case = next(c for c in load_noise(path, split="tune") if c.id == "gold-660_1-far_twin")
    lm = load_lm("embedded", make_config(LMConfig, model="embedded", cache=False))
    task = VerifyTask(goal=case.goal, scene=case.scene, goal_spec=ann[case.program_id], program_id=case.program_id)
    plan = Program(tuple(case.steps()))
    loop = make_loop("llm", "apply", lm)
    assert loop.referee is not None
    res = loop.run(plan, task)
    ex0, met0 = _met(plan.steps, case.program_id, ann)
    ex1, met1 = _met(res.final.steps, case.program_id, ann)
    assert ex0 and ex1 and met1 >= met0, res.final.to_script()
    for r in res.rounds:  # a refused round keeps its plan, and says why
        if r.rejected.startswith("critiques rejected: "):
            assert r.plan_after.steps == r.plan_before.steps
