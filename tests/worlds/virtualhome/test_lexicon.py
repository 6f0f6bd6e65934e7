"""VirtualHome's lexicon for the goal reader (actionable/worlds/virtualhome/lexicon.py), on the
default scene: which classes and instances a noun phrase names."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def lex():
    from actionable.core.registry import planning_domain
    from actionable.planning.pipeline import interpreter_for

    return interpreter_for(planning_domain("virtualhome", "default")).lex


def test_a_bare_head_noun_covers_every_class_it_ends(lex):
    """"the counter" is the kitchen's or the bathroom's (the pizza is on the kitchen counter)."""
    cls = lex.classes(["counter"])[0]
    assert {"kitchen_counter", "bathroom_counter"} <= set(lex.kinds(["counter"], cls))
    assert lex.kinds(["kitchen", "counter"], "kitchen_counter") == ["kitchen_counter"]  # a class's own name


def test_one_thing_under_two_class_names(lex):
    assert set(lex.kinds(["hair", "dryer"], "hairdryer")) == {"hairdryer", "blow_dryer"}


def test_a_word_that_begins_one_class_names_it_but_a_function_word_does_not(lex):
    assert lex.classes(["remote"]) == ["remote_control"]
    assert lex.classes(["after"]) == []  # after_shave begins with it, and it names nothing
