"""The continual worlds, as the episode loop, the workers and the CLI reach them.

A world offers continual instruction following by declaring the ``continual`` capability in the
one registry (:mod:`actionable.core.registry`): a :class:`~actionable.core.continual.ContinualWorld`
(its house, instruction sampler and reader, and either its own rule reader or the instruction
vocabulary that ExRAP's LM interpreter reads through). Nothing here names a world.
"""

from __future__ import annotations

from actionable.core.continual import ContinualWorld
from actionable.core.defaults import WORLD as DEFAULT_WORLD
from actionable.core.errors import ConfigError


def list_worlds() -> list[str]:
    """The registered worlds with the ``continual`` capability, sorted."""
    from actionable.core.registry import list_worlds as _list

    return _list("continual")


def get_world(name: str | ContinualWorld | None = None) -> ContinualWorld:
    """The :class:`ContinualWorld` of world ``name`` (``None``: the default world; a spec is
    returned as it is).

    Raises:
        ConfigError: an unknown world, or one without the ``continual`` capability (the message
            lists those that have it).
    """
    if isinstance(name, ContinualWorld):
        return name
    from actionable.core.registry import list_worlds as _all
    from actionable.core.registry import spec

    name = name or DEFAULT_WORLD
    if name not in _all("continual"):
        raise ConfigError(f"unknown env {name!r}; choose from {', '.join(list_worlds())}")
    return spec(name).capability("continual")


def read_tasks(world: ContinualWorld, instructions, house, lm=None, embedder=None):
    """The tasks the agents hold (ExRAP Eq. 4) and a log record per instruction: the world's own
    reader when it has one, else :func:`actionable.continual.interpreter.interpret` through the
    world's instruction vocabulary (the LM only where ``world.lm_interpreter``)."""
    if world.interpret is not None:
        return world.interpret(instructions, house, lm, embedder)
    from actionable.continual.interpreter import interpret

    return interpret(instructions, world.vocabulary(house), lm if world.lm_interpreter else None, embedder)


__all__ = ["DEFAULT_WORLD", "get_world", "list_worlds", "read_tasks"]
