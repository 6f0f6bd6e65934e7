"""Labelled plans: per-action ground truth for scoring judges (arXiv 2509.02761, Sec. 4).

A :class:`CorruptedPlan` is a plan with one label per action (``valid``, ``redundant`` or
``contradictory``) and the steps it lacks (``missing``, with where they belong), made by a
labelled error injector (:mod:`actionable.evaluation.verification.corrupt`), read from a labelled
TEACh-style file (:mod:`.teach`) or from the hand-labelled corpus
(:mod:`actionable.evaluation.verification.cases`); :mod:`.metrics` scores critiques against it.
"""

from __future__ import annotations

from dataclasses import dataclass

from actionable.core.errors import VerifyError
from actionable.core.program import Program, Step

ERROR_KINDS: dict[str, str] = {
    "irrelevant_grab_put": "redundant", "repeated_step": "redundant", "detour_walk": "redundant",
    "toggle_pair": "contradictory", "open_close": "contradictory", "missing_step": "missing",
}
VALID = "valid"


@dataclass(frozen=True)
class InjectedError:
    """One injected error.

    Attributes:
        kind: one of :data:`ERROR_KINDS`.
        category: ``redundant`` | ``contradictory`` | ``missing``.
        steps: the inserted steps (for ``missing_step``: the deleted step).
        positions: indices of the inserted steps in the corrupted plan; for
            ``missing_step`` the index where the deleted step belongs.
    """

    kind: str
    category: str
    steps: tuple[Step, ...]
    positions: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"kind": self.kind, "category": self.category,
                "steps": [s.to_dict() for s in self.steps], "positions": list(self.positions)}

    @classmethod
    def from_dict(cls, d: dict) -> "InjectedError":
        return cls(d["kind"], d["category"], tuple(Step.from_dict(s) for s in d["steps"]),
                   tuple(d["positions"]))


@dataclass(frozen=True)
class CorruptedPlan:
    """A gold program with labelled injected errors (per-action ground truth).

    Attributes:
        labels: one per corrupted step: ``valid``, ``redundant`` or ``contradictory``.
        missing: ``(index, step)`` pairs: the deleted step belongs before
            ``corrupted[index]``.
    """

    program_id: str
    gold: Program
    corrupted: Program
    labels: tuple[str, ...]
    missing: tuple[tuple[int, Step], ...]
    errors: tuple[InjectedError, ...]
    seed: int = 0

    @property
    def remove_positives(self) -> set[int]:
        return {i for i, lab in enumerate(self.labels) if lab != VALID}

    def restored(self) -> Program:
        """Undo every injected error (drop inserted steps, re-insert deleted ones)."""
        keep = [s for s, lab in zip(self.corrupted.steps, self.labels) if lab == VALID]
        kept_idx = [i for i, lab in enumerate(self.labels) if lab == VALID]
        out: list[Step] = []
        for i, s in zip(kept_idx, keep):
            out += [m for pos, m in self.missing if pos == i]
            out.append(s)
        out += [m for pos, m in self.missing if pos >= len(self.labels)]
        return self.gold.replace_steps(out)

    def to_dict(self) -> dict:
        return {"program_id": self.program_id, "seed": self.seed, "gold": self.gold.to_dict(),
                "corrupted": self.corrupted.to_dict(), "labels": list(self.labels),
                "missing": [[i, s.to_dict()] for i, s in self.missing],
                "errors": [e.to_dict() for e in self.errors]}

    @classmethod
    def from_dict(cls, d: dict) -> "CorruptedPlan":
        try:
            return cls(d["program_id"], Program.from_dict(d["gold"]), Program.from_dict(d["corrupted"]),
                       tuple(d["labels"]), tuple((int(i), Step.from_dict(s)) for i, s in d["missing"]),
                       tuple(InjectedError.from_dict(e) for e in d["errors"]), int(d.get("seed", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise VerifyError(f"bad corrupted-plan record ({exc!r}); regenerate it with "
                              "actionable.evaluation.verification.corrupt.corrupt_program") from None


__all__ = ["CorruptedPlan", "ERROR_KINDS", "InjectedError", "VALID"]
