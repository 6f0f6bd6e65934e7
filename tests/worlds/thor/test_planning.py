"""The THOR kitchen's planning domain (actionable/worlds/thor/planning.py, repair.py, bank.py):
exact affordance without side effects, the THOR repair rules, the TEACh example bank and its
leak-free exclusions, and no-LM grounded plans scored by the world's goal predicates."""

from __future__ import annotations

import pytest

from actionable.core.config import GroundedConfig
from actionable.core.program import Step
from actionable.core.errors import ResolutionError, UnknownSceneError
from actionable.core.planning import PlanningDomain
from actionable.core.registry import planning_domain
from actionable.planning.grounded import GroundedPlanner
from actionable.planning.retrieval import ProgramRetriever
from actionable.core.world import check_goals
from actionable.worlds.thor.bank import episode_program, held_out_sources, teach_bank
from actionable.worlds.thor.goals import task_goals
from actionable.worlds.thor.planning import ThorPlanning, class_name, clone
from actionable.worlds.thor.scene import ThorState

KITCHEN = "teach:af49e2061b576182_7eeb"  # FloorPlan8: coffee machine, stove, house plant; nothing done at start


@pytest.fixture(scope="module")
def emb(tmp_path_factory):
    from actionable.grounding.embedder import load_embedder

    return load_embedder("minilm", cache_dir=tmp_path_factory.mktemp("cache"))


def test_domain_comes_from_the_registry_and_knows_its_scene():
    d = planning_domain("thor", "af49e2061b576182_7eeb")  # bare TEACh game id
    assert isinstance(d, ThorPlanning) and isinstance(d, PlanningDomain)
    assert d.name == KITCHEN and d.floor_plan() == "FloorPlan8"
    assert planning_domain("thor", "default").name == "FloorPlan1"
    with pytest.raises(UnknownSceneError, match="FloorPlan1"):
        planning_domain("thor", "FloorPlan9999")


def test_class_names_are_snake_case_types():
    assert class_name("CoffeeMachine") == "coffee_machine" and class_name("Mug") == "mug"
    o = ThorPlanning("FloorPlan1").start()
    assert {"mug", "coffee_machine", "sink_basin", "faucet", "house_plant"} <= set(o.class_names())


def test_attempt_never_changes_the_state_and_repairs_walk_before_grab():
    o = ThorPlanning("FloorPlan1").start()
    before = o.fingerprint(o.state)
    att = o.attempt(Step.of("grab", "mug"))
    assert att.ok and o.fingerprint(o.state) == before
    assert [s.action for s in att.steps][-1] == "GRAB" and att.repaired[-1] is False
    assert att.steps[0].action == "WALK" and att.repaired[0] is True
    assert att.state.held == att.steps[-1].args[0].id
    assert not o.attempt(Step.of("grab", "mug"), repair=False).ok
    o.commit(att)
    assert o.state.held is not None and o.fingerprint(o.state) != before


def test_repair_fills_an_empty_vessel_at_the_sink_before_pouring():
    o = ThorPlanning("FloorPlan1").start()
    att = o.attempt(Step.of("pour", "cup", "house_plant"))
    assert att.ok, att.info
    texts = [s.unresolved().to_text() for s in att.steps]
    assert "put cup in sink basin" in texts and "switch on faucet" in texts and texts[-1] == "pour cup into house plant"
    assert all(att.repaired[:-1]) and att.n_repairs == len(texts) - 1
    assert check_goals(task_goals("Water the plant"), att.state).success


def test_repair_puts_down_a_held_object_first():
    o = ThorPlanning("FloorPlan1").start()
    o.commit(o.attempt(Step.of("grab", "mug")))
    att = o.attempt(Step.of("grab", "cup"))
    assert att.ok and att.steps[-1].args[0].name == "cup"
    assert any(s.action in ("PUTBACK", "PUTIN") and s.args[0].name == "mug" for s in att.steps[:-1])


