"""Task datasets and task-plan examples: the ``dataset`` capability of a world.

A world with a dataset of goal-annotated programs (VirtualHome's 518 packaged programs, 342 with
goal annotations) declares the capability ``dataset`` (:mod:`actionable.core.registry`): a
:class:`TaskDataset`. The sequencing benchmark, the example banks and the verification corpora
read programs, scenes and annotated goal conditions through it and never import the world.

:class:`Example` is one task-plan pair, the unit of example banks (Huang et al. 2022, Sec. 3.4;
LLM-Planner's kNN examples).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from actionable.core.program import Program


def normalize_task(task: str) -> str:
    """Case- and punctuation-insensitive task key (``"Make  Coffee."`` -> ``"make coffee"``)."""
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s]", " ", task.casefold())).strip()


@dataclass(frozen=True)
class Example:
    """One task-plan pair.

    Attributes:
        task: task name (e.g. ``"Watch TV"``).
        description: free-text description, may be empty.
        steps: the plan as admissible-action phrases (``"walk to home office"``).
        source: where it came from (a packaged program id such as ``"1003_2"``,
            or ``"<file>:<line>"``).
    """

    task: str
    description: str
    steps: tuple[str, ...]
    source: str = ""

    def to_prompt(self) -> str:
        """``Task: <task>\\nStep 1: <Step>\\n...`` (steps capitalised, as in the
        paper's prompt; no trailing newline)."""
        lines = [f"Task: {self.task}"]
        lines += [f"Step {i}: {format_step_text(s)}" for i, s in enumerate(self.steps, 1)]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"task": self.task, "description": self.description, "steps": list(self.steps),
                "source": self.source}


def format_step_text(text: str) -> str:
    """Prompt form of an action phrase: first letter upper case, underscores as
    spaces (``open fridge`` -> ``Open fridge``)."""
    t = text.replace("_", " ").strip()
    return t[:1].upper() + t[1:]


def example_from_program(program: Program, source: str = "") -> Example:
    """Example from a :class:`Program` (node ids dropped, steps as ``to_text()``)."""
    return Example(program.task.strip(), program.description.strip(),
                   tuple(s.to_text() for s in program.steps), source)


@runtime_checkable
class TaskDataset(Protocol):
    """Programs of a world with their scenes and annotated goal conditions.

    Attributes:
        world: the registry id of the world the programs run in.
    """

    world: str

    def program_ids(self) -> list[str]:
        """Every program id, sorted (VirtualHome: ``"1003_2"``; 518)."""

    def program(self, program_id: str) -> Program:
        """The gold program (task name, description, resolved steps). Raises SceneError."""

    def scene(self, program_id: str) -> Any:
        """The program's own initial scene, as the world's ``planning`` capability takes it."""

    def goal_annotations(self, path=None) -> dict:
        """``{program id: GoalSpec}`` (:mod:`actionable.core.goals`) for the annotated programs
        (``path``: another annotation file in the world's format, where it has one)."""

    def examples(self) -> list[Example]:
        """Every program as an :class:`Example` (ids dropped), the default example bank."""

    # optional, for verification benchmarks: ``verification_demos()`` (labelled demonstrations)
    # and ``split_of(demo_id) -> "tune" | "report"``


__all__ = ["Example", "TaskDataset", "example_from_program", "format_step_text", "normalize_task"]
