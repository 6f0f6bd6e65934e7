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
    assert "level" in capsys.readouterr().err
    bad = tmp_path / "bad.txt"
    bad.write_text("If the spaceship is on, land it.\n")
    assert main(["follow", "--agent", "oracle", "--instructions", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and err.count("\n") == 1


def test_eval_continual_oracle_table_and_resume(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["eval", "continual", "--agents", "oracle", "--nonstationarity", "low,high", "--instructions", "3",
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
