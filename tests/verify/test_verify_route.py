"""`actionable verify --env` picks its judge through the registries (actionable/verify/worldsim.py
``verify_route``), not by a world's name: a world with a verification adapter, a world whose class
declares the scene-graph judge, and a registered world with neither (a typed error naming those that
verify)."""

from __future__ import annotations

import pytest

from actionable.core.errors import ConfigError
from actionable.verify.worldsim import verify_route


def test_routes_come_from_the_registries():
    assert verify_route("thor") == "adapter"
    assert verify_route("virtualhome") == "graph"


def test_a_world_without_a_judge_and_an_unknown_world_are_config_errors():
    with pytest.raises(ConfigError, match=r"--env driving: no plan-verification adapter; choose one of pddl, thor, virtualhome"):
        verify_route("driving")
    with pytest.raises(ConfigError, match=r"unknown world 'mars'"):
        verify_route("mars")


class _Toy:  # a world class with no judge
    pass


class _ToyWithAdapter:
    @classmethod
    def verify_adapter(cls, scene, task=None):
        return ("toy adapter", scene, task)


def test_a_newly_registered_world_with_an_adapter_is_routed_to_it(monkeypatch):
    from actionable.verify.worldsim import make_adapter
    from actionable.core import registry

    monkeypatch.setitem(registry.REGISTRY._specs, "toy", registry.WorldSpec("toy", _Toy))
    with pytest.raises(ConfigError, match="toy"):
        verify_route("toy")
    with pytest.raises(ConfigError, match=r"no plan-verification adapter for world 'toy'; choose one of pddl, thor"):
        make_adapter("toy", "s")
    monkeypatch.setitem(registry.REGISTRY._specs, "toy", registry.WorldSpec(
        "toy", _Toy, capabilities={"verify": _ToyWithAdapter.verify_adapter}))
    assert verify_route("toy") == "adapter"
    assert make_adapter("toy", "s", "Make coffee") == ("toy adapter", "s", "Make coffee")


def test_cli_verify_env_without_a_judge_exits_2_with_one_error_line(tmp_path, capsys):
    from actionable.cli import main

    plan = tmp_path / "plan.txt"
    plan.write_text("# task: Turn on TV\n[WALK] <tv> (1)\n", encoding="utf-8")
    assert main(["verify", str(plan), "--env", "driving", "--judge", "sim", "--scene", "x"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --env driving: no plan-verification adapter") and "Traceback" not in err
