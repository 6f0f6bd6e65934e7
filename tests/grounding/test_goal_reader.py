"""The world-neutral grammar helpers of actionable/grounding/goal_reader.py."""

from __future__ import annotations

import pytest

from actionable.grounding import goal_reader as G


@pytest.mark.parametrize("text, want", [
    ("Could you turn off the TV?", "turn off the TV"),
    ("Can you please put the plate in the sink", "put the plate in the sink"),
    ("Please turn off the bedroom light.", "turn off the bedroom light"),
    ("Can you hold the guitar for me?", "hold the guitar"),
    ("Please", "Please"),  # nothing left: unchanged, the world says what is wrong
    ("Turn on the TV", "Turn on the TV"),
])
def test_polite(text, want):
    assert G.polite(text) == want


@pytest.mark.parametrize("text, want", [
    ("Is the stove off? If not, switch it off", "make sure the stove is off"),
    ("Is the fridge closed? If it isn't, close it", "make sure the fridge is closed"),
    ("Is the stove off?", "Is the stove off?"),
])
def test_checked_request(text, want):
    assert G.checked_request(text) == want


@pytest.mark.parametrize("text, want", [
    ("Make sure the dishwasher isn't running", "turn off the dishwasher"),
    ("make sure the tv is not on", "turn off the tv"),
    ("I want the fridge closed and the tv off", "close the fridge and turn off the tv"),
    ("make sure the plate is not clean", "make sure the plate is not clean"),  # no opposite state
    ("Make sure the TV is on but not the computer", "Make sure the TV is on but not the computer"),
])
def test_state_request(text, want):
    assert G.state_request(text) == want


@pytest.mark.parametrize("what, want", [
    ("oven to 200 degrees", "oven"),
    ("television in the bedroom", "television in the bedroom"),
    ("guests", None), ("bit", None),
    ("kitchen ready and we re having people over", None),
    ("pepper shakers out", "pepper shakers out"),
])
def test_missing_object(what, want):
    assert G.missing_object(what) == want


def test_negated_wanted_state_is_not_refused_but_a_negation_is():
    assert G.prepare("Make sure the TV isn't on", "x") == ("turn off the tv", None)
    task, refusal = G.prepare("Turn on the TV but not the computer", "x")
    assert refusal and "but not" in refusal
