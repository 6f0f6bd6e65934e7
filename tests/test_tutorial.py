"""docs/tutorial.md cannot go stale: its commands run here, in order, in a scratch directory,
as a user would type them (bash, the real console entry point), and each must exit 0 and print
the key lines the page shows; `actionable follow`'s pasted output must match its real output line
for line (``...`` skips lines, wall-clock seconds are masked).
About a minute on 2 cores with warm model caches."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"

#: Key lines per command (matched by the command's start): each must be in the command's real
#: stdout and in the output pasted under it on the page.
KEYS = {
    "actionable plan": [],  # writes plan.txt; `cat plan.txt` shows it
    "cat plan.txt": ["Done", "Goal conditions read from the task:", "Task: Put the shirt in the washing machine",
                     "  1. ", "[WALK] <", "[PUTIN] <clothes_shirt>", "Executable in scene default", "Goal: ", "stop: "],
    "actionable verify": ["round 1: ", "revised plan (", "converged", "  1. [WALK] <"],
    "actionable follow": ["exrap in scene 1003_2", "instruction 1: ", "t=  0 in ", "why: ", "memory: ",
                          "SR ", "completed"],
    "actionable eval sequencing": ["| row | split | n |", "| retrieval | lopo | 3 |",
                                   "runs/tutorial-seq/summary.md"],
}


def tutorial_commands(text: str) -> list[tuple[str, str]]:
    """``(command, pasted output)`` for every ``$ `` line of the page's console blocks."""
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, re.S):
        cmd, lines = None, []
        for ln in block.splitlines():
            if ln.startswith("$ "):
                if cmd is not None:
                    out.append((cmd, "\n".join(lines)))
                cmd, lines = ln[2:].strip(), []
            else:
                lines.append(ln)
        if cmd is not None:
            out.append((cmd, "\n".join(lines)))
    return out


#: Commands whose pasted output must appear line for line, in order, in the real output (issue 25:
#: the page drifted from what `follow` prints). ``...`` on the page skips lines; wall-clock
#: seconds are masked (they differ between machines).
EXACT = ("actionable follow", "actionable verify")
_SECONDS = re.compile(r"(wall time|seconds?) [0-9.]+ ?s|[0-9.]+ s(?=,? model loading)")


def _mask(line: str) -> str:
    return _SECONDS.sub("<s>", line.rstrip())


def pasted_lines_missing(pasted: str, stdout: str) -> list[str]:
    """Pasted lines (``...`` skips) not found in order in ``stdout``; [] when the page is exact."""
    got = [_mask(x) for x in stdout.splitlines()]
    pos, missing = 0, []
    for line in pasted.splitlines():
        if line.strip() in ("", "..."):
            continue
        want = _mask(line)
        try:
            pos = got.index(want, pos) + 1
        except ValueError:
            missing.append(line)
    return missing


def _keys(cmd: str) -> list[str]:
    for prefix, keys in KEYS.items():
        if cmd.startswith(prefix):
            return keys
    raise AssertionError(f"docs/tutorial.md runs {cmd!r}: add its key lines to KEYS in {__file__}")


def test_the_page_holds_one_plan_verification_run_and_table():
    cmds = [c for c, _ in tutorial_commands(TUTORIAL.read_text())]
    for prefix in KEYS:
        assert any(c.startswith(prefix) for c in cmds), prefix
    for cmd, pasted in tutorial_commands(TUTORIAL.read_text()):
        for key in _keys(cmd):
            assert key in pasted, f"the output pasted under {cmd!r} lacks {key!r}"


def test_tutorial_commands_run_as_documented(tmp_path):
    # `actionable` is the console script of this interpreter's install (a venv may not be on PATH)
    shim = f'actionable() {{ "{sys.executable}" -c "from actionable.cli import run; run()" "$@"; }}\n'
    for cmd, pasted in tutorial_commands(TUTORIAL.read_text()):
        p = subprocess.run(["bash", "-c", shim + cmd], cwd=tmp_path, capture_output=True, text=True,
                           timeout=600)
        assert p.returncode == 0, f"{cmd!r} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
        assert "Traceback" not in p.stderr, p.stderr[-2000:]
        for key in _keys(cmd):
            assert key in p.stdout, f"{cmd!r} printed no {key!r}:\n{p.stdout[-3000:]}"
        if cmd.startswith(EXACT):
            missing = pasted_lines_missing(pasted, p.stdout)
            assert not missing, (f"docs/tutorial.md shows lines {cmd!r} no longer prints (regenerate the "
                                 f"page from its output):\n" + "\n".join(missing[:10]))
    assert (tmp_path / "plan.txt").is_file()
    assert (tmp_path / "runs" / "tutorial-seq" / "summary.md").is_file()
