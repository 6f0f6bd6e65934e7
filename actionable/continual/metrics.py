"""SR and PS for continual instructions, with 95% confidence intervals.

Definitions (ExRAP Sec. 5.1, made precise here):

* An instruction is *needed* while its condition holds and its goal does not
  (``query and not goal`` on the true graph). An **activation** starts at the
  first step it becomes needed.
* It **succeeds** at the step whose skill (run by the agent) makes the goal
  true while the activation is open. Its pending steps = steps from the start
  to that completion (inclusive of the completing step).
* It **fails** when the condition stops holding first (the house changed it
  back) or the episode ends; its pending steps are censored at that point.
* It is **cancelled** (excluded) when the house itself makes the goal true.

SR = successes / (successes + failures). PS = mean pending steps over
successes and failures (a missed activation costs its whole duration, so an
agent cannot lower PS by failing); ``ps_success`` averages successes only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from actionable.core.continual import Instruction, holds_all


@dataclass
class Activation:
    instruction: int
    start: int
    end: int | None = None
    outcome: str = "open"  # success | failure | cancelled | open

    @property
    def steps(self) -> int | None:
        return None if self.end is None else self.end - self.start


@dataclass
class ActivationTracker:
    """Follows activations through an episode; call the hooks in step order."""

    instructions: list[Instruction]
    activations: list[Activation] = field(default_factory=list)

    def __post_init__(self):
        self._open: dict[int, Activation] = {}
        #: per instruction, whether its condition held on the true house at the last observe_state
        self.truth: list[bool] = []

    def observe_state(self, house, t: int) -> None:
        """Call at the start of step ``t`` (after the house changed)."""
        self.truth = []
        for i, ins in enumerate(self.instructions):
            q, g = holds_all(ins.query, house), holds_all(ins.goal, house)
            self.truth.append(bool(q))
            act = self._open.get(i)
            if act is not None and not (q and not g):
                act.end, act.outcome = t, ("cancelled" if g else "failure")
                del self._open[i]
                act = None
            if act is None and q and not g:
                a = Activation(i, t)
                self.activations.append(a)
                self._open[i] = a

    def after_agent(self, house, t: int) -> list[int]:
        """Call right after the agent's skill at step ``t``; returns completed instructions."""
        done = []
        for i, act in list(self._open.items()):
            if holds_all(self.instructions[i].goal, house):
                act.end, act.outcome = t + 1, "success"
                del self._open[i]
                done.append(i)
        return done

    def finish(self, t: int) -> None:
        for act in self._open.values():
            act.end, act.outcome = t, "failure"
        self._open.clear()


def sr_ps(activations: list[Activation]) -> dict:
    """``{"sr", "ps", "ps_success", "n_success", "n_failure", "n_cancelled"}``;
    SR/PS are ``None`` when no activation was scored."""
    succ = [a for a in activations if a.outcome == "success"]
    fail = [a for a in activations if a.outcome == "failure"]
    scored = succ + fail
    out = {"n_success": len(succ), "n_failure": len(fail),
           "n_cancelled": sum(a.outcome == "cancelled" for a in activations)}
    out["sr"] = len(succ) / len(scored) if scored else None
    out["ps"] = sum(a.steps for a in scored) / len(scored) if scored else None
    out["ps_success"] = sum(a.steps for a in succ) / len(succ) if succ else None
    return out


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float | None, float | None]:
    """Mean and half-width of the normal-approximation 95% CI (t-quantile for n<30).

    ``None`` entries are ignored; returns ``(None, None)`` for no values and a
    half-width of ``None`` for one value.
    """
    xs = [v for v in values if v is not None]
    if not xs:
        return None, None
    m = sum(xs) / len(xs)
    if len(xs) < 2:
        return m, None
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))
    tq = {2: 12.71, 3: 4.30, 4: 3.18, 5: 2.78, 6: 2.57, 7: 2.45, 8: 2.36, 9: 2.31, 10: 2.26}
    q = tq.get(len(xs), z if len(xs) >= 30 else 2.1)
    return m, q * sd / math.sqrt(len(xs))


def longest_shuttle(rooms: list[str]) -> int:
    """Length of the longest run A-B-A-B-... (two places in alternation) in a sequence of the
    agent's rooms, 0 when there is none: the exploration loop of issue 25 (a driving agent that
    went station <-> theatre for 63 steps)."""
    best = cur = 0
    for i in range(2, len(rooms)):
        cur = cur + 1 if rooms[i] == rooms[i - 2] != rooms[i - 1] else 0
        best = max(best, cur)
    return best + 2 if best else 0
