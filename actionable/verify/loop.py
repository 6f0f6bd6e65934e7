"""The Judge -> Planner verification loop (arXiv 2509.02761, Sec. 3, Alg. 1).

Each round the judge critiques the current plan; if it has no *new*
critiques (a critique is new when its kind and class-level action were not
raised in an earlier round, or when the same critique was applied in the
previous round and changed the plan, so that it now targets another copy of
the action) the loop has converged; otherwise the planner
revises the plan with the new critiques. At most ``max_rounds`` judge calls
(5 in the paper). Every round is recorded.

Planners:

* :class:`ApplyCritiquesPlanner` - deterministic: delete REMOVE steps, insert
  MISSING steps (:func:`~actionable.verify.critique.apply_critiques`).
* :class:`LLMPlanner` - the paper's Planner LLM, asked to rewrite the plan
  applying the critiques and keeping the format. Its lines are parsed with the
  program parser; node ids of the original plan are restored by class name.
  Unusable output falls back to the deterministic revision (recorded as a
  warning), so a weak model cannot destroy the plan.

The revision guard (:mod:`actionable.verify.guard`, issue 26): a revision that differs from the
deterministic one (an LM planner's rewrite) is replayed in the task's world against the plan it
revises and the deterministic revision; it is kept only when it executes, meets at least as many
goal conditions as both, and, meeting no more, is not longer than the deterministic revision. Otherwise the
round takes the deterministic revision and records ``"revision rejected: <why>"``
(:attr:`Round.rejected`, counted by :attr:`LoopResult.rejected`). The referee is the judge's own
simulator (``sim``, ``hybrid``) or one given to the loop (:func:`make_loop` gives the ``llm`` and
``rule`` judges a ``sim`` judge of the loop's world).
"""

from __future__ import annotations

import dataclasses

import re
from dataclasses import dataclass
from typing import Protocol, Sequence

from actionable.core.program import Program, Step, parse_step
from actionable.core.errors import ConfigError, EnvError, ProgramParseError, ResolutionError, VerifyError
from actionable.lm.base import GenerationParams, LanguageModel
from actionable.verify.critique import Critique, _bind_ids, apply_critiques
from actionable.verify.base import Judge, VerifyTask
from actionable.verify.guard import Referee, check_critiques, check_revision, referee_for
from actionable.verify.judge import wrap_for_model

DEFAULT_MAX_ROUNDS = 5


@dataclass(frozen=True)
class Revision:
    """A planner's output: the revised plan plus notes and the raw LM text."""

    plan: Program
    warnings: tuple[str, ...] = ()
    raw: str = ""


class Planner(Protocol):
    name: str

    def revise(self, plan: Program, critiques: Sequence[Critique], task: VerifyTask) -> Revision: ...


class ApplyCritiquesPlanner:
    """Deterministic revision (no LM). Never fails on critiques of this plan."""

    name = "apply"

    def revise(self, plan: Program, critiques: Sequence[Critique], task: VerifyTask) -> Revision:
        return Revision(apply_critiques(plan, critiques))


PLANNER_INSTRUCTIONS = (
    "Rewrite the robot's plan so that it follows the critiques: delete every action marked "
    "#REMOVE, insert every #MISSING action where it belongs, keep all other actions unchanged "
    "and in order. Write one action per line in the same format as the plan, nothing else."
)
_NUM_RE = re.compile(r"^\s*(?:step\s*)?\d+\s*[.:)]\s*", re.IGNORECASE)


def planner_prompt(plan: Program, critiques: Sequence[Critique], goal: str) -> str:
    """User message of the Planner (arXiv 2509.02761, Sec. 3, Planner prompt)."""
    lines = "\n".join(f"{i}. {s.unresolved().to_script()}" for i, s in enumerate(plan.steps, 1))
    crit = "\n".join(c.describe() for c in critiques)
    return (f"{PLANNER_INSTRUCTIONS}\n\nGoal: {goal}\nPlan:\n{lines}\nCritiques:\n{crit}\n"
            "Revised plan:\n")


