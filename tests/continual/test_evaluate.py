"""Benchmark summary on synthetic run records (no model)."""

from __future__ import annotations

import pytest

from actionable.evaluation.continual import episodes_for, render_markdown, summarize
from actionable.core.errors import ConfigError


def _rec(agent, level, n, seed, sr, ps, reuse=None, ok=True):
    stats = {"lm_calls_per_step": 2.0, "seconds": 10.0}
    if reuse is not None:
        stats["reuse_rate"] = reuse
    return {"status": "ok" if ok else "error",
            "payload": {"agent": agent, "level": level, "n": n, "seed": seed},
            "result": {"metrics": {"sr": sr, "ps": ps, "n_success": 1, "n_failure": 1},
                       "stats": stats,
                       "interpretation": [{"execution": ["switch off tv"]}, {"execution": ["open door"]}],
                       "truth": [["switch off tv"], ["close door"]]}}


def test_summary_pools_sizes_and_skips_errors():
    recs = {str(i): r for i, r in enumerate([
        _rec("exrap", "high", 3, 0, 0.5, 4.0, 0.4), _rec("exrap", "high", 3, 1, 1.0, 2.0, 0.6),
        _rec("exrap", "high", 5, 0, None, None, 0.5), _rec("llm-planner", "high", 3, 0, 0.0, 9.0),
        _rec("exrap", "low", 3, 0, 0.9, 1.0, 0.2, ok=False)])}
    rows = {(r["agent"], r["level"], r["n"]): r for r in summarize(recs)}
    assert ("exrap", "low", 3) not in rows  # the error record is not scored
    pooled = rows[("exrap", "high", "all")]
    assert pooled["episodes"] == 3 and pooled["sr"] == pytest.approx(75.0)  # None SR ignored
    assert pooled["ps"] == pytest.approx(3.0) and pooled["sr_ci"] is not None
    assert pooled["reuse_rate"] == pytest.approx(0.5)
    assert pooled["interpretation_ok"] == pytest.approx(0.5)
    assert rows[("llm-planner", "high", "all")]["reuse_rate"] is None
    md = render_markdown(list(rows.values()))
    assert "| exrap | 75.0 [" in md and "| llm-planner | 0.0 | 9.0 |" in md  # estimate [95% interval]
    assert 0.0 <= pooled["sr_interval"][0] <= 75.0 <= pooled["sr_interval"][1] <= 100.0


def test_grid_is_seed_major_and_validated():
    eps = episodes_for(["exrap", "oracle"], ["low", "high"], [3], [0, 1], 10, "1003_2", "embedded")
    assert [e.key for e in eps[:4]] == ["exrap|low|3|0", "oracle|low|3|0", "exrap|high|3|0", "oracle|high|3|0"]
    assert len({e.key for e in eps}) == 8
    with pytest.raises(ConfigError, match="non-stationarity"):
        episodes_for(["exrap"], ["extreme"], [3], [0], 10, "1003_2", "embedded")
