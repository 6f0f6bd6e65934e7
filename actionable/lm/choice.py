"""Scoring admissible candidates with any LM: three modes, chosen by what the backend can do.

Every method that ranks a closed set of candidates (the grounded planner's next step, the continual
agent's next skill, the query estimator's yes/no) calls ``lm.score(prompt, continuations)``. Many
backends cannot score a given text (hosted chat APIs return no prompt log-probs), so
:func:`as_scorer` wraps the backend in one of three modes:

``score`` (a)
    completion with prompt log-probs: the summed log-prob (nats) of each continuation after the
    prompt (the backend's own ``score``; LoTa-Bench's likelihood scoring).
``choice-logprobs`` (b)
    a choice prompt (the context, then the candidates numbered ``1..n``, "answer with the number"),
    one greedy answer token with its top-k log-probs; the score of candidate ``i`` is the log-prob
    of the token ``i``, renormalised over the shown candidates (log-softmax over the ``n``
    numbers), as in the choice-style prompting of SayCan (Ahn et al. 2022) and LoTa-Bench (Choi et
    al. 2024). A number outside the top-k gets the residual mass shared by the missing numbers
    (at most the smallest top-k probability).
``choice-name`` (c)
    chat without log-probs: the model answers the same choice prompt with text; the answer is
    parsed (:func:`parse_answer`: a number in range, or a candidate's text) and checked against the
    candidates, asked once more when it names none, and otherwise the candidates all score
    ``log(1/n)`` so the method's other terms (the prior) decide; :attr:`ChoiceScorer.notes` records it.
    The named candidate scores ``log(1 - EPS)``, the others ``log(EPS / (n - 1))`` (``EPS`` = 0.1).

Calibration (on by default, ``calibrate=False`` turns it off). A small model answering a choice
prompt mostly answers with a position, not a candidate: SmolLM2-135M put its greedy answer on option
1 in every one of 91 steps of the grounded planner (6 tuning-split programs, 65% of the mass on
average), so the candidate shown last (Done) lost every step and plans ran long. Following the
content-free calibration of Zhao et al. 2021 ("Calibrate Before Use", Eq. 1-2: ``q ∝ p / p_cf``),
each choice prompt is asked a second time with the same context and every option replaced by
``N/A``: in (b) the scores become ``log_softmax(log p - log p_cf)``; in (c) an answer equal to the
content-free answer carries no evidence about the candidates, so all score ``log(1/n)`` and the
prior decides (counted in ``ChoiceScorer.position_answers`` and said in ``notes``). The context is the
prompt's prefix, so a backend with prefix caching (the embedded engine, vLLM, llama.cpp's server)
evaluates only the options again.

Scores of (b) and (c) are normalised log-probabilities over the shown candidates (<= 0, they sum to
1 in probability); scores of (a) are unnormalised. A method that divides (a)'s scores by length
asks :func:`scoring_mode` first.

At most :data:`MAX_SHOWN` (9) candidates are shown in one choice prompt, so every number is one
digit (one token in every tokenizer). With more, the candidates are shown in groups of at most 9,
each group renormalised and weighted by its share of the candidates (an approximation: the groups
are never compared in one prompt). The grounded planner shows at most 9 (its 8 best by the other
terms, and Done), so for it the choice is exact.

Backends offer (b) with a ``choice_logprobs(prompt, k)`` method returning ``(answer text, [(token,
log-prob), ...] of the first answer token)`` or ``None`` when the server sends no log-probs
(:class:`~actionable.lm.openai_compat.OpenAICompatLM` on chat and completions endpoints,
:class:`~actionable.lm.embedded.EmbeddedLM` through its chat template), and (c) with
``choice_answer(prompt, max_tokens)`` returning the answer text.
"""

from __future__ import annotations

import math
import re
from typing import Sequence

from actionable.core.errors import CapabilityError, ConfigError

#: The modes, as the ``--lm-mode`` flag, the JSON output (``lm_mode``) and the docs name them.
MODES = {
    "score": "(a) completion with prompt log-probs: each candidate's log-likelihood",
    "choice-logprobs": "(b) choice prompt, log-prob of the chosen number renormalised over the candidates",
    "choice-name": "(c) choice prompt, the model names a candidate (no log-probs; retried once, else the prior)",
}
#: Values of ``--lm-mode``: ``auto`` picks the first mode the backend can do, in the order above.
MODE_CHOICES = ("auto", *MODES)
MAX_SHOWN = 9
TOP_K = 20
EPS = 0.1

_INSTRUCTION = "Which option is the best next step? Answer with the number of one option only."


