"""Admissible-action index: cosine top-k over embedded action phrases.

Huang et al. 2022, Sec. 3.2: a free-text step ``ahat`` is translated to the
admissible action ``argmax_a cos(f(ahat), f(a))``. The index holds ``f(a)`` for
every admissible-action phrase (``Step.to_text()``, e.g. ``put mug in sink``)
as one float32 matrix ``(n, d)`` of unit rows, so a query batch costs one
matrix product ``(q, d) @ (d, n)``.

Embedding the action space is the slow part (about 85 s for 50k phrases on 2
CPU cores with MiniLM), so the matrix is cached on disk as ``.npy``, keyed by
the embedder's ``model_id`` and a SHA-256 of the phrase list. A cache file that
does not match the expected shape is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from collections import OrderedDict
from pathlib import Path
from typing import Sequence

import numpy as np

from actionable.core.errors import GroundingError, InputError

_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def phrases_key(model_id: str, phrases: Sequence[str]) -> str:
    """Cache key: ``<sanitised model id>-<sha256(model id, phrases)[:20]>``."""
    h = hashlib.sha256()
    h.update(model_id.encode("utf-8"))
    for p in phrases:
        h.update(b"\x00")
        h.update(p.encode("utf-8"))
    safe = _SAFE.sub("_", model_id).strip("_")[-60:]
    return f"{safe}-n{len(phrases)}-{h.hexdigest()[:20]}"


#: Most distinct query texts whose embeddings an index keeps (LRU).
QUERY_MEMO = 4096


class ActionIndex:
    """Embeddings of admissible-action phrases with cosine top-k search.

    Args:
        embedder: the translation LM (see :mod:`actionable.grounding.embedder`).
        phrases: admissible-action strings, one per action; order is kept, so
            ``indices`` from :meth:`search` index into ``phrases`` (and
            ``items`` when given).
        cache_dir: directory of the on-disk cache (``<cache_dir>/action_index``);
            ``None`` disables caching.
        items: optional payload aligned with ``phrases`` (e.g. the class-level
            ``Step`` objects the phrases came from).
        batch_size: embedding batch size.

    Attributes:
        matrix: ``(n, d)`` float32, unit rows.
        build_seconds: wall time spent embedding or loading (s).
        cache_hit: ``True`` when the matrix came from disk.
        cache_path: the ``.npy`` file used, or ``None``.

    Raises:
        GroundingError: an empty phrase list, or items not aligned with phrases.
        InputError: phrases that are not strings.
    """

    def __init__(self, embedder, phrases: Sequence[str], cache_dir: str | Path | None = None,
                 items: Sequence | None = None, batch_size: int = 256):
        phrases = list(phrases)
        if not phrases:
            raise GroundingError("the admissible-action list is empty; the scene offers no actions "
                                 "(check the scene name with `actionable scenes`)")
        for i, p in enumerate(phrases):
            if not isinstance(p, str) or not p.strip():
                raise InputError(f"action phrase {i} is {p!r}; phrases must be non-empty strings")
        if items is not None and len(items) != len(phrases):
            raise GroundingError(f"items has {len(items)} entries but phrases has {len(phrases)}; "
                                 "they must be aligned")
        self.embedder = embedder
        self.phrases: list[str] = phrases
        self.items = list(items) if items is not None else None
        self.model_id: str = embedder.model_id
        self.cache_path: Path | None = None
        self.cache_hit = False
        self.cache_dir = None if cache_dir is None else Path(cache_dir)
        self._query_memo: OrderedDict[str, np.ndarray] = OrderedDict()  # see _encode_queries
        self._topk_memo: OrderedDict[tuple[str, int], tuple[np.ndarray, np.ndarray]] = OrderedDict()  # see search
        t0 = time.perf_counter()
        self.matrix = self._load_or_build(cache_dir, batch_size)
        self.build_seconds = time.perf_counter() - t0

    @classmethod
    def from_steps(cls, embedder, steps: Sequence, cache_dir: str | Path | None = None,
                   batch_size: int = 256) -> "ActionIndex":
        """Index class-level :class:`~actionable.core.program.Step` objects by
        their ``to_text()`` phrase; duplicates (same phrase) are dropped, first kept."""
        seen: dict[str, object] = {}
        for s in steps:
            seen.setdefault(s.to_text(), s)
        return cls(embedder, list(seen), cache_dir=cache_dir, items=list(seen.values()),
                   batch_size=batch_size)

    def __len__(self) -> int:
        return len(self.phrases)

    def restrict(self, keep: Sequence[int]) -> "ActionIndex":
        """A view over the rows ``keep`` (indices into :attr:`phrases`), sharing
        the embedder and embedding nothing: e.g. the default house's index cut
        down to the actions whose objects a program's own scene has (issue 12,
        "plan where you execute").

        Raises:
            GroundingError: ``keep`` is empty or out of range.
        """
        keep = [int(i) for i in keep]
        if not keep or min(keep) < 0 or max(keep) >= len(self.phrases):
            raise GroundingError(f"restrict() needs row indices in [0, {len(self.phrases)}); got "
                                 f"{len(keep)} rows")
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.phrases = [self.phrases[i] for i in keep]
        other.items = None if self.items is None else [self.items[i] for i in keep]
        other.matrix = self.matrix[keep]
        other._query_memo = self._query_memo  # query vectors do not depend on the rows
        other._topk_memo = OrderedDict()  # neighbours do
        return other

    def _load_or_build(self, cache_dir, batch_size: int) -> np.ndarray:
        path = None
        if cache_dir is not None:
            path = Path(cache_dir) / "action_index" / (phrases_key(self.model_id, self.phrases) + ".npy")
            self.cache_path = path
            if path.exists():
                try:
                    m = np.load(path, allow_pickle=False)
                    if m.ndim == 2 and m.shape[0] == len(self.phrases) and m.dtype == np.float32:
                        self.cache_hit = True
                        return m
                except (OSError, ValueError):
                    pass  # corrupt cache file: rebuild below
        m = np.ascontiguousarray(self.embedder.encode(self.phrases, batch_size=batch_size),
                                 dtype=np.float32)
        if m.shape[0] != len(self.phrases):
            raise GroundingError(f"embedder {self.model_id} returned {m.shape[0]} vectors for "
                                 f"{len(self.phrases)} phrases")
        if path is not None:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npy.tmp")
                with os.fdopen(fd, "wb") as fh:
                    np.save(fh, m, allow_pickle=False)
                os.replace(tmp, path)  # atomic: concurrent readers never see half a file
            except OSError:
                pass  # read-only cache dir: keep working without a cache
        return m

    def _encode_queries(self, texts: list[str]) -> np.ndarray:
        """Embed query texts, encoding each distinct text once per index.

        The k samples of one step often repeat each other, and plans repeat
        steps across positions, so a bounded memo of query vectors (LRU,
        ``QUERY_MEMO`` entries) removes most translation-LM calls. Shape
        ``(len(texts), d)`` float32, unit rows.
        """
        memo = self._query_memo
        todo = [t for t in dict.fromkeys(texts) if t not in memo]
        if todo:
            vecs = self.embedder.encode(todo)
            for t, v in zip(todo, vecs):
                memo[t] = np.asarray(v, dtype=np.float32)
        for t in texts:
            memo.move_to_end(t)
        out = np.stack([memo[t] for t in texts]) if texts else np.zeros((0, self.matrix.shape[1]), np.float32)
        while len(memo) > QUERY_MEMO:
            memo.popitem(last=False)
        return out

    def search(self, queries: Sequence[str] | np.ndarray, k: int = 1) -> tuple[np.ndarray, np.ndarray]:
        """Top-k admissible actions per query by cosine similarity.

        Args:
            queries: texts (embedded with the index's embedder) or a
                ``(q, d)`` float32 matrix of unit rows.
            k: neighbours per query, clipped to ``len(self)``.

        Returns:
            ``(scores, indices)``, both shape ``(q, k)``; ``scores`` float32
            cosines in ``[-1, 1]`` sorted descending per row, ``indices`` int64
            into :attr:`phrases`.

        For texts, each distinct ``(text, k)`` is searched once per index (a bounded LRU memo,
        ``QUERY_MEMO`` entries): the k samples of a planning step repeat each other and earlier
        steps' samples, and the product with the ``(n, d)`` matrix is most of a step's
        translation time. Only the texts not seen before are embedded and multiplied.

        Raises:
            GroundingError: ``k < 1`` or a query matrix of the wrong width.
        """
        if k < 1:
            raise GroundingError(f"k must be at least 1, got {k}")
        k = min(k, len(self.phrases))
        if isinstance(queries, np.ndarray):
            return self._top_k(np.asarray(queries, dtype=np.float32), k)
        texts = list(queries)
        if not texts:
            return np.zeros((0, k), np.float32), np.zeros((0, k), np.int64)
        memo = self._topk_memo
        todo = [t for t in dict.fromkeys(texts) if (t, k) not in memo]
        if todo:
            scores, idx = self._top_k(self._encode_queries(todo), k)
            for t, s, i in zip(todo, scores, idx):
                memo[(t, k)] = (s, i)
        rows = [memo[(t, k)] for t in texts]
        for t in texts:
            memo.move_to_end((t, k))
        while len(memo) > QUERY_MEMO:
            memo.popitem(last=False)
        return np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows])

    def _top_k(self, q: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        """Exact top-k rows of ``q @ matrix.T`` (``k`` already clipped)."""
        if q.ndim != 2 or (q.shape[0] and q.shape[1] != self.matrix.shape[1]):
            raise GroundingError(f"query matrix has shape {q.shape}; expected (q, {self.matrix.shape[1]})")
        if q.shape[0] == 0:
            return np.zeros((0, k), np.float32), np.zeros((0, k), np.int64)
        # (n, d) @ (d, q) rather than (q, d) @ (d, n): the same products, 1.6x faster with OpenBLAS
        # on the 2-core test machine for a step's few new samples (issue 27, docs/results.md)
        sims = np.ascontiguousarray((self.matrix @ q.T).T)
        if k == 1:
            idx = np.argmax(sims, axis=1)[:, None]
        else:
            part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
            order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1, kind="stable")
            idx = np.take_along_axis(part, order, axis=1)
        return np.take_along_axis(sims, idx, axis=1).astype(np.float32), idx.astype(np.int64)

    def translate(self, text: str) -> tuple[str, float]:
        """The nearest admissible phrase to ``text`` and its cosine (Huang et al.
        2022, Sec. 3.2, post-hoc translation)."""
        scores, idx = self.search([text], k=1)
        return self.phrases[int(idx[0, 0])], float(scores[0, 0])
