"""New-user report: a task naming an object in no vocabulary ("bicycle", "car") silently got a
plan for another task; words of tasks that do work keep their behaviour. And ``max_steps``
holds with repair and goal-search steps counted."""

from __future__ import annotations

import pytest

from actionable.core.config import GroundedConfig
from actionable.worlds.virtualhome.scene import load_scene
from actionable.core.errors import PlanningError
from actionable.planning.examples import ExampleBank
from actionable.planning.grounded import GroundedPlanner
from actionable.worlds.virtualhome.planning import match_objects as match_task_objects
from actionable.planning.retrieval import ProgramRetriever


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    from actionable.grounding.embedder import load_embedder

    cache = tmp_path_factory.mktemp("cache")
    emb = load_embedder("minilm", cache_dir=cache)
    return emb, ProgramRetriever(ExampleBank.of_world(), emb, cache_dir=cache)


@pytest.fixture(scope="module")
def names():
    return load_scene("default").class_names()


def _planner(parts, **cfg):
    emb, ret = parts
    return GroundedPlanner(None, emb, ret, GroundedConfig(use_lm=False, **cfg))


@pytest.mark.parametrize("task,word", [("Ride the bicycle", "bicycle"), ("Wash the car", "car"),
                                       ("Feed the bird", "bird")])
def test_object_in_no_vocabulary_is_missing(parts, names, task, word):
    m = match_task_objects(task, names, parts[0])
    assert [w for w, _ in m.missing] == [word]
    assert m.missing[0][1], "closest scene classes are named"
    assert m.unknown == ({word} if word != "bird" else set())  # bird is a VirtualHome class
    assert not m.matched


@pytest.mark.parametrize("task,word,cls", [("Put the book on the shelf", "shelf", "bookshelf"),
                                            ("Put the books on the shelves", "shelves", None),
                                            ("Put the towel on the rack", "rack", "towel_rack"),
                                            ("Put the shoes on the rack", "rack", "shoe_rack")])
def test_a_word_that_ends_a_compound_name_names_that_class(parts, names, task, word, cls):
    """'shelf' went to `cupboard` (translation cos 0.66 vs bookshelf 0.62); the compound's head
    names the bookshelf. ('shelves' is no plain plural: left to the translation LM.)"""
    m = match_task_objects(task, names, parts[0])
    got = {w: (c, h) for w, c, h, _ in m.matched}
    if cls is None:
        assert not got.get(word, ("", ""))[1].startswith("compound")
    else:
        assert got[word][0] == cls and got[word][1].startswith("compound"), got
    assert {"bookshelf", "wallshelf"} <= set(names)


def test_missing_without_embedder_has_no_closest(names):
    m = match_task_objects("Wash the car", names)
    assert m.missing == [("car", [])]


@pytest.mark.parametrize("task,matched", [
    ("Make coffee", {"coffee"}), ("Watch TV", {"television"}), ("Go to sleep", set()),
    ("Turn on light", {"light"}), ("Brush teeth", {"teeth"}),
    ("Wash dishes with dishwasher", {"dishwasher"}), ("Water the plant", {"water"}),
    ("Listen to music", set()), ("Cook dinner", set())])
def test_words_of_working_tasks_are_not_missing(parts, names, task, matched):
    m = match_task_objects(task, names, parts[0])
    assert m.missing == [], m.missing
    assert {c for _, c, h, _ in m.matched if h == "name"} == matched


def test_thor_kitchen_reports_a_car_and_keeps_its_words(parts):
    from actionable.core.registry import planning_domain

    st = planning_domain("thor", "FloorPlan1").start(repair_budget=0)
    assert [w for w, _ in st.match_objects("Wash the car", parts[0]).missing] == ["car"]
    for task in ("Boil water", "Water the plant", "Make coffee", "Turn on light"):
        assert st.match_objects(task, parts[0]).missing == [], task


def test_ride_the_bicycle_is_refused_or_warned_never_silent(parts):
    for task in ("Ride the bicycle", "Wash the car"):
        try:
            res = _planner(parts, max_steps=10).plan(task, load_scene("default"))
        except PlanningError as exc:
            msg = str(exc)
            assert "has no such object" in msg and "closest objects here" in msg, msg
            continue
        assert res.objects["missing"], task
        assert any("this scene has none" in w for w in res.warnings), res.warnings


def test_a_word_the_bank_uses_is_planned_from_the_bank_when_its_title_is_held_out(parts):
    """Leave-title-out refused every "Write an email" task ('email' is in no object vocabulary and
    nothing else in the task names an object); the bank's "Work" program opens an email account, so
    the word is known: the planner plans from the bank, says so, and
    takes the computer among its candidates (scene of program 87_2, which has
    no `mail`: in the default house the translation LM maps "email" onto `mail`)."""
    ex = parts[1].mentioning("email", exclude_tasks={"Write an email"})
    assert ex is not None and ex.task != "Write an email"
    assert parts[1].mentioning("bicycle") is None
    res = _planner(parts, max_steps=12).plan("Write an email", load_scene("87_2"),
                                             exclude_tasks={"Write an email"})
    assert any("follows the example bank" in w and ex.source in w for w in res.warnings), res.warnings
    assert res.executability["executable"]
    assert res.steps and "computer" in res.relevant_classes, res.relevant_classes


def test_a_word_no_allowed_program_uses_still_blocks(parts):
    """The same task with every program that uses 'email' held out is refused again."""
    users = {e.task for e in parts[1].bank.examples if "email" in e.description.lower() + e.task.lower()}
    with pytest.raises(PlanningError, match="'email'.*has no such object"):
        _planner(parts, max_steps=12).plan("Write an email", load_scene("87_2"), exclude_tasks=users)


# ----------------------------------------------------------------- max_steps
@pytest.mark.parametrize("task,limit", [("Do laundry", 1), ("Do laundry", 12), ("Make a cup of tea", 4),
                                        ("Make a cup of tea", 8), ("Put on a jacket", 2),
                                        ("Throw the newspaper in the trash can", 7)])
def test_max_steps_holds_with_repairs_counted(parts, task, limit):
    """Before the fix these plans ran over by the repair steps of their last step (6 for 4, 11 for
    8, 3 for 2, 10 for 7)."""
    res = _planner(parts, max_steps=limit).plan(task, load_scene("default"))
    assert 1 <= len(res.steps) <= limit, [s.action for s in res.steps]
    assert res.executability["executable"], res.executability


def test_max_steps_holds_in_the_thor_kitchen_with_goal_search(parts):
    from actionable.core.registry import planning_domain

    for limit in (4, 8):
        res = _planner(parts, max_steps=limit).plan("Boil water", planning_domain("thor", "FloorPlan1"))
        assert 1 <= len(res.steps) <= limit, (limit, [s.action for s in res.steps])


def test_max_steps_bad_value_is_refused():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        GroundedConfig(max_steps=0)
