"""Registry of worlds: ``make(id, **kwargs)``, ``register(id, factory)``, ``list_worlds()``.

Built in: ``"virtualhome"`` (VirtualHome's evolving graph, :mod:`.virtualhome`) and ``"thor"``
(ALFRED/TEACh kitchen world, :mod:`.thor`). Factories are imported lazily, so listing worlds
costs nothing.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from actionable.errors import ConfigError, UnknownWorldError
from actionable.worlds.base import World


@dataclass(frozen=True)
class WorldSpec:
    """A registered world: ``id``, ``factory`` (a callable or ``"module:attr"``), default
    ``kwargs`` and a one-line ``description``."""

    id: str
    factory: Callable[..., World] | str
    kwargs: dict = field(default_factory=dict)
    description: str = ""

    def load(self) -> Callable[..., World]:
        if callable(self.factory):
            return self.factory
        mod, _, attr = self.factory.partition(":")
        return getattr(importlib.import_module(mod), attr)


_REGISTRY: dict[str, WorldSpec] = {}


def register(id: str, factory: Callable[..., World] | str, *, kwargs: dict | None = None,
             description: str = "", replace: bool = False) -> WorldSpec:
    """Register a world under ``id``.

    Raises:
        ConfigError: ``id`` is empty or already registered (and ``replace`` is False).
    """
    if not isinstance(id, str) or not id.strip():
        raise ConfigError("a world id is a non-empty string such as 'thor'")
    if id in _REGISTRY and not replace:
        raise ConfigError(f"world {id!r} is already registered; pass replace=True to override it")
    spec = WorldSpec(id, factory, dict(kwargs or {}), description)
    _REGISTRY[id] = spec
    return spec


def make(id: str, **kwargs: Any) -> World:
    """Build the world registered as ``id`` (keyword arguments override the spec's defaults).

    ``make("thor", scene="teach:<game>")``; ``make("thor", floor_plan="FloorPlan1")`` is an alias.

    Raises:
        UnknownWorldError: no such id (its ``known`` attribute lists the registered ids).
    """
    spec = _REGISTRY.get(id)
    if spec is None:
        err = UnknownWorldError(f"unknown world {id!r}; registered worlds: {', '.join(list_worlds()) or 'none'}")
        err.known = list_worlds()
        raise err
    args = {**spec.kwargs, **kwargs}
    if "floor_plan" in args:
        args["scene"] = args.pop("floor_plan")
    world = spec.load()(**args)
    world.id = id
    return world


def list_worlds() -> list[str]:
    """Registered world ids, sorted."""
    return sorted(_REGISTRY)


def spec(id: str) -> WorldSpec:
    """The :class:`WorldSpec` of ``id`` (raises UnknownWorldError)."""
    if id not in _REGISTRY:
        raise UnknownWorldError(f"unknown world {id!r}; registered worlds: {', '.join(list_worlds())}")
    return _REGISTRY[id]


register("virtualhome", "actionable.worlds.virtualhome:VirtualHomeWorld",
         description="VirtualHome's symbolic evolving graph (TrimmedTestScene1 and the 518 program scenes)")
register("thor", "actionable.worlds.thor.world:ThorWorld",
         description="AI2-THOR kitchens, symbolic: ALFRED's PDDL domain + TEACh actions, 120 ALFRED "
                     "layouts and 79 TEACh initial states")
register("driving", "actionable.worlds.driving.world:DrivingWorld",
         description="Eclipse SUMO town (optional extra [driving]): ego vehicle skills, traffic lights, "
                     "pedestrians, incidents; SUMO standing in for CARLA")
register("pddl", "actionable.worlds.pddl.world:PddlWorld",
         description="any PDDL domain + problem run by unified-planning (shipped: Blocksworld, a small household; "
                     "yours: --scene domain.pddl::problem.pddl)")
