"""End to end with the real embedded model (SmolLM2-135M-Instruct on llama.cpp) on real scene data."""

import pytest

from actionable.worlds.virtualhome.scene import load_program, load_scene
from actionable.evaluation.verification.corrupt import corrupt_program
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import SimulatorJudge
from actionable.verify.judge import HybridJudge, LLMJudge, VerifyTask
from actionable.verify.loop import LLMPlanner, VerificationLoop
from actionable.evaluation.verification.metrics import score_critiques
from actionable.verify.replay import replay

pytestmark = pytest.mark.slow
PID = "3_1"  # 6 steps: short prompts keep this test to seconds on 2 CPU cores


@pytest.fixture(scope="module")
def lm():
    from actionable.core.config import LMConfig
    from actionable.lm.registry import load_lm

    return load_lm("embedded", LMConfig(cache=False))


@pytest.fixture(scope="module")
def example(annotations):
    scene = load_scene(PID)
    ex = corrupt_program(PID, load_program(PID), scene, goal_spec=annotations[PID], seed=0, n_errors=1,
                         kinds=("toggle_pair",))
    assert ex.errors and ex.errors[0].kind == "toggle_pair"
    return ex, VerifyTask(goal="Relax on sofa", scene=scene, goal_spec=annotations[PID])


def test_llm_judge_and_planner_run_on_the_embedded_model(lm, example):
    ex, task = example
    loop = VerificationLoop(LLMJudge(lm, max_tokens=64), LLMPlanner(lm, max_tokens=96), max_rounds=1)
    res = loop.run(ex.corrupted, task)
    r = res.rounds[0]
    assert r.judge_raw.strip(), "the model wrote nothing"
    assert all(c.index is None or 0 <= c.index <= len(ex.corrupted) for c in r.critiques)
    assert len(res.rounds) == 1 and lm.model_id.startswith("embedded:")


def test_hybrid_judge_recovers_the_injected_toggle_pair(lm, example):
    ex, task = example
    hybrid = HybridJudge(LLMJudge(lm, max_tokens=64), SimulatorJudge())
    res = VerificationLoop(hybrid, max_rounds=2).run(ex.corrupted, task)
    counts = score_critiques(ex, res.first_critiques)
    assert counts.fn_remove == 0 and counts.fp_remove == 0 and counts.fp_missing == 0
    assert res.final.steps == ex.gold.steps  # cleaned plan == gold plan
    assert replay(res.final.steps, task.scene).executable
    assert {c.kind for c in res.first_critiques} == {CritiqueKind.REMOVE}
