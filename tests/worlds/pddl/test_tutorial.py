"""docs/worlds.md, "Add a world", cannot go stale: its Python blocks run here in order (one
namespace, the printed values they claim in comments are checked where they are exact), and its
commands run as a user types them (bash, the real console entry point), each exiting 0 and printing
the lines the page shows."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[3] / "docs" / "worlds.md"


def section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## Add a world (tutorial: the `pddl` world)")
    end = text.find("\n## ", start + 3)
    return text[start:] if end < 0 else text[start:end]


def test_the_section_walks_through_the_pieces():
    s = section()
    for needed in ("def register(registry)", "\"pddl\", \"actionable.worlds.pddl.world:PddlWorld\"", "check_world",
                   "check_capabilities", "planning_domain", "WorldAdapter", "entry-points", "--env pddl",
                   "generalisation needed by"):
        assert needed in s, needed


def test_python_blocks_run_and_print_what_they_claim():
    ns: dict = {}
    out = io.StringIO()
    blocks = re.findall(r"```python\n(.*?)```", section(), re.S)
    assert len(blocks) >= 4
    for block in blocks:
        with contextlib.redirect_stdout(out):
            exec(compile(block, str(PAGE), "exec"), ns)  # noqa: S102 - the page's own code
    printed = out.getvalue()
    for claim in ("blocksworld:p01 [Action(name='pick-up', args=('b',))", "['(holding a)']",
                  "['(in milk fridge)']", "goal_reached True", "['(go hall-door kitchen-door)'",
                  "#REMOVE 3", "#REMOVE 4", "#MISSING before 7 (pick-up a)"):
        assert claim in printed, claim


def console_commands() -> list[tuple[str, str]]:
    out = []
    for block in re.findall(r"```console\n(.*?)```", section(), re.S):
        cmd, lines = None, []
        for ln in block.splitlines():
            if ln.startswith("$ "):
                if cmd is not None:
                    out.append((cmd, lines))
                cmd, lines = ln[2:].strip(), []
            else:
                lines.append(ln)
        if cmd is not None:
            out.append((cmd, lines))
    return out


@pytest.mark.slow
def test_commands_run_as_documented(tmp_path):
    shim = f'actionable() {{ "{sys.executable}" -c "from actionable.cli import run; run()" "$@"; }}\n'
    cmds = console_commands()
    assert [c.split()[1] for c, _ in cmds] == ["scenes", "plan", "verify"]
    for cmd, shown in cmds:
        p = subprocess.run(["bash", "-c", shim + cmd], cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, f"{cmd!r} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
        assert "Traceback" not in p.stderr
        for line in shown:
            if line.strip() and line.strip() != "...":
                assert line in p.stdout, f"{cmd!r} printed no {line!r}:\n{p.stdout[-3000:]}"
    assert "(stack a b)" in (tmp_path / "plan.txt").read_text()
