"""Control flow of the zero-shot planner (Huang et al. 2022) with ScriptedLM.

The translation LM here is the real bag-of-words embedder over a small set of
real class-level Steps; only the planning LM is scripted.
"""

from __future__ import annotations

import json

import pytest

from actionable.core.config import PlannerConfig
from actionable.core.program import Step
from actionable.core.errors import InputError, PlanningError
from actionable.grounding.embedder import BagOfWordsEmbedder
from actionable.grounding.index import ActionIndex
from actionable.lm.scripted import ScriptedLM
from actionable.planning.examples import Example, ExampleBank
from actionable.planning.zero_shot import ZeroShotPlanner, default_cutoff

STEPS = [Step.of("walk", "bathroom"), Step.of("grab", "toothbrush"), Step.of("switchon", "tv"),
         Step.of("walk", "home_office"), Step.of("sit", "sofa"), Step.of("open", "fridge"),
         Step.of("grab", "toothpaste"), Step.of("putin", "toothbrush", "sink")]

BANK = ExampleBank([
    Example("Watch TV", "", ("walk to home office", "switch on tv", "sit on sofa"), "w1"),
    Example("Watch TV", "", ("walk to home office", "switch on tv"), "w2"),
    Example("Brush teeth", "", ("walk to bathroom", "grab toothbrush", "grab toothpaste"), "b1"),
    Example("Open the fridge", "", ("open fridge",), "f1"),
])


@pytest.fixture(scope="module")
def index():
    return ActionIndex.from_steps(BagOfWordsEmbedder(512), STEPS)


def planner(lm, index, **cfg):
    return ZeroShotPlanner(lm, index, BANK, PlannerConfig(**cfg))


def test_corrected_appends_translated_actions_and_stops_on_empty_samples(index):
    lm = ScriptedLM([
        ["walk to the bathroom"] * 10,
        ["grab the toothbrush"] * 10,
        [""] * 6 + ["walk to bathroom"] * 4,  # 60% empty -> stop
    ], logprob=-0.1)
    res = planner(lm, index, variant="corrected", samples=10, cutoff=0.5).plan("Clean teeth")
    assert [s.action for s in res.steps] == ["walk to bathroom", "grab toothbrush"]
    assert res.program.to_text() == ["walk to bathroom", "grab toothbrush"]
    assert res.stop_reason == "empty_samples" and res.stopped_at["empty"] == 6
    assert res.lm_calls == 3 and all(p.n == 10 and p.stop == ("\n",) for p in lm.params)
    # autoregressive trajectory correction: the translated action, not the sample, is in the prompt
    assert lm.prompts[1].endswith("Task: Clean teeth\nStep 1: Walk to bathroom\nStep 2:")
    assert lm.prompts[2].endswith("Step 2: Grab toothbrush\nStep 3:")
    # fixed example (most programs: Watch TV), median-length program
    assert lm.prompts[0].startswith("Task: Watch TV\nStep 1: Walk to home office\n")
    assert res.steps[0].total == pytest.approx(res.steps[0].cosine + 0.3 * -0.1, abs=1e-6)


def test_half_empty_is_not_more_than_half(index):
    lm = ScriptedLM([[""] * 5 + ["walk to bathroom"] * 5, [""] * 10], logprob=-0.1)
    res = planner(lm, index, variant="corrected").plan("Go to bathroom")
    assert len(res.steps) == 1 and res.stop_reason == "empty_samples"


def test_stops_when_best_score_below_cutoff(index):
    lm = ScriptedLM([["walk to bathroom"] * 10, ["qwerty zxcv"] * 10], logprob=-0.1)
    res = planner(lm, index, variant="corrected", cutoff=0.8).plan("Go to bathroom")
    assert [s.action for s in res.steps] == ["walk to bathroom"]
    assert res.stop_reason == "below_cutoff" and res.stopped_at["best_score"] < 0.8
    # the same samples with a permissive cutoff keep going
    lm2 = ScriptedLM([["walk to bathroom"] * 10, ["qwerty zxcv"] * 10, [""] * 10], logprob=-0.1)
    res2 = planner(lm2, index, variant="corrected", cutoff=-5.0).plan("Go to bathroom")
    assert len(res2.steps) == 2


def test_repeat_penalty_prefers_a_new_action(index):
    script = [["walk to bathroom"] * 10, ["walk to bathroom"] * 6 + ["grab toothbrush"] * 4, [""] * 10]
    res = planner(ScriptedLM(script, logprob=-0.1), index, variant="corrected").plan("Brush my teeth")
    assert [s.action for s in res.steps] == ["walk to bathroom", "grab toothbrush"]
    assert not res.steps[1].repeat_penalised
    res0 = planner(ScriptedLM(script, logprob=-0.1), index, variant="corrected",
                   repeat_penalty=0.0).plan("Brush my teeth")
    assert [s.action for s in res0.steps] == ["walk to bathroom", "walk to bathroom"]


