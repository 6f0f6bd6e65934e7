"""The grounded planner end to end with the real embedded planning LM
(SmolLM2-135M) and MiniLM on a packaged scene, scored by the annotated goals."""

from __future__ import annotations

import pytest

from actionable.core.config import GroundedConfig, LMConfig
from actionable.worlds.virtualhome.scene import load_program, load_scene
from actionable.core.goals import check_goals
from actionable.worlds.virtualhome.goals import load_goal_annotations
from actionable.planning.session import PlanningSession

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return PlanningSession(LMConfig(cache_dir=cache), None, scene="384_1")


def test_real_plan_meets_a_new_goal_condition(session):
    pid = "384_1"  # Browse internet
    prog = load_program(pid)
    scene = load_scene(pid)
    res = session.grounded_planner(GroundedConfig(max_steps=12)).plan(
        prog.task, scene, description=prog.description, exclude_sources={pid})
    assert res.planning_model.startswith("embedded:") and res.lm_calls > 0
    assert res.executability["executable"] is True
    spec = load_goal_annotations()[pid]
    before = check_goals(spec, scene.to_dict(), [], match="class")
    after = check_goals(spec, res.final_state.to_dict(), res.resolved_program.steps, match="class")
    newly = set(before.unmet) - set(after.unmet)
    assert newly, f"no goal condition became true: plan {res.program.to_text()}, unmet {after.unmet}"
    assert all(s.score_parts for s in res.steps if not s.repaired)


def test_real_free_form_goal_check_on_default_house(tmp_path):
    session = PlanningSession(LMConfig(cache_dir=tmp_path), None, scene="default")
    res = session.grounded_planner(GroundedConfig(max_steps=10)).plan("Turn on the TV", session.scene)
    assert res.executability["executable"]
    assert any(s.step.names == ("television",) for s in res.steps)
    gc = session.scene.goal_check(res, session)
    assert gc["checked"] is False or gc["total"] >= 1


def test_real_one_step_task_stops_after_its_step(tmp_path):
    """With the real LM, "Switch on the computer" ran to the 30-step limit before the task-step rule
    (turn 4: the computer switched on and off); now the plan ends once it has switched it on."""
    session = PlanningSession(LMConfig(cache_dir=tmp_path), None, scene="default")
    res = session.grounded_planner(GroundedConfig()).plan("Switch on the computer", session.scene)
    assert res.planning_model.startswith("embedded:") and res.lm_calls > 0
    assert res.executability["executable"] and res.stop_reason == "done"
    assert res.stopped_at["task_step_done"] is True
    acts = [s.action for s in res.steps]
    assert acts[-1] == "switch on computer" and len(acts) < 10, acts
    assert res.final_state.to_dict()  # the state after the plan exists
    computers = [n for n in res.final_state.to_dict()["nodes"] if n["class_name"] == "computer"]
    assert any("ON" in n.get("states", []) for n in computers)


def test_real_watch_tv_watches_the_tv_in_the_default_house(tmp_path):
    """`actionable plan "Watch TV"` (the README's example) sat down facing the TV, then the LM took
    `find television`, and the task's own step (`turn to television`, `watch television`) was refused
    because it returns to the seated state the plan had passed: the plan never watched. The task's
    own step may return to a passed state (its point is the action, did(WATCH)); now it watches
    and meets every goal condition of the nearest Watch TV program."""
    session = PlanningSession(LMConfig(cache_dir=tmp_path), None, scene="default")
    res = session.grounded_planner(GroundedConfig()).plan("Watch TV", session.scene)
    assert res.planning_model.startswith("embedded:") and res.lm_calls > 0
    assert res.executability["executable"]
    assert "watch television" in [s.action for s in res.steps], [s.action for s in res.steps]
    assert not any("never does the task's own step" in w for w in res.warnings)
    gc = session.scene.goal_check(res, session)
    assert gc["checked"] and gc["met"] == gc["total"], gc


def test_real_two_object_task_does_both(tmp_path):
    """"Switch on the TV and the computer" stopped after `switch on television` (one task step for
    the whole task); each clause now has its own, and Done waits for both. The goal read from the
    text has both conditions."""
    session = PlanningSession(LMConfig(cache_dir=tmp_path), None, scene="default")
    res = session.grounded_planner(GroundedConfig()).plan("Switch on the TV and the computer", session.scene)
    assert res.planning_model.startswith("embedded:") and res.lm_calls > 0
    acts = [s.action for s in res.steps]
    assert "switch on television" in acts and "switch on computer" in acts, acts
    assert res.executability["executable"] and res.stop_reason == "done" and len(acts) < 20, acts
    gc = session.scene.goal_check(res, session)
    assert gc["checked"] and gc["total"] == 2 and gc["task_success"], gc


def test_real_held_out_title_word_known_to_the_bank_is_planned(session):
    """Leave-title-out "Write an email" (program 87_2's scene) was refused: 'email' names no object.
    The bank's other programs use the word, so the real planner plans it and says why."""
    scene = load_scene("87_2")
    res = session.grounded_planner(GroundedConfig(max_steps=12)).plan(
        "Write an email", scene, exclude_sources={"87_2"}, exclude_tasks={"Write an email"})
    assert res.planning_model.startswith("embedded:") and res.lm_calls > 0
    assert any("follows the example bank" in w for w in res.warnings), res.warnings
    assert res.executability["executable"] and res.steps
