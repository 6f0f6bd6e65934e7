"""CLI conventions (issue 16): --version, -h everywhere, readable metavars, flags named in
errors, one exit-code table (also with --debug), the deprecated --instructions alias of
`eval continual`, progress lines when stderr is a pipe, and `actionable doctor`."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from actionable.cli import EXIT_CODES, _command, main

PROGRESS = re.compile(r"^\[\d\d:\d\d:\d\d\] ")
WALK_TV = 'scripted:["walk to television\\nswitch on television"]'   # executes
TV_ONLY = 'scripted:["switch on television"]'                      # not next to it: does not execute


def run_cli(*args, timeout=600):
    """The console entry point in a subprocess: stderr is a pipe, as in CI logs."""
    p = subprocess.run([sys.executable, "-c", "from actionable.cli import run; run()", *args],
                       capture_output=True, text=True, timeout=timeout, env=dict(os.environ, COLUMNS="200"))
    return p.returncode, p.stdout, p.stderr


def _commands(cmd, path=()):
    yield path, cmd
    for name, sub in (getattr(cmd, "commands", None) or {}).items():
        yield from _commands(sub, path + (name,))


ALL = [p for p, _ in _commands(_command())]


def test_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"actionable {version('actionable')}"


@pytest.mark.parametrize("path", ALL, ids=[" ".join(p) or "(root)" for p in ALL])
def test_every_command_takes_h_and_has_readable_help(path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    assert main([*path, "-h"]) == 0
    short = capsys.readouterr().out
    assert main([*path, "--help"]) == 0
    assert capsys.readouterr().out == short
    assert not re.search(r"\s<(bool|str|int|float|path|text)>\s", short), short  # typer's type column
    usage = next(ln for ln in short.splitlines() if "Usage:" in ln)
    assert "{" not in usage, usage
    assert "Exit codes: 0 ok; 1 the job ran and failed" in " ".join(short.split())


def test_exit_code_table_is_one_text():
    assert all(f"{c} " in EXIT_CODES for c in (0, 1, 2, 130)) and "--debug" in EXIT_CODES


def test_errors_name_the_flag_not_the_field(capsys):
    cases = [(["follow", "--agent", "oracle", "--nonstationarity", "extreme"], "--nonstationarity", "level"),
             (["follow", "--agent", "oracle", "--query-mode", "nope"], "--query-mode", "query_mode"),
             (["eval", "verify", "--out", "/nonexistent/x", "--n", "0"], "--n ", "n_programs"),
             (["plan", "Watch TV", "--variant", "full", "--top-p", "2"], "--top-p", "top_p"),
             (["verify", "/nonexistent/plan.txt", "--max-rounds", "0"], "--max-rounds", "max_rounds")]
    for args, flag, field in cases:
        assert main(args) == 2, args
        err = capsys.readouterr().err
        assert err.startswith("error: ") and flag in err and field not in err, (args, err)


def test_debug_keeps_the_exit_code_and_adds_the_traceback(capsys):
    assert main(["--debug", "follow", "--agent", "oracle", "--nonstationarity", "extreme"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and err.rstrip().splitlines()[-1].startswith("error: ")


def test_interrupt_is_130(capsys, monkeypatch):
    import actionable.cli.doctor as doctor

    def boom():
        raise KeyboardInterrupt

    monkeypatch.setattr(doctor, "diagnose", boom)
    assert main(["doctor"]) == 130
    assert main(["--debug", "doctor"]) == 130
    assert "interrupted" in capsys.readouterr().err


def test_plan_exit_codes_not_done_1_not_executable_1_bad_input_2():
    """A paper variant's plan is checked against the goal read from the task: executing is not done."""
    base = ["--variant", "vanilla", "--translation-model", "bow", "--no-cache"]
    code, out, err = run_cli("plan", "Turn on the TV", "--model", WALK_TV, *base)
    assert code == 1 and out.startswith("Not done: television 410") and "Executable" in out, (out, err)
    code, out, err = run_cli("plan", "Watch TV", "--model", TV_ONLY, *base)
    assert code == 1 and "Not executable" in out, (out, err)
    code, out, err = run_cli("plan", "Watch TV", "--model", TV_ONLY, "--debug", "--scene", "nope", *base)
    assert code == 2


