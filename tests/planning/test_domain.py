"""The grounded planner is world-agnostic (actionable/core/planning.py): it reaches a world only
through its planning domain. Scripted-LM control flow in the THOR kitchen, VirtualHome through
the domain equal to VirtualHome as before, bad input (unknown world / floor plan, an object the
kitchen lacks), and the real embedded model end to end: ``actionable plan "Make coffee" --env
thor`` (CLI) and ``actionable.plan(..., world="thor")`` (API)."""

from __future__ import annotations

import json

import pytest

from actionable.core.config import GroundedConfig
from actionable.core.errors import ConfigError, PlanningError, UnknownSceneError, UnknownWorldError
from actionable.lm.scripted import ScriptedLM
from actionable.core.registry import planning_domain
from actionable.planning.grounded import GroundedPlanner
from actionable.planning.retrieval import ProgramRetriever
from actionable.worlds import list_worlds

from tests.cli.test_plan_cli import run_cli

KITCHEN = "teach:af49e2061b576182_7eeb"  # FloorPlan8, a TEACh initial state; no task done at start


@pytest.fixture(scope="module")
def emb(tmp_path_factory):
    from actionable.grounding.embedder import load_embedder

    return load_embedder("minilm", cache_dir=tmp_path_factory.mktemp("cache"))


class PreferLM(ScriptedLM):
    """Scores ``0`` for the next phrase of ``wanted`` not yet in the plan, ``-20`` a word otherwise."""

    def __init__(self, task: str, wanted: list[str]):
        super().__init__([])
        self.task, self.wanted = task, wanted
        self.scored: list[list[str]] = []

    def score(self, prompt, continuations):
        self.prompts.append(prompt)
        done = prompt.rsplit(f"Task: {self.task}\n", 1)[-1]
        nxt = next((w for w in self.wanted if f": {w}\n" not in done), "Done")
        self.scored.append([c.strip() for c in continuations])
        return [0.0 if c.strip() == nxt else -20.0 * len(c.split()) for c in continuations]


def test_every_registered_world_plans_or_says_which_do():
    able = []
    for w in list_worlds():
        try:
            planning_domain(w, "default")
            able.append(w)
        except ConfigError as exc:
            assert "thor" in str(exc) and "virtualhome" in str(exc)
    assert {"thor", "virtualhome"} <= set(able)
    with pytest.raises(UnknownWorldError):
        planning_domain("nowhere", "default")


def test_scripted_lm_chooses_among_afforded_thor_steps_and_ends_at_done(emb):
    d = planning_domain("thor", "FloorPlan1")
    lm = PreferLM("Make coffee", ["Grab mug"])  # among the first step's afforded candidates
    planner = GroundedPlanner(lm, emb, ProgramRetriever(d.example_bank(), emb),
                              GroundedConfig(max_steps=8, goal_search=False))  # the LM's Done ends the plan
    res = planner.plan("Make coffee", d)
    chosen = [s.action for s in res.steps if not s.repaired]
    assert chosen == ["grab mug"] and res.stop_reason == "done"
    assert [s.action for s in res.steps if s.repaired] == ["walk to mug"]
    assert res.executable and res.lm_calls == 2
    assert "Task: Prepare coffee in a clean mug" in lm.prompts[0]  # TEACh demonstrations in the prompt
    assert all(c[-1] == "Done" for c in lm.scored) and all(len(c) >= 2 for c in lm.scored)
    # only afforded steps are scored: each scored phrase executes (after repair) from the state it was scored in
    o = d.start()
    from actionable.core.program import parse_step

    for phrase in lm.scored[0][:-1]:
        assert o.attempt(parse_step(phrase.lower())).ok, phrase


def test_virtualhome_through_its_domain_is_virtualhome_as_before(emb):
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.planning.examples import ExampleBank

    ret = ProgramRetriever(ExampleBank.of_world(), emb)
    planner = GroundedPlanner(None, emb, ret, GroundedConfig(use_lm=False))
    a = planner.plan("Watch TV", load_scene("default"))
    b = planner.plan("Watch TV", planning_domain("virtualhome", "default"))
    assert [s.to_script() for s in a.resolved_program.steps] == [s.to_script() for s in b.resolved_program.steps]
    assert a.executable and all(isinstance(arg.id, int) for s in a.resolved_program.steps for arg in s.args)