def test_unknown_class_is_a_resolution_error():
    o = ThorPlanning("FloorPlan1").start()
    with pytest.raises(ResolutionError, match="television"):
        o.attempt(Step.of("switchon", "television"))


def test_clone_is_independent():
    s = ThorState(ThorPlanning("FloorPlan1").scene)
    c = clone(s)
    mug = c.of_type("Mug")[0]
    c.move(mug, None)
    c.held = mug
    assert s.held is None and s.objects[mug].parent is not None


def test_candidates_are_class_level_and_afforded_by_capabilities():
    o = ThorPlanning("FloorPlan1").start()
    texts = {s.to_text() for s in o.candidates({"mug", "coffee_machine", "sink_basin", "house_plant"})}
    assert {"grab mug", "put mug in coffee machine", "switch on coffee machine", "pour mug into house plant",
            "walk to house plant", "put mug in sink basin"} <= texts
    assert "grab coffee machine" not in texts and "switch on mug" not in texts


def test_execute_replays_from_the_initial_state():
    o = ThorPlanning("FloorPlan1").start()
    att = o.attempt(Step.of("grab", "mug"))
    ex, final = o.execute(att.steps)
    assert ex["executable"] and ex["steps_executed"] == len(att.steps) and final.held is not None
    ex, _ = o.execute(att.steps[-1:])  # the grab without its walk
    assert not ex["executable"] and ex["failed_index"] == 0 and any("atLocation" in u for u in ex["unmet_preconditions"])


def test_teach_bank_is_the_teach_demonstrations():
    bank = teach_bank(goal_demos=False)
    assert 70 <= len(bank) <= 79
    assert all(e.source.startswith("teach:") for e in bank)
    coffee = [e for e in bank if e.description == "Coffee"]
    with_machine = [e for e in coffee if any("coffee machine" in s for s in e.steps)]
    assert len(coffee) >= 10 and len(with_machine) > len(coffee) // 2  # a few drivers stopped early
    ep = {"objects": [{"id": "Mug|1", "type": "Mug", "states": []}, {"id": "CM|1", "type": "CoffeeMachine", "states": []}],
          "interactions": [["Pickup", "Mug|1", 1], ["Place", "CM|1", 1], ["ToggleOn", "CM|1", 0]]}
    assert episode_program(ep) == ("grab mug", "put mug in coffee machine")  # failed interactions dropped


def test_held_out_sources_are_exactly_the_scene_floor_plan():
    from actionable.worlds.thor import data

    d = ThorPlanning(KITCHEN)
    held = set(d.held_out_sources())
    assert KITCHEN in held
    eps = data.teach_episodes()
    assert all(eps[s[len("teach:"):]]["world"].startswith("FloorPlan8_") for s in held)
    assert held == set(held_out_sources("FloorPlan8"))
    assert "goals:FloorPlan2" in held_out_sources("FloorPlan2")


def test_goal_demonstrations_are_an_option_from_other_kitchens():
    from actionable.worlds.thor.data import DEMO_FLOOR_PLANS, GOAL_TASKS, goal_demos

    demos = goal_demos()
    assert demos and {d["task"] for d in demos} <= set(GOAL_TASKS)
    assert {d["scene"] for d in demos} <= set(DEMO_FLOOR_PLANS)
    assert all(d["success"] and d["steps"] and not any(s.startswith("walk") for s in d["steps"]) for d in demos)
    assert len(teach_bank(goal_demos=True)) == len(teach_bank()) + len(demos)  # default: TEACh alone
    assert not any(e.source.startswith("goals:") for e in ThorPlanning(KITCHEN).example_bank())


def test_search_finds_a_coffee_demonstration(emb):
    from actionable.planning.demos import search_demo

    d = search_demo(ThorPlanning("FloorPlan2"), "Make coffee", emb, teach_bank())
    assert d["success"] and d["goals_met"] == 2 and "put mug in coffee machine" in d["steps"]
    assert not any(s.startswith("walk to") for s in d["steps"])


