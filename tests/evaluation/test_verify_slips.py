"""The human-like-slips verification set (benchmarks/data/verify_slips, issue 26).

The file loads with the shared case loader, its labels are well formed, and on a fixed sample
of 30 cases the simulator confirms the facts the labels rest on (README section 3): the
reference is correct, each insertion is unneeded, each MISSING step is needed. No judge runs.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from gen_verify_slips import Facts, split_of, t1_align  # noqa: E402  (benchmark code, not in the package)

DATA = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "verify_slips" / "cases.jsonl"


@pytest.fixture(scope="module")
def rows():
    return [json.loads(x) for x in DATA.read_text(encoding="utf-8").splitlines() if x.strip()]


@pytest.fixture(scope="module")
def ann():
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()


def test_the_shared_loader_reads_the_set(rows):
    from actionable.evaluation.verify_noise import load_cases

    cases = load_cases(DATA)
    assert len(cases) == len(rows) >= 150
    assert {c.split for c in load_cases(DATA, split="tune")} == {"tune"}


def test_ids_splits_and_label_shapes(rows):
    assert len({r["id"] for r in rows}) == len(rows)
    assert {r["split"] for r in rows} == {"tune", "report"}
    assert all(r["split"] == split_of(r["program_id"]) for r in rows)
    assert all(r["source"] == "gold" and r["scene"] == r["program_id"] for r in rows)
    new = Path(DATA).parents[1] / "verify_new" / "cases.jsonl"
    seen = {json.loads(x)["program_id"] for x in new.read_text(encoding="utf-8").splitlines() if x.strip()}
    assert not seen & {r["program_id"] for r in rows}  # no reference the judges were tuned on
    clean = 0
    for r in rows:
        n = len(r["plan"])
        assert len(r["labels"]) == len(r["reasons"]) == len(r["edit_ids"]) == n
        assert set(r["labels"]) <= {"valid", "remove"}
        assert all(0 <= m["position"] <= n for m in r["missing"])
        # REMOVE positives are exactly the plan lines T1 leaves unaligned
        al = t1_align(r["reference"], r["plan"])
        assert [j for j in range(n) if j not in {b for _, b in al}] == \
            [j for j, lab in enumerate(r["labels"]) if lab == "remove"]
        assert len(r["reference"]) - len(al) == len(r["missing"])
        if not r["edits"]:
            clean += 1
            assert r["plan"] == r["reference"] and not r["missing"] and r["kinds"] == ["clean_gold"]
    assert 0.15 <= clean / len(rows) <= 0.3


def _insertion_alone(r, e):
    """R with only the insertions of edit ``e`` (each block placed before the R step that
    follows it in the plan under T1)."""
    ref, plan = r["reference"], r["plan"]
    r_of = {j: i for i, j in t1_align(ref, plan)}
    at: dict = {}
    for j in e["inserted"]:
        p = next((r_of[k] for k in range(j + 1, len(plan)) if k in r_of), len(ref))
        at.setdefault(p, []).append(plan[j])
    out = []
    for i in range(len(ref) + 1):
        out += at.get(i, [])
        if i < len(ref):
            out.append(ref[i])
    return out


def test_simulator_confirms_a_fixed_sample(rows, ann):
    sample = random.Random("verify_slips-test").sample(rows, 30)
    assert any(not r["edits"] for r in sample) and any(r["missing"] for r in sample)
    checked = {"insertions": 0, "missing": 0}
    for r in sample:
        f = Facts(r["program_id"], ann[r["program_id"]])
        ref = r["reference"]
        assert f.outcome(ref).correct, r["id"]
        out = f.outcome(r["plan"])
        assert (out.executes, len(out.met)) == (r["facts"]["plan_executes"], r["facts"]["plan_goals_met"])
        for e in r["edits"]:
            if e["inserted"] and "deleted" not in e:  # an insertion: unneeded, R stays correct
                assert f.outcome(_insertion_alone(r, e)).correct, (r["id"], e)
                checked["insertions"] += 1
            for i, step in e.get("deleted", []):  # a deleted / moved step: needed on its own
                assert ref[i] == step
                o = f.outcome(ref[:i] + ref[i + 1:])
                assert not o.executes or len(o.met) < o.total, (r["id"], step)
                checked["missing"] += 1
            if "replaced" in e:  # T4: the wrong instance breaks the plan
                assert not out.executes or len(out.met) < out.total, r["id"]
                checked["missing"] += len(e["replaced"])
        assert sum(len(e.get("deleted", [])) + len(e.get("replaced", [])) for e in r["edits"]) == len(r["missing"])
    assert checked["insertions"] >= 5 and checked["missing"] >= 5
