"""VirtualHome's ``dataset`` capability: the 518 packaged programs, 342 with EAI's goal annotations.

:data:`DATASET` is a :class:`~actionable.core.dataset.TaskDataset`: program ids (``"1003_2"``),
the gold programs (task name, description, steps with node ids; :func:`.scene.load_program`),
each program's own initial scene (the program id, as :func:`.scene.load_scene` reads it), the goal
annotations (:func:`.goals.load_goal_annotations`) and the programs as examples. The sequencing
benchmark and the verification corpora read VirtualHome through it.
"""

from __future__ import annotations

import functools

from actionable.core.dataset import Example, example_from_program
from actionable.core.program import Program


class VirtualHomeTasks:
    """The packaged VirtualHome programs (see the module doc)."""

    world = "virtualhome"

    def program_ids(self) -> list[str]:
        from actionable.worlds.virtualhome.scene import list_program_ids

        return list(list_program_ids())

    def program(self, program_id: str) -> Program:
        """Raises SceneError for an unknown id (the message names close ids)."""
        from actionable.worlds.virtualhome.scene import load_program

        return load_program(program_id)

    def scene(self, program_id: str) -> str:
        """The program's own initial scene: its id (``load_scene(program_id)``)."""
        return program_id

    def goal_annotations(self, path=None) -> dict:
        """``{program id: GoalSpec}`` (342); ``path``: another annotation file in EAI's layout
        (:func:`.goals.load_goal_annotations`; raises InputError)."""
        if path is not None:
            from actionable.worlds.virtualhome.goals import load_goal_annotations

            return load_goal_annotations(path)
        return dict(_annotations())

    def examples(self) -> list[Example]:
        return list(_examples())


@functools.lru_cache(maxsize=1)
def _annotations() -> dict:
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()


@functools.lru_cache(maxsize=1)
def _examples() -> tuple[Example, ...]:
    from actionable.worlds.virtualhome.scene import list_program_ids, load_program

    return tuple(example_from_program(load_program(pid), pid) for pid in list_program_ids())


#: the capability object registered for ``virtualhome``
DATASET = VirtualHomeTasks()

__all__ = ["DATASET", "VirtualHomeTasks"]