def test_progress_lines_when_stderr_is_a_pipe_and_quiet_silences_them():
    args = ["plan", "Watch TV", "--model", WALK_TV, "--variant", "vanilla", "--translation-model", "bow"]
    code, out, err = run_cli(*args)
    lines = [ln for ln in err.splitlines() if PROGRESS.match(ln)]
    assert any("loading planning LM" in ln for ln in lines), err
    assert any("loading translation LM (bow)" in ln for ln in lines), err
    code, out, err = run_cli(*args, "--quiet")
    assert not any(PROGRESS.match(ln) for ln in err.splitlines()), err
    code, out, err = run_cli("--quiet", *args)
    assert not any(PROGRESS.match(ln) for ln in err.splitlines()), err


def test_episode_progress_lines_and_deprecated_set_size_alias(tmp_path):
    args = ["eval", "continual", "--agents", "oracle", "--nonstationarity", "low", "--seeds", "2", "--steps", "3"]
    code, out, err = run_cli(*args, "--set-sizes", "2", "--out", str(tmp_path / "a"))
    assert code == 0, err
    eps = [ln for ln in err.splitlines() if PROGRESS.match(ln) and "episode" in ln]
    assert eps and eps[-1].endswith("episode 2/2"), err
    assert "deprecated" not in err
    code, out, err = run_cli(*args, "--instructions", "2", "--out", str(tmp_path / "b"))
    assert code == 0 and "--instructions` is deprecated" in err and "--set-sizes" in err, err
    a = json.loads((tmp_path / "a" / "summary.json").read_text())
    b = json.loads((tmp_path / "b" / "summary.json").read_text())
    assert [(r["agent"], r["n"], r["sr"]) for r in a] == [(r["agent"], r["n"], r["sr"]) for r in b]


def test_line_progress_eta_and_throttle():
    import io

    from actionable.evaluation.runner import _LineProgress

    buf = io.StringIO()
    p = _LineProgress(5, every_s=3600, stream=buf)
    p.start()
    t = p.add_task("run", total=5, completed=1)
    for _ in range(4):
        p.advance(t)
    lines = buf.getvalue().splitlines()
    assert all(PROGRESS.match(ln) for ln in lines)
    assert "1/5 episodes already done" in lines[0]
    assert "episode 2/5, ETA" in lines[1] and lines[-1].endswith("episode 5/5") and len(lines) == 3


def test_plural():
    from actionable.cli.progress import plural

    assert plural(1, "step") == "1 step" and plural(0, "step") == "0 steps" and plural(2, "step") == "2 steps"


def test_doctor_reports_models_cache_extras_worlds(tmp_path, monkeypatch, capsys):
    import time

    monkeypatch.setenv("ACTIONABLE_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "x.bin").write_bytes(b"0" * 2000)
    t = time.perf_counter()
    rc = main(["doctor", "--json"])
    took = time.perf_counter() - t
    d = json.loads(capsys.readouterr().out)
    assert rc == (0 if d["ok"] else 1)
    assert took < 20, took  # no model is loaded
    assert {m["name"] for m in d["models"]} == {"planning LM", "translation LM"}
    assert all(m["bytes"] > 10_000_000 for m in d["models"] if m["ok"])
    assert d["cache"] == {**d["cache"], "path": str(tmp_path / "cache"), "bytes": 2000, "files": 1,
                          "set_by": "ACTIONABLE_CACHE_DIR"}
    assert {e["name"] for e in d["extras"]} == {"ray", "hf", "driving"}
    assert all(e["install"] is None if e["ok"] else e["install"].startswith("pip install") for e in d["extras"])
    from actionable.worlds import list_worlds

    assert [w["id"] for w in d["worlds"]] == list_worlds()
    assert main(["doctor"]) == rc
    out = capsys.readouterr().out
    assert "cache:" in out and "2.0 KB in 1 file" in out and "worlds" in out


def test_doctor_names_the_install_command_of_a_missing_extra(monkeypatch, capsys):
    import actionable.cli.doctor as doctor

    real = doctor._has
    monkeypatch.setattr(doctor, "_has", lambda m: False if m == "ray" else real(m))
    main(["doctor"])
    out = capsys.readouterr().out
    assert "-- ray:" in out and "pip install 'actionable[ray]'" in out
