import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from actionable.lm.sampling import (StopScanner, apply_penalties, log_softmax, sample_rng, sample_token,
                                    truncate_at_stop)


@given(st.lists(st.floats(-50, 50), min_size=2, max_size=50))
@settings(max_examples=50, deadline=None)
def test_log_softmax_normalised(xs):
    lp = log_softmax(np.array(xs))
    assert np.all(lp <= 1e-9)
    assert np.exp(lp).sum() == pytest.approx(1.0, abs=1e-9)


def test_penalties_openai_definition():
    logits = np.zeros(5)
    out = apply_penalties(logits, {1: 3, 4: 1}, presence=0.5, frequency=0.3)
    assert out.tolist() == pytest.approx([0, -0.5 - 0.9, 0, 0, -0.5 - 0.3])
    assert logits.tolist() == [0] * 5  # input untouched


def test_greedy_and_top_p():
    logits = np.log(np.array([0.5, 0.3, 0.15, 0.05]))
    rng = np.random.default_rng(0)
    assert sample_token(logits, rng, temperature=0.0, top_p=0.9) == 0
    draws = {sample_token(logits, rng, temperature=1.0, top_p=0.75) for _ in range(300)}
    assert draws == {0, 1}  # nucleus 0.5+0.3 >= 0.75 excludes 2 and 3
    draws = {sample_token(logits, rng, temperature=1.0, top_p=1.0) for _ in range(2000)}
    assert draws == {0, 1, 2, 3}


def test_sample_rng_per_index_deterministic():
    a = sample_rng(7, 3).random(4)
    assert np.array_equal(a, sample_rng(7, 3).random(4))
    assert not np.array_equal(a, sample_rng(7, 4).random(4))
    assert not np.array_equal(a, sample_rng(8, 3).random(4))


def test_stop_scanner_incremental_and_earliest():
    s = StopScanner(["\n", "END"])
    assert s.find("walk to") == -1
    assert s.find("walk to kitchen E") == -1
    assert s.find("walk to kitchen EN") == -1
    assert s.find("walk to kitchen END\n") == len("walk to kitchen ")
    assert StopScanner([]).find("a\nb") == -1
    assert StopScanner(["\n"]).find("\nfoo") == 0


def test_truncate_keeps_tokens_starting_before_stop():
    text, lps = truncate_at_stop("grab mug\nwalk", [0, 4, 8, 9], [-1.0, -2.0, -3.0, -4.0], 8)
    assert text == "grab mug" and lps == [-1.0, -2.0]
