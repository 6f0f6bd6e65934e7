"""Findings of a new-user check: one clear ``error:`` line naming the flag or file, exit codes
per the table (0 ok, 1 the job ran and failed, 2 bad input), a closed stdout exits 0 quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from actionable.cli import main


def _err(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    return lines[-1] if lines else ""


def test_check_spec_parses_without_loading(tmp_path):
    from actionable.core.errors import ModelNotFoundError
    from actionable.lm.registry import check_spec

    for ok in ("embedded", "embedded:chat", "openai:x@http://127.0.0.1:9", "hf:some/model?device=cpu",
               'scripted:["a"]'):
        assert check_spec(ok) == ok
    for bad in ("nope", "", "gguf:/nonexistent.gguf", "openai:x"):
        with pytest.raises(ModelNotFoundError) as ei:
            check_spec(bad)
        assert "scripted" not in str(ei.value)


def test_eval_verify_bad_model_named_up_front(tmp_path, capsys):
    assert main(["eval", "verify", "--judges", "llm", "--models", "nope", "--n", "2",
                 "--out", str(tmp_path / "r"), "--no-progress"]) == 2
    err = _err(capsys)
    assert err.startswith("error: --models:") and "'nope'" in err and not (tmp_path / "r").exists()


def test_eval_verify_exits_1_when_every_episode_failed(tmp_path, capsys):
    assert main(["eval", "verify", "--judges", "llm", "--models", "openai:x@http://127.0.0.1:9", "--n", "1",
                 "--out", str(tmp_path / "r"), "--no-progress"]) == 1
    assert _err(capsys).startswith("error: every episode failed")


def test_eval_continual_bad_model_before_the_run(tmp_path, capsys):
    assert main(["eval", "continual", "--model", "nope", "--agents", "exrap", "--seeds", "1", "--steps", "2",
                 "--set-sizes", "3", "-x", "low", "--out", str(tmp_path / "c")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --model:") and "ModelNotFoundError" not in err and "episode" not in err


def test_eval_verify_teach_file_checked_first(tmp_path, capsys):
    assert main(["eval", "verify", "--teach", str(tmp_path / "none.json"), "--out", str(tmp_path / "o")]) == 2
    assert _err(capsys).startswith("error: --teach: cannot read")


@pytest.mark.parametrize("cmd", [["follow"], ["eval", "continual", "--out", "unused"]])
def test_follow_env_without_continual_setting_names_the_flag(cmd, capsys, monkeypatch):
    from actionable.core import registry

    # every built-in world has a continual setting now (thor: the kitchen); a registered world
    # without one is named as such
    monkeypatch.setitem(registry.REGISTRY._specs, "toy", registry.WorldSpec("toy", lambda **kw: None))
    assert main([*cmd, "--env", "toy"]) == 2
    err = _err(capsys)
    assert err.startswith("error: --env:") and "world toy has no 'continual' capability" in err
    assert main([*cmd, "--env", "mars"]) == 2
    assert _err(capsys).startswith("error: --env: unknown world 'mars'")


@pytest.mark.parametrize("args,flag", [
    (["verify", "-", "--scene", "nope"], "--scene"),
    (["follow", "--agent", "oracle", "--steps", "2", "-s", "nope"], "--scene"),
    (["follow", "--agent", "nope"], "--agent"),
    (["follow", "--model", "nope"], "--model"),
    (["eval", "continual", "--agents", "exrap,nope", "--out", "unused"], "--agents"),
    (["eval", "plan", "--variants", "nope", "--out", "unused"], "--variants"),
    (["verify", "-", "--judge", "nope"], "--judge"),
])
def test_unknown_values_name_the_flag_in_plain_text(args, flag, capsys, monkeypatch):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("walk to sink\n"))
    assert main([*args, "--goal", "x"] if args[0] == "verify" else args) == 2
    err = _err(capsys)
    assert err.startswith(f"error: {flag}:"), err
    assert "[" not in err.split(";")[0], err  # no Python list notation
    assert "'nope'" in err


@pytest.mark.parametrize("args", [["-h"], ["scenes", "--env", "thor"], ["scenes"]])
def test_closed_stdout_exits_0_quietly(args):
    code = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
            "'from actionable.cli import run; run()', *sys.argv[1:]], stdout=subprocess.PIPE, "
            "stderr=subprocess.PIPE); p.stdout.readline(); p.stdout.close(); "
            "err = p.stderr.read(); rc = p.wait(); print(rc); print(err.decode())")
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, COLUMNS="80"))
    rc, _, err = p.stdout.partition("\n")
    assert rc.strip() == "0" and not err.strip(), p.stdout + p.stderr


def test_closed_stdout_keeps_the_verdicts_exit_code():
    """`plan ... | head -1` on a plan that stops at --max-steps: "Not done" stays exit 1."""
    code = ("import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
            "'from actionable.cli import run; run()', *sys.argv[1:]], stdout=subprocess.PIPE, "
            "stderr=subprocess.PIPE); p.stdout.readline(); p.stdout.close(); "
            "err = p.stderr.read(); rc = p.wait(); print(rc); print(err.decode())")
    args = ["plan", "Put all the plates in the dishwasher", "--max-steps", "3", "-q"]
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, COLUMNS="80"))
    rc, _, err = p.stdout.partition("\n")
    assert rc.strip() == "1", p.stdout + p.stderr
    assert "Traceback" not in err


def test_verify_checks_the_goal_of_a_class_level_plan(tmp_path, capsys):
    """The README's verify example: plan lines without node ids are bound as `plan` binds them, so
    the last line says met / NOT met, never "not checked" for want of ids."""
    f = tmp_path / "plan.txt"
    f.write_text("walk to television\nswitch on television\nswitch off television\nswitch on television\n")
    assert main(["verify", str(f), "--goal", "Turn on the TV", "--judge", "sim"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith("goal after revision: met"), out
    f.write_text("walk to clothes shirt\ngrab clothes shirt\nput on clothes shirt\n")
    assert main(["verify", str(f), "--goal", "Put on the shirt", "--judge", "sim"]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1].startswith("goal after revision: met")


def test_scenes_thor_unknown_scene_and_details(capsys):
    assert main(["scenes", "--env", "thor", "FloorPlan999"]) == 2
    assert _err(capsys).lower().startswith("error: scene: unknown thor scene 'floorplan999'")
    assert main(["scenes", "nope"]) == 2
    assert _err(capsys).startswith("error: SCENE: ")
    assert main(["scenes", "--env", "thor", "FloorPlan1", "--classes"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("scene FloorPlan1 (world thor)") and "classes: " in out and "Mug x" in out


def test_verify_errors_name_the_file(tmp_path, capsys, monkeypatch):
    import io

    j = tmp_path / "j.json"
    j.write_text('{"a": 1}')
    assert main(["verify", str(j), "--judge", "rule"]) == 2
    assert _err(capsys).startswith(f"error: plan file '{j}':")
    k = tmp_path / "k.json"
    k.write_text("nope{")
    assert main(["verify", str(k), "--judge", "rule"]) == 2
    assert _err(capsys).startswith(f"error: plan file '{k}': not JSON or JSONL")
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n"))
    assert main(["verify", "-", "--judge", "rule"]) == 2
    assert _err(capsys).startswith("error: standard input holds no action")


def test_verify_thor_reads_plan_output_and_names_the_file(tmp_path, capsys):
    t = tmp_path / "t.txt"
    t.write_text("Task: Make coffee\n  1. PickUp(Mug)  (score 0.40)\n  2. Fly(Moon)\nexecutable: yes\n")
    assert main(["verify", str(t), "--env", "thor", "--scene", "FloorPlan1", "--judge", "rule"]) == 2
    assert _err(capsys).startswith(f"error: plan file '{t}': line 3: cannot read 'Fly(Moon)'")
    t.write_text("Task: Make coffee\n  1. PickUp(Mug)  (score 0.40)\n  2. Place(CounterTop)\nexecutable: yes\n")
    # read and judged; the plan makes no coffee, so the checked goal does not hold: exit 1
    assert main(["verify", str(t), "--env", "thor", "--scene", "FloorPlan1", "--judge", "rule"]) == 1
    out = capsys.readouterr().out
    assert "goal: Make coffee" in out and "was 2" in out and "-> 0/" in out


def test_name_the_flag_helper():
    from actionable.cli import _name_the_flag

    typed = [("--translation-model", "st:/nonexistent"), ("--model", "embedded")]
    assert _name_the_flag("no sentence-transformers model at '/nonexistent'", typed).startswith(
        "--translation-model: ")
    assert _name_the_flag("--scene: unknown 'x'", [("--scene", "x")]) == "--scene: unknown 'x'"
    assert _name_the_flag("unknown 'x'", [("--a", "x"), ("--b", "x")]) == "unknown 'x'"  # ambiguous


def test_plan_names_an_unknown_world_before_a_bad_task(capsys):
    """`plan x --env mars` reported the task ("too few letters") and never named the world; both
    are bad, and the world is checked first, as with a good task (issue 24, a new user's check)."""
    assert main(["plan", "x", "--env", "mars"]) == 2
    assert _err(capsys).startswith("error: --env: unknown world 'mars'")
    assert main(["plan", "x"]) == 2
    assert "too few letters" in _err(capsys)


def test_empty_names_and_a_batch_scene_error_name_what_was_wrong(tmp_path, capsys):
    """The third new-user check: `plan --scene ""` silently used the default house; `verify ""` said
    "plan file '.' is a directory"; one bad scene in a batch stopped it without naming the task; a
    refused batch task's progress line named the error class, not why."""
    assert main(["plan", "Turn off the TV", "--scene", ""]) == 2
    assert "scene name is empty" in _err(capsys)
    assert main(["verify", ""]) == 2
    assert "plan file name is empty" in _err(capsys)
    f = tmp_path / "t.jsonl"
    f.write_text('{"id": "ok", "task": "Turn on the TV"}\n{"id": "bad", "task": "Turn on the TV", "scene": "nope"}\n')
    # a bad scene is a bad line (7 Dec, ninth session): its own error record, the rest planned, exit 1
    assert main(["plan", "--tasks", str(f), "--out", str(tmp_path / "o.jsonl")]) == 1
    err = capsys.readouterr().err
    assert "task 'bad'" in err and "nope" in err, err
    recs = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text().splitlines()]
    assert [r["ok"] for r in recs] == [True, False] and recs[1]["error"]["type"] == "UnknownScene"
    assert "line 2 (task 'bad')" in recs[1]["error"]["message"] and "nope" in recs[1]["error"]["message"]
    f.write_text('{"id": "x", "task": "Fly the helicopter"}\n')
    # a refusal is an answer (7 Dec): the batch exits 0, the line says exit 2, the count says refused
    assert main(["plan", "--tasks", str(f), "--out", str(tmp_path / "o2.jsonl")]) == 0
    out = capsys.readouterr()
    assert "GoalReadingError" not in out.err + out.out and "helicopter" in out.err + out.out
    assert "1 refused" in out.err and json.loads((tmp_path / "o2.jsonl").read_text())["exit"] == 2


def test_a_batch_output_in_a_missing_directory_is_bad_input(tmp_path, capsys):
    """`plan --tasks t.txt --out /nonexistent/dir/x.jsonl` was "internal error: FileNotFoundError"."""
    f = tmp_path / "t.txt"
    f.write_text("Turn off the TV\n")
    assert main(["plan", "--tasks", str(f), "--out", str(tmp_path / "no" / "such" / "x.jsonl")]) == 2
    assert "does not exist; create it first" in _err(capsys)
