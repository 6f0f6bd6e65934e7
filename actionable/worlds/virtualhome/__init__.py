"""VirtualHome's symbolic simulator (the evolving graph of PyPI ``virtualhome-eval``) as a world.

Modules: :mod:`.dataset` (the packaged data), :mod:`.scene` (scene graphs, the 518 programs),
:mod:`.default_scene` (the merged default house), :mod:`.simulator` (Gymnasium-style wrapper of the
evolving graph), :mod:`.resolver` (class names -> node ids), :mod:`.admissible` (the admissible
action space), :mod:`.world` (the :class:`~actionable.core.world.World`), and the capabilities:
:mod:`.planning` (affordance + rule repair, :mod:`.repair`), :mod:`.replay` (the graph replay of the
simulator judge), :mod:`.continual` (the non-stationary house of :mod:`.nonstationary` and its
instruction vocabulary, :mod:`.instructions`), :mod:`.tasks` (the goal-annotated programs,
:mod:`.goals`). Registering (:func:`register`) imports none of them.
"""


def register(registry) -> None:
    """Register this world in ``registry`` (:class:`actionable.core.registry.Registry`)."""
    registry.register(
        "virtualhome", "actionable.worlds.virtualhome.world:VirtualHomeWorld",
        capabilities={"planning": "actionable.worlds.virtualhome.planning:VirtualHomePlanning",
                      "verify": "actionable.worlds.virtualhome.replay:VirtualHomeReplay",
                      "continual": "actionable.worlds.virtualhome.continual:CONTINUAL_WORLD",
                      "dataset": "actionable.worlds.virtualhome.tasks:DATASET",
                      "goals": "actionable.worlds.virtualhome.interpret:VirtualHomeGoals",
                      "scene_map": "actionable.worlds.virtualhome.scene_map:VirtualHomeSceneMap"},
        default_scene="default", requires=("virtualhome_eval",),
        description="VirtualHome's symbolic evolving graph (TrimmedTestScene1 and the 518 program scenes)")
