"""Hand-written gold plans for three kitchen tasks in a TEACh floor plan meet their goal predicates."""

import pytest

from actionable.core.errors import WorldGoalError
from actionable.worlds import make

SCENE = "teach:17dfd631e1080392_3a62"  # FloorPlan18: no coffee made, plant dry, no water boiling
CAB = "Cabinet|+01.05|+00.42|+02.99"  # holds Plate_1, which holds Mug_1 (filled with water)

GOLD = {
    "Make coffee": ["GotoLocation(Mug_1)", f"Open({CAB})", "PickUp(Mug_1)", "GotoLocation(SinkBasin_1)",
                    "Pour(SinkBasin_1)", "GotoLocation(CoffeeMachine_1)", "Place(CoffeeMachine_1)",
                    "ToggleOff(CoffeeMachine_1)", "ToggleOn(CoffeeMachine_1)"],
    "Boil water": ["GotoLocation(Kettle_1)", "PickUp(Kettle_1)", "GotoLocation(SinkBasin_1)",
                   "Place(SinkBasin_1)", "PickUp(Kettle_1)", "GotoLocation(StoveBurner_4)",
                   "Place(StoveBurner_4)", "ToggleOn(StoveKnob_3)"],
    "Water the plant": ["GotoLocation(Mug_1)", f"Open({CAB})", "PickUp(Mug_1)", "GotoLocation(SinkBasin_1)",
                        "Pour(SinkBasin_1)", "Place(SinkBasin_1)", "PickUp(Mug_1)",
                        "GotoLocation(HousePlant_1)", "Pour(HousePlant_1)"],
}


@pytest.mark.parametrize("task", sorted(GOLD))
def test_gold_plan_executes_and_meets_goal(task):
    w = make("thor", scene=SCENE)
    w.reset(options={"goals": task})
    goals = w.goals(task)
    assert not w.check(goals).success  # not already done at the start
    rewards = []
    for line in GOLD[task]:
        *_, reward, _, _, info = w.step(line)
        assert info["executed"], (line, info["unmet_preconditions"])
        rewards.append(reward)
    res = w.check(goals)
    assert res.success and res.goal_condition_success == 1.0, res.to_dict()
    assert sum(rewards) == 1.0  # reward 1.0 once, on the step that first meets the goals


def test_goal_fails_without_the_key_step():
    w = make("thor", scene=SCENE)
    w.reset()
    for line in GOLD["Water the plant"][:-1]:
        w.step(line)
    assert not w.check(w.goals("Water the plant")).success
    w2 = make("thor", scene=SCENE)
    w2.reset()
    for line in GOLD["Make coffee"][:5]:  # mug emptied, never in the machine
        w2.step(line)
    assert w2.check(w2.goals("Make coffee")).goal_condition_success == 0.0


def test_unknown_task_is_a_typed_error():
    w = make("thor")
    with pytest.raises(WorldGoalError):
        w.goals("Fly to the moon")
    with pytest.raises(WorldGoalError):
        w.reset(options={"goals": "Fly to the moon"})
