"""Example bank and dynamic example selection (Huang et al. 2022, Sec. 3.4).

The planning LM sees one task-plan pair before the query task. With *dynamic
example selection* that pair is the one whose task is most similar to the query
task under the translation LM (cosine of sentence embeddings); the query task
itself is excluded (``exclude_task``) so a held-out task never sees its own
human program.

Sources of examples:

* the programs of a world's dataset (VirtualHome: the 518 packaged with ``virtualhome-eval``,
  TrimmedTestScene1): :meth:`ExampleBank.of_world`;
* a user JSONL file, one example a line: :meth:`ExampleBank.from_jsonl`
  (``{"task": "Make coffee", "description": "...", "steps": ["walk to
  kitchen", "[GRAB] <mug> (3)"]}``; ``steps`` may instead be a ``"program"``
  string with one step a line).

:func:`make_task_split` splits task names into held-out and example-bank tasks
with disjoint names, reproducibly from a seed and a version string (the paper
used 88 held-out / 204 example tasks; issue 3).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from actionable.core.dataset import Example, example_from_program, format_step_text, normalize_task
from actionable.core.program import Program, parse_step
from actionable.core.errors import InputError, PlanningError, ProgramParseError

#: Version of the task-split rule; bump when :func:`make_task_split` changes.
SPLIT_VERSION = "v1"


@dataclass(frozen=True)
class TaskSplit:
    """Disjoint held-out / example-bank task names (issue 3).

    Attributes:
        version: :data:`SPLIT_VERSION` used.
        seed: the seed.
        heldout_fraction: requested share of held-out task names.
        heldout_tasks / bank_tasks: normalised task names, sorted.
    """

    version: str
    seed: int
    heldout_fraction: float
    heldout_tasks: tuple[str, ...]
    bank_tasks: tuple[str, ...]

    def to_dict(self) -> dict:
        return {"version": self.version, "seed": self.seed, "heldout_fraction": self.heldout_fraction,
                "heldout_tasks": list(self.heldout_tasks), "bank_tasks": list(self.bank_tasks)}


def make_task_split(tasks: Iterable[str], seed: int = 0, heldout_fraction: float = 0.3,
                    version: str = SPLIT_VERSION) -> TaskSplit:
    """Split task names into held-out and example-bank sets with disjoint names.

    Task names are normalised (:func:`normalize_task`) and de-duplicated, then
    ordered by ``sha256("<version>:<seed>:<task>")``; the first
    ``round(heldout_fraction * n)`` (at least 1, at most n-1) are held out. The
    rule uses no RNG library, so a (version, seed) pair gives the same split on
    every machine and numpy version.

    Raises:
        InputError: fewer than 2 distinct tasks, or a fraction outside (0, 1).
    """
    if not 0.0 < heldout_fraction < 1.0:
        raise InputError(f"heldout_fraction must be in (0, 1), got {heldout_fraction}")
    names = sorted({normalize_task(t) for t in tasks if t and t.strip()})
    if len(names) < 2:
        raise InputError(f"a task split needs at least 2 distinct task names, got {len(names)}")
    order = sorted(names, key=lambda t: hashlib.sha256(f"{version}:{seed}:{t}".encode()).hexdigest())
    n_held = min(len(names) - 1, max(1, round(heldout_fraction * len(names))))
    held = tuple(sorted(order[:n_held]))
    bank = tuple(sorted(order[n_held:]))
    return TaskSplit(version, int(seed), float(heldout_fraction), held, bank)


@dataclass
class ExampleBank:
    """Task-plan pairs with task-similarity selection.

    Args:
        examples: the pairs (at least one).

        allow_empty: accept a bank without examples (:meth:`empty`: a world that has no
            demonstrations, such as a user's PDDL problem; the grounded planner then plans from the
            scene alone, and retrieval returns nothing).

    Raises:
        PlanningError: no examples (unless ``allow_empty``).
    """

    examples: list[Example]
    _cache: dict = field(default_factory=dict, repr=False, compare=False)
    allow_empty: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        self.examples = [e for e in self.examples if e.steps]
        if not self.examples and not self.allow_empty:
            raise PlanningError("the example bank is empty (no example has steps); give at least "
                                "one task-plan pair")

    @classmethod
    def empty(cls) -> "ExampleBank":
        """A bank with no examples (``allow_empty``): for a world without demonstrations."""
        return cls([], allow_empty=True)

    def __len__(self) -> int:
        return len(self.examples)

    # ----- construction ---------------------------------------------------------
    @classmethod
    def of_world(cls, world: str | None = None) -> "ExampleBank":
        """Every program of a world's ``dataset`` capability (:class:`~actionable.core.dataset.TaskDataset`;
        default: the default world's, VirtualHome's 518 packaged programs).

        Raises:
            UnknownWorldError, MissingCapabilityError: no such world, or it has no dataset.
        """
        from actionable.core.defaults import WORLD
        from actionable.core.registry import capability

        return cls(list(capability(world or WORLD, "dataset").examples()))

    @classmethod
    def from_jsonl(cls, path: str | Path) -> "ExampleBank":
        """Load a user bank: one JSON object a line with ``task`` and ``steps``
        (list of step strings, natural or script form) or ``program`` (text, one
        step a line); ``description`` optional. Blank lines are skipped.

        Raises:
            InputError: unreadable file, bad JSON, missing fields or an
                unparseable step (the message names the line).
        """
        from actionable.core.jsonl import iter_task_records

        p = Path(path)
        out = []
        for where, rec in iter_task_records(p, "example bank"):
            raw = rec.get("steps")
            if raw is None and isinstance(rec.get("program"), str):
                raw = [s for s in rec["program"].splitlines() if s.strip()]
            if not isinstance(raw, list) or not raw or not all(isinstance(s, str) for s in raw):
                raise InputError(f"{where}: needs 'steps' (a non-empty list of strings) or 'program'")
            try:
                steps = tuple(parse_step(s).to_text() for s in raw)
            except ProgramParseError as exc:
                raise InputError(f"{where}: bad step: {exc}") from None
            out.append(Example(rec["task"].strip(), str(rec.get("description", "")).strip(), steps, where))
        if not out:
            raise InputError(f"example bank {str(p)!r} holds no examples")
        return cls(out)

    def tasks(self) -> list[str]:
        """Distinct normalised task names, sorted."""
        return sorted({normalize_task(e.task) for e in self.examples})

    def restrict(self, tasks: Iterable[str]) -> "ExampleBank":
        """Only the examples whose task is in ``tasks`` (e.g. ``split.bank_tasks``)."""
        keep = {normalize_task(t) for t in tasks}
        return ExampleBank([e for e in self.examples if normalize_task(e.task) in keep])

    # ----- selection ------------------------------------------------------------
    def _candidates(self, exclude_task: str | Sequence[str] | None) -> list[int]:
        if exclude_task is None:
            excl: set[str] = set()
        elif isinstance(exclude_task, str):
            excl = {normalize_task(exclude_task)}
        else:
            excl = {normalize_task(t) for t in exclude_task}
        idx = [i for i, t in enumerate(self._normalized_tasks()) if t not in excl]
        if not idx:
            raise PlanningError("every example in the bank has the excluded task name; add examples "
                                "of other tasks")
        return idx

    def _normalized_tasks(self) -> list[str]:
        """``normalize_task`` of every example's task, computed once (per list of examples)."""
        key = ("normalized", id(self.examples), len(self.examples))
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = [normalize_task(e.task) for e in self.examples]
        return got

    def fixed(self, exclude_task: str | Sequence[str] | None = None) -> Example:
        """The fixed example used without dynamic selection: the task with the
        most programs (ties by name), its program with the median length (ties
        by source). Deterministic; respects ``exclude_task``."""
        idx = self._candidates(exclude_task)
        by_task: dict[str, list[int]] = {}
        for i in idx:
            by_task.setdefault(normalize_task(self.examples[i].task), []).append(i)
        task = min(by_task, key=lambda t: (-len(by_task[t]), t))
        return self._representative(by_task[task])

    def _representative(self, idx: list[int]) -> Example:
        ex = sorted((self.examples[i] for i in idx), key=lambda e: (len(e.steps), e.source))
        return ex[(len(ex) - 1) // 2]

    def select(self, task: str, embedder, exclude_task: str | Sequence[str] | None = None,
               description: str | None = None, cache_dir: str | Path | None = None) -> tuple[Example, float]:
        """Dynamic example selection (Huang et al. 2022, Sec. 3.4).

        The example task most similar to ``task`` (cosine of ``embedder``
        vectors of task names) is chosen; among that task's programs, the one
        whose description is most similar to ``description`` when given, else
        the median-length program.

        Args:
            task: the query task name.
            embedder: translation LM (``encode(list[str]) -> (n, d)`` unit rows).
            exclude_task: task name(s) never selected (pass the query task).
            description: optional query description.
            cache_dir: on-disk cache of the task-name matrix (the action index's ``.npy`` cache,
                keyed by model id + names); ``None``: embedded on first use, kept in memory.

        Returns:
            ``(example, cosine)`` where cosine is the task-name similarity.

        Raises:
            PlanningError: every example is excluded.
        """
        idx = self._candidates(exclude_task)
        key = ("tasks", embedder.model_id)
        if key not in self._cache:
            names = sorted({e.task for e in self.examples})
            if cache_dir is None:
                self._cache[key] = (names, embedder.encode(names))
            else:
                from actionable.grounding.index import ActionIndex

                self._cache[key] = (names, ActionIndex(embedder, names, cache_dir=cache_dir).matrix)
        names, mat = self._cache[key]
        allowed = {self.examples[i].task for i in idx}
        q = embedder.encode([task])[0]
        sims = mat @ q
        order = np.argsort(-sims, kind="stable")
        best = next(int(j) for j in order if names[int(j)] in allowed)
        group = [i for i in idx if self.examples[i].task == names[best]]
        if description and len(group) > 1:
            descs = [self.examples[i].description or self.examples[i].task for i in group]
            dsims = embedder.encode(descs) @ embedder.encode([description])[0]
            chosen = self.examples[group[int(np.argmax(dsims))]]
        else:
            chosen = self._representative(group)
        return chosen, float(sims[best])
