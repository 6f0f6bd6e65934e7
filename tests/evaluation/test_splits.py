"""Task split and evaluation queries on the packaged programs."""

from __future__ import annotations

import json

import pytest

from actionable.core.errors import InputError
from actionable.worlds.virtualhome.goals import load_goal_annotations
from actionable.evaluation.splits import (default_split, heldout_queries, load_task_list,
                                          packaged_programs)
from actionable.planning.examples import normalize_task


@pytest.fixture(scope="module")
def progs():
    return packaged_programs()


def test_split_is_disjoint_seeded_and_sized(progs):
    s = default_split(0, programs=progs)
    assert len(s.heldout_tasks) == 8 and len(s.bank_tasks) == 18  # round(0.3 * 26)
    assert not set(s.heldout_tasks) & set(s.bank_tasks)
    assert default_split(0, programs=progs) == s
    assert default_split(1, programs=progs).heldout_tasks != s.heldout_tasks


def test_heldout_queries_both_modes(progs):
    s = default_split(0, programs=progs)
    ann = load_goal_annotations()
    qs = heldout_queries(s, ["name", "name+description"], ann, progs)
    name = [q for q in qs if q.mode == "name"]
    desc = [q for q in qs if q.mode == "name+description"]
    assert len(name) == 8
    held = set(s.heldout_tasks)
    annotated = [pid for pid, (t, _) in progs.items() if normalize_task(t) in held and pid in ann]
    assert sorted(q.goal_program_ids[0] for q in desc) == sorted(annotated)
    for q in desc:
        assert q.description == progs[q.goal_program_ids[0]][1] and q.description
    for q in name:
        assert q.description == "" and normalize_task(q.task) in held
        assert set(q.goal_program_ids) <= set(q.gold_program_ids)
        assert all(normalize_task(progs[g][0]) == normalize_task(q.task) for g in q.gold_program_ids)
    assert len({q.key for q in qs}) == len(qs)
    with pytest.raises(InputError, match="--query"):
        heldout_queries(s, ["task"], ann, progs)


def test_user_task_list(tmp_path, progs):
    p = tmp_path / "t.jsonl"
    p.write_text(json.dumps({"task": "Watch TV", "goal_program_ids": ["98_1"]}) + "\n\n"
                 + json.dumps({"task": "Tidy up", "description": "put things away"}) + "\n")
    a, b = load_task_list(p, progs)
    assert a.goal_program_ids == ("98_1",) and "98_1" in a.gold_program_ids
    assert b.gold_program_ids == () and b.description == "put things away"
    for bad, msg in [("{oops", "invalid JSON"), (json.dumps({"task": ""}), "non-empty string 'task'"),
                     (json.dumps({"task": "x", "goal_program_ids": ["nope"]}), "unknown program ids"),
                     (json.dumps({"task": "x"}) + "\n" + json.dumps({"task": "x"}), "duplicate"),
                     ("", "holds no queries")]:
        p.write_text(bad)
        with pytest.raises(InputError, match=msg):
            load_task_list(p, progs)
    with pytest.raises(InputError, match="cannot read"):
        load_task_list(tmp_path / "missing.jsonl", progs)
