"""The sim judge in the pddl world (actionable/worlds/pddl/verify_adapter.py): corrupted plans (a
redundant pair and a missing step) are repaired end to end through `actionable.verify`, the CLI
reads every output form of the planner, and the judge's hooks (fixes, already, undo pairs)."""

from __future__ import annotations

import pytest

import actionable
from actionable.cli import main
from actionable.core.config import GroundedConfig
from actionable.planning.grounded import GroundedPlanner
from actionable.planning.retrieval import ProgramRetriever
from actionable.verify.worldsim import make_adapter, verify_route
from actionable.worlds.pddl.planning import PddlPlanning
from actionable.worlds.pddl.steps import PddlStep

from tests.cli.test_thor_plan_to_verify import write_plan_formats

SUSSMAN_GOLD = ["(unstack c a)", "(put-down c)", "(pick-up b)", "(stack b c)", "(pick-up a)", "(stack a b)"]
MILK_GOLD = ["(go hall-door kitchen-door)", "(switch-on kitchen-light)", "(go kitchen-door counter)",
             "(take-from milk counter)", "(go counter fridge)", "(open fridge)", "(put-in milk fridge)"]


def corrupt(gold, pair_at, pair, drop):
    """``gold`` with ``pair`` (a do / undo pair) inserted before step ``pair_at`` and step ``drop`` removed."""
    steps = list(gold)
    steps[pair_at:pair_at] = pair
    steps.remove(gold[drop])
    return steps


def test_route_and_adapter_come_from_the_world_class():
    assert verify_route("pddl") == "adapter"
    ad = make_adapter("pddl", "blocksworld:p01")
    assert ad.scene == "blocksworld:p01" and ad.default_goal.endswith("(on a b) (on b c)")


@pytest.mark.parametrize("scene, gold, at, pair, drop", [
    ("blocksworld:p01", SUSSMAN_GOLD, 2, ["(pick-up b)", "(put-down b)"], 4),          # missing (pick-up a)
    ("household:p01", MILK_GOLD, 3, ["(go counter kitchen-door)", "(go kitchen-door counter)"], 5),  # (open fridge)
])
def test_sim_judge_repairs_a_redundant_pair_and_a_missing_step(scene, gold, at, pair, drop):
    bad = corrupt(gold, at, pair, drop)
    v = actionable.verify("\n".join(bad), judge="sim", world="pddl", scene=scene)
    assert not v.before.executable and v.after.executable
    assert v.after.goals_met == v.after.goals_total > v.before.goals_met
    crits = v.result.first_critiques
    removed = sorted(c.index for c in crits if c.kind.value == "REMOVE")
    missing = [c.step.to_script() for c in crits if c.kind.value == "MISSING"]
    # the inserted pair, flagged as undoing each other (in the household, the walk before it and its
    # first step are the same kind of pair: either is right)
    assert len(removed) == 2 and removed[1] == removed[0] + 1 and at - 1 <= removed[0] <= at
    assert all("undo" in c.reason for c in crits if c.kind.value == "REMOVE")
    assert missing == [gold[drop]]
    assert [s.to_script() for s in v.final.steps] == gold  # exactly the gold plan back
    assert v.goal.startswith("the goal of PDDL problem")  # no goal given: the problem's own


def test_a_step_whose_effect_already_holds_is_removed():
    bad = ["(switch-on hall-light)"] + MILK_GOLD  # the hall light is on at the start
    v = actionable.verify("\n".join(bad), judge="sim", world="pddl", scene="household:p01")
    crits = v.result.first_critiques
    assert [(c.kind.value, c.index) for c in crits] == [("REMOVE", 0)]
    assert "already holds" in crits[0].reason and v.after.executable


def test_a_missing_chain_is_inserted_as_one_repair():
    ad = make_adapter("pddl", "blocksworld:p01")
    steps = [PddlStep.of("stack", "a", "b")]  # a lies under c: three steps are missing
    rep = ad.replay(steps)
    fixes = ad.fixes(steps, 0, rep)
    assert [s.to_script() for s in fixes[0][1]] == ["(unstack c a)", "(put-down c)", "(pick-up a)"]
    assert "(holding a)" in fixes[0][2]


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """A no-LM plan for household:p01 printed in every --format by the CLI's printer."""
    from actionable.grounding.embedder import load_embedder

    class _Session:
        def info(self):
            return {"scene": "household:p01", "planning_model": "none", "translation_model": "minilm"}

    emb = load_embedder("minilm", cache_dir=tmp_path_factory.mktemp("cache"))
    d = PddlPlanning("household:p01")
    res = GroundedPlanner(None, emb, ProgramRetriever(d.example_bank(), emb),
                          GroundedConfig(use_lm=False)).plan("Put the milk in the fridge", d)
    res.goal_check = d.goal_check(res)
    assert res.executable and res.goal_check["task_success"]
    return res, write_plan_formats(res, _Session(), d, tmp_path_factory.mktemp("plans"))


@pytest.mark.parametrize("fmt", ["human", "script", "text", "json"])
def test_cli_verify_reads_every_plan_format(planned, fmt, capsys):
    res, files = planned
    code = main(["verify", str(files[fmt]), "--env", "pddl", "--scene", "household:p01", "--judge", "sim", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "world pddl, scene household:p01, goal: Put the milk in the fridge" in out
    revised = [ln.split(". ", 1)[1] for ln in out.split("revised plan", 1)[1].splitlines()[1:] if ". " in ln]
    kept = [s.resolved.to_script() for s in res.steps]
    assert set(revised) <= set(kept) and revised[-1] == "(put-in milk fridge)"
    assert "executes in pddl: before yes, after yes; goals met 1/1 -> 1/1" in out


def test_python_verify_of_a_plan_result_judges_in_its_own_world(planned):
    res, _ = planned
    v = actionable.verify(res, judge="sim")
    assert v.env == "pddl" and v.scene == "household:p01" and v.after.executable and v.after.goals_met == 1


def test_bad_plan_lines_name_the_line(tmp_path, capsys):
    f = tmp_path / "bad.txt"
    f.write_text("(unstack c a)\n(fly c)\n", encoding="utf-8")
    code = main(["verify", str(f), "--env", "pddl", "--scene", "blocksworld:p01", "--judge", "sim", "-q"])
    _, err = capsys.readouterr()
    assert code == 2 and "line 2" in err and "unknown action 'fly'" in err
    f.write_text("(pick-up zz)\n", encoding="utf-8")
    code = main(["verify", str(f), "--env", "pddl", "--scene", "blocksworld:p01", "--judge", "sim", "-q"])
    _, err = capsys.readouterr()
    assert code == 2 and "line 1" in err and "'zz' is not in problem 'sussman'" in err
