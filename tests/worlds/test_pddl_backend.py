"""The patched alfred.pddl under unified-planning agrees with our interpreter (optional library)."""

import sys
from pathlib import Path

import pytest

from actionable.worlds.thor.pddl import OBSERVATION_ACTIONS, patched_domain


def test_patch_drops_observations_costs_and_declares_constants():
    d = patched_domain()
    assert all(f"(:action {a}" not in d for a in OBSERVATION_ACTIONS)
    assert "total-cost" not in d and ":action-costs" not in d
    assert "(:constants SinkBasinType" in d


def test_up_simulator_agrees_on_a_random_trajectory():
    pytest.importorskip("unified_planning")
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from bench_thor import time_up, trajectory

    traj = trajectory("FloorPlan1", 25, 0)
    assert len(traj) == 25
    assert time_up("FloorPlan1", 0, traj)["up_agrees"] == 25
