"""``--env thor`` end to end: ``actionable follow`` with the real embedded model (short), and
``actionable eval continual`` locally and on a real local Ray cluster (oracle: no model)."""

from __future__ import annotations

import json

import pytest

from actionable.cli import main


@pytest.mark.slow
def test_follow_env_thor_real_embedded_model_live_trace(tmp_path, capsys):
    ins, trace = tmp_path / "ins.json", tmp_path / "trace.jsonl"
    rc = main(["follow", "--env", "thor", "--agent", "exrap", "--steps", "3", "--count", "2", "--seed", "1",
               "--nonstationarity", "high", "--save-instructions", str(ins), "--trace", str(trace)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "exrap in scene FloorPlan1, non-stationarity high (changes every 4 steps)" in out
    assert "read by rule" in out and "t=  0" in out and "t=  2" in out and "memory:" in out and "SR " in out
    recs = [json.loads(x) for x in trace.read_text().splitlines()]
    steps, summary = recs[:-1], recs[-1]["summary"]
    assert len(steps) == 3 and all(r["room"] in {"counter", "sink", "stove", "fridge", "coffee_machine",
                                                  "microwave"} for r in steps)
    beliefs = [v for r in steps for v in r["beliefs"].values()]
    assert len(beliefs) == 6 and all(0.0 <= v <= 1.0 for v in beliefs)
    assert summary["stats"]["lm_calls"] >= 1  # the model really answered queries
    assert [r["source"] for r in summary["interpretation"]] == ["rule", "rule"]
    saved = json.loads(ins.read_text())
    assert len(saved) == 2 and all(d["text"].startswith("If ") for d in saved)


def test_follow_env_thor_bad_input_one_error_line(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("If the television in the dining room is on, switch it off.\n")
    cases = [(["--instructions", str(bad)], "line 1"), (["--scene", "FloorPlan99"], "FloorPlan99"),
             (["--scene", "FloorPlan301"], "not an ALFRED kitchen"), (["--nonstationarity", "extreme"], "extreme"),
             (["--count", "9"], "1..8")]
    for extra, msg in cases:
        assert main(["follow", "--env", "thor", "--agent", "oracle", "--steps", "2", *extra]) == 2, extra
        err = capsys.readouterr().err
        assert err.startswith("error:") and msg in err and err.count("\n") == 1, (extra, err)


def test_eval_continual_env_thor_local(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["eval", "continual", "--env", "thor", "--agents", "oracle", "--nonstationarity", "low,high",
            "--set-sizes", "3", "--seeds", "2", "--steps", "12", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    assert "| oracle |" in capsys.readouterr().out
    recs = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    assert len(recs) == 4 and all(r["status"] == "ok" and r["payload"]["env"] == "thor" for r in recs)
    assert sum(r["result"]["metrics"]["n_success"] for r in recs) >= 1
    assert json.loads((out / "manifest.json").read_text())["config"]["env"] == "thor"
    assert main(["eval", "continual", "--env", "thor", "--agents", "oracle", "--set-sizes", "9", "--out",
                 str(tmp_path / "x")]) == 2
    assert "at most 8" in capsys.readouterr().err


@pytest.mark.slow
def test_eval_continual_env_thor_on_ray_equals_local(tmp_path, capsys):
    pytest.importorskip("ray")
    common = ["eval", "continual", "--env", "thor", "--agents", "oracle", "--nonstationarity", "high",
              "--set-sizes", "3", "--seeds", "2", "--steps", "10", "--no-progress"]
    assert main([*common, "--out", str(tmp_path / "local")]) == 0
    assert main([*common, "--executor", "ray", "--workers", "2", "--out", str(tmp_path / "ray")]) == 0
    capsys.readouterr()

    def results(d):
        recs = [json.loads(x) for x in (d / "run.jsonl").read_text().splitlines()]
        return {r["key"]: r["result"]["activations"] for r in recs}

    assert results(tmp_path / "ray") == results(tmp_path / "local") and len(results(tmp_path / "ray")) == 2
