"""Continual worlds: the ``continual`` capability in the one registry, world-supplied TEKG states,
the VirtualHome spec."""

from __future__ import annotations

import pytest

from actionable.cli import main
from actionable.continual import tekg
from actionable.continual.tekg import TEKG, exclusive_map
from actionable.continual.worlds import get_world, list_worlds
from actionable.core.continual import ContinualWorld
from actionable.core.errors import ConfigError, ContinualError
from actionable.core.registry import register
from actionable.worlds.virtualhome.continual import CONTINUAL_WORLD as VIRTUALHOME


def test_registry_names_both_worlds_and_rejects_an_unknown_one():
    assert {"virtualhome", "driving"} <= set(list_worlds())
    assert get_world() is VIRTUALHOME and get_world("virtualhome") is VIRTUALHOME
    assert get_world(VIRTUALHOME) is VIRTUALHOME
    with pytest.raises(ConfigError, match="unknown env 'mars'; choose from .*driving.*virtualhome"):
        get_world("mars")
    with pytest.raises(ConfigError, match="already registered"):
        register("virtualhome", "actionable.worlds.virtualhome.world:VirtualHomeWorld")


def test_driving_spec_loads_without_sumo_and_supplies_its_states():
    d = get_world("driving")  # importing the spec does not start (or need) SUMO
    assert isinstance(d, ContinualWorld) and d.name == "driving" and d.scene == "town"
    assert d.lm_interpreter and d.vocabulary is not None and d.max_instructions == 12
    assert ("red", "green") in d.exclusive and "light cycle" in d.describe("high")
    with pytest.raises(ConfigError):
        d.describe("extreme")


def test_tekg_uses_the_world_states_not_a_global_patch():
    before = dict(tekg.EXCLUSIVE)
    drv = TEKG(exclusive=get_world("driving").exclusive)
    drv.update([("light_x_100", "is", "green")], 0)
    drv.update([("light_x_100", "is", "red")], 1)
    assert [q.target for q in drv.about("light_x_100")] == ["red"]
    vh = TEKG()  # default: VirtualHome's on/off, open/closed only
    vh.update([("light_x_100", "is", "green")], 0)
    vh.update([("light_x_100", "is", "red")], 1)
    assert sorted(q.target for q in vh.about("light_x_100")) == ["green", "red"]
    vh.update([("tv_1", "is", "on")], 2)
    vh.update([("tv_1", "is", "off")], 3)
    assert [q.target for q in vh.about("tv_1")] == ["off"]
    assert tekg.EXCLUSIVE == before  # nothing patched at run time
    assert exclusive_map(VIRTUALHOME.exclusive) == tekg.EXCLUSIVE
    with pytest.raises(ContinualError):
        exclusive_map([("on", "on")])


def test_virtualhome_episode_through_the_spec_equals_the_default(tmp_path):
    from actionable.continual.episode import make_agent, run_episode

    def run(world):
        house = VIRTUALHOME.make_house("1003_2", "high")
        house.reset(0)
        ins = VIRTUALHOME.sample(house, 3, 0)
        res = run_episode(make_agent("oracle", None, ins), house, ins, 12, 0, world=world)
        return res.metrics, [{k: v for k, v in r.items()} for r in res.trace]

    assert run(None) == run("virtualhome")


def test_env_bad_input_is_one_error_line_exit_2(capsys):
    for cmd in (["follow", "--env", "mars", "--agent", "oracle", "--steps", "2"],
                ["eval", "continual", "--env", "mars", "--agents", "oracle", "--out", "/tmp/never-written-env"]):
        assert main(cmd) == 2, cmd
        err = capsys.readouterr().err
        assert err.startswith("error:") and err.count("\n") == 1 and "unknown world 'mars'" in err and "--env" in err, err
        assert "driving" in err and "virtualhome" in err


def test_env_driving_without_sumo_names_the_install_command(monkeypatch, capsys):
    from actionable.worlds.driving import sumo

    def missing():
        raise sumo.SumoMissingError("libsumo/sumolib")

    monkeypatch.setattr(sumo, "require_sumo", missing)
    for cmd in (["follow", "--env", "driving", "--agent", "oracle", "--steps", "2"],
                ["eval", "continual", "--env", "driving", "--agents", "oracle", "--out", "/tmp/never-written-env"]):
        assert main(cmd) == 2, cmd
        err = capsys.readouterr().err
        assert err.startswith("error:") and err.count("\n") == 1 and 'pip install -e ".[dev,driving]" torch==2.13.0' in err, err
