"""Action-sequencing benchmark on the 342 goal-annotated programs (issue 12),
aligned with the Embodied Agent Interface (EAI, Li et al. 2024) protocol.

One episode = (program, row, split). The task name and description of the
program are planned **in that program's own initial scene**; the plan is
grounded and executed there and scored:

* executability: every step runs (for ``grounded`` this holds by construction:
  only afforded steps are chosen; it is still checked by a replay);
* task success: the plan executes **and** every annotated goal holds
  (EAI: a plan that does not execute to the end scores 0);
* goal-condition success over all goals, and over the goals not already true in
  the initial scene (``gc_new``; plans that fail at step 1 get credit in the
  first but not the second);
* normalised LCS against the program's own human steps, plan length, repairs,
  a no-progress loop flag, and seconds per plan.

Goals are matched by class (any node of the annotated class), as for every
generated plan in this project (:mod:`actionable.core.goals`).

Splits (retrieval exclusions; the bank is the 518 packaged programs):

* ``lopo`` - leave-one-program-out: the query's own program is excluded;
* ``lto`` - leave-title-out: 5 folds over the 26 titles (:func:`title_folds`);
  every program of the query's fold is excluded.

Rows: ``grounded`` and its ablations (``-no-lm``, ``-no-retrieval``,
``-no-repair``), ``retrieval`` (copy the nearest allowed program, ground it;
``retrieval+repair`` also repairs), and the paper's variants with the
``+repair`` option (planned in the program's scene, their action index built
there).

Tuning split: the 176 packaged programs without goal annotations
(:func:`tuning_program_ids`); the 342 reported tasks are never used to choose
weights.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass, field

from actionable.core.defaults import WORLD
from actionable.evaluation.datasets import dataset
from actionable.core.errors import ConfigError, PlanningError

GROUNDED_ROWS: dict[str, dict] = {
    "grounded": {},
    "grounded-no-lm": {"use_lm": False},
    "grounded-no-retrieval": {"use_retrieval": False},
    "grounded-no-repair": {"repair": False},
}
BASELINE_ROWS = ("retrieval", "retrieval+repair")
PAPER_ROWS = ("vanilla", "translated", "corrected", "full")
ROWS: tuple[str, ...] = (*GROUNDED_ROWS, *BASELINE_ROWS, *PAPER_ROWS, *(f"{v}+repair" for v in PAPER_ROWS))
SPLITS = ("lopo", "lto")
N_FOLDS = 5
#: EAI's published action-sequencing results (task SR / execution SR, %), Li et al. 2024, Table 4.
EAI_PUBLISHED = {"Llama-3-8B-Instruct": (21.6, 25.9), "GPT-3.5-turbo": (14.7, 31.8),
                 "Llama-3-70B": (55.7, 63.0), "Mistral Large": (73.4, 83.6)}


def parse_list(text: str, allowed: tuple[str, ...], flag: str) -> list[str]:
    """``"a,b"`` -> ``["a", "b"]``; raises :class:`ConfigError` naming ``flag`` on unknown items."""
    items = [x.strip().lower() for x in text.split(",") if x.strip()]
    bad = [x for x in items if x not in allowed]
    if bad or not items:
        shown = ", ".join(repr(b) for b in bad) if bad else repr(text)
        raise ConfigError(f"{flag}: unknown value(s) {shown}; choose from {', '.join(allowed)}")
    if len(set(items)) != len(items):
        raise ConfigError(f"{flag} lists a value twice: {text!r}")
    return items


def title_folds(titles, n_folds: int = N_FOLDS) -> dict[str, int]:
    """Title -> fold (0..n_folds-1): titles ordered by ``sha256("lto:v1:<title>")``,
    dealt round-robin. Deterministic on every machine."""
    from actionable.planning.examples import normalize_task

    names = sorted({normalize_task(t) for t in titles})
    order = sorted(names, key=lambda t: hashlib.sha256(f"lto:v1:{t}".encode()).hexdigest())
    return {t: i % n_folds for i, t in enumerate(order)}


def goal_program_ids(world: str | None = None) -> list[str]:
    """The goal-annotated program ids of a world's dataset (VirtualHome: the 342 packaged ones),
    sorted like the dataset."""
    ds = dataset(world)
    ann = ds.goal_annotations()
    return [p for p in ds.program_ids() if p in ann]


def tuning_program_ids(world: str | None = None) -> list[str]:
    """The programs without goal annotations (the tuning split)."""
    ds = dataset(world)
    ann = ds.goal_annotations()
    return [p for p in ds.program_ids() if p not in ann]


@dataclass(frozen=True)
class SequencingSettings:
    """What a worker needs (picklable)."""

    model: str = "embedded"
    translation_model: str = "minilm"
    grounded: dict = field(default_factory=dict)   # GroundedConfig overrides
    lm_cache: bool = True
    cache_dir: str | None = None
    world: str = WORLD
    lm_mode: str = "auto"                          # actionable.lm.choice: score | choice-logprobs | choice-name


class SequencingWorkerFactory:
    def __init__(self, settings: SequencingSettings):
        self.settings = settings

    def __call__(self):
        return SequencingWorker(self.settings)


def _loop_flag(steps, prints) -> bool:
    """A no-progress loop: a state revisited after a change, or the same step 3+ times in a row."""
    from actionable.planning.affordance import revisits_state

    return any(steps[i] == steps[i - 1] == steps[i - 2] for i in range(2, len(steps))) or revisits_state(prints)


class SequencingWorker:
    """Runs sequencing episodes; payload ``{"program_id", "row", "split"}``."""

    def __init__(self, settings: SequencingSettings):
        from actionable.core.config import worker_lm_config
        from actionable.grounding.embedder import load_embedder
        from actionable.planning.examples import ExampleBank
        from actionable.planning.retrieval import ProgramRetriever

        self.s = settings
        #: on-disk caches (action-index embeddings, merged scene); the LM cache lives here too
        self.cache_dir, self.lm_config = worker_lm_config(settings.model, settings.lm_cache, settings.cache_dir)
        self._lm = None
        self.embedder = load_embedder(settings.translation_model, cache_dir=self.cache_dir)
        self.world = settings.world
        self.dataset = dataset(self.world)
        self.bank = ExampleBank(self.dataset.examples())
        self.retriever = ProgramRetriever(self.bank, self.embedder, cache_dir=self.cache_dir)
        self.annotations = self.dataset.goal_annotations()
        self.folds = title_folds(e.task for e in self.bank.examples)

    @property
    def lm(self):
        if self._lm is None:
            from actionable.lm.registry import load_lm

            self._lm = load_lm(self.s.model, self.lm_config)
        return self._lm

    def scene_index(self, scene):
        """The admissible-action index of ``scene``: the default house's index
        (embedded once, cached on disk) restricted to the actions whose objects
        ``scene`` has, so translation only offers what exists where the plan runs."""
        if getattr(self, "_default_index", None) is None:
            from actionable.core.registry import planning_domain
            from actionable.planning.zero_shot import build_action_index

            self._default_index = build_action_index(planning_domain(self.world, "default"),
                                                     self.embedder, self.cache_dir)
        present = set(scene.start(repair_budget=0).class_names())
        keep = [i for i, st in enumerate(self._default_index.items) if all(a.name in present for a in st.args)]
        return self._default_index.restrict(keep)

    def exclusions(self, pid: str, task: str, split: str) -> tuple[set[str], set[str]]:
        """``(excluded program ids, excluded task names)`` for a query."""
        from actionable.planning.examples import normalize_task

        if split == "lopo":
            return {pid}, set()
        if split == "lto":
            fold = self.folds.get(normalize_task(task))
            return {pid}, {t for t, f in self.folds.items() if f == fold}
        raise ConfigError(f"--splits: unknown split {split!r}; choose from {', '.join(SPLITS)}")

    def __call__(self, payload: dict) -> dict:
        from actionable.core.registry import planning_domain

        pid, row, split = payload["program_id"], payload["row"], payload["split"]
        prog = self.dataset.program(pid)
        gold = prog.unresolved()
        scene = planning_domain(self.world, self.dataset.scene(pid))
        ex_src, ex_tasks = self.exclusions(pid, prog.task, split)
        t0 = time.perf_counter()
        try:
            out = self._plan(row, prog, scene, ex_src, ex_tasks)
        except PlanningError as exc:  # a refusal ("nothing matches", "no such object") is a failed task
            from actionable.core.program import Program
            from actionable.planning.affordance import ground_program

            g = ground_program(Program(()), scene, repair=False)
            g.executable = False
            out = {"steps": [], "repaired": [], "grounded": g, "extra": {"refused": str(exc)[:300]}}
        seconds = time.perf_counter() - t0
        return {"program_id": pid, "row": row, "split": split, "task": prog.task,
                **self._score(pid, scene, gold, out), "seconds": round(seconds, 3),
                "plan": [s.to_text() for s in out["steps"]], "repaired_flags": out["repaired"],
                "extra": out.get("extra", {})}

    # -- planning ---------------------------------------------------------------------
    def _plan(self, row: str, prog, scene, ex_src, ex_tasks) -> dict:
        from actionable.core.config import GroundedConfig, make_config
        from actionable.core.program import Program
        from actionable.planning.affordance import ground_program
        from actionable.planning.grounded import GroundedPlanner

        if row in GROUNDED_ROWS:
            cfg = make_config(GroundedConfig, **{**self.s.grounded, **GROUNDED_ROWS[row]})
            planner = GroundedPlanner(self.lm if cfg.use_lm else None, self.embedder, self.retriever, cfg,
                                      world=self.world, lm_mode=getattr(self.s, "lm_mode", "auto"))
            res = planner.plan(prog.task, scene, description=prog.description or None,
                               exclude_sources=ex_src, exclude_tasks=ex_tasks)
            g = ground_program(res.resolved_program, scene, repair=False)  # an empty program grounds
            return {"steps": [s.step for s in res.steps], "repaired": [s.repaired for s in res.steps],
                    "grounded": g, "extra": {"stop": res.stop_reason, "lm_calls": res.lm_calls, "lm_mode": res.lm_mode,
                                             "prior_decided": [w for w in res.warnings if "prior decided" in w],
                                             "retrieved": res.retrieved[:3], "task_steps": res.task_steps}}
        if row.startswith("retrieval"):
            near = self.retriever.nearest(prog.task, prog.description or None, k=1,
                                          exclude_sources=ex_src, exclude_tasks=ex_tasks)[0]
            copied = Program.parse("\n".join(near.example.steps))
            g = ground_program(copied, scene, repair=row.endswith("+repair"))
            return {"steps": [s.unresolved() for s in g.steps], "repaired": g.repaired, "grounded": g,
                    "extra": {"copied": near.to_dict()}}
        return self._paper(row, prog, scene, ex_tasks)

    def _paper(self, row: str, prog, scene, ex_tasks) -> dict:
        from actionable.core.config import PlannerConfig, make_config
        from actionable.planning.affordance import ground_program
        from actionable.planning.zero_shot import ZeroShotPlanner, default_cutoff

        variant, repair = row.split("+")[0], row.endswith("+repair")
        if variant not in PAPER_ROWS:
            raise ConfigError(f"--rows: unknown row {row!r}; choose from {', '.join(ROWS)}")
        cfg = make_config(PlannerConfig, variant=variant, cutoff=default_cutoff(self.s.model))
        index = None if variant == "vanilla" else self.scene_index(scene)
        excl = [prog.task, *ex_tasks]
        res = ZeroShotPlanner(self.lm, index, self.bank, cfg).plan(prog.task, scene=None,
                                                                   description=prog.description or None,
                                                                   exclude_task=excl)
        from actionable.core.program import Program

        g = ground_program(Program(tuple(res.steps_as_program())), scene, repair=repair)
        if any(s.parse_error for s in res.steps):
            g.executable = False
        return {"steps": [s.unresolved() for s in g.steps], "repaired": g.repaired, "grounded": g,
                "extra": {"stop": res.stop_reason}}

    # -- scoring ----------------------------------------------------------------------
    def _score(self, pid: str, scene, gold, out: dict) -> dict:
        return score_plan(out, gold, self.annotations.get(pid), scene)


def score_plan(out: dict, gold, spec, scene) -> dict:
    """EAI-aligned metrics of one grounded plan (the sequencing benchmark's scoring).

    Args:
        out: ``{"steps": [Step], "repaired": [bool], "grounded": GroundedProgram}``
            (:func:`actionable.planning.affordance.ground_program` of the steps in
            ``scene``).
        gold: the program's own human steps (a ``Program``), for LCS.
        spec: the program's annotated ``GoalSpec`` or ``None`` (then no goal metrics).
        scene: the program's :class:`~actionable.core.planning.PlanningDomain` (its initial state).

    Returns:
        ``executable``, ``length``, ``repairs``, ``lcs``, ``loop`` and, with a spec,
        ``gc_all``, ``gc_new`` (``None`` when every goal held initially),
        ``task_success`` (executes *and* every goal holds; goals matched by class)
        and ``unmet_goals`` (at most 10).
    """
    from actionable.core.goals import check_goals
    from actionable.core.program import Program
    from actionable.evaluation.metrics import normalized_lcs
    from actionable.planning.affordance import ground_program

    g = out["grounded"]
    executed = g.steps if g.executable else g.steps[:-1]
    # "nothing to do" (what the task's own step makes already holds): an empty plan that runs;
    # success then rests on the goals holding in the initial scene
    nothing_to_do = (out.get("extra") or {}).get("stop") == "already_done"
    metrics = {"executable": bool(g.executable) and (bool(out["steps"]) or nothing_to_do),
               "length": len(out["steps"]), "repairs": int(sum(out["repaired"])),
               "lcs": normalized_lcs(out["steps"], gold.steps),
               "loop": _loop_flag([s.to_text() for s in out["steps"]], g.fingerprints)}
    if spec is not None:
        initial = ground_program(Program(()), scene, repair=False).final_state
        init = check_goals(spec, initial.to_dict(), [], match="class")
        final = check_goals(spec, g.final_state.to_dict(), executed, match="class")
        unmet0 = set(init.unmet)
        new_met = sum(1 for u in unmet0 if u not in set(final.unmet))
        metrics.update({
            "gc_all": final.goal_condition_success,
            "gc_new": (new_met / len(unmet0)) if unmet0 else None,
            "task_success": bool(metrics["executable"] and final.task_success),
            "unmet_goals": list(final.unmet)[:10]})
    return metrics


def summarise(records) -> list[dict]:
    """One row per (row, split): means of the metrics over ok episodes."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        if r.get("status") != "ok":
            continue
        res = r["result"]
        groups.setdefault((res["row"], res["split"]), []).append(res)
    out = []
    for (row, split), rs in sorted(groups.items(), key=lambda kv: (ROWS.index(kv[0][0])
                                                                    if kv[0][0] in ROWS else 99, kv[0][1])):
        def mean(key):
            xs = [float(x[key]) for x in rs if x.get(key) is not None]
            return sum(xs) / len(xs) if xs else None

        out.append({"row": row, "split": split, "n": len(rs),
                    "executable": mean("executable"), "task_success": mean("task_success"),
                    "gc_all": mean("gc_all"), "gc_new": mean("gc_new"), "lcs": mean("lcs"),
                    "length": mean("length"), "repairs": mean("repairs"), "loop": mean("loop"),
                    "seconds": mean("seconds")})
    return out


def summary_markdown(rows: list[dict]) -> str:
    """The benchmark table (percentages), with EAI's published numbers below."""
    def pct(x):
        return "-" if x is None else f"{100 * x:.1f}"

    def num(x, d=2):
        return "-" if x is None else f"{x:.{d}f}"

    lines = ["| row | split | n | executable % | task success % | GC all % | GC new % | LCS | length | "
             "repairs/plan | loops % | s/plan |", "|" + "---|" * 12]
    for r in rows:
        lines.append(f"| {r['row']} | {r['split']} | {r['n']} | {pct(r['executable'])} | {pct(r['task_success'])} | "
                     f"{pct(r['gc_all'])} | {pct(r['gc_new'])} | {num(r['lcs'])} | {num(r['length'], 1)} | "
                     f"{num(r['repairs'])} | {pct(r['loop'])} | {num(r['seconds'], 1)} |")
    lines += ["", "EAI published (task SR / execution SR, %; their prompts also give the relevant objects, "
              "the initial state and the symbolic goals): "
              + "; ".join(f"{k} {a} / {b}" for k, (a, b) in EAI_PUBLISHED.items())]
    return "\n".join(lines) + "\n"


__all__ = ["ROWS", "SPLITS", "SequencingSettings", "SequencingWorkerFactory", "title_folds",
           "goal_program_ids", "tuning_program_ids", "score_plan", "summarise", "summary_markdown", "asdict"]
