"""Crash safety end to end (issue 8, item 3), through the real CLI.

tests/evaluation/test_runner.py already kills the runner with SIGKILL on a toy
worker and checks corrupt-line handling; this test does it to a real benchmark
(`actionable eval verify`, rule + sim judges: real simulator, deterministic, no
LM), at a random point, then resumes and compares the summary table with an
uninterrupted run's.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.conftest import REPO

N_PROGRAMS = 6
JUDGES = "rule,sim"
N_EPISODES = N_PROGRAMS * 2


def _cmd(out: Path) -> list[str]:
    return [sys.executable, "-c", "import sys; from actionable.cli import run; sys.argv[0]='actionable'; run()",
            "eval", "verify", "--out", str(out), "--judges", JUDGES, "--n", str(N_PROGRAMS), "--no-progress"]


def _table(out: Path) -> list[list[str]]:
    """Rows of summary.md's table without the wall-time column (s/plan)."""
    rows = [ln.split("|")[1:-1] for ln in (out / "summary.md").read_text().splitlines() if ln.startswith("| ")]
    assert rows and rows[0][-1].strip() == "s/plan"
    return [[c.strip() for c in r[:-1]] for r in rows]


def _keys(out: Path) -> list[str]:
    return [json.loads(ln)["key"] for ln in (out / "run.jsonl").read_text().splitlines() if ln.strip()]


@pytest.mark.slow
def test_kill_9_then_resume_equals_uninterrupted_run(tmp_path, cache_dir):
    env = {**os.environ, "PYTHONPATH": str(REPO), "ACTIONABLE_CACHE_DIR": str(cache_dir)}
    out = tmp_path / "killed"
    kill_after = random.Random().randint(2, N_EPISODES - 3)   # a random point, reported on failure
    proc = subprocess.Popen(_cmd(out), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    path = out / "run.jsonl"
    deadline = time.time() + 240
    try:
        while time.time() < deadline and proc.poll() is None:
            if path.exists() and path.read_bytes().count(b"\n") >= kill_after:
                break
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    n_before = path.read_bytes().count(b"\n")
    assert kill_after <= n_before < N_EPISODES, (kill_after, n_before)
    # a half-written last line, as a kill during write() would leave
    with open(path, "ab") as f:
        f.write(b'{"key": "half-writ')
    resumed = subprocess.run(_cmd(out), env=env, capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "partial" in resumed.stderr.lower() or "corrupt" in resumed.stderr.lower(), resumed.stderr[-2000:]
    keys = _keys(out)
    assert len(keys) == N_EPISODES and len(set(keys)) == N_EPISODES
    ref = tmp_path / "uninterrupted"
    subprocess.run(_cmd(ref), env=env, capture_output=True, timeout=600, check=True)
    assert sorted(_keys(ref)) == sorted(keys)
    assert _table(out) == _table(ref)
