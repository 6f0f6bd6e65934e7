"""The THOR world's ``dataset`` capability: TEACh's demonstrations.

:data:`DATASET` (a :class:`~actionable.core.dataset.TaskDataset`) gives the 79 TEACh episodes
whose initial states the world has as programs (:func:`.bank.episode_program`, ids = TEACh game
ids, scene ``teach:<id>``), the TEACh example bank, and -- for the verification benchmark
(:mod:`actionable.evaluation.verification.teach`) -- the 100 labelled demonstrations of arXiv
2509.02761 (:mod:`.teach_demos`). TEACh has no EAI-style goal annotations
(``goal_annotations()`` is empty); the kitchen's goal predicates are :mod:`.goals`.
"""

from __future__ import annotations

from actionable.core.dataset import Example
from actionable.core.program import Program


class TeachTasks:
    """TEACh's episodes in the THOR kitchen (see the module doc)."""

    world = "thor"

    def program_ids(self) -> list[str]:
        from actionable.worlds.thor import data

        return sorted(data.teach_episodes())

    def program(self, program_id: str) -> Program:
        """The episode's demonstration as class-level steps (task = its description). Raises
        UnknownSceneError for an unknown id."""
        from actionable.core.errors import UnknownSceneError
        from actionable.core.program import parse_text_step
        from actionable.worlds.thor import data
        from actionable.worlds.thor.bank import episode_program

        ep = data.teach_episodes().get(program_id)
        if ep is None:
            raise UnknownSceneError(f"no TEACh episode {program_id!r} in the THOR world")
        steps = tuple(parse_text_step(s) for s in episode_program(ep))
        return Program(steps, task=ep["desc"].strip().rstrip("."), description=ep["task"])

    def scene(self, program_id: str) -> str:
        return f"teach:{program_id}"

    def goal_annotations(self, path=None) -> dict:
        return {}

    def examples(self) -> list[Example]:
        from actionable.worlds.thor.bank import teach_bank

        return list(teach_bank())

    # --- optional: labelled demonstrations for the verification benchmark
    def verification_demos(self) -> tuple:
        """The 100 labelled TEACh demonstrations (:func:`.teach_demos.load_demos`)."""
        from actionable.worlds.thor.teach_demos import load_demos

        return load_demos()

    def split_of(self, demo_id: str) -> str:
        """``"tune"`` / ``"report"`` (:func:`.teach_demos.split_of`)."""
        from actionable.worlds.thor.teach_demos import split_of

        return split_of(demo_id)


#: the capability object registered for ``thor``
DATASET = TeachTasks()

__all__ = ["DATASET", "TeachTasks"]
