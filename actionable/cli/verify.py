"""``actionable verify PLAN --goal "..."`` and ``actionable eval verify``.

The Judge/Planner verification loop (arXiv 2509.02761) with rule-based, LLM,
simulator-grounded and hybrid judges; see docs/verify.md. Heavy imports happen
inside the commands so ``actionable --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer
from actionable.core import defaults as D

_JUDGE_HELP = ("Judge: rule (hand-written rules, no model), sim (replays the plan in the world of --env: the "
               "VirtualHome simulator by default, the THOR kitchen with --env thor; proposes the smallest edits), "
               "llm (the paper's LLM judge), hybrid (LLM critiques confirmed by that world's replay, "
               "plus the replay's own; default).")
_PLANNER_HELP = ("Planner: apply (delete/insert the critiqued steps; default) or llm (the paper's LLM rewrite; "
                 "a rewrite that, replayed in the world, does not execute, meets fewer goal conditions, or gains "
                 "none and is longer than the critiques applied as written is rejected, 'note: revision "
                 "rejected: <why>', and the critiques are applied as written). With the llm or rule judge, "
                 "a revision that makes an executing plan fail or loses a goal condition is refused and the "
                 "plan kept, 'note: critiques rejected: <why>'.")
_MODEL_HELP = ("LM for the llm/hybrid judge and the llm planner: embedded (SmolLM2-135M, offline), "
               "embedded:chat, gguf:<file>, openai:<name>@<base_url>, hf:<path>.")


def _split(csv: str, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    from actionable.core.errors import ConfigError, unknown_names

    items = tuple(x.strip() for x in csv.split(",") if x.strip())
    bad = [x for x in items if x not in allowed]
    if bad or not items:
        raise ConfigError(f"--{what}: {unknown_names(what.rstrip('s'), bad, allowed)}")
    return items


def verify_command(
    plan_file: Path = typer.Argument(..., help="Plan: one action a line ('[GRAB] <mug> (12)' or 'grab mug'), "
                                               "the output of `actionable plan` as printed (or its --json), "
                                               "a VirtualHome dataset file, or TEACh JSON (see docs/verify.md); "
                                               "- reads standard input.", metavar="PLAN"),
    goal: Optional[str] = typer.Option(None, "--goal", "-g", help="The instruction the plan is for "
                                       "(default: the file's task line)."),
    judge: str = typer.Option(D.JUDGE, "--judge", "-j", help=_JUDGE_HELP),
    planner: str = typer.Option(D.VERIFY_PLANNER, "--planner", "-p", help=_PLANNER_HELP),
    model: str = typer.Option(D.MODEL, "--model", "-m", help=_MODEL_HELP),
    scene: str = typer.Option(D.VERIFY_SCENE, "--scene", "-s",
                              help="Scene the sim/hybrid judge replays the plan in, a scene of the --env world: "
                                   "VirtualHome 'default' or a packaged program id (e.g. 27_2); with --env thor "
                                   "FloorPlan<N> or a TEACh episode id (default: the scene an `actionable plan` "
                                   "output names; `actionable scenes --env thor`)."),
    program: Optional[str] = typer.Option(None, "--program",
                                          help="Packaged program id whose annotated goal conditions the "
                                               "sim/hybrid judge should check (also sets --scene); the last line "
                                               "checks them on the revised plan, whatever the judge, and exit 1 "
                                               "when they do not hold."),
    max_rounds: int = typer.Option(D.MAX_ROUNDS, "--max-rounds", help="Most judge rounds (1..20, paper: 5)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object with every round."),
    env: str = typer.Option("virtualhome", "--env", "-e",
                            help="World the sim/hybrid judge replays the plan in: virtualhome (default) or thor "
                                 "(the AI2-THOR kitchen world; --scene is a TEACh episode id or FloorPlan<N>; the "
                                 "plan is TEACh-style, PickUp(Mug), Place(CounterTop), ToggleOn(Faucet), Pour(Sink), "
                                 "or any output form of `actionable plan --env thor`)."),
    verbose: bool = typer.Option(False, "--verbose", "-v",
                                 help="Also print each round's model notes: what the LLM judge/planner wrote "
                                      "that could not be used (the model's failure, not your input's)."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="No progress on stderr (as `actionable plan --quiet`: model loading lines)."),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write a self-contained HTML replay (plan "
                                                             "before and after, every critique, goals) here."),
    png: Optional[Path] = typer.Option(None, "--png", help="Also write a PNG of the map with the revised plan's path."),
) -> None:
    """Critique a plan and print the critiques of every round and the revised plan.

    Exit code 0 when the loop ran and the revised plan's goal holds (or cannot be
    checked), 1 when the revised plan's goal does not hold, it does not execute (--env thor)
    or every step was removed,
    2 on bad input (one 'error:' line naming the flag or file), 130 when interrupted.
    """
    if quiet:
        from actionable.cli.progress import set_quiet

        set_quiet(True)

    from actionable.core.errors import ConfigError

    if not 1 <= max_rounds <= 20:
        raise ConfigError(f"--max-rounds must be in 1..20 (got {max_rounds})")
    from actionable.cli.show import check_out

    check_out("--html", html)
    check_out("--png", png)
    if goal is not None and not goal.strip():
        raise ConfigError("--goal is empty; give the instruction (e.g. --goal \"Turn on TV\"), or leave "
                          "--goal out to use the file's task line")
    if goal is not None:
        from actionable.core.errors import InputError
        from actionable.planning.prompts import MAX_TASK_CHARS, few_letters

        if len(goal) > MAX_TASK_CHARS:  # plan's limit on a task
            raise InputError(f"--goal: the goal is {len(goal)} characters long; the limit is {MAX_TASK_CHARS}. "
                             f"Give a short instruction such as \"Turn on the TV\"")
        if few_letters(goal):  # emoji or symbols: what `plan` refuses too
            raise InputError("--goal: the task does not look like text (too few letters); give an instruction "
                             "such as \"Turn on the TV\"")
    from actionable.verify.worldsim import verify_route

    if verify_route(env) == "adapter":  # the world's adapter judges; "graph": the scene-graph judge below
        return _verify_world(plan_file, goal, judge, planner, model, scene, max_rounds, no_cache, as_json, env,
                             verbose, html, png)
    from actionable.verify.inworld import verify_on_graph
    from actionable.verify.judge import JUDGE_NAMES, VerifyTask
    from actionable.verify.loop import loop_lm

    _split(judge, JUDGE_NAMES, "judge")
    _split(planner, ("apply", "llm"), "planner")
    from actionable.verify.planfile import read_plan_file

    plan, file_goal = read_plan_file(plan_file)
    goal = (goal or file_goal or "").strip()
    if not goal:
        raise ConfigError("--goal is required (the file has no task line), e.g. --goal \"Turn on TV\"")
    spec = None
    if program is not None:
        from actionable.core.errors import MissingCapabilityError
        from actionable.core.registry import capability

        try:
            ds = capability(env, "dataset")
        except MissingCapabilityError as exc:
            raise ConfigError(f"--program: {exc}") from None
        if program not in set(ds.program_ids()):
            raise ConfigError(f"--program {program!r} is not a packaged program id (see `actionable scenes`)")
        spec = ds.goal_annotations().get(program)
        scene = ds.scene(program)
    lm = loop_lm(judge, planner, model, cache=not no_cache)
    task = VerifyTask(goal=goal, scene=None if scene == "default" else scene, goal_spec=spec, program_id=program)
    from actionable.cli.progress import line, quiet as _quiet

    result = verify_on_graph(plan, task, judge=judge, planner=planner, lm=lm, max_rounds=max_rounds,
                             where=f"plan file {str(plan_file)!r}", world=env,
                             progress=None if _quiet() else line)
    _replay({"goal": goal, **result.to_dict()}, env, scene, html, png)
    record = {"goal": goal, "judge": judge, "planner": planner, "model": getattr(lm, "model_id", None),
              **result.to_dict()}
    _exit_if_all_removed(result, record if as_json else None)
    line_, done = _goal_line(goal, env, scene, result.final) if spec is None else \
        _annotated_line(program, task, env, result.final)
    if as_json:
        typer.echo(json.dumps({**record, "goal_after": {"done": done, "text": line_}}))
    else:
        _echo_rounds(result, max_rounds, verbose, lambda s: s.to_script())
        if line_:
            typer.echo(line_)
    if done is False:  # as `plan`: the job ran and the goal does not hold
        raise typer.Exit(1)


def _annotated_line(program: str, task, env: str, final) -> tuple[str, bool | None]:
    """With ``--program``: the revised plan replayed in the program's scene and checked on the
    program's annotated goal conditions (a ``sim`` judge's replay, whatever judge ran: an ``llm``
    judge never checks them). Returns ``(line, done)`` as :func:`_goal_line`."""
    from actionable.core.errors import ActionableError
    from actionable.verify.judge import make_judge

    try:
        o = make_judge("sim", world=None if env == "virtualhome" else env).outcomes([final], task)[0]
    except ActionableError as exc:
        return f"goal after revision: not checked ({exc})", None
    if not o.goals_total:
        return f"goal after revision: not checked (program {program} has no annotated goal conditions)", None
    done = o.executable and o.goals_met == o.goals_total
    head = (f"goal after revision (annotated goals of program {program}): "
            f"{'met' if done else 'NOT met'} ({o.goals_met} of {o.goals_total})")
    if not o.executable:
        head += f"; the revised plan does not execute (step {(o.failed_index or 0) + 1}: {o.error})"
    return head, done


def _goal_line(goal: str, env: str, scene: str, final) -> tuple[str, bool | None]:
    """The revised plan's goal check, by `actionable plan`'s own check
    (:func:`actionable.planning.pipeline.check_with_interpreter`: the goal text read by the world's
    goal interpreter, the plan replayed from the scene's start, the conditions checked on the
    instances read, a plan that does not execute not done). Returns ``(line, done)``: "goal after
    revision: met ..." / "... NOT met ..." / "... not checked (why)" and True / False / None."""
    from types import SimpleNamespace

    from actionable.core.config import LMConfig, make_config
    from actionable.core.errors import ActionableError
    from actionable.core.registry import planning_domain
    from actionable.planning.pipeline import LazyEmbedder, check_with_interpreter

    try:
        dom = planning_domain(env, scene or "default")
        steps = list(final.steps)
        if hasattr(dom, "resolve_and_execute") and any(getattr(a, "id", None) is None for st in steps
                                                       for a in st.args):
            final = dom.resolve_and_execute(final, goal).program  # "walk to television": bind ids as plan
            # does, the goal's own instances first (the milk the goal means, not the one in the trash)
            steps = list(final.steps)
        executability, state = dom.start().execute(steps)
        res = SimpleNamespace(task=goal, steps=steps, resolved_program=final, executability=executability,
                              final_state=state, stop_reason=None, done=None, goal_check=None, reading=None)
        lcfg = make_config(LMConfig)  # the translation LM, as `plan` gives it, for intent readings ("Watch TV")
        check_with_interpreter(res, dom, LazyEmbedder(lcfg.translation_model, lcfg.cache_dir))
    except ActionableError as exc:
        return f"goal after revision: not checked ({exc})", None
    gc = res.goal_check or {}
    if res.done is None:
        return f"goal after revision: not checked ({gc.get('reason') or 'no goal could be read'})", None
    if res.done:
        return (f"goal after revision: met ({gc['met']} of {gc['total']} goal conditions, as `actionable plan` "
                f"reads them)"), True
    why = "" if executability.get("executable") else "; the revised plan does not execute"
    return f"goal after revision: NOT met ({gc['met']} of {gc['total']}){why}; unmet: {'; '.join(gc['unmet'])}", False


