"""The pddl world behind the World interface (actionable/worlds/pddl/world.py): registry, the
environment checker on every shipped problem, the action language, unmet preconditions, goals,
observations and scene names."""

from __future__ import annotations

import pytest

from actionable.core.errors import (ConfigError, UnknownObjectError, UnknownSceneError, WorldActionError,
                               WorldNotResetError)
from actionable.worlds import check_world, list_worlds, make
from actionable.core.world import Action
from actionable.worlds.pddl.scenes import DATA, resolve, scene_of, shipped_scenes
from actionable.worlds.pddl.steps import PddlStep
from actionable.worlds.pddl.world import PddlWorld


def test_registered_and_made_by_id():
    assert "pddl" in list_worlds()
    w = make("pddl")
    assert isinstance(w, PddlWorld) and w.id == "pddl"
    assert w.reset()[1]["scene"] == "blocksworld:p01"
    assert make("pddl", scene="household:p02").reset()[1]["problem"] == "tidy-kitchen"
    dom, prob = DATA / "household" / "domain.pddl", DATA / "household" / "p01.pddl"
    _, info = make("pddl", domain=str(dom), problem=str(prob)).reset()
    assert info["scene"] == scene_of(dom, prob) and info["domain"] == "household"
    with pytest.raises(ConfigError, match="both domain= and problem="):
        make("pddl", domain=str(dom))


def test_shipped_scenes_and_names():
    assert shipped_scenes() == ["blocksworld:p01", "blocksworld:p02", "blocksworld:p03",
                                "household:p01", "household:p02", "household:p03"]
    assert resolve("default").name == "blocksworld:p01" and resolve("household").name == "household:p01"
    with pytest.raises(UnknownSceneError, match="shipped scenes: blocksworld:p01"):
        resolve("blocksworld:p99")
    w = make("pddl")
    assert w.resolve_scene("household:p03") == "household:p03" and w.resolve_scene("nope") is None


@pytest.mark.parametrize("scene", shipped_scenes())
def test_check_world_passes_on_every_shipped_problem(scene):
    rep = check_world(make("pddl", scene=scene), max_actions=40, fresh=lambda: make("pddl", scene=scene))
    assert rep.scene == scene and rep.n_executed == rep.n_admissible > 0
    assert {"reset-before-step", "determinism", "admissible-execute", "parse-format", "typed-errors",
            "failure-info"} <= set(rep.checks)


def test_parse_format_round_trip_and_text_forms():
    w = make("pddl")
    w.reset()
    want = Action("unstack", ("c", "a"))
    for text in ("(unstack c a)", "unstack(c, a)", "UNSTACK(C A)", "unstack c a", "(unstack c a) [1]"):
        assert w.parse(text) == want
    assert w.format(want) == "unstack(c, a)" and w.parse(w.format(want)) == want
    assert w.parse("pick up b") == Action("pick-up", ("b",))  # the planner's phrase
    for a in w.admissible("all"):
        assert w.parse(w.format(a)) == a
    with pytest.raises(UnknownObjectError, match="'zz' is not in problem 'sussman'"):
        w.parse("(pick-up zz)")
    with pytest.raises(WorldActionError, match="unknown action 'fly'.*pick-up, put-down, stack, unstack"):
        w.parse("(fly a)")
    with pytest.raises(WorldActionError, match=r"stack takes 2 argument\(s\)"):
        w.parse("(stack a)")
    with pytest.raises(WorldActionError, match="cannot read"):
        w.parse("this is not an action (((")


def test_step_reports_unmet_preconditions_readably():
    w = make("pddl", scene="household:p01")
    with pytest.raises(WorldNotResetError):
        w.step("(go hall-door kitchen-door)")
    w.reset()
    before = w.state_key()
    obs, r, term, trunc, info = w.step("(take-from milk counter)")
    assert not info["executed"] and w.state_key() == before
    # the existential "a lit light in the counter's room" is named by its one instance
    assert info["unmet_preconditions"] == ["(agent-at counter)", "(lit kitchen-light)"]
    assert "take-from(milk, counter) is not executable: unmet (agent-at counter)" in info["error"]
    info = w.step("(go hall-door fridge)")[4]  # statically impossible: not connected
    assert info["unmet_preconditions"] == ["(connected hall-door fridge) (a static fact: never true in this problem)"]
    with pytest.raises(WorldActionError, match="'counter' is a surface"):
        w.step("(open counter)")


def test_a_plan_reaches_the_goal_with_reward_and_observation():
    w = make("pddl", scene="household:p01")
    obs, _ = w.reset()
    assert obs["goals"] == {"(in milk fridge)": False} and "(agent-at hall-door)" in obs["atoms"]
    plan = ["(go hall-door kitchen-door)", "(switch-on kitchen-light)", "(go kitchen-door counter)",
            "(take-from milk counter)", "(go counter fridge)", "(open fridge)", "(put-in milk fridge)"]
    rewards = []
    for a in plan:
        obs, r, term, _, info = w.step(a)
        assert info["executed"], info["error"]
        rewards.append(r)
    assert rewards == [0.0] * 6 + [1.0] and term
    assert obs["goals"] == {"(in milk fridge)": True}
    assert w.check(w.goals("Put the milk in the fridge")).success
    assert w.step(PddlStep.of("close", "fridge"))[4]["executed"]  # a PddlStep is an action too


def test_goals_are_the_problems_conjuncts():
    w = make("pddl", scene="household:p02")
    w.reset()
    gs = w.goals("anything")
    assert [g.text for g in gs] == ["(in milk fridge)", "(on cup table)", "(closed fridge)",
                                    "(not (lit kitchen-light))"]
    res = w.check(gs)
    assert res.met == ("(closed fridge)", "(not (lit kitchen-light))") and res.goal_condition_success == 0.5


def test_admissible_now_and_all():
    w = make("pddl")
    w.reset()
    assert w.admissible() == [Action("pick-up", ("b",)), Action("unstack", ("c", "a"))]
    assert len(w.admissible("all")) == 24  # 3 + 3 + 9 + 9 groundings of the four operators


def test_scene_info():
    info = make("pddl").scene_info("household:p01", classes=True)
    assert info["domain"] == "household" and info["goal"] == ["(in milk fridge)"]
    assert ":existential-preconditions" in info["requirements"] and info["grounded_actions"] == 18
    assert info["objects_by_type"]["container"] == ["fridge"]
