"""Registry, typed errors and the environment checker over every registered world."""

import pytest

from actionable.core.errors import ConfigError, UnknownWorldError
from actionable.worlds import check_world, list_worlds, make, register
from actionable.worlds.checker import WorldCheckError


def test_builtin_worlds_registered():
    assert {"thor", "virtualhome"} <= set(list_worlds())


def test_unknown_world_is_typed():
    with pytest.raises(UnknownWorldError) as ei:
        make("carla")
    assert isinstance(ei.value, ConfigError) and "thor" in ei.value.known


def test_register_twice_refused():
    with pytest.raises(ConfigError):
        register("thor", lambda: None)


def test_floor_plan_alias():
    w = make("thor", floor_plan="FloorPlan2")
    _, info = w.reset()
    assert info["scene"] == "FloorPlan2"


@pytest.mark.parametrize("world_id", list_worlds())
def test_checker_passes_on_every_registered_world(world_id):
    if world_id == "driving":
        from actionable.worlds.driving.sumo import sumo_available

        if not sumo_available():
            pytest.skip('SUMO is an optional extra: pip install -e ".[driving]"')
    w = make(world_id)
    rep = check_world(w, max_actions=8 if world_id == "virtualhome" else 40, fresh=lambda: make(world_id))
    assert rep.n_executed > 0
    assert {"reset-before-step", "determinism", "admissible-execute", "typed-errors"} <= set(rep.checks)


def test_checker_on_teach_scene():
    w = make("thor")
    rep = check_world(w, options={"scene": "teach:01ced2f37b0b68f6_0042"}, fresh=lambda: make("thor"))
    assert rep.scene == "teach:01ced2f37b0b68f6_0042"


def test_checker_catches_a_broken_world():
    class Broken(type(make("thor"))):
        def step(self, action):  # claims success without acting
            obs, r, te, tr, info = super().step(action)
            info["executed"] = False
            info["error"] = "nope"
            return obs, r, te, tr, info

    with pytest.raises(WorldCheckError):
        check_world(Broken(), fresh=Broken)
