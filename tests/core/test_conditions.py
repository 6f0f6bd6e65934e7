"""The world-neutral goal-condition helpers (actionable/core/conditions.py): one instance for a
thing named twice, and steps on the way dropped from the end state."""

from __future__ import annotations

from types import SimpleNamespace

from actionable.core.conditions import CHARACTER, Clause, Condition, bind_once, drop_undone, referents


def _sel(cls, ids, quantifier="the"):
    return SimpleNamespace(cls=cls, ids=list(ids), quantifier=quantifier)


def _remake(c, opts):
    return Clause(tuple(opts), c.text + "*", c.source)


def test_referents_are_classes_named_twice_with_several_candidates():
    sels = [_sel("milk", [1]), _sel("fridge", [10, 11]), None, _sel("fridge", [10, 11]), _sel("cup", [5, 6])]
    assert referents(sels) == [[10, 11]]
    assert referents([_sel("fridge", [10, 11], "any"), _sel("fridge", [10, 11])]) == []  # "a fridge" is not one
    assert referents([_sel("fridge", [10]), _sel("fridge", [10])]) == []  # one candidate: nothing to bind


def test_bind_once_keeps_one_instance_across_clauses():
    put = Clause((Condition("relation", 1, "INSIDE", 10), Condition("relation", 1, "INSIDE", 11)), "in", "grammar")
    close = Clause((Condition("state", 10, "CLOSED"), Condition("state", 11, "CLOSED")), "closed", "grammar")
    other = Clause((Condition("state", 7, "ON"),), "tv", "grammar")
    out = bind_once([put, close, other], [[10, 11]], _remake)
    assert [o.target for o in out[0].options] == [10] and [o.subject for o in out[1].options] == [10]
    assert out[2] is other and out[0].text == "in*"
    # a clause that offers none of the group's first id: the next id every clause offers is kept
    only11 = Clause((Condition("relation", 1, "INSIDE", 11),), "in 11", "grammar")
    out = bind_once([only11, close], [[10, 11]], _remake)
    assert [o.subject for o in out[1].options] == [11]
    # named by a single clause: nothing to bind
    assert bind_once([close, other], [[10, 11]], _remake) == [close, other]


def test_drop_undone_states_and_held_then_placed():
    opened = Clause((Condition("state", 10, "OPEN"),), "open the fridge", "grammar")
    closed = Clause((Condition("state", 10, "CLOSED"),), "close the fridge", "grammar")
    kept, notes = drop_undone([opened, closed], {"OPEN": "CLOSED", "CLOSED": "OPEN"})
    assert kept == [closed] and len(notes) == 1
    held = Clause((Condition("relation", CHARACTER, "HOLDS", 3),), "grab the pan", "grammar")
    placed = Clause((Condition("relation", 3, "IN", 20),), "put it on the burner", "grammar")
    kept, notes = drop_undone([held, placed])
    assert kept == [placed] and "picked up" in notes[0]
    # holding something else is kept
    other = Clause((Condition("relation", CHARACTER, "HOLDS", 4),), "grab the mug", "grammar")
    assert drop_undone([other, placed])[0] == [other, placed]


def test_drop_undone_keeps_a_placement_beside_facing_or_closeness():
    """ "sit on the couch and watch TV": on the couch, then facing the TV; facing or being close to
    something does not move the character off its seat, so the seat is kept (it was dropped as
    "moved on")."""
    on_couch = Clause((Condition("relation", CHARACTER, "ON", 352),), "sit on the couch", "grammar")
    facing = Clause((Condition("relation", CHARACTER, "FACING", 410),), "face the TV", "annotation")
    close = Clause((Condition("relation", CHARACTER, "CLOSE", 410),), "near the TV", "annotation")
    kept, notes = drop_undone([on_couch, facing, close])
    assert kept == [on_couch, facing, close] and notes == []
    # a placement elsewhere still moves it on
    on_bed = Clause((Condition("relation", CHARACTER, "ON", 70),), "lie on the bed", "grammar")
    kept, notes = drop_undone([on_couch, on_bed])
    assert kept == [on_bed] and len(notes) == 1


def test_a_visit_before_the_character_moves_on_is_asked_as_done_on_the_way():
    """ "take a shower and go to sleep": close to the shower (EAI's annotation of "Take shower"),
    then lying on the bed; both cannot hold at the end, so the shower is a walk among the executed
    steps. A closeness with nothing after it stays an end state."""
    from actionable.core.conditions import did, visits_on_the_way
    from actionable.core.program import Argument, Step

    shower = Clause((Condition("relation", CHARACTER, "CLOSE", 36), Condition("relation", CHARACTER, "CLOSE", 38)),
                    "the character is close to a shower (36 or 38)", "annotation")
    lying = Clause((Condition("state", CHARACTER, "LYING"),), "the character is lying", "annotation")
    out, notes = visits_on_the_way([shower, lying])
    assert out[1] == lying and len(notes) == 1
    assert {o.kind for o in out[0].options} == {"action"} and out[0].text == "the character went to a shower (36 or 38)"
    assert did(out[0].options[0], [Step("WALK", (Argument("shower", 36),))])
    assert not did(out[0].options[0], [Step("WALK", (Argument("bed", 105),))])
    assert visits_on_the_way([lying, shower]) == ([lying, shower], [])
