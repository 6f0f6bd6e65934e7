"""Non-stationary house: seeded dynamics, partial observability, skills via the simulator."""

from __future__ import annotations

import pytest

from actionable.worlds.virtualhome.nonstationary import CHARACTER_ID, NonStationaryHouse
from actionable.core.continual import PERIODS, DynamicsConfig, Skill
from actionable.core.errors import SceneError, SimulatorError


@pytest.fixture(scope="module")
def scene():
    from actionable.worlds.virtualhome.scene import load_scene
    return load_scene("1003_2")


def _roll(house: NonStationaryHouse, seed: int, skills, focus=None):
    obs = [house.reset(seed=seed, focus=focus).facts]
    changes = []
    for s in skills:
        r = house.step(s)
        obs.append(r.observation.facts)
        changes.append(r.changed)
    return obs, changes


def test_same_seed_replays_same_dynamics(scene):
    house = NonStationaryHouse(scene, DynamicsConfig(level="high"))
    skills = [Skill("wait")] * 24 + [Skill("go", (201,))] * 8
    a = _roll(house, 3, skills, focus={248, 229})
    b = _roll(house, 3, skills, focus={248, 229})
    c = _roll(house, 4, skills, focus={248, 229})
    assert a == b
    assert a[1] != c[1]
    assert sum(bool(x) for x in a[1]) >= 3  # the house really changed


def test_changes_happen_exactly_every_period(scene):
    for level, period in PERIODS.items():
        house = NonStationaryHouse(scene, DynamicsConfig(level=level, changes_per_event=5))
        _, changes = _roll(house, 0, [Skill("wait")] * 24)
        for t, ch in enumerate(changes, start=1):
            if t % period:
                assert ch == [], (level, t)
        assert any(changes[t - 1] for t in range(period, 25, period))


def test_partial_observability_shows_only_current_room(scene):
    house = NonStationaryHouse(scene)
    obs = house.reset(seed=0)
    here = obs.room
    ents = {s for s, r, o in obs.facts if r == "in_room" and s != "agent"}
    assert ents
    for s, r, o in obs.facts:
        if r == "in_room":
            assert o == here
    full = house.observe(full=True)
    assert len(full.facts) > len(obs.facts)
    assert ("agent", "in_room", here) in obs.facts


def test_skills_execute_in_simulator_and_invalid_ones_give_reason(scene):
    house = NonStationaryHouse(scene, DynamicsConfig(period=1000))
    house.reset(seed=0)
    r = house.step(Skill("switch_on", (248,)))
    assert r.executed and r.error is None
    assert r.actions == ["[WALK] <television> (248)", "[SWITCHON] <television> (248)"]
    assert "on" in house.states_of(248)
    r2 = house.step(Skill("switch_on", (248,)))  # already on: the simulator refuses
    assert not r2.executed and "not off" in r2.error
    r3 = house.step(Skill("move_onto", (2009, 226)))
    assert r3.executed and house.placement(2009) == ("on", 226)
    r4 = house.step(Skill("put_on", (2011, 104)))  # not holding the pencil
    assert not r4.executed and r4.error
    assert house.room_of(CHARACTER_ID) == 67  # walked to the desk in the bedroom


def test_caller_bugs_raise_typed_errors(scene):
    house = NonStationaryHouse(scene)
    with pytest.raises(SimulatorError, match="before reset"):
        house.step(Skill("wait"))
    house.reset(0)
    with pytest.raises(SimulatorError, match="unknown skill"):
        house.step(Skill("teleport", (1,)))
    with pytest.raises(SimulatorError, match="absent"):
        house.step(Skill("go", (999999,)))
    with pytest.raises(SimulatorError, match="takes 2"):
        house.step(Skill("put_on", (2011,)))
    with pytest.raises(SceneError):
        NonStationaryHouse({"nodes": [], "edges": []})


def test_relocation_keeps_one_place_per_object(scene):
    house = NonStationaryHouse(scene, DynamicsConfig(level="high", changes_per_event=10, focus_prob=1.0))
    house.reset(seed=5, focus=set(house.movables))
    for _ in range(40):
        house.step(Skill("wait"))
    for m in house.movables:
        facts = house.facts_about(m)
        assert sum(r in ("on", "inside") for _, r, _ in facts) <= 1
        assert sum(r == "in_room" for _, r, _ in facts) == 1
