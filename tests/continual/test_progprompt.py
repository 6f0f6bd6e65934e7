"""ProgPrompt-style baseline (Singh et al. 2023): program prompt, scored lines, assertion feedback."""

from __future__ import annotations

import math

import pytest

from actionable.continual.baselines import ProgPromptAgent
from actionable.continual.episode import make_agent, run_episode
from actionable.core.continual import DynamicsConfig, Observation, Skill, Task
from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse


class LineLM:
    """Scores program lines by a preference table (unlisted lines get -9)."""

    supports_logprobs = supports_batch = supports_score = True
    model_id = "lines"

    def __init__(self, prefer: dict[str, float]):
        self.prefer, self.prompts, self.lines = prefer, [], []

    def score(self, prompt, continuations):
        self.prompts.append(prompt)
        self.lines.append(list(continuations))
        return [self.prefer.get(c, -9.0) for c in continuations]

    def generate(self, prompt, params):  # pragma: no cover - not used
        raise AssertionError("generate not expected")


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.scene import load_scene
    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(period=1000))


TV = 248  # the dining room television of scene 1003_2


def _task():
    return Task("if the television in the dining room is on, switch it off",
                "television in the dining room is on",
                (Skill("switch_off", (TV,), "switch off the dining_room television"),))


def test_prompt_is_a_program_and_lines_are_calls(house):
    obs = house.reset(seed=0)
    lm = LineLM({})
    ag = ProgPromptAgent(lm)
    ag.reset([_task()], house)
    ag.act(obs, 0)
    p = lm.prompts[0]
    assert p.startswith("from actions import ") and "go_to" in p and "switch_off" in p
    assert "def follow_standing_instructions():\n    # 1: if the television in the dining room is on" in p
    assert "assert(" in p and p.endswith("\n    ")
    assert f"switch_off('{house.entity(TV)}')" in lm.lines[0]
    assert all(ln.startswith("go_to('") for ln in lm.lines[0] if "switch_off" not in ln)


def test_a_failed_assertion_runs_the_recovery_not_the_line(house):
    obs = house.reset(seed=0)
    assert house.rooms[house.static_room[TV]] != obs.room  # the television is not in view
    line = f"switch_off('{house.entity(TV)}')"
    lm = LineLM({line: -0.1})
    ag = ProgPromptAgent(lm)
    ag.reset([_task()], house)
    d = ag.act(obs, 0)
    assert d.skill.kind == "go" and d.skill.args == (house.static_room[TV],), d.why
    assert "assert(" in d.why and "failed" in d.why and ag.stats["assert_recoveries"] == 1
    # the executed line is what the next prompt's body holds
    obs2 = house.step(d.skill).observation
    d2 = ag.act(obs2, 1)
    assert "go_to('" in lm.prompts[1].split("def follow_standing_instructions():")[-1]
    tv_on = (house.entity(TV), "is", "on") in set(obs2.facts)
    assert (d2.skill.kind == "switch_off") == tv_on, d2.why


def test_a_line_whose_effect_is_observed_is_skipped(house):
    house.reset(seed=0)
    room = house.static_room[TV]
    obs = house.step(Skill("go", (room,), "go")).observation
    ent = house.entity(TV)
    facts = [f for f in obs.facts if not (f[0] == ent and f[1] == "is")] + [(ent, "is", "off")]
    seen = Observation(obs.t, obs.room, facts)
    lm = LineLM({f"switch_off('{ent}')": -0.1})
    ag = ProgPromptAgent(lm)
    ag.reset([_task()], house)
    d = ag.act(seen, 1)
    assert d.skill.kind != "switch_off", d.why  # assert(not already off) failed
    assert d.skill.kind in ("go", "wait")


@pytest.mark.parametrize("level", ["low", "high"])
def test_progprompt_runs_long_episodes_by_name(house, level):
    from actionable.lm.scripted import ScriptedLM
    from actionable.worlds.virtualhome.instructions import sample_instructions

    h = NonStationaryHouse(house._init_dict, DynamicsConfig(level=level))
    ins = sample_instructions(h, 3, seed=3)
    res = run_episode(make_agent("progprompt", ScriptedLM(), ins), h, ins, steps=300, seed=3)
    assert len(res.trace) == 300 and res.stats["lm_calls"] == 300
    assert len({r["room"] for r in res.trace}) >= 2  # it moves (recoveries and go_to lines)
    assert sum(r["executed"] for r in res.trace) >= 150
    assert res.metrics["sr"] is None or 0.0 <= res.metrics["sr"] <= 1.0
    assert math.isfinite(res.stats["seconds"])
