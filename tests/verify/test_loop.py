"""Judge/Planner loop control flow with ScriptedLM (no model, no simulator)."""

import pytest

from actionable.core.program import Program
from actionable.core.errors import ConfigError
from actionable.lm.scripted import ScriptedLM
from actionable.verify.judge import JudgeResult, LLMJudge, VerifyTask, judge_prompt
from actionable.verify.loop import ApplyCritiquesPlanner, LLMPlanner, VerificationLoop

PLAN = Program.parse("walk to tv\nswitch on tv\nswitch off tv\nswitch on tv\nwatch tv")
TASK = VerifyTask(goal="Watch TV")


def test_converges_when_judge_has_no_new_critiques():
    # outputs continue the prefilled "1." of the judge's answer
    lm = ScriptedLM([" OK\n2. #REMOVE: undone\n3. #REMOVE: undoes 2\n4. OK\n5. OK", " OK\n2. OK\n3. OK"])
    res = VerificationLoop(LLMJudge(lm), ApplyCritiquesPlanner()).run(PLAN, TASK)
    assert res.converged and res.revisions == 1 and len(res.rounds) == 2
    assert res.final.to_text() == ["walk to tv", "switch on tv", "watch tv"]
    assert res.rounds[0].plan_after == res.final and not res.rounds[0].converged
    assert res.rounds[1].converged and res.rounds[1].new_critiques == ()
    assert lm.remaining == 0


def test_no_critiques_converges_in_round_one():
    res = VerificationLoop(LLMJudge(ScriptedLM([" OK\n2. OK"])), max_rounds=5).run(PLAN, TASK)
    assert res.converged and res.revisions == 0 and res.final == PLAN and len(res.rounds) == 1


def test_max_rounds_stop():
    # A judge that always finds a new (missing) step never converges.
    outs = [f" OK\n#MISSING: [TOUCH] <thing{i}>" for i in range(10)]
    res = VerificationLoop(LLMJudge(ScriptedLM(outs)), max_rounds=3).run(PLAN, TASK)
    assert not res.converged and len(res.rounds) == 3 and res.revisions == 3
    assert len(res.final) == len(PLAN) + 3


def test_repeated_critique_is_not_new():
    # The same critique again (the planner ignored it) ends the loop.
    class Stubborn:
        name = "stub"

        def judge(self, plan, task):
            from actionable.verify.critique import parse_judge_output
            return JudgeResult(parse_judge_output("#MISSING: [TOUCH] <lamp>", plan).critiques)

    class Ignore:
        name = "ignore"

        def revise(self, plan, critiques, task):
            from actionable.verify.loop import Revision
            return Revision(plan)

    res = VerificationLoop(Stubborn(), Ignore()).run(PLAN, TASK)
    assert res.converged and len(res.rounds) == 2 and res.revisions == 0


def test_bad_max_rounds():
    with pytest.raises(ConfigError):
        VerificationLoop(LLMJudge(ScriptedLM([])), max_rounds=0)


def test_llm_planner_parses_numbered_lines_and_keeps_ids():
    plan = Program.parse("[WALK] <tv> (3)\n[SWITCHON] <tv> (3)\n[SWITCHOFF] <tv> (3)")
    lm = ScriptedLM([" OK\n3. #REMOVE: undone\n", " [WALK] <tv>\n2. switch on tv\nbla bla"])
    res = VerificationLoop(LLMJudge(lm), LLMPlanner(lm), max_rounds=1).run(plan, TASK)
    assert res.final.to_script().splitlines() == ["[WALK] <tv> (3)", "[SWITCHON] <tv> (3)"]
    assert lm.prompts[0].endswith("Answer:\n1.") and lm.prompts[1].endswith("Revised plan:\n1.")
    assert any("unparseable" in w for w in res.rounds[0].model_notes)


def test_llm_planner_garbage_falls_back_to_apply():
    lm = ScriptedLM([" OK\n3. #REMOVE: undone", " I cannot do that."])
    res = VerificationLoop(LLMJudge(lm), LLMPlanner(lm), max_rounds=1).run(PLAN, TASK)
    assert res.final.to_text() == ["walk to tv", "switch on tv", "switch on tv", "watch tv"]
    assert any("deterministically" in w for w in res.rounds[0].model_notes)


def test_judge_prompt_numbers_actions_and_hides_ids():
    p = judge_prompt(Program.parse("[WALK] <tv> (3)"), "Watch TV")
    assert "1. [WALK] <tv>\n" in p and "(3)" not in p and "Goal: Watch TV" in p


def test_llm_judge_empty_plan():
    res = LLMJudge(ScriptedLM([])).judge(Program(), TASK)
    assert res.critiques == () and res.warnings


def test_loop_result_serialises():
    lm = ScriptedLM([" OK\n2. #REMOVE: x", " OK"])
    d = VerificationLoop(LLMJudge(lm)).run(PLAN, TASK).to_dict()
    assert d["rounds"][0]["critiques"][0]["kind"] == "REMOVE" and d["converged"] is True


