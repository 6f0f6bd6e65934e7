"""Goal-condition checker: hand-built graphs, the annotation file, and gold sanity."""

from __future__ import annotations

import json

import pytest

from actionable.core.errors import EvaluationError, InputError
from actionable.core.goals import GoalSpec, check_goals, mean_goal_results
from actionable.worlds.virtualhome.goals import goals_for_task, load_goal_annotations


def _graph(nodes, edges):
    return {"nodes": [{"id": i, "class_name": c, "states": s} for i, c, s in nodes],
            "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in edges]}


SPEC = GoalSpec.from_annotation("1_1", "Watch TV", {
    "goal": [{"id": 10, "class_name": "tv", "state": "ON"},
             {"from_id": 65, "relation_type": "FACING", "to_id": 10},
             {"from_id": 65, "relation_type": "HOLDS_RH", "to_id": 20},
             {"from_id": 65, "relation_type": "FACING", "to_id": 10}],  # duplicate, counted once
    "actions": ["LOOKAT|WATCH", "SLEEP"]})
HOUSE = [(65, "character", []), (10, "tv", ["ON"]), (11, "tv", ["OFF"]), (20, "remote", []),
         (21, "remote", [])]


def test_all_goals_met_with_lowercase_and_zero_arg_actions():
    g = _graph(HOUSE, [(65, "FACING", 10), (65, "HOLDS_RH", 20)])
    r = check_goals(SPEC, g, ["walk", "watch", "sleep"])
    assert (r.states_total, r.relations_total, r.actions_total) == (1, 2, 2)
    assert r.task_success and r.goal_condition_success == 1.0 and r.unmet == ()


def test_every_relation_goal_is_checked_not_only_the_first():
    g = _graph(HOUSE, [(65, "FACING", 10)])  # second relation (HOLDS_RH) missing
    r = check_goals(SPEC, g, ["WATCH", "SLEEP"])
    assert r.relations_met == 1 and not r.task_success
    assert r.goal_condition_success == pytest.approx(4 / 5)
    assert r.unmet == ("HOLDS_RH(65, 20)",)


def test_missing_state_and_action_hand_computed():
    g = _graph([(65, "character", []), (10, "tv", ["OFF"]), (20, "remote", [])],
               [(65, "FACING", 10), (65, "HOLDS_RH", 20)])
    r = check_goals(SPEC, g, ["LOOKAT"])  # TV off, never slept
    assert (r.states_met, r.relations_met, r.actions_met) == (0, 2, 1)
    assert r.goal_condition_success == pytest.approx(3 / 5)
    assert set(r.unmet) == {"ON(tv.10)", "did(SLEEP)"}


def test_class_match_accepts_another_instance_id_match_does_not():
    g = _graph(HOUSE, [(65, "FACING", 11), (65, "HOLDS_RH", 21)])
    g["nodes"][1]["states"] = ["OFF"]
    g["nodes"][2]["states"] = ["ON"]
    assert check_goals(SPEC, g, ["WATCH", "SLEEP"], match="id").goal_condition_success == pytest.approx(2 / 5)
    assert check_goals(SPEC, g, ["WATCH", "SLEEP"], match="class").task_success


def test_bad_inputs_raise_typed_errors(tmp_path):
    with pytest.raises(InputError, match="match must be"):
        check_goals(SPEC, _graph(HOUSE, []), [], match="fuzzy")
    with pytest.raises(InputError, match="malformed"):
        check_goals(SPEC, {"nodes": [{"class_name": "x"}], "edges": []}, [])
    with pytest.raises(InputError, match="action names or Steps"):
        check_goals(SPEC, _graph(HOUSE, []), [3])
    p = tmp_path / "g.json"
    p.write_text("{not json")
    with pytest.raises(InputError, match="not UTF-8 JSON"):
        load_goal_annotations(p)
    with pytest.raises(InputError, match="does not exist"):
        load_goal_annotations(tmp_path / "missing.json")
    p.write_text(json.dumps({"s": {"T": {"1_1": {"vh_goal": {"goal": [{"id": "x", "state": 1}]}}}}}))
    with pytest.raises(InputError, match="malformed"):
        load_goal_annotations(p)
    with pytest.raises(EvaluationError):
        mean_goal_results([])


def test_packaged_annotations_shape():
    ann = load_goal_annotations()
    assert len(ann) == 342
    assert len({s.task for s in ann.values()}) == 26
    assert [s.program_id for s in goals_for_task("brush TEETH", ann)] == ["491_2", "696_1"]
    # every kind is represented, and multi-relation programs exist (EAI checked only the first)
    assert sum(len(s.relations) for s in ann.values()) > 250
    assert any(len(s.relations) >= 3 for s in ann.values())
    assert any(a.alternatives == ("SLEEP",) for s in ann.values() for a in s.actions)


def test_shipped_final_graphs_satisfy_all_state_and_relation_goals():
    """Data-level sanity: the dataset's own final graphs meet every state/relation goal
    (action goals need the executed program: see the simulator gold test)."""
    from actionable.worlds.virtualhome.goals import _annotation_path

    root = _annotation_path(None).parents[2] / "dataset" / \
        "programs_processed_precond_nograb_morepreconds" / "init_and_final_graphs" / \
        "TrimmedTestScene1_graph" / "results_intentions_march-13-18"
    ann = load_goal_annotations()
    bad = []
    for pid, spec in ann.items():
        final = json.loads((root / f"file{pid}.json").read_text())["final_graph"]
        r = check_goals(GoalSpec(pid, spec.task, spec.states, spec.relations, ()), final, [])
        if not r.task_success:
            bad.append((pid, r.unmet))
    assert bad == []


@pytest.mark.slow
def test_gold_programs_executed_in_the_simulator_meet_all_goals():
    """Gold sanity (issue 3): every goal-annotated gold program, executed step by step in
    the evolving-graph simulator, meets all its state, relation and action goals -
    except 688_1, whose gold program is itself not executable: its step 17 GRABs the
    water glass a second time ("already grabbed"), so the simulator stops there and the
    later DRINK and the final left-hand hold never happen (FIELD-NOTES: 624_1 and 688_1
    grab twice; 624_1 has no goal annotation)."""
    from actionable.worlds.virtualhome.scene import load_program
    from actionable.worlds.virtualhome.simulator import Simulator, execute_program

    ann = load_goal_annotations()
    sim = Simulator()
    failures = {}
    for pid, spec in sorted(ann.items()):
        prog = load_program(pid)
        res = execute_program(prog, pid, sim=sim)
        r = check_goals(spec, res.final_graph, prog.steps[:res.steps_executed])
        if not r.task_success:
            failures[pid] = (res.executable, res.error, r.unmet)
    assert len(ann) == 342
    assert set(failures) == {"688_1"}, failures
    executable, error, unmet = failures["688_1"]
    assert not executable and "already grabbed" in error
    assert set(unmet) == {"HOLDS_LH(65, 1000)", "did(DRINK)"}
