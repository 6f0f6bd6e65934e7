"""Memory-augmented query evaluation with temporal consistency (ExRAP Sec. 3.2).

For each instruction's query ``q`` at step ``t``:

* **Retrieval** of the ``k`` (=12) most relevant TEKG quadruples ``G_q``,
  optionally only those scoring at least ``min_ratio`` of the best (a
  relevance cut-off; our addition, see docs/continual.md).
* **Reuse (Eq. 5).** If ``G_q`` equals the subgraph retrieved at the previous
  evaluation (the same set of ``(source, relation, target)``; a fact seen again
  at a later step is the same fact), the previous answer ``P_{t-1}(q)`` is
  reused - no LM call.
* **LM answer.** Otherwise the LM reads ``G_q`` (with timestamps), the current
  time and the previous answer. Two answer formats:

  - ``answer="cloze"`` (default): for each predicate of the query the prompt
    ends with the open quadruple ``(television_248, is,`` and the LM's
    probabilities of the alternatives (`` on`` / `` off``; rooms; surfaces)
    give ``P(predicate)``; a conjunction multiplies them. SmolLM2-135M cannot
    answer yes/no questions about its context (measured: P(yes) 0.13 when the
    TV is on vs 0.10 when off) but completes quadruples well (P(on) 0.74 vs
    0.16), see docs/continual.md.
  - ``answer="yesno"``: "is it true now that <query>? Answer:" -> P(`` yes``).

  **No evidence, no answer** (cloze): a predicate whose object appears in no
  retrieved quadruple gets the uniform prior ``1 / len(alternatives)`` (0.5
  for on/off) without an LM call. Asked anyway, SmolLM2 answered "on" with
  P 0.93 about a television it had never seen (new-user run), and ExRAP acted
  on that belief instead of going to look.

  **Only the asked object's facts** (cloze, ``context="object"``, the default): the prompt for
  a predicate about ``faucet_2043`` shows the retrieved quadruples whose source or target is
  ``faucet_2043``, not the rest of the retrieved subgraph. Retrieval is by text similarity, so
  "faucet in the kitchen is on" also retrieves the *other* faucets; with ``(faucet_43, is, off)``
  in the prompt SmolLM2-135M answered ``(faucet_2043, is,`` -> on with P 0.17 although
  ``(faucet_2043, is, on, t=2)`` was the line above (0.84 without the other faucet; the ids do
  not matter: faucet_232 gave 0.20), so the 6-room house's kitchen faucet was never believed on
  and its instruction never pending (``follow --scene 1003_2:rooms=6 -x high``, seed 0, SR 0).
  Facts about other objects are no evidence about this one. ``context="retrieved"`` keeps the
  whole subgraph (before/after benchmarks); the yes/no format always shows it.

  Two estimators, per predicate:

  - ``mode="logprob"`` (default): one ``score`` call over the alternatives;
    ``P = softmax`` of their summed log-probs.
  - ``mode="sample"``: up to ``samples`` (=10) sampled completions; each gives
    ``p_i`` = its first token's probability (``exp`` of the token log-prob,
    or 0.9 without log-probs) if it names the asked value, ``1 - p_i`` if it
    names another alternative; unparseable samples are ignored.

* **Temporal consistency (Eq. 6-7).** When the memory behind ``q`` has *aged*
  (no retrieved quadruple is newer than the previous evaluation), an answer
  must not be more certain than the previous one: ``H(P_t) >= H(P_{t-1})``
  (binary entropy, nats). Sample mode keeps only the samples meeting the
  constraint and averages them (Eq. 7); when none does - and always in logprob
  mode, which has a single answer - the mean is projected onto the constraint
  (same side of 0.5, entropy equal to the previous one).
  ``temporal_consistency=False`` is the ExRAP-TC ablation.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from actionable.continual.tekg import TEKG, Quadruple
from actionable.core.errors import ConfigError
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
CLOZE_PROMPT = (
    "Memory of a home robot, as (object, relation, value, t=step seen). Facts seen long ago may "
    "be out of date. Previous belief in '{query}': {prev:.2f}.\n"
    "{facts}\n"
    "Current state at step {t}:\n({source}, {relation},"
)

#: A query predicate in answerable form: (source entity, relation, value, alternatives);
#: ``alternatives`` includes ``value`` (e.g. ("television_248", "is", "on", ("on", "off"))).
ClozeFact = tuple


def _softmax_at(scores: list[float], i: int) -> float:
    m = max(scores)
    z = sum(math.exp(x - m) for x in scores)
    return math.exp(scores[i] - m) / z


class QueryEvaluator:
    """Evaluates instruction queries against a TEKG (Eq. 5-7 of ExRAP).

    Args:
        lm: a :class:`~actionable.lm.base.LanguageModel` (needs ``score`` in logprob mode).
        mode: ``"logprob"`` or ``"sample"``.
        k: quadruples retrieved per query (12).
        samples: max samples in sample mode (10).
        temporal_consistency: apply Eq. 6-7 (False = ExRAP-TC).
        reuse: apply Eq. 5 reuse (False recomputes every step).
        min_ratio: retrieval relevance cut-off (see :meth:`TEKG.retrieve`).
        context: what a cloze prompt shows: ``"object"`` (default) the retrieved quadruples
            about the asked predicate's own object, ``"retrieved"`` all of them (before the
            distractor fix; see the module docstring).

    Raises:
        ConfigError: unknown mode, or logprob mode with a backend lacking ``score``.
    """

    def __init__(self, lm, mode: str = "logprob", k: int = 12, samples: int = 10,
                 temporal_consistency: bool = True, reuse: bool = True, seed: int = 0,
                 answer: str = "cloze", min_ratio: float = 0.0, context: str = "object"):
        if context not in ("object", "retrieved"):
            raise ConfigError(f"cloze context must be 'object' or 'retrieved' (got {context!r})")
        self.context = context
        if not 0.0 <= min_ratio <= 1.0:
            raise ConfigError(f"relevance cut-off must be in [0, 1] (got {min_ratio})")
        self.min_ratio = min_ratio
        if answer not in ("cloze", "yesno"):
            raise ConfigError(f"answer format must be 'cloze' or 'yesno' (got {answer!r})")
        self.answer = answer
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

    def evaluate(self, query: str, memory: TEKG, t: int,
                 facts: tuple[ClozeFact, ...] = ()) -> tuple[float, list[Quadruple], str]:
        """``P(q)`` at step ``t``; returns ``(p, retrieved quadruples, how)`` where
        ``how`` is ``reused`` / ``lm`` / ``lm+consistency`` / ``empty``.

        Args:
            query: the query text (retrieval key and yes/no question).
            facts: the query's predicates as :data:`ClozeFact` (needed by the
                ``cloze`` answer format; without them ``yesno`` is used).
        """
        rec = self.records.setdefault(query, QueryRecord())
        got = memory.retrieve(query, self.k, self.min_ratio)
        key = tuple(sorted(q.triple for q in got))
        self.stats.evaluations += 1
        if self.reuse and rec.t_eval >= 0 and key == rec.retrieved:
            self.stats.reused += 1
            return rec.p, got, "reused"
        if not got:
            p, how = 0.5, "empty"
        else:
            aged = rec.t_eval >= 0 and max(q.t for q in got) <= rec.t_eval
            facts_text = "\n".join(q.text() for q in sorted(got, key=lambda q: q.t))
            per_fact = []
            if self.answer == "cloze" and facts:
                seen = {q.source for q in got} | {q.target for q in got}
                for src, rel, value, alts in facts:
                    if src not in seen:  # no evidence about this object: uniform prior, no LM call
                        per_fact.append([1.0 / len(alts)])
                        continue
                    shown = facts_text
                    if self.context == "object":  # only the asked object's own facts (distractors)
                        shown = "\n".join(q.text() for q in sorted(got, key=lambda q: q.t)
                                          if src in (q.source, q.target))
                    prompt = CLOZE_PROMPT.format(query=query, prev=rec.p, facts=shown, t=t,
                                                 source=src, relation=rel)
                    per_fact.append(self._answer(prompt, [f" {a}" for a in alts], list(alts).index(value), t))
            else:
                prompt = PROMPT.format(facts=facts_text, t=t, prev=rec.p, query=query)
                per_fact.append(self._answer(prompt, [" yes", " no"], 0, t))
            if len(per_fact) == 1:
                answers = per_fact[0]
            else:  # a conjunction: product of the per-predicate means
                answers = [math.prod(sum(a) / len(a) for a in per_fact)]
            p, how = sum(answers) / len(answers), "lm"
            if aged and self.temporal_consistency:  # Eq. 6-7
                kept = [a for a in answers if entropy(a) >= entropy(rec.p)]
                if len(kept) < len(answers):
                    self.stats.inconsistent += 1
                    p = sum(kept) / len(kept) if kept else project(p, rec.p)
                    how = "lm+consistency"
        rec.p, rec.retrieved, rec.t_eval = p, key, t
        rec.history.append((t, round(p, 4), how))
        return p, got, how

    def _answer(self, prompt: str, alternatives: list[str], target: int, t: int) -> list[float]:
        """Probabilities of ``alternatives[target]``: one value from one scoring
        call (logprob mode) or one per usable sample (sample mode)."""
        self.stats.lm_calls += 1
        if self.mode == "logprob":
            return [_softmax_at(self.lm.score(prompt, alternatives), target)]
        params = GenerationParams(n=self.samples, temperature=1.0, top_p=1.0, max_tokens=4,
                                  stop=("\n", ",", ")"), presence_penalty=0.0, frequency_penalty=0.0,
                                  seed=self.seed + t)
        alts = [a.strip().lower() for a in alternatives]
        ps = []
        for c in self.lm.generate(prompt, params):
            word = c.text.strip().lower().strip(",.)")
            conf = 0.9
            if c.token_logprobs:
                conf = min(max(math.exp(c.token_logprobs[0]), 0.5), 1 - _EPS)
            hit = next((j for j, a in enumerate(alts) if word.startswith(a)), None)
            if hit == target:
                ps.append(conf)
            elif hit is not None:
                ps.append(1 - conf)
        return ps or [1.0 / len(alternatives)]  # no sample named an alternative: no information