def test_object_absent_from_the_kitchen_is_a_typed_error_naming_the_closest(emb):
    d = planning_domain("thor", "FloorPlan1")
    planner = GroundedPlanner(None, emb, ProgramRetriever(d.example_bank(), emb), GroundedConfig(use_lm=False))
    with pytest.raises(PlanningError, match=r"'television'.*FloorPlan1.*closest objects here: \w+") as ei:
        planner.plan("Turn on the television", d)
    assert "actionable scenes --env thor FloorPlan1 --classes" in str(ei.value)


def test_api_bad_world_and_floor_plan_fail_before_any_model_loads():
    import actionable

    with pytest.raises(UnknownSceneError, match="FloorPlan9999"):
        actionable.plan("Make coffee", world="thor", scene="FloorPlan9999", progress=False)
    with pytest.raises(UnknownWorldError, match="nowhere"):
        actionable.plan("Make coffee", world="nowhere", progress=False)
    with pytest.raises(ConfigError, match="variant='full'"):
        actionable.plan("Make coffee", world="thor", variant="full", progress=False)


def test_cli_bad_env_and_floor_plan_exit_2_with_one_error_line():
    rc, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--scene", "FloorPlan9999", timeout=120)
    assert rc == 2 and "FloorPlan9999" in err and "Traceback" not in err
    rc, out, err = run_cli("plan", "Make coffee", "--env", "nowhere", timeout=120)
    assert rc == 2 and "--env" in err and "thor" in err
    rc, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--variant", "full", timeout=120)
    assert rc == 2 and "grounded" in err


@pytest.mark.slow
def test_cli_plans_make_coffee_in_a_teach_kitchen_with_the_embedded_model():
    rc, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--scene", KITCHEN, "--json",
                           "--variant", "grounded")  # the embedded LM's planner (the goal planner uses none)
    assert rc == 0, err
    res = json.loads(out)
    assert res["models"]["planning"].startswith("embedded:") and res["lm_calls"] > 0
    assert res["executability"]["executable"] is True
    assert res["goal_check"]["checked"] and res["goal_check"]["task_success"], res["program_text"]
    assert res["session"]["scene"] == KITCHEN
    assert any(r["source"].startswith("teach:") for r in res["retrieved"])
    rc, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--scene", KITCHEN, "--variant", "grounded")
    assert rc == 0 and "THOR kitchen world" in out and "goal met" in out
    rc, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--scene", KITCHEN)  # the default: goal
    assert rc == 0 and out.startswith("Done"), (rc, out, err)


@pytest.mark.slow
def test_cli_plan_text_in_the_kitchen_language_goes_to_verify(tmp_path):
    rc, out, err = run_cli("plan", "Water the plant", "--env", "thor", "--scene", KITCHEN, "--format", "text", "-q")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "# task: Water the plant" and any(x.startswith("Pour(HousePlant") for x in lines)
    (tmp_path / "plan.txt").write_text(out, encoding="utf-8")
    rc, out, err = run_cli("verify", str(tmp_path / "plan.txt"), "--env", "thor", "--scene", KITCHEN, "--judge", "sim")
    assert rc == 0, err
    assert "before yes" in out and "goals met 1/1 -> 1/1" in out


@pytest.mark.slow
def test_api_plans_water_the_plant_in_a_teach_kitchen():
    import actionable

    r = actionable.plan("Water the plant", world="thor", scene=KITCHEN, progress=False)
    assert r.executable and r.goal_check["task_success"], r.program.to_text()
    assert any(s.step.action == "POUR" and s.step.args[1].name == "house_plant" for s in r.steps)


def test_plan_help_describes_env_thor(capsys, monkeypatch):
    from actionable.cli import main

    monkeypatch.setenv("COLUMNS", "250")
    assert main(["plan", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--env" in out and "thor" in out and "FloorPlan" in out and "teach:" in out
