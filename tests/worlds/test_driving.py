"""The driving world on a real SUMO run (skipped when the [driving] extra is not installed)."""

import pytest

from actionable.core.errors import UnknownNodeError, UnknownSceneError, WorldActionError, WorldNotResetError
from actionable.worlds.driving.sumo import SumoMissingError, sumo_available

needs_sumo = pytest.mark.skipif(not sumo_available(), reason='Eclipse SUMO not installed: pip install -e ".[dev,driving]" torch==2.13.0')


def test_missing_sumo_is_a_typed_error_naming_the_extra():
    err = SumoMissingError("libsumo")
    assert 'pip install -e ".[dev,driving]" torch==2.13.0' in str(err) and isinstance(err, ImportError)


@pytest.fixture(scope="module")
def world():
    if not sumo_available():
        pytest.skip('Eclipse SUMO not installed: pip install -e ".[dev,driving]" torch==2.13.0')
    from actionable.worlds import make
    return make("driving")


@needs_sumo
def test_checker_passes(world):
    from actionable.worlds import check_world, make
    rep = check_world(world, max_actions=20, fresh=lambda: make("driving"))
    assert {"reset-before-step", "determinism", "admissible-execute", "typed-errors", "failure-info"} <= set(rep.checks)


@needs_sumo
def test_episode_skills_and_illegal_skill(world):
    obs, info = world.reset(seed=0)
    assert info["scene"] == "town" and obs["place"] == "market"
    ok = [world.step(a)[4] for a in ("drive_to_next_junction()", "stop()", "wait()")]
    assert all(i["executed"] for i in ok) and world.observe()["halted"]
    info = world.step("slow_down()")[4]
    assert not info["executed"] and "already slow" in info["unmet_preconditions"][0]
    info = world.step("drive_to(hospital)")[4]
    assert info["executed"] and world.observe()["place"] == "hospital" and info["seconds"] > 0


@needs_sumo
def test_bad_input_errors(world):
    world.reset(seed=1)
    with pytest.raises(WorldActionError):
        world.parse("fly_away()")
    with pytest.raises(UnknownNodeError):
        world.parse("drive_to(atlantis)")
    with pytest.raises(UnknownSceneError):
        world.reset(options={"scene": "no_such_network"})


@needs_sumo
def test_step_before_reset():
    from actionable.worlds import make
    with pytest.raises(WorldNotResetError):
        make("driving").step("wait()")


@needs_sumo
def test_deterministic_under_seed(world):
    def run():
        world.reset(seed=3, options={"nonstationarity": "high"})
        for a in ("drive_to(park)", "drive_to(library)"):
            world.step(a)
        return world.state_key(), world.state["lights"]
    assert run() == run()


@needs_sumo
def test_oracle_episode_scores_sr_ps():
    from actionable.continual.episode import make_agent
    from actionable.worlds.driving.continual import DrivingHouse, sample_driving_instructions
    from actionable.continual.episode import run_episode
    from actionable.worlds.driving.continual import CONTINUAL_WORLD
    from actionable.worlds.driving.world import DrivingWorld

    # high: with the minute-scale light cycles (sim.LEVELS) ten oracle steps at medium may see no activation
    house = DrivingHouse(DrivingWorld(), "high")
    ins = sample_driving_instructions(house, 3, 0)
    assert all(i.text.startswith(("If", "When", "Whenever")) for i in ins)
    res = run_episode(make_agent("oracle", None, ins), house, ins, 10, 0, world=CONTINUAL_WORLD)
    m = res.metrics
    assert m["n_success"] + m["n_failure"] > 0 and m["sr"] is not None and m["ps"] >= 1
    assert any(f[0] == "agent" for f in house.observe().facts)
