"""The three scoring modes (actionable.lm.choice) against a real llama.cpp server:
``python -m llama_cpp.server`` (llama-cpp-python as installed) serving the embedded SmolLM2 GGUF on
127.0.0.1, on its completions and chat endpoints.

Why the server's echoed prompt log-probs disagree, and the fix: llama-cpp-python 0.3.36's
``_create_completion`` (echo branch) drops the first prompt token assuming it is BOS and aligns
``scores[i]`` with ``token[i]``; that holds only when a BOS is prepended. SmolLM2's GGUF says
``tokenizer.ggml.add_bos_token = false``, so every echoed log-prob is the next token's, shifted by
one. Starting the server with ``--kv_overrides tokenizer.ggml.add_bos_token=bool:true`` prepends
a BOS and the echo agrees with the sampled log-probs (shown below both ways). The price: the server
then scores every prompt after a BOS that the embedded backend does not put there, so its numbers
are close to, not equal to, the embedded backend's.
"""

from __future__ import annotations

import math

import pytest

pytest.importorskip("llama_cpp")
pytest.importorskip("sse_starlette")
pytest.importorskip("starlette_context")

from actionable.core.errors import CapabilityError  # noqa: E402

pytestmark = pytest.mark.slow
from actionable.lm.choice import ChoiceScorer, as_scorer, choice_prompt, scoring_mode  # noqa: E402
from actionable.lm.openai_compat import OpenAICompatLM  # noqa: E402

from .conftest import LlamaServer  # noqa: E402

BOS_FIX = ("--kv_overrides", "tokenizer.ggml.add_bos_token=bool:true")
# short on purpose: llama-cpp-python 0.3.36 sorts the whole vocabulary in Python for every token it
# reports log-probs of (0.2-0.4 s a token on this 2-core machine), so an echoed prompt costs that per token
PROMPT = "Task: Brush teeth\nStep 1:"
CONTS = [" Walk to bathroom\n", " Done\n"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    srv = LlamaServer(tmp_path_factory.mktemp("llama") / "server.log", extra=BOS_FIX)
    yield srv
    srv.kill()


def test_a_completions_echo_agrees_with_the_bos_fix(server):
    lm = OpenAICompatLM("smollm", server.url, timeout_s=60)
    s = as_scorer(lm)
    assert s is lm and scoring_mode(s) == "score"
    sampled, echoed = lm.stats.extra["echo_probe"]
    assert abs(sampled - echoed) < 0.3
    got = lm.score(PROMPT, [" Done"])  # one short continuation: each echoed token costs a vocabulary sort
    assert len(got) == 1 and -30 < got[0] < 0


def test_a_without_the_fix_the_echo_is_refused_and_auto_falls_back(tmp_path):
    srv = LlamaServer(tmp_path / "server.log")
    try:
        lm = OpenAICompatLM("smollm", srv.url, timeout_s=60)
        with pytest.raises(CapabilityError, match="disagree"):
            lm.check_score()
        sampled, echoed = lm.stats.extra["echo_probe"]
        assert abs(sampled - echoed) > 1.0  # the shift by one token
        s = as_scorer(lm)  # auto: (b) through the completions endpoint's top log-probs
        assert scoring_mode(s) == "choice-logprobs"
    finally:
        srv.kill()


def test_b_chat_top_logprobs_renormalised(server):
    lm = OpenAICompatLM("smollm", server.url, style="chat", timeout_s=60)
    s = as_scorer(lm)
    assert scoring_mode(s) == "choice-logprobs"
    got = s.score(PROMPT, CONTS)
    assert len(got) == 2 and abs(sum(math.exp(v) for v in got) - 1) < 1e-6
    text, top = lm.choice_logprobs(choice_prompt(PROMPT, [c.strip() for c in CONTS]), 5)
    assert len(top) >= 1 and all(v <= 0 for _, v in top)


def test_c_chat_names_a_candidate_or_the_prior_decides(server):
    lm = OpenAICompatLM("smollm", server.url, style="chat", timeout_s=60)
    s = as_scorer(lm, "choice-name")
    assert isinstance(s, ChoiceScorer) and s.lm_mode == "choice-name"
    got = s.score(PROMPT, CONTS)
    p = [math.exp(v) for v in got]
    assert abs(sum(p) - 1) < 1e-6
    if s.fallbacks or s.position_answers:  # no option twice, or its content-free answer: uniform, noted
        assert p == pytest.approx([1 / 2] * 2) and "prior decided" in s.notes[-1]
    else:
        assert max(p) == pytest.approx(0.9)


def test_grounded_plan_reports_its_mode(server):
    """The grounded planner on the chat endpoint in modes (b) and (c), one session. Mode (a) is shown
    on the backend above, not by a whole plan: every candidate is one echo request, at the
    per-token cost above."""
    from actionable.core.config import GroundedConfig, LMConfig
    from actionable.planning.session import PlanningSession

    lcfg = LMConfig(model=f"openai-chat:smollm@{server.url}", translation_model="bow", cache=False)
    session = PlanningSession(lcfg, None, scene="default")
    cfg = GroundedConfig(max_steps=1, prompt_examples=1, shortlist=3)
    for mode in ("auto", "choice-name"):
        session.lm_config = lcfg.model_copy(update={"lm_mode": mode})
        res = session.grounded_planner(cfg).plan("Watch TV", session.scene)
        want = "choice-logprobs" if mode == "auto" else mode
        assert res.lm_mode == want and res.to_dict()["lm_mode"] == want
        assert res.steps and res.lm_calls == 1
