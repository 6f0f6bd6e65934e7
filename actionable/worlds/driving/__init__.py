"""The driving world (issue 15): Eclipse SUMO standing in for CARLA, behind the World interface.

``make("driving")`` needs the optional extra ``pip install -e ".[driving]"`` (eclipse-sumo,
libsumo, traci, sumolib 1.28.0); without it :class:`SumoMissingError` says so. Modules:
:mod:`.network` (netgenerate town + names), :mod:`.sim` (SUMO run, traffic, incidents, truth),
:mod:`.world` (skills, observation), :mod:`.continual` (the ExRAP adapter). See docs/driving.md.
"""

from actionable.worlds.driving.sumo import SumoMissingError, sumo_available


def DrivingWorld(*args, **kwargs):
    """Build :class:`actionable.worlds.driving.world.DrivingWorld` (imported lazily)."""
    from actionable.worlds.driving.world import DrivingWorld as _W

    return _W(*args, **kwargs)


__all__ = ["DrivingWorld", "SumoMissingError", "sumo_available"]
