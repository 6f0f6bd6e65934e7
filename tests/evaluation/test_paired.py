"""Paired comparisons of continual agents (actionable.evaluation.paired; issue 25)."""

from __future__ import annotations

import json

import pytest

from actionable.evaluation.paired import paired_differences, render_paired, sign_test


def _rec(agent, level, n, seed, sr, ps, status="ok"):
    return {"status": status, "payload": {"agent": agent, "level": level, "n": n, "seed": seed},
            "result": {"metrics": {"sr": sr, "ps": ps}}}


def _records(rows):
    return {f"{a}|{lv}|{n}|{s}": _rec(a, lv, n, s, sr, ps) for a, lv, n, s, sr, ps in rows}


def test_sign_test_exact_values():
    assert sign_test(0, 0) is None
    assert sign_test(5, 0) == pytest.approx(2 / 32)
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    assert sign_test(3, 3) == 1.0  # never above 1
    assert sign_test(10, 0) == pytest.approx(2 / 1024)


def test_pairs_only_the_same_level_size_and_seed():
    recs = _records([
        ("exrap", "low", 3, 0, 1.0, 2.0), ("iw", "low", 3, 0, 0.5, 4.0),
        ("exrap", "low", 3, 1, 0.5, 3.0), ("iw", "low", 3, 1, 0.5, 3.0),
        ("exrap", "low", 5, 0, 1.0, 1.0),  # no partner: left out
        ("iw", "high", 3, 0, 0.0, 9.0),  # no partner: left out
    ])
    rows = paired_differences(recs, "exrap")
    assert [(r["agent"], r["level"], r["episodes"]) for r in rows] == [("iw", "low", 2), ("iw", "all", 2)]
    sr, ps = rows[0]["sr"], rows[0]["ps"]
    assert sr["pairs"] == 2 and sr["diff"] == pytest.approx(25.0)  # (50 + 0) / 2 points
    assert (sr["wins"], sr["losses"], sr["ties"]) == (1, 0, 1)
    assert ps["diff"] == pytest.approx(-1.0) and (ps["wins"], ps["losses"], ps["ties"]) == (1, 0, 1)  # shorter wins


def test_apart_only_when_the_interval_excludes_zero():
    same = [("exrap", "high", 3, s, 0.8, 3.0) for s in range(6)] + [("iw", "high", 3, s, 0.6, 3.0 + (s % 2)) for s in range(6)]
    r = paired_differences(_records(same), "exrap")[0]
    assert r["sr"]["diff"] == pytest.approx(20.0) and r["sr"]["interval"][0] == pytest.approx(20.0)
    assert r["sr"]["apart"] and r["sr"]["sign_p"] == pytest.approx(2 / 64)
    assert not r["ps"]["apart"] or r["ps"]["interval"][1] < 0  # PS: 3 ties and 3 wins
    mixed = [("exrap", "low", 3, s, 0.5 + 0.5 * (s % 2), 2.0) for s in range(6)] + \
            [("iw", "low", 3, s, 1.0 - 0.5 * (s % 2), 2.0) for s in range(6)]
    m = paired_differences(_records(mixed), "exrap")[0]
    assert m["sr"]["diff"] == pytest.approx(0.0) and not m["sr"]["apart"] and m["sr"]["sign_p"] == 1.0
    assert m["ps"]["interval"] == [0.0, 0.0] and not m["ps"]["apart"]  # identical values: a zero-width interval at 0


def test_missing_values_failed_episodes_and_absent_reference():
    recs = _records([("exrap", "low", 3, 0, None, None), ("iw", "low", 3, 0, 0.5, 4.0),
                     ("exrap", "low", 3, 1, 1.0, 1.0), ("iw", "low", 3, 1, 0.0, 30.0)])
    recs["iw|low|3|2"] = _rec("iw", "low", 3, 2, 1.0, 1.0, status="error")
    recs["exrap|low|3|2"] = _rec("exrap", "low", 3, 2, 0.0, 9.0)
    r = paired_differences(recs, "exrap")[0]
    assert r["episodes"] == 2 and r["sr"]["pairs"] == 1 and r["sr"]["interval"] is None and not r["sr"]["apart"]
    assert paired_differences(recs, "saycan") == [] and paired_differences({}, "exrap") == []
    assert "No paired differences" in render_paired([]) and "--agents exrap" in render_paired([])
    # malformed records (no seed, a string SR) pair with nothing or count as missing, never crash
    recs["bad|x"] = {"status": "ok", "payload": {"agent": "iw", "level": "low", "n": 3}, "result": {"metrics": {}}}
    recs["iw|low|3|1"]["result"]["metrics"]["sr"] = "high"
    r = paired_differences(recs, "exrap")[0]
    assert r["sr"]["pairs"] == 0 and r["ps"]["pairs"] == 1


def test_render_marks_separated_differences():
    rows = paired_differences(_records(
        [("exrap", "medium", 3, s, 0.9, 2.0) for s in range(5)] + [("iw", "medium", 3, s, 0.5, 2.0) for s in range(5)]))
    text = render_paired(rows)
    # five identical differences: a point interval, but the sign test (p = 0.062) does not separate them
    assert "| iw | medium | 5 | +40.0 [+40.0, +40.0] | 5/0/0 | 0.062 |" in text
    rows6 = paired_differences(_records(
        [("exrap", "medium", 3, s, 0.9, 2.0) for s in range(6)] + [("iw", "medium", 3, s, 0.5, 2.0) for s in range(6)]))
    assert "**+40.0 [+40.0, +40.0]** | 6/0/0 | 0.031 |" in render_paired(rows6)
    assert "| iw | all |" in text and "exact two-sided sign test" in text


def test_real_run_writes_paired_json_and_table(tmp_path, capsys):
    """A real ExRAP run (embedded SmolLM2) against the oracle on the same seeds: the report pairs them."""
    from actionable.cli import main

    out = tmp_path / "run"
    assert main(["eval", "continual", "--agents", "exrap,oracle", "--nonstationarity", "high", "--set-sizes", "3",
                 "--seeds", "2", "--steps", "8", "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "Paired differences, exrap minus each agent" in text and "| oracle | high |" in text
    paired = json.loads((out / "paired.json").read_text())
    assert [(r["agent"], r["level"], r["episodes"]) for r in paired] == [("oracle", "high", 2), ("oracle", "all", 2)]
    recs = [json.loads(x) for x in (out / "run.jsonl").read_text().splitlines()]
    ps = {(r["payload"]["agent"], r["payload"]["seed"]): r["result"]["metrics"]["ps"] for r in recs}
    diffs = [ps["exrap", s] - ps["oracle", s] for s in (0, 1) if ps["exrap", s] is not None and ps["oracle", s] is not None]
    assert paired[0]["ps"]["pairs"] == len(diffs)
    if diffs:
        assert paired[0]["ps"]["diff"] == pytest.approx(sum(diffs) / len(diffs))
