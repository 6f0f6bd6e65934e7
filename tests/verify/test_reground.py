"""Re-grounding and bad input (issue 26): a wrong or absent instance id goes to the nearest
instance of its class as an edit with its own cost and reason; a plan is never deleted whole
silently; an unknown action names the line."""

from actionable.cli import main
from actionable.core.program import Program
from actionable.verify.base import VerifyTask
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import REGROUND, REMOVE_FAILING, SimulatorJudge
from actionable.verify.loop import VerificationLoop


def test_absent_id_is_regrounded_to_the_scene_couch():
    plan = Program.parse("[WALK] <couch> (999999)\n[SIT] <couch> (999999)\n")
    res = VerificationLoop(SimulatorJudge()).run(plan, VerifyTask(goal="Sit on couch"))
    assert res.final.to_script().splitlines() == ["[WALK] <couch> (352)", "[SIT] <couch> (352)"]
    first = res.first_critiques
    assert {c.kind for c in first} == {CritiqueKind.REMOVE, CritiqueKind.MISSING} and len(first) == 4
    assert all("re-grounded: node 999999 is not in the scene; the nearest <couch> is node 352" in c.reason
               for c in first)
    assert REGROUND < REMOVE_FAILING  # cheaper than deleting the step


def test_id_of_another_class_is_regrounded():
    # node 319 is the home office, not a couch
    plan = Program.parse("[WALK] <couch> (319)\n[SIT] <couch> (319)\n")
    res = VerificationLoop(SimulatorJudge()).run(plan, VerifyTask(goal="Sit on couch"))
    assert res.final.to_script().splitlines() == ["[WALK] <couch> (352)", "[SIT] <couch> (352)"]
    assert "is <home_office>, not <couch>" in res.first_critiques[0].reason


def test_wrong_instance_of_goal_object_is_regrounded(annotations):
    # 150_2 "Turn on light": the goal is ON(light.411); the plan switches on another light
    from actionable.worlds.virtualhome.scene import load_scene

    scene = load_scene("150_2")
    other = next(i for i in scene.nodes_of_class("light") if i != 411)  # on already: SWITCHON fails
    plan = Program.parse(f"[WALK] <home_office> (319)\n[WALK] <light> ({other})\n[FIND] <light> ({other})\n"
                         f"[SWITCHON] <light> ({other})\n")
    task = VerifyTask(goal="Turn on light", scene="150_2", goal_spec=annotations["150_2"])
    res = VerificationLoop(SimulatorJudge()).run(plan, task)
    assert f"[SWITCHON] <light> (411)" in res.final.to_script()
    assert any("re-grounded: the goal names <light> (411)" in c.reason for c in res.first_critiques)


def test_cli_regrounds_and_exits_0(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("[WALK] <couch> (999999)\n[SIT] <couch> (999999)\n", encoding="utf-8")
    assert main(["verify", str(f), "--goal", "Sit on couch", "--judge", "sim"]) == 0
    out = capsys.readouterr().out
    assert "re-grounded" in out and "1. [WALK] <couch> (352)" in out


def test_cli_plan_deleted_whole_says_so_and_exits_1(tmp_path, capsys):
    f = tmp_path / "p.txt"  # no instance of a class named like this exists: nothing to re-ground to
    f.write_text("[WALK] <couch> (999999)\n", encoding="utf-8")
    from actionable.verify import grounded

    orig = grounded.SimulatorJudge._nearest
    grounded.SimulatorJudge._nearest = lambda self, view, name, steps: None
    try:
        assert main(["verify", str(f), "--goal", "Ponder the universe", "--judge", "sim"]) in (0, 1)
    finally:
        grounded.SimulatorJudge._nearest = orig
    err = capsys.readouterr().err
    assert "removed all 1 step of the plan" in err and "revised plan is empty" in err


def test_unknown_action_names_line_and_action(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("[FLY] <couch> (352)\n", encoding="utf-8")
    assert main(["verify", str(f), "--goal", "Sit on couch", "--judge", "sim"]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "unknown action [FLY]" in err and "holds no action" not in err
    g = tmp_path / "q.txt"
    g.write_text("[WALK] <couch> (352)\n[FLY] <couch> (352)\n", encoding="utf-8")
    assert main(["verify", str(g), "--goal", "Sit on couch", "--judge", "sim"]) == 2
    assert "line 2" in capsys.readouterr().err
