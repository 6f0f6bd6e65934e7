"""Verification metrics: per-action P/R/F1, convergence, task-level outcomes.

Per-action scoring follows arXiv 2509.02761 (Sec. 4, "Metrics"): every
labelled error is a positive - an injected redundant/contradictory step must be
tagged ``REMOVE`` and a deleted step must be proposed as ``MISSING``.

* A ``REMOVE`` at index *i* is a true positive when ``labels[i]`` is not
  ``valid``, else a false positive (a valid action wrongly flagged).
* A ``MISSING`` proposal matches a deleted step when the action is the same
  (``WALK``/``RUN``/``FIND`` count as one navigation action, since each makes
  the agent close to the object) and the objects are the same (node ids when
  both have them, else class names). Each deleted step matches at most once;
  unmatched proposals are false positives. Positions are not compared.

Two views are scored: the judge's round-1 critiques (the judge alone), and
the *edits of the whole loop* (steps of the corrupted plan missing from the
final plan, steps of the final plan not in the corrupted plan; aligned with
``difflib.SequenceMatcher``), which is what a judge x planner pair delivers.

Beyond the paper: executability and goal-condition task success of the
cleaned plan, plan-length reduction, valid actions wrongly removed, and the
share of plans converged after 1, 2, 3 rounds (paper: 62% need no change
after round 1, 96.5% within 3).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Sequence

from actionable.evaluation.metrics import prf
from actionable.core.program import Program, Step
from actionable.verify.labels import VALID, CorruptedPlan
from actionable.verify.critique import Critique, CritiqueKind

_NAV = {"WALK": "NAV", "RUN": "NAV", "FIND": "NAV"}


@dataclass
class Counts:
    """Confusion counts of one or more plans (REMOVE and MISSING positives)."""

    tp_remove: int = 0
    fp_remove: int = 0
    fn_remove: int = 0
    tp_missing: int = 0
    fp_missing: int = 0
    fn_missing: int = 0

    def __iadd__(self, o: "Counts") -> "Counts":
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(o, k))
        return self

    @property
    def tp(self) -> int:
        return self.tp_remove + self.tp_missing

    @property
    def fp(self) -> int:
        return self.fp_remove + self.fp_missing

    @property
    def fn(self) -> int:
        return self.fn_remove + self.fn_missing

    def prf(self, kind: str | None = None) -> tuple[float, float, float]:
        """(precision, recall, F1) in [0, 1]; ``kind`` = ``remove``/``missing``/None (both);
        edge cases as in :func:`prf`."""
        if kind is None:
            return prf(self.tp, self.fp, self.fn)
        return prf(getattr(self, f"tp_{kind}"), getattr(self, f"fp_{kind}"), getattr(self, f"fn_{kind}"))

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, d: dict) -> "Counts":
        return cls(**{k: int(d.get(k, 0)) for k in cls.__dataclass_fields__})


def _same_missing(pred: Step, gold: Step) -> bool:
    if _NAV.get(pred.action, pred.action) != _NAV.get(gold.action, gold.action):
        return False
    if len(pred.args) != len(gold.args):
        return False
    for a, b in zip(pred.args, gold.args):
        if a.id is not None and b.id is not None:
            if a.id != b.id:
                return False
        elif a.name != b.name:
            return False
    return True


def _match_missing(proposed: Sequence[Step], gold: Sequence[Step]) -> tuple[int, int, int]:
    left = list(gold)
    tp = 0
    for p in proposed:
        hit = next((k for k, g in enumerate(left) if _same_missing(p, g)), None)
        if hit is not None:
            left.pop(hit)
            tp += 1
    return tp, len(proposed) - tp, len(left)


def score_critiques(example: CorruptedPlan, critiques: Iterable[Critique]) -> Counts:
    """Per-action counts of a judge's critiques of ``example.corrupted``."""
    crits = list(critiques)
    removed = {c.index for c in crits if c.kind is CritiqueKind.REMOVE and c.index is not None}
    pos = example.remove_positives
    c = Counts(tp_remove=len(removed & pos), fp_remove=len(removed - pos), fn_remove=len(pos - removed))
    proposed = [c.step for c in crits if c.kind is CritiqueKind.MISSING and c.step is not None]
    c.tp_missing, c.fp_missing, c.fn_missing = _match_missing(proposed, [s for _, s in example.missing])
    return c


def plan_edits(before: Program, after: Program) -> tuple[set[int], list[Step]]:
    """Indices of ``before`` absent from ``after`` and steps of ``after`` not in
    ``before`` (longest matching blocks, ``difflib.SequenceMatcher``)."""
    a = [s.to_script() for s in before.steps]
    b = [s.to_script() for s in after.steps]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    kept_a: set[int] = set()
    kept_b: set[int] = set()
    for blk in sm.get_matching_blocks():
        kept_a.update(range(blk.a, blk.a + blk.size))
        kept_b.update(range(blk.b, blk.b + blk.size))
    return set(range(len(a))) - kept_a, [after.steps[j] for j in range(len(b)) if j not in kept_b]


def score_edits(example: CorruptedPlan, final: Program) -> Counts:
    """Per-action counts of the loop's net edits from ``example.corrupted`` to ``final``."""
    removed, inserted = plan_edits(example.corrupted, final)
    pos = example.remove_positives
    c = Counts(tp_remove=len(removed & pos), fp_remove=len(removed - pos), fn_remove=len(pos - removed))
    c.tp_missing, c.fp_missing, c.fn_missing = _match_missing(inserted, [s for _, s in example.missing])
    return c


def valid_removed(example: CorruptedPlan, final: Program) -> int:
    """Number of valid (gold) actions of the corrupted plan that the loop removed."""
    removed, _ = plan_edits(example.corrupted, final)
    return sum(1 for i in removed if example.labels[i] == VALID)


def convergence_shares(revisions: Sequence[int], converged: Sequence[bool],
                       ks: Sequence[int] = (1, 2, 3)) -> dict[str, float]:
    """Share of plans converged with at most k revision rounds, per k
    (``revisions`` = rounds that changed the plan; unconverged plans never count)."""
    n = len(revisions)
    if not n:
        return {f"converged_le_{k}": 0.0 for k in ks}
    return {f"converged_le_{k}": sum(1 for r, c in zip(revisions, converged) if c and r <= k) / n
            for k in ks}
