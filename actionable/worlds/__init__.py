"""Worlds behind one Gymnasium-style interface (see :mod:`.base`, docs/worlds.md).

>>> from actionable.worlds import make
>>> w = make("thor", scene="FloorPlan1"); obs, info = w.reset(seed=0)
"""

from actionable.core.world import Action, Goal, GoalResult, World, check_goals
from actionable.worlds.registry import WorldSpec, list_worlds, make, register

__all__ = ["Action", "Goal", "GoalResult", "World", "WorldSpec", "check_goals", "list_worlds", "make",
           "register", "check_world"]


def check_world(world, **kwargs):
    """See :func:`actionable.worlds.checker.check_world`."""
    from actionable.worlds.checker import check_world as _check

    return _check(world, **kwargs)
