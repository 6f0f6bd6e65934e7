"""Parser of judge output (odd formats) and the deterministic revision."""

import pytest

from actionable.core.program import Program, Step
from actionable.core.errors import CritiqueParseError
from actionable.verify.critique import (Critique, CritiqueKind, apply_critiques, parse_judge_output)

PLAN = Program.parse("[WALK] <sink> (5)\n[GRAB] <mug> (12)\n[SWITCHON] <tv> (3)\n"
                     "[SWITCHOFF] <tv> (3)\n[PUTBACK] <mug> (12) <sink> (5)")


def _one(text):
    res = parse_judge_output(text, PLAN)
    return res.critiques, res.warnings


@pytest.mark.parametrize("text, index", [
    ("3. [SWITCHON] <tv> (3) #REMOVE: pointless toggle", 2),
    ("#REMOVE 4 - undone", 3),
    ("- Step 4 REMOVE (undoes 3)", 3),
    ("**4.** #remove: undone", 3),
    ("#REMOVE: [GRAB] <mug> - held", 1),
    ("#REMOVE: switch off tv because it undoes step 3", 3),
    ("Step 2: #REMOVE", 1),
])
def test_remove_forms(text, index):
    crits, warns = _one(text)
    assert [c.index for c in crits] == [index]
    assert crits[0].kind is CritiqueKind.REMOVE
    assert crits[0].step == PLAN.steps[index]
    assert warns == ()


def test_reason_is_kept():
    crits, _ = _one("3. [SWITCHON] <tv> (3) #REMOVE: pointless toggle")
    assert crits[0].reason == "pointless toggle"


@pytest.mark.parametrize("text", ["Step 9: #REMOVE bad", "#REMOVE 0", "#REMOVE 1000000: x"])
def test_index_out_of_range_is_a_warning(text):
    crits, warns = _one(text)
    assert crits == ()
    assert len(warns) == 1


def test_action_not_in_plan_is_dropped_with_warning():
    crits, warns = _one("#REMOVE: [GRAB] <cup> - not in plan")
    assert crits == () and "no such action" in warns[0]


def test_remove_without_index_or_action():
    crits, warns = _one("#REMOVE: because it is silly")
    assert crits == () and warns


@pytest.mark.parametrize("text, action, index", [
    ("#MISSING: walk to sink", "WALK", None),
    ("**#MISSING**: [OPEN] <fridge>", "OPEN", None),
    ("#MISSING before 2: [WALK] <mug> (12)", "WALK", 1),
    ("#MISSING after 1: open fridge - needed", "OPEN", 1),
    ("MISSING: grab mug", "GRAB", None),
])
def test_missing_forms(text, action, index):
    crits, _ = _one(text)
    assert len(crits) == 1 and crits[0].kind is CritiqueKind.MISSING
    assert crits[0].step.action == action and crits[0].index == index


def test_missing_gets_ids_of_plan_objects():
    crits, _ = _one("#MISSING: walk to sink")
    assert crits[0].step.args[0].id == 5


def test_missing_unparseable_action_warns():
    crits, warns = _one("#MISSING: fly to the moon")
    assert crits == () and "could not read an action" in warns[0]


def test_missing_position_out_of_range_appends():
    crits, warns = _one("#MISSING before 99: grab mug")
    assert crits[0].index is None and warns


@pytest.mark.parametrize("text", ["", "   \n\n", "1. OK\n2. OK\n3. KEEP", "I would not remove anything.",
                                  "\x00\x01 garbage \u2603", "#####", "REMOVE"])
def test_no_critiques_from_harmless_text(text):
    crits, _ = _one(text)
    assert crits == ()


def test_huge_output_gives_empty_set_with_warning():
    res = parse_judge_output("#REMOVE 1\n" * 20_000, PLAN)
    assert res.critiques == () and "not parsed" in res.warnings[0]


def test_huge_output_strict_raises():
    with pytest.raises(CritiqueParseError):
        parse_judge_output("x" * 100_000, PLAN, strict=True)


def test_non_text_raises_typed_error():
    with pytest.raises(CritiqueParseError):
        parse_judge_output(None, PLAN)  # type: ignore[arg-type]


def test_duplicates_are_merged():
    crits, _ = _one("#REMOVE 3\n3. [SWITCHON] <tv> (3) #REMOVE: again")
    assert len(crits) == 1


def test_many_lines_mixed():
    text = "1. OK\n2. OK\n3. #REMOVE: undone by 4\n4. #REMOVE: undoes 3\n5. OK\n#MISSING: [OPEN] <fridge>\n"
    crits, warns = _one(text)
    assert [(c.kind.value, c.index) for c in crits] == [("REMOVE", 2), ("REMOVE", 3), ("MISSING", None)]


def test_apply_critiques_removes_and_inserts_keeping_format():
    crits = [Critique(CritiqueKind.REMOVE, 2, "", step=PLAN.steps[2]),
             Critique(CritiqueKind.REMOVE, 3, "", step=PLAN.steps[3]),
             Critique(CritiqueKind.MISSING, 1, "", step=Step.of("open", ("fridge", 9)))]
    out = apply_critiques(PLAN, crits)
    assert out.to_script().splitlines() == ["[WALK] <sink> (5)", "[OPEN] <fridge> (9)", "[GRAB] <mug> (12)",
                                            "[PUTBACK] <mug> (12) <sink> (5)"]


def test_apply_critiques_bad_index_raises():
    with pytest.raises(CritiqueParseError):
        apply_critiques(PLAN, [Critique(CritiqueKind.REMOVE, 10, "x")])


def test_critique_round_trip():
    c = Critique(CritiqueKind.MISSING, 2, "[OPEN] <fridge> (9)", "closed", Step.of("open", ("fridge", 9)), "sim")
    assert Critique.from_dict(c.to_dict()) == c
