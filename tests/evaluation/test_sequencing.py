"""The action-sequencing benchmark (EAI protocol): splits, a real run on packaged
scenes (no LM rows: retrieval and the grounded planner without LM), bad input."""

from __future__ import annotations

import json

import pytest

from actionable.cli import main
from actionable.evaluation.sequencing import (SequencingSettings, SequencingWorker, goal_program_ids,
                                              title_folds, tuning_program_ids)
from actionable.planning.examples import ExampleBank, normalize_task


def test_splits_are_disjoint_and_deterministic():
    goal, tune = goal_program_ids(), tuning_program_ids()
    assert len(goal) == 342 and len(tune) == 176 and not set(goal) & set(tune)
    titles = {e.task for e in ExampleBank.of_world().examples}
    folds = title_folds(titles)
    assert folds == title_folds(sorted(titles, reverse=True))
    assert sorted(set(folds.values())) == [0, 1, 2, 3, 4] and len(folds) == 26


def test_worker_excludes_own_program_and_held_out_titles(tmp_path):
    w = SequencingWorker(SequencingSettings(cache_dir=str(tmp_path)))
    pid = goal_program_ids()[0]
    r = w({"program_id": pid, "row": "retrieval", "split": "lopo"})
    assert r["extra"]["copied"]["source"] != pid
    r = w({"program_id": pid, "row": "retrieval", "split": "lto"})
    fold = w.folds[normalize_task(r["task"])]
    assert w.folds[normalize_task(r["extra"]["copied"]["task"])] != fold
    g = w({"program_id": pid, "row": "grounded-no-lm", "split": "lopo"})
    assert g["executable"] is True and 0.0 <= g["gc_all"] <= 1.0 and isinstance(g["task_success"], bool)
    assert g["task_success"] <= g["executable"]


def test_cli_run_writes_summary(tmp_path, capsys):
    out = tmp_path / "run"
    rc = main(["eval", "sequencing", "--out", str(out), "--rows", "retrieval,grounded-no-lm",
               "--splits", "lopo", "--limit", "2"])
    assert rc in (0, None)
    text = (out / "summary.md").read_text()
    assert "| retrieval | lopo | 2 |" in text and "| grounded-no-lm | lopo | 2 |" in text
    lines = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    assert len(lines) == 4 and all(x["status"] == "ok" for x in lines)
    rc = main(["eval", "sequencing", "--out", str(out), "--rows", "retrieval,grounded-no-lm",
               "--splits", "lopo", "--limit", "2"])  # resume: nothing new
    assert rc in (0, None) and "0 new, 4 already done" in capsys.readouterr().out


def test_ids_runs_only_those_programs(tmp_path):
    from actionable.evaluation.sequencing import goal_program_ids

    pid = goal_program_ids()[5]
    out = tmp_path / "ids"
    assert main(["eval", "sequencing", "--out", str(out), "--rows", "retrieval", "--splits", "lopo",
                 "--ids", pid]) in (0, None)
    lines = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    assert [x["payload"]["program_id"] for x in lines] == [pid]
    assert f"--ids {pid}" in (out / "summary.md").read_text()


@pytest.mark.parametrize("args, flag", [
    (["--rows", "nope"], "--rows"), (["--splits", "x"], "--splits"), (["--stride", "0"], "--stride"),
    (["--grounded", "{bad"], "--grounded"), (["--grounded", '{"w_lm": -1}'], "--grounded"),
    (["--model", "nope"], "--model"), (["--programs", "all"], "--programs"),
    (["--ids", "999_9"], "--ids"), (["--ids", " , "], "--ids"),
])
def test_bad_input_names_the_flag(tmp_path, capsys, args, flag):
    rc = main(["eval", "sequencing", "--out", str(tmp_path / "x"), *args])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("error:") == 1 and flag in err, err
