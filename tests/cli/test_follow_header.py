"""`actionable follow`'s header says, before the first step, which reader read each instruction
(issue 24): the LM interpreter, the rule reader (also when the LM reading was unusable), or none
(the oracle is given the goal)."""

from __future__ import annotations

import json

from actionable.cli import main

_TEXT = "If the television in the dining room is on, switch it off."
_LM = "the television in the dining room is on\nexecution: switch off the television in the dining room"


def _follow(tmp_path, capsys, *extra) -> list[str]:
    f = tmp_path / "ins.txt"
    f.write_text(_TEXT + "\n")
    capsys.readouterr()
    assert main(["follow", "--instructions", str(f), "--steps", "1", "--quiet", *extra]) == 0
    out = capsys.readouterr().out.splitlines()
    head = [x for x in out if x.strip().startswith("instruction 1:")]
    assert len(head) == 1, out
    # up front: before the first step's line and the summary
    assert out.index(head[0]) < min([i for i, x in enumerate(out) if x.startswith(("t=", "SR "))] or [len(out)])
    return head


def test_follow_header_names_the_rule_reader(tmp_path, capsys):
    (line,) = _follow(tmp_path, capsys, "--agent", "exrap", "--model", "scripted:[]", "--interpreter", "rule")
    assert line.strip() == f"instruction 1: {_TEXT}  [read by the rule reader]"


def test_follow_header_names_the_lm_interpreter(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (line,) = _follow(tmp_path, capsys, "--agent", "exrap", "--model", "scripted:" + json.dumps([_LM]),
                      "--interpreter", "lm", "--no-cache")
    assert line.strip().endswith("[read by the LM interpreter]"), line


def test_follow_header_oracle_reads_nothing(tmp_path, capsys):
    (line,) = _follow(tmp_path, capsys, "--agent", "oracle")
    assert "[not read: the oracle is given the goal]" in line
