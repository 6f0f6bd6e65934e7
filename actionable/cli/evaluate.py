"""``actionable eval plan`` and ``actionable eval report``: the evaluation harness CLI.

``eval plan`` runs (query x variant) episodes of the zero-shot planner into a
resumable run directory (``run.jsonl``, one line per episode) with a local or a
Ray executor, then renders the report; ``eval report`` re-renders a run
directory without loading any model. Heavy imports happen inside the commands.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Optional

import typer

_VARIANTS_HELP = ("Comma-separated rows: vanilla, translated, corrected, full, no-translation, "
                  "no-correction, no-dynamic-example, full-bow (full with the bag-of-words translation LM).")


def plan_eval_command(
    out: Path = typer.Option(..., "--out", "-o", help="Run directory (created; rerun the same command "
                                                       "to resume after a crash)."),
    variants: str = typer.Option("vanilla,translated,full,no-translation,no-correction,no-dynamic-example,"
                                 "full-bow", "--variants", help=_VARIANTS_HELP),
    model: str = typer.Option("embedded", "--model", "-m",
                              help="Planning LM: embedded, gguf:<file>, openai:<name>@<base_url>, hf:<path>."),
    translation_model: str = typer.Option("minilm", "--translation-model", "-t",
                                          help="Translation LM: minilm, bow, st:<model dir>."),
    query: str = typer.Option("name", "--query",
                              help="Query form(s), comma-separated: 'name' (task name, as in the paper) "
                                   "and/or 'name+description' (as in EAI)."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", help="First N queries per query form."),
    seed: int = typer.Option(0, "--seed", help="Planner sampling seed."),
    split_seed: int = typer.Option(0, "--split-seed", help="Seed of the held-out / example-bank task split."),
    heldout_fraction: float = typer.Option(0.3, "--heldout-fraction",
                                           help="Share of task names held out (paper: 88 of 292 = 0.3)."),
    tasks: Optional[Path] = typer.Option(None, "--tasks", help="Own queries (JSONL: task, description, "
                                                               "goal_program_ids, gold_program_ids)."),
    example_bank: Optional[Path] = typer.Option(None, "--example-bank",
                                                help="Own example bank JSONL (task, steps)."),
    samples: Optional[int] = typer.Option(None, "--samples", "-k", help="Samples per step (default 10)."),
    max_steps: Optional[int] = typer.Option(None, "--max-steps", help="Most steps per plan (default 20)."),
    cutoff: Optional[float] = typer.Option(None, "--cutoff", help="Early-stop threshold epsilon on the "
                                                                  "best step score (default 0.8; 0.4 for the "
                                                                  "embedded model, calibrated)."),
    beta: Optional[float] = typer.Option(None, "--beta", help="Weight of the mean token log-prob in the "
                                                              "step score (default 0.3)."),
    executor: str = typer.Option("local", "--executor", help="local (in-process) or ray."),
    workers: int = typer.Option(1, "--workers", "-w", help="Ray workers (actors); ignored by local."),
    address: Optional[str] = typer.Option(None, "--address",
                                          help="Ray cluster address (e.g. auto, ray://head:10001); "
                                               "default: start a local Ray cluster."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="Rerun episodes that ended in an error."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress (bar on a terminal, timestamped lines otherwise)."),
) -> None:
    """Evaluate planner variants on held-out VirtualHome tasks (Huang et al. 2022 table)."""
    from actionable.core.config import PlannerConfig, make_config
    from actionable.cli.progress import quiet
    from actionable.core.errors import ConfigError
    from actionable.evaluation.plan_eval import parse_variants, prepare_plan_run
    from actionable.evaluation.report import write_report
    from actionable.evaluation.runner import run_episodes

    from actionable.evaluation.plan_eval import VARIANT_TABLE
    from actionable.core.errors import unknown_names

    from actionable.cli.progress import check_seed

    check_seed(seed)
    check_seed(split_seed, "--split-seed")
    bad = [v.strip() for v in variants.split(",") if v.strip() and v.strip().lower() not in VARIANT_TABLE]
    if bad or not variants.strip():
        raise ConfigError(f"--variants: {unknown_names('variant', bad, VARIANT_TABLE)}")
    names = parse_variants(variants)
    modes = tuple(m.strip() for m in query.split(",") if m.strip())
    for p, flag in ((tasks, "--tasks"), (example_bank, "--example-bank")):
        if p is not None and not p.is_file():
            raise ConfigError(f"{flag} {str(p)!r} is not a file; give a JSONL file")
    if not 0.0 < heldout_fraction < 1.0:
        raise ConfigError(f"--heldout-fraction must be in (0, 1), got {heldout_fraction}")
    from actionable.core import defaults as D

    cutoff = D.plan_cutoff(model, cutoff)  # same calibrated default as `actionable plan`
    overrides = {k: v for k, v in {"samples": samples, "max_steps": max_steps, "cutoff": cutoff,
                                   "beta": beta}.items() if v is not None}
    make_config(PlannerConfig, **overrides)  # validate ranges early
    episodes, factory, manifest = prepare_plan_run(
        variants=names, model=model, translation_model=translation_model, query_modes=modes,
        limit=limit, seed=seed, split_seed=split_seed, heldout_fraction=heldout_fraction,
        tasks_file=str(tasks) if tasks else None, example_bank=str(example_bank) if example_bank else None,
        planner=overrides, lm_cache=not no_cache,
        command=_command_line(out=out, variants=",".join(names), model=model,
                              translation_model=translation_model, query=",".join(modes), limit=limit,
                              seed=seed, split_seed=split_seed, heldout_fraction=heldout_fraction,
                              tasks=tasks, example_bank=example_bank, samples=samples,
                              max_steps=max_steps, cutoff=cutoff, beta=beta, executor=executor,
                              workers=workers))
    res = run_episodes(episodes, factory, out, executor=executor, workers=workers, address=address,
                       manifest=manifest, progress=not (no_progress or quiet()), retry_errors=retry_errors)
    paths = write_report(out)
    from actionable.cli.progress import plural

    typer.echo(f"{res.new} new, {res.skipped} already done, {plural(res.errors, 'error')}; "
               f"report: {paths['summary']} and {paths['figure']}")


def _command_line(**opts) -> str:
    """The equivalent ``actionable eval plan`` command (recorded in the manifest/report)."""
    parts = ["actionable", "eval", "plan"]
    for k, v in opts.items():
        if v is None or (k == "workers" and opts.get("executor") == "local"):
            continue
        parts += ["--" + k.replace("_", "-"), shlex.quote(str(v))]
    return " ".join(parts)


def report_command(run_dir: Path = typer.Argument(..., help="A run directory written by `eval plan` or "
                                                              "`eval continual`.")) -> None:
    """Re-render summary.md, summary.json and the figure from run.jsonl (no models are run); a
    continual run also gets ExRAP's paired differences (summary.md's last table, paired.json)."""
    from actionable.evaluation.report import write_report
    from actionable.evaluation.runner import RunStore

    store = RunStore(run_dir) if Path(run_dir).is_dir() else None
    manifest = store.read_manifest() if store else None
    is_continual = isinstance(manifest, dict) and manifest.get("kind") == "continual"
    if store and not isinstance(manifest, dict):  # no (usable) manifest: look at the records
        is_continual = any({"agent", "level"} <= set(r.get("payload") or {}) for r in store.read().values())
    if is_continual:
        from actionable.evaluation.continual import write_continual_report
        paths = write_continual_report(run_dir)
        summary, fig = paths["markdown"], paths["figure"]
    else:
        paths = write_report(run_dir)
        summary, fig = paths["summary"], paths["figure"]
    typer.echo(summary.read_text(encoding="utf-8"))
    typer.echo(f"figure: {fig}")


def register(app, eval_app) -> None:
    """Add ``eval plan`` and ``eval report`` to the eval sub-app."""
    eval_app.command("plan")(plan_eval_command)
    eval_app.command("report")(report_command)
