"""Minimal-edit judging, free-text goals, model notes and the import layout (issue 14)."""

import subprocess
import sys

from actionable.core.program import Program
from actionable.lm.scripted import ScriptedLM
from actionable.verify.base import VerifyTask, undoes
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import SimulatorJudge
from actionable.verify.judge import LLMJudge

TV = ("[WALK] <home_office> (319)\n[WALK] <television> (410)\n[SWITCHON] <television> (410)\n"
      "[SWITCHOFF] <television> (410)")


def test_free_text_goal_becomes_conditions_and_the_contradiction_is_removed():
    res = SimulatorJudge().judge(Program.parse(TV), VerifyTask(goal="Turn on the TV", scene="1057_1"))
    assert [(c.kind, c.index) for c in res.critiques] == [(CritiqueKind.REMOVE, 3)]
    assert res.goal_conditions == ("ON(television.410)",)
    assert "goal conditions checked" in res.warnings[0] and "goal text" in res.warnings[0]


def test_no_goal_conditions_is_said():
    res = SimulatorJudge().judge(Program.parse("[WALK] <television> (410)"),
                                 VerifyTask(goal="Ponder the universe", scene="1057_1"))
    assert res.goal_conditions == () and "none could be derived" in res.warnings[0]


def test_title_match_derives_the_nearest_programs_goals():
    plan = Program.parse("[WALK] <home_office> (319)\n[WALK] <light> (411)\n[SWITCHON] <light> (411)\n"
                         "[SWITCHOFF] <light> (411)")
    res = SimulatorJudge().judge(plan, VerifyTask(goal="turn on the light", scene="150_2"))
    assert "ON(light.411)" in res.goal_conditions and "packaged program" in res.warnings[0]
    assert [(c.kind, c.index) for c in res.critiques] == [(CritiqueKind.REMOVE, 3)]


def test_missing_grab_is_inserted_not_the_goal_step_removed():
    plan = Program.parse("walk to kitchen cabinet\nopen kitchen cabinet\nwalk to plate\nwalk to table\n"
                         "put plate on table")
    res = SimulatorJudge().judge(plan, VerifyTask(goal="Put the plate on the table", scene="710_2"))
    assert not [c for c in res.critiques if c.kind is CritiqueKind.REMOVE]
    assert [(c.step.action, c.step.args[0].name) for c in res.critiques] == [("GRAB", "plate")]


def test_undo_relation_both_orders_and_posture():
    on, off = Program.parse("[SWITCHON] <tv> (1)\n[SWITCHOFF] <tv> (1)").steps
    sit, stand = Program.parse("[SIT] <couch> (2)\n[STANDUP]").steps
    assert undoes(off, on) and undoes(on, off) and undoes(stand, sit) and undoes(sit, stand)
    assert not undoes(on, on)


def test_llm_parse_notes_are_model_notes_not_warnings():
    plan = Program.parse("[WALK] <tv> (1)\n[SWITCHON] <tv> (1)")
    res = LLMJudge(ScriptedLM([" OK\n2. #MISSING: undone by step 3"])).judge(plan, VerifyTask(goal="Watch TV"))
    assert res.warnings == () and any("could not read" in n for n in res.model_notes)


def test_no_import_cycle_between_judge_grounded_rules():
    code = ("import sys; import actionable.verify.grounded, actionable.verify.rules; "
            "print('actionable.verify.judge' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
