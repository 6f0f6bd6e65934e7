"""`--env driving` on a real SUMO run: `actionable follow` and `actionable eval continual`
(oracle agent: no language model needed). Skipped when the [driving] extra is not installed."""

from __future__ import annotations

import json

import pytest

from actionable.cli import main
from actionable.worlds.driving.sumo import sumo_available

pytestmark = pytest.mark.skipif(not sumo_available(),
                                reason='Eclipse SUMO not installed: pip install -e ".[dev,driving]" torch==2.13.0')


def test_follow_env_driving_live_trace_and_files(tmp_path, capsys):
    ins, trace = tmp_path / "ins.json", tmp_path / "trace.jsonl"
    rc = main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "6", "--count", "3",
               "--nonstationarity", "high", "--save-instructions", str(ins), "--trace", str(trace)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "in scene town" in out and "light cycle 120 s" in out
    assert "t=  0" in out and "t=  5" in out and "why:" in out and "SR " in out
    saved = json.loads(ins.read_text())
    assert len(saved) == 3 and all(d["text"].startswith(("If", "When", "Whenever")) for d in saved)
    lines = [json.loads(x) for x in trace.read_text().splitlines()]
    assert len(lines) == 7 and all("sim_time" in r for r in lines[:-1])
    assert "sim_seconds" in lines[-1]["summary"]["stats"]
    # the saved set and a text file are read back by the driving reader
    assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "2", "-q",
                 "--instructions", str(ins)]) == 0
    txt = tmp_path / "ins.txt"
    txt.write_text("# standing orders\nIf the car ahead stops for more than 10 s, overtake it.\n")
    assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "2", "-q",
                 "--instructions", str(txt)]) == 0
    assert "instruction 1: If the car ahead" in capsys.readouterr().out


def test_follow_env_driving_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.txt"
    bad.write_text("If the television in the dining room is on, switch it off.\n")
    cases = [(["--instructions", str(bad)], "line 1"),
             (["--scene", "atlantis"], "atlantis"),
             (["--nonstationarity", "extreme"], "extreme")]
    for extra, msg in cases:
        assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "2", *extra]) == 2, extra
        err = capsys.readouterr().err
        assert err.startswith("error:") and msg in err and err.count("\n") == 1, (extra, err)


def test_eval_continual_env_driving(tmp_path, capsys):
    out = tmp_path / "run"
    args = ["eval", "continual", "--env", "driving", "--agents", "oracle", "--nonstationarity", "low",
            "--seeds", "1", "--steps", "4", "--out", str(out), "--no-progress"]
    assert main(args) == 0
    assert "| oracle |" in capsys.readouterr().out
    recs = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    assert len(recs) == 3 and all(r["status"] == "ok" and r["payload"]["env"] == "driving" for r in recs)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["env"] == "driving" and manifest["config"]["scene"] == "town"
    assert main(args) == 0 and "0 new, 3 resumed" in capsys.readouterr().out


@pytest.mark.parametrize("line,needle", [
    ("If the light on Elm Lane towards the school is red, turn left.", "cannot read the action 'turn left'"),
    ("If the left lane of Elm Lane towards the school is blocked, overtake.", "cannot read the action 'overtake'"),
    ("If a pedestrian is waiting at the crossing at the park, stop before the line.", "for a waiting pedestrian"),
    ("If the car ahead stops for more than 30 s, overtake it.", "counts as stalled after 10 s"),
    ("If the car ahead is moving, overtake it.", "cannot read the condition"),
    ("If there is no car ahead, overtake it.", "cannot read the condition"),
    ("If the car ahead stops for more than a minute, overtake it.", "counts as stalled after 10 s"),
    ("If the light on Elm Lane towards the school is red and the car ahead stops, overtake it.",
     "one condition per instruction"),
    ("If the light on Elm Lane towards the school is red for more than 30 s, stop.",
     "only the car-ahead condition has a duration"),
])
def test_the_rule_reader_refuses_an_action_it_would_replace(tmp_path, capsys, line, needle):
    """The driving reader derives the skill from the condition; an action it would not do was
    silently replaced ("..., turn left." ran a stop; "30 s" was read as 10 s: a new user's check)."""
    f = tmp_path / "orders.txt"
    f.write_text("If the light on Elm Lane towards the school is red, stop.\n" + line + "\n")
    assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "2", "-q", "-i", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "line 2" in err and needle in err, err


def test_the_rule_reader_accepts_plain_phrasings():
    from actionable.continual.worlds import get_world
    from actionable.worlds.driving.continual import parse_driving

    house = get_world("driving").make_house("town", "low")
    for text in ("if the light on Elm Lane towards the school turns red, stop",
                 "If someone waits at the crossing at the park, yield.",
                 "When the left lane of Elm Lane towards the school is blocked, keep right.",
                 "If the car ahead stops for more than 10 seconds, pass it."):
        assert parse_driving(text, house).execution


def test_a_saved_instructions_file_is_read_again_by_the_rule_reader(tmp_path, capsys):
    """Records of --save-instructions were trusted: an edited text ran the old action, an unknown
    id was "internal error: KeyError: 999", an impossible state was accepted (a new user's check)."""
    src = tmp_path / "a.txt"
    src.write_text("If the light on Elm Lane towards the school is red, stop.\n")
    saved = tmp_path / "s.json"
    assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "1", "-q", "-i", str(src),
                 "--save-instructions", str(saved)]) == 0
    capsys.readouterr()
    recs = json.loads(saved.read_text())
    assert main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "1", "-q", "-i", str(saved)]) == 0
    capsys.readouterr()
    for edit, needle in ((lambda r: r.update(text=r["text"].replace("stop.", "turn left.")), "record 1: cannot read the action"),
                         (lambda r: r.update(query=[["state", 999, "red"]], text=r["text"]), None),
                         (lambda r: r.pop("text"), "record 1 has no 'text' string")):
        r = json.loads(json.dumps(recs[0]))
        edit(r)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps([r]))
        rc = main(["follow", "--env", "driving", "--agent", "oracle", "--steps", "1", "-q", "-i", str(bad)])
        err = capsys.readouterr().err
        if needle is None:  # the text is read again: the bad id in the record is not used
            assert rc == 0 and "internal error" not in err, err
        else:
            assert rc == 2 and needle in err and "internal error" not in err, err
