"""Eq. 11 counts looks that missed (issue 25, the driving loop): a target the agent stood in the
believed room of without seeing it pulls less until the look goes stale (staleness_tau). Here a
three-room corridor a - b - c: the lamp placed in b cannot be seen from b (as a street's left lane
cannot be seen from a junction reached by another street); the lamp in c and the lamp in a can be
seen. Before the fix every other step went to b, where nothing can be seen (a-b-c-b-a-b-...)."""

from __future__ import annotations

import math

import pytest

from actionable.continual.agent import ExRAPAgent, ExRAPConfig
from actionable.core.continual import Observation, Skill, Task


class ReaderLM:
    supports_logprobs = supports_batch = supports_score = True
    model_id = "reader"

    def score(self, prompt, continuations):
        import re
        m = re.search(r"\((\w+), is,$", prompt)
        seen = re.findall(rf"{m.group(1)}, is, (\w+)", prompt) if m else []
        return [math.log(0.95) if seen and c.strip() == seen[-1] else (math.log(0.05) if seen else -1.0)
                for c in continuations]


class Corridor:
    """Rooms a(1) - b(2) - c(3); lamps 10 (in b, never visible), 20 (in c), 30 (in a)."""

    rooms = {1: "a", 2: "b", 3: "c"}
    room_hops = {1: {1: 0, 2: 1, 3: 2}, 2: {1: 1, 2: 0, 3: 1}, 3: {1: 2, 2: 1, 3: 0}}
    static_room = {10: 2, 20: 3, 30: 1}

    def __init__(self):
        self.here = 1

    def entity(self, n):
        return self.rooms.get(n) or f"lamp_{n}"

    def navigation_skills(self):
        return [Skill("go", (r,), f"go to the {n}") for r, n in sorted(self.rooms.items())]

    def observe(self, t):
        room = self.rooms[self.here]
        facts = [("agent", "in_room", room)]
        for n, r in ((20, 3), (30, 1)):
            if r == self.here:
                facts += [(f"lamp_{n}", "is", "off"), (f"lamp_{n}", "in_room", room)]
        return Observation(t, room, facts)


def _tasks():
    return [Task(f"If lamp {n} is on, switch it off.", f"lamp {n} is on",
                 (Skill("switch_off", (n,), f"switch off lamp {n}"),), ((f"lamp_{n}", "is", "on", ("on", "off")),))
            for n in (10, 20, 30)]


def _walk(looks: str, steps: int = 20) -> list[str]:
    house = Corridor()
    agent = ExRAPAgent(ReaderLM(), ExRAPConfig(looks=looks, staleness_tau=4.0))
    agent.reset(_tasks(), house)
    rooms = []
    for t in range(steps):
        obs = house.observe(t)
        rooms.append(obs.room)
        d = agent.act(obs, t)
        assert d.skill.kind == "go"
        house.here = d.skill.args[0]
    return rooms


def test_a_missed_look_lowers_the_pull_of_its_room():
    house = Corridor()
    agent = ExRAPAgent(ReaderLM(), ExRAPConfig())
    agent.reset(_tasks(), house)
    house.here = 2
    agent.act(house.observe(0), 0)  # in b, lamp 10 not seen
    assert agent._missed == {"lamp_10": 0}
    assert agent._observability(["lamp_10"], 1) == pytest.approx(1 - math.exp(-1 / 12))
    assert agent._observability(["lamp_10"], 100) == pytest.approx(1.0, abs=1e-3)
    assert agent._observability(["lamp_20"], 1) == 1.0
    house.here = 3
    agent.act(house.observe(1), 1)
    assert "lamp_20" not in agent._missed  # seen where it was believed to be


def test_the_agent_spends_its_steps_where_it_can_see():
    counted = _walk("counted")
    assert counted.count("b") <= 5 and counted.count("a") >= 6 and counted.count("c") >= 6, counted


def test_looks_ignored_keeps_the_old_walk():
    old = _walk("ignored")
    assert old[1::2] == ["b"] * 10, old  # every other step in the room where nothing can be seen
