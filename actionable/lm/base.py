"""The small language-model interface every backend implements.

Modelled on a capability-flag design (one method to sample, one to score,
flags saying what the backend can do); caching, retries and rate limits are
wrappers around a backend, not part of it.

Shapes and units:
    * ``generate`` returns ``n`` :class:`Completion` objects, in sample order.
      ``token_logprobs`` are natural-log probabilities (nats), one per generated
      token, or ``None`` when the backend cannot report them
      (``supports_logprobs`` is then ``False``).
    * ``score`` returns one summed log-probability (nats) per continuation,
      conditioned on ``prompt``.

The mean token log-probability of a completion (:attr:`Completion.mean_logprob`)
is the ``P(ahat)`` term of the step score in Huang et al. 2022, Sec. 3.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Protocol, Sequence, runtime_checkable


@dataclass(frozen=True)
class Completion:
    """One sampled continuation.

    Attributes:
        text: the generated text (stop sequence excluded).
        token_logprobs: per-token log-probs in nats, or ``None`` if unknown.
        finish_reason: ``"stop"``, ``"length"`` or backend-specific.
    """

    text: str
    token_logprobs: tuple[float, ...] | None = None
    finish_reason: str = "stop"

    @property
    def mean_logprob(self) -> float | None:
        """Mean token log-prob in nats; ``None`` when log-probs are unknown.
        An empty completion with known log-probs has mean ``-inf``."""
        if self.token_logprobs is None:
            return None
        if not self.token_logprobs:
            return -math.inf
        return sum(self.token_logprobs) / len(self.token_logprobs)

    def to_dict(self) -> dict:
        return {
            "text": self.text,
            "token_logprobs": list(self.token_logprobs) if self.token_logprobs is not None else None,
            "finish_reason": self.finish_reason,
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Completion":
        lp = d.get("token_logprobs")
        return cls(text=d["text"], token_logprobs=tuple(lp) if lp is not None else None,
                   finish_reason=d.get("finish_reason", "stop"))


@dataclass(frozen=True)
class GenerationParams:
    """Sampling parameters of one request. Defaults follow the reference demo
    of Huang et al. 2022 (temperature 0.6, top_p 0.9, presence 0.5, frequency 0.3)."""

    n: int = 1
    temperature: float = 0.6
    top_p: float = 0.9
    max_tokens: int = 48
    stop: tuple[str, ...] = ("\n",)
    presence_penalty: float = 0.5
    frequency_penalty: float = 0.3
    seed: int | None = None

    def to_dict(self) -> dict:
        return {
            "n": self.n, "temperature": self.temperature, "top_p": self.top_p,
            "max_tokens": self.max_tokens, "stop": list(self.stop),
            "presence_penalty": self.presence_penalty,
            "frequency_penalty": self.frequency_penalty, "seed": self.seed,
        }


@runtime_checkable
class LanguageModel(Protocol):
    """Protocol of a planning / judging LM backend.

    Attributes:
        model_id: stable identifier recorded with every plan (e.g.
            ``"embedded:SmolLM2-135M-Instruct-Q4_1"``). Never contains secrets.
        supports_logprobs: ``generate`` fills ``token_logprobs``.
        supports_batch: ``n > 1`` is served by one backend call.
        supports_score: ``score`` is implemented.
    """

    model_id: str
    supports_logprobs: bool
    supports_batch: bool
    supports_score: bool

    def generate(self, prompt: str, params: GenerationParams) -> list[Completion]:
        """Sample ``params.n`` completions of ``prompt``.

        Raises:
            LMError (or a subclass) on backend failure.
        """
        ...

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Summed log-prob (nats) of each continuation given ``prompt``.

        Raises:
            CapabilityError if ``supports_score`` is ``False``.
        """
        ...


@dataclass
class LMStats:
    """Counters a backend or wrapper may keep (calls, tokens, seconds)."""

    calls: int = 0
    samples: int = 0
    seconds: float = 0.0
    cache_hits: int = 0
    extra: dict = field(default_factory=dict)
