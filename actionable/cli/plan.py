"""``actionable plan "TASK"``: the zero-shot planner of Huang et al. 2022 on a
VirtualHome scene, offline on CPU, with the simulator's executability verdict.

Heavy imports (llama.cpp, sentence-transformers, virtualhome_eval) happen
inside the command so ``actionable --help`` stays fast.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from actionable.core.config import VARIANTS
from actionable.core import defaults as D

_VARIANT_HELP = ("Planner: goal (default) = read the task as goal conditions over the scene (instances, "
                 "'all', in/on, posture), search the world's exact affordance for a plan that reaches them and "
                 "check the same conditions (exit 0 only when they hold); worlds without a goal reader use "
                 "grounded. grounded = the LM scores actions that execute in the scene's current "
                 "state, with retrieved example programs and precondition repair; or a variant of Huang et al. "
                 "2022: vanilla = LM writes the plan, no translation; translated = each step mapped post hoc to "
                 "the nearest admissible action; corrected = + step-by-step sampling with trajectory "
                 "correction and early stop; full = + dynamic example selection.")


def plan_command(
    ctx: typer.Context,
    task: Optional[str] = typer.Argument(None, help="The household task, e.g. \"Make coffee\" (at most 300 "
                                                    "characters). Omit it with --tasks."),
    variant: str = typer.Option(D.VARIANT, "--variant", "-v", help=_VARIANT_HELP),
    scene: str = typer.Option(D.PLAN_SCENE, "--scene", "-s",
                              help="Scene: 'default' (the house with every packaged object) or a packaged "
                                   "program id such as 1003_2 (see `actionable scenes`); with --env thor a "
                                   "floor plan FloorPlan<N> or a TEACh initial state teach:<game> "
                                   "(`actionable scenes --env thor`; 'default' = FloorPlan1)."),
    env: str = typer.Option(D.WORLD, "--env", "-e",
                            help="World to plan in: virtualhome (default), thor (the AI2-THOR kitchen of "
                                 "ALFRED and TEACh, symbolic; goal planner with ALFRED's predicates) or pddl "
                                 "(a PDDL domain: its problem's :goal, planned by Fast Downward or pyperplan through unified-planning "
                                 "and replayed; --variant grounded for the grounded planner)."),
    model: str = typer.Option(D.MODEL, "--model", "-m",
                              help="Planning LM: embedded (SmolLM2-135M, offline), gguf:<file>, "
                                   "openai:<name>@<base_url> (completions), openai-chat:<name>@<base_url> "
                                   "(chat: scored through a choice prompt, see --lm-mode), hf:<path>. Used by "
                                   "--variant grounded, the paper variants and the goal planner's fallback (a "
                                   "task it cannot read as goal conditions); the goal planner itself uses no "
                                   "planning LM (its reader uses the translation LM), so it is not loaded and "
                                   "the output says so when --model is given."),
    lm_mode: str = typer.Option("auto", "--lm-mode", metavar="auto|score|choice-logprobs|choice-name",
                                help="How the grounded planner scores candidates with the LM: score = (a) each "
                                     "candidate's log-likelihood (needs prompt log-probs: embedded, gguf:, hf:, "
                                     "openai: on a server that echoes them); choice-logprobs = (b) a numbered "
                                     "choice prompt, the chosen number's log-prob renormalised over the "
                                     "candidates (chat APIs with top log-probs); choice-name = (c) the model "
                                     "names a candidate, retried once, else the prior decides (chat APIs "
                                     "without log-probs); (b) and (c) ask each choice again with the options "
                                     "blanked and discount the answer the model gives anyway (content-free "
                                     "calibration). auto (default): the first the backend can do. The "
                                     "output says which ran."),
    tasks: Optional[Path] = typer.Option(None, "--tasks",
                                         help="Batch: plan every task of this file (JSONL {\"id\", \"task\", "
                                              "\"description\", \"scene\"} a line, or one task a line) with one "
                                              "model load; JSONL out (--out), one line a task; a rerun skips the "
                                              "ids already written (resume after a crash or kill). A bad line (empty "
                                              "or over-long task, not a JSON object, no \"task\", unknown key or "
                                              "scene, an id an earlier line gave: the first wins) gets an error "
                                              "record {\"error\": {\"type\", \"message\"}, \"done\": null} naming "
                                              "the line and the fix, and the rest is planned. Exit 0 when every line "
                                              "was planned or answered (read each line's \"exit\" for Done / Not "
                                              "done / refused); 1 when a line was bad or a task failed; 2 when the "
                                              "file cannot be read or holds no task to plan (missing, not UTF-8, "
                                              "empty, every line bad)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o",
                                       metavar="FILE", help="With --tasks: the JSONL file the plans are appended to (default: "
                                            "stdout, not resumable)."),
    translation_model: str = typer.Option(D.TRANSLATION_MODEL, "--translation-model", "-t",
                                          help="Translation LM: minilm (all-MiniLM-L6-v2, offline), "
                                               "bow (bag-of-words baseline), st:<model dir>."),
    samples: Optional[int] = typer.Option(None, "--samples", "-k",
                                          help="Free-text steps sampled per position: paper variants 10 (default); "
                                               "grounded 0 (default; k > 0 adds the paper's translation score)."),
    beta: Optional[float] = typer.Option(None, "--beta",
                                         help="Paper variants: weight of the mean token log-prob in the step score "
                                              "cos + beta*logprob (default 0.3). Not used by grounded."),
    cutoff: Optional[float] = typer.Option(None, "--cutoff",
                                           help="Paper variants (not used by grounded): early-stop threshold epsilon on the best step score. "
                                                "Default: 0.4 for the embedded SmolLM2-135M (its step "
                                                "scores are lower; 0.8 would stop before step 1), "
                                                "0.8 (the paper's value) for other models."),
    max_steps: Optional[int] = typer.Option(None, "--max-steps", help="Most steps in a plan, 1..200: goal 40 or 6 per goal clause, whichever is more (at most 200), grounded 30 (repairs included), paper variants 20."),
    temperature: Optional[float] = typer.Option(None, "--temperature", help="Sampling temperature (default 0.6)."),
    top_p: Optional[float] = typer.Option(None, "--top-p", help="Nucleus sampling mass (default 0.9)."),
    seed: Optional[int] = typer.Option(None, "--seed", min=0, help="Sampling seed (default 0, >= 0); same seed, "
                                                                   "same plan."),
    repair: bool = typer.Option(False, "--repair",
                                help="Paper variants: insert rule-based corrective steps (walk to, stand up, "
                                     "open the container, ...) for unmet preconditions when executing. The "
                                     "grounded planner always repairs.")  ,
    bank: Optional[Path] = typer.Option(None, "--bank",
                                        help="Example bank JSONL ({\"task\":..., \"steps\":[...]} a line) "
                                             "instead of the packaged programs."),
    no_cache: bool = typer.Option(False, "--no-cache",
                                  help="Do not read or write the LM response cache (~/.cache/actionable). "
                                       "The action-index embedding cache stays on: it is deterministic."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object (plan, translated steps with "
                                                       "scores, executability, timings, model ids); "
                                                       "the same as --format json."),
    fmt: str = typer.Option("human", "--format", "-f", metavar="human|script|text|json",
                            help="What to print: human (default: the numbered plan, verdicts, goal check), "
                                 "script (only the program, one '[WALK] <couch> (352)' line a step, after a "
                                 "'# task:' line), text (only the program as phrases, 'walk to couch'), json "
                                 "(= --json). Every form can be given to `actionable verify` as it is (with --env thor: "
                                 "to `actionable verify --env thor --scene` the same scene); with --env thor, "
                                 "text is the kitchen's action language (GotoLocation(Mug), PickUp(Mug), "
                                 "Place(CoffeeMachine))."),
    quiet: bool = typer.Option(False, "--quiet", "-q",
                               help="No progress on stderr (the spinner on a terminal; timestamped lines "
                                    "such as 'planning step 3/30' otherwise)."),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write a self-contained HTML replay of the "
                                                             "plan (map, path, state changes, goals) here."),
    png: Optional[Path] = typer.Option(None, "--png", help="Also write a PNG of the map with the plan's path here."),
) -> None:
    """Turn a household TASK into a program for a world (VirtualHome, or with --env thor the AI2-THOR
    kitchen) that does what the task asks, and say whether it does.

    The default planner (--variant goal) reads the task into goal conditions on
    exact objects ("Turn off all the lights": every light OFF; parts joined
    by "and", "then" or commas, known activities among them: "sit on the
    couch and watch TV"), searches for steps that make them true, and checks
    them on the final state. The first line is the
    verdict: Done, Nothing to do, Not done: <unmet conditions>. A question on the
    state ("Is the TV on?", "Is the plate dirty?") is answered from the scene and
    never planned: "Yes: <instances>" (exit 0) or "No: it is not so now that <conditions>"
    (exit 1); --json has question, answer (yes/no) and answer_detail. A task that
    asks for the impossible is refused, and a task it cannot read as goal
    conditions gets "I can't tell what end state this asks for" with the closest
    known task: these print one error: line on stderr and nothing on stdout (exit
    2). The goal planner uses no planning LM: --model is not loaded, and a note
    says so when it is given. A world without a goal reader
    plans with grounded (exit 3: executes, goal not checked). --variant grounded (the LM planner) or a paper
    variant (vanilla|translated|corrected|full, Huang et al. 2022) plan with the
    LM and are checked against the same reading. A paper
    variant's first run embeds the scene's admissible actions (about 1.5 minutes
    on an idle 2-core machine); later runs read the cache.

    Progress goes to stderr: a spinner on a terminal, timestamped lines otherwise
    (--quiet: none).

    Exit code 0 Done, Nothing to do, or a question answered Yes; 1 Not done (an
    unmet goal condition, a plan that does not execute, or no steps), or a
    question answered No; 2 bad input, or a task refused as impossible or
    unreadable; 3 the plan executes but no goal could be checked; 130 interrupted.
    """
    source = ctx.get_parameter_source("model")  # given on the command line (or the environment)
    model_given = source is not None and getattr(source, "name", "DEFAULT") != "DEFAULT"
    if quiet:
        from actionable.cli.progress import set_quiet

        set_quiet(True)
    from actionable.core.config import LMConfig, PlannerConfig, make_config
    from actionable.core.errors import ConfigError
    from actionable.planning.prompts import clean_task

    if tasks is not None and task is not None:
        raise ConfigError("give a TASK or --tasks FILE, not both")
    if tasks is None and task is None:
        raise ConfigError("missing TASK: give the task text (actionable plan \"Make coffee\") or --tasks FILE; "
                          "see actionable plan --help")
    if out is not None and tasks is None:
        raise ConfigError("--out needs --tasks FILE (a single plan prints to stdout)")
    from actionable.lm.choice import MODE_CHOICES

    if lm_mode not in MODE_CHOICES:
        raise ConfigError(f"--lm-mode: unknown mode {lm_mode!r}; use one of {', '.join(MODE_CHOICES)}")
    from actionable.cli.progress import check_seed

    check_seed(seed)
    from actionable.cli.show import check_out

    check_out("--html", html)
    check_out("--png", png)
    if fmt not in FORMATS:
        raise ConfigError(f"--format: unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    if as_json and fmt not in ("human", "json"):
        raise ConfigError(f"--json and --format {fmt} disagree; give one of them (--json is --format json)")
    if as_json:
        fmt = "json"
    if variant not in VARIANTS and variant not in ("grounded", "goal"):
        raise ConfigError(f"--variant: unknown variant {variant!r}; use one of goal, grounded, {', '.join(VARIANTS)}")
    from actionable.core.errors import MissingCapabilityError, UnknownWorldError
    from actionable.core.registry import planning_domain

    try:
        domain = planning_domain(env, scene)  # unknown world or scene: one clear error before any model loads
    except (UnknownWorldError, MissingCapabilityError) as exc:
        raise ConfigError(f"--env: {exc}") from None
    if tasks is None:
        task = clean_task(task)  # after --env: a bad world is named even when the task is bad too
    if tasks is not None:
        if variant not in ("grounded", "goal"):
            raise ConfigError("--tasks plans with the goal or grounded planner; for the paper variants use "
                              "`actionable eval plan --tasks`")
        return _plan_batch(tasks, out, domain, env, model, translation_model, lm_mode, samples, max_steps,
                           temperature, top_p, seed, bank, no_cache, variant)
    if variant == "goal":
        from actionable.cli.plan_goal import plan_goal
        from actionable.core.config import GroundedConfig
        from actionable.lm.registry import check_spec

        # the flags the imitation fallback would use are checked first, as for --variant grounded
        make_config(GroundedConfig, samples=samples, max_steps=max_steps, temperature=temperature,
                    top_p=top_p, seed=seed)
        _check_bank(bank, read=True)  # a broken bank is refused now, not when the fallback needs it
        check_spec(model)
        if lm_mode != "auto":  # a new user's check: the flag was silently without effect here
            typer.echo(f"note: --lm-mode {lm_mode} applies when the grounded planner runs (--variant grounded, "
                       "or the fallback for a task the goal reader cannot read); the goal planner searches "
                       "without an LM", err=True)

        return plan_goal(task, domain, translation_model, max_steps, no_cache, fmt, _output,
                         model if model_given else None,
                         lambda: _plan_grounded(task, domain, model, translation_model, samples, max_steps,
                                                temperature, top_p, seed, bank, no_cache, fmt, html, png, lm_mode),
                         after=lambda result: _replay(result, domain, html, png))
    if variant == "grounded":
        return _plan_grounded(task, domain, model, translation_model, samples, max_steps, temperature, top_p,
                              seed, bank, no_cache, fmt, html, png, lm_mode)
    if not getattr(domain, "paper_variants", False):
        raise ConfigError(f"--variant {variant} needs a world with a whole-scene admissible-action space; "
                          f"world {env} has none: use --variant grounded")
    cutoff = D.plan_cutoff(model, cutoff)
    pcfg = make_config(PlannerConfig, variant=variant, samples=samples, beta=beta, cutoff=cutoff,
                       max_steps=max_steps, temperature=temperature, top_p=top_p, seed=seed, repair=repair)
    lcfg = make_config(LMConfig, model=model, translation_model=translation_model, cache=not no_cache)
    _check_bank(bank)

    from actionable.lm.registry import check_spec

    check_spec(model)  # unknown model: one clear error before anything loads
    with _Progress() as prog:
        from actionable.planning.session import PlanningSession

        session = PlanningSession(lcfg, pcfg, scene=domain, bank=bank, progress=prog.update)
        result = session.plan(task)
        result.world, result.scene = domain.world, domain.name
        _goal_check(result, domain, session)
    _decide(result)
    _output(result, session, fmt)
    _replay(result, domain, html, png)
    _exit(result)


def _replay(result, domain, html, png) -> None:
    """``--html`` / ``--png``: the replay of ``result`` from what the planner computed (the world's
    ``scene_map`` of the domain's own loaded scene replays the resolved steps once)."""
    if html is None and png is None:
        return
    from actionable.cli.show import write_outputs
    from actionable.viz.document import plan_document

    scene = getattr(domain, "graph", None) or getattr(domain, "scene", None) or domain.name
    doc = plan_document(result.to_dict(), world=domain.world, scene=scene)
    doc["scene"] = domain.name or doc["scene"]
    write_outputs(doc, html, png)


def _plan_batch(tasks, out, domain, env, model, translation_model, lm_mode, samples, max_steps, temperature,
                top_p, seed, bank, no_cache, variant="goal") -> None:
    """``actionable plan --tasks FILE [--out OUT.jsonl]``: one session, one JSON line a task
    (:mod:`actionable.planning.batch`); with ``--variant goal`` (default) each task is read as goal
    conditions and planned to them (the imitation planner where no goal can be read), else the
    grounded planner; every plan is checked against the goal read from its task. A bad line is an
    error record of its own; exit 1 when a line was bad or a task failed (Not done and refusals
    are answers: each line's ``exit`` says), 2 when the file cannot be read or holds no task."""
    import sys

    from actionable.cli.progress import line as print_line
    from actionable.core.config import GroundedConfig, LMConfig, make_config
    from actionable.core.registry import planning_domain
    from actionable.lm.registry import check_spec
    from actionable.planning.batch import BadLine, BatchTask, check_some_task, line_digest, read_lines, run_batch

    from actionable.core.errors import ActionableError, InputError

    items = read_lines(tasks)
    if out is not None and (Path(out).is_dir() or not Path(out).resolve().parent.is_dir()):
        raise InputError(f"--out {str(out)!r}: " + (
            "is a directory; give a file such as plans.jsonl" if Path(out).is_dir()
            else f"the directory {str(Path(out).parent)!r} does not exist; create it first"))

    for i, t in enumerate(items):  # every scene named: checked before any model loads; a bad one is a bad line
        if isinstance(t, BatchTask) and t.scene:
            try:
                planning_domain(env, t.scene)
            except ActionableError as exc:
                items[i] = BadLine(t.line, "UnknownScene", f"--tasks {tasks}: line {t.line} (task {t.id!r}): {exc}",
                                   t.id, t.task, line_digest(f"scene {env} {t.scene}: " + json.dumps([t.id, t.task])))
    check_some_task(tasks, items)
    bad = [t for t in items if isinstance(t, BadLine)]
    if bad:  # decided now: a reader closing stdout early does not turn it into 0
        from actionable.cli.exitcode import decide

        decide(1)
    gcfg = make_config(GroundedConfig, samples=samples, max_steps=max_steps, temperature=temperature,
                       top_p=top_p, seed=seed)
    lcfg = make_config(LMConfig, model=model, translation_model=translation_model, cache=not no_cache,
                       lm_mode=lm_mode)
    _check_bank(bank)
    check_spec(model)
    from actionable.planning.session import PlanningSession

    with _Progress() as prog:
        # the goal planner needs no planning LM: it is loaded on the first task that falls back
        session = PlanningSession(lcfg, None, scene=domain, progress=prog.update, lazy_lm=variant == "goal",
                                  bank=bank if bank is not None else domain.example_bank())
        planner = _LazyPlanner(lambda: session.grounded_planner(gcfg))
        if variant != "goal":
            planner.get()
    domains = {domain.name: domain}

    interps: dict = {}

    def plan_one(t):
        d = domains.get(t.scene or domain.name)
        if d is None:
            d = domains[t.scene] = planning_domain(env, t.scene)
        return plan_task_json(session, planner, d, t.task, t.description, variant, max_steps, interps)

    from actionable.cli.progress import mode

    say = None if mode() == "off" else print_line
    if out is None:  # stdout: one line a task, not resumable
        from actionable.planning.batch import bad_line_record, record

        failed = 0
        for t in items:
            if isinstance(t, BadLine):
                rec = bad_line_record(t)
                if say is not None:
                    say(f"line {t.line}: bad line ({t.type}): {t.message} (exit 2)")
            else:
                rec, kind = record(t, plan_one)
                failed += kind == "failed"
            sys.stdout.write(json.dumps(rec, allow_nan=False) + "\n")
            sys.stdout.flush()
        if failed or bad:
            raise typer.Exit(1)
        return
    counts = run_batch(items, out, plan_one, progress=say)
    if say is not None:
        say(f"done: {counts['planned']} planned ({counts['done']} Done or Nothing to do, {counts['not_done']} Not done), "
            f"{counts['refused']} refused or unreadable (exit 2 each), "
            f"{counts['failed']} failed, {counts['bad_lines']} bad lines, {counts['skipped']} already in {out} "
            f"(LM mode {planner.lm_mode})")
        if bad:
            say(f"{len(bad)} bad line(s) in {tasks} (lines {', '.join(str(b.line) for b in bad[:10])}"
                f"{', ...' if len(bad) > 10 else ''}): each has an error record in {out}; fix them and rerun "
                "with the same --out to plan them (exit 1)")
    if counts["failed"] or bad:
        raise typer.Exit(1)


class _LazyPlanner:
    """The grounded planner of a batch, built (and the planning LM loaded) on the first task that
    needs it (``plan``); ``lm_mode`` says "not loaded" until then."""

    def __init__(self, make):
        self._make, self._p = make, None

    def get(self):
        if self._p is None:
            self._p = self._make()
            self._p.progress = None
        return self._p

    def plan(self, *args, **kw):
        return self.get().plan(*args, **kw)

    @property
    def lm_mode(self) -> str:
        return self._p.lm_mode if self._p is not None else "none: no task needed the planning LM, not loaded"


def plan_task_json(session, planner, domain, task: str, description: str | None = None, variant: str = "goal",
                   max_steps: int | None = None, interps: dict | None = None) -> dict:
    """One task planned as ``actionable plan --json`` plans it, for the batch mode and ``serve``.

    ``variant="goal"`` (the CLI's default): read the task as goal conditions and plan to them; a
    task the world's interpreter does not read as a goal goes to ``planner`` (the grounded LM
    planner), as the CLI does. ``variant="grounded"``: ``planner`` only. Either way the plan is
    checked against the goal read from its task (:func:`_goal_check`).

    Args:
        session: the :class:`~actionable.planning.session.PlanningSession` (its embedder translates).
        planner: its grounded planner. domain: the planning domain (scene) to plan in.
        interps: a cache of goal interpreters by domain name, shared across calls (``None``: none).

    Returns:
        the JSON object of :func:`plan_json`.

    Raises:
        ActionableError: what the planners raise (refused or unreadable tasks, bad scenes).
    """
    from actionable.planning.goaldirected import GoalSearchConfig
    from actionable.planning.pipeline import interpreter_for, plan_task, read_goal
    from actionable.planning.prompts import clean_task

    task = clean_task(task)  # an empty or unusable task: the same InputError whatever the variant
    if variant == "goal":
        interps = {} if interps is None else interps
        if domain.name not in interps:
            interps[domain.name] = interpreter_for(domain, session.embedder)
        interp = interps[domain.name]
        reading = read_goal(interp, task) if interp is not None else None
        if reading is not None and reading.is_goal:
            cfg = GoalSearchConfig.for_reading(reading, max_steps=max_steps)
            return plan_json(plan_task(domain, task, interp, cfg, reading), session, getattr(domain, "world_text", None))
    result = planner.plan(task, domain, description=description)
    _goal_check(result, domain, session)
    return plan_json(result, session, getattr(domain, "world_text", None))


def plan_json(result, session, world_text=None) -> dict:
    """The ``--json`` object of a plan: :meth:`PlanResult.to_dict` plus ``program_script_lines``,
    ``session`` and (a world with its own action language) ``program_world_lines``; ``lm_mode``
    says how the LM scored candidates (``none``: no LM scored any candidate, as in the goal planner)."""
    out = result.to_dict()
    out.setdefault("lm_mode", "none")
    prog = result.program
    out["program_script_lines"] = [st.to_script() for st in prog.steps] if prog is not None else []
    out["session"] = session.info()
    if world_text is not None:
        out["program_world_lines"] = [world_text(st) for st in program_steps(result)]
    return out


def _plan_grounded(task, domain, model, translation_model, samples, max_steps, temperature, top_p, seed, bank,
                   no_cache, fmt, html=None, png=None, lm_mode="auto") -> None:
    """``actionable plan --variant grounded`` (the LM planner) in ``domain``'s world and scene."""
    from actionable.core.config import GroundedConfig, LMConfig, make_config

    gcfg = make_config(GroundedConfig, samples=samples, max_steps=max_steps, temperature=temperature,
                       top_p=top_p, seed=seed)
    lcfg = make_config(LMConfig, model=model, translation_model=translation_model, cache=not no_cache,
                       lm_mode=lm_mode)
    _check_bank(bank)
    from actionable.lm.registry import check_spec

    check_spec(model)  # unknown model: one clear error before anything loads
    with _Progress() as prog:
        from actionable.planning.session import PlanningSession

        session = PlanningSession(lcfg, None, scene=domain, progress=prog.update,
                                  bank=bank if bank is not None else domain.example_bank())
        result = session.grounded_planner(gcfg).plan(task, domain)
        _goal_check(result, domain, session)
    _decide(result)
    _output(result, session, fmt, domain.executes_in, getattr(domain, "world_text", None))
    _replay(result, domain, html, png)
    _exit(result)


def _check_bank(bank, read: bool = False) -> None:
    """``--bank``: refuse a path that is not a file (ConfigError); with ``read``, parse it too
    (:meth:`ExampleBank.from_jsonl`'s errors), for a planner that loads it only later."""
    if bank is None:
        return
    if not bank.is_file():
        from actionable.core.errors import ConfigError

        raise ConfigError(f"--bank {str(bank)!r} is not a file; give a JSONL example bank")
    if read:
        from actionable.planning.examples import ExampleBank

        ExampleBank.from_jsonl(bank)


def _goal_check(result, domain, session) -> None:
    """The one goal check: the world's goal interpreter's conditions on the plan's final state;
    a world without one keeps its domain's check, which sets ``done`` only where the goal is the
    task (a PDDL problem)."""
    from actionable.planning.pipeline import check_result

    check_result(result, domain, session)


def _decide(result) -> None:
    """Record the verdict's exit code before printing (a closed stdout keeps it)."""
    from actionable.cli.exitcode import decide
    from actionable.cli.plan_goal import exit_code

    decide(exit_code(result))


def _exit(result) -> None:
    """Exit with the code :func:`_decide` recorded for ``result``."""
    from actionable.cli.exitcode import decided

    code = decided()
    if code:
        raise typer.Exit(code)


#: ``--format`` values of ``actionable plan``.
FORMATS = ("human", "script", "text", "json")


def program_steps(result) -> list:
    """The steps ``plan`` prints and ``verify`` reads back: the resolved program (node ids,
    repair steps included) when there is one, else the planned program."""
    prog = result.resolved_program if result.resolved_program is not None else result.program
    return list(prog.steps) if prog is not None else []


def _output(result, session, fmt: str, where: str = "the VirtualHome simulator", world_text=None) -> None:
    """Print ``result`` in ``--format`` ``fmt`` (``world_text``: the planning domain's
    resolved step -> the world's action language, for ``text``, when it has one).

    ``json``: :meth:`PlanResult.to_dict` plus ``session`` and ``program_script_lines``. Field
    types: ``program_text`` is a list of phrases, one a step; ``program_script`` is one string,
    the whole program as a script file (newline-separated ``[WALK] <couch>`` lines, to save
    and give to ``verify``); ``program_script_lines`` is the same script as a list, one line a
    step, aligned with ``program_text``."""
    if fmt == "json":
        typer.echo(json.dumps(plan_json(result, session, world_text), indent=2, allow_nan=False))
    elif fmt in ("script", "text"):
        typer.echo(f"# task: {result.task}")
        for st in program_steps(result):
            if fmt == "script":
                typer.echo(st.to_script())
            else:
                typer.echo(world_text(st) if world_text is not None else st.unresolved().to_text())
    else:
        _print_human(result, session, where)


class _Progress:
    """Progress on stderr driven by planner events: a rich spinner on a terminal;
    plain timestamped lines when stderr is not a terminal (CI logs, notebooks,
    ``nohup``), so a slow first run is never silent; nothing with ``--quiet``."""

    def __init__(self):
        self._p = None
        self._task = None
        self._lines = False
        self._last = None

    def __enter__(self):
        from actionable.cli.progress import mode

        m = mode()
        if m == "terminal":
            from rich.console import Console
            from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

            self._p = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                               console=Console(stderr=True), transient=True)
            self._p.__enter__()
            self._task = self._p.add_task("starting", total=None)
        self._lines = m == "lines"
        return self

    def update(self, event: dict) -> None:
        if self._p is None and not self._lines:
            return
        ev = event.get("event")
        if ev == "load":
            desc = f"loading {event.get('what')}"
            if event.get("spec"):
                desc += f" ({event['spec']})"
            if event.get("what") == "admissible-action index":
                desc += " (slow only on the first run: embeds every action, then cached)"
            line = desc + " ..."
        elif ev == "step":
            desc = f"planning: sampling step {event['step']} (at most {event['max_steps']})"
            line = f"planning step {event['step']}/{event['max_steps']}"
        elif ev == "generate":
            desc = "planning: the LM writes the plan"
            line = desc + " ..."
        else:
            desc = line = str(ev)
        if self._p is not None:
            self._p.update(self._task, description=desc)
        elif line != self._last:
            from actionable.cli.progress import line as print_line

            print_line(line)
            self._last = line

    def __exit__(self, *exc):
        if self._p is not None:
            self._p.__exit__(*exc)
        return False


def _print_human(result, session, where: str = "the VirtualHome simulator") -> None:
    from rich.console import Console

    con = Console(highlight=False, soft_wrap=True)
    info = session.info()
    from actionable.cli.plan_goal import print_reading

    print_reading(con, result)
    con.print(f"[bold]Task:[/bold] {result.task}   [dim](variant {result.variant}, scene {info['scene']})[/dim]")
    if result.example:
        con.print(f"[dim]Example in the prompt: {result.example['task']} ({result.example['source']})[/dim]")
    already = result.stop_reason in ("already_done", "answered")
    if result.answer is not None:
        con.print(f"Answered from the state of scene {info['scene']}: a question is never acted on (no plan)"
                  + (f"; {result.answer['hint']}" if result.answer.get("hint") else "") + ".")
    elif already:
        con.print("[green]Nothing to do:[/green] what the task asks already holds in scene "
                  f"{info['scene']} ({' / '.join(result.task_steps)}); the plan is empty.")
    elif not result.steps:
        con.print("[yellow]The planner produced no steps.[/yellow]")
    resolved = list(result.resolved_program.steps) if result.resolved_program is not None else []
    if result.repaired_flags:  # a paper variant run with --repair: show the repaired, resolved program
        for i, (st, rep) in enumerate(zip(resolved, result.repaired_flags), 1):
            mark = "  [yellow](repair)[/yellow]" if rep else ""
            con.print(f"{i:>3}. {st.unresolved().to_text():<32} {st.to_script()}{mark}")
    else:
        k = -1
        for s in result.steps:
            if s.step is not None:
                k += 1
            if s.step is None:
                con.print(f"{s.position:>3}. [red]{s.sample_text}[/red]  [dim](not an admissible action: "
                          f"{s.parse_error})[/dim]", markup=True)
                continue
            score = ""
            if s.repaired:
                score = "  [yellow](repair: a precondition of the next step)[/yellow]"
            elif s.score_parts.get("task_step"):
                score = "  [dim](the task's own step, taken before Done)[/dim]"
            elif s.score_parts.get("goal"):
                score = f"  [dim](for: {s.score_parts['goal']})[/dim]"
            elif s.score_parts.get("goal_search"):
                score = "  [dim](goal search: progress toward the task's goals)[/dim]"
            elif s.score_parts:
                score = f"  [dim](score {s.total:.2f})[/dim]"
            elif s.cosine is not None:
                score = f"cos {s.cosine:.2f}" + (f", score {s.total:.2f}" if s.logprob is not None else "")
                score = f"  [dim]({score}; LM wrote: {s.sample_text!r})[/dim]"
            script = (resolved[k] if k < len(resolved) else s.step).to_script()
            con.print(f"{s.position:>3}. {s.step.to_text():<32} {script}{score}")
    ex = result.executability or {}
    if already:
        pass
    elif ex.get("executable"):
        n = len(resolved) or ex.get("steps_executed")
        runs = "its 1 step runs" if n == 1 else f"all {n} steps run"
        con.print(f"[green]Executable[/green] in scene {info['scene']}: {runs} in {where}. Executable does not "
                  f"mean the task is done; the Goal line says whether it is.")
    else:
        fi = ex.get("failed_index")
        where = f"step {fi + 1} ({ex.get('failed_step')})" if fi is not None else "the plan"
        con.print(f"[red]Not executable[/red] in scene {info['scene']}: {where} failed: "
                  f"{ex.get('error') or ex.get('error_type')}")
        if ex.get("unmet_preconditions"):
            con.print("  unmet precondition(s): " + "; ".join(ex["unmet_preconditions"]))
    gc = result.goal_check or {}
    if result.answer is not None:
        pass  # the first line answered it
    elif gc.get("checked"):
        verdict = "[green]goal met[/green]" if gc["task_success"] else "[yellow]goal not met[/yellow]"
        origin = gc.get("origin") or ("read from the task text" if gc.get("source") else
                                      f"of program {gc['program_id']} ({gc['task']})")
        how = "bound to instances" if gc.get("conditions") is not None else "matched by class"
        con.print(f"Goal: {verdict}: {gc['met']} of {gc['total']} goal conditions {origin}" + ("" if gc.get("conditions") is not None else f", {how}")
                  + (f"; unmet: {', '.join(gc['unmet'][:5])}" if gc.get("unmet") else ""))
    else:
        con.print(f"Goal: not checked ({gc.get('reason', 'no goal annotation for this task')}).")
    objs = (result.objects or {}).get("matched") or []
    if objs:
        con.print("Objects the task names: " + ", ".join(
            f"'{m['words']}' -> {m['class']}" + _how(m) for m in objs))
    for w in result.warnings:
        if not (already and w.startswith("nothing to do")):  # said above
            con.print(f"[yellow]Warning:[/yellow] {w}")
    if result.retrieved:
        con.print("[dim]Nearest example programs: " + ", ".join(
            f"{r['task']} ({r['source']}, {r['similarity']:.2f})" for r in result.retrieved[:3]) + "[/dim]")
    stop = result.stop_reason
    if result.stopped_at and "best_score" in result.stopped_at:
        stop += f" at step {result.stopped_at['position']} (best score {result.stopped_at['best_score']:.2f} " \
                f"< cutoff {result.config.get('cutoff')})"
    if result.stopped_at and result.stopped_at.get("task_step_done"):
        stop += " after the task's own step (" + " / ".join(result.task_steps) + ")"
    t = result.timings
    n_calls = result.lm_calls
    extra = f"; {info['admissible_actions']} admissible actions" if info.get("admissible_actions") else ""
    reps = f"; {result.repairs} repair step{'s' if result.repairs != 1 else ''}" if result.repairs else ""
    con.print(f"[dim]stop: {stop}; {n_calls} LM call{'s' if n_calls != 1 else ''}; plan {t.get('total_s', 0):.1f} s "
              f"(LM {t.get('lm_s', 0):.1f} s{', from the response cache' if n_calls and t.get('lm_s', 0) < 0.05 else ''}); models: {info['planning_model']} + "
              f"{info['translation_model']}{extra}{reps}{_mode_note(result)}[/dim]")


def _mode_note(result) -> str:
    """``; LM mode (b) choice-logprobs`` for the human output (grounded plans)."""
    from actionable.lm.choice import MODES

    m = getattr(result, "lm_mode", "")
    return f"; LM mode {MODES[m].split(')')[0]}) {m}" if m in MODES else ""


def register(app, eval_app) -> None:
    """Add ``actionable plan`` to the root app."""
    app.command("plan", help=plan_command.__doc__)(plan_command)


def _how(m: dict) -> str:
    """How a task word was mapped, for the human output ('' for a name of the class)."""
    if m["how"] == "name":
        return ""
    if m["how"].startswith("compound"):
        return f" (the word ends the class name{m['how'][len('compound'):]}; cos to the task {m['score']:.2f})"
    return f" (translation LM, cos {m['score']:.2f})"
