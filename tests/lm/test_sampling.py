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


def test_nucleus_frequencies_match_renormalised_probs():
    from actionable.lm.sampling import sample_tokens

    p = np.array([0.4, 0.3, 0.2, 0.1])
    rng = np.random.default_rng(1)
    draws = [sample_tokens(np.log(p)[None], [rng], 1.0, 0.85)[0] for _ in range(6000)]
    freq = np.bincount(draws, minlength=4) / len(draws)
    # nucleus 0.85 keeps {0,1,2} (0.4+0.3+0.2=0.9), renormalised to 4/9, 3/9, 2/9
    assert freq[3] == 0
    assert freq[:3] == pytest.approx([4 / 9, 3 / 9, 2 / 9], abs=0.03)


def test_heavy_tail_falls_back_to_full_sort():
    from actionable.lm.sampling import sample_tokens

    logits = np.zeros((2, 2000))  # uniform: the top 256 hold only 12.8% of the mass
    rngs = [np.random.default_rng(0), np.random.default_rng(1)]
    seen = {t for _ in range(300) for t in sample_tokens(logits, rngs, 1.0, 0.9)}
    assert max(seen) > 256 * 2  # tokens outside any 256-candidate shortlist are drawn


def test_samples_stay_inside_full_sort_nucleus_on_large_vocab():
    from actionable.lm.sampling import sample_tokens

    rng = np.random.default_rng(0)
    logits = (rng.standard_normal((3, 5000)) * 2).astype(np.float32)
    T, top_p = 0.6, 0.9
    rngs = [np.random.default_rng(i) for i in range(3)]
    draws = [sample_tokens(logits, rngs, T, top_p) for _ in range(300)]
    for r in range(3):
        p = np.exp((logits[r] - logits[r].max()) / T).astype(np.float64)
        p /= p.sum()
        order = np.argsort(-p, kind="stable")
        keep = set(order[: int(np.searchsorted(np.cumsum(p[order]), top_p)) + 1].tolist())
        got = {d[r] for d in draws}
        assert got <= keep
        assert got == keep if len(keep) <= 10 else len(got) > 10
