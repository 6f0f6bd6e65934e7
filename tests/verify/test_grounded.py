"""Simulator-grounded and hybrid judges on real scene data (VirtualHome evolving graph)."""

import pytest

from actionable.core.program import Program, Step
from actionable.worlds.virtualhome.scene import load_program, load_scene
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


def test_deleted_navigation_is_proposed_from_the_unmet_precondition(judge):
    # walk to the dining room, (walk to the faucet - deleted), turn the faucet on
    plan = Program.parse("[WALK] <dining_room> (201)\n[SWITCHON] <faucet> (232)")
    res = judge.judge(plan, VerifyTask(goal="Turn on the faucet", scene="27_2"))
    assert [(c.kind, c.index, c.step.to_script()) for c in res.critiques] == [
        (CritiqueKind.MISSING, 1, "[WALK] <faucet> (232)")]


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
    light = ("faucet", 232)  # dining-room faucet (off), not part of the goal
    toggle = [Step.of("walk", light), Step.of("switchon", light), Step.of("switchoff", light)]
    steps = list(gold.steps[:1]) + [Step.of("walk", ("bedroom", 67))] + list(gold.steps[1:9]) + toggle \
        + list(gold.steps[9:])
    res = judge.judge(gold.replace_steps(steps), task)
    assert sorted(c.index for c in res.critiques if c.kind is CritiqueKind.REMOVE) == [1, 10, 11, 12]
    assert not [c for c in res.critiques if c.kind is CritiqueKind.MISSING]


def test_toggle_pair_on_a_goal_object_is_removed_when_goals_stay_met(gold, judge, task):
    # issue 14: an undo pair on a goal object is a no-op when the goal is still met
    # without it (the later SWITCHON does the work); it used to be kept.
    wm = gold.steps[-1].args[0]
    steps = list(gold.steps[:9]) + [Step("SWITCHON", (wm,)), Step("SWITCHOFF", (wm,))] + list(gold.steps[9:])
    res = judge.judge(gold.replace_steps(steps), task)
    assert [(c.kind, c.index) for c in res.critiques] == [(CritiqueKind.REMOVE, 9), (CritiqueKind.REMOVE, 10)]


def test_contradiction_of_a_goal_is_removed_not_compensated(gold, judge, task):
    # switching the machine off at the end breaks ON(washing_machine): remove the
    # SWITCHOFF (cost 1) rather than insert another SWITCHON (an undo, cost 3)
    wm = gold.steps[-1].args[0]
    res = judge.judge(gold.replace_steps(gold.steps + (Step("SWITCHOFF", (wm,)),)), task)
    assert [(c.kind, c.index) for c in res.critiques] == [(CritiqueKind.REMOVE, len(gold))]
    assert "undoes the goal ON(washing_machine.1001)" in res.critiques[0].reason
    assert res.goal_conditions and "ON(washing_machine.1001)" in res.goal_conditions


def test_long_range_use_and_second_use_are_kept(judge):
    # 1003_2 (write an email): grabs mouse/keyboard early, uses them again and again later.
    plan = load_program("1003_2")
    assert judge.judge(plan, VerifyTask(goal="Write an email", scene="1003_2")).critiques == ()


def test_multi_step_preparation_is_kept(judge):
    # TV on, sit down, watch, stand up, TV off: the pair has a use in between (not a no-op toggle)
    plan = Program.parse("[WALK] <television> (410)\n[SWITCHON] <television> (410)\n[WALK] <couch> (352)\n"
                         "[SIT] <couch> (352)\n[WATCH] <television> (410)\n[STANDUP]\n"
                         "[WALK] <television> (410)\n[SWITCHOFF] <television> (410)")
    res = judge.judge(plan, VerifyTask(goal="Watch TV", scene="27_2"))
    assert res.critiques == () or all(c.step.action not in ("SWITCHON", "SWITCHOFF") for c in res.critiques)
    assert not [c for c in res.critiques if c.kind is CritiqueKind.REMOVE and c.step.action.startswith("SWITCH")]


def test_hybrid_keeps_only_llm_critiques_the_simulator_confirms(gold, task):
    touch = Step.of("touch", ("soap", 1002))
    # touch the soap after finding it, and again after grabbing it (a repeat: a weak signal)
    plan = gold.replace_steps(gold.steps[:6] + (touch,) + gold.steps[6:7] + (touch,) + gold.steps[7:])
    assert plan.steps[6] == plan.steps[8] == touch
    # the LLM flags every step and invents a missing one
    text = "\n".join(f"{i + 1}. #REMOVE: not needed" for i in range(len(plan)))[2:] + "\n#MISSING: [TOUCH] <soap>"
    hybrid = HybridJudge(LLMJudge(ScriptedLM([text])), SimulatorJudge())
    res = hybrid.judge(plan, task)
    assert [(c.kind, c.index, c.source) for c in res.critiques] == [(CritiqueKind.REMOVE, 8, "hybrid:llm")]
    assert any("rejected" in w for w in res.model_notes)  # about the model, not the user's input
    # the simulator judge alone does not flag a non-adjacent repeat
    assert SimulatorJudge().judge(plan, task).critiques == ()


def test_class_level_plan_is_resolved_and_repaired(judge):
    # no node ids: the resolver binds them; the walk to the mug, the walk to the fridge
    # and opening the fridge are missing
    plan = Program.parse("grab mug\nput mug in fridge")
    res = judge.judge(plan, VerifyTask(goal="Put the mug in the fridge"))
    got = [(c.kind, c.index, c.step.action, c.step.args[0].name) for c in res.critiques]
    assert got == [(CritiqueKind.MISSING, 0, "WALK", "mug"), (CritiqueKind.MISSING, 1, "WALK", "fridge"),
                   (CritiqueKind.MISSING, 1, "OPEN", "fridge")]
    from actionable.verify.critique import apply_critiques
    assert apply_critiques(plan, res.critiques).to_text() == [
        "walk to mug", "grab mug", "walk to fridge", "open fridge", "put mug in fridge"]
