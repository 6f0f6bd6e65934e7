"""Rule-based judge: the non-LLM baseline of the Judge/Planner paper.

arXiv 2509.02761 (Sec. 5, "rule-based baseline", recall 22 / precision 71 on
TEACh) compares its LLM judges with hand-written rules. Ours reads only the
plan text (no scene, no simulator) and flags:

* a **repeated action**: a step identical to the step just before it;
* an **action undone by its inverse** with no use in between: SWITCHON/
  SWITCHOFF, OPEN/CLOSE, PLUGIN/PLUGOUT of the same object, or GRAB X then
  PUTBACK/PUTIN X onto the object the agent had walked to before the grab
  (put back where it was, unused);
* an **object picked up and never used**: GRAB X with no later step naming X.

Objects are compared by node id when both steps have one, else by class name.
It knows nothing of preconditions or goals, so it misses deletions entirely
(it never proposes MISSING) and flags grabs whose purpose is the holding
itself - the weaknesses the paper reports for rules.
"""

from __future__ import annotations

from actionable.core.program import Argument, Program
from actionable.verify.base import INVERSE_ACTIONS, NAVIGATION, PUT_ACTIONS, JudgeResult, mentions, same_object
from actionable.verify.critique import Critique, CritiqueKind

__all__ = ["RuleJudge", "INVERSE_ACTIONS", "NAVIGATION", "PUT_ACTIONS", "mentions", "same_object"]

def _used_between(plan: Program, i: int, j: int, obj: Argument) -> bool:
    return any(mentions(s, obj) and s.action not in NAVIGATION for s in plan.steps[i + 1:j])


def _last_navigation_target(plan: Program, i: int) -> Argument | None:
    for s in reversed(plan.steps[:i]):
        if s.action in ("WALK", "RUN", "FIND"):
            return s.args[0]
    return None


class RuleJudge:
    """Hand-written redundancy/contradiction rules (baseline; no MISSING).

    ``judge(plan, task)`` returns a :class:`~actionable.verify.judge.JudgeResult`;
    ``task`` is ignored. Pure function of the plan; never raises on a valid
    :class:`Program`.
    """

    name = "rule"

    def critiques(self, plan: Program) -> list[Critique]:
        """All rule critiques of ``plan``, sorted by index (0-based)."""
        steps = plan.steps
        flagged: dict[int, str] = {}
        for i in range(1, len(steps)):
            if steps[i] == steps[i - 1]:
                flagged.setdefault(i, "repeats the previous action")
        for i, s in enumerate(steps):
            inv = INVERSE_ACTIONS.get(s.action)
            if inv is not None and i not in flagged:  # an undoing step does not open a new pair
                for j in range(i + 1, len(steps)):
                    t = steps[j]
                    if t.action == s.action and same_object(t.args[0], s.args[0]):
                        break  # re-applied before being undone: leave to the repeat rule
                    if t.action == inv and same_object(t.args[0], s.args[0]):
                        if not _used_between(plan, i, j, s.args[0]):
                            why = f"{s.action.lower()} undone by {inv.lower()} at step {j + 1} with no use"
                            flagged.setdefault(i, why)
                            flagged.setdefault(j, f"undoes step {i + 1} ({s.to_text()})")
                        break
            if s.action == "GRAB":
                obj = s.args[0]
                later = [j for j in range(i + 1, len(steps)) if mentions(steps[j], obj)]
                if not later:
                    flagged.setdefault(i, f"{obj.name} is picked up and never used")
                    continue
                j = later[0]
                t = steps[j]
                src = _last_navigation_target(plan, i)
                if (t.action in PUT_ACTIONS and same_object(t.args[0], obj) and src is not None
                        and same_object(t.args[1], src)):
                    flagged.setdefault(i, f"{obj.name} is put back on {src.name} unused")
                    flagged.setdefault(j, f"puts {obj.name} back where step {i + 1} took it")
        return [Critique(CritiqueKind.REMOVE, i, steps[i].to_script(), why, steps[i], self.name)
                for i, why in sorted(flagged.items())]

    def judge(self, plan: Program, task=None) -> JudgeResult:
        return JudgeResult(tuple(self.critiques(plan)))