def test_hybrid_survives_a_failing_llm():
    from actionable.verify.judge import HybridJudge
    from actionable.verify.critique import Critique, CritiqueKind

    class Sim:
        def judge(self, plan, task):
            return JudgeResult((Critique(CritiqueKind.REMOVE, 2, "x", "", plan.steps[2], "sim"),))

    res = HybridJudge(LLMJudge(ScriptedLM([])), Sim()).judge(PLAN, TASK)  # empty queue -> LMError
    assert [c.index for c in res.critiques] == [2] and "LLM judge failed" in res.warnings[-1]


def test_repeated_critique_on_a_changed_plan_is_applied_again():
    # A judge that flags at most 2 copies of a repeated step per round must not be
    # declared converged while copies remain: 5 copies, 2 a round -> 3 revisions.
    from actionable.verify.critique import Critique, CritiqueKind

    class Capped:
        name = "capped"

        def judge(self, plan, task):
            idx = [i for i, s in enumerate(plan.steps) if s.action == "SWITCHOFF"][:2]
            return JudgeResult(tuple(Critique(CritiqueKind.REMOVE, i, plan[i].to_script(), "repeat",
                                              plan[i]) for i in idx))

    plan = Program.parse("walk to tv\n" + "switch off tv\n" * 5 + "watch tv")
    res = VerificationLoop(Capped(), ApplyCritiquesPlanner(), max_rounds=5).run(plan, TASK)
    assert res.converged and len(res.rounds) == 4 and res.revisions == 3
    assert res.final.to_text() == ["walk to tv", "watch tv"]


def test_goals_a_judge_derived_in_round_one_stay_fixed_for_later_rounds():
    """The sim judge derives goal conditions from the goal text *for the plan it judges* (nearest
    annotated program of the title); a revised plan could be matched to another program. The loop
    keeps round 1's conditions, with their source, for every later round."""
    from actionable.verify.critique import Critique, CritiqueKind

    seen = []

    class Deriving:
        name = "fake"

        def judge(self, plan, task):
            seen.append((task.goal_spec, task.goal_source))
            if task.goal_spec is None:  # what the sim judge reports when it derived conditions
                crit = Critique(CritiqueKind.REMOVE, 1, plan.steps[1].to_script(), "redundant", plan.steps[1], "fake")
                return JudgeResult((crit,), derived=("spec of 98_1", "derived from program 98_1"))
            return JudgeResult(())

    res = VerificationLoop(Deriving(), ApplyCritiquesPlanner()).run(PLAN, TASK)
    assert res.converged and len(res.rounds) == 2
    assert seen == [(None, None), ("spec of 98_1", "derived from program 98_1")]
    annotated = VerifyTask(goal="Watch TV", goal_spec="annotated")  # given conditions are never replaced
    seen.clear()
    VerificationLoop(Deriving(), ApplyCritiquesPlanner()).run(PLAN, annotated)
    assert seen == [("annotated", None)]


def test_a_planner_revision_naming_an_object_the_scene_lacks_falls_back_to_the_critiques():
    """The 135M LLM planner wrote `music_stand_2` (turn-6 matrix run): the next judge round raised
    ResolutionError and the episode failed. Now that round's critiques are applied
    deterministically instead, with a note; the plan as given still raises (the caller's input)."""
    from actionable.core.errors import ResolutionError
    from actionable.verify.judge import make_judge

    plan = Program.parse("[WALK] <television> (410)\n[SWITCHON] <television> (410)\n"
                         "[SWITCHOFF] <television> (410)\n[SWITCHON] <television> (410)")
    task = VerifyTask(goal="Turn on TV")
    bad = ScriptedLM([" walk to television\n2. switch on unicorn_2\n"] * 3)
    # the revision guard (issue 26) rejects it before the next round judges it
    res = VerificationLoop(make_judge("sim"), LLMPlanner(bad), max_rounds=3).run(plan, task)
    assert all("unicorn" not in s.to_text() for s in res.final.steps)
    assert "names 'unicorn_2', which the scene lacks" in res.rounds[0].rejected and res.rejected == 1
    # without the guard, the next judge round's ResolutionError takes the same fallback
    bad = ScriptedLM([" walk to television\n2. switch on unicorn_2\n"] * 3)
    res = VerificationLoop(make_judge("sim"), LLMPlanner(bad), max_rounds=3, guard=False).run(plan, task)
    assert all("unicorn" not in s.to_text() for s in res.final.steps)
    assert any("names 'unicorn_2', which the scene lacks" in n for n in res.rounds[0].model_notes)
    assert res.rounds[0].plan_after == res.rounds[1].plan_before
    with pytest.raises(ResolutionError):
        VerificationLoop(make_judge("sim"), ApplyCritiquesPlanner()).run(Program.parse("grab unicorn"), task)
