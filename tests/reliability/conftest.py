"""Shared helpers for the reliability and safety tests (issue 8).

``cli`` runs the real typer app in-process through :func:`actionable.cli.main`
(the console-script entry point); ``cli_subprocess`` runs the installed
``actionable`` script, for argv bytes and environment variables.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

SENTINEL_OPENAI = "sk-SENTINEL-openai-3f9c1e7d"
SENTINEL_ACTIONABLE = "sk-SENTINEL-actionable-8b2d4a60"
SCRIPTED_WALK = 'scripted:["walk to bedroom"]'
REPO = Path(__file__).resolve().parents[2]
_PROGRESS = re.compile(r"^\[\d\d:\d\d:\d\d\] ")


@dataclass
class CliResult:
    rc: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        """stderr lines, without the timestamped progress lines (``[12:03:01] loading ...``) that
        the CLI prints when stderr is not a terminal."""
        return [ln for ln in self.err.splitlines() if ln.strip() and not _PROGRESS.match(ln)]


def assert_one_line_error(res: CliResult, *expect: str) -> None:
    """Exit 2, exactly one ``error: ...`` line on stderr, no traceback, each ``expect`` in it."""
    assert res.rc == 2, (res.rc, res.err[-2000:])
    assert "Traceback" not in res.err
    assert len(res.err_lines) == 1, res.err
    line = res.err_lines[0]
    assert line.startswith("error: "), line
    for e in expect:
        assert e.lower() in line.lower(), (e, line)


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    """One LM/action-index cache for the session (kept apart from the user's ~/.cache)."""
    return tmp_path_factory.mktemp("actionable-cache")


@pytest.fixture
def cli(capsys, monkeypatch, cache_dir):
    """Run ``actionable ARGS`` in-process; returns :class:`CliResult`."""
    monkeypatch.setenv("ACTIONABLE_CACHE_DIR", str(cache_dir))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")

    def run(*args: str) -> CliResult:
        from actionable.cli import main

        capsys.readouterr()
        rc = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return CliResult(rc, out, err)

    return run


@pytest.fixture
def cli_subprocess(cache_dir):
    """Run the ``actionable`` console script; ``args`` may be ``bytes`` (raw argv)."""

    def run(*args, env: dict | None = None, timeout: float = 300) -> CliResult:
        full_env = {**os.environ, "ACTIONABLE_CACHE_DIR": str(cache_dir), "HF_HUB_OFFLINE": "1",
                    "PYTHONPATH": str(REPO), **(env or {})}
        exe = [sys.executable, "-c", "import sys; from actionable.cli import run; sys.argv[0]='actionable'; run()"]
        argv = [a if isinstance(a, bytes) else str(a).encode() for a in args]
        proc = subprocess.run([e.encode() for e in exe] + argv, capture_output=True, env=full_env,
                              timeout=timeout)
        return CliResult(proc.returncode, proc.stdout.decode("utf-8", "replace"),
                         proc.stderr.decode("utf-8", "replace"))

    return run
