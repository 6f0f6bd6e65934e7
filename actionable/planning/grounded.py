"""State-grounded planning: the planning LM scores admissible, afforded actions
one step at a time against the state the plan has reached.

The method combines four published ideas (issue 12):

* **LoTa-Bench** (Choi et al. 2024): the LM does not write free text; every
  candidate skill is scored by its log-likelihood as the next step
  (:meth:`LanguageModel.score`, reusing the prompt's KV cache), greedy, with a
  ``Done`` skill for termination.
* **SayCan** (Ahn et al. 2022): usefulness times affordance. Here the
  affordance is exact and 0/1: a candidate is kept only if some binding of its
  objects executes in the world from the current state.
* **CAPE** (Raman et al. 2024): when a preferred action's preconditions are
  unmet, corrective steps are inserted (by the world's rules), marked as
  repairs in the output.

The world is reached only through its planning domain
(:mod:`~actionable.core.planning`): affordance, repair, state fingerprints,
candidate steps, object matching and replay come from the world's package
(VirtualHome: :mod:`actionable.worlds.virtualhome.planning`, the simulator oracle
of :mod:`~actionable.planning.affordance` and the rules of
:mod:`~actionable.worlds.virtualhome.repair`; THOR: :mod:`actionable.worlds.thor.planning`).
* **LLM-Planner** (Song et al. 2023): the prompt holds the k nearest whole
  programs (:class:`~actionable.planning.retrieval.ProgramRetriever`); the
  query's own program is excluded in evaluation.

And the translation score of Huang et al. 2022 (Sec. 3.2): with ``samples > 0``
the LM samples free-text steps and each candidate gets its best cosine to them.

Score of candidate ``a`` at step ``i`` (weights in :class:`GroundedConfig`,
chosen on the training split, docs/results.md)::

    S(a) = w_lm * lm(a) + w_translation * max_j cos(f(a), f(ahat_j))
         + w_retrieval * prior(a) + w_task * cos(f(a), f(task)) + w_object * named(a)

``lm(a)``: summed log-prob (nats) of ``" <Action>\\n"`` after ``Step i:``,
divided by the phrase's word count; ``named(a)``: share of ``a``'s objects
that the task names (:mod:`~actionable.grounding.objects`); ``prior(a)``: similarity-weighted share of
retrieved programs that still have ``a`` to do (half) or have it as their next
step (half); for ``Done``, the weighted share of retrieved steps already done.

Loop guards: a candidate whose resulting state was already visited is dropped
(an undo, or a cycle), and so is one whose repair steps pass through a visited
state; an action that leaves the state unchanged is allowed once, and only if
the plan has not done it before.

The task's own step (turn 5): when one candidate says the whole task (cosine to the task's words >=
``task_step_similarity`` and its action part >= ``task_verb_similarity``: "Switch on the computer" ->
``switch on computer``; "Make coffee" has none; :mod:`~actionable.planning.taskstep`), (0) if no
object of the class can ever do it (the affordance's optional ``cannot``: a window without
``CAN_OPEN``) the task is refused (``PlanningError``); (1) if no instance can do it now and its effect
already holds on one (attempts fail as ``satisfied``, the state checked on the object) the plan is
empty, ``stop_reason`` ``already_done``, executable, with a "nothing to do" warning; (2) ``Done`` gets
``w_task_done`` once the plan has done it; (3) when ``Done`` wins before it was done, it is taken
first (with its repairs, if it does not return to a visited state; marked ``task_step`` in the
trace); (4) a candidate that takes any instance out of the state the task asks for is dropped.
``w_task_done`` = 0 turns all of them off.
The plan ends at ``Done``, when no candidate is left, or at ``max_steps``,
which counts every step (repair and goal-search steps included): a candidate whose repair chain, or a
searched step, that would not fit in the steps left is not taken (``stop_reason`` ``max_steps``).

A planning domain whose goal *is* the task (the optional attribute ``goal_is_task = True``, with
``goal_progress``: a PDDL problem's goal) ends the plan as soon as every goal holds (``stop_reason``
``goal_reached``; ``already_done`` with a "nothing to do" warning when it holds at the start), with or
without ``goal_search``: there the goal, not the LM's ``Done``, says when the task is done, and the
task's own step (read from the text, below) is not looked for.

Goal-aware termination (``GroundedConfig.goal_search``), only where the planning domain offers the
optional ``goal_progress`` capability (the task's goal predicates; THOR, not VirtualHome): a
candidate that leaves fewer goals met is dropped, and a ``Done`` (or an empty candidate list) while
goals are unmet triggers a bounded search for progress whose steps are committed
(:mod:`~actionable.planning.goalsearch`).
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from actionable.core.config import GroundedConfig
from actionable.core.program import Program, Step
from actionable.core.errors import PlanningError, ResolutionError
from actionable.lm.base import GenerationParams
from actionable.lm.choice import MAX_SHOWN
from actionable.planning import prompts
from actionable.planning.affordance import revisits_state
from actionable.core.planning import Attempt
from actionable.core.planning import Affordance, PlanningDomain
from actionable.core.defaults import WORLD
from actionable.core.registry import planning_domain
from actionable.planning.examples import format_step_text
from actionable.planning.goalsearch import goal_progress, search_progress
from actionable.grounding.objects import ObjectMatch, match_task_objects
from actionable.planning.result import PlanResult, StepTrace
from actionable.planning.retrieval import ProgramRetriever, Retrieved, query_text
from actionable.planning.taskstep import TaskSteps, drop_undoing, find_task_groups

DONE = "done"


@dataclass
class _Cand:
    phrase: str
    step: Step | None            # None for Done
    prior: float = 0.0
    task: float = 0.0
    trans: float = 0.0
    objects: float = 0.0
    task_done: bool = False      # Done only: the plan has done the task's step
    lm: float | None = None
    attempt: Attempt | None = None
    total: float = 0.0
    parts: dict = field(default_factory=dict)


def grounded_example_block(ex, with_description: bool = True) -> str:
    """One retrieved program in the grounded prompt, ending with ``Step n: Done``."""
    lines = [f"Task: {ex.task}"]
    if with_description and ex.description:
        lines.append(f"Description: {ex.description}")
    lines += [f"Step {i}: {format_step_text(s)}" for i, s in enumerate(ex.steps, 1)]
    lines.append(f"Step {len(ex.steps) + 1}: Done")
    return "\n".join(lines) + "\n\n"


class GroundedPlanner:
    """Plan with an LM scoring afforded actions in a simulated scene (module doc).

    Args:
        lm: planning LM with ``score`` (and ``generate`` when ``samples > 0``);
            ``None`` only with ``config.use_lm = False``.
        embedder: translation LM (``encode(list[str]) -> (n, d)`` unit rows).
        retriever: :class:`ProgramRetriever` over the example bank.
        config: :class:`~actionable.core.config.GroundedConfig`.
        progress: optional callback receiving event dicts.
        world: registry id of the world whose planning domain a scene *name* is looked up in
            (:func:`~actionable.core.registry.planning_domain`); a
            :class:`~actionable.core.planning.PlanningDomain` passed to :meth:`plan` is used as it is.

    Raises:
        PlanningError: ``use_lm`` without an LM that can score.
    """

    def __init__(self, lm, embedder, retriever: ProgramRetriever, config: GroundedConfig | None = None,
                 progress=None, world: str = WORLD, lm_mode: str = "auto"):
        self.config = config or GroundedConfig()
        if self.config.use_lm:
            from actionable.lm.choice import as_scorer

            lm = as_scorer(lm, lm_mode)  # (a) score, (b) choice-logprobs or (c) choice-name
        self.lm = lm
        self.lm_mode = getattr(lm, "lm_mode", "score") if self.config.use_lm else "none"
        self.embedder = embedder
        self.retriever = retriever
        self.progress = progress
        self.world = world
        self._phrase_vecs: dict[str, np.ndarray] = {}

    # ------------------------------------------------------------------ helpers
    def _emit(self, **event) -> None:
        if self.progress is not None:
            self.progress(event)

    def _vecs(self, phrases: list[str]) -> np.ndarray:
        todo = [p for p in dict.fromkeys(phrases) if p not in self._phrase_vecs]
        if todo:
            for p, v in zip(todo, np.asarray(self.embedder.encode(todo), dtype=np.float32)):
                self._phrase_vecs[p] = v
        return np.stack([self._phrase_vecs[p] for p in phrases]) if phrases else np.zeros((0, 1))

    def relevant_classes(self, scene, task: str, description: str | None,
                         retrieved: list[Retrieved]) -> tuple[dict[str, str], ObjectMatch]:
        """``(scene classes relevant to the task -> why, the task's object match)``; why is
        ``"retrieved"`` or ``"task words: ..."``.

        Classes used by the retrieved programs, plus the classes the task's
        words name (the domain's ``match_objects``; VirtualHome:
        :func:`~actionable.grounding.objects.match_task_objects`: names, VirtualHome's
        equivalences, then the translation LM), with the world's name equivalences.

        Args:
            scene: an :class:`~actionable.core.planning.Affordance` (the world's view of the scene).
        """
        cfg = self.config
        names = scene.class_names()
        present = set(names)
        out: dict[str, str] = {}

        def add(name: str, why: str) -> None:
            for n in scene.equivalents(name):
                if n in present and n != "character":
                    out.setdefault(n, why)

        if cfg.use_retrieval:
            for r in retrieved[: cfg.pool_programs]:
                for s in r.example.steps:
                    try:
                        for a in scene.step_classes(s):
                            add(a, "retrieved")
                    except Exception:  # noqa: BLE001 - a user bank line that does not parse adds nothing
                        continue
        match = scene.match_objects(query_text(task, None), self.embedder)
        for words, c, how, score in match.matched:
            add(c, f"task words: {words!r} ({how}{'' if how == 'name' else f', cos {score:.2f}'})")
        return out, match

    # ------------------------------------------------------------------ public
    def plan(self, task: str, scene, description: str | None = None, exclude_sources=(),
             exclude_tasks=()) -> PlanResult:
        """Plan ``task`` in ``scene`` step by step (see the module doc).

        Args:
            task: the instruction (validated by :func:`prompts.clean_task`).
            scene: a :class:`~actionable.core.planning.PlanningDomain` (any world: its
                affordance, repair, candidates and replay are used), or a scene of the planner's
                ``world`` (a name; VirtualHome also a :class:`~actionable.worlds.virtualhome.scene.SceneGraph`).
            description: optional task description (used for retrieval and the prompt).
            exclude_sources / exclude_tasks: retrieval exclusions (evaluation splits).

        Returns:
            :class:`PlanResult` with ``variant="grounded"``; ``steps`` carry
            ``repaired`` flags; ``executability`` comes from replaying the
            resolved program (it holds by construction, and is checked).

        Raises:
            InputError: bad task text. SceneError: unknown scene. ConfigError: the world
            has no planning domain.
            PlanningError: nothing in the bank or the scene relates to the task.
        """
        cfg = self.config
        task = prompts.clean_task(task)
        domain = scene if isinstance(scene, PlanningDomain) else planning_domain(self.world, scene)
        t0 = time.perf_counter()
        res = PlanResult(task=task, variant="grounded", config=cfg.model_dump(),
                         planning_model=self.lm.model_id if (self.lm is not None and cfg.use_lm) else "none",
                         translation_model=self.embedder.model_id, world=domain.world, scene=domain.name,
                         lm_mode=self.lm_mode)
        notes_before = len(getattr(self.lm, "notes", ()) or ())
        fallbacks_before = getattr(self.lm, "fallbacks", 0)
        positions_before = getattr(self.lm, "position_answers", 0)
        oracle = domain.start(repair_budget=cfg.repair_budget if cfg.repair else 0)
        k = max(cfg.prompt_examples, cfg.pool_programs)
        retrieved = self.retriever.nearest(task, description, k=k, exclude_sources=exclude_sources,
                                           exclude_tasks=exclude_tasks)
        res.retrieved = [r.to_dict() for r in retrieved]
        classes, match = self.relevant_classes(oracle, task, description, retrieved)
        res.relevant_classes = dict(sorted(classes.items()))
        res.objects = match.to_dict()
        best_sim = max((r.similarity for r in retrieved), default=0.0)
        if not match.matched and prompts.speaks_to_the_planner(task):
            raise PlanningError(
                f"{task!r} is not a household task: it speaks to the planner about its prompt or instructions, "
                f"and no word of it names an object of scene {domain.name!r}. Give a task in the house with an "
                f"object of the scene ({domain.classes_hint})")
        for word, closest in match.missing:
            res.warnings.append(f"the task names {word!r}; this scene has none (closest: {', '.join(closest)})")
        nothing = not match.matched and best_sim < cfg.min_task_similarity
        if nothing and all(w in match.unknown for w, _ in match.missing):
            match.missing = []  # no word is known at all ("asdf qwerty"): refused below as unrelated
        # a word in no object vocabulary ("shut", "around") blocks only when nothing else in the task
        # names an object here ("Ride the bicycle"), and no allowed program of the bank uses the word
        # ("Write an email": the bank's "Work" opens an email account); otherwise it is a warning
        blocking = [(w, c) for w, c in match.missing if w not in match.unknown or not match.matched]
        if blocking and best_sim < cfg.missing_object_similarity:
            blocking = [(w, c) for w, c in blocking
                        if w not in match.unknown or not self._bank_knows(w, res, exclude_sources, exclude_tasks)]
        if blocking and best_sim < cfg.missing_object_similarity:
            word, closest = blocking[0]
            raise PlanningError(
                f"the task names {word!r}, and scene {domain.name!r} has no such object; closest "
                f"objects here: {', '.join(closest) or 'none'}. Rephrase the task with an object of the scene "
                f"({domain.classes_hint}), or plan in another scene (--scene)")
        if nothing:
            raise PlanningError(
                f"nothing in the example bank or the scene matches {task!r} (best program similarity "
                f"{best_sim:.2f} < {cfg.min_task_similarity}); rephrase the task with objects of the "
                f"scene ({domain.classes_hint})")
        pool = oracle.candidates(classes)
        phrases = [s.to_text() for s in pool]
        vec = self._vecs(phrases)
        task_cos = vec @ self.embedder.encode([query_text(task, description)])[0]
        named = set(match.classes)
        obj_share = [sum(a.name in named for a in s.args) / max(1, len(s.args)) for s in pool]
        if getattr(domain, "goal_is_task", False):  # the goal says when the task is done, not one step
            ts = TaskSteps([], pool, phrases, oracle)
        else:
            ts = find_task_groups(self.embedder, cfg, pool, phrases, vec, task, match, oracle)
        task_steps, task_pool = ts.phrases, ts.pool
        res.task_steps = sorted(task_steps)
        cannot = getattr(oracle, "cannot", None)  # optional: why a step can never run here
        for group, gpool in zip(ts.groups, ts.pools) if cannot is not None else ():
            reasons = [cannot(st) for st in gpool]
            if gpool and all(reasons):  # one clause nothing here affords: the task cannot be done
                raise PlanningError(
                    f"the task asks {' / '.join(sorted(group))!r}, which nothing in scene {domain.name!r} affords "
                    f"({'; '.join(dict.fromkeys(reasons))}); rephrase the task, or plan in another scene (--scene)")
        already = ts.already
        if already:
            res.warnings.append(f"nothing to do: what {task!r} asks ({' / '.join(res.task_steps)}) already holds "
                                f"in scene {domain.name!r}")
        elif any(ts.held):
            res.warnings.append("already holds, left as it is: " + " / ".join(
                sorted(p for g, h in zip(ts.groups, ts.held) if h for p in g)))
        res.prompt = self._prompt_head(task, description, retrieved)
        ret_w = self._retrieval_weights(retrieved)
        # (weight, steps, step counts) of each retrieved program, counted once per plan
        ret_steps = [(w, list(r.example.steps), Counter(r.example.steps))
                     for w, r in zip(ret_w, retrieved[: cfg.pool_programs])]
        done_text: list[str] = []
        noop_done: set[str] = set()
        res.stop_reason = "max_steps"
        position = 0
        # optional: the world knows the task's goal predicates (module doc of goalsearch)
        progress = goal_progress(domain, task) if cfg.goal_search else None
        # optional: the domain's goal *is* the task (a PDDL problem's), so the plan ends once it holds
        reached = goal_progress(domain, task) if getattr(domain, "goal_is_task", False) else None
        while position < (0 if already else cfg.max_steps):
            if reached is not None and _all_met(reached(oracle.state)):
                res.stop_reason = "goal_reached" if res.steps else "already_done"
                if not res.steps:
                    res.warnings.append(f"nothing to do: the goal already holds in scene {domain.name!r}")
                break
            position += 1
            self._emit(event="step", step=position, max_steps=cfg.max_steps)
            step_prompt = res.prompt + f"Step {position}:"
            samples = self._samples(step_prompt, position, res)
            trans = self._translation(phrases, vec, samples)
            cands = []
            counts = Counter(done_text)
            nexts = [_next_step(steps, done_text) for _, steps, _ in ret_steps]  # once per step
            for i, (s, p) in enumerate(zip(pool, phrases)):
                prior = self._prior(p, counts, nexts, ret_steps) if cfg.use_retrieval else 0.0
                c = _Cand(p, s, prior=prior, task=float(task_cos[i]), trans=float(trans[i]),
                          objects=obj_share[i])
                c.total = (cfg.w_retrieval * c.prior + cfg.w_task * c.task + cfg.w_translation * c.trans
                           + cfg.w_object * c.objects)
                cands.append(c)
            cands.sort(key=lambda c: -c.total)
            t = time.perf_counter()
            room = cfg.max_steps - len(res.steps)  # max_steps counts repair and searched steps
            feasible, too_long = self._afford(oracle, cands, noop_done, frozenset(done_text), room=room)
            res.timings["affordance_s"] = res.timings.get("affordance_s", 0.0) + time.perf_counter() - t
            met_now = progress(oracle.state)[0] if progress is not None else 0
            if progress is not None:  # never undo a goal that holds
                feasible = [c for c in feasible if progress(c.attempt.state)[0] >= met_now]
            if task_pool and cfg.w_task_done > 0:
                # never undo what the task asks on any instance it holds for (switch on the TV that is
                # off, for "Turn off the TV"; switch off the computer just switched on)
                feasible = drop_undoing(oracle, ts.protect, feasible)
            done = _Cand(DONE, None, prior=self._done_prior(done_text, ret_steps) if cfg.use_retrieval else 0.0,
                         trans=(sum(1 for x in samples if not x.strip()) / len(samples)) if samples else 0.0)
            done.total = cfg.w_retrieval * done.prior + cfg.w_translation * done.trans - cfg.done_bias
            if cfg.w_task_done > 0 and ts.done(done_text):  # the plan did what the task says (every clause)
                done.total += cfg.w_task_done
                done.task_done = True
            if position == 1:
                done.total -= 1e3  # an empty plan is never a plan
            feasible.append(done)
            if cfg.use_lm:
                self._lm_scores(step_prompt, feasible, res)
            best = max(feasible, key=lambda c: c.total)
            if best.step is None and task_pool and not ts.done(done_text):
                forced = next((f for f in (self._task_step_now(oracle, ts.pools[i], len(res.steps))
                                           for i in ts.undone(done_text)) if f is not None), None)
                if forced is not None:  # Done before the task's own step: take it first
                    position = self._commit(res, oracle, forced, [], noop_done, done_text, position)
                    continue
            if best.step is None and progress is not None and met_now < progress(oracle.state)[1]:
                t = time.perf_counter()
                seq = search_progress(oracle, [c.step for c in cands[: cfg.max_tried]], progress,
                                      cfg.goal_search_depth, cfg.goal_search_nodes, repair=cfg.repair)
                res.timings["goal_search_s"] = res.timings.get("goal_search_s", 0.0) + time.perf_counter() - t
                if seq:  # commit the searched steps (marked in the trace), then plan on
                    n = len(res.steps)
                    for step in seq:
                        att = oracle.attempt(step, repair=cfg.repair)
                        if not att.ok or len(res.steps) + len(att.steps) > cfg.max_steps:
                            break
                        c = _Cand(step.to_text(), step, attempt=att, parts={"goal_search": 1.0})
                        self._commit(res, oracle, c, [], noop_done, done_text, 0)
                    position = len(res.steps)
                    if len(res.steps) > n:  # else nothing could be committed: stop below
                        continue
            if best.step is None:
                res.stop_reason = ("done" if len(feasible) > 1 else
                                   "max_steps" if too_long or len(res.steps) >= cfg.max_steps else "no_candidate")
                res.stopped_at = {"position": position, "candidates": len(feasible) - 1,
                                  "task_step_done": best.task_done}
                break
            position = self._commit(res, oracle, best, samples, noop_done, done_text, position)
        else:
            res.stop_reason = "already_done" if already else "max_steps"
        named = set(match.classes)
        acted = {a.name for s in res.steps for a in s.step.args}
        if task_pool and not already and not ts.done(done_text):
            left = " / ".join(ts.undone_phrases(done_text))
            res.warnings.append(f"the plan never does the task's own step ({left}): when "
                                f"Done won it did not execute or did not fit in the step limit; it may not do "
                                f"the task")
        if named and not already and not named & acted and best_sim < cfg.missing_object_similarity:
            res.warnings.append("the plan does not act on the objects the task names ("
                                + ", ".join(sorted(named)) + "); it may not do the task")
        notes = list(getattr(self.lm, "notes", ()) or ())[notes_before:]
        fell = getattr(self.lm, "fallbacks", 0) - fallbacks_before
        pos = getattr(self.lm, "position_answers", 0) - positions_before
        if fell or pos:
            said = [f"{fell} named no candidate"] if fell else []
            said += [f"{pos} gave the answer it gives with no candidates shown (content-free calibration)"] if pos else []
            res.warnings.append(f"of the LM's answers, {' and '.join(said)}, so the prior decided those steps "
                                f"(--lm-mode {self.lm_mode})" + (": " + "; ".join(notes[:2]) if notes else ""))
        resolved = [s.resolved for s in res.steps]
        res.program = Program(tuple(s.step for s in res.steps), task=task, description=description or "")
        res.resolved_program = Program(tuple(resolved), task=task, description=description or "")
        t = time.perf_counter()
        self._verify(res, oracle)
        res.timings["execution_s"] = time.perf_counter() - t
        res.timings["total_s"] = time.perf_counter() - t0
        return res

    # ------------------------------------------------------------------ parts
    def _bank_knows(self, word: str, res: PlanResult, exclude_sources, exclude_tasks) -> bool:
        """Whether an allowed bank program uses ``word`` (a warning names it on ``res``)."""
        ex = self.retriever.mentioning(word, exclude_sources, exclude_tasks)
        if ex is not None:
            res.warnings.append(f"{word!r} names no object; the plan follows the example bank, where program "
                                f"{ex.source} ({ex.task!r}) uses the word")
        return ex is not None

    def _commit(self, res: PlanResult, oracle: Affordance, best: _Cand, samples: list[str], noop_done: set[str],
                done_text: list[str], position: int) -> int:
        """Commit ``best.attempt`` (its repair steps, then the step): traces appended to
        ``res.steps``, step lines to ``res.prompt``; returns the position of the last step."""
        att = best.attempt
        before = oracle.fingerprint(oracle.state)
        oracle.commit(att)
        if att.fingerprint == before:
            noop_done.add(best.phrase)
        for j, (rs, rep) in enumerate(zip(att.steps, att.repaired)):
            if j > 0:
                position += 1
            text = rs.unresolved().to_text()
            res.steps.append(StepTrace(
                position=len(res.steps) + 1, sample_text=(samples[0] if samples and not rep else ""),
                action=text, step=rs.unresolved(), cosine=None if rep else best.trans,
                logprob=None if rep else best.lm, total=None if rep else best.total, repaired=rep,
                samples=[] if rep else [{"text": x} for x in samples],
                score_parts={} if rep else best.parts, resolved=rs))
            done_text.append(text)
            res.prompt += prompts.step_line(len(res.steps), text)
        return position

    def _prompt_head(self, task: str, description: str | None, retrieved: list[Retrieved]) -> str:
        cfg = self.config
        head = ""
        for r in retrieved[: cfg.prompt_examples]:
            block = grounded_example_block(r.example)
            if head and len(head) + len(block) > cfg.max_prompt_chars:
                break
            head += block
        head += f"Task: {task}\n"
        if description:
            head += f"Description: {description}\n"
        return head

    def _retrieval_weights(self, retrieved: list[Retrieved]) -> list[float]:
        rs = retrieved[: self.config.pool_programs]
        if not rs:
            return []
        s = np.array([max(0.0, r.similarity) for r in rs], dtype=np.float64)
        s = np.exp((s - s.max()) / max(1e-6, self.config.retrieval_temperature))
        return list(s / s.sum())

    @staticmethod
    def _prior(phrase: str, counts: Counter, nexts: list, ret_steps) -> float:
        p = 0.0
        for (w, _, need), nxt in zip(ret_steps, nexts):
            if need.get(phrase, 0) > counts.get(phrase, 0):
                p += 0.5 * w
            if nxt == phrase:
                p += 0.5 * w
        return p

    def _task_step_now(self, oracle: Affordance, task_pool: list, used: int) -> _Cand | None:
        """The task's own step as a candidate to commit now (with its repairs), if it executes, fits
        in the steps left and its own path does not loop (``[a, b, a]``); else ``None``.

        Unlike other candidates it may end in a state the plan passed before: what it is for is
        often the action itself (``watch television`` after ``sit on couch``, ``find television``
        needs ``turn to television`` again, which returns to the seated, facing state; the goal is
        ``did(WATCH)``), which a state fingerprint does not show. It is taken at most once."""
        cfg = self.config
        if cfg.w_task_done <= 0:
            return None
        for st in task_pool:
            try:
                att = oracle.attempt(st, repair=cfg.repair)
            except ResolutionError:
                continue
            if att.ok and used + len(att.steps) <= cfg.max_steps and not revisits_state(att.path):
                return _Cand(st.to_text(), st, attempt=att, parts={"task_step": 1.0})
        return None

    @staticmethod
    def _done_prior(done_text: list[str], ret_steps) -> float:
        p = 0.0
        have = Counter(done_text)
        for w, _, need in ret_steps:
            covered = sum(min(n, have.get(s, 0)) for s, n in need.items())
            p += w * covered / max(1, sum(need.values()))
        return p

    def _samples(self, step_prompt: str, position: int, res: PlanResult) -> list[str]:
        cfg = self.config
        if not cfg.use_lm or cfg.samples <= 0:
            return []
        params = GenerationParams(n=cfg.samples, temperature=cfg.temperature, top_p=cfg.top_p,
                                  max_tokens=cfg.max_tokens, stop=("\n",), presence_penalty=0.0,
                                  frequency_penalty=0.0, seed=cfg.seed + position)
        t = time.perf_counter()
        out = self.lm.generate(step_prompt, params)
        res.timings["lm_s"] = res.timings.get("lm_s", 0.0) + time.perf_counter() - t
        res.lm_calls += 1
        return [c.text.strip() for c in out]

    def _translation(self, phrases: list[str], vec: np.ndarray, samples: list[str]) -> np.ndarray:
        texts = [s for s in samples if s]
        if not texts:
            return np.zeros(len(phrases), dtype=np.float32)
        return (vec @ np.asarray(self.embedder.encode(texts), dtype=np.float32).T).max(axis=1)

    def _afford(self, oracle: Affordance, cands: list[_Cand], noop_done: set[str],
                done_set: frozenset = frozenset(), room: int | None = None) -> tuple[list[_Cand], bool]:
        """The first ``shortlist`` candidates (by prior score) that execute from
        the current state (after repair), do not revisit a state and, with their repair
        steps, fit in ``room`` more steps (``None``: no limit); and whether a candidate was
        left out for ``room`` alone."""
        cfg = self.config
        out: list[_Cand] = []
        too_long = False
        before = oracle.fingerprint(oracle.state)
        for c in cands[: cfg.max_tried]:
            try:
                att = oracle.attempt(c.step, repair=cfg.repair)
            except ResolutionError:
                continue
            if not att.ok:
                continue
            if room is not None and len(att.steps) > room:
                too_long = True
                continue
            if att.fingerprint == before:
                if c.phrase in noop_done or c.phrase in done_set or len(att.path) > 1:
                    continue
            elif att.fingerprint in oracle.seen:
                continue
            # a repair that passes through a state the plan already visited is a detour back
            if any(fp in oracle.seen and fp != before for fp in att.path[:-1]):
                continue
            c.attempt = att
            out.append(c)
            if len(out) >= cfg.shortlist:
                break
        # an attempt whose own path returns to a state it passed (walk to the plate just
        # put down, grab it, put it back) makes no progress; it still counts toward the
        # shortlist, so the other candidates and their scores are unchanged
        return [c for c in out if not revisits_state(c.attempt.path)], too_long

    def _lm_scores(self, step_prompt: str, cands: list[_Cand], res: PlanResult) -> None:
        cfg = self.config
        choice = self.lm_mode != "score"
        if choice and len(cands) > MAX_SHOWN:
            # a choice prompt shows at most 9 options (one digit each): the 8 best by the other terms
            # and Done; the others are not shown and drop out of this step
            done = [c for c in cands if c.step is None]
            rest = sorted((c for c in cands if c.step is not None), key=lambda c: -c.total)
            cands[:] = rest[: MAX_SHOWN - len(done)] + done
        conts = [" " + ("Done" if c.step is None else format_step_text(c.phrase)) + "\n" for c in cands]
        t = time.perf_counter()
        # (a): the step prompt ends with "Step i:"; (b)/(c): the choice prompt asks for the next step
        lps = self.lm.score(step_prompt.rsplit("\n", 1)[0] if choice else step_prompt, conts)
        res.timings["lm_s"] = res.timings.get("lm_s", 0.0) + time.perf_counter() - t
        res.lm_calls += 1
        for c, lp, text in zip(cands, lps, conts):
            # (a) per word, as tuned; (b)/(c) are already normalised over the shown candidates
            c.lm = float(lp) if choice else float(lp) / max(1, len(text.split()))
            c.parts = {"lm": round(c.lm, 4), "translation": round(float(c.trans), 4),
                       "prior": round(float(c.prior), 4), "task": round(float(c.task), 4),
                       "objects": round(float(c.objects), 4)}
            if c.task_done:
                c.parts["task_done"] = cfg.w_task_done
            c.total += (cfg.w_choice if choice else cfg.w_lm) * c.lm

    def _verify(self, res: PlanResult, oracle) -> None:
        if res.stop_reason == "already_done":  # an empty plan that is right: nothing to run
            res.executability = {"executable": True, "failed_index": None, "failed_step": None, "error_type": None,
                                 "error": None, "unmet_preconditions": [], "steps_executed": 0,
                                 "nothing_to_do": True}
            res.final_state = oracle.state
            return
        if not res.steps:
            res.executability = {"executable": False, "failed_index": None, "failed_step": None,
                                 "error_type": "empty_plan", "error": "the planner produced no steps",
                                 "unmet_preconditions": [], "steps_executed": 0}
            return
        res.executability, res.final_state = oracle.execute(res.resolved_program.steps)


def _all_met(progress: tuple[int, int]) -> bool:
    met, total = progress
    return total > 0 and met >= total


def _next_step(steps: list[str], done: list[str]) -> str | None:
    """The first step of ``steps`` not matched by an in-order greedy alignment of ``done``."""
    j = 0
    for d in done:
        k = j
        while k < len(steps) and steps[k] != d:
            k += 1
        if k < len(steps):
            j = k + 1
    return steps[j] if j < len(steps) else None


__all__ = ["GroundedPlanner", "grounded_example_block", "DONE"]
