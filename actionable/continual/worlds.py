"""Continual worlds: what the episode loop, the workers and the CLI need from a world.

The agents (:mod:`.agent`, :mod:`.baselines`), the TEKG, the query evaluator and
:func:`~actionable.continual.episode.run_episode` know nothing about a particular world; a
:class:`ContinualWorld` supplies the world-specific parts:

* ``make_house(scene, level)`` - the non-stationary "house" the agents act in (``rooms``,
  ``room_hops``, ``entity()``, ``reset(seed, focus)``, ``step(skill, after_skill)``, ...);
* ``sample(house, n, seed)`` / ``load(path, house)`` - instruction sets (generated / from a file);
* ``interpret(instructions, house, lm, embedder)`` - Eq. 4: the tasks the agents hold, plus a log;
* ``exclusive`` - the world's mutually exclusive state pairs for the TEKG's contradiction rule;
* ``scene`` - the default scene; ``check_scene(scene)`` fails early on an unknown one.

Worlds are looked up by name (``--env``) in one registry: ``virtualhome`` (default, VirtualHome's
:class:`~actionable.worlds.virtualhome.nonstationary.NonStationaryHouse`) and ``driving`` (Eclipse SUMO,
:data:`actionable.worlds.driving.continual.CONTINUAL_WORLD`) and ``thor`` (an ALFRED kitchen,
:data:`actionable.worlds.thor.continual.CONTINUAL_WORLD`). Specs are imported lazily, so
naming the worlds costs nothing. :func:`register_world` adds another.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

from actionable.core.errors import ConfigError

DEFAULT_WORLD = "virtualhome"


@dataclass(frozen=True)
class ContinualWorld:
    """A world the continual agents can follow standing instructions in (see the module docstring).

    ``lm_interpreter``: whether ``interpret`` uses the LM (``False``: it reads by rule whatever the
    ``--interpreter`` flag says, and no embedder is loaded). ``describe(level)``: a short phrase for
    the trace header (``changes every 6 steps``). ``step_extras(house)`` / ``episode_extras(house)``:
    optional world-specific fields added to every step record / to the episode stats.
    ``names_itself_in_runs``: episode payloads carry ``env=<name>`` (:meth:`run_fields`);
    VirtualHome's do not, so run directories written before worlds existed resume as before.
    """

    name: str
    scene: str
    make_house: Callable
    sample: Callable
    load: Callable
    interpret: Callable
    exclusive: tuple = ()
    check_scene: Callable[[str], None] = lambda scene: None
    describe: Callable[[str], str] = lambda level: level
    lm_interpreter: bool = True
    max_instructions: int = 24
    step_extras: Callable | None = None
    episode_extras: Callable | None = None
    description: str = field(default="", compare=False)
    names_itself_in_runs: bool = True

    def run_fields(self) -> dict:
        """Fields this world adds to an episode payload (``{"env": name}`` or nothing)."""
        return {"env": self.name} if self.names_itself_in_runs else {}


# ----------------------------------------------------------------------------- VirtualHome
def _vh_house(scene: str, level: str):
    from actionable.core.config import make_config
    from actionable.worlds.virtualhome.nonstationary import DynamicsConfig, NonStationaryHouse
    from actionable.worlds.virtualhome.scene import load_scene

    dyn = make_config(DynamicsConfig, level=level)  # the level is checked before the scene loads
    return NonStationaryHouse(load_scene(scene), dyn)


def _vh_sample(house, n: int, seed: int):
    from actionable.continual.instructions import sample_instructions
    return sample_instructions(house, n, seed)


def _vh_load(path, house):
    from actionable.continual.instructions import load_instructions
    return load_instructions(path, house)


def _vh_interpret(instructions, house, lm=None, embedder=None):
    from actionable.continual.interpreter import interpret
    return interpret(instructions, house, lm, embedder)


def _vh_check_scene(scene: str) -> None:
    from actionable.worlds.virtualhome.scene import load_scene
    load_scene(scene)


def _vh_describe(level: str) -> str:
    from actionable.core.config import make_config
    from actionable.worlds.virtualhome.nonstationary import DynamicsConfig
    return f"changes every {make_config(DynamicsConfig, level=level).steps_between_changes} steps"


VIRTUALHOME = ContinualWorld(
    name="virtualhome", scene="1003_2", make_house=_vh_house, sample=_vh_sample, load=_vh_load,
    interpret=_vh_interpret, exclusive=(("on", "off"), ("open", "closed")), check_scene=_vh_check_scene,
    describe=_vh_describe, lm_interpreter=True, max_instructions=24, names_itself_in_runs=False,
    description="VirtualHome's evolving graph as a non-stationary house (default scene 1003_2)")


# ----------------------------------------------------------------------------- registry
_WORLDS: dict[str, ContinualWorld | str] = {
    "virtualhome": VIRTUALHOME,
    "driving": "actionable.worlds.driving.continual:CONTINUAL_WORLD",
    "thor": "actionable.worlds.thor.continual:CONTINUAL_WORLD",
}


def register_world(name: str, world: ContinualWorld | str, replace: bool = False) -> None:
    """Register ``world`` (a :class:`ContinualWorld` or ``"module:attr"``) under ``name``.

    Raises:
        ConfigError: empty name, or already registered without ``replace``.
    """
    if not isinstance(name, str) or not name.strip():
        raise ConfigError("a continual world name is a non-empty string such as 'driving'")
    if name in _WORLDS and not replace:
        raise ConfigError(f"continual world {name!r} is already registered; pass replace=True to override it")
    _WORLDS[name] = world


def list_worlds() -> list[str]:
    """Registered names, sorted."""
    return sorted(_WORLDS)


def get_world(name: str | ContinualWorld | None = None) -> ContinualWorld:
    """The :class:`ContinualWorld` named ``name`` (``None``: VirtualHome; a spec is returned as is).

    Raises:
        ConfigError: unknown name (the message lists the registered ones).
    """
    if name is None:
        name = DEFAULT_WORLD
    if isinstance(name, ContinualWorld):
        return name
    w = _WORLDS.get(name)
    if w is None:
        raise ConfigError(f"unknown env {name!r}; choose from {', '.join(list_worlds())}")
    if isinstance(w, str):
        mod, _, attr = w.partition(":")
        w = getattr(importlib.import_module(mod), attr)
        _WORLDS[name] = w
    return w