def choice_prompt(context: str, options: Sequence[str]) -> str:
    """The choice prompt: ``context`` (stripped), the numbered ``options`` (stripped, one line each),
    then the instruction to answer with a number.

    Raises:
        ConfigError: no options, or more than :data:`MAX_SHOWN`.
    """
    if not options:
        raise ConfigError("a choice prompt needs at least one option")
    if len(options) > MAX_SHOWN:
        raise ConfigError(f"a choice prompt shows at most {MAX_SHOWN} options (got {len(options)})")
    lines = [context.rstrip(), "", "Options:"]
    lines += [f"{i}. {' '.join(o.split())}" for i, o in enumerate(options, 1)]
    lines += ["", _INSTRUCTION]
    return "\n".join(lines)


def retry_prompt(context: str, options: Sequence[str], answer: str) -> str:
    """The second ask of mode (c), after ``answer`` named no option."""
    shown = " ".join(answer.split())[:80]
    return (choice_prompt(context, options) + f"\n\nYour previous answer {shown!r} is not one of the options. "
            f"Reply with a single number from 1 to {len(options)}.")


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9 ]+", " ", text.lower()).split())


_NUM = re.compile(r"(?<![\w.])(-?\d+)(?![\w]|\.\d)")


def parse_answer(answer: str | None, options: Sequence[str]) -> int | None:
    """The option an answer names, as a 0-based index, or ``None``.

    Accepted: a number ``1..n`` at the start (``"3"``, ``"3."``, ``"Option 3: ..."``, ``"(3)"``) or
    anywhere, when it is the only number in the answer; else the option's text (case, punctuation and spacing ignored),
    exactly, or as the only option whose text the answer contains. Refused (``None``): empty or
    blank answers, a number out of range (0, negative, > n), several different numbers, text
    naming no option or several options.
    """
    if not isinstance(answer, str):
        return None
    text = answer.strip()
    if not text:
        return None
    n = len(options)
    head = re.match(r"^[^\w-]*(?:option|answer|number|step)?\s*[:#(]?\s*(-?\d+)\b(?!\.\d)", text, re.IGNORECASE)
    nums = {int(m) for m in _NUM.findall(text)}
    if head:
        k = int(head.group(1))
        return k - 1 if 1 <= k <= n and nums <= {k} else None
    if len(nums) == 1:
        k = nums.pop()
        return k - 1 if 1 <= k <= n else None
    if len(nums) > 1:
        return None
    a = _norm(text)
    if not a:
        return None
    normed = [_norm(o) for o in options]
    exact = [i for i, o in enumerate(normed) if o and o == a]
    if len(exact) == 1:
        return exact[0]
    inside = [i for i, o in enumerate(normed) if o and re.search(rf"\b{re.escape(o)}\b", a)]
    # "walk to kitchen" inside "walk to kitchen table" is not a second option: keep the longest
    inside = [i for i in inside if not any(j != i and normed[i] in normed[j] for j in inside)]
    return inside[0] if len(inside) == 1 else None


def renormalise(top: Sequence[tuple[str, float]] | dict, n: int) -> list[float]:
    """Log-probs of the numbers ``1..n`` from a top-k list of ``(token, log-prob)``, renormalised
    over the ``n`` (log-softmax). A token counts for number ``i`` when its text, stripped of spaces
    and a trailing ``.``/``)``, is ``i``; several such tokens are summed in probability. A number
    not in the list gets ``min(residual / missing, smallest top-k probability)``, where ``residual``
    is the mass the list does not cover.

    Returns:
        ``n`` log-probs (nats) whose probabilities sum to 1.
    """
    items = list(top.items()) if isinstance(top, dict) else list(top)
    mass = [0.0] * n
    covered = 0.0
    lowest = 1.0
    for tok, lp in items:
        if lp is None or not isinstance(lp, (int, float)) or math.isnan(lp):
            continue
        p = math.exp(min(0.0, float(lp)))
        covered += p
        lowest = min(lowest, p)
        t = str(tok).strip().rstrip(".)")
        if t.isdigit() and 1 <= int(t) <= n and str(int(t)) == t:
            mass[int(t) - 1] += p
    missing = [i for i in range(n) if mass[i] <= 0.0]
    if missing:
        floor = min(max(0.0, 1.0 - covered) / len(missing), lowest)
        floor = max(floor, 1e-12)
        for i in missing:
            mass[i] = floor
    z = sum(mass)
    return [math.log(m / z) for m in mass]


_BLANK = "N/A"


def _content_free(context: str, n: int) -> str:
    """The choice prompt of ``context`` with its ``n`` options blanked (Zhao et al. 2021's content-free
    input): what the model answers here is its answer whatever the options are."""
    return choice_prompt(context, [_BLANK] * n)


