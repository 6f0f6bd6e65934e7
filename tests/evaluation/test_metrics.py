"""Metric unit tests with hand-computed values."""

from __future__ import annotations

import pytest

from actionable.core.program import Program, Step
from actionable.core.errors import InputError
from actionable.evaluation.metrics import (best_lcs, classify_failure, failure_counts, lcs_length,
                                           mean, normalized_lcs, precision_recall_f1)


def test_lcs_length_hand_computed():
    assert lcs_length("ABCBDAB", "BDCABA") == 4  # textbook example (BCBA)
    assert lcs_length([], [1, 2]) == 0
    assert lcs_length([1, 2, 3], [1, 2, 3]) == 3
    assert lcs_length([1, 2, 3], [3, 2, 1]) == 1


def test_normalized_lcs_divides_by_longer_program_and_ignores_ids():
    pred = Program.parse("walk to bathroom\ngrab towel\nwipe sink").steps
    gold = Program.parse("[WALK] <bathroom> (1)\n[FIND] <towel> (5)\n[GRAB] <towel> (5)\n"
                         "[WIPE] <sink> (9)\n[PUTBACK] <towel> (5) <sink> (9)").steps
    # common: walk bathroom, grab towel, wipe sink = 3; longer = 5
    assert normalized_lcs(pred, gold) == pytest.approx(3 / 5)
    assert normalized_lcs(gold, pred) == pytest.approx(3 / 5)
    assert normalized_lcs(gold, gold) == 1.0
    assert normalized_lcs([], []) == 0.0
    assert normalized_lcs([s.to_dict() for s in pred], gold) == pytest.approx(3 / 5)
    assert normalized_lcs(["walk to bathroom"], ["Walk to bathroom ", "x"]) == pytest.approx(0.5)
    with pytest.raises(InputError, match="cannot compare"):
        normalized_lcs([3], gold)


def test_best_lcs_picks_best_gold():
    pred = [Step.of("walk", "bedroom"), Step.of("sleep")]
    golds = [("a", [Step.of("walk", "kitchen")]),
             ("b", [Step.of("walk", "bedroom"), Step.of("lie", "bed"), Step.of("sleep")])]
    assert best_lcs(pred, golds) == (pytest.approx(2 / 3), "b")
    assert best_lcs(pred, []) == (0.0, None)


def test_precision_recall_f1_hand_computed():
    r = precision_recall_f1({1, 2, 3}, {2, 3, 4, 5})
    assert (r["tp"], r["fp"], r["fn"]) == (2, 1, 2)
    assert r["precision"] == pytest.approx(2 / 3) and r["recall"] == pytest.approx(0.5)
    assert r["f1"] == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    assert precision_recall_f1([], [])["f1"] == 1.0
    assert precision_recall_f1([1], [2])["f1"] == 0.0


@pytest.mark.parametrize("args,label", [
    (("parse", "bad line", None), "parse"),
    (("empty_plan", None, None), "empty_plan"),
    (("resolution", "no <kitchen> in the scene", None), "unknown_object"),
    ((3, "Could not find object fridge", None), "unknown_object"),
    (("afford", "<sofa> (3) is not grabbable when executing ...", None), "affordance"),
    (("missing", "<character> (65) is not close to <mug> (12)", None), "precondition:not_close"),
    ((1, "<character> (65) does not have a free hand", None), "precondition:no_free_hand"),
    (("missing", "x", ["HOLDS(character, mug)"]), "precondition:not_holding"),
    (("missing", "", ["FACING(character, tv)"]), "precondition:not_facing"),
    (("missing", "<character> (65) is sitting", None), "precondition:sitting"),
    (("satisfied", "<mug> already grabbed", None), "precondition:already_satisfied"),
    ((None, None, None), "other"),
])
def test_classify_failure(args, label):
    assert classify_failure(*args).label == label


def test_mean_and_failure_counts():
    assert mean([1, None, 0]) == 0.5 and mean([None]) is None
    recs = [{"executable": False, "failure": "parse"}, {"executable": True},
            {"executable": False, "failure": "precondition:not_close"},
            {"executable": False, "failure": "parse"}]
    assert failure_counts(recs) == {"parse": 2, "precondition:not_close": 1}
