import math

import pytest

from actionable.core.errors import ConfigError, LMError
from actionable.lm.base import GenerationParams, LanguageModel
from actionable.lm.scripted import ScriptedLM


def test_protocol_and_queue_order():
    lm = ScriptedLM(["walk to kitchen", ["grab mug", "", "open fridge"]])
    assert isinstance(lm, LanguageModel)
    a = lm.generate("p1", GenerationParams(n=2))
    assert [c.text for c in a] == ["walk to kitchen", "walk to kitchen"]
    assert a[0].token_logprobs == (-0.1, -0.1, -0.1)
    b = lm.generate("p2", GenerationParams(n=4))
    assert [c.text for c in b] == ["grab mug", "", "open fridge", "grab mug"]
    assert b[1].mean_logprob == -math.inf
    assert lm.prompts == ["p1", "p2"]
    assert lm.remaining == 0
    with pytest.raises(LMError, match="queue is empty"):
        lm.generate("p3", GenerationParams())


def test_list_truncated_to_n_and_stop_applied():
    lm = ScriptedLM([["a b\nc", "d"]], logprob=-0.5)
    out = lm.generate("p", GenerationParams(n=1, stop=("\n",)))
    assert [c.text for c in out] == ["a b"]
    assert out[0].mean_logprob == pytest.approx(-0.5)


def test_per_sample_logprob_override():
    lm = ScriptedLM([[("good", -0.01), ("bad", -3.0)]])
    out = lm.generate("p", GenerationParams(n=2))
    assert out[0].mean_logprob > out[1].mean_logprob


def test_score_deterministic_and_not_consuming():
    lm = ScriptedLM(["x"])
    s1 = lm.score("p", ["walk to bedroom", "grab cup"])
    s2 = ScriptedLM(["x"]).score("p", ["walk to bedroom", "grab cup"])
    assert s1 == s2 and all(s < 0 for s in s1)
    assert s1[0] < s1[1]  # more tokens, lower log-prob
    assert lm.remaining == 1


@pytest.mark.parametrize("bad", [[[]], [3], [("x", 1.0)]])
def test_bad_outputs_rejected(bad):
    with pytest.raises(ConfigError):
        ScriptedLM(bad)


def test_positive_logprob_rejected():
    with pytest.raises(ConfigError):
        ScriptedLM(["x"], logprob=0.5)
    with pytest.raises(ConfigError):
        ScriptedLM(["x"], logprob=float("nan"))
