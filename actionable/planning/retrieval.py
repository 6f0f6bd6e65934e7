"""Leak-free k-nearest-neighbour example retrieval (LLM-Planner, Song et al.
2023, Sec. 3.3: the in-context examples are the k training programs whose
instruction is nearest to the query's).

Each bank program is embedded once as ``"<task>. <description>"`` with the
translation LM (the same sentence embedder that grounds steps); a query is
embedded the same way and programs are ranked by cosine similarity.

Leakage rules (issue 12):

* ``exclude_sources``: program ids (``Example.source``) never returned. The
  evaluation always excludes the query's own program (leave-one-program-out).
* ``exclude_tasks``: task names never returned (leave-title-out folds hold out
  every program of a title).
* Interactive use excludes nothing: a user who asks for "Turn on light" gets
  the bank's own "Turn on light" programs.

Do not use huangwl18/language-planner's ``available_examples.json`` as a bank
while scoring on the packaged programs: it holds step-for-step copies of 430 of
the 518 (FIELD-NOTES).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from actionable.core.errors import PlanningError
from actionable.planning.examples import Example, ExampleBank, normalize_task


def query_text(task: str, description: str | None = None) -> str:
    """The retrieval key of a task: ``"<task>. <description>"`` (description optional)."""
    task = task.strip().rstrip(".")
    d = (description or "").strip()
    return f"{task}. {d}" if d else f"{task}."


@dataclass(frozen=True)
class Retrieved:
    """One retrieved program: the example and its cosine similarity to the query (in [-1, 1])."""

    example: Example
    similarity: float

    def to_dict(self) -> dict:
        return {"task": self.example.task, "source": self.example.source,
                "similarity": round(float(self.similarity), 4)}


class ProgramRetriever:
    """kNN over whole programs of an :class:`ExampleBank`.

    Args:
        bank: the example bank (packaged programs or a user file).
        embedder: translation LM with ``encode(list[str]) -> (n, d)`` unit rows.
        cache_dir: on-disk cache of the bank matrix (``None``: in memory only).

    The bank matrix (shape ``(len(bank), d)``) is computed on first use (about
    10-30 s for the 518 packaged programs with MiniLM on 2 cores) and cached.
    """

    def __init__(self, bank, embedder, cache_dir=None):
        self.bank = bank if isinstance(bank, ExampleBank) else ExampleBank(list(bank), allow_empty=not bank)
        self.embedder = embedder
        self.cache_dir = cache_dir
        self._mat: np.ndarray | None = None
        self._words: list[frozenset[str]] | None = None

    def _matrix(self) -> np.ndarray:
        if self._mat is None:
            from actionable.grounding.index import ActionIndex

            texts = [query_text(e.task, e.description) for e in self.bank.examples]
            # the same on-disk .npy cache as the action index (keyed by model id + texts)
            self._mat = ActionIndex(self.embedder, texts, cache_dir=self.cache_dir).matrix
        return self._mat

    def nearest(self, task: str, description: str | None = None, k: int = 3,
                exclude_sources: Iterable[str] = (), exclude_tasks: Iterable[str] = ()) -> list[Retrieved]:
        """The ``k`` nearest programs, most similar first.

        Args:
            task: query task name; description: optional query description.
            k: how many (at least 1).
            exclude_sources: program ids never returned.
            exclude_tasks: task names never returned (compared with
                :func:`normalize_task`).

        Returns:
            Up to ``k`` :class:`Retrieved` (fewer if the bank has fewer allowed).

        Raises:
            PlanningError: every program is excluded (an empty bank, :meth:`ExampleBank.empty`,
            returns ``[]``: nothing to retrieve is not an error there).
        """
        if not self.bank.examples:
            return []
        allowed = self._allowed(exclude_sources, exclude_tasks)
        if not allowed:
            raise PlanningError("every program of the example bank is excluded; nothing to retrieve")
        q = np.asarray(self.embedder.encode([query_text(task, description)])[0], dtype=np.float32)
        sims = self._matrix()[allowed] @ q
        order = np.argsort(-sims, kind="stable")[: max(1, int(k))]
        return [Retrieved(self.bank.examples[allowed[int(j)]], float(sims[int(j)])) for j in order]

    def mentioning(self, word: str, exclude_sources: Iterable[str] = (),
                   exclude_tasks: Iterable[str] = ()) -> Example | None:
        """The first allowed program whose task name or description uses ``word`` (a whole
        word, as :func:`actionable.grounding.objects.words` splits text), else ``None``.

        The same leakage rules as :meth:`nearest`. Used to tell a word the bank knows
        ("email": the bank's "Work" program opens an email account) from a thing no
        program has ("bicycle").
        """
        from actionable.grounding.objects import words

        if self._words is None:
            self._words = [frozenset(words(f"{e.task} {e.description}")) for e in self.bank.examples]
        return next((self.bank.examples[i] for i in self._allowed(exclude_sources, exclude_tasks)
                     if word in self._words[i]), None)

    def _allowed(self, exclude_sources: Iterable[str], exclude_tasks: Iterable[str]) -> list[int]:
        """Indices of the bank programs the leakage rules allow (module doc)."""
        srcs = {str(s) for s in exclude_sources}
        tasks = {normalize_task(t) for t in exclude_tasks}
        return [i for i, e in enumerate(self.bank.examples)
                if e.source not in srcs and normalize_task(e.task) not in tasks]

    def similarity_to(self, texts: Sequence[str], task: str, description: str | None = None) -> np.ndarray:
        """Cosine of each of ``texts`` to the query (shape ``(len(texts),)``)."""
        if not texts:
            return np.zeros(0, dtype=np.float32)
        q = np.asarray(self.embedder.encode([query_text(task, description)])[0], dtype=np.float32)
        return np.asarray(self.embedder.encode(list(texts)), dtype=np.float32) @ q


__all__ = ["ProgramRetriever", "Retrieved", "query_text"]