def test_beta_weighs_mean_token_logprob(index):
    # sample A translates exactly (cos 1) but is unlikely; B is close and likely.
    step = [("grab toothbrush", -3.0)] * 5 + [("grab toothbrush please", -0.05)] * 5
    res = planner(ScriptedLM([step, [""] * 10]), index, variant="corrected", beta=0.3,
                  cutoff=0.0).plan("Get toothbrush")
    assert res.steps[0].sample_text == "grab toothbrush please"
    res_nb = planner(ScriptedLM([step, [""] * 10]), index, variant="corrected", beta=0.0,
                     cutoff=0.0).plan("Get toothbrush")
    assert res_nb.steps[0].sample_text == "grab toothbrush"


def test_max_steps_bounds_the_plan(index):
    lm = ScriptedLM([["walk to bathroom"], ["grab toothbrush"], ["walk to bathroom"]])
    res = planner(lm, index, variant="corrected", max_steps=2, samples=3).plan("Brush teeth")
    assert len(res.steps) == 2 and res.stop_reason == "max_steps" and lm.remaining == 1


def test_full_selects_most_similar_task_but_never_the_query(index):
    lm = ScriptedLM([[""] * 10] * 2)
    p = planner(lm, index, variant="full")
    res = p.plan("Brush teeth")
    assert res.example["task"] != "Brush teeth"
    assert "Task: Brush teeth\nStep 1: Walk to bathroom" not in lm.prompts[0]
    res2 = p.plan("Brush my teeth")  # a different task: the bank's Brush teeth is eligible
    assert res2.example["task"] == "Brush teeth"
    assert lm.prompts[1].startswith("Task: Brush teeth\nStep 1: Walk to bathroom\n")


def test_vanilla_parses_what_it_can(index):
    lm = ScriptedLM([" Walk to bathroom\nStep 2: grab the toothbrush\nStep 3: dance wildly\n"
                     "Step 4: switch on tv\nTask: something"])
    res = planner(lm, index, variant="vanilla").plan("Brush teeth", scene="unused-when-parse-fails")
    assert [s.sample_text for s in res.steps] == ["Walk to bathroom", "grab the toothbrush",
                                                  "dance wildly", "switch on tv"]
    assert res.program.to_text() == ["walk to bathroom", "grab toothbrush", "switch on tv"]
    assert res.steps[2].parse_error and res.executability["executable"] is False
    assert res.executability["error_type"] == "parse" and res.executability["failed_index"] == 2
    assert res.translation_model is None and res.lm_calls == 1


def test_translated_maps_every_line(index):
    lm = ScriptedLM([" go into the bathroom\nStep 2: pick up the toothbrush\nStep 3: tv on"])
    res = planner(lm, index, variant="translated").plan("Brush teeth")
    assert res.program.to_text() == ["walk to bathroom", "grab toothbrush", "switch on tv"]
    assert all(s.cosine is not None and 0 < s.cosine <= 1.0001 for s in res.steps)


def test_result_is_json_serialisable(index):
    lm = ScriptedLM([["walk to bathroom"] * 10, [""] * 10], logprob=-0.2)
    res = planner(lm, index, variant="corrected").plan("Go to bathroom")
    d = json.loads(res.to_json())
    assert d["program_text"] == ["walk to bathroom"]
    assert d["models"] == {"planning": "scripted", "translation": index.model_id}
    assert d["decoding"][0]["temperature"] == 0.6 and d["decoding"][0]["n"] == 10
    assert d["lm_calls"] == 2 and d["timings"]["total_s"] >= d["timings"]["lm_s"] >= 0
    assert d["steps"][0]["samples"][0]["logprob"] == pytest.approx(-0.2)
    assert "Step 1: Walk to bathroom" in d["prompt"]


def test_bad_tasks_and_configs(index):
    p = planner(ScriptedLM([]), index, variant="corrected")
    for bad in ["", "   \n\t", "x" * 1000, "%$#@!&*()_+=-~" * 3, "\x00\x01\x02", 42]:
        with pytest.raises(InputError):
            p.plan(bad)
    with pytest.raises(PlanningError):
        ZeroShotPlanner(ScriptedLM([]), None, BANK, PlannerConfig(variant="full"))


def test_default_cutoff_is_calibrated_only_for_the_embedded_model():
    assert default_cutoff("embedded") == 0.4 and default_cutoff("embedded:chat") == 0.4
    assert default_cutoff("openai:gpt-4o@http://localhost:8000/v1") == 0.8
    assert default_cutoff("hf:/models/x", paper_default=0.7) == 0.7
