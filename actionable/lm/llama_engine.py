"""A multi-sequence llama.cpp context: one prompt, many parallel continuations.

The ``k`` candidate steps of Huang et al. 2022 (Sec. 3.3) share one prompt.
This engine evaluates the prompt once on sequence 0, copies its KV cells to
sequences ``1..k-1`` (``llama_memory_seq_cp`` on a unified KV cache: no data is
copied, cells just gain sequence ids), then decodes all live sequences in one
``llama_decode`` batch per step. Only the logits of positions that are asked
for are computed (no ``logits_all``), and the caller turns them into exact
log-probs.

Across calls, sequence 0 keeps the prompt: a new prompt that extends the
previous one (autoregressive trajectory correction appends the chosen action)
evaluates only the new tokens.

Low-level API of llama-cpp-python >= 0.3.x (``llama_memory_*``); imported lazily.
"""

from __future__ import annotations

import numpy as np

from actionable.errors import InputError, LMError


class LlamaSeqEngine:
    """Owns one llama.cpp context with ``n_seq_max`` sequences and a unified KV cache.

    Args:
        model: ``llama_cpp._internals.LlamaModel`` (e.g. ``Llama._model``).
        n_ctx: KV cells shared by all sequences (prompt + all continuations).
        n_batch: tokens per ``llama_decode`` call during prompt evaluation.
        n_seq_max: most parallel sequences.
        n_threads: CPU threads.

    Raises:
        LMError: llama.cpp could not create the context.
    """

    def __init__(self, model, *, n_ctx: int, n_batch: int, n_seq_max: int, n_threads: int):
        import llama_cpp
        from llama_cpp import _internals

        p = llama_cpp.llama_context_default_params()
        p.n_ctx = n_ctx
        p.n_batch = n_batch
        p.n_ubatch = n_batch
        p.n_seq_max = n_seq_max
        p.n_threads = n_threads
        p.n_threads_batch = n_threads
        p.kv_unified = True
        try:
            self._ctx = _internals.LlamaContext(model=model, params=p, verbose=False)
        except ValueError as exc:
            raise LMError(f"llama.cpp could not create a context (n_ctx={n_ctx}): {exc}") from None
        self._batch = _internals.LlamaBatch(n_tokens=max(n_batch, n_seq_max), embd=0, n_seq_max=1,
                                            verbose=False)
        self._lib = llama_cpp
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        self.n_seq_max = n_seq_max
        self.n_vocab = model.n_vocab()
        self.seq0: list[int] = []           # tokens held by sequence 0
        self._last: np.ndarray | None = None  # logits after seq0's last token
        self.tokens_evaluated = 0

    # ------------------------------------------------------------------ primitives
    def _decode(self, entries: list[tuple[int, int, int, bool]]) -> list[int]:
        """Decode ``(token, pos, seq_id, want_logits)`` entries in one batch;
        return the batch indices that carry logits."""
        b = self._batch.batch
        b.n_tokens = len(entries)
        want = []
        for i, (tok, pos, seq, lg) in enumerate(entries):
            b.token[i] = tok
            b.pos[i] = pos
            b.n_seq_id[i] = 1
            b.seq_id[i][0] = seq
            b.logits[i] = lg
            if lg:
                want.append(i)
        rc = self._lib.llama_decode(self._ctx.ctx, b)
        if rc == 1:
            raise InputError(f"the llama.cpp context ({self.n_ctx} tokens) is full; shorten the prompt, "
                             "lower n or max_tokens, or raise n_ctx")
        if rc != 0:
            raise LMError(f"llama_decode failed with code {rc}")
        self.tokens_evaluated += len(entries)
        return want

    def _row(self, i: int) -> np.ndarray:
        ptr = self._lib.llama_get_logits_ith(self._ctx.ctx, i)
        return np.array(np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)), dtype=np.float32, copy=True)

    def _seq_rm(self, seq: int, p0: int, p1: int = -1) -> None:
        self._lib.llama_memory_seq_rm(self._ctx.memory, seq, p0, p1)

    # ------------------------------------------------------------------ API
    def prefill(self, toks: list[int], logits_from: int | None = None) -> np.ndarray:
        """Make sequence 0 hold exactly ``toks``, reusing the common prefix.

        Args:
            toks: the prompt tokens (non-empty).
            logits_from: ``None`` -> return the logits after the last token,
                shape ``(1, V)``; an index ``j`` -> return the logits after every
                position ``j..len-1``, shape ``(len - j, V)`` (for scoring).

        Raises:
            InputError: ``toks`` does not fit in the context.
        """
        if not toks:
            raise InputError("empty token sequence")
        if len(toks) >= self.n_ctx:
            raise InputError(f"prompt is {len(toks)} tokens, the context holds {self.n_ctx}; shorten it "
                             "or raise n_ctx")
        common = 0
        for a, b in zip(self.seq0, toks):
            if a != b:
                break
            common += 1
        if logits_from is None:
            if common == len(toks) == len(self.seq0) and self._last is not None:
                return self._last[None, :]
            common = min(common, len(toks) - 1)
        else:
            common = min(common, logits_from)
        self._seq_rm(0, common)
        self.seq0 = self.seq0[:common]
        self._last = None
        rows: list[np.ndarray] = []
        for start in range(common, len(toks), self.n_batch):
            stop = min(len(toks), start + self.n_batch)
            entries = [(toks[p], p, 0, (p == len(toks) - 1) if logits_from is None else p >= logits_from)
                       for p in range(start, stop)]
            try:
                idx = self._decode(entries)
            except BaseException:
                self._seq_rm(0, start)
                self.seq0 = list(toks[:start])
                raise
            self.seq0 = list(toks[:stop])
            rows.extend(self._row(i) for i in idx)
        self._last = rows[-1]
        return np.stack(rows)

    def fork(self, n: int) -> None:
        """Share sequence 0's prompt with sequences ``1..n-1``."""
        if n > self.n_seq_max:
            raise InputError(f"{n} parallel samples requested; this model was loaded for at most "
                             f"{self.n_seq_max}")
        for s in range(1, n):
            self._seq_rm(s, -1)
            self._lib.llama_memory_seq_cp(self._ctx.memory, 0, s, -1, -1)

    def step(self, live: list[tuple[int, int]], pos: int) -> np.ndarray:
        """Append one token to each live sequence (``(seq_id, token)`` pairs),
        all at position ``pos``; return their next-token logits, shape ``(m, V)``."""
        idx = self._decode([(tok, pos, seq, True) for seq, tok in live])
        return np.stack([self._row(i) for i in idx])

    def join(self, n: int) -> None:
        """Drop the continuations: sequences ``1..n-1`` and seq 0 beyond the prompt."""
        for s in range(1, n):
            self._seq_rm(s, -1)
        self._seq_rm(0, len(self.seq0))

    def close(self) -> None:
        self._batch.close()
        self._ctx.close()
