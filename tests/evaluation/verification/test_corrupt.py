"""Labelled error injection: labels are correct by construction (checked in the simulator)."""

import pytest

from actionable.worlds.virtualhome.scene import load_program, load_scene
from actionable.core.errors import ConfigError
from actionable.evaluation.verification.corrupt import corrupt_program
from actionable.verify.labels import ERROR_KINDS, VALID, CorruptedPlan
from actionable.verify.replay import goal_check, replay
from actionable.verify.rules import INVERSE_ACTIONS

PIDS = ["27_2", "38_1", "1003_2"]


@pytest.fixture(scope="module")
def examples(annotations):
    out = []
    for pid in PIDS:
        scene = load_scene(pid)
        out.append((corrupt_program(pid, load_program(pid), scene, goal_spec=annotations[pid], seed=1,
                                    n_errors=4), scene, annotations[pid]))
    return out


class _Task:
    def __init__(self, spec):
        self.goal_spec = spec


def _only(ex: CorruptedPlan, keep_error):
    """The gold plan with just ``keep_error`` applied."""
    steps = []
    keep_pos = set(keep_error.positions) if keep_error.category != "missing" else set()
    for i, (s, lab) in enumerate(zip(ex.corrupted.steps, ex.labels)):
        steps += [m for p, m in ex.missing if p == i and not (keep_error.category == "missing"
                                                              and m == keep_error.steps[0])]
        if lab == VALID or i in keep_pos:
            steps.append(s)
    steps += [m for p, m in ex.missing if p >= len(ex.labels) and keep_error.category != "missing"]
    return steps


def test_labels_cover_every_step_and_undoing_gives_gold(examples):
    for ex, _, _ in examples:
        assert len(ex.labels) == len(ex.corrupted)
        assert ex.restored().steps == ex.gold.steps
        assert ex.errors, f"no error could be injected into {ex.program_id}"
        assert sum(len(e.positions) for e in ex.errors if e.category != "missing") == len(ex.remove_positives)


def test_each_redundant_or_contradictory_error_removed_gives_an_executable_plan(examples):
    for ex, scene, spec in examples:
        gold_met = goal_check(_Task(spec), replay(ex.gold.steps, scene)).met
        for e in ex.errors:
            if e.category == "missing":
                continue
            with_error = _only(ex, e)
            res = replay(with_error, scene)
            assert res.executable, (ex.program_id, e.kind)  # the error alone keeps the plan executable
            assert goal_check(_Task(spec), res).met == gold_met
            assert len(with_error) == len(ex.gold) + len(e.positions)  # removing it gives back the gold plan


def test_missing_step_is_required(examples):
    seen = 0
    for ex, scene, spec in examples:
        for e in ex.errors:
            if e.category != "missing":
                continue
            seen += 1
            gold = list(ex.gold.steps)
            k = next(i for i, s in enumerate(gold) if s == e.steps[0])
            res = replay(gold[:k] + gold[k + 1:], scene)
            full = replay(gold, scene)
            assert full.executable
            assert (not res.executable) or goal_check(_Task(spec), res).met < goal_check(_Task(spec), full).met
    assert seen >= 1


def test_error_shapes(examples):
    for ex, _, _ in examples:
        for e in ex.errors:
            acts = [s.action for s in e.steps]
            if e.kind in ("toggle_pair", "open_close"):
                assert acts[0] == "WALK" and INVERSE_ACTIONS[acts[1]] == acts[2]
                assert [ex.labels[p] for p in e.positions] == ["redundant", "contradictory", "contradictory"]
            elif e.kind == "irrelevant_grab_put":
                assert acts[:2] == ["WALK", "GRAB"] and acts[2] in ("PUTBACK", "PUTIN")
                assert e.steps[1].args[0] == e.steps[2].args[0]
            elif e.kind == "repeated_step":
                assert ex.corrupted.steps[e.positions[0]] == ex.corrupted.steps[e.positions[0] - 1]
            elif e.kind == "detour_walk":
                assert acts == ["WALK"]


def test_seeded_and_reproducible(annotations):
    pid = "27_2"
    a = corrupt_program(pid, load_program(pid), pid, goal_spec=annotations[pid], seed=3)
    b = corrupt_program(pid, load_program(pid), pid, goal_spec=annotations[pid], seed=3)
    assert a.to_dict() == b.to_dict()
    assert CorruptedPlan.from_dict(a.to_dict()).to_dict() == a.to_dict()


def test_bad_arguments():
    with pytest.raises(ConfigError):
        corrupt_program("27_2", load_program("27_2"), "27_2", n_errors=0)
    with pytest.raises(ConfigError):
        corrupt_program("27_2", load_program("27_2"), "27_2", kinds=("nonsense",))
    assert set(ERROR_KINDS.values()) == {"redundant", "contradictory", "missing"}
