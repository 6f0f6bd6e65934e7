"""New-user report: `actionable plan "Ride the bicycle"` gave a laundry plan, exit 0, no warning;
"Wash the car" a washing-machine plan (and faucet steps with --env thor). Now refused."""

from __future__ import annotations

import pytest

from actionable.cli import main


@pytest.mark.parametrize("args, word", [
    (["plan", "Ride the bicycle", "--variant", "grounded"], "'bicycle'"),
    (["plan", "Wash the car", "--variant", "grounded"], "'car'"),
    (["plan", "Wash the car", "--variant", "grounded", "--env", "thor", "--scene", "FloorPlan1"], "'car'"),
])
def test_object_in_no_vocabulary_is_refused_with_closest_objects(args, word, capsys):
    assert main(args) == 2
    text = capsys.readouterr().err
    assert "Traceback" not in text
    errors = [ln for ln in text.splitlines() if ln.startswith("error: ")]  # after progress lines
    assert len(errors) == 1, text
    err = errors[0]
    assert word in err and "has no such object" in err and "closest objects here: " in err


@pytest.mark.parametrize("flag", [["--json"], ["--format", "json"], ["-f", "json"]])
def test_json_output_gets_a_json_refusal(flag, capsys):
    import json

    assert main(["plan", "Ride the bicycle", "--variant", "grounded", *flag]) == 2
    out = capsys.readouterr()
    obj = json.loads(out.out)
    assert obj["exit_code"] == 2 and obj["error_type"] == "PlanningError" and "'bicycle'" in obj["error"]
    assert "error: " in out.err


def test_negative_seed_is_refused(capsys):
    import json

    assert main(["plan", "Turn on light", "--seed", "-1"]) == 2
    assert "--seed" in capsys.readouterr().err
    assert main(["plan", "Turn on light", "--seed", "-1", "--json"]) == 2  # a usage error is JSON too
    obj = json.loads(capsys.readouterr().out)
    assert obj["error_type"] == "UsageError" and "--seed" in obj["error"]


def test_task_already_done_is_nothing_to_do_with_exit_0(capsys):
    """The default house's computer is off: not the opposite plan (switch it on), but nothing to do."""
    assert main(["plan", "Switch off the computer", "--variant", "grounded"]) == 0
    out = capsys.readouterr().out
    assert "Nothing to do" in out and "switch off computer" in out and "switch on computer" not in out


@pytest.mark.parametrize("task, obj", [("Shut down the computer", "computer"),
                                       ("Turn around and sit on the bench", "bench")])
def test_an_ordinary_word_beside_a_named_object_is_not_a_refusal(task, obj, capsys):
    """New-user report: "Shut down the computer" was refused as naming a missing object 'shut'. A
    word in no object vocabulary blocks only when nothing else in the task names an object here."""
    assert main(["plan", task, "--variant", "grounded"]) in (0, 1, 3)  # 3: executes, goal not checked
    out = capsys.readouterr()
    assert "error:" not in out.err and obj in out.out
