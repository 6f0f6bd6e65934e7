"""Memory-augmented query evaluation with temporal consistency (ExRAP Sec. 3.2).

For each instruction's query ``q`` at step ``t``:

* **Retrieval** of the ``k`` (=12) most relevant TEKG quadruples ``G_q``.
* **Reuse (Eq. 5).** If ``G_q`` equals the subgraph retrieved at the previous
  evaluation (the same set of ``(source, relation, target)``; a fact seen again
  at a later step is the same fact), the previous answer ``P_{t-1}(q)`` is
  reused - no LM call.
* **LM answer.** Otherwise the LM reads ``G_q`` (with timestamps), the current
  time and the previous answer, and answers *yes* / *no*. Two estimators of
  ``P(q) = P(yes)``:

  - ``mode="logprob"`` (default): one ``score`` call for the continuations
    `` yes`` and `` no``; ``P = softmax`` of the two summed log-probs. One LM
    call per evaluated query.
  - ``mode="sample"``: up to ``samples`` (=10) sampled answers; each sample
    gives ``p_i`` = its answer token's probability (``exp`` of the token
    log-prob, or 0.9 when the backend has no log-probs) turned towards
    *yes*; the consistent ones are averaged (Eq. 7).

* **Temporal consistency (Eq. 6-7).** When the memory behind ``q`` has *aged*
  (no retrieved quadruple is newer than the previous evaluation), an answer
  must not be more certain than the previous one: ``H(P_t) >= H(P_{t-1})``
  (binary entropy, nats). Sample mode keeps only samples meeting the
  constraint and averages them; logprob mode, with a single answer, projects
  an inconsistent answer onto the constraint (same side of 0.5, entropy equal
  to the previous one). If no sample is consistent, the projection of their
  mean is used. ``temporal_consistency=False`` is the ExRAP-TC ablation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from actionable.continual.tekg import TEKG, Quadruple
from actionable.errors import ConfigError
from actionable.lm.base import GenerationParams

_EPS = 1e-6


def entropy(p: float) -> float:
    """Binary entropy ``H(p)`` in nats (0 at p in {0,1}, ln 2 at 0.5)."""
    p = min(max(p, _EPS), 1 - _EPS)
    return -(p * math.log(p) + (1 - p) * math.log(1 - p))


def project(p: float, p_prev: float) -> float:
    """Closest answer to ``p`` (same side of 0.5) with ``H >= H(p_prev)``."""
    if entropy(p) >= entropy(p_prev):
        return p
    m = max(p_prev, 1 - p_prev)  # |p'-0.5| must not exceed |p_prev-0.5|
    return m if p >= 0.5 else 1 - m


@dataclass
class QueryRecord:
    """State kept per query between steps."""

    p: float = 0.5
    retrieved: tuple = ()
    t_eval: int = -1
    history: list = field(default_factory=list)


@dataclass
class QueryStats:
    evaluations: int = 0
    reused: int = 0
    lm_calls: int = 0
    inconsistent: int = 0

    @property
    def reuse_rate(self) -> float:
        return self.reused / self.evaluations if self.evaluations else 0.0


PROMPT = (
    "You are a home robot. Facts from your memory, as (object, relation, value, t=step seen):\n"
    "{facts}\n"
    "Now it is step {t}. Facts seen long ago may be out of date.\n"
    "Previously you judged the answer yes with probability {prev:.2f}.\n"
    "Question: is it true now that {query}?\nAnswer (yes or no):"
)


class QueryEvaluator:
    """Evaluates instruction queries against a TEKG (Eq. 5-7 of ExRAP).

    Args:
        lm: a :class:`~actionable.lm.base.LanguageModel` (needs ``score`` in logprob mode).
        mode: ``"logprob"`` or ``"sample"``.
        k: quadruples retrieved per query (12).
        samples: max samples in sample mode (10).
        temporal_consistency: apply Eq. 6-7 (False = ExRAP-TC).
        reuse: apply Eq. 5 reuse (False recomputes every step).

    Raises:
        ConfigError: unknown mode, or logprob mode with a backend lacking ``score``.
    """

    def __init__(self, lm, mode: str = "logprob", k: int = 12, samples: int = 10,
                 temporal_consistency: bool = True, reuse: bool = True, seed: int = 0):
        if mode not in ("logprob", "sample"):
            raise ConfigError(f"query mode must be 'logprob' or 'sample' (got {mode!r})")
        if mode == "logprob" and not getattr(lm, "supports_score", False):
            raise ConfigError(f"{getattr(lm, 'model_id', 'this LM')} cannot score continuations; "
                              "use --query-mode sample")
        if not 1 <= samples <= 64:
            raise ConfigError(f"samples must be 1..64 (got {samples})")
        self.lm, self.mode, self.k, self.samples = lm, mode, k, samples
        self.temporal_consistency, self.reuse, self.seed = temporal_consistency, reuse, seed
        self.records: dict[str, QueryRecord] = {}
        self.stats = QueryStats()

    def evaluate(self, query: str, memory: TEKG, t: int) -> tuple[float, list[Quadruple], str]:
        """``P(q)`` at step ``t``; returns ``(p, retrieved quadruples, how)`` where
        ``how`` is ``reused`` / ``lm`` / ``lm+consistency`` / ``empty``."""
        rec = self.records.setdefault(query, QueryRecord())
        got = memory.retrieve(query, self.k)
        key = tuple(sorted(q.triple for q in got))
        self.stats.evaluations += 1
        if self.reuse and rec.t_eval >= 0 and key == rec.retrieved:
            self.stats.reused += 1
            return rec.p, got, "reused"
        if not got:
            p, how = 0.5, "empty"
        else:
            aged = rec.t_eval >= 0 and max(q.t for q in got) <= rec.t_eval
            p, how = self._ask(query, got, t, rec.p, aged and self.temporal_consistency)
        rec.p, rec.retrieved, rec.t_eval = p, key, t
        rec.history.append((t, round(p, 4), how))
        return p, got, how

    def _prompt(self, query: str, got: list[Quadruple], t: int, prev: float) -> str:
        facts = "\n".join(q.text() for q in sorted(got, key=lambda q: q.t))
        return PROMPT.format(facts=facts, t=t, prev=prev, query=query)

    def _ask(self, query, got, t, prev, constrain) -> tuple[float, str]:
        prompt = self._prompt(query, got, t, prev)
        self.stats.lm_calls += 1
        if self.mode == "logprob":
            lp_yes, lp_no = self.lm.score(prompt, [" yes", " no"])
            m = max(lp_yes, lp_no)
            p = math.exp(lp_yes - m) / (math.exp(lp_yes - m) + math.exp(lp_no - m))
            if constrain and entropy(p) < entropy(prev):
                self.stats.inconsistent += 1
                return project(p, prev), "lm+consistency"
            return p, "lm"
        params = GenerationParams(n=self.samples, temperature=1.0, top_p=1.0, max_tokens=2,
                                  stop=("\n",), presence_penalty=0.0, frequency_penalty=0.0,
                                  seed=self.seed + t)
        comps = self.lm.generate(prompt, params)
        ps = []
        for c in comps:
            word = c.text.strip().lower()
            conf = 0.9
            if c.token_logprobs:
                conf = min(max(math.exp(c.token_logprobs[0]), 0.5), 1 - _EPS)
            if word.startswith("yes"):
                ps.append(conf)
            elif word.startswith("no"):
                ps.append(1 - conf)
        if not ps:  # no sample said yes/no: no information, keep maximal uncertainty
            return 0.5, "lm-unparsed"
        if not constrain:
            return sum(ps) / len(ps), "lm"
        kept = [p for p in ps if entropy(p) >= entropy(prev)]
        if kept:
            return sum(kept) / len(kept), "lm+consistency"
        self.stats.inconsistent += 1
        return project(sum(ps) / len(ps), prev), "lm+consistency"
