"""TEACh-style demonstrations: parsing, labels, scoring input."""

import json

import pytest

from actionable.core.errors import InputError
from actionable.evaluation.verification.metrics import score_critiques
from actionable.verify.rules import RuleJudge
from actionable.verify.teach import load_teach, parse_teach, parse_teach_action, snake, to_labelled


def test_action_mapping():
    assert parse_teach_action("PickUp(Mug)").to_script() == "[GRAB] <mug>"
    assert parse_teach_action("ToggleOn(Faucet)").to_script() == "[SWITCHON] <faucet>"
    assert parse_teach_action("PutAOnB(Mug, CounterTop)").to_script() == "[PUTBACK] <mug> <counter_top>"
    assert parse_teach_action("Place(CounterTop)", held="mug").to_script() == "[PUTBACK] <mug> <counter_top>"
    assert parse_teach_action("Forward") is None and parse_teach_action("Turn Left()") is None
    assert snake("SinkBasin") == "sink_basin"


@pytest.mark.parametrize("bad", ["Fly(Mug)", "PickUp()", "PickUp(Mug, Cup)", "((("])
def test_bad_actions_raise_typed_errors(bad):
    with pytest.raises(InputError):
        parse_teach(json.dumps([bad]))


def test_plain_list_is_unlabelled():
    (ep,) = parse_teach(json.dumps(["PickUp(Mug)", "Forward", "ToggleOn(Faucet)"]))
    assert len(ep.plan) == 2 and ep.labels is None and ep.warnings and to_labelled(ep) is None


def test_episode_with_labels_and_missing_scores():
    ep_json = {"goal": "Make coffee", "actions": ["PickUp(Mug)", "ToggleOn(Faucet)", "ToggleOff(Faucet)",
                                                  "PutAOnB(Mug, CoffeeMachine)"],
               "labels": ["valid", "contradictory", "contradictory", "valid"], "missing": ["ToggleOn(CoffeeMachine)"]}
    (ep,) = parse_teach(json.dumps(ep_json))
    lab = to_labelled(ep)
    assert lab.remove_positives == {1, 2} and lab.missing[0][1].action == "SWITCHON"
    c = score_critiques(lab, RuleJudge().critiques(ep.plan))
    assert (c.tp_remove, c.fp_remove, c.fn_missing) == (2, 0, 1)


def test_list_of_action_objects_and_jsonl(tmp_path):
    f = tmp_path / "eps.jsonl"
    f.write_text(json.dumps({"goal": "a", "actions": [{"action": "Open(Fridge)", "label": "REMOVE"},
                                                        {"action": "Close(Fridge)", "label": "ok"}]}) + "\n"
                 + json.dumps({"goal": "b", "actions": ["PickUp(Apple)"]}) + "\n", encoding="utf-8")
    eps = load_teach(f)
    assert [e.labels for e in eps] == [("redundant", "valid"), None]


def test_label_errors():
    with pytest.raises(InputError):
        parse_teach(json.dumps({"actions": ["PickUp(Mug)"], "labels": ["valid", "valid"]}))
    with pytest.raises(InputError):
        parse_teach(json.dumps({"actions": ["PickUp(Mug)"], "labels": ["maybe"]}))
    with pytest.raises(InputError):
        parse_teach("not json at all {")
    with pytest.raises(InputError):
        load_teach("/nonexistent/file.json")


def test_bare_action_lists_one_a_line_are_episodes():
    """A JSONL of bare lists (not the documented ``{"actions": [...]}`` objects) was read as one
    episode; each line is an episode, as for the object form. One bare list stays one episode."""
    eps = parse_teach('["PickUp(Mug)", "ToggleOn(Faucet)"]\n["PickUp(Cup)"]\n', "p")
    assert [len(e.plan) for e in eps] == [2, 1]
    (one,) = parse_teach('["PickUp(Mug)", "ToggleOn(Faucet)"]\n', "p")
    assert len(one.plan) == 2
    (nested,) = parse_teach(json.dumps([["PickUp(Mug)"]]), "p")
    assert len(nested.plan) == 1
