"""CLI: `actionable follow` and `actionable eval continual` (oracle: no model needed)."""

from __future__ import annotations

import json

from actionable.cli import main


def test_follow_oracle_trace_and_files(tmp_path, capsys):
    ins = tmp_path / "ins.json"
    trace = tmp_path / "trace.jsonl"
    rc = main(["follow", "--agent", "oracle", "--steps", "16", "--nonstationarity", "high", "--count", "3",
               "--save-instructions", str(ins), "--trace", str(trace)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "t=  0" in out and "why:" in out and "SR " in out
    assert len(json.loads(ins.read_text())) == 3
    lines = trace.read_text().splitlines()
    assert len(lines) == 17 and "summary" in json.loads(lines[-1])
    rc = main(["follow", "--agent", "oracle", "--steps", "5", "--instructions", str(ins), "-q"])
    assert rc == 0


def test_follow_bad_input_is_one_line_exit_2(tmp_path, capsys):
    assert main(["follow", "--agent", "gpt9"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    assert main(["follow", "--nonstationarity", "extreme", "--agent", "oracle"]) == 2
    assert "--nonstationarity" in capsys.readouterr().err  # the flag, not the config field (level)
    bad = tmp_path / "bad.txt"
    bad.write_text("If the spaceship is on, land it.\n")
    assert main(["follow", "--agent", "oracle", "--instructions", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and err.count("\n") == 1


def test_eval_continual_oracle_table_and_resume(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["eval", "continual", "--agents", "oracle", "--nonstationarity", "low,high", "--set-sizes", "3",
            "--seeds", "2", "--steps", "12", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "| oracle |" in text and "SR low (%)" in text and "SR high (%)" in text
    assert (out / "continual.png").stat().st_size > 1000
    assert len((out / "run.jsonl").read_text().splitlines()) == 4
    assert main(args) == 0  # resume: nothing new
    assert "0 new, 4 resumed" in capsys.readouterr().out
    (out / "summary.md").unlink()
    assert main(["eval", "report", str(out)]) == 0  # re-render a continual run, no model
    assert "| oracle |" in capsys.readouterr().out and (out / "summary.md").exists()
    assert main(["eval", "continual", "--agents", "oracle", "--relevance", "1.5", "--out", str(tmp_path / "y")]) == 2
    assert "--relevance must be in [0, 1]" in capsys.readouterr().err
    assert main(["eval", "continual", "--agents", "oracle,robot", "--out", str(tmp_path / "x")]) == 2


def test_follow_rejects_bad_values_before_the_episode(tmp_path, capsys):
    """Regressions from the new-user run: these were internal errors, or errors after the
    whole episode had run, or silently accepted (--w-t inf gave argmax = -inf every step)."""
    cases = [(["--seed", "-1"], "--seed must be >= 0"),
             (["--trace", str(tmp_path / "no" / "t.jsonl")], "does not exist"),
             (["--trace", str(tmp_path)], "is a directory"),
             (["--save-instructions", str(tmp_path / "no" / "i.json")], "does not exist"),
             (["--w-t", "inf"], "--w-t"),
             (["--interpreter", "foo"], "--interpreter")]
    for extra, msg in cases:
        assert main(["follow", "--agent", "oracle", "--steps", "3", *extra]) == 2, extra
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1, (extra, err)


def test_follow_reads_a_utf8_bom_file(tmp_path, capsys):
    f = tmp_path / "ins.txt"
    f.write_bytes("\ufeffIf the television in the dining room is on, switch it off.\n".encode("utf-8"))
    assert main(["follow", "--agent", "oracle", "--steps", "2", "-q", "--instructions", str(f)]) == 0
    assert "instruction 1: If the television" in capsys.readouterr().out


def test_eval_continual_checks_options_up_front_and_reports_episode_errors(tmp_path, capsys):
    base = ["eval", "continual", "--agents", "oracle", "--seeds", "1", "--steps", "3", "--set-sizes", "3",
            "--nonstationarity", "high", "--no-progress"]
    assert main(base + ["--scene", "nope", "--out", str(tmp_path / "a")]) == 2
    assert "nope" in capsys.readouterr().err
    assert main(base + ["--w-t", "-1", "--out", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert "--w-t" in err and "Traceback" not in err and not (tmp_path / "b").exists()
    # an episode-level failure (unreachable server) is named, not hidden behind "no finished episodes"
    args = ["eval", "continual", "--agents", "zsp", "--seeds", "1", "--steps", "2", "--set-sizes", "3",
            "--nonstationarity", "high", "--no-progress", "--model", "openai:x@http://127.0.0.1:9",
            "--out", str(tmp_path / "c")]
    assert main(args) == 1  # the job ran and failed (exit-code table)
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert "every episode failed" in err and ("127.0.0.1:9" in err or "connect" in err.lower()), err


def test_eval_report_recognises_a_continual_run_without_manifest(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["eval", "continual", "--agents", "oracle", "--seeds", "1", "--steps", "6", "--set-sizes", "3",
                 "--nonstationarity", "high", "--no-progress", "--out", str(out)]) == 0
    capsys.readouterr()
    (out / "manifest.json").unlink()
    assert main(["eval", "report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Continual instruction following" in text and "Plan evaluation" not in text