def _log_softmax(xs: Sequence[float]) -> list[float]:
    m = max(xs)
    z = m + math.log(sum(math.exp(x - m) for x in xs))
    return [x - z for x in xs]


def _groups(n: int) -> list[range]:
    k = math.ceil(n / MAX_SHOWN)
    size = math.ceil(n / k)
    return [range(i, min(n, i + size)) for i in range(0, n, size)]


def backend_modes(lm) -> list[str]:
    """The modes ``lm`` offers, best first (see the module doc)."""
    out = []
    if getattr(lm, "supports_score", False):
        out.append("score")
    if callable(getattr(lm, "choice_logprobs", None)) and getattr(lm, "supports_logprobs", True):
        out.append("choice-logprobs")
    if callable(getattr(lm, "choice_answer", None)) or callable(getattr(lm, "generate", None)):
        out.append("choice-name")
    return out


class ChoiceScorer:
    """An LM wrapped so that ``score`` works in mode (b) or (c) (module doc); ``generate`` and other
    attributes pass through to the wrapped backend.

    Args:
        lm: the backend.
        mode: ``"choice-logprobs"`` or ``"choice-name"``.
        top_k: top log-probs asked for in mode (b) (OpenAI allows at most 20).

    Attributes:
        lm_mode: the mode.
        notes: what went wrong in mode (b)/(c) (answers that named no option, the prior deciding),
            in call order; methods copy them into their warnings.
        calls / fallbacks: choice prompts asked; times the prior decided (mode c).
        position_answers: mode (c) answers equal to the content-free answer (calibration), for which
            the prior decided.
    """

    supports_score = True

    def __init__(self, lm, mode: str, top_k: int = TOP_K, calibrate: bool = True):
        if mode not in ("choice-logprobs", "choice-name"):
            raise ConfigError(f"ChoiceScorer mode must be choice-logprobs or choice-name (got {mode!r})")
        self.inner = lm
        self.lm_mode = mode
        self.top_k = top_k
        self.calibrate = bool(calibrate)
        self.position_answers = 0
        self.model_id = lm.model_id
        self.supports_logprobs = getattr(lm, "supports_logprobs", False)
        self.supports_batch = getattr(lm, "supports_batch", False)
        self.notes: list[str] = []
        self.calls = 0
        self.fallbacks = 0

    def generate(self, prompt, params=None):
        return self.inner.generate(prompt, params)

    def __getattr__(self, name: str):
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    # ------------------------------------------------------------------ asking
    def _answer(self, prompt: str, max_tokens: int = 12) -> str:
        fn = getattr(self.inner, "choice_answer", None)
        if callable(fn):
            return fn(prompt, max_tokens=max_tokens)
        from actionable.lm.base import GenerationParams

        params = GenerationParams(n=1, temperature=0.0, top_p=1.0, max_tokens=max_tokens, stop=("\n",),
                                  presence_penalty=0.0, frequency_penalty=0.0, seed=0)
        return self.inner.generate(prompt + "\nAnswer:", params)[0].text

    def _group(self, context: str, options: list[str]) -> list[float]:
        n = len(options)
        if n == 1:
            return [0.0]
        self.calls += 1
        prompt = choice_prompt(context, options)
        if self.lm_mode == "choice-logprobs":
            lps = self._logprobs(prompt, n)
            if self.calibrate:  # Zhao et al. 2021: q ∝ p / p_cf (module doc)
                cf = self._logprobs(_content_free(context, n), n)
                lps = _log_softmax([a - b for a, b in zip(lps, cf)])
            return lps
        answer = self._answer(prompt)
        k = parse_answer(answer, options)
        if k is None:
            retry = self._answer(retry_prompt(context, options, answer))
            k = parse_answer(retry, options)
            if k is None:
                self.fallbacks += 1
                self.notes.append(f"the LM named no candidate ({answer.strip()[:40]!r}, then "
                                  f"{retry.strip()[:40]!r}); the prior decided")
                return [math.log(1.0 / n)] * n
        if self.calibrate and parse_answer(self._answer(_content_free(context, n)), [_BLANK] * n) == k:
            # the same answer with no candidates shown: a position, not a choice (module doc)
            self.position_answers += 1
            if self.position_answers == 1:
                self.notes.append(f"the LM answered option {k + 1}, as it does with no candidates shown "
                                  "(content-free calibration); the prior decided")
            return [math.log(1.0 / n)] * n
        return [math.log(1 - EPS) if i == k else math.log(EPS / (n - 1)) for i in range(n)]

    def _logprobs(self, prompt: str, n: int) -> list[float]:
        got = self.inner.choice_logprobs(prompt, self.top_k)
        if got is None:
            raise CapabilityError(
                f"{self.model_id} returned no top log-probs for the choice prompt; use --lm-mode choice-name "
                "(the model names a candidate) or a server that returns logprobs")
        return renormalise(got[1], n)

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Normalised log-probs (nats) of the candidates ``continuations`` after ``prompt`` through
        the choice prompt (module doc). Empty continuations are shown as ``(nothing)``.

        Raises:
            CapabilityError: mode (b) and the backend returned no top log-probs.
        """
        conts = [c.strip() or "(nothing)" for c in continuations]
        if not conts:
            return []
        groups = _groups(len(conts))
        out = [0.0] * len(conts)
        for g in groups:
            lps = self._group(prompt, [conts[i] for i in g])
            share = math.log(len(g) / len(conts)) if len(groups) > 1 else 0.0
            for i, lp in zip(g, lps):
                out[i] = lp + share
        return out


def scoring_mode(lm) -> str:
    """``"score"`` for a backend that scores itself, else the :class:`ChoiceScorer`'s mode."""
    return getattr(lm, "lm_mode", None) or ("score" if getattr(lm, "supports_score", False) else "none")


