"""Shared pieces of the judges: task, result, protocol and action vocabulary.

Every judge (rule, sim, llm, hybrid; arXiv 2509.02761, Sec. 3 "Judge")
takes a :class:`VerifyTask` and returns a :class:`JudgeResult`. This module
holds them together with the action tables the judges share (inverse
"undo" pairs, navigation actions, put actions), so that ``judge``,
``grounded`` and ``rules`` import from here and not from one another (no
import cycle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from actionable.core.program import Argument, Program, Step
from actionable.core.actions import INVERSE_ACTIONS, NAVIGATION, POSTURE_ACTIONS, PUT_ACTIONS
from actionable.core.errors import InputError

def same_object(a: Argument, b: Argument) -> bool:
    """Same node id when both are resolved, else same class name."""
    if a.id is not None and b.id is not None:
        return a.id == b.id
    return a.name == b.name


def mentions(step: Step, obj: Argument) -> bool:
    """Whether ``step`` names ``obj`` among its arguments."""
    return any(same_object(a, obj) for a in step.args)


def undoes(later: Step, earlier: Step) -> bool:
    """Whether ``later`` only undoes ``earlier``: the inverse action on the same
    object (SWITCHOFF after SWITCHON, OPEN after CLOSE, ...) or STANDUP after
    SIT/LIE and SIT/LIE after STANDUP."""
    if later.action == "STANDUP":
        return earlier.action in POSTURE_ACTIONS
    if later.action in POSTURE_ACTIONS:
        return earlier.action == "STANDUP"
    inv = INVERSE_ACTIONS.get(earlier.action)
    return (inv is not None and later.action == inv and bool(later.args) and bool(earlier.args)
            and same_object(later.args[0], earlier.args[0]))


@dataclass(frozen=True)
class VerifyTask:
    """What a plan is for.

    Attributes:
        goal: the instruction in words (task name and/or description).
        scene: scene name or program id for the simulator (``None`` = default
            house); a :class:`~actionable.worlds.virtualhome.scene.SceneGraph` is also accepted.
        goal_spec: annotated goal conditions
            (:class:`actionable.core.goals.GoalSpec`) or ``None`` (the
            sim/hybrid judges then derive conditions from ``goal``, see
            :mod:`actionable.worlds.virtualhome.goaltext`).
        program_id: the dataset program the task comes from, if any.
        goal_source: where ``goal_spec`` came from, in words, when it was derived rather than
            annotated (the loop fixes the conditions a judge derived in round 1 for later rounds).

    Raises:
        InputError: ``goal`` is empty or not text.
    """

    goal: str
    scene: Any = None
    goal_spec: Any = None
    program_id: str | None = None
    goal_source: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.goal, str) or not self.goal.strip():
            raise InputError("the goal must be a non-empty instruction, e.g. --goal \"Turn on TV\"")


@dataclass(frozen=True)
class JudgeResult:
    """Critiques of one judge call plus diagnostics.

    Attributes:
        critiques: the verdicts, 0-based indices into the judged plan.
        warnings: notes for the user (e.g. which goal conditions were checked,
            a plan the repairs could not make executable); never fatal.
        raw: the LM's raw text (empty for non-LLM judges).
        model_notes: notes about the judge LM's own output (lines it wrote that
            could not be read as critiques). They are the model's failure, not
            the user's; the CLI shows them only under a verbose flag.
        goal_conditions: the goal conditions the judge checked (descriptions
            such as ``ON(television.410)``); empty when none were available.
        derived: ``(goal_spec, source)`` when the judge derived the conditions from the goal
            text for this plan (none were given), else None.
    """

    critiques: tuple = ()
    warnings: tuple[str, ...] = ()
    raw: str = ""
    model_notes: tuple[str, ...] = ()
    goal_conditions: tuple[str, ...] = ()
    derived: Any = None

    def to_dict(self) -> dict:
        return {"critiques": [c.to_dict() for c in self.critiques],
                "warnings": list(self.warnings), "raw": self.raw,
                "model_notes": list(self.model_notes), "goal_conditions": list(self.goal_conditions)}


@dataclass(frozen=True)
class PlanOutcome:
    """A plan replayed in the task's world.

    Attributes:
        executable: every step executed; ``failed_index`` (0-based) and ``error`` say where and
            why it stopped otherwise.
        goals_met / goals_total: goal conditions met on the state the replay reached, out of how
            many (0 / 0 when the task has none).
        plan: the plan as replayed (bound to the scene's instances in a scene-graph world; the
            same plan where the world binds at replay time).
    """

    executable: bool
    goals_met: int
    goals_total: int
    plan: Program
    failed_index: int | None = None
    error: str | None = None


@runtime_checkable
class Judge(Protocol):
    """``judge(plan, task) -> JudgeResult``; ``name`` is recorded with results."""

    name: str

    def judge(self, plan: Program, task: VerifyTask) -> JudgeResult: ...


__all__ = ["INVERSE_ACTIONS", "POSTURE_ACTIONS", "NAVIGATION", "PUT_ACTIONS", "same_object", "mentions",
           "undoes", "VerifyTask", "JudgeResult", "Judge", "PlanOutcome"]
