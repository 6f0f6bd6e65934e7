"""The worlds: plugins behind the core's World interface and capability protocols.

:func:`register_builtin` registers the built-in worlds in a registry
(:mod:`actionable.core.registry` calls it on first lookup): each world package has a
``register(registry)`` function naming its id, World factory, declared capabilities and default
scene, without importing its modules. Third-party worlds register the same way through the
``actionable.worlds`` entry-point group. See docs/worlds.md ("Add a world").

>>> from actionable.worlds import make
>>> w = make("thor", scene="FloorPlan1"); obs, info = w.reset(seed=0)
"""

from actionable.core.registry import WorldSpec, capability, list_worlds, make, register, spec
from actionable.core.world import Action, Goal, GoalResult, World, check_goals

#: the built-in world packages, in registration order
BUILTIN = ("actionable.worlds.virtualhome", "actionable.worlds.thor", "actionable.worlds.driving",
           "actionable.worlds.pddl")


def register_builtin(registry) -> None:
    """Register every built-in world in ``registry``."""
    import importlib

    for name in BUILTIN:
        importlib.import_module(name).register(registry)

__all__ = ["Action", "Goal", "GoalResult", "World", "WorldSpec", "capability", "check_goals", "check_world",
           "list_worlds", "make", "register", "register_builtin", "spec"]


def check_world(world, **kwargs):
    """See :func:`actionable.worlds.checker.check_world`."""
    from actionable.worlds.checker import check_world as _check

    return _check(world, **kwargs)
