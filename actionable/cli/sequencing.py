"""``actionable eval sequencing``: the EAI-aligned action-sequencing benchmark
on the 342 goal-annotated programs, each planned in its own scene (issue 12).
Heavy imports happen inside the command."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Optional

import typer

_ROWS_HELP = ("Comma-separated rows: grounded, grounded-no-lm, grounded-no-retrieval, grounded-no-repair, "
              "retrieval (copy the nearest allowed program, ground it), retrieval+repair, and the paper's "
              "variants vanilla, translated, corrected, full, each also as <variant>+repair.")


def sequencing_command(
    out: Path = typer.Option(..., "--out", "-o", help="Run directory (created; rerun the same command to resume)."),
    rows: str = typer.Option("grounded,retrieval", "--rows", help=_ROWS_HELP),
    splits: str = typer.Option("lopo,lto", "--splits",
                               help="lopo (leave-one-program-out: the bank is the other 517 programs) and/or "
                                    "lto (leave-title-out: 5 folds over the 26 titles)."),
    programs: str = typer.Option("goal", "--programs",
                                 help="goal (the 342 goal-annotated programs, reported) or tuning (the 176 "
                                      "without goal annotations, for choosing weights)."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", help="Only the first N programs (every k-th "
                                                                   "program when --stride is given)."),
    stride: int = typer.Option(1, "--stride", help="Take every STRIDE-th program (a spread-out subsample)."),
    ids: Optional[str] = typer.Option(None, "--ids", help="Only these program ids, comma-separated (e.g. "
                                                         "'60_1,87_2'; to rerun a few tasks after a fix)."),
    model: str = typer.Option("embedded", "--model", "-m", help="Planning LM (as for `actionable plan`)."),
    grounded: Optional[str] = typer.Option(None, "--grounded",
                                           help="GroundedConfig overrides as JSON, e.g. '{\"w_lm\": 0.5}'."),
    executor: str = typer.Option("local", "--executor", help="local or ray."),
    workers: int = typer.Option(1, "--workers", "-w", help="Ray workers."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
    lm_mode: str = typer.Option("auto", "--lm-mode", metavar="auto|score|choice-logprobs|choice-name",
                                help="How grounded rows score candidates with the LM (see `actionable plan --help`)."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress (bar on a terminal, timestamped lines otherwise)."),
) -> None:
    """Action-sequencing benchmark (EAI protocol): plan each goal-annotated task from its name and
    description in its own scene; report executability, task success, goal-condition success (all and
    not-initially-true), LCS, length, repairs, loops and seconds per plan."""
    from actionable.core.config import GroundedConfig, make_config
    from actionable.cli.progress import quiet
    from actionable.core.errors import ConfigError
    from actionable.evaluation import sequencing as sq
    from actionable.evaluation.runner import Episode, config_fingerprint, run_episodes

    row_list = sq.parse_list(rows, sq.ROWS, "--rows")
    split_list = sq.parse_list(splits, sq.SPLITS, "--splits")
    if programs not in ("goal", "tuning"):
        raise ConfigError(f"--programs must be 'goal' or 'tuning', got {programs!r}")
    if stride < 1:
        raise ConfigError(f"--stride must be >= 1, got {stride}")
    if limit is not None and limit < 1:
        raise ConfigError(f"--limit must be >= 1, got {limit}")
    overrides = {}
    if grounded:
        try:
            overrides = json.loads(grounded)
        except json.JSONDecodeError as exc:
            raise ConfigError(f"--grounded is not JSON ({exc.msg}); e.g. '{{\"w_lm\": 0.5}}'") from None
        if not isinstance(overrides, dict):
            raise ConfigError("--grounded must be a JSON object, e.g. '{\"w_lm\": 0.5}'")
    try:
        make_config(GroundedConfig, **overrides)
    except ConfigError as exc:  # name the flag the user typed, and the field inside its JSON
        raise ConfigError(f"--grounded: {str(exc).replace('invalid setting: ', '')} (fields of GroundedConfig: "
                          f"{', '.join(GroundedConfig.model_fields)})") from None
    from actionable.core.errors import ModelNotFoundError
    from actionable.lm.registry import check_spec

    try:
        check_spec(model)
    except ModelNotFoundError as exc:
        raise ModelNotFoundError(f"--model: {exc}") from None
    pids = sq.goal_program_ids() if programs == "goal" else sq.tuning_program_ids()
    pids = pids[::stride][:limit] if limit else pids[::stride]
    if ids is not None:
        wanted = [i.strip() for i in ids.split(",") if i.strip()]
        if not wanted:
            raise ConfigError("--ids: no program id given; e.g. --ids 60_1,87_2")
        unknown = [i for i in wanted if i not in pids]
        if unknown:
            narrowed = " after --stride/--limit" if (stride > 1 or limit) else ""
            n = f"{len(pids)} program{'s' if len(pids) != 1 else ''}"
            raise ConfigError(f"--ids: {', '.join(unknown)} not among the {n} selected{narrowed} "
                              f"(--programs {programs}: the goal-annotated or tuning programs; a run's "
                              f"run.jsonl lists its ids)")
        keep = set(wanted)
        pids = [p for p in pids if p in keep]
    from actionable.lm.choice import MODE_CHOICES

    if lm_mode not in MODE_CHOICES:
        raise ConfigError(f"--lm-mode: unknown mode {lm_mode!r}; use one of {', '.join(MODE_CHOICES)}")
    settings = sq.SequencingSettings(model=model, grounded=overrides, lm_cache=not no_cache, lm_mode=lm_mode)
    episodes = [Episode(f"{pid}|{row}|{split}", {"program_id": pid, "row": row, "split": split})
                for split in split_list for row in row_list for pid in pids]
    cmd = " ".join(["actionable", "eval", "sequencing", "--out", shlex.quote(str(out)), "--rows", ",".join(row_list),
                    "--splits", ",".join(split_list), "--programs", programs]
                   + (["--limit", str(limit)] if limit else []) + (["--stride", str(stride)] if stride > 1 else [])
                   + (["--ids", ",".join(pids)] if ids is not None else [])
                   + (["--grounded", shlex.quote(grounded)] if grounded else []) + ["--model", shlex.quote(model)]
                   + (["--lm-mode", lm_mode] if lm_mode != "auto" else []))
    fp = {"model": model, "grounded": overrides, **({"lm_mode": lm_mode} if lm_mode != "auto" else {})}
    manifest = {"kind": "sequencing", "command": cmd, "fingerprint": config_fingerprint(fp)}
    res = run_episodes(episodes, sq.SequencingWorkerFactory(settings), out, executor=executor, workers=workers,
                       manifest=manifest, progress=not (no_progress or quiet()))
    table = sq.summary_markdown(sq.summarise(res.records.values()))
    failed_all = bool(res.records) and all(r.get("status") != "ok" for r in res.records.values())
    (Path(out) / "summary.md").write_text(f"Command: `{cmd}`\n\n" + table, encoding="utf-8")
    typer.echo(table)
    from actionable.cli.progress import plural

    typer.echo(f"{res.new} new, {res.skipped} already done, {plural(res.errors, 'error')}; {Path(out) / 'summary.md'}")


def register(app, eval_app) -> None:
    eval_app.command("sequencing")(sequencing_command)
