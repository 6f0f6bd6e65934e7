"""Report aggregation and rendering from run.jsonl records (no models)."""

from __future__ import annotations

import pytest

from actionable.core.errors import RunFileError
from actionable.evaluation.report import render_markdown, summarize, write_report
from actionable.evaluation.runner import RunStore


def _rec(key, variant, mode, ex, lcs, gcs, ts, length, secs, failure=None, status="ok"):
    m = {"executability": ex, "executable": ex == 1.0, "failure": failure, "lcs": lcs,
         "goal_condition_success": gcs, "task_success": ts, "goal_condition_success_id": gcs,
         "task_success_id": ts, "plan_length": length, "seconds_per_plan": secs}
    return {"key": key, "status": status, "payload": {"variant": variant, "model": "m",
                                                      "query": {"mode": mode}},
            "result": {"metrics": m} if status == "ok" else None, "error": None if status == "ok" else "x"}


RECS = [
    _rec("a", "vanilla", "name", 0.0, 0.2, 0.5, 0.0, 4, 1.0, failure="parse"),
    _rec("b", "vanilla", "name", 1.0, 0.4, 1.0, 1.0, 6, 3.0),
    _rec("c", "full", "name", 1.0, 0.5, 0.25, 0.0, 5, 2.0),
    _rec("d", "full", "name", 0.5, None, None, None, 3, 4.0, failure="precondition:not_close"),
    _rec("e", "full", "name", 0, 0, 0, 0, 0, 0, status="error"),
]


def test_summarize_hand_computed_means():
    rows = {r.variant: r for r in summarize({r["key"]: r for r in RECS})}
    v, f = rows["vanilla"], rows["full"]
    assert (v.n, v.errors) == (2, 0) and (f.n, f.errors) == (2, 1)
    assert v.executability == pytest.approx(50.0) and v.lcs == pytest.approx(30.0)
    assert v.goal_condition_success == pytest.approx(75.0) and v.task_success == pytest.approx(50.0)
    assert v.plan_length == pytest.approx(5.0) and v.seconds_per_plan == pytest.approx(2.0)
    assert f.executability == pytest.approx(75.0)
    assert f.lcs == pytest.approx(50.0) and f.goal_condition_success == pytest.approx(25.0)  # None skipped
    assert v.failures == {"parse": 1} and f.failures == {"precondition:not_close": 1}
    assert [r.variant for r in summarize(RECS)] == ["vanilla", "full"]  # paper row order


def test_markdown_and_png(tmp_path):
    md = render_markdown(summarize(RECS), manifest={"command": "actionable eval plan --out x"})
    assert "| m | vanilla | 2 | 50.0 | 30.0 | 75.0 | 50.0 | 75.0 / 50.0 | 5.0 | 2.00 | 0 |" in md
    assert "`actionable eval plan --out x`" in md and "78.57" in md
    store = RunStore(tmp_path)
    store.open()
    for r in RECS:
        store.append(r)
    store.close()
    paths = write_report(tmp_path)
    assert paths["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| m | full | 2 | 75.0 |" in paths["summary"].read_text()


def test_empty_run_dir_is_a_clear_error(tmp_path):
    with pytest.raises(RunFileError, match="no finished episodes"):
        write_report(tmp_path)
    with pytest.raises(RunFileError, match="does not exist"):
        write_report(tmp_path / "missing")
