"""The world-neutral grammar helpers of actionable/grounding/goal_reader.py."""

from __future__ import annotations

import pytest

from actionable.grounding import goal_reader as G
from actionable.grounding import spoken as S


@pytest.mark.parametrize("text, want", [
    ("Could you turn off the TV?", "turn off the TV"),
    ("Can you please put the plate in the sink", "put the plate in the sink"),
    ("Please turn off the bedroom light.", "turn off the bedroom light"),
    ("Can you hold the guitar for me?", "hold the guitar"),
    ("Please", "Please"),  # nothing left: unchanged, the world says what is wrong
    ("Turn on the TV", "Turn on the TV"),
])
def test_polite(text, want):
    assert S.polite(text) == want


@pytest.mark.parametrize("text, want", [
    ("Is the stove off? If not, switch it off", "make sure the stove is off"),
    ("Is the fridge closed? If it isn't, close it", "make sure the fridge is closed"),
    ("Is the stove off?", "Is the stove off?"),
])
def test_checked_request(text, want):
    assert S.checked_request(text) == want


@pytest.mark.parametrize("text, want", [
    ("Make sure the dishwasher isn't running", "turn off the dishwasher"),
    ("make sure the tv is not on", "turn off the tv"),
    ("I want the fridge closed and the tv off", "close the fridge and turn off the tv"),
    ("make sure the plate is not clean", "make sure the plate is not clean"),  # no opposite state
    ("Make sure the TV is on but not the computer", "Make sure the TV is on but not the computer"),
])
def test_state_request(text, want):
    assert S.state_request(text) == want


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
    assert S.prepare("Make sure the TV isn't on", "x") == ("turn off the tv", None)
    task, refusal = S.prepare("Turn on the TV but not the computer", "x")
    assert refusal and "but not" in refusal


@pytest.mark.parametrize("text,want", [
    # an aside before a request, cut at a dash or a sentence end, stays a part of its own
    ("the keys on the shelf - hang them on the hook", "the keys on the shelf; hang them on the hook"),  # sentences: ";"
    # "X, so Y": the reason X goes when Y asks
    ("the draught keeps coming in, so the window has to stay shut", "close the window"),  # a wished state
    # get / keep / make X <state>: the state's verb; "make sure" is not "make"
    ("get the oven open", "open the oven"),
    ("keep the porch light on", "keep the porch light on"),  # kept where it already holds (the lamps that are on)
    ("make sure the tv is off", "turn off the tv"),
    # the speaker's aside after the request
    ("unplug the kettle or I'll forget", "unplug the kettle"),
    ("close the window while I nap", "close the window"),
    ("put the wine in the fridge by tonight", "put the wine in the fridge"),
    ("put the comb in the cabinet where it lives", "put the comb in the cabinet"),
    # a room on the way to the placement that follows
    ("take the soap to the bathroom and put it in the cabinet", "put the soap in the cabinet in the bathroom"),
    # "..., not in the drawer" stays with its part
    ("the spoon goes in the sink, not in the drawer", "put the spoon in the sink"),
    # an interjection part goes; a cleaning verb's result is no filter
    ("Ugh. Wipe the bench down, please", "wipe the bench"),
    ("scrub the pan clean", "scrub the pan"),
    # a time clause of its own: the order the commands already give
    ("the bread goes in the toaster; once it's in, start it", "put the bread in the toaster, start it"),
])
def test_conversational_parts(text, want):
    assert S.conversational(text) == want


def test_conversational_with_a_lexicon_keeps_antecedents_and_drops_short_chatter():
    """With the world's ``names_object``: an aside that names an object before "it" is kept (its
    antecedent); a short sentence that names nothing is dropped; a room said in an aside lends
    itself to "that X" (never to "that X from the desk", which says where X is)."""
    names = lambda t: any(w in ("computer", "mug", "lamp", "washer", "form", "desk") for w in G.words(t))  # noqa: E731
    assert S.conversational("I could hear the computer all night. Turn it off.", names) == \
        "i could hear the computer all night; turn it off"
    assert S.conversational("I could hear the computer all night. Turn it off.") == "turn it off"
    assert S.conversational("Morning. Turn the lamp on.", names) == "turn the lamp on"
    assert S.conversational("I'm ironing in the bedroom - get that lamp on", names) == "turn on the lamp in the bedroom"
    assert S.conversational("I'm in the bedroom - get me that form from the desk", names) == \
        "get me that form from the desk"


@pytest.mark.parametrize("text, want", [
    ("I want to turn on the TV", "turn on the TV"),
    ("we'd like to open the window", "open the window"),
    ("I need to write something down", "I need to write something down"),  # no command follows: unchanged
    ("turn on the TV", "turn on the TV"),
])
def test_wish_to_do(text, want):
    assert S.wish_to_do(text) == want
