"""A multi-sequence llama.cpp context: one prompt, many parallel continuations.

The ``k`` candidate steps of Huang et al. 2022 (Sec. 3.3) share one prompt.
This engine evaluates the prompt once on sequence 0, copies its KV cells to
sequences ``1..k-1`` (``llama_memory_seq_cp`` on a unified KV cache: no data is
copied, cells just gain sequence ids), then decodes all live sequences in one
``llama_decode`` batch per step. Only the logits of positions that are asked
for are computed (no ``logits_all``), and the caller turns them into exact
log-probs.

History independence (issue 12): quantised CPU kernels round differently for
different batch shapes (flash attention has a tiled path for >= 64 query rows,
a one-row-at-a-time path below, and a KV-split path for a single query row
whose split depends on the thread count), so *which batches computed a KV cell*
must not depend on what ran before. The engine therefore keeps these
invariants:

* a prompt is evaluated in position-aligned chunks ``[0, C), [C, 2C), ...``
  (``C = chunk``, default :data:`CHUNK`), the last one partial, with logits for
  its last token only;
* across calls, sequence 0's KV cells are reused only up to the largest
  multiple of ``C`` inside the common token prefix (so only full chunks, which
  a fresh engine computes identically, are reused), and everything after is
  re-evaluated in aligned chunks;
* KV cells stay in position order (cell ``p`` holds position ``p`` of
  sequence 0; continuations come after and are freed by :meth:`join`);
* a batch of one token is padded with a throw-away token on a scratch
  sequence, so every decode has >= 2 query rows: the single-row flash-attention
  path, whose rounding depends on the thread count and on the KV size, is
  never used, and a row's numbers do not depend on how many other sequences
  share its batch (flash attention is requested explicitly).

So the logits for a token sequence are bit-identical whatever was evaluated
before in the process (tested in ``tests/lm/test_engine_history.py``).

Low-level API of llama-cpp-python >= 0.3.x (``llama_memory_*``); imported lazily.
"""

from __future__ import annotations

import numpy as np

from actionable.core.errors import InputError, LMError

#: Prompt evaluation chunk (tokens): KV is reused only at multiples of it.
#: Smaller chunks re-evaluate less when a prompt grows (trajectory correction
#: re-evaluates on average ``CHUNK / 2`` old tokens per call) but make more
#: ``llama_decode`` calls; measured on a ~450-token prompt (2 busy cores, 1
#: thread): growing the prompt by 8 tokens took ~0.3 s with 16, ~0.5 s with 32,
#: ~1.0 s with 64, and a fresh prefill cost about the same for 16..512.
CHUNK = 16


