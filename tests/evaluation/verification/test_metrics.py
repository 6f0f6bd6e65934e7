"""Per-action P/R/F1, edits and convergence shares."""

import pytest

from actionable.core.program import Program, Step
from actionable.verify.labels import CorruptedPlan
from actionable.verify.critique import Critique, CritiqueKind
from actionable.evaluation.verification.metrics import (Counts, convergence_shares, plan_edits, prf, score_critiques,
                                       score_edits, valid_removed)

GOLD = Program.parse("[WALK] <tv> (3)\n[SWITCHON] <tv> (3)\n[WATCH] <tv> (3)")
CORR = Program.parse("[WALK] <tv> (3)\n[WALK] <lamp> (7)\n[WATCH] <tv> (3)")
EX = CorruptedPlan("x", GOLD, CORR, ("valid", "redundant", "valid"), ((2, Step.of("switchon", ("tv", 3))),), ())


def test_prf_edge_cases():
    assert prf(0, 0, 0) == (1.0, 1.0, 1.0)
    assert prf(0, 0, 3) == (0.0, 0.0, 0.0)
    assert prf(1, 1, 0) == pytest.approx((0.5, 1.0, 2 / 3))


def test_score_critiques_counts_remove_and_missing():
    crits = [Critique(CritiqueKind.REMOVE, 1, "", step=CORR.steps[1]),
             Critique(CritiqueKind.REMOVE, 0, "", step=CORR.steps[0]),
             Critique(CritiqueKind.MISSING, 2, "", step=Step.of("switchon", ("tv", 3))),
             Critique(CritiqueKind.MISSING, 2, "", step=Step.of("switchon", ("lamp", 7)))]
    c = score_critiques(EX, crits)
    assert (c.tp_remove, c.fp_remove, c.fn_remove) == (1, 1, 0)
    assert (c.tp_missing, c.fp_missing, c.fn_missing) == (1, 1, 0)


def test_navigation_actions_match_each_other():
    ex = CorruptedPlan("x", GOLD, GOLD, ("valid",) * 3, ((0, Step.of("find", ("tv", 3))),), ())
    c = score_critiques(ex, [Critique(CritiqueKind.MISSING, 0, "", step=Step.of("walk", ("tv", 3)))])
    assert c.tp_missing == 1


def test_score_edits_and_valid_removed():
    final = Program.parse("[SWITCHON] <tv> (3)\n[WATCH] <tv> (3)")  # dropped both walks, added switchon
    c = score_edits(EX, final)
    assert (c.tp_remove, c.fp_remove, c.tp_missing) == (1, 1, 1)
    assert valid_removed(EX, final) == 1
    removed, inserted = plan_edits(CORR, final)
    assert removed == {0, 1} and inserted == [Step.of("switchon", ("tv", 3))]


def test_counts_add_and_round_trip():
    a = Counts(1, 2, 3, 4, 5, 6)
    a += Counts(1, 1, 1, 1, 1, 1)
    assert Counts.from_dict(a.to_dict()) == a and a.tp == 7


def test_convergence_shares():
    s = convergence_shares([0, 1, 2, 5], [True, True, True, False])
    assert s == {"converged_le_1": 0.5, "converged_le_2": 0.75, "converged_le_3": 0.75}
