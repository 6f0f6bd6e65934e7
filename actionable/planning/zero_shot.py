"""Zero-shot planner of Huang et al. 2022 ("Language Models as Zero-Shot
Planners"), four variants (``PlannerConfig.variant``):

* ``vanilla`` - one fixed example in the prompt; the planning LM writes the
  whole plan in one call; each line is parsed as an action phrase as-is
  (Sec. 2, "Vanilla"); unparseable lines make the plan non-executable.
* ``translated`` - same single call, then every free-text step is mapped post
  hoc to the nearest admissible action (Sec. 3.2).
* ``corrected`` - + autoregressive trajectory correction (Sec. 3.3): at each
  position sample k steps, score every (sample, admissible action) pair by
  ``cos(f(ahat), f(a)) + beta * mean_logprob(ahat)`` (Eq. in Sec. 3.2), minus
  ``repeat_penalty`` when ``a`` equals the previous action; append the best
  action to the prompt; stop early when more than ``empty_stop_fraction`` of
  the samples are empty or the best score is below the cutoff epsilon.
* ``full`` - + dynamic example selection (Sec. 3.4): the prompt's example is
  the most similar task of the example bank, the query task excluded.

The class-level program is then bound to node ids and executed in the
world's simulator for the executability verdict (the planning domain's
``resolve_and_execute``; VirtualHome's resolver and evolving graph).
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from actionable.core.config import PlannerConfig
from actionable.core.defaults import CALIBRATED_CUTOFFS, PAPER_CUTOFF, plan_cutoff  # noqa: F401 (re-exported)
from actionable.core.program import Program, Step, parse_text_step
from actionable.core.errors import PlanningError, ProgramParseError, ResolutionError
from actionable.lm.base import GenerationParams
from actionable.planning import prompts
from actionable.planning.examples import Example, ExampleBank
from actionable.planning.result import PlanResult, StepTrace

#: Admissible actions considered per sample when maximising the step score.
#: With 1 this is the reference demo's rule (top-1 translation per sample);
#: more lets a repeated action's runner-up win after the repeat penalty.
CANDIDATES_PER_SAMPLE = 5

def default_cutoff(model_spec: str, paper_default: float = PAPER_CUTOFF) -> float:
    """The cutoff to use for ``model_spec`` when the user gave none: the
    calibrated value for the embedded model, else the paper's 0.8
    (:func:`actionable.core.defaults.plan_cutoff`)."""
    return plan_cutoff(model_spec, None, paper_default)


class ZeroShotPlanner:
    """Plan a task with a planning LM, a translation LM index and an example bank.

    Args:
        lm: planning LM (:class:`~actionable.lm.base.LanguageModel`).
        index: :class:`~actionable.grounding.index.ActionIndex` over the
            scene's admissible actions, built with ``items`` = class-level
            :class:`Step` objects (see :func:`build_action_index`). Not used by
            ``vanilla``.
        bank: :class:`ExampleBank` (fixed example, or dynamic selection for ``full``).
        config: :class:`~actionable.core.config.PlannerConfig`.
        progress: optional callback receiving event dicts
            (``{"event": "step", "step": i, "max_steps": n}`` ...).

    Raises:
        PlanningError: an index without step items for a translating variant.
    """

    def __init__(self, lm, index, bank: ExampleBank, config: PlannerConfig | None = None,
                 progress: Callable[[dict], None] | None = None,
                 candidates_per_sample: int = CANDIDATES_PER_SAMPLE):
        self.lm = lm
        self.index = index
        self.bank = bank
        self.config = config or PlannerConfig()
        if self.config.cutoff is None:  # no cutoff given: the model's default, decided in actionable.core.defaults
            self.config = self.config.model_copy(
                update={"cutoff": plan_cutoff(getattr(lm, "model_id", "") or "")})
        self.progress = progress
        self.candidates_per_sample = max(1, int(candidates_per_sample))
        if self.config.variant != "vanilla":
            if index is None or getattr(index, "items", None) is None:
                raise PlanningError(f"variant {self.config.variant!r} needs an ActionIndex built from "
                                    "admissible Steps (build_action_index); got none")

    # ------------------------------------------------------------------ public
    def plan(self, task: str, scene=None, description: str | None = None,
             exclude_task: str | None = None) -> PlanResult:
        """Plan ``task`` and, when ``scene`` is given, execute it there.

        Args:
            task: the instruction (validated by :func:`prompts.clean_task`).
            scene: a :class:`~actionable.core.planning.PlanningDomain` offering the paper variants
                (``paper_variants``: VirtualHome's) for the executability check; ``None`` skips
                execution.
            description: optional task description (used only to pick among
                programs of the selected example task).
            exclude_task: task name kept out of example selection; defaults to
                ``task`` itself (Sec. 3.4: the query is never its own example).

        Returns:
            :class:`PlanResult` (JSON-serialisable via ``to_dict``).

        Raises:
            InputError: bad task text. LMError: the planning LM failed.
        """
        cfg = self.config
        task = prompts.clean_task(task)
        res = PlanResult(task=task, variant=cfg.variant, config=cfg.model_dump(),
                         planning_model=self.lm.model_id,
                         translation_model=None if cfg.variant == "vanilla" else self.index.model_id)
        t0 = time.perf_counter()
        excl = task if exclude_task is None else exclude_task
        tsel = time.perf_counter()
        if cfg.variant == "full":
            example, sim = self.bank.select(task, self.index.embedder, exclude_task=excl,
                                            description=description,
                                            cache_dir=getattr(self.index, "cache_dir", None))
            res.example_similarity = sim
        else:
            example = self.bank.fixed(exclude_task=excl)
        res.timings["example_s"] = time.perf_counter() - tsel
        res.example = example.to_dict()
        if cfg.variant in ("vanilla", "translated"):
            self._plan_whole(task, example, res)
        else:
            self._plan_stepwise(task, example, res)
        program = Program(tuple(res.steps_as_program()), task=task, description=description or "")
        res.program = program
        if scene is not None:
            self._execute(program, scene, res)
        res.timings["total_s"] = time.perf_counter() - t0
        res.timings["other_s"] = max(0.0, res.timings["total_s"] - sum(
            res.timings.get(k, 0.0) for k in ("lm_s", "translation_s", "execution_s")))
        return res

    # ---------------------------------------------------------------- helpers
    def _emit(self, **event) -> None:
        if self.progress is not None:
            self.progress(event)

    def _params(self, n: int, max_tokens: int, stop: tuple[str, ...], offset: int) -> GenerationParams:
        cfg = self.config
        return GenerationParams(n=n, temperature=cfg.temperature, top_p=cfg.top_p, max_tokens=max_tokens,
                                stop=stop, presence_penalty=cfg.presence_penalty,
                                frequency_penalty=cfg.frequency_penalty, seed=cfg.seed + offset)

    def _generate(self, prompt: str, params: GenerationParams, res: PlanResult):
        t = time.perf_counter()
        out = self.lm.generate(prompt, params)
        res.timings["lm_s"] = res.timings.get("lm_s", 0.0) + time.perf_counter() - t
        res.lm_calls += 1
        res.decoding.append(params.to_dict())
        return out

    def _plan_whole(self, task: str, example: Example, res: PlanResult) -> None:
        """Vanilla and post-hoc translated variants: one LM call for the plan."""
        cfg = self.config
        prompt = prompts.example_block(example) + prompts.query_header(task) + "Step 1:"
        self._emit(event="generate", step=1, max_steps=cfg.max_steps)
        max_tokens = min(512, cfg.max_tokens * cfg.max_steps)
        comp = self._generate(prompt, self._params(1, max_tokens, ("\n\n", "\nTask:"), 0), res)[0]
        res.prompt = prompt
        res.completion = comp.text
        raw = prompts.split_generated_steps(comp.text, cfg.max_steps)
        res.stop_reason = "max_steps" if len(raw) >= cfg.max_steps else "end_of_plan"
        if cfg.variant == "vanilla":
            for i, text in enumerate(raw, 1):
                try:
                    step = parse_text_step(text)
                    res.steps.append(StepTrace(position=i, sample_text=text, action=step.to_text(),
                                               step=step))
                except ProgramParseError as exc:
                    res.steps.append(StepTrace(position=i, sample_text=text, action=None, step=None,
                                               parse_error=str(exc)))
            return
        t = time.perf_counter()
        if raw:
            scores, idx = self.index.search(raw, k=1)
            for i, text in enumerate(raw):
                j = int(idx[i, 0])
                res.steps.append(StepTrace(position=i + 1, sample_text=text, action=self.index.phrases[j],
                                           step=self.index.items[j], cosine=float(scores[i, 0]),
                                           total=float(scores[i, 0])))
        res.timings["translation_s"] = time.perf_counter() - t

    def _plan_stepwise(self, task: str, example: Example, res: PlanResult) -> None:
        """Trajectory correction (Sec. 3.3): one position at a time."""
        cfg = self.config
        prompt = prompts.example_block(example) + prompts.query_header(task)
        prev: int | None = None
        res.stop_reason = "max_steps"
        for i in range(1, cfg.max_steps + 1):
            self._emit(event="step", step=i, max_steps=cfg.max_steps)
            step_prompt = prompt + f"Step {i}:"
            comps = self._generate(step_prompt, self._params(cfg.samples, cfg.max_tokens, ("\n",), i), res)
            texts = [c.text.strip() for c in comps]
            nonempty = [j for j, t in enumerate(texts) if t]
            n_empty = len(texts) - len(nonempty)
            if not texts or n_empty / len(texts) > cfg.empty_stop_fraction:
                res.stop_reason = "empty_samples"
                res.stopped_at = {"position": i, "empty": n_empty, "samples": len(texts)}
                break
            t = time.perf_counter()
            m = min(self.candidates_per_sample, len(self.index))
            cos, idx = self.index.search([texts[j] for j in nonempty], k=m)
            best = None
            samples = []
            for row, j in enumerate(nonempty):
                lp = comps[j].mean_logprob
                lp_term = 0.0 if lp is None or not np.isfinite(lp) else cfg.beta * lp
                for c in range(m):
                    a = int(idx[row, c])
                    repeated = prev is not None and a == prev
                    total = float(cos[row, c]) + lp_term - (cfg.repeat_penalty if repeated else 0.0)
                    if best is None or total > best[0]:
                        best = (total, j, a, float(cos[row, c]), lp, repeated)
                samples.append({"text": texts[j], "logprob": lp, "action": self.index.phrases[int(idx[row, 0])],
                                "cosine": float(cos[row, 0])})
            res.timings["translation_s"] = res.timings.get("translation_s", 0.0) + time.perf_counter() - t
            total, j, a, c, lp, repeated = best
            if total < cfg.cutoff:
                res.stop_reason = "below_cutoff"
                res.stopped_at = {"position": i, "best_score": total, "best_action": self.index.phrases[a],
                                  "best_sample": texts[j]}
                break
            res.steps.append(StepTrace(position=i, sample_text=texts[j], action=self.index.phrases[a],
                                       step=self.index.items[a], cosine=c, logprob=lp, total=total,
                                       repeat_penalised=repeated, n_samples=len(texts), n_empty=n_empty,
                                       samples=samples))
            prompt += prompts.step_line(i, self.index.phrases[a])
            prev = a
        res.prompt = prompt

    def _execute(self, program: Program, scene, res: PlanResult) -> None:
        """Resolve node ids and run the program in the simulator."""
        t = time.perf_counter()
        parse_errors = [s for s in res.steps if s.parse_error]
        if parse_errors:
            first = parse_errors[0]
            res.executability = {
                "executable": False, "failed_index": first.position - 1, "failed_step": first.sample_text,
                "error_type": "parse", "error": first.parse_error, "unmet_preconditions": [],
                "steps_executed": 0}
        elif not program.steps:
            res.executability = {"executable": False, "failed_index": None, "failed_step": None,
                                 "error_type": "empty_plan", "error": "the planner produced no steps",
                                 "unmet_preconditions": [], "steps_executed": 0}
        elif self.config.repair:
            from actionable.planning.affordance import ground_program

            g = ground_program(program, scene, repair=True)
            fi = g.failed_index
            info = g.info or {}
            res.executability = {
                "executable": bool(g.executable), "failed_index": fi,
                "failed_step": program.steps[fi].to_text() if fi is not None else None,
                "error_type": info.get("error_type"), "error": info.get("error"),
                "unmet_preconditions": list(info.get("unmet_preconditions") or []),
                "steps_executed": len(program.steps) if g.executable else fi, "repairs": g.n_repairs}
            res.resolved_program = program.replace_steps(g.steps)
            res.repaired_flags = list(g.repaired)
        else:
            try:
                er = scene.resolve_and_execute(program)
                fi = er.failed_index
                res.executability = {
                    "executable": bool(er.executable), "failed_index": fi,
                    "failed_step": program.steps[fi].to_text() if fi is not None and fi < len(program) else None,
                    "error_type": er.error_type, "error": er.error,
                    "unmet_preconditions": list(er.unmet_preconditions or []),
                    "steps_executed": er.steps_executed}
                resolved = getattr(er, "program", None) or getattr(er, "resolved_program", None)
                if resolved is not None:
                    res.resolved_program = resolved
            except ResolutionError as exc:
                fi = getattr(exc, "index", None)
                res.executability = {"executable": False, "failed_index": fi,
                                     "failed_step": program.steps[fi].to_text() if fi is not None else None,
                                     "error_type": "resolution", "error": str(exc),
                                     "unmet_preconditions": [], "steps_executed": 0}
        res.timings["execution_s"] = time.perf_counter() - t


def build_action_index(domain, embedder, cache_dir=None):
    """:class:`ActionIndex` over every admissible action of a planning domain's scene
    (``domain.admissible_actions()``, the paper variants' action set; VirtualHome:
    :func:`actionable.worlds.virtualhome.admissible.admissible_actions`), items = class-level Steps.

    Raises:
        ConfigError: the domain offers no whole-scene action space (``paper_variants``).
        GroundingError: empty action space.
    """
    from actionable.grounding.index import ActionIndex

    if not getattr(domain, "paper_variants", False):
        from actionable.core.errors import ConfigError

        raise ConfigError(f"the paper's variants need a whole-scene admissible-action space; world "
                          f"{getattr(domain, 'world', '?')!r} has none (use the grounded planner)")
    return ActionIndex.from_steps(embedder, domain.admissible_actions(), cache_dir=cache_dir)


__all__ = ["ZeroShotPlanner", "PlanResult", "StepTrace", "build_action_index", "Step"]
