import random

import pytest

from actionable.lm.retry import RetryPolicy, call_with_retries


class Flaky(Exception):
    pass


def test_retries_transient_then_succeeds():
    calls, waits = [], []

    def fn():
        calls.append(1)
        if len(calls) < 3:
            raise Flaky()
        return "ok"

    out = call_with_retries(fn, lambda e: isinstance(e, Flaky), RetryPolicy(max_retries=5, base_delay_s=0.1,
                                                                            jitter=0.0),
                            sleep=waits.append)
    assert out == "ok" and len(calls) == 3
    assert waits == pytest.approx([0.1, 0.2])  # exponential backoff


def test_bounded_and_non_transient_raised_at_once():
    calls = []

    def fn():
        calls.append(1)
        raise Flaky()

    with pytest.raises(Flaky):
        call_with_retries(fn, lambda e: True, RetryPolicy(max_retries=2), sleep=lambda s: None)
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(Flaky):
        call_with_retries(fn, lambda e: False, RetryPolicy(max_retries=5), sleep=lambda s: None)
    assert len(calls) == 1


def test_delay_capped_and_jittered():
    p = RetryPolicy(base_delay_s=1.0, max_delay_s=4.0, jitter=0.25)
    rng = random.Random(0)
    ds = [p.delay(a, rng) for a in range(10)]
    assert all(0 < d <= 5.0 for d in ds)
    assert max(ds[5:]) <= 4.0 * 1.25 and min(ds[5:]) >= 4.0 * 0.75