def as_scorer(lm, mode: str = "auto", flag: str = "--model", calibrate: bool = True):
    """``lm`` able to ``score`` candidates, in ``mode`` (``auto``: the best the backend offers);
    ``calibrate``: content-free calibration of modes (b) and (c) (module doc).

    ``auto`` asks the backend: ``score`` when it scores (an OpenAI-compatible completions server is
    probed once: its echoed prompt log-probs must agree with its sampled ones), else
    ``choice-logprobs`` when it returns top log-probs (probed with one choice prompt), else
    ``choice-name``.

    Returns:
        ``lm`` itself (mode a) or a :class:`ChoiceScorer`.

    Raises:
        ConfigError: unknown mode, or a mode this backend cannot do (the message names ``flag``
            and the modes it can do).
    """
    if mode not in MODE_CHOICES:
        raise ConfigError(f"--lm-mode: unknown mode {mode!r}; use one of {', '.join(MODE_CHOICES)}")
    if lm is None:
        raise ConfigError(f"no planning LM: give one with {flag} (e.g. {flag} embedded)")
    if isinstance(lm, ChoiceScorer):
        return lm if mode in ("auto", lm.lm_mode) else as_scorer(lm.inner, mode, flag, calibrate)
    offered = backend_modes(lm)
    if mode == "auto":
        if "score" in offered and _echo_ok(lm):
            return lm
        if "choice-logprobs" in offered and _probe_logprobs(lm):
            return ChoiceScorer(lm, "choice-logprobs", calibrate=calibrate)
        return ChoiceScorer(lm, "choice-name", calibrate=calibrate)
    if mode == "score":
        if "score" not in offered or not _echo_ok(lm, raise_=True):
            raise ConfigError(f"--lm-mode score needs a backend that scores a given text (prompt log-probs): "
                              f"{lm.model_id} cannot; use {flag} embedded, gguf:<file>, hf:<path> or "
                              f"openai:<name>@<url> on a server that echoes prompt log-probs, or --lm-mode auto")
        return lm
    if mode == "choice-logprobs" and "choice-logprobs" not in offered:
        raise ConfigError(f"--lm-mode choice-logprobs needs top log-probs of the answer: {lm.model_id} has "
                          f"none; use --lm-mode choice-name, or {flag} openai-chat:<name>@<url> on a server "
                          "that returns logprobs")
    return ChoiceScorer(lm, mode, calibrate=calibrate)


def scoring(lm):
    """``lm`` as it is when it scores (or is ``None``), else :func:`as_scorer` in ``auto`` mode: what a
    method that ranks candidates with ``lm.score`` (the continual agents) wraps its LM in."""
    if lm is None or getattr(lm, "supports_score", False):
        return lm
    return as_scorer(lm)


def _echo_ok(lm, raise_: bool = False) -> bool:
    check = getattr(lm, "check_score", None)
    if not callable(check):
        return True
    try:
        check()
        return True
    except CapabilityError:
        if raise_:
            return False
        return False


def _probe_logprobs(lm) -> bool:
    from actionable.core.errors import BackendUnavailableError, LMError

    try:
        got = lm.choice_logprobs(choice_prompt("Task: wash hands", ["walk to bathroom", "Done"]), 2)
    except BackendUnavailableError:
        raise  # the server is down: say so, do not pick another mode
    except LMError:  # the server refuses log-probs (HTTP 4xx, no field): mode (c)
        return False
    return got is not None and bool(got[1])


__all__ = ["MODES", "MODE_CHOICES", "MAX_SHOWN", "ChoiceScorer", "as_scorer", "backend_modes", "choice_prompt",
           "parse_answer", "renormalise", "retry_prompt", "scoring", "scoring_mode"]
