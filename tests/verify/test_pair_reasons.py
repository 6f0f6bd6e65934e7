"""Issue 16: each step of a removed pair carries its own reason (the second step of an undo
pair is not "undone by" itself)."""

from __future__ import annotations

from actionable.core.program import Program
from actionable.verify.judge import VerifyTask, make_judge

def test_undo_pair_steps_get_their_own_reasons():
    plan = Program.parse("walk to television\nswitch on television\nswitch off television\n"
                         "switch on television")
    res = make_judge("sim").judge(plan, VerifyTask(goal="Turn on TV"))
    lines = {c.index: c.describe() for c in res.critiques}
    assert set(lines) == {2, 3}, lines
    assert "is undone by step 4" in lines[2]
    assert "only undoes step 3" in lines[3] and "undone by step 4" not in lines[3]

def test_world_undo_pair_steps_get_their_own_reasons():
    from actionable.verify.worldsim import make_adapter, read_world_plan

    adapter = make_adapter("thor", "FloorPlan1")
    plan, _ = read_world_plan(adapter, "PickUp(Mug)\nOpen(Fridge)\nClose(Fridge)\nOpen(Fridge)\n")
    res = make_judge("sim", world=adapter).judge(plan, VerifyTask(goal="Pick up the mug"))
    lines = {c.index: c.describe() for c in res.critiques}
    assert "is undone by step 3" in lines[1], lines
    assert "only undoes step 2" in lines[2] and "undone by" not in lines[2], lines


def test_world_device_switched_on_and_off_is_a_use_not_an_undo():
    """Issue 14: a faucet run and stopped rinses; TEACh's humans do it, it is not an undo pair."""
    from actionable.verify.worldsim import make_adapter, read_world_plan

    adapter = make_adapter("thor", "FloorPlan1")
    plan, _ = read_world_plan(adapter, "PickUp(Mug)\nToggleOn(Faucet)\nToggleOff(Faucet)\n")
    res = make_judge("sim", world=adapter).judge(plan, VerifyTask(goal="Pick up the mug"))
    assert not [c for c in res.critiques if c.index in (1, 2)], [c.describe() for c in res.critiques]


def test_reasons_number_steps_as_the_plan_does_after_an_inserted_missing_step():
    """New-user report: after a #MISSING insertion the undo pair's reasons cited the shifted
    positions ("undone by step 9" in a 7-step plan, "only undoes step 7" on step 7 itself)."""
    import re

    plan = Program.parse("[WALK] <dining_room>\n[WALK] <coffe_maker>\n[FIND] <coffe_maker>\n"
                         "[SWITCHON] <coffe_maker>\n[GRAB] <cup>\n[SWITCHOFF] <coffe_maker>\n"
                         "[SWITCHON] <coffe_maker>")
    res = make_judge("sim").judge(plan, VerifyTask(goal="Make coffee"))
    assert any(c.kind.value == "MISSING" and c.index == 4 for c in res.critiques), res.critiques
    lines = {c.index: c.describe() for c in res.critiques if c.kind.value == "REMOVE"}
    assert "is undone by step 7" in lines[5], lines
    assert "only undoes step 6" in lines[6], lines
    for c in res.critiques:  # no reason cites a step the plan does not have, or the step itself
        cited = [int(n) for n in re.findall(r"\bstep (\d+)", c.reason)]
        assert all(1 <= n <= len(plan) for n in cited), c.describe()
        if c.kind.value == "REMOVE":
            assert c.index + 1 not in cited, c.describe()
