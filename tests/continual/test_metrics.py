"""SR / PS on hand-built traces."""

from __future__ import annotations

import math

import pytest

from actionable.core.continual import Instruction, Predicate
from actionable.continual.metrics import Activation, ActivationTracker, mean_ci, sr_ps
from actionable.core.continual import Skill


class FakeHouse:
    """Only what Predicate.holds reads: node states."""

    def __init__(self):
        self.states = {1: {"off"}, 2: {"closed"}}

    def states_of(self, node):
        return self.states[node]


def _instr():
    # "If tv 1 is on, switch it off"; "If tv 1 is on, close door 2"
    off = Instruction("a", (Predicate("state", 1, "on"),), (Predicate("state", 1, "off"),),
                      (Skill("switch_off", (1,)),), "tv is on", "switch off tv")
    close = Instruction("b", (Predicate("state", 1, "on"),), (Predicate("state", 2, "closed"),),
                        (Skill("close", (2,)),), "tv is on", "close door")
    return [off, close]


def test_success_failure_and_cancel_on_a_trace():
    h, tr = FakeHouse(), ActivationTracker(_instr())
    tr.observe_state(h, 0)
    assert tr.activations == []  # nothing needed yet
    h.states[1] = {"on"}; h.states[2] = {"open"}  # the house changes
    tr.observe_state(h, 1)  # both activations open at t=1
    assert [a.start for a in tr.activations] == [1, 1]
    tr.after_agent(h, 1)  # agent did nothing useful
    tr.observe_state(h, 2)
    h.states[2] = {"closed"}  # agent closes the door at step 2
    assert tr.after_agent(h, 2) == [1]
    h.states[1] = {"off"}  # the house switches the tv off before the agent did
    tr.observe_state(h, 3)
    tr.finish(4)
    out = {a.instruction: a for a in tr.activations}
    assert out[1].outcome == "success" and out[1].steps == 2  # true at 1, done during step 2
    assert out[0].outcome == "cancelled"  # goal (tv off) fulfilled by the house
    m = sr_ps(tr.activations)
    assert m["sr"] == 1.0 and m["ps"] == 2.0 and m["n_cancelled"] == 1


def test_condition_lost_is_failure_and_censored_ps():
    acts = [Activation(0, 0, 3, "success"), Activation(0, 10, 20, "failure"),
            Activation(1, 5, 9, "failure"), Activation(1, 2, 4, "cancelled")]
    m = sr_ps(acts)
    assert m["sr"] == pytest.approx(1 / 3)
    assert m["ps"] == pytest.approx((3 + 10 + 4) / 3)
    assert m["ps_success"] == 3
    assert sr_ps([])["sr"] is None


def test_open_activation_fails_at_episode_end():
    h, tr = FakeHouse(), ActivationTracker(_instr()[:1])
    h.states[1] = {"on"}
    tr.observe_state(h, 4)
    tr.finish(10)
    assert tr.activations[0].outcome == "failure" and tr.activations[0].steps == 6


def test_mean_ci():
    m, hw = mean_ci([0.5, 0.7, None, 0.6])
    assert m == pytest.approx(0.6)
    assert hw == pytest.approx(4.30 * 0.1 / math.sqrt(3))
    assert mean_ci([None]) == (None, None)
    assert mean_ci([0.4]) == (0.4, None)
