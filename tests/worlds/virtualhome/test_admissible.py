"""Admissible action space (Huang et al. 2022 Sec. 3.2) of real scenes."""

from __future__ import annotations

from collections import Counter

import pytest

from actionable.worlds.virtualhome.admissible import (
    ACTION_RULES, admissible_actions, admissible_texts, class_affordances, is_admissible,
)
from actionable.core.program import Step
from actionable.worlds.virtualhome.scene import list_program_ids, load_program, load_scene
from actionable.core.errors import SceneError


@pytest.fixture(scope="module")
def office():
    return load_scene("1003_2")


def test_affordance_filtering(office):
    acts = set(admissible_actions(office))
    assert Step.of("grab", "mouse") in acts
    assert Step.of("grab", "bathroom") not in acts and Step.of("grab", "couch") not in acts
    assert Step.of("switchon", "computer") in acts and Step.of("switchon", "mouse") not in acts
    assert Step.of("sit", "chair") in acts and Step.of("sit", "mouse") not in acts
    assert Step.of("walk", "bathroom") in acts and Step.of("walk", "mouse") in acts
    assert Step.of("find", "bathroom") not in acts
    assert Step.of("type", "keyboard") in acts  # executor special case
    assert all("character" not in s.names for s in acts)
    assert Step.of("standup") in acts
    aff = class_affordances(office)
    for s in acts:
        if s.action == "PUTIN":
            assert "GRABBABLE" in aff[s.names[0]] and aff[s.names[1]] & {"CONTAINERS", "CAN_OPEN"}
            assert s.names[0] != s.names[1]


def test_sorted_deterministic_and_unique(office):
    a = admissible_actions(office)
    assert a == admissible_actions(load_scene("1003_2"))
    assert a == sorted(a, key=lambda s: (s.action, s.names))
    assert len(set(a)) == len(a)
    assert all(not s.is_resolved or not s.args for s in a)
    assert admissible_texts(office)[0] == a[0].to_text()
    assert set(Counter(s.action for s in a)) <= set(ACTION_RULES)
    assert {"WALK", "GRAB", "PUTIN", "PUTBACK", "SWITCHON", "SIT", "OPEN"} <= {s.action for s in a}


def test_default_scene_size(default_scene):
    a = admissible_actions(default_scene)
    assert 10_000 < len(a) < 60_000  # Huang et al. had 47,522 strings
    assert Step.of("switchon", "coffe_maker") in set(a)


def test_gold_steps_are_admissible():
    """Coverage: share of gold class-level steps inside their scene's space."""
    inside = total = 0
    for pid in list_program_ids()[::10]:
        sc = load_scene(pid)
        space = set(admissible_actions(sc))
        for s in load_program(pid).unresolved().steps:
            total += 1
            inside += s in space
            assert (s in space) == is_admissible(s, sc), s
    assert inside / total >= 0.97


def test_unknown_action_filter(office):
    assert {s.action for s in admissible_actions(office, actions=["grab"])} == {"GRAB"}
    with pytest.raises(SceneError, match="LOOKAT_SHORT"):
        admissible_actions(office, actions=["lookat_short"])
