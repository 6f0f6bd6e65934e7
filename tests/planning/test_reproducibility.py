"""Issue 12: the same seed gives the same plan whatever the LM cache holds and
whatever ran before in the process.

Real embedded planning LM (SmolLM2-135M on llama.cpp), real default scene and
packaged example bank, bag-of-words translation LM (fast). Task B is planned
after task A with a cold cache, alone with a cold cache, alone again with the
(now warm) cache, with a partly warm cache (its first positions are hits, so
the engine meets the later prompts without their predecessors), and with the
cache disabled; the programs, the chosen samples' log-probs and every sample's
text and log-prob must be identical -- exactly, not to a tolerance (the engine
makes the numbers history-free). The ``corrected`` variant uses one fixed
example for both tasks, so A's prompts share a long token prefix with B's: the
case where llama.cpp prompt-prefix reuse used to change the numbers.
"""

from __future__ import annotations

import pytest

from actionable.core.config import LMConfig, PlannerConfig
from actionable.lm.registry import load_lm
from actionable.planning.session import PlanningSession
from actionable.planning.zero_shot import ZeroShotPlanner

pytestmark = pytest.mark.slow

TASK_A, TASK_B = "Watch TV", "Brush teeth"
CFG = PlannerConfig(variant="corrected", samples=5, max_steps=4, max_tokens=16, cutoff=-10.0, seed=3)


def fingerprint(res):
    """Everything the LM decides in a plan: program, stop reason, and per step the
    chosen sample, its mean log-prob, and all samples with their log-probs."""
    return {
        "program": res.program.to_text(),
        "stop": res.stop_reason,
        "steps": [(s.sample_text, s.action, s.logprob, s.total,
                   [(x["text"], x["logprob"]) for x in s.samples]) for s in res.steps],
    }


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    cache = tmp_path_factory.mktemp("index-cache")
    # the session's own LM: A then B, cold cache
    return PlanningSession(LMConfig(model="embedded", translation_model="bow", cache_dir=cache), CFG,
                           scene="default")


def plan_with(lm, session, task, cfg=CFG):
    return ZeroShotPlanner(lm, session.index, session.bank, cfg).plan(task, scene=None)


def test_same_plan_whatever_ran_before_and_whatever_the_cache_holds(session, tmp_path):
    after_a = session.plan(TASK_A, execute=False)
    b_after_a = fingerprint(session.plan(TASK_B, execute=False))
    assert after_a.steps and b_after_a["program"], "the check needs non-empty plans"

    cold = load_lm("embedded", LMConfig(cache_dir=tmp_path / "b"))
    b_cold = fingerprint(plan_with(cold, session, TASK_B))
    assert cold.misses > 0 and cold.hits == 0
    warm = load_lm("embedded", LMConfig(cache_dir=tmp_path / "b"))  # new process-level object, same file
    b_warm = fingerprint(plan_with(warm, session, TASK_B))
    assert warm.hits > 0 and warm.misses == 0
    partial = tmp_path / "partial"
    plan_with(load_lm("embedded", LMConfig(cache_dir=partial)), session, TASK_B,
              CFG.model_copy(update={"max_steps": 2}))
    part = load_lm("embedded", LMConfig(cache_dir=partial))
    b_partial = fingerprint(plan_with(part, session, TASK_B))
    assert part.hits > 0 and part.misses > 0
    uncached = load_lm("embedded", LMConfig(cache=False, cache_dir=tmp_path / "unused"))
    b_uncached = fingerprint(plan_with(uncached, session, TASK_B))
    # and the uncached model, now warm with B's prompts, plans A like the session did
    a_after_b = plan_with(uncached, session, TASK_A)

    assert b_cold == b_after_a
    assert b_warm == b_after_a
    assert b_partial == b_after_a
    assert b_uncached == b_after_a
    assert fingerprint(a_after_b) == fingerprint(after_a)
    for m in (cold, warm, part):
        m.close()
