"""History independence of the embedded LM's numbers (issues 12 and 16).

The logits for a token sequence must be bit-identical whatever the engine
evaluated before (prompt-prefix reuse must not change the numerics), whatever
``n`` and the thread count are, and the sampled log-probs must equal
``score()`` of the same text exactly.
"""

import numpy as np
import pytest

from actionable.lm.base import GenerationParams

pytestmark = pytest.mark.slow

PROMPT = ("Task: Watch TV\nStep 1: Walk to home office\nStep 2: Walk to couch\nStep 3: Find couch\n"
          "Step 4: Sit on couch\nStep 5: Find remote control\nStep 6: Grab remote control\n"
          "Step 7: Find television\nStep 8: Switch on television\n\nTask: Brush teeth\nStep 1:")
OTHER = ("Task: Make coffee\nStep 1: Walk to kitchen\nStep 2: Find coffee maker\nStep 3: Switch on "
         "coffee maker\n\nTask: Read book\nStep 1:")


@pytest.fixture(scope="module")
def lm():
    from actionable.lm.embedded import EmbeddedLM

    m = EmbeddedLM(n_threads=1)
    yield m
    m.close()


def fresh_engine(lm):
    from actionable.lm.llama_engine import LlamaSeqEngine

    e = lm._engine
    return LlamaSeqEngine(lm._llm._model, n_ctx=e.n_ctx, n_batch=e.n_batch, n_seq_max=e.n_seq_max,
                          n_threads=lm.n_threads)


def histories(lm, toks):
    """Engine states a prompt may meet: unrelated prompts, shared prefixes of
    every length around the chunk size, a longer prompt it is a prefix of,
    leftovers of a parallel generation."""
    other = lm.tokenize(OTHER)
    yield "unrelated", [other]
    from actionable.lm.llama_engine import CHUNK

    for cut in sorted({1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK + 3, 40, 80, len(toks) - 1}):
        yield f"prefix {cut}", [other, toks[:cut] + other[1:20]]
    yield "longer", [toks + other[1:30]]
    yield "same then longer", [toks, toks + other[1:70], toks[:-3]]


def test_prefill_is_bit_identical_after_any_history(lm):
    """Prompt-prefix reuse never changes a logit: every history gives a fresh engine's logits."""
    toks = lm.tokenize(PROMPT + " Walk to bathroom\nStep 2: Find toothbrush\nStep 3:")
    assert len(toks) > 90
    ref_eng = fresh_engine(lm)
    try:
        ref = ref_eng.prefill(toks)
    finally:
        ref_eng.close()
    for name, seq in histories(lm, toks):
        eng = fresh_engine(lm)
        try:
            for h in seq:
                eng.prefill(h)
                eng.fork(3)  # leave parallel continuations behind, then drop them
                eng.step([(0, h[-1]), (1, h[-2]), (2, h[-3])], len(h))
                eng.join(3)
            got = eng.prefill(toks)
        finally:
            eng.close()
        assert np.array_equal(got, ref), name


def test_score_and_generate_do_not_depend_on_what_ran_before(lm):
    from actionable.lm.embedded import EmbeddedLM

    p = GenerationParams(n=6, max_tokens=16, seed=5)
    conts = [" Walk to bathroom", " Grab toothbrush\nStep 2: Find sink"]
    fresh = EmbeddedLM(n_threads=1)
    try:
        ref_gen = fresh.generate(PROMPT, p)
        fresh2 = EmbeddedLM(n_threads=1)
        ref_score = fresh2.score(PROMPT, conts)
        fresh2.close()
    finally:
        fresh.close()
    # a used model: other prompts, a longer prompt sharing the prefix, scoring in between
    lm.generate(OTHER, GenerationParams(n=4, max_tokens=8, seed=1))
    lm.score(PROMPT + " Walk to kitchen\nStep 2:", [" Find cup"])
    lm.generate(PROMPT[:150], GenerationParams(n=2, max_tokens=8, seed=2))
    assert lm.score(PROMPT, conts) == ref_score
    got = lm.generate(PROMPT, p)
    assert [c.text for c in got] == [c.text for c in ref_gen]
    assert [c.token_logprobs for c in got] == [c.token_logprobs for c in ref_gen]
    # and scoring after generating (and vice versa) still agrees
    assert lm.score(PROMPT, conts) == ref_score


def test_sample_i_does_not_depend_on_n(lm):
    """The cache keys samples without n: sample i of n=3 must be sample i of n=10."""
    p10 = GenerationParams(n=10, max_tokens=20, seed=7)
    ten = lm.generate(PROMPT, p10)
    three = lm.generate(PROMPT, GenerationParams(**{**p10.to_dict(), "n": 3, "stop": p10.stop}))
    assert three == ten[:3]
    one = lm.generate(PROMPT, GenerationParams(**{**p10.to_dict(), "n": 1, "stop": p10.stop}))
    assert one == ten[:1]


def test_thread_count_does_not_change_numbers(lm):
    from actionable.lm.embedded import EmbeddedLM

    long_prompt = PROMPT.replace("Task: Brush teeth", "Task: Read book\nStep 1: Walk to home office\n"
                                 "Step 2: Find novel\nStep 3: Grab novel\n\n" * 16 + "Task: Brush teeth")
    assert len(lm.tokenize(long_prompt)) > 512  # the KV is large enough for the split-KV kernel
    p = GenerationParams(n=3, max_tokens=12, seed=0)
    two = EmbeddedLM(n_threads=2)
    try:
        a = two.generate(long_prompt, p), two.score(long_prompt, [" Walk to bathroom"])
    finally:
        two.close()
    b = lm.generate(long_prompt, p), lm.score(long_prompt, [" Walk to bathroom"])
    assert a == b


def test_sampled_logprobs_equal_score_exactly(lm):
    """Sampled log-probs (n parallel samples) and score() take the same compute
    path: when a sample re-tokenises as generated, its summed log-probs equal
    score() of its text bit for bit."""
    out = lm.generate(PROMPT, GenerationParams(n=8, max_tokens=16, seed=3, stop=()))
    ptoks = lm.tokenize(PROMPT)
    checked = 0
    for c in out:
        full = lm.tokenize(PROMPT + c.text)
        if not c.text or full[: len(ptoks)] != ptoks or len(full) - len(ptoks) != len(c.token_logprobs):
            continue  # a merge across the boundary or a partial UTF-8 token: not the same tokens
        assert lm.score(PROMPT, [c.text])[0] == sum(c.token_logprobs), c.text
        checked += 1
    assert checked >= 4
