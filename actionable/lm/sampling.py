"""Backend-independent decoding helpers (numpy only).

These turn one step's next-token logits into (a) the exact log-probability of
every token under the model and (b) a sampled token, with the OpenAI-style
sampling controls the planner of Huang et al. 2022 uses (temperature, nucleus
top_p, presence and frequency penalties). Local backends (llama.cpp,
transformers) share them so both decode the same way.

Conventions:
    * logits: ``np.ndarray`` of shape ``(V,)``, float32/float64, V = vocab size.
    * reported log-probs are of the *unmodified* model distribution
      (``log_softmax(logits)``, temperature 1, no penalties), as vLLM reports by
      default ("raw logprobs"). This is the ``P(ahat)`` of Huang et al. Sec. 3.2,
      and it does not change when sampling knobs change.
    * penalties follow the OpenAI API definition:
      ``logit[j] -= frequency * count[j] + presence * (count[j] > 0)``, counting
      the tokens generated so far in this sample (not the prompt).
"""

from __future__ import annotations

import numpy as np


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Numerically stable log-softmax of a ``(V,)`` vector, float64 result (nats)."""
    x = np.asarray(logits, dtype=np.float64)
    m = np.max(x)
    if not np.isfinite(m):
        m = 0.0
    z = x - m
    return z - np.log(np.sum(np.exp(z)))


def apply_penalties(logits: np.ndarray, counts: dict[int, int], presence: float,
                    frequency: float) -> np.ndarray:
    """Return a copy of ``logits`` with OpenAI presence/frequency penalties applied.

    Args:
        logits: ``(V,)`` next-token logits.
        counts: token id -> times generated so far in this sample.
        presence, frequency: penalty weights (OpenAI range -2..2).
    """
    out = np.array(logits, dtype=np.float64, copy=True)
    if counts and (presence or frequency):
        ids = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
        c = np.fromiter(counts.values(), dtype=np.float64, count=len(counts))
        out[ids] -= frequency * c + presence * (c > 0)
    return out


def logsumexp_rows(logits: np.ndarray) -> np.ndarray:
    """Row-wise log-sum-exp of an ``(m, V)`` matrix: float32 exponentials summed
    in float64 (``(m,)`` float64). ``logits[r, t] - lse[r]`` is the exact log-prob
    of token ``t`` up to float32 rounding (llama.cpp's logits are float32)."""
    x = np.atleast_2d(np.asarray(logits, dtype=np.float32))
    mx = x.max(axis=1, keepdims=True)
    e = np.exp(x - mx)
    return mx[:, 0].astype(np.float64) + np.log(e.sum(axis=1, dtype=np.float64))


def penalize_rows(logits: np.ndarray, counts: list[dict[int, int]], presence: float,
                  frequency: float) -> np.ndarray:
    """:func:`apply_penalties` for every row of an ``(m, V)`` matrix (row ``r``
    uses ``counts[r]``); returns a new float32 matrix, or ``logits`` itself when
    nothing changes."""
    if not (presence or frequency) or not any(counts):
        return logits
    out = np.array(logits, dtype=np.float32, copy=True)
    for r, c in enumerate(counts):
        if c:
            ids = np.fromiter(c.keys(), dtype=np.int64, count=len(c))
            n = np.fromiter(c.values(), dtype=np.float32, count=len(c))
            out[r, ids] -= frequency * n + presence * (n > 0)
    return out


def sample_tokens(logits: np.ndarray, rngs: list[np.random.Generator], temperature: float,
                  top_p: float, eps: float = 1e-7) -> list[int]:
    """Sample one token id per row of ``logits`` (shape ``(m, V)``, already
    penalised), row ``i`` drawing its uniform variate from ``rngs[i]``.

    ``temperature <= 0`` is greedy (argmax). Nucleus sampling (Holtzman et al.
    2020) keeps the smallest set of most-likely tokens whose mass reaches
    ``top_p`` and renormalises. Only a shortlist is sorted: the tokens whose
    tempered probability is at least 1e-2, then 1e-4, then ``eps`` times the
    row's maximum, then all, stopping at the first shortlist whose mass reaches
    ``top_p``. A shortlist is exactly the most likely tokens, so the result
    equals full-sort nucleus sampling.
    """
    x = np.atleast_2d(np.asarray(logits, dtype=np.float32))
    if temperature <= 0.0:
        return [int(i) for i in np.argmax(x, axis=1)]
    z = (x - x.max(axis=1, keepdims=True)) * np.float32(1.0 / temperature)
    np.exp(z, out=z)  # unnormalised tempered probabilities, row max = 1
    total = z.sum(axis=1, dtype=np.float64)
    out = []
    for r in range(z.shape[0]):
        zr, target = z[r], (top_p * total[r] if top_p < 1.0 else total[r])
        for thr in (1e-2, 1e-4, eps, -1.0):  # widen the shortlist until it holds the nucleus
            cand = np.flatnonzero(zr >= thr) if thr >= 0 else np.arange(zr.shape[0])
            pc = zr[cand].astype(np.float64)
            if pc.sum() >= target or thr < 0:
                break
        order = np.argsort(-pc, kind="stable")
        cand, cum = cand[order], np.cumsum(pc[order])
        keep = min(int(np.searchsorted(cum, target)) + 1, cum.shape[0])
        u = rngs[r].random() * cum[keep - 1]
        idx = min(int(np.searchsorted(cum[:keep], u, side="right")), keep - 1)
        out.append(int(cand[idx]))
    return out


def sample_token(logits: np.ndarray, rng: np.random.Generator, temperature: float,
                 top_p: float) -> int:
    """One-row :func:`sample_tokens` (``logits`` of shape ``(V,)``)."""
    return sample_tokens(np.asarray(logits)[None, :], [rng], temperature, top_p)[0]


def log_softmax_rows(logits: np.ndarray) -> np.ndarray:
    """Row-wise log-softmax of an ``(m, V)`` matrix (float64, nats)."""
    x = np.asarray(logits, dtype=np.float64)
    z = x - np.max(x, axis=1, keepdims=True)
    return z - np.log(np.sum(np.exp(z), axis=1, keepdims=True))


def sample_rng(seed: int | None, sample_index: int) -> np.random.Generator:
    """Random generator of sample ``sample_index`` of a request.

    With a seed, sample ``i`` is the same whatever ``n`` is (so a cache keyed per
    sample stays consistent); without one, fresh OS entropy is used.
    """
    if seed is None:
        return np.random.default_rng()
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, int(sample_index)])


class StopScanner:
    """Incremental stop-sequence detection over decoded text.

    Feed the full decoded text after each token; :meth:`find` returns the index
    where the earliest stop sequence starts, or ``-1``.
    """

    def __init__(self, stops: tuple[str, ...] | list[str]):
        self.stops = tuple(s for s in stops if s)
        self._longest = max((len(s) for s in self.stops), default=0)
        self._checked = 0

    def find(self, text: str) -> int:
        if not self.stops:
            return -1
        start = max(0, self._checked - self._longest + 1)
        best = -1
        for s in self.stops:
            i = text.find(s, start)
            if i >= 0 and (best < 0 or i < best):
                best = i
        self._checked = len(text)
        return best


def truncate_at_stop(text: str, offsets: list[int], logprobs: list[float],
                     stop_at: int) -> tuple[str, list[float]]:
    """Cut ``text`` at character ``stop_at`` and keep the log-probs of the
    tokens that start before it.

    Args:
        offsets: character offset at which each generated token starts
            (same length as ``logprobs``).
    """
    kept = [lp for off, lp in zip(offsets, logprobs) if off < stop_at]
    return text[:stop_at], kept