class LlamaSeqEngine:
    """Owns one llama.cpp context with ``n_seq_max`` sequences and a unified KV cache.

    Args:
        model: ``llama_cpp._internals.LlamaModel`` (e.g. ``Llama._model``).
        n_ctx: KV cells shared by all sequences (prompt + all continuations).
        n_batch: most tokens per ``llama_decode`` call (>= ``chunk`` and
            >= ``n_seq_max + 1``).
        n_seq_max: most parallel sequences (one more, a scratch sequence for
            padding, is allocated internally).
        n_threads: CPU threads.
        chunk: prompt evaluation chunk (see the module doc).

    Raises:
        LMError: llama.cpp could not create the context.
        InputError: ``chunk`` < 1 or > ``n_batch``.
    """

    def __init__(self, model, *, n_ctx: int, n_batch: int, n_seq_max: int, n_threads: int,
                 chunk: int = CHUNK):
        import llama_cpp
        from llama_cpp import _internals

        if not 1 <= chunk <= n_batch:
            raise InputError(f"chunk must be in 1..n_batch={n_batch} (got {chunk})")
        p = llama_cpp.llama_context_default_params()
        p.n_ctx = n_ctx
        p.n_batch = n_batch
        p.n_ubatch = n_batch
        p.n_seq_max = n_seq_max + 1   # + the scratch sequence used to pad one-token batches
        p.n_threads = n_threads
        p.n_threads_batch = n_threads
        p.kv_unified = True
        if hasattr(p, "flash_attn_type") and hasattr(llama_cpp, "LLAMA_FLASH_ATTN_TYPE_ENABLED"):
            p.flash_attn_type = llama_cpp.LLAMA_FLASH_ATTN_TYPE_ENABLED
        elif hasattr(p, "flash_attn"):
            p.flash_attn = True
        try:
            self._ctx = _internals.LlamaContext(model=model, params=p, verbose=False)
        except ValueError as exc:
            raise LMError(f"llama.cpp could not create a context (n_ctx={n_ctx}): {exc}") from None
        self._batch = _internals.LlamaBatch(n_tokens=max(n_batch, n_seq_max + 1), embd=0, n_seq_max=1,
                                            verbose=False)
        self._lib = llama_cpp
        self.n_ctx = n_ctx
        self.n_batch = n_batch
        self.n_seq_max = n_seq_max
        self.chunk = chunk
        self._pad_seq = n_seq_max
        self.n_vocab = model.n_vocab()
        self.seq0: list[int] = []           # tokens held by sequence 0
        self._last: np.ndarray | None = None  # logits after seq0's last token
        self.tokens_evaluated = 0

    # ------------------------------------------------------------------ primitives
    def _decode(self, entries: list[tuple[int, int, int, bool]]) -> list[int]:
        """Decode ``(token, pos, seq_id, want_logits)`` entries in one batch;
        return the batch indices that carry logits. A single entry is padded
        with a scratch token (see the module doc), removed again afterwards."""
        padded = len(entries) == 1
        if padded:
            entries = entries + [(entries[0][0], 0, self._pad_seq, False)]
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
        if padded:
            self._seq_rm(self._pad_seq, -1)
        if rc == 1:
            raise InputError(f"the llama.cpp context ({self.n_ctx} tokens) is full; shorten the prompt, "
                             "lower n or max_tokens, or raise n_ctx")
        if rc != 0:
            raise LMError(f"llama_decode failed with code {rc}")
        self.tokens_evaluated += len(entries) - padded
        return want

    def _row(self, i: int) -> np.ndarray:
        ptr = self._lib.llama_get_logits_ith(self._ctx.ctx, i)
        return np.array(np.ctypeslib.as_array(ptr, shape=(self.n_vocab,)), dtype=np.float32, copy=True)

    def _seq_rm(self, seq: int, p0: int, p1: int = -1) -> None:
        self._lib.llama_memory_seq_rm(self._ctx.memory, seq, p0, p1)

    # ------------------------------------------------------------------ API
    def prefill(self, toks: list[int]) -> np.ndarray:
        """Make sequence 0 hold exactly ``toks``; return the next-token logits
        after its last token, shape ``(1, V)`` (float32).

        Full ``chunk``-aligned chunks of the common prefix with the previous
        prompt are reused; the rest is evaluated in aligned chunks, so the
        result is bit-identical to a fresh engine's.

        Raises:
            InputError: ``toks`` is empty or does not fit in the context.
        """
        if not toks:
            raise InputError("empty token sequence")
        if len(toks) >= self.n_ctx:
            raise InputError(f"prompt is {len(toks)} tokens, the context holds {self.n_ctx}; shorten it "
                             "or raise n_ctx")
        toks = list(toks)
        common = 0
        for a, b in zip(self.seq0, toks):
            if a != b:
                break
            common += 1
        if common == len(toks) == len(self.seq0) and self._last is not None:
            return self._last[None, :]
        # keep whole chunks only, and always re-evaluate the chunk holding the last token
        keep = (min(common, len(toks) - 1) // self.chunk) * self.chunk
        self._seq_rm(0, keep)
        self.seq0 = self.seq0[:keep]
        self._last = None
        last = len(toks) - 1
        row = None
        for start in range(keep, len(toks), self.chunk):
            stop = min(len(toks), start + self.chunk)
            entries = [(toks[p], p, 0, p == last) for p in range(start, stop)]
            try:
                idx = self._decode(entries)
            except BaseException:
                self._seq_rm(0, start)
                self.seq0 = toks[:start]
                raise
            self.seq0 = toks[:stop]
            if idx:
                row = self._row(idx[0])
        self._last = row
        return row[None, :]

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
        all at position ``pos``; return their next-token logits, shape ``(m, V)``.

        A row's logits do not depend on how many sequences are live (each
        query row is its own flash-attention problem; see the module doc)."""
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
