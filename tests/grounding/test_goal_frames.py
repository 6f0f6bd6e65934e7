"""Frame-free reading (grounding/goal_frames.py) over VirtualHome's default-scene lexicon."""

from __future__ import annotations

import pytest

from actionable.grounding.goal_frames import reframe


@pytest.fixture(scope="module")
def lex():
    from actionable.worlds.virtualhome.interpret import VirtualHomeGoals
    return VirtualHomeGoals("default").lex


@pytest.mark.parametrize("text,want", [
    ("I need every stamp in the house on my office desk", "put every stamp on my office desk"),
    # a wished placement of "the X" is met by any X already there ("put a ...")
    ("the book ought to be on the desk in the home office", "put a book on the desk in the home office"),
    ("the dishwasher in the office ought to be closed", "close the dishwasher in the office"),
    ("a plate on the kitchen table would be great", "put a plate on the kitchen table"),
    ("chuck a pair of socks in the washer", "put a pair of socks in the washer"),
])
def test_reframed(lex, text, want):
    assert reframe(text, lex) == want


@pytest.mark.parametrize("text", [
    "the mug is in the sink",  # a statement
    "there are cups in the sink",
    "the wooden spoons on the counter",  # a bare description
    "the cup I left in the sink",  # not filler between the object and the preposition
    "put it somewhere nice",  # no receptacle the scene has
    "",
])
def test_not_reframed(lex, text):
    assert reframe(text, lex) is None
