"""The worlds: plugins behind the core's World interface and capability protocols.

Importing this package registers the built-in worlds in the one registry
(:mod:`actionable.core.registry`); each world package registers itself in its ``__init__``
(its id, World factory, declared capabilities and default scene) without importing its modules.
Third-party worlds register through the ``actionable.worlds`` entry-point group. See
docs/worlds.md ("Add a world").

>>> from actionable.worlds import make
>>> w = make("thor", scene="FloorPlan1"); obs, info = w.reset(seed=0)
"""

from actionable.core.registry import WorldSpec, capability, list_worlds, make, register, spec
from actionable.core.world import Action, Goal, GoalResult, World, check_goals
from actionable.worlds import driving, thor, virtualhome  # noqa: F401  (each registers its world)

__all__ = ["Action", "Goal", "GoalResult", "World", "WorldSpec", "capability", "check_goals", "check_world",
           "list_worlds", "make", "register", "spec"]


def check_world(world, **kwargs):
    """See :func:`actionable.worlds.checker.check_world`."""
    from actionable.worlds.checker import check_world as _check

    return _check(world, **kwargs)
