"""Bounded retries with exponential backoff and jitter, for network backends.

Retried: connection errors, timeouts, HTTP 429 and 5xx (the transient failures of
OpenAI-compatible servers such as vLLM, llama.cpp's server and Ollama). Anything
else is raised at once. The policy is plain data so callers pass it explicitly
(no global state).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Callable, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    Attributes:
        max_retries: retries after the first attempt (0 = try once).
        base_delay_s: delay before the first retry, in seconds; doubles each time.
        max_delay_s: cap of one delay, in seconds.
        jitter: relative random spread of each delay (0.25 = +-25 %).
    """

    max_retries: int = 3
    base_delay_s: float = 0.5
    max_delay_s: float = 8.0
    jitter: float = 0.25

    def delay(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based)."""
        d = min(self.max_delay_s, self.base_delay_s * (2 ** attempt))
        return max(0.0, d * (1.0 + self.jitter * (2.0 * rng.random() - 1.0)))


def call_with_retries(fn: Callable[[], T], is_transient: Callable[[BaseException], bool],
                      policy: RetryPolicy, *, sleep: Callable[[float], None] = time.sleep,
                      on_retry: Callable[[int, BaseException, float], None] | None = None,
                      rng: random.Random | None = None) -> T:
    """Call ``fn`` until it succeeds, a non-transient error occurs, or
    ``policy.max_retries`` retries are spent; then re-raise the last error.

    Args:
        fn: the request (no arguments).
        is_transient: decides whether an exception is worth retrying.
        sleep: injectable for tests.
        on_retry: called with (attempt, error, delay) before each wait.
    """
    rng = rng or random.Random()
    attempt = 0
    while True:
        try:
            return fn()
        except Exception as exc:  # noqa: BLE001 - filtered by is_transient
            if attempt >= policy.max_retries or not is_transient(exc):
                raise
            d = policy.delay(attempt, rng)
            if on_retry is not None:
                on_retry(attempt, exc, d)
            sleep(d)
            attempt += 1
