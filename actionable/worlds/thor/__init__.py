"""The THOR world (ALFRED's PDDL domain and TEACh's actions, symbolic): see :mod:`.world`.

Registering (:func:`register`) imports none of the world's modules; ``ThorWorld`` is imported lazily, so the world's
own modules (``scene``, ``actions``) can import their sibling ``data`` without the package
importing them back (no import cycle).
"""


def register(registry) -> None:
    """Register this world in ``registry`` (:class:`actionable.core.registry.Registry`)."""
    registry.register(
        "thor", "actionable.worlds.thor.world:ThorWorld",
        capabilities={"planning": "actionable.worlds.thor.planning:ThorPlanning",
                      "verify": "actionable.worlds.thor.verify_adapter:ThorAdapter",
                      "continual": "actionable.worlds.thor.continual:CONTINUAL_WORLD",
                      "dataset": "actionable.worlds.thor.tasks:DATASET",
                      "goals": "actionable.worlds.thor.interpret:ThorGoals",
                      "scene_map": "actionable.worlds.thor.scene_map:ThorSceneMap"},
        default_scene="FloorPlan1",
        description="AI2-THOR kitchens, symbolic: ALFRED's PDDL domain + TEACh actions, 120 ALFRED "
                    "layouts and 79 TEACh initial states")


__all__ = ["ThorWorld"]


def __getattr__(name: str):
    if name == "ThorWorld":
        from actionable.worlds.thor.world import ThorWorld

        return ThorWorld
    raise AttributeError(f"module 'actionable.worlds.thor' has no attribute {name!r}")
