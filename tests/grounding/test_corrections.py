"""Corrections and shortened commands (actionable.grounding.corrections; issue 24), world-free."""

from __future__ import annotations

import pytest

from actionable.grounding.corrections import contrast, in_there, insisted_relation, verbless, with_inside


@pytest.mark.parametrize("text, out", [
    ("put the apple on the fridge, on top, not inside", "put the apple on top of the fridge"),
    ("put the milk on the fridge, not in the fridge", "put the milk on top of the fridge"),
    ("put the book on the desk - inside it, not on top", "put the book inside the desk"),
    ("put the book on the desk, not on the floor, please", "put the book on the desk, please"),
    ("Put my diary inside my bedside table - inside, not on top where anyone can read it.",
     "Put my diary inside my bedside table."),
    # left as said (the grammar refuses them): a negated object, a contradiction, no placement before
    ("put the cup in the sink, not the plate", "put the cup in the sink, not the plate"),
    ("put the book on the desk, not on the desk", "put the book on the desk, not on the desk"),
    ("put the book on the desk, not on it", "put the book on the desk, not on it"),
    ("turn off the tv, not the light", "turn off the tv, not the light"),
])
def test_contrast(text, out):
    assert contrast(text) == out


def test_insisted_relation_only_for_a_relation_correction():
    assert insisted_relation("put the apple on the fridge, not inside") == "on"
    assert insisted_relation("put the book on the desk - inside it, not on top") == "in"
    assert insisted_relation("put the book on the desk, not on the floor") is None  # another place
    assert insisted_relation("put the book on the desk, not on it") is None  # says both
    assert insisted_relation("put the cup in the sink") is None


def test_verbless_needs_a_noun_phrase_of_the_world():
    known = {"oven", "microwave", "steak", "kitchen counter", "counter", "fridge", "light", "light in the bedroom",
             "bedroom"}

    def names(t):
        return any(k in t for k in known)
    assert verbless("oven off", names) == "turn off oven"
    assert verbless("microwave on", names) == "turn on microwave"  # a noun that is also a verb
    assert verbless("the light in the bedroom on", names) == "turn on the light in the bedroom"
    assert verbless("steak out onto the kitchen counter", names) == "put steak onto the kitchen counter"
    assert verbless("into the fridge with it", names) == "put it into the fridge"
    assert verbless("pour some milk into the fridge", names) == "pour some milk into the fridge"  # a verb it lacks
    for q in ("make sure the oven isn't on", "did somebody leave the oven on", "the steak rolled into the fridge",
              "the cup on the table", "dance off"):
        assert verbless(q, names) == q


def test_in_there_and_with_inside():
    assert in_there("The kids play in the dining room. Plug in the lamp in there") == \
        "The kids play in the dining room. Plug in the lamp in the dining room"
    assert in_there("the bathroom is dark. turn the light on in there") == \
        "the bathroom is dark. turn the light on in the bathroom"
    # a thing named after the room: "there" may be that thing, never read as the room
    assert in_there("In the kitchen the fridge is empty. put the milk in there") == \
        "In the kitchen the fridge is empty. put the milk in there"
    assert in_there("put the cup in there") == "put the cup in there"
    assert with_inside("Run the microwave with the counter pizza inside.") == \
        "put the counter pizza in the microwave and Run the microwave."
    assert with_inside("turn on the TV with the sound off") == "turn on the TV with the sound off"


@pytest.mark.parametrize("said,fixed", [
    ("Switch the computer on. No wait, I mean the one in the office", "Switch the computer in the office on"),
    ("Put a cup in the sink, sorry, I mean the dishwasher", "Put a cup in the dishwasher"),
    ("Turn on the lamp, actually make that the office one", "Turn on the office lamp"),
    ("switch on the tv, I mean the radio", "switch on the radio"),
    ("Put the wine bottle in the fridge - no, sorry, in the cabinet", "Put the wine bottle in the cabinet"),
    ("Switch the TV on - no wait, the radio", "Switch the radio on")])
def test_a_self_correction_is_applied(said, fixed):
    """The clean-clone check (7 Dec, twelfth session): the correction had been ignored and the first thing
    said was done, with a Done."""
    from actionable.grounding.corrections import self_correction

    assert self_correction(said) == (fixed, None)


@pytest.mark.parametrize("text", ["Turn off the light. I mean it!", "I mean, could you turn off the tv",
                                  "put the cup in the sink, no need to wash it", "Put the milk in the fridge"])
def test_emphasis_and_fillers_are_no_correction(text):
    from actionable.grounding.corrections import self_correction

    assert self_correction(text) == (text, None)


def test_a_correction_that_cannot_be_applied_refuses():
    from actionable.grounding.corrections import self_correction

    text, why = self_correction("Put the book on the shelf - no wait, I mean, hmm")
    assert why and "corrects itself" in why and "say it once" in why
