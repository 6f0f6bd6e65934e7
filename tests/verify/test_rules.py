"""Rule-based judge baseline."""

from actionable.core.program import Program
from actionable.verify.rules import RuleJudge


def _flags(text):
    return [c.index for c in RuleJudge().critiques(Program.parse(text))]


def test_repeated_action():
    assert _flags("walk to tv\nswitch on tv\nswitch on tv\nwatch tv") == [2]


def test_inverse_pair_without_use():
    assert _flags("walk to tv\nswitch on tv\nswitch off tv") == [1, 2]


def test_inverse_pair_with_use_is_kept():
    assert _flags("walk to tv\nswitch on tv\nwatch tv\nswitch off tv") == []


def test_undoing_step_does_not_open_a_new_pair():
    assert _flags("walk to tv\nswitch on tv\nswitch off tv\nswitch on tv\nwatch tv") == [1, 2]


def test_grab_put_back_where_it_was():
    assert _flags("walk to table\ngrab cup\nput cup on table\nwalk to sink") == [1, 2]


def test_grab_carried_elsewhere_is_kept():
    assert _flags("walk to table\ngrab cup\nwalk to sink\nput cup on sink") == []


def test_grab_never_used():
    assert _flags("walk to table\ngrab book\nwalk to bed") == [1]


def test_rule_judge_never_proposes_missing():
    crits = RuleJudge().critiques(Program.parse("grab cup\nput cup in fridge"))
    assert all(c.kind.value == "REMOVE" for c in crits)
