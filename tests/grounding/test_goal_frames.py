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



def test_reread_never_flattens_commands_or_questions_into_one_state():
    """A part that holds two commands the grammar did not cut apart, or a yes/no question, is not
    read as one wished end state ("did somebody leave the kettle on" was read "turn on the kettle");
    one command after words without a verb is read alone (6 Dec, second session)."""
    from actionable.grounding import goal_frames as F
    from actionable.grounding import goal_reader as G
    from actionable.worlds.virtualhome.interpret import _EXTRA_VERBS, VirtualHomeGoals

    lex = VirtualHomeGoals("default").lex

    def reread(part):
        notes: list = []
        return F.reread(part, G.read_clause(part, lex, [], _EXTRA_VERBS), lex, [], _EXTRA_VERBS, notes), notes

    got, _ = reread("did somebody leave the tv on")
    assert not isinstance(got, G.ClauseReading)
    got, _ = reread("take it out of the oven put it on a plate the plate on the table")
    assert not isinstance(got, G.ClauseReading)
    got, notes = reread("the soup is nearly ready set a bowl on the kitchen table")
    assert isinstance(got, G.ClauseReading) and got.effect == "place" and got.subject.cls == "bowl", notes
