"""Reports a reader can trust (issue 16): intervals never run past the metric's range, and the
plan-evaluation figure's legend names its markers."""

from __future__ import annotations

import re

import pytest

from actionable.evaluation.continual import render_markdown, summarize, wilson_interval


def _rec(seed, sr, ps):
    return {"status": "ok", "payload": {"agent": "exrap", "level": "high", "n": 3, "seed": seed},
            "result": {"metrics": {"sr": sr, "ps": ps, "n_success": 1, "n_failure": 0},
                       "stats": {"lm_calls_per_step": 1.0, "seconds": 1.0}, "interpretation": []}}


@pytest.mark.parametrize("p, n", [(0.0, 2), (1.0, 2), (0.833, 2), (0.5, 3), (0.02, 5), (0.99, 40)])
def test_wilson_stays_in_range_and_contains_the_estimate(p, n):
    lo, hi = wilson_interval(p, n)
    assert 0.0 <= lo <= p <= hi <= 1.0


def test_wilson_matches_the_textbook_value():
    lo, hi = wilson_interval(0.5, 10)  # 5 of 10: 0.2366 .. 0.7634
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)


def test_the_83_plus_minus_212_case_is_gone():
    """Two episodes, SR 100% and 66.7%: the old t-interval printed '83.3 ± 211.8'."""
    rows = summarize({"a": _rec(0, 1.0, 2.0), "b": _rec(1, 2 / 3, 40.0)})
    pooled = next(r for r in rows if r["n"] == "all")
    lo, hi = pooled["sr_interval"]
    assert 0.0 <= lo < 83.4 < hi <= 100.0
    assert pooled["ps_interval"][0] >= 0.0  # PS: t-interval cut at 0
    md = render_markdown(rows)
    assert "±" not in md.split("SR:")[0]
    for est, a, b in re.findall(r"(\d+\.\d) \[(-?\d+\.\d), (-?\d+\.\d)\]", md):
        assert float(a) <= float(est) <= float(b) and float(a) >= 0.0


def test_plan_scatter_has_a_legend_naming_the_markers(tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from actionable.evaluation.report import Row, scatter_png

    rows = [Row("m", "full", "name", executability=50.0, goal_condition_success=20.0),
            Row("m", "vanilla", "name", executability=50.5, goal_condition_success=20.5),
            Row("m", "full", "name+description", executability=70.0, goal_condition_success=30.0)]
    seen = {}
    real_close = plt.close

    def keep(fig):
        seen["fig"] = fig
        real_close(fig)

    monkeypatch.setattr(plt, "close", keep)
    scatter_png(rows, tmp_path / "s.png")
    ax = seen["fig"].axes[0]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["query: name", "query: name+description"]
    offsets = [t.xyann for t in ax.texts]
    assert offsets[0] != offsets[1]  # the two near-identical points' labels are stacked
