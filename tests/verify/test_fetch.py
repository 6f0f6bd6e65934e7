"""A put whose object was never grabbed gets the grab inserted, with what the grab needs (a walk,
an opened container), not the put removed, when the put serves the goal (issue 26, 7 Dec, eighth
session). Each test fails on the code before: the judge removed the PUTBACK ("cannot execute") or
inserted the walk after the grab and then, binding the revised plan's "milk" to another milk,
removed every step."""

from actionable.cli import main
from actionable.core.program import Program
from actionable.verify.base import VerifyTask
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import SimulatorJudge
from actionable.verify.loop import make_loop


def _crits(plan: str, goal: str, scene: str | None):
    res = SimulatorJudge().judge(Program.parse(plan), VerifyTask(goal=goal, scene=scene))
    return [(c.kind, c.index, c.step.action, c.step.args[0].name) for c in res.critiques]


def test_a_put_of_an_object_in_a_closed_cabinet_gets_the_fetch_inserted():
    """The plate is in a closed kitchen cabinet: walk there, open it, grab the plate (3 insertions,
    cost 3) rather than remove the put that places the goal's plate (cost 5)."""
    got = _crits("walk to table\nput plate on table", "Put the plate on the table", "710_2")
    assert got == [(CritiqueKind.MISSING, 0, "WALK", "kitchen_cabinet"),
                   (CritiqueKind.MISSING, 0, "OPEN", "kitchen_cabinet"),
                   (CritiqueKind.MISSING, 0, "GRAB", "plate")], got


def test_a_put_in_the_fridge_gets_the_walk_and_the_grab_in_that_order():
    got = _crits("walk to kitchen\nwalk to fridge\nopen fridge\nput milk in fridge\nclose fridge",
                 "Put the milk in the fridge", None)
    assert not [g for g in got if g[0] is CritiqueKind.REMOVE], got
    assert [g[2:] for g in got] == [("WALK", "milk"), ("GRAB", "milk")], got


def test_the_loop_ends_at_the_goal_with_the_goals_milk():
    """Round 2 binds the inserted class-level steps to the milk the goal means (its conditions were
    derived from the text in round 1), so nothing is undone and the goal holds."""
    plan = Program.parse("walk to kitchen\nwalk to fridge\nopen fridge\nput milk in fridge\nclose fridge")
    res = make_loop("sim", "apply").run(plan, VerifyTask(goal="Put the milk in the fridge"))
    assert res.converged and res.revisions == 1
    assert [s.to_text() for s in res.final.steps][3:5] == ["walk to milk", "grab milk"]


def test_verify_cli_on_a_plan_file(tmp_path, capsys):
    f = tmp_path / "plan.txt"
    f.write_text("walk to table\nput plate on table\n", encoding="utf-8")
    assert main(["verify", str(f), "--goal", "Put the plate on the table", "--judge", "sim",
                 "--scene", "710_2"]) == 0
    out = capsys.readouterr().out
    assert "#REMOVE" not in out and "[GRAB] <plate>" in out and "goal after revision: met" in out
