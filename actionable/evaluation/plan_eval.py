"""Plan evaluation episodes: the paper's table of Huang et al. 2022 (issue 3).

One episode = one (query, variant) pair. The worker plans with
:class:`~actionable.planning.zero_shot.ZeroShotPlanner` on the default
(merged) house, then executes the class-level plan in the initial scene of
every goal program of the query (resolving node ids there) and scores it:

* executability (Huang et al. 2022, Sec. 4) with the failure kind
  (:func:`~actionable.evaluation.metrics.classify_failure`); a name-only query
  executed in several scenes reports the executable share;
* normalised LCS against the best-matching gold program of the task;
* goal-condition success and task success (:mod:`actionable.core.goals`)
  on the state after the executed prefix, with ``match="class"`` (the headline:
  any instance of the annotated class) and ``match="id"`` (strict);
* plan length and seconds per plan (planner wall time, LM included).

Variants (rows of Table 1/2 of the paper): ``vanilla``, ``translated``,
``corrected``, ``full``; ablations of ``full``: ``no-translation`` (vanilla +
dynamic example), ``no-correction`` (post-hoc translation + dynamic example),
``no-dynamic-example`` (= ``corrected``); and ``full-bow``: ``full`` with the
bag-of-words translation LM (stand-in for the paper's averaged GloVe row).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from actionable.core.defaults import WORLD
from actionable.core.errors import ConfigError, ResolutionError, UnknownNodeError

#: name -> (planner variant, dynamic example, translation LM override or None)
VARIANT_TABLE: dict[str, tuple[str, bool, str | None]] = {
    "vanilla": ("vanilla", False, None),
    "translated": ("translated", False, None),
    "corrected": ("corrected", False, None),
    "full": ("full", True, None),
    "no-translation": ("vanilla", True, None),
    "no-correction": ("translated", True, None),
    "no-dynamic-example": ("corrected", False, None),
    "full-bow": ("full", True, "bow"),
}
DEFAULT_VARIANTS = ("vanilla", "translated", "full", "no-translation", "no-correction",
                    "no-dynamic-example", "full-bow")


def parse_variants(text: str) -> list[str]:
    """``"vanilla,full"`` -> ``["vanilla", "full"]``.

    Raises:
        ConfigError: an unknown or repeated variant name.
    """
    names = [v.strip().lower() for v in text.split(",") if v.strip()]
    bad = [v for v in names if v not in VARIANT_TABLE]
    if bad or not names:
        raise ConfigError(f"unknown variant(s) {bad or text!r}; choose from {', '.join(VARIANT_TABLE)}")
    if len(set(names)) != len(names):
        raise ConfigError(f"--variants lists a variant twice: {text!r}")
    return names


class _DynamicAsFixed:
    """Example bank whose ``fixed`` example is the dynamically selected one
    (for the ``no-translation`` / ``no-correction`` ablations, which keep dynamic
    example selection but use a non-``full`` planner variant)."""

    def __init__(self, bank, embedder, description: str | None):
        self.bank, self.embedder, self.description = bank, embedder, description

    def fixed(self, exclude_task=None):
        task = exclude_task if isinstance(exclude_task, str) else ""
        return self.bank.select(task, self.embedder, exclude_task=exclude_task,
                                description=self.description)[0]

    def select(self, *a, **k):
        return self.bank.select(*a, **k)


@dataclass(frozen=True)
class PlanEvalSettings:
    """Everything a worker needs (picklable, JSON-able via ``vars``)."""

    model: str = "embedded"
    translation_model: str = "minilm"
    planner: dict | None = None          # PlannerConfig fields (without variant/seed)
    bank_tasks: tuple[str, ...] = ()     # example-bank task names (normalised); () = all
    example_bank: str | None = None      # user JSONL bank instead of the packaged programs
    goal_file: str | None = None
    lm_cache: bool = True
    cache_dir: str | None = None
    world: str = WORLD


class PlanWorkerFactory:
    """Picklable factory: builds the models, example bank and indices once per worker."""

    def __init__(self, settings: PlanEvalSettings):
        self.settings = settings

    def __call__(self):
        return PlanWorker(self.settings)


class PlanWorker:
    """Runs plan-evaluation episodes; ``payload = {"query": EvalQuery dict, "variant", "seed"}``."""

    def __init__(self, settings: PlanEvalSettings):
        from actionable.core.config import worker_lm_config
        from actionable.core.registry import planning_domain
        from actionable.evaluation.datasets import dataset
        from actionable.planning.examples import ExampleBank

        self.s = settings
        #: on-disk caches (action-index embeddings, merged scene); the LM cache lives here too
        self.cache_dir, self.lm_config = worker_lm_config(settings.model, settings.lm_cache, settings.cache_dir)
        self._scripted = settings.model.startswith("scripted:")
        self._lm = None if self._scripted else self._build_lm()
        bank = (ExampleBank.from_jsonl(settings.example_bank) if settings.example_bank
                else ExampleBank(dataset(settings.world).examples()))
        self.bank = bank.restrict(settings.bank_tasks) if settings.bank_tasks else bank
        self.dataset = dataset(settings.world)
        self.annotations = self.dataset.goal_annotations(settings.goal_file)
        self._domain = lambda scene: planning_domain(settings.world, scene)
        self.default_scene = self._domain("default")
        self._scenes: dict[str, Any] = {}
        self._golds: dict[str, Any] = {}
        self._embedders: dict[str, Any] = {}
        self._indices: dict[str, Any] = {}

    # -- per-worker caches -------------------------------------------------------------
    def _build_lm(self):
        from actionable.lm.registry import load_lm

        return load_lm(self.s.model, self.lm_config)

    def embedder(self, spec: str):
        if spec not in self._embedders:
            from actionable.grounding.embedder import load_embedder

            self._embedders[spec] = load_embedder(spec, cache_dir=self.cache_dir)
        return self._embedders[spec]

    def index(self, spec: str):
        if spec not in self._indices:
            from actionable.planning.zero_shot import build_action_index

            self._indices[spec] = build_action_index(self.default_scene, self.embedder(spec),
                                                     cache_dir=self.cache_dir)
        return self._indices[spec]

    def scene(self, pid: str):
        if pid not in self._scenes:
            self._scenes[pid] = self._domain(self.dataset.scene(pid))
        return self._scenes[pid]

    def gold(self, pid: str):
        if pid not in self._golds:
            self._golds[pid] = self.dataset.program(pid).unresolved().steps
        return self._golds[pid]

    # -- one episode ---------------------------------------------------------------------
    def __call__(self, payload: dict) -> dict:
        from actionable.core.config import PlannerConfig, make_config
        from actionable.evaluation.splits import EvalQuery
        from actionable.planning.zero_shot import ZeroShotPlanner

        q = EvalQuery.from_dict(payload["query"])
        vname = payload["variant"]
        pvariant, dynamic, tr_override = VARIANT_TABLE[vname]
        tr_spec = tr_override or self.s.translation_model
        cfg = make_config(PlannerConfig, **{**(self.s.planner or {}), "variant": pvariant,
                                            "seed": int(payload.get("seed", 0))})
        lm = self._build_lm() if self._scripted else self._lm
        needs_index = pvariant != "vanilla"
        index = self.index(tr_spec) if needs_index else None
        bank = self.bank
        if dynamic and pvariant != "full":
            bank = _DynamicAsFixed(self.bank, self.embedder(tr_spec), q.description or None)
        planner = ZeroShotPlanner(lm, index, bank, cfg)
        t0 = time.perf_counter()
        res = planner.plan(q.task, scene=None, description=q.description or None, exclude_task=q.task)
        plan_s = time.perf_counter() - t0
        t1 = time.perf_counter()
        metrics = self._score(q, res)
        metrics["seconds_per_plan"] = plan_s
        metrics["scoring_s"] = time.perf_counter() - t1
        out = res.to_dict()
        out.pop("prompt", None)  # large; the example and the steps are kept
        return {"key": payload.get("key"), "variant": vname, "planner_variant": pvariant,
                "dynamic_example": dynamic or pvariant == "full", "translation_model": (
                    self.embedder(tr_spec).model_id if needs_index or dynamic else None),
                "query": q.to_dict(), "seed": cfg.seed, "metrics": metrics, "plan": out}

    def _score(self, q, res) -> dict:
        from actionable.core.goals import check_goals, mean_goal_results
        from actionable.evaluation.metrics import best_lcs, classify_failure

        program = res.program
        steps = tuple(program.steps) if program is not None else ()
        parse_pos = [t.position for t in res.steps if t.parse_error]
        prefix = tuple(t.step for t in res.steps
                       if t.step is not None and (not parse_pos or t.position < parse_pos[0]))
        scenes = list(q.goal_program_ids) or ["default"]
        per_scene = []
        goal_id, goal_cls = [], []
        for pid in scenes:
            verdict = self._execute(prefix, pid)
            if parse_pos:
                verdict.update(executable=False, error_type="parse",
                               error=next(t.parse_error for t in res.steps if t.parse_error))
            elif not steps:
                verdict.update(executable=False, error_type="empty_plan", error="no steps")
            fail = None if verdict["executable"] else classify_failure(
                verdict["error_type"], verdict["error"], verdict["unmet"]).label
            rec = {"scene": pid, "executable": verdict["executable"], "failure": fail,
                   "error": verdict["error"], "failed_index": verdict["failed_index"]}
            final, done = verdict.pop("final_graph"), verdict.pop("executed")
            if pid in self.annotations and final is not None:
                spec = self.annotations[pid]
                gi, gc = check_goals(spec, final, done, "id"), check_goals(spec, final, done, "class")
                goal_id.append(gi)
                goal_cls.append(gc)
                rec["goals_class"] = gc.to_dict()
                rec["goals_id"] = gi.to_dict()
            per_scene.append(rec)
        lcs, lcs_gold = best_lcs(steps, [(g, self.gold(g)) for g in q.gold_program_ids])
        m: dict[str, Any] = {
            "executability": sum(r["executable"] for r in per_scene) / len(per_scene),
            "executable": all(r["executable"] for r in per_scene),
            "failure": next((r["failure"] for r in per_scene if r["failure"]), None),
            "lcs": lcs if q.gold_program_ids else None, "lcs_gold": lcs_gold,
            "plan_length": len(steps), "per_scene": per_scene,
            "lm_calls": res.lm_calls, "lm_s": res.timings.get("lm_s"),
        }
        if goal_cls:
            mc, mi = mean_goal_results(goal_cls), mean_goal_results(goal_id)
            m.update(goal_condition_success=mc["goal_condition_success"], task_success=mc["task_success"],
                     goal_condition_success_id=mi["goal_condition_success"],
                     task_success_id=mi["task_success"])
        else:
            m.update(goal_condition_success=None, task_success=None,
                     goal_condition_success_id=None, task_success_id=None)
        return m

    def _execute(self, steps: tuple, pid: str) -> dict:
        """Resolve + execute the class-level ``steps`` in scene ``pid``."""
        from actionable.core.program import Program
        from actionable.planning.affordance import ground_program

        scene = self.default_scene if pid == "default" else self.scene(pid)
        initial = ground_program(Program(()), scene, repair=False).final_state.to_dict()
        blank = {"executable": True, "error": None, "error_type": None, "unmet": [],
                 "failed_index": None, "final_graph": initial, "executed": ()}
        if not steps:
            return blank
        try:
            er = scene.resolve_and_execute(Program(steps))
        except (ResolutionError, UnknownNodeError) as exc:
            # the state before the unresolvable step: re-run the prefix (milliseconds)
            idx = getattr(exc, "index", None)
            idx = idx if isinstance(idx, int) and 0 <= idx < len(steps) else 0
            prev = self._execute(steps[:idx], pid) if idx else blank
            return {**prev, "executable": False, "error": str(exc), "error_type": "resolution",
                    "unmet": [], "failed_index": idx}
        return {"executable": bool(er.executable), "error": er.error, "error_type": er.error_type,
                "unmet": list(er.unmet_preconditions or []), "failed_index": er.failed_index,
                "final_graph": er.final_graph, "executed": steps[:er.steps_executed]}


def prepare_plan_run(*, variants: list[str], model: str = "embedded", translation_model: str = "minilm",
                     query_modes: tuple[str, ...] = ("name",), limit: int | None = None, seed: int = 0,
                     split_seed: int = 0, heldout_fraction: float | None = None,
                     tasks_file: str | None = None, example_bank: str | None = None,
                     planner: dict | None = None, lm_cache: bool = True, cache_dir: str | None = None,
                     goal_file: str | None = None, command: str = ""):
    """Build the episodes, worker factory and manifest of a plan-evaluation run.

    Episodes: every (query, variant) pair, key ``"<variant>|<query key>|seed<seed>"``;
    ``limit`` keeps the first ``limit`` queries of each query mode (stable order).

    Returns:
        ``(episodes, factory, manifest)`` for :func:`~actionable.evaluation.runner.run_episodes`.

    Raises:
        ConfigError: bad variants / limit. InputError: bad task list or query mode.
    """
    from actionable.evaluation.datasets import dataset
    from actionable.evaluation.runner import Episode
    from actionable.evaluation.splits import (DEFAULT_HELDOUT_FRACTION, default_split, heldout_queries,
                                              load_task_list, packaged_programs, split_summary)

    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be >= 1, got {limit}")
    for v in variants:
        if v not in VARIANT_TABLE:
            raise ConfigError(f"unknown variant {v!r}; choose from {', '.join(VARIANT_TABLE)}")
    progs = packaged_programs()
    split = default_split(split_seed, heldout_fraction or DEFAULT_HELDOUT_FRACTION, progs)
    if tasks_file:
        queries = load_task_list(tasks_file, progs)
    else:
        queries = heldout_queries(split, list(query_modes), dataset().goal_annotations(goal_file), progs)
    if limit is not None:
        kept, per_mode = [], {}
        for q in queries:
            per_mode[q.mode] = per_mode.get(q.mode, 0) + 1
            if per_mode[q.mode] <= limit:
                kept.append(q)
        queries = kept
    settings = PlanEvalSettings(model=model, translation_model=translation_model, planner=planner or {},
                                bank_tasks=() if (example_bank or tasks_file) else tuple(split.bank_tasks),
                                example_bank=example_bank, goal_file=goal_file, lm_cache=lm_cache,
                                cache_dir=cache_dir)
    episodes = [Episode(f"{v}|{q.key}|seed{seed}",
                        {"key": f"{v}|{q.key}|seed{seed}", "query": q.to_dict(), "variant": v,
                         "seed": seed, "model": model})
                for q in queries for v in variants]
    ident = {"model": model, "translation_model": translation_model, "planner": planner or {},
             "split": split.to_dict(), "example_bank": example_bank, "goal_file": goal_file,
             "tasks_file": tasks_file}
    from actionable.evaluation.runner import config_fingerprint

    manifest = {"kind": "plan", "fingerprint": config_fingerprint(ident), **ident, "command": command,
                "split_summary": split_summary(split, queries)}
    return episodes, PlanWorkerFactory(settings), manifest
