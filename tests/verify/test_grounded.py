"""Simulator-grounded and hybrid judges on real scene data (VirtualHome evolving graph)."""

import pytest

from actionable.env.program import Program, Step
from actionable.env.scene import load_program, load_scene
from actionable.lm.scripted import ScriptedLM
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import SimulatorJudge
from actionable.verify.judge import HybridJudge, LLMJudge, VerifyTask

PID = "27_2"  # wash clothes: soap and jacket into the washing machine, close, switch on


@pytest.fixture(scope="module")
def gold():
    return load_program(PID)


@pytest.fixture(scope="module")
def judge():
    return SimulatorJudge()


@pytest.fixture(scope="module")
def task(annotations):
    return VerifyTask(goal="Wash clothes", scene=load_scene(PID), goal_spec=annotations[PID])


def _without(plan, action, name):
    k = next(i for i, s in enumerate(plan.steps) if s.action == action and s.args[0].name == name)
    return plan.replace_steps(plan.steps[:k] + plan.steps[k + 1:]), k


def _kinds(res):
    return [(c.kind, c.index, c.step.action if c.step else None) for c in res.critiques]


def test_gold_plan_gets_no_critique(gold, judge, task):
    assert judge.judge(gold, task).critiques == ()


def test_deleted_navigation_is_proposed_from_the_unmet_precondition(gold, judge, task):
    plan, k = _without(gold, "FIND", "soap")  # GRAB soap then fails: not close to soap
    res = judge.judge(plan, task)
    miss = [c for c in res.critiques if c.kind is CritiqueKind.MISSING]
    assert len(miss) == 1 and miss[0].step.action == "WALK" and miss[0].step.args[0].name == "soap"
    assert miss[0].index == k
    assert not [c for c in res.critiques if c.kind is CritiqueKind.REMOVE]


def test_deleted_grab_is_proposed(gold, judge, task):
    plan, _ = _without(gold, "GRAB", "soap")  # PUTBACK soap then fails: not holding it
    miss = [c for c in judge.judge(plan, task).critiques if c.kind is CritiqueKind.MISSING]
    assert [(c.step.action, c.step.args[0].name) for c in miss] == [("GRAB", "soap")]


def test_deleted_goal_step_is_proposed_from_goal_conditions(gold, judge, task):
    plan, _ = _without(gold, "SWITCHON", "washing_machine")  # still executes; goal ON unmet
    miss = [c for c in judge.judge(plan, task).critiques if c.kind is CritiqueKind.MISSING]
    assert [(c.step.action, c.step.args[0].id) for c in miss] == [("SWITCHON", 1001)]


def test_already_satisfied_step_is_removed(gold, judge, task):
    plan = gold.replace_steps(gold.steps + (gold.steps[-1],))  # switch on twice
    res = judge.judge(plan, task)
    assert _kinds(res) == [(CritiqueKind.REMOVE, len(gold), "SWITCHON")]


def test_toggle_pair_and_detour_are_removed(gold, judge, task):
    wm = gold.steps[-1].args[0]
    extra = [Step("SWITCHON", (wm,)), Step("SWITCHOFF", (wm,))]
    # toggle after OPEN (the machine is open, no use in between) and a detour before walking to the basket
    steps = list(gold.steps[:1]) + [Step.of("walk", ("bedroom", 67))] + list(gold.steps[1:7]) + extra \
        + list(gold.steps[7:])
    res = judge.judge(gold.replace_steps(steps), task)
    assert sorted(c.index for c in res.critiques if c.kind is CritiqueKind.REMOVE) == [1, 8, 9]


def test_long_range_use_and_second_use_are_kept(judge):
    # 1003_2 (write an email): grabs mouse/keyboard early, uses them again and again later.
    plan = load_program("1003_2")
    assert judge.judge(plan, VerifyTask(goal="Write an email", scene="1003_2")).critiques == ()


def test_multi_step_preparation_is_kept(judge):
    # light on, read, light off: the pair has a use in between (not a no-op toggle)
    plan = Program.parse("walk to novel\ngrab novel\nwalk to floor lamp\nswitch on floor lamp\n"
                         "read novel\nswitch off floor lamp")
    res = judge.judge(plan, VerifyTask(goal="Read a book", scene="16_2"))
    assert not [c for c in res.critiques if c.kind is CritiqueKind.REMOVE and c.step.action.startswith("SWITCH")]


def test_hybrid_keeps_only_llm_critiques_the_simulator_confirms(gold, task):
    plan = gold.replace_steps(gold.steps[:5] + (Step.of("lookat", ("soap", 1002)),) + gold.steps[5:])
    # the LLM flags every step and invents a missing one
    text = "\n".join(f"{i + 1}. #REMOVE: not needed" for i in range(len(plan))) + "\n#MISSING: [TOUCH] <soap>"
    hybrid = HybridJudge(LLMJudge(ScriptedLM([text])), SimulatorJudge())
    res = hybrid.judge(plan, task)
    assert all(c.kind is CritiqueKind.REMOVE for c in res.critiques)
    # gold steps survive: none of the 14 gold steps may be removed
    gold_idx = set(range(len(plan))) - {5}
    assert not {c.index for c in res.critiques} & gold_idx
    assert any("rejected" in w for w in res.warnings)
