"""Eq. 11-12 value scales (issue 25 item 3): with the paper's weights (w_T = 0.01, w_R = 1) a
known-due instruction must be exploited. Raw v_T (a summed log-prob of about -12 to -17 nats)
moved the total by 0.01 x the log-prob gap, less than any exploration gain, so the agent never
carried out what it knew was due. Normalised: v_T is the LM's choice probability over the
candidates in percent (0..100), v_R the mean over queries of H (bits) x the distance gain (0..1)."""

from __future__ import annotations

import math

import pytest

from actionable.continual.agent import ExRAPAgent, ExRAPConfig
from actionable.core.continual import DynamicsConfig, Skill, Task
from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse


class TableLM:
    supports_logprobs = supports_batch = supports_score = True
    model_id = "table"

    def __init__(self, fn):
        self.fn = fn

    def score(self, prompt, continuations):
        return [self.fn(prompt, c) for c in continuations]


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.scene import load_scene
    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(period=1000))


def _tasks():
    due = Task("If the television in the dining room is off, turn it on.", "television in the dining room is off",
               (Skill("switch_on", (248,), "switch on the television in the dining room"),),
               (("television_248", "is", "off", ("on", "off")),))
    # three conditions about rooms not seen yet: exploring them is worth something
    others = [Task(f"If the light in the {r} is on, switch it off.", f"light in the {r} is on",
                   (Skill("switch_off", (n,), f"switch off the light in the {r}"),),
                   ((f"light_{n}", "is", "on", ("on", "off")),))
              for r, n in (("home office", 411), ("bedroom", 169), ("bathroom", 64))]
    return [due, *others]


def _lm():
    """Cloze answers: the TV (in view, off) is off at 0.95; the unseen lights get no LM call (the
    uniform prior). Skill scores at the magnitudes SmolLM2-135M gives (summed log-probs): the
    pending execution -12, the moves -14 to -17."""
    moves = {"go to the dining room": -14.0, "go to the home office": -15.0, "go to the bedroom": -16.0,
             "go to the bathroom": -17.0}

    def fn(prompt, c):
        if "Pending tasks" in prompt:
            return -12.0 if "switch on the television" in c else moves.get(c.strip(), -20.0)
        return {" on": math.log(0.05), " off": math.log(0.95)}.get(c, -5.0)
    return TableLM(fn)


@pytest.mark.parametrize("values,kind", [("normalised", "switch_on"), ("raw", "go")])
def test_known_due_instruction_is_exploited_only_with_normalised_values(house, values, kind):
    house.reset(seed=0)
    house.step(Skill("go", (201,)))  # into the dining room: the TV is in view, off
    obs = house.observe()
    agent = ExRAPAgent(_lm(), ExRAPConfig(values=values))
    agent.reset(_tasks(), house)
    d = agent.act(obs, 1)
    assert d.beliefs["television in the dining room is off"] > 0.9 and "1 pending" in d.why
    assert d.skill.kind == kind, d.why  # raw: exploration wins although the TV is known to be off


def test_normalised_values_are_in_range(house):
    house.reset(seed=0)
    house.step(Skill("go", (201,)))
    agent = ExRAPAgent(_lm())
    agent.reset(_tasks(), house)
    cands = list(house.navigation_skills()) + [_tasks()[0].execution[0]]
    pending = [(_tasks()[0], _tasks()[0].execution[0])]
    v_t = agent._exploit(cands, pending)
    assert sum(v_t.values()) == pytest.approx(100.0) and all(0 <= v <= 100 for v in v_t.values())
    beliefs = {t.query: 0.5 for t in _tasks()}  # maximal uncertainty everywhere
    ents = {t.query: [t.facts[0][0]] for t in _tasks()}
    v_r = agent._explore(cands, beliefs, ents, 201)
    assert all(0.0 <= v <= 1.0 for v in v_r.values()) and max(v_r.values()) > 0