class LLMPlanner:
    """The paper's Planner LLM.

    Args:
        lm: any :class:`LanguageModel`.
        max_tokens: generation budget; default ``min(512, 14 * (len(plan) + #critiques) + 32)``.
        prefill: text the answer starts with (default ``"1."``, the numbered
            first step), appended to the prompt and to the parsed text.
    """

    name = "llm"

    def __init__(self, lm: LanguageModel, *, max_tokens: int | None = None, temperature: float = 0.0,
                 prefill: str = "1."):
        if max_tokens is not None and not 1 <= max_tokens <= 4096:
            raise ConfigError(f"planner max_tokens must be in 1..4096 (got {max_tokens})")
        self.lm = lm
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.prefill = prefill

    def revise(self, plan: Program, critiques: Sequence[Critique], task: VerifyTask) -> Revision:
        prompt = wrap_for_model(self.lm, planner_prompt(plan, critiques, task.goal)) + self.prefill
        budget = self.max_tokens or min(512, 14 * (len(plan) + len(critiques)) + 32)
        params = GenerationParams(n=1, temperature=self.temperature, top_p=1.0, max_tokens=budget,
                                  stop=("<|im_end|>", "<|im_start|>", "\n\n\n", "Critiques:", "Goal:"),
                                  presence_penalty=0.0, frequency_penalty=0.0, seed=0)
        text = self.prefill + self.lm.generate(prompt, params)[0].text
        steps: list[Step] = []
        bad = 0
        for ln in text.splitlines():
            ln = _NUM_RE.sub("", ln).strip()
            if not ln:
                continue
            try:
                steps.append(_bind_ids(parse_step(ln), plan))
            except ProgramParseError:
                bad += 1
        notes = [f"planner wrote {bad} unparseable line(s); skipped"] if bad else []
        if not steps:
            notes.append("planner output held no action; applied the critiques deterministically")
            return Revision(apply_critiques(plan, critiques), tuple(notes), text)
        # Node ids chosen by a MISSING critique are kept when the LLM re-wrote that step.
        by_class = {c.step.unresolved(): c.step for c in critiques if c.step is not None}
        steps = [by_class.get(s.unresolved(), s) if not s.is_resolved else s for s in steps]
        return Revision(plan.replace_steps(steps), tuple(notes), text)


@dataclass(frozen=True)
class Round:
    """One judge call (and the revision it caused)."""

    index: int
    critiques: tuple[Critique, ...]
    new_critiques: tuple[Critique, ...]
    plan_before: Program
    plan_after: Program
    converged: bool
    warnings: tuple[str, ...] = ()
    judge_raw: str = ""
    planner_raw: str = ""
    model_notes: tuple[str, ...] = ()
    goal_conditions: tuple[str, ...] = ()
    #: ``"revision rejected: <why>; ..."`` when the revision guard replaced the planner's revision
    #: with the deterministic one, ``"critiques rejected: <why>; the plan is kept"`` when the
    #: judge's critiques lost a goal condition (:mod:`actionable.verify.guard`), else empty
    rejected: str = ""

    def to_dict(self) -> dict:
        return {"round": self.index, "critiques": [c.to_dict() for c in self.critiques],
                "new_critiques": [c.to_dict() for c in self.new_critiques],
                "plan": self.plan_after.to_script(), "converged": self.converged,
                "warnings": list(self.warnings), "judge_raw": self.judge_raw,
                "planner_raw": self.planner_raw, "model_notes": list(self.model_notes),
                "goal_conditions": list(self.goal_conditions), "rejected": self.rejected}


@dataclass(frozen=True)
class LoopResult:
    """All rounds plus the final plan.

    Attributes:
        revisions: number of rounds that changed the plan (0 = accepted as is).
        converged: the judge ended with no new critiques within ``max_rounds``.
    """

    initial: Program
    final: Program
    rounds: tuple[Round, ...]
    converged: bool
    revisions: int

    @property
    def first_critiques(self) -> tuple[Critique, ...]:
        """Critiques of the first round: the ones scored per action against labels."""
        return self.rounds[0].critiques if self.rounds else ()

    @property
    def rejected(self) -> int:
        """Rounds whose planner revision the guard rejected (:attr:`Round.rejected`)."""
        return sum(1 for r in self.rounds if r.rejected.startswith("revision rejected"))

    @property
    def critiques_rejected(self) -> int:
        """Rounds whose judge critiques the guard refused, keeping the plan (:attr:`Round.rejected`)."""
        return sum(1 for r in self.rounds if r.rejected.startswith("critiques rejected"))

    def to_dict(self) -> dict:
        """``verify --json``'s loop fields: ``revisions``, the rounds that changed the plan (whichever
        revision was taken); ``rewrites_rejected``, the rounds where the guard replaced the LM
        planner's rewrite by the critiques applied as written (such a round is also among
        ``revisions`` when that changed the plan); ``critiques_rejected``, the rounds whose judge
        critiques would have lost a goal condition, so the plan was kept (not among ``revisions``)."""
        return {"initial": self.initial.to_script(), "final": self.final.to_script(),
                "converged": self.converged, "revisions": self.revisions,
                "rewrites_rejected": self.rejected, "critiques_rejected": self.critiques_rejected,
                "rounds": [r.to_dict() for r in self.rounds]}


