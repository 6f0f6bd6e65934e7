"""Temporal embodied knowledge graph (TEKG) of ExRAP.

Memory is a set of quadruples ``(source, relation, target, t)`` (ExRAP Sec. 3.1,
Eq. 2-3 and App. C.2). :meth:`TEKG.update` merges the observation of step ``t``:

1. **contradiction removal** - an old quadruple is dropped when a new one says
   otherwise about the same source: a mutually exclusive state (on vs off,
   open vs closed), a different placement (one object cannot be in two
   places: ``on``/``inside``/``in_room``), or a different holder;
2. **agent facts** - for the agent only the newest quadruples are kept;
3. **negative evidence** - the agent sees its whole room, so a remembered
   object located in that room but absent from the observation has moved:
   its placement quadruples are dropped.

Retrieval (:meth:`TEKG.retrieve`) returns the ``k`` (default 12, ExRAP
App. C.2) quadruples most relevant to a query text by Okapi BM25 over the
quadruple's tokens (``television_248`` gives ``television`` and ``248``), ties
broken by recency. The index is an inverted list of numpy slot arrays over a
slot table with tombstones, so a query costs a few vectorised numpy
operations regardless of memory size (benchmarks/bench_tekg.py: < 2 ms at
10,000 quadruples is the target).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from actionable.core.errors import ContinualError

AGENT = "agent"
#: the default mutually exclusive states (VirtualHome's); a world supplies its own pairs through
#: ``TEKG(exclusive=...)`` (see :class:`actionable.continual.worlds.ContinualWorld`)
EXCLUSIVE = {"on": "off", "off": "on", "open": "closed", "closed": "open"}
PLACEMENT = ("on", "inside", "in_room")
_TOKEN_RE = re.compile(r"[a-z]+|\d+")
_STOP = {"the", "is", "in", "a", "an", "of", "and", "to", "room"}


@dataclass(frozen=True)
class Quadruple:
    """``(source, relation, target, t)``; ``t`` is the step it was observed."""

    source: str
    relation: str
    target: str
    t: int

    @property
    def triple(self) -> tuple[str, str, str]:
        return (self.source, self.relation, self.target)

    def text(self) -> str:
        return f"({self.source}, {self.relation}, {self.target}, t={self.t})"


def exclusive_map(pairs) -> dict[str, str]:
    """``{state: its opposite}`` from pairs ``(("red", "green"), ...)`` (both directions) or a
    mapping (taken as given). ``None`` gives :data:`EXCLUSIVE`.

    Raises:
        ContinualError: a pair that is not two distinct non-empty strings.
    """
    if pairs is None:
        return dict(EXCLUSIVE)
    if isinstance(pairs, dict):
        return dict(pairs)
    out: dict[str, str] = {}
    for pair in pairs:
        if (not isinstance(pair, (tuple, list)) or len(pair) != 2 or pair[0] == pair[1]
                or not all(isinstance(x, str) and x for x in pair)):
            raise ContinualError(f"an exclusive state pair is two different state names like ('on', 'off'); got {pair!r}")
        a, b = pair
        out[a], out[b] = b, a
    return out


def tokenize(text: str) -> list[str]:
    """Lower-case word and number tokens minus stop words (``on``/``off`` are kept;
    ``room`` is dropped: every room name and ``in_room`` carry it)."""
    return [w for w in _TOKEN_RE.findall(text.lower().replace("_", " ")) if w not in _STOP]


class TEKG:
    """The memory graph with contradiction-aware updates and BM25 retrieval.

    Args:
        k1, b: BM25 parameters (defaults 1.2, 0.75).
        exclusive: the world's mutually exclusive states as pairs (``(("on", "off"), ...)``) or a
            ``{state: opposite}`` mapping; ``None``: :data:`EXCLUSIVE` (VirtualHome).
    """

    def __init__(self, k1: float = 1.2, b: float = 0.75, exclusive=None):
        self.k1, self.b = k1, b
        self.exclusive = exclusive_map(exclusive)
        self._slots: list[Quadruple | None] = []
        self._by_triple: dict[tuple[str, str, str], int] = {}
        self._by_source: dict[str, set[int]] = {}
        self._post: dict[str, list[int]] = {}
        self._post_np: dict[str, np.ndarray] = {}
        self._alive = np.zeros(0, dtype=bool)
        self._len = np.zeros(0, dtype=np.float64)
        self._time = np.zeros(0, dtype=np.float64)
        self._n_alive = 0
        self._total_len = 0.0

    # ------------------------------------------------------------------ storage
    def __len__(self) -> int:
        return self._n_alive

    def __iter__(self):
        return (q for q in self._slots if q is not None)

    def about(self, source: str) -> list[Quadruple]:
        """Live quadruples whose source is ``source``."""
        return [self._slots[i] for i in sorted(self._by_source.get(source, ()))]

    def _grow(self) -> None:
        cap = max(64, 2 * len(self._alive))
        for name in ("_alive", "_len", "_time"):
            old = getattr(self, name)
            new = np.zeros(cap, dtype=old.dtype)
            new[: len(old)] = old
            setattr(self, name, new)

    def _add(self, q: Quadruple) -> None:
        old = self._by_triple.get(q.triple)
        if old is not None:
            self._remove(old)
        i = len(self._slots)
        if i >= len(self._alive):
            self._grow()
        self._slots.append(q)
        toks = tokenize(f"{q.source} {q.relation} {q.target}")
        for tok in set(toks):
            self._post.setdefault(tok, []).append(i)
            self._post_np.pop(tok, None)
        self._alive[i] = True
        self._len[i] = len(toks)
        self._time[i] = q.t
        self._by_triple[q.triple] = i
        self._by_source.setdefault(q.source, set()).add(i)
        self._n_alive += 1
        self._total_len += len(toks)

    def _remove(self, i: int) -> None:
        q = self._slots[i]
        if q is None:
            return
        self._slots[i] = None
        self._alive[i] = False
        del self._by_triple[q.triple]
        self._by_source[q.source].discard(i)
        self._n_alive -= 1
        self._total_len -= self._len[i]

    def _maybe_compact(self) -> None:
        """Renumber the slots once half of them are dead. Only between updates: compacting inside
        :meth:`_remove` renumbered the slots while :meth:`update` still held indices from before
        (IndexError / wrong quadruples removed after ~250 steps in the driving world, issue 25)."""
        if len(self._slots) > 256 and self._n_alive < len(self._slots) // 2:
            self._compact()

    def _compact(self) -> None:
        live = [q for q in self._slots if q is not None]
        self.__init__(self.k1, self.b, self.exclusive)
        for q in live:
            self._add(q)

    # ------------------------------------------------------------------ update (Eq. 2-3)
    def contradicts(self, old: Quadruple, new: Quadruple) -> bool:
        """Whether ``new`` makes ``old`` false (same source; App. C.2 rules)."""
        if old.source != new.source or old.triple == new.triple:
            return False
        if old.source == AGENT and old.t < new.t:
            return True
        if old.relation == "is" and new.relation == "is":
            return self.exclusive.get(old.target) == new.target
        if old.relation in PLACEMENT and new.relation in PLACEMENT:
            # one object, one place: a new room or a new support replaces the old one
            return (old.relation == "in_room") == (new.relation == "in_room")
        if new.relation in PLACEMENT and old.relation == "held_by":
            return True
        if new.relation == "held_by" and old.relation in ("on", "inside"):
            return True
        return False

    def update(self, facts, t: int, room: str | None = None) -> dict:
        """Merge the triples observed at step ``t`` (Eq. 2-3).

        Args:
            facts: iterable of ``(source, relation, target)``.
            t: current step (int >= every stored timestamp).
            room: the observed room; enables the negative-evidence rule.

        Returns:
            ``{"added": int, "removed": int}``.

        Raises:
            ContinualError: ``t`` earlier than the newest stored quadruple.
        """
        if self._n_alive and t < float(self._time[: len(self._slots)][self._alive[: len(self._slots)]].max()):
            raise ContinualError(f"TEKG.update at t={t} is older than stored memory; steps must not go back")
        new = [Quadruple(*f, t) for f in facts]
        # An object the agent holds is 'held_by agent' for contradiction purposes.
        new += [Quadruple(f[2], "held_by", AGENT, t) for f in facts if f[0] == AGENT and f[1] == "holds"]
        removed = 0
        new_sources = {q.source for q in new}
        if AGENT in new_sources:
            for i in list(self._by_source.get(AGENT, ())):
                self._remove(i)
                removed += 1
        for q in new:
            for i in list(self._by_source.get(q.source, ())):
                old = self._slots[i]
                if old is not None and self.contradicts(old, q):
                    self._remove(i)
                    removed += 1
        if room is not None:
            seen = new_sources
            for i in [i for i in self._post_slots(room) if self._slots[i] is not None]:
                old = self._slots[i]
                if old.relation == "in_room" and old.target == room and old.source not in seen:
                    for j in list(self._by_source.get(old.source, ())):
                        if self._slots[j].relation in PLACEMENT:
                            self._remove(j)
                            removed += 1
        for q in new:
            self._add(q)
        self._maybe_compact()
        return {"added": len(new), "removed": removed}

    def _post_slots(self, token_text: str) -> list[int]:
        out: set[int] = set()
        for tok in tokenize(token_text):
            out.update(self._post.get(tok, ()))
        return sorted(out)

    # ------------------------------------------------------------------ retrieval
    def _posting(self, tok: str) -> np.ndarray | None:
        arr = self._post_np.get(tok)
        if arr is None:
            lst = self._post.get(tok)
            if not lst:
                return None
            arr = np.asarray(lst, dtype=np.int64)
            arr = arr[self._alive[arr]]
            self._post[tok] = arr.tolist()
            self._post_np[tok] = arr
        return arr

    def retrieve(self, query: str, k: int = 12, min_ratio: float = 0.0) -> list[Quadruple]:
        """The ``k`` quadruples most relevant to ``query`` (BM25, ties -> newer first).

        Args:
            query: free text (tokenised like the quadruples).
            k: at most this many quadruples (ExRAP App. C.2 uses 12).
            min_ratio: relevance cut-off in [0, 1]: drop quadruples whose BM25
                score is below ``min_ratio`` x the best score (0 keeps the plain top-k).
                Facts that share only a common token with the query (``on``,
                a room name) then stay out of the retrieved subgraph, so it
                changes less often and Eq. 5 reuse can apply.

        Returns at most ``k`` live quadruples, best first; empty when nothing matches.

        Raises:
            ContinualError: ``k < 1`` or ``min_ratio`` outside [0, 1].
        """
        if k < 1:
            raise ContinualError(f"retrieve needs k >= 1 (got {k})")
        if not 0.0 <= min_ratio <= 1.0:
            raise ContinualError(f"retrieve needs 0 <= min_ratio <= 1 (got {min_ratio})")
        n_slots = len(self._slots)
        if self._n_alive == 0:
            return []
        scores = np.zeros(n_slots, dtype=np.float64)
        avgdl = self._total_len / self._n_alive
        dl = self._len[:n_slots]
        alive = self._alive[:n_slots]
        hit = False
        for tok in set(tokenize(query)):
            post = self._posting(tok)
            if post is None:
                continue
            post = post[alive[post]]
            df = len(post)
            if df == 0:
                continue
            hit = True
            idf = math.log(1.0 + (self._n_alive - df + 0.5) / (df + 0.5))
            norm = self.k1 * (1.0 - self.b + self.b * dl[post] / avgdl)
            scores[post] += idf * (self.k1 + 1.0) / (1.0 + norm)
        if not hit:
            return []
        tmax = float(self._time[:n_slots].max()) + 1.0
        floor = max(min_ratio * float(scores[alive].max()), 0.0) if min_ratio > 0 else 0.0
        scores = np.where(alive & (scores > 0) & (scores >= floor), scores + 1e-3 * self._time[:n_slots] / tmax, -np.inf)
        kk = min(k, int(np.isfinite(scores).sum()))
        if kk == 0:
            return []
        top = np.argpartition(-scores, kk - 1)[:kk]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [self._slots[int(i)] for i in top]

    def render(self, quads: list[Quadruple]) -> str:
        """One quadruple a line, oldest first (prompt form)."""
        return "\n".join(q.text() for q in sorted(quads, key=lambda q: (q.t, q.triple)))
