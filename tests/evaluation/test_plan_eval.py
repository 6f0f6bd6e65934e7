"""Plan evaluation episodes: real planner, resolver, simulator and goal checker.

The fast tests script the planning LM (the same queued outputs for every episode);
the slow test runs the embedded SmolLM2 model end to end through the CLI.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actionable.cli import main
from actionable.core.errors import ConfigError
from actionable.evaluation.plan_eval import parse_variants, prepare_plan_run
from actionable.evaluation.runner import run_episodes

REPO = Path(__file__).resolve().parents[2]
PLAN = " walk to home office\nStep 2: walk to computer\nStep 3: switch on computer"
SCRIPTED = "scripted:" + json.dumps([PLAN])


def _tasks(tmp_path: Path) -> Path:
    p = tmp_path / "tasks.jsonl"
    p.write_text(json.dumps({"task": "Work", "goal_program_ids": ["101_2"], "gold_program_ids": ["101_2"]})
                 + "\n" + json.dumps({"task": "Watch TV", "goal_program_ids": ["98_1"],
                                      "gold_program_ids": ["98_1"]}) + "\n")
    return p


def test_scripted_vanilla_metrics_hand_checked(tmp_path):
    eps, factory, manifest = prepare_plan_run(variants=["vanilla"], model=SCRIPTED,
                                              tasks_file=str(_tasks(tmp_path)), lm_cache=False)
    assert [e.key.split("|")[0] for e in eps] == ["vanilla", "vanilla"]
    res = run_episodes(eps, factory, tmp_path / "run", manifest=manifest, progress=False)
    assert res.errors == 0, [r["error"] for r in res.records.values()]
    by_task = {r["result"]["query"]["task"]: r["result"] for r in res.records.values()}
    work, tv = by_task["Work"]["metrics"], by_task["Watch TV"]["metrics"]
    assert by_task["Work"]["plan"]["program_text"] == ["walk to home office", "walk to computer",
                                                       "switch on computer"]
    # Work (101_2): executes; its only goal ON(computer) holds; LCS 3 common / 10 gold steps
    assert work["executable"] is True and work["executability"] == 1.0 and work["failure"] is None
    assert work["goal_condition_success"] == 1.0 and work["task_success"] == 1.0
    assert work["lcs"] == pytest.approx(3 / 10) and work["lcs_gold"] == "101_2"
    assert work["plan_length"] == 3 and work["seconds_per_plan"] > 0
    # Watch TV (98_1): same plan never touches the TV: not a success; LCS 1 / 11
    assert tv["task_success"] == 0.0 and tv["goal_condition_success"] < 1.0
    assert tv["lcs"] == pytest.approx(1 / 11)
    unmet = tv["per_scene"][0]["goals_class"]["unmet"]
    assert "did(LOOKAT|WATCH)" in unmet and "ON(television.410)" in unmet


def test_bad_variant_and_limit_are_config_errors():
    with pytest.raises(ConfigError, match="unknown variant"):
        parse_variants("vanilla,best")
    with pytest.raises(ConfigError, match="twice"):
        parse_variants("full,full")
    with pytest.raises(ConfigError, match="--limit"):
        prepare_plan_run(variants=["vanilla"], limit=0)


def test_cli_rejects_bad_flags_with_one_line(capsys, tmp_path):
    assert main(["eval", "plan", "--out", str(tmp_path / "x"), "--variants", "nope"]) == 2
    assert "unknown variant" in capsys.readouterr().err
    assert main(["eval", "plan", "--out", str(tmp_path / "x"), "--executor", "dask",
                 "--model", SCRIPTED, "--variants", "vanilla", "--limit", "1"]) == 2
    assert main(["eval", "report", str(tmp_path / "missing")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and "Traceback" not in err


def _cli(out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from actionable.cli import main; sys.exit(main(sys.argv[1:]))",
            "eval", "plan", "--out", str(out), "--model", SCRIPTED, "--variants", "vanilla",
            "--query", "name,name+description", "--limit", "3", "--no-progress", *extra]


def _rows(out: Path) -> list[dict]:
    rows = json.loads((out / "summary.json").read_text())
    for r in rows:
        r.pop("seconds_per_plan")
    return rows


@pytest.mark.slow
def test_cli_kill_9_then_resume_equals_uninterrupted_run(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    out = tmp_path / "killed"
    proc = subprocess.Popen(_cli(out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = out / "run.jsonl"
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None:
        if path.exists() and path.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert 2 <= path.read_text().count("\n") < 6, "the kill must land mid-run"
    subprocess.run(_cli(out), env=env, check=True, timeout=600, capture_output=True)
    keys = [json.loads(x)["key"] for x in path.read_text().splitlines()]
    assert len(keys) == 6 and len(set(keys)) == 6
    ref = tmp_path / "ref"
    subprocess.run(_cli(ref), env=env, check=True, timeout=600, capture_output=True)
    assert _rows(out) == _rows(ref)


@pytest.mark.slow
def test_embedded_model_two_tasks_two_variants_end_to_end(tmp_path, capsys):
    """Real SmolLM2 planning LM + real MiniLM translation LM on real scenes."""
    out = tmp_path / "run"
    rc = main(["eval", "plan", "--out", str(out), "--variants", "vanilla,full", "--limit", "2",
               "--samples", "3", "--max-steps", "6", "--no-cache", "--no-progress"])
    assert rc == 0, capsys.readouterr().err
    lines = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    assert len(lines) == 4 and all(r["status"] == "ok" for r in lines), [r["error"] for r in lines]
    for r in lines:
        m, plan = r["result"]["metrics"], r["result"]["plan"]
        assert plan["models"]["planning"].startswith("embedded")
        assert 0.0 <= m["executability"] <= 1.0 and 0.0 <= m["lcs"] <= 1.0
        assert 0.0 <= m["goal_condition_success"] <= 1.0 and m["plan_length"] <= 6
        assert m["per_scene"] and r["result"]["query"]["goal_program_ids"]
    full = [r for r in lines if r["result"]["variant"] == "full"]
    assert all(r["result"]["plan"]["models"]["translation"] for r in full)
    # every translated step of the full variant is an admissible action phrase of the scene
    assert all(s["step"] is not None for r in full for s in r["result"]["plan"]["steps"])
    summary = (out / "summary.md").read_text()
    assert "| vanilla |" in summary and "| full |" in summary
    assert (out / "scatter.png").stat().st_size > 1000
    capsys.readouterr()
    assert main(["eval", "report", str(out)]) == 0  # re-render without models
    assert "| full |" in capsys.readouterr().out
