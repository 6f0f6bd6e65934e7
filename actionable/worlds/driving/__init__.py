"""The driving world (issue 15): Eclipse SUMO standing in for CARLA, behind the World interface.

``make("driving")`` needs the optional extra ``pip install -e ".[dev,driving]" torch==2.13.0``
(eclipse-sumo, libsumo, traci, sumolib 1.28.0); without it :class:`SumoMissingError` says so.
Modules: :mod:`.network` (netgenerate town + names), :mod:`.sim` (SUMO run, traffic, incidents,
truth), :mod:`.world` (skills, observation), :mod:`.continual` (the ExRAP house). See
docs/driving.md. Registering (:func:`register`) imports none of them (SUMO is large and optional).
"""


def register(registry) -> None:
    """Register this world in ``registry`` (:class:`actionable.core.registry.Registry`)."""
    registry.register(
        "driving", "actionable.worlds.driving.world:DrivingWorld",
        capabilities={"continual": "actionable.worlds.driving.continual:CONTINUAL_WORLD",
                      "scene_map": "actionable.worlds.driving.scene_map:DrivingSceneMap"},
        default_scene="town", extra="driving", requires=("libsumo", "traci", "sumolib"),
        description="Eclipse SUMO town (optional extra [driving]): ego vehicle skills, traffic lights, "
                    "pedestrians, incidents; SUMO standing in for CARLA")


def sumo_available() -> bool:
    """Whether Eclipse SUMO (the ``driving`` extra) is installed (:func:`.sumo.sumo_available`)."""
    from actionable.worlds.driving.sumo import sumo_available as _available

    return _available()


__all__ = ["sumo_available"]