def _exit_if_all_removed(result, record: dict | None = None) -> None:
    """The loop removed every step of a non-empty plan: never silent. The rounds are printed
    (with ``--json``: the one JSON object, ``record``, with ``all_removed`` and ``error``), then one
    ``error:`` line on stderr says so, and the command exits 1 (the plan could not be repaired)."""
    if len(result.initial) and not len(result.final):
        from actionable.cli.progress import plural

        msg = (f"the verification removed all {plural(len(result.initial), 'step')} of the plan (the "
               "revised plan is empty: the judge found no step worth keeping or repairing); check the goal, "
               "the object ids (`actionable scenes <scene> --classes`) and --scene/--program")
        if record is not None:
            typer.echo(json.dumps({**record, "all_removed": True, "error": msg}))
            typer.echo(f"error: {msg}", err=True)
            raise typer.Exit(1)
        for r in result.rounds:
            typer.echo(f"round {r.index}: {plural(len(r.critiques), 'critique')}")
            for c in r.critiques:
                typer.echo(f"  {c.describe()}")
        typer.echo(f"error: {msg}", err=True)
        raise typer.Exit(1)


def _echo_rounds(result, max_rounds: int, verbose: bool, fmt) -> None:
    """Print each round's critiques and notes, then the revised plan (steps written by ``fmt``)."""
    from actionable.cli.progress import plural

    for r in result.rounds:
        typer.echo(f"round {r.index}: {plural(len(r.critiques), 'critique')}, {len(r.new_critiques)} new"
                   + (" - converged" if r.converged else ""))
        for c in r.critiques:
            typer.echo(f"  {c.describe()}")
        for w in r.warnings[:5]:
            typer.echo(f"  note: {w}")
        if r.rejected:  # the revision guard replaced the LM planner's rewrite (actionable.verify.guard)
            typer.echo(f"  note: {r.rejected}")
        if verbose:
            for w in r.model_notes:
                typer.echo(f"  model note (the LLM's output, not your input): {w}")
    status = "converged" if result.converged else f"stopped after {plural(max_rounds, 'round')}"
    typer.echo(f"\nrevised plan ({plural(len(result.final), 'step')}, was {len(result.initial)}; {status}):")
    for i, s in enumerate(result.final.steps, 1):
        typer.echo(f"{i:3d}. {fmt(s)}")


