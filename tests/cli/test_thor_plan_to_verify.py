"""Output is input in the THOR kitchen: every form `actionable plan --env thor` prints (human,
--format script|text, --json) is read by `actionable verify --env thor` as it is; a kitchen plan
given without --env says so; the planner's walks are kept (the world needs them), a detour walk is
removed with an honest reason; help texts of follow/eval continual/scenes/plan/verify."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from actionable.cli import main
from actionable.core.config import GroundedConfig
from actionable.planning.grounded import GroundedPlanner
from actionable.planning.retrieval import ProgramRetriever
from actionable.worlds.thor.planning import ThorPlanning

from tests.cli.test_plan_cli import run_cli

SCENE = "FloorPlan1"
FORMATS = ("human", "script", "text", "json")


class _Session:
    def info(self):
        return {"scene": SCENE, "planning_model": "none (use_lm=False)", "translation_model": "minilm"}


@pytest.fixture(scope="module")
def planned(tmp_path_factory):
    """A no-LM grounded plan for "Make coffee" in FloorPlan1, printed in every --format by the
    CLI's own printer (`actionable.cli.plan._output`)."""
    from actionable.grounding.embedder import load_embedder

    emb = load_embedder("minilm", cache_dir=tmp_path_factory.mktemp("cache"))
    d = ThorPlanning(SCENE)
    planner = GroundedPlanner(None, emb, ProgramRetriever(d.example_bank(), emb), GroundedConfig(use_lm=False))
    res = planner.plan("Make coffee", d, exclude_sources=d.held_out_sources())
    assert res.executable and res.steps
    res.goal_check = d.goal_check(res)
    return res, write_plan_formats(res, _Session(), d, tmp_path_factory.mktemp("plans"))


def write_plan_formats(res, session, domain, out) -> dict:
    """``{format: file}``: ``res`` printed by the CLI's own printer (`actionable.cli.plan._output`)
    in every ``--format``, one file each under ``out`` (also used by other worlds' tests)."""
    from actionable.cli.plan import _output

    files = {}
    for fmt in FORMATS:
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            _output(res, session, fmt, domain.executes_in, domain.world_text)
        files[fmt] = out / f"plan-{fmt}.{'json' if fmt == 'json' else 'txt'}"
        files[fmt].write_text(buf.getvalue(), encoding="utf-8")
    return files


