"""The scoring of benchmarks/bench_verify_new.py on 3 cases of the tune half (real simulator, no LM).

Only tune cases are used; the report half is never loaded here.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from bench_verify_new import compare, main, run_case, run_judge, summarize, t2  # noqa: E402

from actionable.core.errors import ConfigError  # noqa: E402
from actionable.worlds.virtualhome.goals import load_goal_annotations  # noqa: E402
from actionable.evaluation.verify_noise import load_cases  # noqa: E402
from actionable.verify.base import JudgeResult  # noqa: E402
from actionable.verify.critique import Critique, CritiqueKind  # noqa: E402
from actionable.verify.loop import VerificationLoop  # noqa: E402


def _three():
    cases = load_cases(split="tune")[:3]
    assert len(cases) == 3 and all(c.split == "tune" for c in cases)
    return cases


class _Oracle:
    """A judge that knows the labels of one case: round 1 gives exactly its positives, later rounds nothing."""

    name = "oracle"

    def __init__(self, case):
        self.case = case

    def judge(self, plan, task):
        if [s.to_script() for s in plan.steps] != list(self.case.plan):
            return JudgeResult(())
        steps = self.case.steps()
        crits = [Critique(CritiqueKind.REMOVE, i, steps[i].to_script(), step=steps[i], source="oracle")
                 for i in sorted(self.case.remove_positives)]
        crits += [Critique(CritiqueKind.MISSING, pos, st.to_script(), step=st, source="oracle")
                  for pos, st in self.case.missing_steps()]
        return JudgeResult(tuple(crits))


def test_oracle_judge_scores_perfectly_and_ends_at_the_reference():
    ann, facts = load_goal_annotations(), {}
    rows = [run_case(c, VerificationLoop(_Oracle(c)), ann, facts) for c in _three()]
    m = summarize(rows)
    assert m["positives"] == sum(len(c.remove_positives) + len(c.missing) for c in _three()) > 0
    assert (m["P"], m["R"], m["F1"], m["F1_strict"], m["F1_loop"]) == (1.0, 1.0, 1.0, 1.0, 1.0)
    assert m["exact"] == 1.0 and m["no_loss"] == 1.0 and m["success_after"] == 1.0
    assert m["conv_le_1"] == 1.0
    # an error case needs one revision, a clean one none
    assert [r["revisions"] for r in rows] == [0 if c.is_clean else 1 for c in _three()]
    for r, c in zip(rows, _three()):
        for kind, (found, total) in r["found"].items():
            assert found == total > 0


def test_sim_judge_rows_are_consistent_with_the_labels(capsys):
    cases = _three()
    rows = run_judge(cases, "sim")
    assert [r["id"] for r in rows] == [c.id for c in cases]
    for r, c in zip(rows, cases):
        t = r["t2"]
        assert t["tp_remove"] + t["fn_remove"] == len(c.remove_positives)
        assert t["tp_missing"] + t["fn_missing"] == len(c.missing)
        assert r["success_before"] == (not any(k in c.kinds for k in ("missing", "missing_prep", "swap",
                                                                         "wrong_instance")))
        assert r["exact"] == (r["final"] == list(c.plan if c.is_clean else c.reference))
        assert r["no_loss"] or not r["success_after"]
        assert sum(a for a, _ in r["found"].values()) == t["tp_remove"] + t["tp_missing"]
        assert sum(b for _, b in r["found"].values()) == len(c.remove_positives) + len(c.missing)
    m = summarize(rows)
    assert 0.0 <= m["P"] <= 1.0 and 0.0 <= m["F1"] <= 1.0 and m["cases"] == 3
    compare(rows)
    out = capsys.readouterr().out
    assert "| sim | 3 |" in out and all(f"| {k} |" in out for c in cases for k in c.kinds)


def test_t2_credits_an_identical_adjacent_copy_only():
    from actionable.core.program import parse_script_step

    plan = ["[WALK] <bedroom> (67)", "[SIT] <bed> (70)", "[SIT] <bed> (70)", "[WALK] <bedroom> (67)"]
    labels = ["valid", "valid", "remove", "valid"]

    def rm(i):
        st = parse_script_step(plan[i])
        return Critique(CritiqueKind.REMOVE, i, st.to_script(), step=st)

    assert [c.index for c in t2(plan, labels, [rm(1)])] == [2]  # same plan either way: credited
    assert [c.index for c in t2(plan, labels, [rm(3)])] == [3]  # another step: not moved
    assert [c.index for c in t2(plan, labels, [rm(1), rm(2)])] == [1, 2]  # the label already claimed


def test_report_split_needs_the_final_report_flag():
    with pytest.raises(ConfigError, match="final-report"):
        main(["--split", "report", "--judges", "rule"])
    with pytest.raises(ConfigError, match="unknown judge"):
        main(["--split", "tune", "--judges", "oracle"])