class VerificationLoop:
    """Judge/Planner loop.

    Args:
        judge: any :class:`~actionable.verify.judge.Judge`.
        planner: any :class:`Planner` (default deterministic).
        max_rounds: maximum judge calls, 1..20 (paper: 5).
        referee: what replays revisions for the guard (:class:`~actionable.verify.guard.Referee`);
            default: the judge's own simulator when it has one (``sim``, ``hybrid``), else none
            (revisions unchecked, said in the round's model notes; :func:`make_loop` always gives one).
        guard: check revisions that differ from the deterministic one (default); ``False``: the
            paper's loop as published, every usable rewrite taken.

    Raises:
        ConfigError: ``max_rounds`` out of range.
    """

    def __init__(self, judge: Judge, planner: Planner | None = None, max_rounds: int = DEFAULT_MAX_ROUNDS,
                 referee: Referee | None = None, guard: bool = True):
        if not 1 <= int(max_rounds) <= 20:
            raise ConfigError(f"max_rounds must be in 1..20 (got {max_rounds})")
        self.judge = judge
        self.planner = planner or ApplyCritiquesPlanner()
        self.max_rounds = int(max_rounds)
        self.guard = bool(guard)
        sim = getattr(judge, "sim", judge)
        self.referee = referee if referee is not None else (sim if isinstance(sim, Referee) else None)

    def _guarded(self, current: Program, rev: Revision, new, task) -> tuple[Program, tuple[str, ...], str]:
        """The plan a round keeps, the planner's notes and the guard's rejection (empty: none):
        ``rev`` unless it differs from the deterministic revision and the guard rejects it."""
        if not self.guard or isinstance(self.planner, ApplyCritiquesPlanner):
            return rev.plan, rev.warnings, ""
        try:
            det = apply_critiques(current, new)
        except VerifyError:  # critiques the deterministic planner cannot apply: the plan stays
            det = current
        if rev.plan.steps == det.steps:
            return rev.plan, rev.warnings, ""
        if self.referee is None:
            return rev.plan, rev.warnings + ("revision not checked in the world: the loop has no simulator to "
                                             "replay it (give VerificationLoop a referee)",), ""
        v = check_revision(self.referee, current, rev.plan, new, task, fallback=det)
        if v.accepted:  # the plan as replayed: bound to the instances checked, when the input was
            keep = v.plan if v.plan is not None and all(s.is_resolved for s in current.steps) else rev.plan
            return keep, rev.warnings, ""
        return det, rev.warnings, f"revision rejected: {v.reason}; the critiques were applied deterministically instead"

    def _loses(self, current: Program, after: Program, task) -> str:
        """Why the round's revision ``after`` may not replace ``current`` (empty: it may): the
        judge's critiques checked by :func:`~actionable.verify.guard.check_critiques`, with the guard
        on, a referee, and a judge that does not replay its own critiques (``llm``, ``rule``)."""
        if not self.guard or self.referee is None or after.steps == current.steps \
                or getattr(self.judge, "sim", self.judge) is self.referee:
            return ""
        try:
            return check_critiques(self.referee, current, after, task)
        except EnvError:
            return ""

    def run(self, plan: Program, task: VerifyTask) -> LoopResult:
        """Verify ``plan`` for ``task``; returns every round and the final plan.

        When ``task`` has no goal conditions and the judge derived some for the plan as given
        (``JudgeResult.derived``), later rounds judge against those same conditions (a revised plan
        is never matched to another annotated program)."""
        seen: set[tuple] = set()
        rounds: list[Round] = []
        current = plan
        converged = False
        revisions = 0
        progressing: set[tuple] = set()  # keys applied last round that changed the plan
        for r in range(1, self.max_rounds + 1):
            try:
                res = self.judge.judge(current, task)
            except ResolutionError as exc:
                if not rounds:  # the plan as given names an object the scene lacks: the caller's input
                    raise
                # the planner's revision named one (an LLM planner writing 'music_stand_2'): apply
                # that round's critiques deterministically instead, and judge that plan
                last = rounds[-1]
                current = apply_critiques(last.plan_before, last.new_critiques)
                note = (f"the planner's revision names {getattr(exc, 'class_name', None) or 'an object'!r}, which "
                        "the scene lacks; its critiques were applied deterministically instead")
                rounds[-1] = dataclasses.replace(last, plan_after=current, model_notes=last.model_notes + (note,))
                res = self.judge.judge(current, task)
            derived = getattr(res, "derived", None)
            if task.goal_spec is None and derived is not None:  # the goals derived for the plan as
                task = dataclasses.replace(task, goal_spec=derived[0], goal_source=derived[1])  # given
            # A repeat of a critique that was applied last round and changed the plan
            # is still actionable: it targets another copy of the same action (a plan
            # with 12 identical failing steps, or a judge that caps critiques a round).
            new = tuple(c for c in res.critiques if c.key not in seen or c.key in progressing)
            seen.update(c.key for c in res.critiques)
            if not new:
                converged = True
                rounds.append(Round(r, res.critiques, (), current, current, True, res.warnings, res.raw,
                                    model_notes=res.model_notes, goal_conditions=res.goal_conditions))
                break
            rev = self.planner.revise(current, new, task)
            after, planner_notes, rejected = self._guarded(current, rev, new, task)
            lost = self._loses(current, after, task)
            if lost:  # an LLM judge's critiques that lose a goal condition: the plan stays
                after, rejected = current, f"critiques rejected: {lost}; the plan is kept"
            changed = after.steps != current.steps
            revisions += int(changed)
            progressing = {c.key for c in new} if changed else set()
            rounds.append(Round(r, res.critiques, new, current, after, False, res.warnings, res.raw,
                                rev.raw, res.model_notes + planner_notes, res.goal_conditions, rejected))
            current = after
        return LoopResult(plan, current, tuple(rounds), converged, revisions)


