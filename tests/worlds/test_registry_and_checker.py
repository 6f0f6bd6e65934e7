"""Registry, typed errors and the environment checker over every registered world."""

import pytest

from actionable.core.errors import ConfigError, UnknownWorldError
from actionable.worlds import check_world, list_worlds, make, register
from actionable.worlds.checker import WorldCheckError, check_capabilities


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
            pytest.skip('SUMO is an optional extra: pip install -e ".[dev,driving]" torch==2.13.0')
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


@pytest.mark.parametrize("world_id", list_worlds())
def test_every_declared_capability_meets_its_protocol(world_id):
    from actionable.core.registry import spec

    if spec(world_id).extra:
        from actionable.worlds.driving.sumo import sumo_available

        if not sumo_available():
            pytest.skip('SUMO is an optional extra: pip install -e ".[dev,driving]" torch==2.13.0')
    assert check_capabilities(world_id) == [c for c in ("planning", "verify", "continual", "dataset", "goals", "scene_map")
                                            if spec(world_id).has(c)]


def test_registry_errors_name_the_missing_capability_and_who_has_it():
    from actionable.core.errors import MissingCapabilityError
    from actionable.core.registry import capability

    with pytest.raises(MissingCapabilityError) as ei:
        capability("driving", "planning")
    assert "no 'planning' capability" in str(ei.value) and "thor" in str(ei.value) and "virtualhome" in str(ei.value)
    assert ei.value.capability == "planning" and "thor" in ei.value.have


def test_register_rejects_an_unknown_capability_name():
    from actionable.core.registry import Registry

    reg = Registry(plugins=False)
    with pytest.raises(ConfigError, match="unknown capability 'plan'; capabilities are planning"):
        reg.register("toy", "x:y", capabilities={"plan": "x:y"})


def test_a_broken_entry_point_does_not_hide_the_other_worlds(monkeypatch):
    import importlib.metadata as md

    from actionable.core.errors import UnknownWorldError
    from actionable.core.registry import Registry

    class EP:
        name, value, group = "broken", "no_such_module_xyz:register", "actionable.worlds"

        def load(self):
            raise ModuleNotFoundError("No module named 'no_such_module_xyz'")

    monkeypatch.setattr(md, "entry_points", lambda group=None: [EP()] if group == "actionable.worlds" else [])
    reg = Registry()
    reg.load_plugins()
    assert {"virtualhome", "thor"} <= set(reg.list())  # the built-ins are still there
    assert reg.plugin_errors and "no_such_module_xyz" in reg.plugin_errors[0]
    with pytest.raises(UnknownWorldError, match="registered worlds"):
        reg.spec("broken")


def test_an_entry_point_registers_a_third_party_world(monkeypatch):
    import importlib.metadata as md

    from actionable.core.registry import Registry

    def register_toy(registry):
        registry.register("toy", "actionable.worlds.thor.world:ThorWorld", capabilities={
            "planning": "actionable.worlds.thor.planning:ThorPlanning"}, default_scene="FloorPlan1")

    class EP:
        name, value, group = "toy", "toy_pkg:register", "actionable.worlds"

        def load(self):
            return register_toy

    monkeypatch.setattr(md, "entry_points", lambda group=None: [EP()] if group == "actionable.worlds" else [])
    reg = Registry()
    assert "toy" in reg.list("planning")
    assert reg.capability("toy", "planning")("FloorPlan1").name == "FloorPlan1"
    assert reg.make("toy").scenes()
