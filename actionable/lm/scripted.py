"""A scripted language model: queued outputs, for tests of control flow.

:class:`ScriptedLM` implements the :class:`~actionable.lm.base.LanguageModel`
protocol without any model. Each :meth:`ScriptedLM.generate` call pops the next
queued item; a list gives the ``n`` samples of that call, a string is repeated
``n`` times. It records every prompt it saw, so a test can assert what the
planner wrote (e.g. that autoregressive trajectory correction appended the
translated action, Huang et al. 2022, Sec. 3.3).

It is shipped in the package (not only in ``tests/``) so that users can test
their own planners and judges against it.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

from actionable.core.errors import ConfigError, LMError
from actionable.lm.base import Completion, GenerationParams, LMStats


def _pseudo_tokens(text: str) -> list[str]:
    """Whitespace 'tokens' of a scripted output (at least one per non-empty text)."""
    return text.split() or ([text] if text else [])


class ScriptedLM:
    """An LM whose outputs are given in advance.

    Args:
        outputs: one item per expected ``generate`` call. A ``list[str]`` holds
            the samples of that call (padded by cycling when ``n`` is larger,
            truncated when smaller); a ``str`` is repeated ``n`` times.
        logprob: the per-token log-prob (nats, <= 0) reported for every
            whitespace token of every output. A scripted output may override it
            per item by being a ``(text, logprob)`` tuple.
        model_id: identifier recorded with plans (default ``"scripted"``).

    Attributes:
        prompts: every prompt passed to ``generate`` / ``score``, in call order.
        params: the :class:`GenerationParams` of each ``generate`` call.

    Raises:
        ConfigError: ``logprob`` is positive or NaN, or an item is not a str,
            list of str or (str, float) tuple.
        LMError: ``generate`` is called after the queue is exhausted.
    """

    supports_logprobs = True
    supports_batch = True
    supports_score = True

    def __init__(self, outputs: Sequence[str | list | tuple] = (), logprob: float = -0.1,
                 model_id: str = "scripted"):
        if not (logprob <= 0.0):  # also rejects NaN
            raise ConfigError(f"ScriptedLM logprob must be <= 0 nats (got {logprob!r})")
        self._queue: list[list[tuple[str, float]]] = [self._normalise(o, logprob, i)
                                                      for i, o in enumerate(outputs)]
        self.logprob = float(logprob)
        self.model_id = model_id
        self.prompts: list[str] = []
        self.params: list[GenerationParams] = []
        self.stats = LMStats()

    @staticmethod
    def _normalise(item, logprob: float, index: int) -> list[tuple[str, float]]:
        def one(x) -> tuple[str, float]:
            if isinstance(x, str):
                return (x, logprob)
            if (isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str)
                    and isinstance(x[1], (int, float)) and x[1] <= 0):
                return (x[0], float(x[1]))
            raise ConfigError(
                f"ScriptedLM output #{index} has an unusable sample {x!r}: use a str or a "
                "(str, logprob<=0) tuple")

        if isinstance(item, (str, tuple)):
            return [one(item)]
        if isinstance(item, list):
            if not item:
                raise ConfigError(f"ScriptedLM output #{index} is an empty list: give at least one sample")
            return [one(x) for x in item]
        raise ConfigError(f"ScriptedLM output #{index} must be a str or a list of str (got {type(item).__name__})")

    @property
    def remaining(self) -> int:
        """Number of queued ``generate`` calls left."""
        return len(self._queue)

    def push(self, item: str | list) -> None:
        """Append one more scripted call to the queue."""
        self._queue.append(self._normalise(item, self.logprob, len(self._queue)))

    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        """Pop the next scripted item and return ``params.n`` completions.

        Each completion carries one log-prob per whitespace token (``logprob``),
        so ``mean_logprob == logprob`` for non-empty text and ``-inf`` for
        empty text (an empty sample, as in the early-stop rule of Huang et al.).

        Raises:
            LMError: the queue is empty (the test scripted too few outputs).
        """
        params = params or GenerationParams()
        self.prompts.append(prompt)
        self.params.append(params)
        if not self._queue:
            raise LMError(
                f"ScriptedLM queue is empty at generate call #{len(self.params)}: the code under test "
                "asked for more LM calls than were scripted; add outputs to ScriptedLM([...])")
        samples = self._queue.pop(0)
        out: list[Completion] = []
        for i in range(params.n):
            text, lp = samples[i % len(samples)]
            for s in params.stop:
                if s and s in text:
                    text = text[: text.index(s)]
            toks = _pseudo_tokens(text)
            out.append(Completion(text=text, token_logprobs=tuple(lp for _ in toks),
                                  finish_reason="stop"))
        self.stats.calls += 1
        self.stats.samples += params.n
        return out

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Deterministic pseudo log-probs: ``logprob * n_tokens`` minus a small
        hash-derived offset in [0, 0.01) that breaks ties reproducibly.

        Does not consume the queue.
        """
        self.prompts.append(prompt)
        scores = []
        for c in continuations:
            h = int.from_bytes(hashlib.sha256((prompt + "\x00" + c).encode("utf-8", "surrogatepass"))
                               .digest()[:4], "big")
            scores.append(self.logprob * max(1, len(_pseudo_tokens(c))) - (h % 10_000) / 1e6)
        return scores


class MemoryReaderLM:
    """A scoring LM for ExRAP episodes without a model (continual tests and the driving exploration
    benchmark): a cloze alternative ("Current state at step ...: (lamp, is,") scores 0 when it is
    the newest state the prompt's memory shows for that object (-6 otherwise); a skill ("Next
    skill:") scores 0 when the pending tasks mention it (-8 otherwise); anything else falls off
    with its position. ``generate`` returns ``generated``. Records every scored prompt in
    ``prompts``. Shapes: ``score(prompt, continuations) -> list[float]`` (nats)."""

    supports_logprobs = supports_batch = supports_score = True
    model_id = "reader"

    def __init__(self, generated: str = " yes"):
        self.generated = generated
        self.prompts: list[str] = []

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        self.prompts.append(prompt)
        if prompt.rstrip().endswith("Next skill:") and "Pending tasks:" in prompt:
            todo = prompt.split("Pending tasks:")[1]
            return [0.0 if c.strip() in todo else -8.0 for c in continuations]
        if "Current state at step" in prompt:
            src = prompt.rsplit("(", 1)[1].split(",")[0]
            seen = [ln for ln in prompt.splitlines() if ln.startswith(f"({src}, is,") and "t=" in ln]
            last = seen[-1].split(",")[2].strip() if seen else None
            return [0.0 if c.strip() == last else -6.0 for c in continuations]
        return [-1.0 - 0.1 * i for i, _ in enumerate(continuations)]

    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        return [Completion(text=self.generated, token_logprobs=[-0.1])]