@pytest.mark.parametrize("task", ["Make coffee", "Water the plant"])
def test_no_lm_plan_is_executable_and_meets_the_goals_leak_free(emb, task):
    d = ThorPlanning(KITCHEN)
    start = check_goals(task_goals(task), ThorState(d.scene))
    assert not start.success
    planner = GroundedPlanner(None, emb, ProgramRetriever(d.example_bank(), emb), GroundedConfig(use_lm=False))
    res = planner.plan(task, d, exclude_sources=d.held_out_sources())
    assert not {r["source"] for r in res.retrieved} & set(d.held_out_sources())
    assert res.executable and res.steps
    gc = d.goal_check(res)
    assert gc["checked"] and gc["task_success"], (res.program.to_text(), gc)
    assert check_goals(task_goals(task), res.final_state).success  # the same predicates, on the replayed state


def test_boil_water_plan_is_executable_and_its_goal_check_is_honest(emb):
    d = ThorPlanning(KITCHEN)
    planner = GroundedPlanner(None, emb, ProgramRetriever(d.example_bank(), emb), GroundedConfig(use_lm=False))
    res = planner.plan("Boil water", d, exclude_sources=d.held_out_sources())
    assert res.executable
    gc = d.goal_check(res)
    direct = check_goals(task_goals("Boil water"), res.final_state)
    assert gc["met"] == len(direct.met) and gc["total"] == 3 and gc["task_success"] == direct.success


def test_goal_check_of_a_task_without_goal_predicates():
    class R:
        task, final_state, executability = "Slice the bread", None, {"executable": True}

    gc = ThorPlanning("FloorPlan1").goal_check(R())
    assert gc["checked"] is False and "Make coffee" in gc["reason"]


def test_world_text_is_the_kitchen_language_verify_reads():
    from actionable.verify.worldsim import read_world_plan
    from actionable.worlds.thor.verify_adapter import ThorAdapter

    o = ThorPlanning("FloorPlan1").start()
    att = o.attempt(Step.of("putin", "mug", "coffee_machine"))
    lines = [ThorPlanning.world_text(s) for s in att.steps]
    assert lines[-1] == "Place(CoffeeMachine)" and "PickUp(Mug)" in lines and lines[0].startswith("GotoLocation(")
    ad = ThorAdapter("FloorPlan1")
    plan, _ = read_world_plan(ad, "\n".join(lines))
    assert len(plan.steps) >= 2 and plan.steps[-1].action in ("PUTIN", "PUTBACK") and ad.replay(plan.steps).executable


def test_a_step_whose_effect_already_holds_is_satisfied_not_repaired():
    """THOR's attempts said nothing of "already holds", so "Close the fridge" opened the closed fridge
    to close it, and "Turn off the faucet" was planned with the faucet off. Now such a step fails as
    ``satisfied`` (every object it could bind already is so), and the planner says nothing to do."""
    o = ThorPlanning("FloorPlan1").start()
    fridge = next(x for x in o.state.objects.values() if x.type == "Fridge")
    assert not fridge.open
    att = o.attempt(Step.of("close", "fridge"))
    assert not att.ok and att.satisfied and att.steps[0].action == "CLOSE"
    opened = o.attempt(Step.of("open", "fridge"))
    assert opened.ok and not opened.satisfied
    o.state = opened.state
    assert o.attempt(Step.of("close", "fridge")).ok  # once open it can be closed
    assert not o.attempt(Step.of("grab", "mug")).satisfied  # no such effect: never satisfied


def test_nothing_to_do_in_the_kitchen(emb):
    dom = planning_domain("thor", "FloorPlan1")
    planner = GroundedPlanner(None, emb, ProgramRetriever(teach_bank(), emb), GroundedConfig(use_lm=False))
    res = planner.plan("Close the fridge", dom)
    assert res.stop_reason == "already_done" and not res.steps
    assert any("nothing to do" in w for w in res.warnings), res.warnings
    res = planner.plan("Open the fridge", planning_domain("thor", "FloorPlan1"))
    assert [s.action for s in res.steps][-1] == "open fridge" and res.executability["executable"]
