"""`actionable plan`: help, bad input, and an end-to-end run with the real
embedded planning LM, the real MiniLM translation LM and the real default scene."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from actionable.cli import main

FLAGS = ["--variant", "--scene", "--model", "--translation-model", "--samples", "--beta", "--cutoff",
         "--max-steps", "--temperature", "--top-p", "--seed", "--bank", "--no-cache", "--json"]


_PROGRESS = re.compile(r"^\[\d\d:\d\d:\d\d\] ")


def run_cli(*args, env=None, timeout=600, progress=False):
    """Run the real console entry point in a subprocess (as a user would). stderr is a pipe, so
    the CLI prints timestamped progress lines there; they are dropped unless ``progress``."""
    e = dict(os.environ, **(env or {}))
    p = subprocess.run([sys.executable, "-c", "from actionable.cli import run; run()", *args],
                       capture_output=True, text=True, timeout=timeout, env=e)
    err = p.stderr if progress else "".join(ln for ln in p.stderr.splitlines(True) if not _PROGRESS.match(ln))
    return p.returncode, p.stdout, err


def test_help_explains_every_flag(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    assert main(["plan", "--help"]) == 0
    out = capsys.readouterr().out
    for flag in FLAGS:
        assert flag in out, flag
    assert "vanilla" in out and "trajectory" in out and "dynamic example" in out


@pytest.mark.parametrize("args, msg", [
    (["plan", ""], "task is empty"),
    (["plan", "   \t "], "task is empty"),
    (["plan", "x" * 10_240], "characters long"),
    (["plan", "Make coffee", "--variant", "best"], "unknown variant"),
    (["plan", "Make coffee", "--samples", "-1"], "--samples"),  # 0 is valid for the grounded planner
    (["plan", "Make coffee", "--variant", "full", "--beta", "-1"], "--beta"),
    (["plan", "Make coffee", "--bank", "/nonexistent/bank.jsonl"], "not a file"),
])
def test_bad_input_is_one_clear_line(args, msg, capsys):
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and msg in err and "Traceback" not in err
    assert len(err.splitlines()) == 1


def test_noise_task_is_rejected_without_traceback():
    noise = "".join(chr(33 + (i * 7919) % 90) for i in range(10_240))
    code, out, err = run_cli("plan", noise)
    assert code == 2 and "Traceback" not in err and err.startswith("error: ")
    code, out, err = run_cli("plan", "#$%^&*()!@ 1234 ~~~")
    assert code == 2 and "does not look like text" in err


def test_unknown_scene_and_model_are_clear_errors():
    code, _, err = run_cli("plan", "Make coffee", "--scene", "no_such_scene")
    assert code == 2 and err.startswith("error: ") and "Traceback" not in err and "scene" in err.lower()
    code, _, err = run_cli("plan", "Make coffee", "--model", "nonsense-model")
    assert code == 2 and err.startswith("error: ") and "model" in err.lower() and "Traceback" not in err
    code, _, err = run_cli("plan", "Make coffee", "--translation-model", "glove")
    assert code == 2 and "unknown translation model" in err and "Traceback" not in err


@pytest.mark.slow
def test_plan_end_to_end_real_models_real_scene():
    """The README's main command with the real models; the printed verdict must
    match re-running the simulator on the printed program."""
    from actionable.core.program import Program
    from actionable.worlds.virtualhome.resolver import resolve_and_execute
    from actionable.worlds.virtualhome.scene import load_scene

    args = ("plan", "Watch TV", "--variant", "full", "--max-steps", "6", "--samples", "4", "--cutoff", "-10")
    code, out, err = run_cli(*args, "--json", timeout=900)
    d = json.loads(out)
    assert code == (0 if d["executability"]["executable"] else 1), err  # exit 1: the plan does not execute
    assert d["models"]["planning"].startswith("embedded") or "SmolLM2" in d["models"]["planning"]
    assert d["models"]["translation"] == "st:all-MiniLM-L6-v2"
    prog = Program.from_dict(d["program"])
    assert [s.to_text() for s in prog.steps] == d["program_text"]
    assert Program.parse(d["program_script"]).steps == prog.steps  # parseable script form
    assert 0 < len(prog) <= 6, d["stop_reason"]
    assert d["lm_calls"] >= 1 and d["timings"]["lm_s"] > 0
    ex = d["executability"]
    rerun = resolve_and_execute(prog, load_scene("default"))
    assert bool(rerun.executable) == ex["executable"]
    assert rerun.failed_index == ex["failed_index"]
    for s in d["steps"]:
        assert -1.0001 <= s["cosine"] <= 1.0001 and s["total"] >= d["config"]["cutoff"]
    # the human-readable form of the same (seeded, cached) plan
    code, out, err = run_cli(*args, timeout=900)
    assert code == (0 if ex["executable"] else 1), err
    lines = [ln for ln in out.splitlines() if ln.strip()[:3].strip().rstrip(".").isdigit()]
    assert len(lines) == len(prog)
    assert ("Executable" in out) == ex["executable"] and ("Not executable" in out) == (not ex["executable"])
