"""The datasets the benchmarks read, through the worlds' ``dataset`` capability.

:func:`dataset` is the one door: the sequencing benchmark, the paper's table, the splits and the
verification corpora take programs, scenes and goal annotations from a world's
:class:`~actionable.core.dataset.TaskDataset` (VirtualHome's 518 packaged programs by default), and
never import a world package.
"""

from __future__ import annotations

from actionable.core.dataset import TaskDataset


def dataset(world: str | None = None) -> TaskDataset:
    """World ``world``'s dataset (default: the default world, :data:`actionable.core.defaults.WORLD`).

    Raises:
        UnknownWorldError, MissingCapabilityError: no such world, or it declares no dataset.
    """
    from actionable.core.defaults import WORLD
    from actionable.core.registry import capability

    return capability(world or WORLD, "dataset")





def program(program_id: str, world: str | None = None):
    """The gold :class:`~actionable.core.program.Program` of ``program_id`` (raises SceneError)."""
    return dataset(world).program(program_id)


def program_ids(world: str | None = None) -> list[str]:
    """Every program id of the world's dataset, sorted like the dataset."""
    return dataset(world).program_ids()


def goal_annotations(world: str | None = None, path=None) -> dict:
    """``{program id: GoalSpec}`` of the world's dataset (``path``: another annotation file)."""
    return dataset(world).goal_annotations(path)


def scene_domain(program_id: str, world: str | None = None):
    """The planning domain of the program's own initial scene (the world's ``planning``
    capability on ``dataset.scene(program_id)``)."""
    from actionable.core.defaults import WORLD
    from actionable.core.registry import planning_domain

    return planning_domain(world or WORLD, dataset(world).scene(program_id))


def scene_graph(program_id: str, world: str | None = None):
    """The program's own initial scene as the world's scene-graph replay loads it (its ``verify``
    capability, a :class:`~actionable.core.replay.GraphReplay`)."""
    from actionable.verify.replay import graph_replay

    return graph_replay(world).load_scene(dataset(world).scene(program_id))

__all__ = ["dataset", "goal_annotations", "program", "program_ids", "scene_domain", "scene_graph"]
