"""Defaults decided in one place (issue 16): the early-stop cutoff of the paper variants is
resolved by :func:`actionable.core.defaults.plan_cutoff` for the CLI, the API, ``PlanningSession``
and ``ZeroShotPlanner`` alike; an explicit cutoff is never changed."""

from __future__ import annotations

from actionable.core import defaults as D
from actionable.core.config import PlannerConfig
from actionable.core.program import Step
from actionable.grounding.embedder import BagOfWordsEmbedder
from actionable.grounding.index import ActionIndex
from actionable.lm.scripted import ScriptedLM
from actionable.planning.examples import Example, ExampleBank
from actionable.planning.zero_shot import ZeroShotPlanner, default_cutoff

BANK = ExampleBank([Example("Watch TV", "", ("walk to home office", "switch on tv"), "w1")])


def _planner(model_id: str, cfg: PlannerConfig | None = None) -> ZeroShotPlanner:
    index = ActionIndex.from_steps(BagOfWordsEmbedder(256), [Step.of("walk", "home_office"),
                                                             Step.of("switchon", "tv")])
    return ZeroShotPlanner(ScriptedLM([], model_id=model_id), index, BANK, cfg)


def test_planner_config_leaves_the_cutoff_to_the_model():
    assert PlannerConfig().cutoff is None
    assert D.plan_cutoff("embedded") == 0.4 == D.plan_cutoff("embedded:SmolLM2-135M-Instruct-Q4_1")
    assert D.plan_cutoff("openai:x@http://h/v1") == D.PAPER_CUTOFF == 0.8
    assert D.plan_cutoff("embedded", 0.8) == 0.8 and D.plan_cutoff("embedded", 0.0) == 0.0
    assert default_cutoff("embedded") == D.plan_cutoff("embedded")


def test_zero_shot_planner_resolves_a_missing_cutoff_against_its_model():
    # the embedded model's id, as PlanningSession(LMConfig(), PlannerConfig()) builds it
    assert _planner("embedded:SmolLM2-135M-Instruct-Q4_1").config.cutoff == 0.4
    assert _planner("embedded:SmolLM2-135M-Instruct-Q4_1", PlannerConfig(variant="full")).config.cutoff == 0.4
    assert _planner("scripted").config.cutoff == 0.8
    assert _planner("openai:gpt@http://localhost:1/v1").config.cutoff == 0.8


def test_an_explicit_cutoff_is_never_changed():
    for c in (0.8, 0.4, 0.0, -10.0):
        assert _planner("embedded:SmolLM2-135M-Instruct-Q4_1", PlannerConfig(cutoff=c)).config.cutoff == c
        assert _planner("scripted", PlannerConfig(cutoff=c)).config.cutoff == c
