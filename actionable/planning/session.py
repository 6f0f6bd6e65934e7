"""A planning session: scene, planning LM, translation LM, action index and
example bank loaded once, then any number of plans.

Used by ``actionable plan`` and by the evaluation harness. Loading order is
cheap-to-expensive so bad input fails fast: scene name, planning LM spec,
translation LM, then the admissible-action index (the slow part on a cold
cache: about 85 s per 50k phrases with MiniLM on 2 cores; cached on disk after).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from actionable.core.config import LMConfig, PlannerConfig
from actionable.core.defaults import WORLD
from actionable.core.planning import PlanningDomain
from actionable.core.redact import redact_spec
from actionable.planning.examples import ExampleBank
from actionable.planning.result import PlanResult
from actionable.planning.zero_shot import ZeroShotPlanner


def _domain(world: str, scene) -> PlanningDomain:
    """``scene`` as a planning domain of ``world`` (a domain is returned as it is)."""
    if isinstance(scene, PlanningDomain):
        return scene
    from actionable.core.registry import planning_domain

    return planning_domain(world, scene)


class PlanningSession:
    """Load once, plan many times.

    Args:
        lm_config: planning LM spec (``model``), translation LM spec
            (``translation_model``), cache settings.
        planner_config: default :class:`PlannerConfig` (overridable per plan).
        scene: a :class:`~actionable.core.planning.PlanningDomain`, or a scene of ``world``
            (VirtualHome: ``"default"``, a packaged program id or a ``SceneGraph``), looked up
            through the world's ``planning`` capability.
        bank: an :class:`ExampleBank`, :class:`~actionable.core.dataset.Example` records, a JSONL
            path, or ``None`` for the world's own bank (``domain.example_bank()``).
        world: the registry id of the world a scene name belongs to (default: the default world,
            or the domain's).
        lm: an already-built planning LM (skips ``load_lm``; e.g. ScriptedLM).
        progress: callback for progress events (see :class:`ZeroShotPlanner`).
        lazy_lm: load the planning LM on first use of :attr:`lm`, not now (a batch of goal-planner
            tasks, which may need no planning LM at all).

    Attributes:
        scene: the :class:`~actionable.core.planning.PlanningDomain` plans are made in.
        load_timings: seconds spent loading ``scene_s``, ``lm_s``,
            ``translation_lm_s``, ``index_s``, ``bank_s``.
        index: the :class:`~actionable.grounding.index.ActionIndex`.

    Raises:
        SceneError, ModelNotFoundError, GroundingError, InputError.
    """

    def __init__(self, lm_config: LMConfig | None = None, planner_config: PlannerConfig | None = None,
                 scene="default", bank: ExampleBank | str | Path | None = None, lm=None,
                 progress: Callable[[dict], None] | None = None, world: str | None = None,
                 lazy_lm: bool = False):
        from actionable.grounding.embedder import load_embedder
        self.lm_config = lm_config or LMConfig()
        self.planner_config = planner_config or PlannerConfig()
        self.progress = progress
        self.load_timings: dict[str, float] = {}
        t = time.perf_counter()
        self.world = world or getattr(scene, "world", None) or WORLD
        self.scene = _domain(self.world, scene)
        self.load_timings["scene_s"] = time.perf_counter() - t
        self._lm = lm
        if lm is None and not lazy_lm:
            self._load_lm()
        self._emit(event="load", what="translation LM", spec=self.lm_config.translation_model)
        t = time.perf_counter()
        self.embedder = load_embedder(self.lm_config.translation_model, self.lm_config.cache_dir)
        self.load_timings["translation_lm_s"] = time.perf_counter() - t
        self._index = None
        t = time.perf_counter()
        if bank is None:
            bank = self.scene.example_bank()
        if isinstance(bank, (list, tuple)):  # a world's examples; a world may have none
            bank = ExampleBank(list(bank), allow_empty=not bank)
        elif not isinstance(bank, ExampleBank):
            bank = ExampleBank.from_jsonl(bank)
        self.bank = bank
        self.load_timings["bank_s"] = time.perf_counter() - t
        self._retriever = None

    def _load_lm(self):
        self._emit(event="load", what="planning LM", spec=redact_spec(self.lm_config.model))
        t = time.perf_counter()
        from actionable.lm.registry import load_lm

        self._lm = load_lm(self.lm_config.model, self.lm_config)
        self.load_timings["lm_s"] = time.perf_counter() - t
        return self._lm

    @property
    def lm(self):
        """The planning LM (loaded here on first use when the session was made with ``lazy_lm``)."""
        return self._lm if self._lm is not None else self._load_lm()

    @lm.setter
    def lm(self, value) -> None:
        self._lm = value

    @property
    def index(self):
        """The scene's admissible-action index (built or read from the cache on
        first use; only the paper's translating variants need it)."""
        if self._index is None:
            from actionable.planning.zero_shot import build_action_index

            self._emit(event="load", what="admissible-action index")
            t = time.perf_counter()
            cache = self.lm_config.cache_dir  # embeddings are deterministic: always cached
            self._index = build_action_index(self.scene, self.embedder, cache_dir=cache)
            self.load_timings["index_s"] = time.perf_counter() - t
        return self._index

    @property
    def retriever(self):
        """kNN program retriever over the example bank (grounded planner)."""
        if self._retriever is None:
            from actionable.planning.retrieval import ProgramRetriever

            self._emit(event="load", what=f"example bank ({len(self.bank)} programs; embedded once, then cached)")
            self._retriever = ProgramRetriever(self.bank, self.embedder, cache_dir=self.lm_config.cache_dir)
        return self._retriever

    def grounded_planner(self, config=None):
        """A :class:`~actionable.planning.grounded.GroundedPlanner` over this session's parts."""
        from actionable.planning.grounded import GroundedPlanner

        from actionable.core.config import GroundedConfig

        config = config if config is not None else GroundedConfig()
        mode = self.lm_config.lm_mode
        scorers = self.__dict__.setdefault("_scorers", {})
        if config.use_lm and mode not in scorers:  # the mode probe runs once per session
            from actionable.lm.choice import as_scorer

            scorers[mode] = as_scorer(self.lm, mode)
        lm = scorers.get(mode, self.lm) if config.use_lm else self.lm
        return GroundedPlanner(lm, self.embedder, self.retriever, config, progress=self.progress, lm_mode=mode)

    def with_scene(self, scene) -> "PlanningSession":
        """A session sharing this one's LMs and example bank, on another scene of its world
        (a domain or a scene name; its admissible-action index is built or read from the cache)."""
        other = object.__new__(PlanningSession)
        other.__dict__.update(self.__dict__)
        other.load_timings = dict(self.load_timings)
        t = time.perf_counter()
        other.scene = _domain(self.world, scene)
        other._index = None
        other.load_timings["scene_s"] = time.perf_counter() - t
        return other

    def _emit(self, **event) -> None:
        if self.progress is not None:
            self.progress(event)

    def planner(self, config: PlannerConfig | None = None) -> ZeroShotPlanner:
        """A :class:`ZeroShotPlanner` over this session's parts."""
        return ZeroShotPlanner(self.lm, self.index, self.bank, config or self.planner_config,
                               progress=self.progress)

    def plan(self, task: str, config: PlannerConfig | None = None, description: str | None = None,
             exclude_task: str | None = None, execute: bool = True) -> PlanResult:
        """Plan ``task`` in the session's scene (see :meth:`ZeroShotPlanner.plan`)."""
        return self.planner(config).plan(task, scene=self.scene if execute else None,
                                         description=description, exclude_task=exclude_task)

    def info(self) -> dict:
        """Session facts for reports: scene, models, index size and cache status."""
        planning = self._lm.model_id if self._lm is not None else f"{redact_spec(self.lm_config.model)} (not loaded)"
        return {"scene": getattr(self.scene, "name", ""), "planning_model": planning,
                "translation_model": self.embedder.model_id,
                "admissible_actions": len(self._index) if self._index is not None else None,
                "index_cache_hit": self._index.cache_hit if self._index is not None else None,
                "index_build_s": round(self._index.build_seconds, 3) if self._index is not None else None,
                "example_bank": len(self.bank),
                "load_timings": {k: round(v, 3) for k, v in self.load_timings.items()}}
