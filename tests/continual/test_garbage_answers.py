"""Garbage skill text from an LM is skipped and counted, and never loops (issue 25, bad input).

ZSP is the one continual agent that *generates* its step; the others score candidate skills. An
answer with no word of any skill used to become the first candidate (a walk) every step."""

from __future__ import annotations

import pytest


@pytest.fixture()
def house():
    from actionable.core.continual import DynamicsConfig
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.worlds.virtualhome.scene import load_scene

    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(level="high"))


GARBAGE = ["", "%%%", "qwzx blorp", "12345", "\u2603\u2603", " ...", "<|endoftext|>", "ok ok"]


def test_zsp_skips_and_counts_unreadable_answers_for_300_steps(house):
    from actionable.continual.episode import make_agent, run_episode
    from actionable.lm.scripted import ScriptedLM
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=0)
    lm = ScriptedLM([GARBAGE[i % len(GARBAGE)] for i in range(300)])
    res = run_episode(make_agent("zsp", lm, ins), house, ins, steps=300, seed=0, lm=None)
    assert len(res.trace) == 300
    assert res.stats["unreadable_answers"] == 300
    assert all(rec["skill"] == "wait" and "no skill in it, skipped" in rec["why"] for rec in res.trace)


def test_zsp_maps_a_readable_answer_to_the_closest_skill(house):
    from actionable.continual.episode import make_agent, run_episode
    from actionable.lm.scripted import ScriptedLM
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=0)
    res = run_episode(make_agent("zsp", ScriptedLM(["go to the bedroom", "%%%"]), ins), house, ins,
                      steps=2, seed=0, lm=None)
    assert res.trace[0]["skill"] == "go to the bedroom" and "closest skill" in res.trace[0]["why"]
    assert res.trace[1]["skill"] == "wait" and res.stats["unreadable_answers"] == 1
