"""Plain-data records of one zero-shot plan (JSON-serialisable).

:class:`PlanResult` keeps everything needed to audit or re-score a plan without
re-running models: the program, the per-step translation scores of Huang et
al. 2022 (cosine, mean token log-prob, total score of Sec. 3.2/3.3), the final
prompt, the decoding parameters of every LM call, the model ids of the planning
and translation LMs, timings (LM vs the rest, seconds) and the simulator's
executability verdict.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field

from actionable.core.program import Program, Step


def _num(x):
    """JSON-safe float (``-inf``/``nan`` -> ``None``)."""
    if x is None:
        return None
    x = float(x)
    return x if math.isfinite(x) else None


@dataclass
class StepTrace:
    """One plan position.

    Attributes:
        position: 1-based step number.
        sample_text: the LM's free-text step that was chosen (``ahat``).
        action: its admissible-action phrase (``None`` when vanilla parsing failed).
        step: the class-level :class:`Step` (``None`` when parsing failed).
        cosine: ``cos(f(ahat), f(a))`` in [-1, 1]; ``None`` for vanilla.
        logprob: mean token log-prob of ``ahat`` (nats); ``None`` if unknown.
        total: the step score (cosine + beta*logprob - repeat penalty).
        repeat_penalised: the chosen action repeated the previous one.
        n_samples / n_empty: samples drawn at this position / empty ones.
        samples: every sample with its top-1 translation (stepwise variants).
        parse_error: why a vanilla line did not parse.
    """

    position: int
    sample_text: str
    action: str | None
    step: Step | None
    cosine: float | None = None
    logprob: float | None = None
    total: float | None = None
    repeat_penalised: bool = False
    n_samples: int = 1
    n_empty: int = 0
    samples: list = field(default_factory=list)
    parse_error: str | None = None
    repaired: bool = False
    score_parts: dict = field(default_factory=dict)
    resolved: Step | None = None

    def to_dict(self) -> dict:
        return {
            "position": self.position, "sample_text": self.sample_text, "action": self.action,
            "step": self.step.to_dict() if self.step is not None else None,
            "script": self.step.to_script() if self.step is not None else None,
            "cosine": _num(self.cosine), "logprob": _num(self.logprob), "total": _num(self.total),
            "repeat_penalised": self.repeat_penalised, "n_samples": self.n_samples,
            "n_empty": self.n_empty, "parse_error": self.parse_error, "repaired": self.repaired,
            "score_parts": self.score_parts,
            "samples": [{**s, "logprob": _num(s.get("logprob")), "cosine": _num(s.get("cosine"))}
                        for s in self.samples],
        }


@dataclass
class PlanResult:
    """Outcome of :meth:`ZeroShotPlanner.plan`.

    Attributes:
        task, variant: the query and the planner variant.
        program: class-level :class:`Program` (parsed / translated steps).
        resolved_program: the program with node ids, when the resolver reports it.
        steps: one :class:`StepTrace` per position.
        prompt: the final prompt (with the appended actions for stepwise variants).
        completion: the raw whole-plan completion (vanilla / translated).
        example: the prompt's example (task, description, steps, source).
        example_similarity: task-name cosine of the dynamically selected example.
        decoding: :class:`GenerationParams` of every LM call, as dicts.
        planning_model / translation_model: model ids.
        timings: seconds: ``lm_s``, ``translation_s``, ``execution_s``,
            ``example_s``, ``other_s``, ``total_s``.
        lm_calls: number of ``generate`` calls.
        task_steps: grounded only: the candidate phrases that say the task in one step (cosine to
            the task's words >= ``task_step_similarity``); ``Done`` is favoured once one is done.
        stop_reason: ``empty_samples``, ``below_cutoff``, ``max_steps`` or
            ``end_of_plan``; grounded: ``done``, ``no_candidate``, ``max_steps``, ``already_done``
            or ``goal_reached`` (a domain whose goal is the task); ``stopped_at`` gives the details.
        executability: simulator verdict dict (``executable``, ``failed_index``
            (0-based), ``failed_step``, ``error_type``, ``error``,
            ``unmet_preconditions``, ``steps_executed``), or ``None`` if not run.
        world / scene: the registered world and its scene the plan was made in (``""`` when not
            known); ``actionable.verify`` judges the plan there.
        lm_mode: grounded only: how the LM scored candidates (:mod:`actionable.lm.choice`):
            ``score`` (a), ``choice-logprobs`` (b), ``choice-name`` (c), or ``none``.
        answer: a question's answer (the task only asked whether a state holds; ``stop_reason ==
            "answered"``, no plan): ``{"answer": "yes" | "no", "holds": [...], "unmet": [...],
            "hint": ...}``, the clauses (instances named) that hold and that do not; ``None`` for a task.
        notes: lines the output shows after the verdict (e.g. a ``--model`` the planner did not use).
    """

    task: str
    variant: str
    config: dict = field(default_factory=dict)
    planning_model: str = ""
    translation_model: str | None = None
    program: Program | None = None
    resolved_program: Program | None = None
    steps: list[StepTrace] = field(default_factory=list)
    prompt: str = ""
    completion: str | None = None
    example: dict | None = None
    example_similarity: float | None = None
    decoding: list[dict] = field(default_factory=list)
    timings: dict = field(default_factory=dict)
    lm_calls: int = 0
    stop_reason: str = ""
    stopped_at: dict | None = None
    executability: dict | None = None
    retrieved: list = field(default_factory=list)
    relevant_classes: dict = field(default_factory=dict)
    task_steps: list = field(default_factory=list)
    objects: dict = field(default_factory=dict)
    warnings: list = field(default_factory=list)
    goal_check: dict | None = None
    repaired_flags: list = field(default_factory=list)
    final_state: object = field(default=None, repr=False, compare=False)
    world: str = ""
    scene: str = ""
    reading: dict | None = None
    done: bool | None = None
    lm_mode: str = ""
    answer: dict | None = None
    notes: list = field(default_factory=list)

    @property
    def repairs(self) -> int:
        """Steps inserted by precondition repair (grounded steps, or ``--repair`` on a paper variant)."""
        return sum(1 for s in self.steps if s.repaired) + sum(1 for f in self.repaired_flags if f)

    def steps_as_program(self) -> list[Step]:
        """The parsed/translated steps, in order (unparseable lines skipped)."""
        return [s.step for s in self.steps if s.step is not None]

    def verdict(self) -> str:
        """The first verdict line: ``"Done"``, ``"Nothing to do"``, ``"Not done: <unmet>"``,
        ``"Executes; goal not checked"`` / ``"Does not execute; goal not checked"``, or for a question
        ``"Yes: <the instances that hold>"`` / ``"No: it is not so now that <the clauses that do not>"``."""
        if self.answer is not None:  # a question: "Yes: <what holds>" / "No: <what does not>"
            a = self.answer
            if a["answer"] == "yes":
                return "Yes: " + "; ".join(a["holds"][:6])
            return "No: it is not so now that " + "; ".join(a["unmet"][:6])
        gc = self.goal_check or {}
        if self.done is None or not gc.get("checked"):
            return ("Executes; goal not checked" if self.executable else "Does not execute; goal not checked")
        if self.done:
            return "Nothing to do" if self.stop_reason == "already_done" else "Done"
        why = list(gc.get("unmet") or [])
        if not (self.executability or {}).get("executable", True):
            why.insert(0, "the plan does not execute")
        if self.stop_reason == "max_steps":
            why.insert(0, "stopped at --max-steps")
        return "Not done: " + ("; ".join(why[:6]) or "the goal does not hold")

    @property
    def executable(self) -> bool | None:
        return None if self.executability is None else bool(self.executability["executable"])

    def to_dict(self) -> dict:
        prog = self.program
        return {
            "task": self.task, "variant": self.variant, "world": self.world, "scene": self.scene,
            "done": self.done, "verdict": self.verdict(), "reading": self.reading,
            "program": prog.to_dict() if prog is not None else None,
            "program_text": prog.to_text() if prog is not None else [],
            "program_script": prog.to_script() if prog is not None else "",
            "program_script_lines": [st.to_script() for st in prog.steps] if prog is not None else [],
            "resolved_program": (self.resolved_program.to_dict()
                                 if self.resolved_program is not None else None),
            "resolved_repaired": list(self.repaired_flags),
            "steps": [s.to_dict() for s in self.steps],
            "executability": self.executability,
            "stop_reason": self.stop_reason, "stopped_at": _clean(self.stopped_at),
            "prompt": self.prompt, "completion": self.completion,
            "example": self.example, "example_similarity": _num(self.example_similarity),
            "models": {"planning": self.planning_model, "translation": self.translation_model},
            **({"lm_mode": self.lm_mode} if self.lm_mode else {}),
            "decoding": self.decoding, "config": self.config,
            "timings": {k: round(float(v), 4) for k, v in self.timings.items()},
            "lm_calls": self.lm_calls, "repairs": self.repairs,
            "retrieved": self.retrieved, "relevant_classes": self.relevant_classes,
            "task_steps": list(self.task_steps),
            "objects": self.objects, "warnings": list(self.warnings),
            "goal_check": self.goal_check,
            "question": self.answer is not None,
            **({"answer": self.answer["answer"], "answer_detail": self.answer} if self.answer is not None else {}),
            **({"notes": list(self.notes)} if self.notes else {}),
        }

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, allow_nan=False)


def _clean(d: dict | None):
    if d is None:
        return None
    return {k: (_num(v) if isinstance(v, float) else v) for k, v in d.items()}
