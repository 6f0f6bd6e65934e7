"""New-user report: `actionable plan "Ride the bicycle"` gave a laundry plan, exit 0, no warning;
"Wash the car" a washing-machine plan (and faucet steps with --env thor). Now refused."""

from __future__ import annotations

import pytest

from actionable.cli import main


@pytest.mark.parametrize("args, word", [
    (["plan", "Ride the bicycle"], "'bicycle'"),
    (["plan", "Wash the car"], "'car'"),
    (["plan", "Wash the car", "--env", "thor", "--scene", "FloorPlan1"], "'car'"),
])
def test_object_in_no_vocabulary_is_refused_with_closest_objects(args, word, capsys):
    assert main(args) == 2
    text = capsys.readouterr().err
    assert "Traceback" not in text
    errors = [ln for ln in text.splitlines() if ln.startswith("error: ")]  # after progress lines
    assert len(errors) == 1, text
    err = errors[0]
    assert word in err and "has no such object" in err and "closest objects here: " in err