def _replay(record: dict, env: str, scene, html, png) -> None:
    """``--html`` / ``--png`` of a verification from its record (``--json``'s object)."""
    if html is None and png is None:
        return
    from actionable.cli.show import write_outputs
    from actionable.viz.document import verify_document

    write_outputs(verify_document(record, world=env, scene=scene or "default"), html, png)


def _verify_world(plan_file, goal, judge, planner, model, scene, max_rounds, no_cache, as_json, env, verbose,
                  html=None, png=None):
    """``actionable verify --env <world>``: the plan in the world's language, judged in that world
    (:func:`actionable.verify.inworld.verify_in_world`; no world-specific code here)."""
    from actionable.verify.inworld import verify_in_world, world_scene
    from actionable.verify.judge import JUDGE_NAMES
    from actionable.verify.loop import loop_lm
    from actionable.verify.planfile import read_text

    _split(judge, JUDGE_NAMES, "judge")
    _split(planner, ("apply", "llm"), "planner")
    text, where = read_text(plan_file)
    sc = world_scene(env, scene, text)  # a bad scene: one clear error before any model loads
    lm = loop_lm(judge, planner, model, cache=not no_cache)
    wv = verify_in_world(env, text, scene=sc, goal=goal, judge=judge, planner=planner, lm=lm,
                         max_rounds=max_rounds, where=where, suffix=plan_file.suffix)
    before, after = wv.before, wv.after
    _replay({"goal": wv.goal, **wv.to_dict()}, env, wv.scene, html, png)
    failed = not after.executable or after.goals_met < after.goals_total
    if as_json:
        typer.echo(json.dumps({"goal": wv.goal, "env": env, "scene": wv.scene, "judge": judge, "planner": planner,
                               "model": getattr(lm, "model_id", None), **wv.to_dict()}))
        if failed:
            raise typer.Exit(1)
        return
    typer.echo(f"world {env}, scene {wv.scene}, goal: {wv.goal}")
    for n in wv.notes[:5]:
        typer.echo(f"  note: {n}")
    _echo_rounds(wv.result, max_rounds, verbose, wv.adapter.format_step)
    g = f"; goals met {before.goals_met}/{before.goals_total} -> {after.goals_met}/{after.goals_total}" \
        if after.goals_total else ""
    typer.echo(f"executes in {env}: before {'yes' if before.executable else 'no'}, after "
               f"{'yes' if after.executable else 'no'}" + g
               + ("" if after.executable else f" (fails at step {after.failed_index + 1}: {after.error})"))
    if failed:
        raise typer.Exit(1)  # the revised plan does not execute, or a checked goal does not hold