def loop_lm(judge: str, planner: str, model: str, cache: bool = True):
    """The LM the loop needs (the ``llm``/``hybrid`` judge or the ``llm`` planner), loaded from
    spec ``model``; ``None`` when neither needs one (no model load).

    Raises:
        ModelNotFoundError, ConfigError: as :func:`actionable.lm.registry.load_lm`."""
    if judge not in ("llm", "hybrid") and planner != "llm":
        return None
    from actionable.core.config import LMConfig, make_config
    from actionable.lm.registry import load_lm

    return load_lm(model, make_config(LMConfig, model=model, cache=cache))


def make_loop(judge: str, planner: str, lm=None, max_rounds: int = 5, world=None) -> VerificationLoop:
    """The Judge/Planner loop by names: judge ``rule``/``sim``/``llm``/``hybrid`` (over ``world``,
    a :class:`~actionable.verify.worldsim.WorldAdapter`, when given) and planner ``apply``/``llm``;
    the revision guard replays in ``world`` (the judge's simulator, or a ``sim`` judge of ``world``
    for the ``llm``/``rule`` judges: :func:`~actionable.verify.guard.referee_for`): an ``llm``
    planner's rewrites, and an ``llm``/``rule`` judge's critiques with either planner. Only
    ``sim``/``hybrid`` with ``apply`` runs without one (nothing there to check)."""
    from actionable.verify.judge import make_judge

    j = make_judge(judge, lm=lm, world=world)
    llm = planner == "llm"
    checked = llm or judge in ("llm", "rule")
    return VerificationLoop(j, LLMPlanner(lm) if llm else ApplyCritiquesPlanner(), max_rounds,
                            referee=referee_for(j, world) if checked else None)
