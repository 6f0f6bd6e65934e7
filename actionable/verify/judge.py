"""Judges: LLM judge (the paper's method) and hybrid judge (LLM + simulator).

The Judge of arXiv 2509.02761 (Sec. 3) reads the goal and the plan, goes
through the actions one by one, tags redundant or contradictory ones with
``#REMOVE: reason`` and lists ``#MISSING: action`` lines. :class:`LLMJudge`
implements that prompt for any :class:`~actionable.lm.base.LanguageModel`.

The paper's judge never executes the plan. :class:`HybridJudge` keeps the
LLM's critiques only where the VirtualHome simulator confirms them (removing
the step keeps the plan executable and its goal conditions met; inserting the
missing step repairs a failing precondition or goal) and adds the
simulator-grounded judge's own critiques
(:class:`~actionable.verify.grounded.SimulatorJudge`).

Every judge implements ``judge(plan, task) -> JudgeResult`` and has a ``name``.
The rule-based baseline lives in :mod:`actionable.verify.rules`.
"""

from __future__ import annotations

from typing import Any

from actionable.core.program import Program
from actionable.core.errors import ConfigError, LMError
from actionable.lm.base import GenerationParams, LanguageModel
from actionable.verify.base import Judge, JudgeResult, VerifyTask
from actionable.verify.critique import Critique, CritiqueKind, parse_judge_output

__all__ = ["JUDGE_NAMES", "Judge", "JudgeResult", "VerifyTask", "LLMJudge", "HybridJudge", "make_judge",
           "judge_prompt", "wrap_for_model"]

#: Judge names accepted by :func:`make_judge` and the CLI.
JUDGE_NAMES = ("rule", "sim", "llm", "hybrid")


JUDGE_INSTRUCTIONS = (
    "You check a household robot's plan. Go through the actions one by one. "
    "For each action write its number and OK if it is needed for the goal, or "
    "'#REMOVE: <reason>' if it is redundant (repeated, not needed for the goal) or "
    "contradictory (undone by a later action). Then write one '#MISSING: <action>' line "
    "for each action the plan lacks. Write nothing else."
)

_EXAMPLE = (
    "Goal: Turn on light\nPlan:\n1. [WALK] <light>\n2. [SWITCHON] <light>\n3. [SWITCHOFF] <light>\n"
    "4. [SWITCHON] <light>\nAnswer:\n1. OK\n2. #REMOVE: undone by step 3\n3. #REMOVE: undoes step 2\n4. OK\n"
)


def judge_prompt(plan: Program, goal: str, with_example: bool = True) -> str:
    """The user message of the Judge (arXiv 2509.02761, Sec. 3, Judge prompt),
    with the plan numbered from 1 in VirtualHome script form (node ids dropped)."""
    lines = [f"{i}. {s.unresolved().to_script()}" for i, s in enumerate(plan.steps, 1)]
    example = f"Example:\n{_EXAMPLE}\n" if with_example else ""
    return (f"{JUDGE_INSTRUCTIONS}\n\n{example}Goal: {goal}\nPlan:\n" + "\n".join(lines)
            + "\nAnswer:\n")


def wrap_for_model(lm: Any, user: str) -> str:
    """Wrap ``user`` in the chat template when the model is the embedded chat
    model and does not wrap prompts itself; otherwise return it unchanged."""
    if getattr(lm, "chat", False):
        return user
    if str(getattr(lm, "model_id", "")).startswith("embedded:"):
        from actionable.lm.embedded import chat_prompt

        return chat_prompt(user, system="You are a careful plan checker.")
    return user


class LLMJudge:
    """The paper's Judge: one LM call per plan, parsed by
    :func:`~actionable.verify.critique.parse_judge_output`.

    Args:
        lm: any :class:`LanguageModel` (embedded SmolLM2-135M by default in the CLI).
        max_tokens: generation budget; default ``min(384, 10 * len(plan) + 48)``.
        temperature: 0 = greedy (reproducible).
        with_example: include the one-shot example in the prompt.
        prefill: text the answer starts with (default ``"1."``: the first
            action's verdict), appended to the prompt and to the parsed text.

    Raises (from ``judge``):
        LMError: the backend failed. Malformed text never raises; it becomes
        warnings in :attr:`JudgeResult.warnings`.
    """

    name = "llm"

    def __init__(self, lm: LanguageModel, *, max_tokens: int | None = None,
                 temperature: float = 0.0, with_example: bool = True, prefill: str = "1."):
        if max_tokens is not None and not 1 <= max_tokens <= 4096:
            raise ConfigError(f"judge max_tokens must be in 1..4096 (got {max_tokens})")
        self.lm = lm
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.with_example = with_example
        self.prefill = prefill

    def judge(self, plan: Program, task: VerifyTask) -> JudgeResult:
        if not len(plan):
            return JudgeResult((), ("empty plan: nothing to judge",))
        # Prefill "1." so that small chat models start the numbered per-action answer
        # instead of drifting (SmolLM2-135M otherwise repeats the instructions).
        prompt = wrap_for_model(self.lm, judge_prompt(plan, task.goal, self.with_example)) + self.prefill
        params = GenerationParams(n=1, temperature=self.temperature, top_p=1.0,
                                  max_tokens=self.max_tokens or min(384, 10 * len(plan) + 48),
                                  stop=("<|im_end|>", "<|im_start|>", "\n\n\n", "Goal:", "Example:"),
                                  presence_penalty=0.0, frequency_penalty=0.0, seed=0)
        text = self.prefill + self.lm.generate(prompt, params)[0].text
        parsed = parse_judge_output(text, plan, source=self.name)
        # lines the model wrote that are not usable critiques are the model's failure:
        # kept out of the user-facing warnings (``model_notes``, shown with --verbose)
        return JudgeResult(parsed.critiques, (), text, model_notes=parsed.warnings)


