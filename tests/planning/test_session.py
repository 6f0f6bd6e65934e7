"""PlanningSession on the real default scene and the real packaged example bank,
with the bag-of-words translation LM and a scripted planning LM (fast)."""

from __future__ import annotations

import json

import pytest

from actionable.core.config import LMConfig, PlannerConfig
from actionable.worlds.virtualhome.resolver import resolve_and_execute
from actionable.lm.scripted import ScriptedLM
from actionable.planning.session import PlanningSession


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    cache = tmp_path_factory.mktemp("cache")
    return PlanningSession(LMConfig(translation_model="bow", cache_dir=cache), PlannerConfig(),
                           scene="default", lm=ScriptedLM([]))


def test_session_loads_real_parts(session):
    assert session.info()["admissible_actions"] is None  # built on first use (grounded plans never need it)
    assert len(session.index) > 1000
    info = session.info()
    assert info["admissible_actions"] > 1000 and info["example_bank"] == 518
    assert info["translation_model"].startswith("bow:")
    assert "walk to bathroom" in session.index.phrases


def test_executable_plan_in_real_scene(session):
    session.lm.push(["walk to the bathroom"] * 10)
    session.lm.push(["find the toothbrush"] * 10)
    session.lm.push(["grab the toothbrush"] * 10)
    session.lm.push([""] * 10)
    res = session.plan("Brush teeth", config=PlannerConfig(variant="full", cutoff=0.5))
    assert res.program.to_text() == ["walk to bathroom", "find toothbrush", "grab toothbrush"]
    assert res.example["task"] != "Brush teeth"  # the query task is excluded from selection
    assert res.executability["executable"] is True
    rerun = resolve_and_execute(res.program, session.scene.graph)
    assert rerun.executable and res.resolved_program is not None and res.resolved_program.steps[0].is_resolved
    json.dumps(res.to_dict(), allow_nan=False)


def test_non_executable_plan_reports_failing_step_and_precondition(session):
    session.lm.push(["walk to the bathroom"] * 10)
    session.lm.push(["drink the water"] * 10)  # never grabbed: a precondition fails
    session.lm.push([""] * 10)
    res = session.plan("Get some water", config=PlannerConfig(variant="corrected", cutoff=0.5))
    ex = res.executability
    assert res.program.to_text() == ["walk to bathroom", "drink water"]
    assert ex["executable"] is False and ex["failed_index"] == 1 and ex["failed_step"] == "drink water"
    assert ex["error"]
    rerun = resolve_and_execute(res.program, session.scene.graph)
    assert not rerun.executable and rerun.failed_index == 1
