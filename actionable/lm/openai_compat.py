"""Backend for any OpenAI-compatible server: vLLM, llama.cpp's server, Ollama,
hosted APIs.

Two request styles:
    * ``completions`` (``/v1/completions``): the raw prompt, as the planning LM of
      Huang et al. 2022 was used (Codex / GPT-3 completions). Token log-probs via
      ``logprobs=1``; ``score`` via ``echo=True, max_tokens=0``.
    * ``chat`` (``/v1/chat/completions``): the prompt as one user message; token
      log-probs via ``logprobs=True``. Suited to instruction-tuned judges.

Capabilities are checked on the answers, never assumed:
    * fewer than ``n`` choices -> the missing samples are drawn by repeated
      ``n=1`` calls (seed + i when seeded); ``supports_batch`` becomes ``False``
      and ``degraded`` records why.
    * no token log-probs -> :class:`CapabilityError` naming the capability, unless
      the backend was built with ``require_logprobs=False``; then completions carry
      ``token_logprobs=None`` (never a silent 0) and ``supports_logprobs`` is
      ``False``.

Resilience: per-request timeout; bounded retries with exponential backoff on
connection errors, timeouts, 429 and 5xx (:mod:`actionable.lm.retry`); when
retries are spent, :class:`BackendUnavailableError` names the URL and what to
check. Each retry is logged at INFO level on ``actionable.lm.openai_compat`` (shown by
``actionable --debug``), never as a warning before that error. The API key comes from ``OPENAI_API_KEY`` or ``ACTIONABLE_API_KEY``; it
never appears in ``model_id``, cache keys, logs or error messages.
"""

from __future__ import annotations

import logging
import math
import os
from typing import Literal, Sequence

from actionable.core.errors import (BackendUnavailableError, CapabilityError, ConfigError, LMResponseError,
                               ModelNotFoundError)
from actionable.lm.base import Completion, GenerationParams, LMStats
from actionable.lm.retry import RetryPolicy, call_with_retries
from actionable.lm.sampling import StopScanner

log = logging.getLogger(__name__)

API_KEY_ENV = ("ACTIONABLE_API_KEY", "OPENAI_API_KEY")
MAX_TEXT_CHARS = 100_000  # longer answers are cut (finish_reason "length")


def api_key_from_env() -> str | None:
    """The API key from ``ACTIONABLE_API_KEY`` or ``OPENAI_API_KEY`` (first set)."""
    for name in API_KEY_ENV:
        v = os.environ.get(name)
        if v:
            return v
    return None


def _status(exc: BaseException) -> int | None:
    return getattr(exc, "status_code", None)


def is_transient(exc: BaseException) -> bool:
    """Connection errors, timeouts, HTTP 429 and 5xx are worth retrying."""
    import openai

    if isinstance(exc, (openai.APIConnectionError, openai.APITimeoutError)):
        return True
    s = _status(exc)
    return s is not None and (s == 429 or s >= 500)