class HybridJudge:
    """LLM judge filtered and completed by the simulator (ours; extends arXiv
    2509.02761, which never executes plans).

    An LLM ``REMOVE`` survives when :meth:`SimulatorJudge.confirms_remove` holds
    (the step is removable without breaking executability or goal
    conditions and its effect is not used later); an LLM ``MISSING`` survives
    when :meth:`SimulatorJudge.confirms_missing` holds (inserting it lets a
    failing step execute or meets an unmet goal). All simulator critiques are
    added.
    """

    name = "hybrid"

    def __init__(self, llm: LLMJudge, sim):
        self.llm = llm
        self.sim = sim

    def judge(self, plan: Program, task: VerifyTask) -> JudgeResult:
        sim_res = self.sim.judge(plan, task)
        try:
            llm_res = self.llm.judge(plan, task)
        except LMError as exc:  # the simulator's verdict stands on its own
            return JudgeResult(sim_res.critiques, sim_res.warnings + (f"LLM judge failed ({exc}); "
                                                                      "simulator critiques only",),
                               goal_conditions=sim_res.goal_conditions, derived=sim_res.derived)
        crits = list(sim_res.critiques)
        keys = {(c.kind, c.index, c.key) for c in crits}
        notes = list(sim_res.warnings) + list(llm_res.warnings)
        model_notes = list(llm_res.model_notes)
        kept = rejected = 0
        missing_keys = {c.key for c in crits if c.kind is CritiqueKind.MISSING}
        for c in llm_res.critiques:
            if (c.kind, c.index, c.key) in keys or (c.kind is CritiqueKind.MISSING and c.key in missing_keys):
                continue  # already raised by the simulator (a MISSING step at any position)
            ok = (self.sim.confirms_remove(plan, task, c.index) if c.kind is CritiqueKind.REMOVE
                  else self.sim.confirms_missing(plan, task, c))
            if ok:
                kept += 1
                crits.append(Critique(c.kind, c.index, c.action, c.reason, c.step, "hybrid:llm"))
                keys.add((c.kind, c.index, c.key))
            else:
                rejected += 1
        if rejected:
            model_notes.append(f"simulator rejected {rejected} of {kept + rejected} new LLM critiques")
        crits.sort(key=lambda c: (len(plan) if c.index is None else c.index, c.kind.value))
        return JudgeResult(tuple(crits), tuple(notes), llm_res.raw, tuple(model_notes),
                           sim_res.goal_conditions, getattr(sim_res, "derived", None))

    def outcomes(self, plans, task: VerifyTask):
        """The simulator judge's :meth:`~actionable.verify.grounded.SimulatorJudge.outcomes` (the
        revision guard's referee)."""
        return self.sim.outcomes(plans, task)


def make_judge(name: str, *, lm: LanguageModel | None = None, sim_config=None, world=None) -> Judge:
    """Build a judge by name: ``rule``, ``sim``, ``llm`` or ``hybrid``.

    ``world``: what the ``sim``/``hybrid`` judges replay in: a world's
    :class:`~actionable.core.replay.WorldAdapter` (e.g. from
    :func:`~actionable.verify.worldsim.make_adapter`; :class:`~actionable.verify.worldsim.WorldJudge`)
    or :class:`~actionable.core.replay.GraphReplay` (the scene-graph judge,
    :class:`~actionable.verify.grounded.SimulatorJudge`); ``None``: the default world's.

    Raises:
        ConfigError: unknown name, or ``llm``/``hybrid`` without an ``lm``.
    """
    if name == "rule":
        from actionable.verify.rules import RuleJudge

        return RuleJudge()
    if name in ("llm", "hybrid") and lm is None:
        raise ConfigError(f"the {name!r} judge needs a language model (e.g. --model embedded)")
    if name == "llm":
        return LLMJudge(lm)
    if name in ("sim", "hybrid"):
        from actionable.core.replay import judge_kind

        if world is not None and judge_kind(world) != "graph":
            from actionable.verify.worldsim import WorldJudge

            sim = WorldJudge(world)
        else:
            from actionable.verify.grounded import SimulatorJudge

            sim = SimulatorJudge(sim_config, world=world)
        return sim if name == "sim" else HybridJudge(LLMJudge(lm), sim)
    raise ConfigError(f"unknown judge {name!r}; choose from {', '.join(JUDGE_NAMES)}")