def _world_lines(res):
    from actionable.cli.plan import program_steps

    return [ThorPlanning.world_text(s) for s in program_steps(res)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_plan_format_reads_as_the_planners_kitchen_actions(planned, fmt):
    from actionable.verify.planfile import loads_world_plan_json
    from actionable.verify.worldsim import make_adapter, read_world_plan

    res, files = planned
    text = files[fmt].read_text(encoding="utf-8")
    ad = make_adapter("thor", SCENE)
    plan = loads_world_plan_json(text) if fmt == "json" else read_world_plan(ad, text)[0]
    assert plan.task == "Make coffee"
    want = _world_lines(res)
    assert want[0].startswith("GotoLocation(") and "PickUp(Mug)" in want
    assert [ad.format_step(s) for s in plan.steps] == want  # the planner's mapping, step for step
    rep = ad.replay(plan.steps)
    assert rep.executable
    if fmt != "text":  # the plan's AI2-THOR ids are bound first: the objects the planner used
        ids = [a.id for s in plan.steps for a in s.args[-1:]]
        assert all(isinstance(i, str) and "|" in i for i in ids)
        assert rep.bound_ids == ids


@pytest.mark.parametrize("fmt", FORMATS)
def test_verify_env_thor_accepts_every_plan_format(planned, fmt, capsys):
    res, files = planned
    code = main(["verify", str(files[fmt]), "--env", "thor", "--scene", SCENE, "--judge", "sim", "-q"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "goal: Make coffee" in out  # the task line of every form
    assert "#REMOVE" not in out  # the planner's walks are needed by the world: kept
    revised = [ln.split(". ", 1)[1] for ln in out.split("revised plan", 1)[1].splitlines()[1:] if ". " in ln]
    assert revised == _world_lines(res)
    assert "executes in thor: before yes, after yes; goals met 2/2 -> 2/2" in out
    assert "goals met (no edits): 2 of 2" in out and "after the edits" not in out  # nothing was edited


def test_detour_walk_is_removed_with_an_honest_reason_and_needed_walks_kept(tmp_path, capsys):
    f = tmp_path / "detour.txt"
    f.write_text("walk to sink\nwalk to mug\ngrab mug\nwalk to coffee machine\nput mug in coffee machine\n"
                 "switch on coffee machine\n", encoding="utf-8")
    code = main(["verify", str(f), "--env", "thor", "--scene", SCENE, "--goal", "Make coffee", "--judge", "sim"])
    out = capsys.readouterr().out
    assert code == 0
    removed = [ln for ln in out.splitlines() if "#REMOVE" in ln]
    assert len(removed) == 1 and "#REMOVE 1 [WALK] <sink>" in removed[0]
    assert "navigation is implicit in this world's verifier" in removed[0]
    assert "revised plan (5 steps, was 6" in out and "1. GotoLocation(Mug)" in out
    assert "3. GotoLocation(CoffeeMachine)" in out


def test_walk_needed_and_the_hybrid_confirmation_agree():
    from actionable.core.program import Program, Step
    from actionable.verify.base import VerifyTask
    from actionable.verify.worldsim import WorldJudge
    from actionable.worlds.thor.verify_adapter import ThorAdapter

    w, g = Step.of("walk", "mug"), Step.of("grab", "mug")
    put = Step.of("putin", "mug", "coffee_machine")
    assert ThorAdapter.walk_needed(w, g) and ThorAdapter.walk_needed(Step.of("walk", "coffee_machine"), put)
    assert not ThorAdapter.walk_needed(w, put) and not ThorAdapter.walk_needed(w, Step.of("walk", "sink"))
    assert not ThorAdapter.walk_needed(g, g)
    judge = WorldJudge(ThorAdapter(SCENE))
    plan = Program((Step.of("walk", "sink"), w, g))
    task = VerifyTask(goal="Pick up the mug")
    assert not judge.confirms_remove(plan, task, 1)  # an LLM's "remove the walk to the mug": refused
    assert judge.confirms_remove(plan, task, 0)


def test_script_lines_with_float_ids_and_bad_lines():
    from actionable.core.errors import ProgramParseError
    from actionable.worlds.thor.verify_adapter import ThorAdapter

    ad = ThorAdapter(SCENE)
    st = ad.parse_line("[PUTIN] <mug> (Mug|-01.64|+00.66|+00.12) <coffee_machine> (CoffeeMachine|+00.50|+00.90|-01.00)")
    assert st.action == "PUTIN" and st.args[0].id == "Mug|-01.64|+00.66|+00.12"
    assert ad.format_step(st) == "Place(CoffeeMachine)"
    assert ad.format_step(ad.parse_line("wash mug")) == "Clean(Mug)"  # the planner's WASH
    with pytest.raises(ProgramParseError, match="PUTIN"):
        ad.parse_line("[PUTIN] <mug> (Mug|alfred|2)")
    with pytest.raises(ProgramParseError):
        ad.parse_line("dance wildly")


@pytest.mark.parametrize("fmt", ["human", "json", "text"])
def test_kitchen_plan_without_env_says_add_env_thor(planned, fmt, capsys):
    _, files = planned
    assert main(["verify", str(files[fmt]), "--judge", "rule"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:")
    assert "this looks like a kitchen plan" in err and "add --env thor --scene" in err
    assert "in Python: world='thor'" in err and "reader said" not in err  # no parser internals
    if fmt != "text":
        assert "Mug|alfred|" in err and f"--scene {SCENE}" in err


@pytest.mark.parametrize("fmt", ["human", "json"])
def test_verify_env_thor_takes_the_scene_the_plan_names(planned, fmt, capsys):
    _, files = planned
    assert main(["verify", str(files[fmt]), "--env", "thor", "--judge", "sim", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"world thor, scene {SCENE}, goal: Make coffee" in out
    assert "executes in thor: before yes, after yes; goals met 2/2 -> 2/2" in out


def test_verify_env_thor_without_a_scene_anywhere_is_one_error(planned, capsys):
    _, files = planned  # --format text names no scene
    assert main(["verify", str(files["text"]), "--env", "thor", "--judge", "sim"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "world thor needs a scene (--scene" in err


def test_python_verify_judges_a_kitchen_plan_in_its_own_world(planned):
    import actionable
    from actionable.core.errors import InputError
    from actionable.verify.inworld import WorldVerification

    res, files = planned
    assert (res.world, res.scene) == ("thor", SCENE)  # the PlanResult says where it was made
    v = actionable.verify(res, judge="sim")  # no world=: the PlanResult's own world and scene
    assert isinstance(v, WorldVerification) and v.scene == SCENE and v.goal == "Make coffee"
    assert v.before.executable and v.after.executable and v.after.goals_met == v.after.goals_total == 2
    assert v.converged and [s.to_text() for s in v.final.steps] == [s.to_text() for s in v.initial.steps]
    d = v.to_dict()
    assert d["env"] == "thor" and d["goals_met_after"] == 2 and "rounds" in d
    for fmt in ("json", "human"):  # a file: scene from the file
        w = actionable.verify(files[fmt], judge="sim", world="thor")
        assert w.scene == SCENE and w.after.goals_met == 2
    lines = "\n".join(_world_lines(res))  # TEACh-style text, scene given
    w = actionable.verify(lines, "Make coffee", judge="sim", world="thor", scene=SCENE)
    assert w.before.executable and w.after.goals_met == 2
    w = actionable.verify(files["json"], judge="sim")  # no world=: the one the JSON records
    assert w.scene == SCENE and w.after.goals_met == 2
    with pytest.raises(InputError, match=r"in Python: world='thor', scene='FloorPlan1'"):
        actionable.verify(files["human"], judge="sim")  # human output records no world: VirtualHome
    from actionable.core.errors import ConfigError

    with pytest.raises(ConfigError, match="world thor needs a scene"):
        actionable.verify(lines, "Make coffee", judge="sim", world="thor")
    with pytest.raises(ConfigError, match="VirtualHome program"):
        actionable.verify(res, judge="sim", program="27_2")
    with pytest.raises(ConfigError, match=r"world='mars': unknown world 'mars'; choose one of"):
        actionable.verify(lines, "Make coffee", judge="sim", world="mars")
    with pytest.raises(ConfigError, match=r"world='driving': no plan-verification adapter; choose one of pddl, thor"):
        actionable.verify(lines, "Make coffee", judge="sim", world="driving")


def test_real_cli_plan_then_verify(tmp_path):
    """The real console entry point: `plan --env thor` (embedded LM) -> file -> `verify --env thor`."""
    env = {"ACTIONABLE_LM_THREADS": "1"}
    for fmt in ("human", "json"):
        code, out, err = run_cli("plan", "Make coffee", "--env", "thor", "--scene", SCENE, "-q", "--format", fmt,
                                 env=env)
        assert code == 0, err
        f = tmp_path / f"p.{fmt}"
        f.write_text(out, encoding="utf-8")
        code, vout, verr = run_cli("verify", str(f), "--env", "thor", "--scene", SCENE, "--judge", "sim", "--json",
                                   env=env)
        assert code == 0, verr
        d = json.loads(vout)
        assert d["goal"] == "Make coffee" and d["executable_before"] and d["executable_after"]
        assert d["goals_met_after"] == d["goals_total"] == 2


def _help(argv, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    assert main(argv + ["--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def test_help_texts(capsys, monkeypatch):
    for cmd in (["follow"], ["eval", "continual"]):
        assert 'pip install -e ".[dev,driving]" torch==2.13.0' in _help(cmd, capsys, monkeypatch)
    h = _help(["scenes"], capsys, monkeypatch)
    assert "driving" in h
    h = _help(["plan"], capsys, monkeypatch)
    assert "The default planner (--variant goal)" in h
    assert "A paper variant's first run embeds the scene's admissible actions" in h
    assert "0 Done, Nothing to do, or a question answered Yes; 1 Not done" in h
    h = _help(["verify"], capsys, monkeypatch)
    assert "--quiet" in h and "-q" in h and "the THOR kitchen with --env thor" in h and "FloorPlan<N>" in h


def test_scenes_driving_advises_follow_not_verify(capsys):
    pytest.importorskip("libsumo")
    assert main(["scenes", "--env", "driving"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert "actionable follow --env driving --scene NAME" in last and "verify" not in last


def test_scenes_advice_comes_from_the_verify_route():
    from actionable.cli.scenes import _use

    assert _use("thor", "FloorPlan1") == "`actionable verify PLAN --env thor --scene FloorPlan1`"
    assert _use("driving", "town") == "`actionable follow --env driving --scene town`"


def test_a_pickup_of_an_absent_object_does_not_rebind_the_next_place(tmp_path):
    """A working coffee plan plus one impossible PickUp: only that line goes, the mug steps stay."""
    from actionable.worlds.thor.verify_adapter import ThorAdapter
    from actionable.verify.worldsim import read_world_plan

    text = ("GotoLocation(Mug)\nPickUp(Mug)\nPickUp(Bicycle)\nGotoLocation(CoffeeMachine)\n"
            "Place(CoffeeMachine)\nToggleOn(CoffeeMachine)\n")
    prog, _ = read_world_plan(ThorAdapter("FloorPlan1"), text)
    place = [s for s in prog.steps if s.action != "GRAB" and len(s.args) == 2][0]
    assert place.args[0].name == "mug"          # not the bicycle that is not in the kitchen
    f = tmp_path / "k4.txt"
    f.write_text(text, encoding="utf-8")
    from actionable.cli import main

    assert main(["verify", str(f), "--env", "thor", "--scene", "FloorPlan1", "--goal", "Make coffee"]) == 0