class OpenAICompatLM:
    """An OpenAI-compatible server as a :class:`LanguageModel`.

    Args:
        name: model name the server knows (e.g. ``"Qwen/Qwen2.5-7B-Instruct"``).
        base_url: server root including ``/v1`` (e.g. ``"http://127.0.0.1:8000/v1"``).
        style: ``"completions"`` or ``"chat"``.
        api_key: explicit key; default from the environment, else ``"EMPTY"``
            (local servers accept any key).
        timeout_s: per-request timeout in seconds.
        retry: :class:`RetryPolicy` (bounded retries, exponential backoff).
        require_logprobs: raise :class:`CapabilityError` when the server returns
            no token log-probs (default), instead of returning ``None``.

    Attributes:
        model_id: ``"openai:<name>@<base_url>"`` (``openai-chat:`` for chat); no secrets.
        degraded: human-readable notes on capabilities found missing.
        stats: :class:`LMStats` (calls, samples, seconds, ``extra["retries"]``).

    Raises:
        ConfigError: empty name, a base_url that is not http(s), bad style.
        BackendUnavailableError: the ``openai`` package is missing.
    """

    supports_score: bool

    def __init__(self, name: str, base_url: str, *, style: Literal["completions", "chat"] = "completions",
                 api_key: str | None = None, timeout_s: float = 120.0,
                 retry: RetryPolicy | None = None, require_logprobs: bool = True):
        if not name or not name.strip():
            raise ConfigError("openai backend needs a model name: openai:<name>@<base_url>")
        check_base_url(base_url)
        if style not in ("completions", "chat"):
            raise ConfigError(f"style must be 'completions' or 'chat' (got {style!r})")
        try:
            import openai
        except ImportError as exc:
            raise BackendUnavailableError(f"the openai backend needs the 'openai' package: pip install openai "
                                          f"({exc})") from None
        self.name = name.strip()
        self.base_url = base_url.rstrip("/")
        self.style = style
        self.model_id = f"{'openai-chat' if style == 'chat' else 'openai'}:{self.name}@{self.base_url}"
        self.retry = retry or RetryPolicy()
        self.require_logprobs = require_logprobs
        self.supports_logprobs = True
        self.supports_batch = True
        self.supports_score = style == "completions"
        self.degraded: list[str] = []
        self._echo_ok: bool | None = None
        self.stats = LMStats()
        self._key = api_key or api_key_from_env() or "EMPTY"
        # retries are ours (bounded, logged, typed error at the end), not the client's
        self._client = openai.OpenAI(base_url=self.base_url, api_key=self._key, timeout=timeout_s,
                                     max_retries=0)

    # ------------------------------------------------------------------ plumbing
    def _scrub(self, text: str) -> str:
        return text.replace(self._key, "***") if self._key and self._key != "EMPTY" else text

    def _request(self, fn, what: str):
        import openai

        def on_retry(attempt, exc, delay):
            # INFO, not WARNING: a retry is routine, and when retries are spent the typed error
            # below says it all (the CLI prints that one `error:` line; `--debug` shows these)
            self.stats.extra["retries"] = self.stats.extra.get("retries", 0) + 1
            log.info("%s to %s failed (%s); retry %d/%d in %.1fs", what, self.base_url,
                        type(exc).__name__, attempt + 1, self.retry.max_retries, delay)

        try:
            return call_with_retries(fn, is_transient, self.retry, on_retry=on_retry)
        except (openai.APIConnectionError, openai.APITimeoutError) as exc:
            kind = "timed out" if isinstance(exc, openai.APITimeoutError) else "could not connect"
            raise BackendUnavailableError(
                f"{what} to {self.base_url} {kind} after {self.retry.max_retries + 1} attempts: check that the "
                f"server is running and listening there (try: curl {self.base_url}/models), or raise the "
                "timeout") from None
        except openai.APIStatusError as exc:
            s = exc.status_code
            msg = self._scrub(str(getattr(exc, "message", exc)))[:300]
            if s == 429 or s >= 500:
                raise BackendUnavailableError(
                    f"{what} to {self.base_url} failed with HTTP {s} after {self.retry.max_retries + 1} "
                    f"attempts ({msg}); the server is overloaded or failing - check its logs") from None
            if s in (401, 403):
                raise ConfigError(f"{self.base_url} refused the API key (HTTP {s}); set OPENAI_API_KEY or "
                                  "ACTIONABLE_API_KEY to a valid key") from None
            if s == 404:
                raise ModelNotFoundError(
                    f"{self.base_url} answered 404 for model {self.name!r} ({msg}); list served models with "
                    f"curl {self.base_url}/models and check the name and the /v1 suffix") from None
            raise LMResponseError(f"{what} to {self.base_url} was rejected with HTTP {s}: {msg}") from None
        except (openai.OpenAIError, ValueError) as exc:  # malformed JSON, undecodable body, ...
            raise LMResponseError(f"{what} to {self.base_url} returned an unusable answer: "
                                  f"{self._scrub(str(exc))[:300]}") from None

    def _kwargs(self, params: GenerationParams, n: int, seed: int | None) -> dict:
        kw = dict(model=self.name, n=n, max_tokens=params.max_tokens, temperature=params.temperature,
                  top_p=params.top_p, presence_penalty=params.presence_penalty,
                  frequency_penalty=params.frequency_penalty)
        if params.stop:
            kw["stop"] = list(params.stop)[:4]
        if seed is not None:
            kw["seed"] = seed
        return kw

    def _parse_choice(self, choice, params: GenerationParams) -> Completion:
        if self.style == "chat":
            msg = getattr(choice, "message", None)
            text = (getattr(msg, "content", None) or "") if msg is not None else ""
            lp_obj = getattr(choice, "logprobs", None)
            content = getattr(lp_obj, "content", None) if lp_obj is not None else None
            lps = [getattr(t, "logprob", None) for t in content] if content is not None else None
            toks = [getattr(t, "token", "") or "" for t in content] if content is not None else None
        else:
            text = getattr(choice, "text", None) or ""
            lp_obj = getattr(choice, "logprobs", None)
            lps = list(getattr(lp_obj, "token_logprobs", None) or []) if lp_obj is not None else None
            toks = list(getattr(lp_obj, "tokens", None) or []) if lp_obj is not None else None
            if lps is not None and not lps and text:
                lps = None  # a non-empty text with no log-probs: the capability is missing
        if not isinstance(text, str):
            raise LMResponseError(f"{self.base_url} returned a non-text completion ({type(text).__name__})")
        finish = getattr(choice, "finish_reason", None) or "stop"
        if lps is not None:
            if any(v is None or not isinstance(v, (int, float)) or math.isnan(v) or v > 1e-6 for v in lps):
                raise LMResponseError(f"{self.base_url} returned invalid token log-probs (None, NaN or > 0)")
            lps = [float(v) for v in lps]
        # lone surrogates (from \udcxx escapes) cannot be stored or printed: replace them
        text = text.encode("utf-8", errors="replace").decode("utf-8")
        # servers may ignore stop sequences: enforce them here too; cap absurd lengths
        cut = StopScanner(params.stop).find(text)
        if cut < 0 and len(text) > MAX_TEXT_CHARS:
            cut, finish = MAX_TEXT_CHARS, "length"
        elif cut >= 0:
            finish = "stop"
        if cut >= 0:
            text = text[:cut]
        if lps is not None and toks is not None and len(toks) == len(lps):
            # keep the tokens that start inside the returned text: servers list the
            # stop token (llama.cpp) and we may have cut the text ourselves
            off, kept = 0, []
            for t, v in zip(toks, lps):
                if off >= len(text):
                    break
                kept.append(v)
                off += len(t)
            lps = kept
        if lps is None and not text:
            lps = []  # an empty completion has no tokens, so nothing is missing
        if lps is None:
            if self.require_logprobs:
                raise CapabilityError(
                    f"{self.base_url} returned no token log-probs for model {self.name!r}; the planner's "
                    "beta * P(step) term needs them. Use a server that returns logprobs (vLLM, llama.cpp "
                    "server) or set beta to 0 / build the backend with require_logprobs=False")
            if self.supports_logprobs:
                self.supports_logprobs = False
                self.degraded.append("no token log-probs: completions carry token_logprobs=None")
                log.warning("%s returns no token log-probs; token_logprobs will be None", self.base_url)
        return Completion(text=text, token_logprobs=tuple(lps) if lps is not None else None,
                          finish_reason=str(finish))

    def _call(self, prompt: str, params: GenerationParams, n: int, seed: int | None) -> list:
        kw = self._kwargs(params, n, seed)
        if self.style == "chat":
            kw.update(messages=[{"role": "user", "content": prompt}], logprobs=True)
            resp = self._request(lambda: self._client.chat.completions.create(**kw), "chat completion request")
        else:
            kw.update(prompt=prompt, logprobs=1)
            resp = self._request(lambda: self._client.completions.create(**kw), "completion request")
        choices = getattr(resp, "choices", None)
        if choices is None or not isinstance(choices, list):
            raise LMResponseError(f"{self.base_url} answered without a 'choices' list; is this an "
                                  "OpenAI-compatible endpoint?")
        return sorted(choices, key=lambda c: getattr(c, "index", 0) or 0)

    # ------------------------------------------------------------------ protocol
    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        """Sample ``params.n`` completions (see the module doc for degradation).

        Raises:
            BackendUnavailableError: server unreachable / overloaded after retries.
            CapabilityError: no log-probs and ``require_logprobs``.
            LMResponseError: malformed answer. ModelNotFoundError: unknown model.
            ConfigError: the server rejected the API key.
        """
        import time

        params = params or GenerationParams()
        t0 = time.perf_counter()
        out: list[Completion] = []
        if self.supports_batch or params.n == 1:
            out = [self._parse_choice(c, params) for c in self._call(prompt, params, params.n, params.seed)]
            out = out[: params.n]
            if len(out) < params.n and self.supports_batch:
                self.supports_batch = False
                self.degraded.append(f"server returned {len(out)} choices for n={params.n}: "
                                     "falling back to repeated n=1 calls")
                log.warning("%s ignores n>1; falling back to repeated calls", self.base_url)
        while len(out) < params.n:
            i = len(out)
            seed = None if params.seed is None else params.seed + i
            got = self._call(prompt, params, 1, seed)
            if not got:
                raise LMResponseError(f"{self.base_url} returned no choices for an n=1 request")
            out.append(self._parse_choice(got[0], params))
        self.stats.calls += 1
        self.stats.samples += params.n
        self.stats.seconds += time.perf_counter() - t0
        return out

    def _echo_score(self, prompt: str, cont: str) -> float:
        kw = dict(model=self.name, prompt=prompt + cont, max_tokens=1, echo=True, logprobs=1, temperature=0.0)
        resp = self._request(lambda: self._client.completions.create(**kw), "score request")
        ch = (getattr(resp, "choices", None) or [None])[0]
        lp = getattr(ch, "logprobs", None)
        toks = getattr(lp, "tokens", None)
        vals = getattr(lp, "token_logprobs", None)
        offs = getattr(lp, "text_offset", None)
        if not toks or not vals or len(toks) != len(vals):
            raise CapabilityError(f"{self.base_url} does not return echoed prompt log-probs, so "
                                  "score() is unavailable for this server")
        if not offs or len(offs) != len(toks):
            offs, o = [], 0
            for t in toks:
                offs.append(o)
                o += len(t or "")
        # echoed tokens cover prompt+cont; the last token is the 1 generated one
        total, end = 0.0, len(prompt) + len(cont)
        for v, o in zip(vals, offs):
            if len(prompt) <= o < end:
                if v is None:
                    raise LMResponseError(f"{self.base_url} returned a null log-prob inside the text")
                total += float(v)
        return total

    def _check_echo(self) -> None:
        """Once per backend: the echoed log-prob of a greedy token must equal the
        log-prob the server reported when sampling it. llama-cpp-python's server
        (0.3.36) fails this: its echoed log-probs are shifted by one position."""
        if self._echo_ok is None:
            probe = "Task: Brush teeth\nStep 1:"
            got = self._call(probe, GenerationParams(n=1, temperature=0.0, max_tokens=1, stop=(),
                                                     presence_penalty=0.0, frequency_penalty=0.0), 1, 0)
            c = self._parse_choice(got[0], GenerationParams(stop=())) if got else None
            if c is None or not c.text or not c.token_logprobs:
                self._echo_ok = True  # nothing to compare against; trust the server
            else:
                echoed = self._echo_score(probe, c.text)
                self._echo_ok = abs(echoed - sum(c.token_logprobs)) < 0.3
                self.stats.extra["echo_probe"] = (sum(c.token_logprobs), echoed)
            if not self._echo_ok:
                self.supports_score = False
                self.degraded.append("echoed prompt log-probs disagree with sampled ones: score() disabled")
        if not self._echo_ok:
            a, b = self.stats.extra.get("echo_probe", (float("nan"), float("nan")))
            raise CapabilityError(
                f"{self.base_url} returns echoed prompt log-probs that disagree with its own sampled "
                f"log-probs (greedy token: sampled {a:.2f} vs echoed {b:.2f} nats), so score() would be "
                "wrong; use a server with correct prompt log-probs (e.g. vLLM) or the embedded/hf backends")

    def check_score(self) -> None:
        """Whether :meth:`score` can be trusted here (chat style: never; completions: the echo probe
        of :meth:`_check_echo`), for :func:`actionable.lm.choice.as_scorer`.

        Raises:
            CapabilityError: it cannot.
        """
        if self.style != "completions":
            raise CapabilityError(f"{self.model_id}: a chat endpoint cannot score a given text")
        self._check_echo()

    def choice_logprobs(self, prompt: str, k: int = 20) -> tuple[str, list[tuple[str, float]]] | None:
        """One greedy answer token to the choice prompt ``prompt`` with its top-``k`` log-probs
        (mode b of :mod:`actionable.lm.choice`): chat style sends ``logprobs=True,
        top_logprobs=k``; completions style appends ``"\\nAnswer: "`` and sends ``logprobs=k``.

        Returns:
            ``(answer text, [(token, log-prob nats), ...])``, or ``None`` when the server sends
            no top log-probs.
        """
        k = max(1, min(20, int(k)))
        kw = dict(model=self.name, n=1, max_tokens=1, temperature=0.0, top_p=1.0, seed=0)
        if self.style == "chat":
            kw.update(messages=[{"role": "user", "content": prompt}], logprobs=True, top_logprobs=k)
            resp = self._request(lambda: self._client.chat.completions.create(**kw), "choice request")
        else:
            # "Answer: " ends in the space so that the next token is the digit itself (SmolLM2 and
            # Qwen tokenizers write " 1" as two tokens, a space then the digit)
            kw.update(prompt=prompt + "\nAnswer: ", logprobs=k)
            resp = self._request(lambda: self._client.completions.create(**kw), "choice request")
        ch = (getattr(resp, "choices", None) or [None])[0]
        if ch is None:
            raise LMResponseError(f"{self.base_url} answered a choice request without choices")
        lp = getattr(ch, "logprobs", None)
        if self.style == "chat":
            text = getattr(getattr(ch, "message", None), "content", None) or ""
            content = getattr(lp, "content", None) if lp is not None else None
            top = getattr(content[0], "top_logprobs", None) if content else None
            pairs = [(getattr(t, "token", "") or "", getattr(t, "logprob", None)) for t in (top or [])]
        else:
            text = getattr(ch, "text", None) or ""
            tops = getattr(lp, "top_logprobs", None) if lp is not None else None
            first = tops[0] if tops else None
            pairs = list(first.items()) if isinstance(first, dict) else []
        pairs = [(str(t), float(v)) for t, v in pairs if isinstance(v, (int, float)) and not math.isnan(v)]
        return (text, pairs) if pairs else None

    def choice_answer(self, prompt: str, max_tokens: int = 12) -> str:
        """The greedy text answer to the choice prompt ``prompt`` (mode c of
        :mod:`actionable.lm.choice`), asking for no log-probs."""
        kw = dict(model=self.name, n=1, max_tokens=max_tokens, temperature=0.0, top_p=1.0, seed=0)
        if self.style == "chat":
            kw.update(messages=[{"role": "user", "content": prompt}])
            resp = self._request(lambda: self._client.chat.completions.create(**kw), "choice request")
            ch = (getattr(resp, "choices", None) or [None])[0]
            text = getattr(getattr(ch, "message", None), "content", None) if ch is not None else None
        else:
            kw.update(prompt=prompt + "\nAnswer: ", stop=["\n"])
            resp = self._request(lambda: self._client.completions.create(**kw), "choice request")
            ch = (getattr(resp, "choices", None) or [None])[0]
            text = getattr(ch, "text", None) if ch is not None else None
        return text if isinstance(text, str) else ""

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Summed log-prob (nats) of each continuation, via ``echo=True``
        (completions style only): the log-probs of the echoed tokens whose text
        starts at or after the end of ``prompt``. The server's echo is checked
        once against its sampled log-probs before it is trusted.

        Raises:
            CapabilityError: chat style, the server does not echo log-probs, or
                its echoed log-probs are inconsistent (llama-cpp-python's server).
        """
        if self.style != "completions":
            raise CapabilityError(f"{self.model_id}: scoring needs the completions style "
                                  "(echo with log-probs); chat endpoints cannot score a given text: use "
                                  "--model openai:<name>@<url>, or --lm-mode choice-logprobs / choice-name")
        self._check_echo()
        return [self._echo_score(prompt, c) if c else 0.0 for c in continuations]


def check_base_url(base_url: str) -> None:
    """Refuse a ``base_url`` that is not http(s) or that carries credentials (user:password@ or a
    ``key=`` query), without echoing it back when it does.

    Raises:
        ConfigError: either fault, with the fix.
    """
    if not base_url.startswith(("http://", "https://")):
        raise ConfigError(f"base_url must start with http:// or https:// (got {base_url!r}); "
                          "e.g. openai:my-model@http://127.0.0.1:8000/v1")
    from urllib.parse import urlsplit

    parts = urlsplit(base_url)
    if parts.username or parts.password or "key=" in parts.query.lower():
        raise ConfigError("base_url must not carry credentials (they would end up in model ids, caches "
                          "and logs); put the key in OPENAI_API_KEY or ACTIONABLE_API_KEY instead")


def parse_openai_spec(spec: str) -> tuple[str, str, str]:
    """``"openai:<name>@<base_url>"`` / ``"openai-chat:..."`` -> (style, name, base_url).

    The split is at the *last* ``@`` followed by ``http``, so model names may contain ``@``.

    Raises:
        ModelNotFoundError: the spec does not have that form.
    """
    head, _, rest = spec.partition(":")
    style = "chat" if head == "openai-chat" else "completions"
    i = rest.rfind("@http")
    if head not in ("openai", "openai-chat") or i <= 0:
        raise ModelNotFoundError(
            f"bad OpenAI-compatible model spec {spec!r}; use openai:<name>@<base_url>, e.g. "
            "openai:Qwen/Qwen2.5-7B-Instruct@http://127.0.0.1:8000/v1 (openai-chat: for chat endpoints)")
    return style, rest[:i], rest[i + 1:]