def eval_verify_command(
    out: Path = typer.Option(..., "--out", "-o", help="Run directory (resumable), e.g. runs/verify-main."),
    judges: str = typer.Option("rule,sim,llm,hybrid", "--judges", help="Comma-separated judges."),
    planners: str = typer.Option("apply", "--planners", help="Comma-separated planners: apply, llm."),
    models: str = typer.Option("embedded", "--models", help="Comma-separated LM specs (judge x planner x model)."),
    n_programs: int = typer.Option(60, "--n", help="Goal-annotated gold programs (seeded sample, 1..342)."),
    llm_programs: Optional[int] = typer.Option(None, "--llm-n",
                                               help="Use only the first N programs for LM combinations (CPU cost)."),
    seed: int = typer.Option(0, "--seed", help="Seed of the program sample and the error injection."),
    n_errors: int = typer.Option(3, "--errors", help="Errors injected per plan (1..10)."),
    max_rounds: int = typer.Option(5, "--max-rounds", help="Most judge rounds (paper: 5)."),
    teach: Optional[Path] = typer.Option(None, "--teach",
                                         help="Score labelled TEACh-style JSON/JSONL instead (rule and llm judges)."),
    executor: str = typer.Option("local", "--executor", help="local or ray."),
    workers: int = typer.Option(1, "--workers", help="Ray workers."),
    no_progress: bool = typer.Option(False, "--no-progress", help="Hide the progress bar."),
) -> None:
    """Verification benchmark: judges x planners on seeded, labelled corruptions of the gold
    programs; writes OUT/run.jsonl and OUT/summary.md and prints the table."""
    from actionable.core.config import make_config
    from actionable.evaluation.verification.bench import PLANNER_NAMES, VerifyBenchConfig, markdown_table, run_benchmark
    from actionable.verify.judge import JUDGE_NAMES

    from actionable.core.errors import ConfigError

    from actionable.cli.progress import check_seed

    check_seed(seed)
    if not 1 <= n_programs <= 342:  # checked here so the error names the flag, not the field
        raise ConfigError(f"--n must be in 1..342 (got {n_programs})")
    if not 1 <= max_rounds <= 20:
        raise ConfigError(f"--max-rounds must be in 1..20 (got {max_rounds})")
    if teach is not None and not teach.is_file():  # the file first: it is what the user asked for
        from actionable.core.errors import InputError

        why = "is a directory" if teach.is_dir() else "no such file"
        raise InputError(f"--teach: cannot read {str(teach)!r} ({why}); give a TEACh-style JSON/JSONL file")
    js = _split(judges, JUDGE_NAMES, "judges")
    ps = _split(planners, PLANNER_NAMES, "planners")
    ms = tuple(m.strip() for m in models.split(",") if m.strip()) or ("embedded",)
    if any(j == "llm" or j == "hybrid" for j in js) or "llm" in ps:
        from actionable.core.errors import ConfigError as _CE, ModelNotFoundError
        from actionable.lm.registry import check_spec

        for m in ms:  # up front: a bad spec would otherwise fail every episode, one by one
            try:
                check_spec(m)
            except (ModelNotFoundError, _CE) as exc:
                raise type(exc)(f"--models: {exc}") from None
    if teach is not None:
        from actionable.evaluation.verification.teach import score_teach

        typer.echo(score_teach(teach, js, ms[0], out))
        return
    cfg = make_config(VerifyBenchConfig, n_programs=n_programs, seed=seed, n_errors=n_errors, judges=js,
                      planners=ps, models=ms, max_rounds=max_rounds, llm_programs=llm_programs)
    from actionable.cli.progress import quiet

    rows = run_benchmark(cfg, out, executor=executor, workers=workers, progress=not (no_progress or quiet()))
    typer.echo(markdown_table(rows))
    typer.echo(f"\nwrote {out / 'run.jsonl'} and {out / 'summary.md'}")
    _exit_if_all_failed(out)


def _exit_if_all_failed(out: Path) -> None:
    """Exit 1 (the job ran and failed) with one ``error:`` line when no episode of the run
    finished."""
    from actionable.evaluation.runner import RunStore

    recs = list(RunStore(out).read().values())
    if recs and not any(r.get("status") == "ok" for r in recs):
        first = next((r.get("error") for r in recs if r.get("error")), "unknown")
        typer.echo(f"error: every episode failed ({len(recs)}); the first error: {first}", err=True)
        raise typer.Exit(1)


def register(app, eval_app) -> None:
    """Add ``verify`` to the root app and ``verify`` to the eval sub-app."""
    app.command("verify")(verify_command)
    eval_app.command("verify")(eval_verify_command)
