"""Runner: append/resume/dedupe, corrupt lines, kill -9 of the local runner, locking."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from actionable.core.errors import ConfigError, RunFileError
from actionable.evaluation.runner import Episode, RunStore, run_episodes

from ._workers import EchoFactory

HERE = Path(__file__).resolve().parent


def _eps(n):
    return [Episode(f"ep-{i:03d}", {"name": f"ep-{i:03d}", "seed": i}) for i in range(n)]


def _lines(run_dir):
    return [json.loads(x) for x in (Path(run_dir) / "run.jsonl").read_text().splitlines() if x.strip()]


def _scores(records):
    return {k: r["result"]["score"] for k, r in sorted(records.items())}


def test_run_then_resume_adds_nothing(tmp_path):
    r1 = run_episodes(_eps(6), EchoFactory(), tmp_path, progress=False)
    assert (r1.new, r1.skipped, r1.errors) == (6, 0, 0)
    r2 = run_episodes(_eps(8), EchoFactory(), tmp_path, progress=False)
    assert (r2.new, r2.skipped) == (2, 6)
    keys = [rec["key"] for rec in _lines(tmp_path)]
    assert sorted(keys) == [e.key for e in _eps(8)]  # each exactly once
    assert _scores(r2.records) == _scores(run_episodes(_eps(8), EchoFactory(), tmp_path / "b",
                                                       progress=False).records)
    # all built once: one worker for the whole local run
    assert len({rec["result"]["built_pid"] for rec in _lines(tmp_path)}) == 1


def test_errors_recorded_and_retried_on_request(tmp_path):
    r = run_episodes(_eps(3), EchoFactory(fail_key="ep-001"), tmp_path, progress=False)
    assert r.errors == 1 and r.records["ep-001"]["status"] == "error"
    assert "scripted failure" in r.records["ep-001"]["error"]
    assert run_episodes(_eps(3), EchoFactory(), tmp_path, progress=False).new == 0
    r3 = run_episodes(_eps(3), EchoFactory(), tmp_path, progress=False, retry_errors=True)
    assert r3.new == 1 and r3.errors == 0 and r3.records["ep-001"]["status"] == "ok"


def test_corrupt_trailing_and_middle_lines_are_skipped_with_warning(tmp_path, caplog):
    run_episodes(_eps(4), EchoFactory(), tmp_path, progress=False)
    path = tmp_path / "run.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    # a garbled middle line (episode 1) and a cut-off trailing write
    path.write_text(lines[0] + "{garbage\n" + "".join(lines[2:]) + lines[1][: len(lines[1]) // 2])
    with caplog.at_level("WARNING"):
        recs = RunStore(tmp_path).read()
    assert sorted(recs) == ["ep-000", "ep-002", "ep-003"]
    assert "corrupt line" in caplog.text and "partial trailing line" in caplog.text
    r = run_episodes(_eps(4), EchoFactory(), tmp_path, progress=False)
    assert r.new == 1 and sorted(r.records) == [e.key for e in _eps(4)]
    assert path.read_text().endswith("\n")
    raw = path.read_text().splitlines()
    assert raw[1] == "{garbage" and len(raw) == 5  # middle line kept (skipped), tail repaired
    assert sorted(json.loads(x)["key"] for x in raw if x != "{garbage") == [e.key for e in _eps(4)]


def test_bad_arguments_and_changed_config(tmp_path):
    with pytest.raises(ConfigError, match="executor"):
        run_episodes(_eps(1), EchoFactory(), tmp_path, executor="dask", progress=False)
    with pytest.raises(ConfigError, match="workers"):
        run_episodes(_eps(1), EchoFactory(), tmp_path, workers=0, progress=False)
    with pytest.raises(ConfigError, match="unique"):
        run_episodes(_eps(2) + _eps(1), EchoFactory(), tmp_path, progress=False)
    run_episodes(_eps(1), EchoFactory(), tmp_path, manifest={"fingerprint": "a"}, progress=False)
    with pytest.raises(RunFileError, match="different configuration"):
        run_episodes(_eps(1), EchoFactory(), tmp_path, manifest={"fingerprint": "b"}, progress=False)
    with pytest.raises(RunFileError, match="does not exist"):
        RunStore(tmp_path / "nope").read()


def test_extending_a_run_keeps_every_command_in_the_manifest(tmp_path):
    """Same configuration, more episodes (e.g. --seeds 3 then --seeds 5): both commands are kept."""
    run_episodes(_eps(1), EchoFactory(), tmp_path, manifest={"fingerprint": "a", "command": "x --seeds 1"},
                 progress=False)
    assert "commands" not in RunStore(tmp_path).read_manifest()
    res = run_episodes(_eps(2), EchoFactory(), tmp_path, manifest={"fingerprint": "a", "command": "x --seeds 2"},
                       progress=False)
    assert res.new == 1 and res.skipped == 1
    assert RunStore(tmp_path).read_manifest()["commands"] == ["x --seeds 1", "x --seeds 2"]
    run_episodes(_eps(2), EchoFactory(), tmp_path, manifest={"fingerprint": "a", "command": "x --seeds 2"},
                 progress=False)  # a plain resume adds nothing
    assert RunStore(tmp_path).read_manifest()["commands"] == ["x --seeds 1", "x --seeds 2"]


def test_resume_with_other_episode_settings_is_refused_even_without_manifest(tmp_path):
    """The records are the ground truth: a deleted manifest cannot hide changed settings."""
    from actionable.evaluation.runner import Episode
    run_episodes([Episode("a", {"x": 1, "steps": 6})], EchoFactory(), tmp_path, progress=False,
                 manifest={"fingerprint": "f1", "config": {"steps": 6}})
    with pytest.raises(RunFileError, match="steps: 6 then, 7 now"):
        run_episodes([Episode("a", {"x": 1, "steps": 7})], EchoFactory(), tmp_path, progress=False,
                     manifest={"fingerprint": "f2", "config": {"steps": 7}})
    (tmp_path / "manifest.json").unlink()
    with pytest.raises(RunFileError, match="episode 'a' run with other settings .steps: 6 stored, 7 now"):
        run_episodes([Episode("a", {"x": 1, "steps": 7})], EchoFactory(), tmp_path, progress=False)
    res = run_episodes([Episode("a", {"x": 1, "steps": 6})], EchoFactory(), tmp_path, progress=False)
    assert res.skipped == 1 and res.new == 0  # the same settings still resume


def test_second_runner_on_same_dir_is_refused(tmp_path):
    store = RunStore(tmp_path)
    store.open()
    try:
        with pytest.raises(RunFileError, match="in use"):
            run_episodes(_eps(1), EchoFactory(), tmp_path, progress=False)
    finally:
        store.close()


_CHILD = """
import sys
sys.path.insert(0, {tests!r})
from actionable.evaluation.runner import Episode, run_episodes
from evaluation._workers import EchoFactory
eps = [Episode(f"ep-{{i:03d}}", {{"name": f"ep-{{i:03d}}", "seed": i}}) for i in range(40)]
run_episodes(eps, EchoFactory(sleep=0.05), {out!r}, progress=False)
"""


def test_kill_9_mid_run_then_resume_no_loss_no_duplicates(tmp_path):
    out = tmp_path / "run"
    code = _CHILD.format(tests=str(HERE.parent), out=str(out))
    env = dict(os.environ, PYTHONPATH=str(HERE.parents[1]))
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    deadline = time.time() + 60
    path = out / "run.jsonl"
    while time.time() < deadline:
        if path.exists() and path.read_text().count("\n") >= 10:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    n_before = path.read_text().count("\n")
    assert 10 <= n_before < 40, "kill landed mid-run"
    subprocess.run([sys.executable, "-c", code], env=env, check=True, timeout=120)
    keys = [rec["key"] for rec in _lines(out)]
    assert len(keys) == 40 and len(set(keys)) == 40
    reference = run_episodes(_eps(40), EchoFactory(), tmp_path / "ref", progress=False)
    assert _scores(RunStore(out).read()) == _scores(reference.records)


def test_progress_bar_goes_to_stderr(tmp_path, capsys):
    run_episodes(_eps(3), EchoFactory(), tmp_path, progress=True)
    out, err = capsys.readouterr()
    assert "episode" in err and "3/3" in err and out == ""


def test_worker_that_cannot_be_built_fails_the_run_clearly(tmp_path):
    from actionable.core.errors import ModelNotFoundError

    from ._workers import BrokenFactory

    with pytest.raises(ModelNotFoundError, match="no model"):
        run_episodes(_eps(2), BrokenFactory(), tmp_path, progress=False)
    assert RunStore(tmp_path).read() == {}
