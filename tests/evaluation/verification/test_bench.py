"""Benchmark plumbing: config validation, episode grid, summary table (no simulator)."""

import pytest

from actionable.core.errors import ConfigError
from actionable.evaluation.verification.bench import VerifyBenchConfig, episodes, markdown_table, summarize


def test_config_validation():
    with pytest.raises(ConfigError):
        VerifyBenchConfig(judges=("oracle",))
    with pytest.raises(ConfigError):
        VerifyBenchConfig(planners=("human",))
    with pytest.raises(ConfigError):
        VerifyBenchConfig(n_programs=0)
    assert VerifyBenchConfig().fingerprint() != VerifyBenchConfig(seed=1).fingerprint()


def test_episode_grid_limits_lm_combinations():
    cfg = VerifyBenchConfig(judges=("rule", "llm"), planners=("apply", "llm"), models=("a", "b"), llm_programs=1)
    keys = [e.key for e in episodes(cfg, ["p1", "p2"])]
    assert "p1|rule|apply|-" in keys and "p2|rule|apply|-" in keys
    assert "p1|rule|llm|a" in keys and "p1|llm|llm|b" in keys and "p2|llm|apply|a" not in keys
    assert len(keys) == len(set(keys))


def _rec(judge, tp, fp, success):
    counts = {"tp_remove": tp, "fp_remove": fp, "fn_remove": 1, "tp_missing": 0, "fp_missing": 0, "fn_missing": 0}
    out = {"executable": success, "task_success": success, "goal_condition_success": 1.0}
    return {"status": "ok", "payload": {"judge": judge, "planner": "apply", "model": "-"},
            "result": {"counts_round1": counts, "counts_final": counts, "valid_removed": fp, "revisions": 1,
                       "converged": True, "len_corrupted": 10, "len_final": 8, "gold": out, "corrupted": out,
                       "final": out, "loop_seconds": 0.5}}


def test_summary_rows_and_table():
    recs = {"a": _rec("sim", 3, 1, True), "b": _rec("sim", 1, 0, False), "c": {"status": "error"}}
    (row,) = summarize(recs)
    assert row["plans"] == 2 and row["p1"] == pytest.approx(0.8) and row["r1"] == pytest.approx(4 / 6)
    assert row["success_final"] == 0.5 and row["valid_removed"] == 1 and row["len_reduction"] == pytest.approx(0.2)
    table = markdown_table([row])
    assert table.count("\n") == 2 and "| sim | apply | - | 2 | 80.0 |" in table
