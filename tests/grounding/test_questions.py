"""Spoken state questions said as "Is X STATE?" (actionable/grounding/questions.py), and what the
readers answer on the real default house (never acted on)."""

from __future__ import annotations

import pytest

from actionable.grounding.questions import as_asked


@pytest.mark.parametrize("said,asked", [
    ("The telly in here isn't on, is it?", "Is the telly in here off?"),
    ("Bedroom computer's switched off, yes?", "Is the bedroom computer switched off?"),
    ("Heading downstairs in a moment. Kitchen light's switched on?",
     "Heading downstairs in a moment. Is the kitchen light switched on?"),
    ("Somebody was in the kitchen fridge earlier. Did they shut it properly?",
     "Somebody was in the kitchen fridge earlier. Is it closed?"),
    ("Washing my hands in a sec - there's soap on the bathroom counter, isn't there?",
     "Washing my hands in a sec - Is the soap on the bathroom counter?"),
    ("Has the dog got water in its bowl?", "Is the bowl full?"),
    ("Is the bowl full of water?", "Is the bowl full?"),
    ("The dining-room TV is off - isn't it?", "Is the dining room tv off?"),
    ("The fridge is closed, right?", "Is the fridge closed?"),
    # the clean-clone check (7 Dec, twelfth session)
    ("Is the candle in the bedroom still lit?", "Is the candle in the bedroom still on?"),
    ("Has the stereo been left on?", "Is the stereo on?"),
    ("the laptop in the bedroom's been left on, hasn't it?", "Is the laptop in the bedroom on?"),
    ("You\u2019ve turned the stereo off, haven\u2019t you?", "Is the stereo off?"),
    ("Did you remember to turn the washing machine on?", "Is the washing machine on?"),
    ("Is there any milk in the fridge?", "Is the milk in the fridge?"),
    ("Did you leave the tap running in the kitchen?", "Is the tap in the kitchen on?")])
def test_spoken_questions_become_the_one_form(said, asked):
    assert as_asked(said) == asked


@pytest.mark.parametrize("text", ["Turn off the TV.", "The TV is on - switch it off", "Is the TV on?",
                                  "Could you hold the bag that's on the kitchen counter for me?",
                                  "why are the salt shakers in the microwave?! get them all out",
                                  "Is the stove off? If not, switch it off", "I'm home?", "the lights are on, switch them off",
                                  "Did they leave?", ""])
def test_commands_and_other_text_are_left_alone(text):
    assert as_asked(text) == text


@pytest.fixture(scope="module")
def vh():
    from actionable.core.registry import planning_domain
    from actionable.planning.pipeline import interpreter_for

    return interpreter_for(planning_domain("virtualhome", "default"))


@pytest.mark.parametrize("said,subject,state", [
    ("The TV in the dining room isn't on, is it?", 248, "OFF"),
    ("Bedroom computer's switched off, yes?", 170, "OFF"),
    ("Somebody was rooting around in the kitchen fridge earlier. Did they shut it properly?", 289, "CLOSED"),
    ("Bedroom light's switched on?", 169, "ON")])
def test_the_reader_marks_them_questions_on_the_right_object(vh, said, subject, state):
    r = vh.read(said)
    assert r.status == "goal" and r.question, r.why
    assert r.task == said  # the reading keeps the words as said
    assert any(o.subject == subject and o.value == state for c in r.clauses for o in c.options), [c.text for c in r.clauses]


def test_a_tagged_there_is_asks_where_and_the_aside_is_dropped(vh):
    r = vh.read("Washing my hands in a sec - there's soap on the bathroom counter, isn't there?")
    assert r.question and {o.target for c in r.clauses for o in c.options} == {41}


@pytest.mark.parametrize("said", ["Are all the lights off in the dining room?", "Has the dog been fed?"])
def test_a_question_no_reader_answers_is_never_acted_on(vh, said):
    """A yes/no question by its form that no reader answers is "can't tell", never a goal ("Have I left the
    oven on?" had switched the oven on, Done)."""
    from actionable.grounding.questions import only_asks

    assert only_asks(said)
    r = vh.read(said)
    assert r.status == "unclear" and not r.clauses and r.task == said


@pytest.mark.parametrize("said", ["I want fresh air in the bedroom. Is the window open?", "Can you turn off the TV?",
                                  "Would you mind closing the fridge?", "Turn off the TV. Is it off now?"])
def test_a_request_or_a_wish_with_a_question_is_not_a_bare_question(said):
    from actionable.grounding.questions import only_asks

    assert not only_asks(said)


def test_as_said_turns_an_unanswered_goal_reading_of_a_question_into_cant_tell():
    from actionable.core.conditions import Clause, Condition, GoalReading
    from actionable.grounding.questions import as_said

    goal = GoalReading("is the oven on", (Clause((Condition("state", 295, "ON"),), "oven 295 is ON"),))
    r = as_said("Have I left the oven on again, do you think?", goal)
    assert r.status == "unclear" and not r.clauses and "never" not in r.why and "question" in r.why
    kept = as_said("Switch the oven on.", goal)
    assert kept.status == "goal" and kept.task == "Switch the oven on." and kept.clauses == goal.clauses
    asked = as_said("Have I left the oven on?", GoalReading("x", goal.clauses, question=True))
    assert asked.question and asked.task == "Have I left the oven on?"
