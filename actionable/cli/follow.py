"""``actionable follow`` and ``actionable eval continual``: ExRAP-style continual
instruction following in a non-stationary VirtualHome house, or another continual
world chosen with ``--env`` (``thor``: an AI2-THOR kitchen; ``driving``: Eclipse SUMO;
:mod:`actionable.continual.worlds`).

Heavy imports (llama.cpp, virtualhome_eval, matplotlib) happen inside the commands.
"""

from __future__ import annotations

from actionable.core.redact import redact_spec

import json
import shlex
import sys
from pathlib import Path
from typing import Optional

import typer
from actionable.core import defaults as D

_ENV_HELP = ("World: virtualhome (default; a VirtualHome house), thor (an AI2-THOR kitchen, symbolic: ALFRED's "
             "PDDL semantics, FloorPlan1-30; instructions read by rule) or driving (an Eclipse SUMO town; needs "
             "pip install -e \".\\[dev,driving]\" torch==2.13.0; instructions read by the LM, rules as fallback).")  # \\[: rich markup
_AGENT_HELP = ("exrap, exrap-tc (no temporal consistency), exrap-exp (fixed exploration), "
               "exrap-llm (LLM exploration), exrap-sample (10-sample query answers), llm-planner, saycan, "
               "zsp, progprompt (ProgPrompt-style program prompt with assertions), instruction-wise, "
               "oracle (full observability).")


def _csv(text: str, what: str) -> list[str]:
    from actionable.core.errors import ConfigError
    items = [x.strip() for x in text.split(",") if x.strip()]
    if not items:
        raise ConfigError(f"--{what} is empty; give a comma-separated list")
    return items


def _world(env: str, command: str):
    """The continual world named by ``--env``; the error names the flag, and for a registered world
    without the ``continual`` capability says so."""
    from actionable.continual.worlds import get_world, list_worlds
    from actionable.core.errors import ConfigError

    if env in list_worlds():
        return get_world(env)
    supported = ", ".join(list_worlds())
    from actionable.core.registry import list_worlds as all_worlds

    if env in all_worlds():
        raise ConfigError(f"--env: {command} supports {supported} (world {env} has no 'continual' capability)")
    raise ConfigError(f"--env: unknown world {env!r}; {command} supports {supported}")


def _check_model(model: str) -> None:
    """``--model`` checked before anything runs (no loading; :func:`~actionable.lm.registry.check_spec`)."""
    from actionable.core.errors import ConfigError, ModelNotFoundError
    from actionable.lm.registry import check_spec

    try:
        check_spec(model)
    except (ModelNotFoundError, ConfigError) as exc:
        raise type(exc)(f"--model: {exc}") from None


def _check_writable(flag: str, path: Optional[Path]) -> None:
    """Fail before the episode, not after it, when an output path cannot be written."""
    from actionable.core.errors import InputError
    if path is None:
        return
    if path.is_dir():
        raise InputError(f"{flag} {path} is a directory; give a file path")
    if not path.parent.is_dir():
        raise InputError(f"{flag} {path}: folder {path.parent} does not exist; create it first")


def _sample(world, house, count: int, seed: int):
    """The world's generated instruction set; a size it cannot take names ``--count``."""
    from actionable.core.errors import InputError

    try:
        return world.sample(house, count, seed)
    except InputError as exc:
        if str(exc).startswith("instruction set size"):
            raise InputError(f"--count: {exc}") from None
        raise


def follow_command(
    instructions: Optional[Path] = typer.Option(None, "--instructions", "-i",
                                                help="Instruction file: one 'If <condition>, <action>.' per line, "
                                                     "or the JSON written by --save-instructions. Default: a "
                                                     "seeded set of --count template instructions."),
    count: int = typer.Option(D.INSTRUCTION_COUNT, "--count", "-n", help="Size of the generated set when no file is given (1-24; ignored with "
                                                "--instructions). How many distinct instructions a scene can "
                                                "ground varies by scene and seed: up to 15 in 1003_2."),
    nonstationarity: str = typer.Option(D.NONSTATIONARITY, "--nonstationarity", "-x",
                                        help="How often the house changes: low (every 8 steps), medium (6), high (4)."),
    steps: int = typer.Option(D.FOLLOW_STEPS, "--steps", help="Episode length in skills (1-2000)."),
    agent: str = typer.Option(D.AGENT, "--agent", "-a", help=_AGENT_HELP),
    model: str = typer.Option("embedded", "--model", "-m",
                              help="LM: embedded (SmolLM2-135M, offline), gguf:<file>, openai:<name>@<base_url>, hf:<path>."),
    scene: Optional[str] = typer.Option(None, "--scene", "-s",
                                        help="Scene: a packaged program id (default 1003_2: 4 rooms, 11 movable objects) "
                                             "or 'default', optionally sized as <scene>:rooms=<k> (1-6 rooms: rooms "
                                             "dropped, or copied as kitchen / living room); "
                                             "with --env thor a kitchen FloorPlan1 (default) ... FloorPlan30; "
                                             "with --env driving a road network: town (default), village, city."),
    env: str = typer.Option("virtualhome", "--env", help=_ENV_HELP),
    seed: int = typer.Option(D.SEED, "--seed", help="Seed of the house dynamics and the generated instructions."),
    query_mode: str = typer.Option(D.QUERY_MODE, "--query-mode",
                                   help="P(q) estimator: logprob (one scoring call) or sample (up to 10 samples)."),
    w_t: float = typer.Option(D.W_T, "--w-t", help="Weight of the LM exploitation value v_T (Eq. 12; paper 0.01)."),
    relevance: float = typer.Option(D.RELEVANCE, "--relevance",
                                    help="Retrieval cut-off in [0, 1]: keep quadruples scoring >= this x the best "
                                         "(0 = plain top-12). Raises Eq. 5 reuse."),
    interpreter: str = typer.Option(D.INTERPRETER, "--interpreter",
                                    help="How instruction text becomes query + execution (Eq. 4): lm (the LM, its "
                                         "clauses translated to admissible ones by MiniLM, polarity checked; rule "
                                         "reader as fallback) or rule (the rule reader only)."),
    save_instructions: Optional[Path] = typer.Option(None, "--save-instructions",
                                                     help="Write the instruction set (with its ground truth) as JSON."),
    trace_out: Optional[Path] = typer.Option(None, "--trace", help="Write the full episode record (JSONL trace) here."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No live trace and no progress lines; print only "
                                                            "the summary."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
    html: Optional[Path] = typer.Option(None, "--html", help="Also write a self-contained HTML replay of the "
                                                             "episode (instruction timeline, P(q) vs truth, "
                                                             "rooms, house changes, chosen skill) here."),
    png: Optional[Path] = typer.Option(None, "--png", help="Also write a PNG of the episode's timeline here."),
) -> None:
    """Follow standing conditional instructions in a changing house, with a live trace.

    Each line of the trace shows the step, the room, what the agent observed,
    what its memory believes about each condition (P(q)), the skill it chose,
    why (the Eq. 12 value), and what the house changed. Ends with SR / PS.
    """
    from rich.console import Console

    from actionable.cli.progress import check_seed, note, plural, set_quiet
    from actionable.core.config import LMConfig, make_config
    from actionable.continual.agent import ExRAPConfig
    from actionable.continual.episode import AGENTS, make_agent, run_episode
    from actionable.core.continual import save_instructions as _save

    from actionable.core.errors import ConfigError

    if quiet:
        set_quiet(True)
    world = _world(env, "follow")
    scene = scene or world.scene
    if agent not in AGENTS:
        raise ConfigError(f"--agent: unknown agent {agent!r}; choose from {', '.join(AGENTS)}")
    if not 1 <= steps <= 2000:
        raise ConfigError(f"--steps must be 1..2000 (got {steps})")
    check_seed(seed)
    if interpreter not in ("lm", "rule"):
        raise ConfigError(f"--interpreter must be lm or rule (got {interpreter!r})")
    for flag, path in (("--save-instructions", save_instructions), ("--trace", trace_out), ("--html", html),
                       ("--png", png)):
        _check_writable(flag, path)
    if agent != "oracle":
        _check_model(model)
    dyn = world.describe(nonstationarity)  # checks the level
    cfg = make_config(ExRAPConfig, query_mode=query_mode, w_t=w_t, relevance=relevance)
    console = Console(stderr=False, highlight=False, soft_wrap=True)
    house = world.make_house(scene, nonstationarity)
    house.reset(seed)
    ins = world.load(instructions, house) if instructions else _sample(world, house, count, seed)
    if save_instructions:
        _save(ins, save_instructions)
    lm = None
    if agent != "oracle":
        from actionable.lm.registry import load_lm
        note(f"loading LM ({redact_spec(model)}) ...")
        lm = load_lm(model, make_config(LMConfig, model=model, cache=not no_cache))
    ag = make_agent(agent, lm, ins, cfg)
    console.print(f"[bold]{agent}[/bold] in scene {scene}, non-stationarity {nonstationarity} "
                  f"({dyn}), {plural(steps, 'step')}, seed {seed}")
    if not world.lm_interpreter and agent != "oracle":
        console.print(f"  interpreter: {world.name} instructions are read by rule (no LM reading for this env)")
        interpreter = "rule"

    def header(log: list[dict]) -> None:
        """The instructions, each with the reader that read it (said before the first step)."""
        for i, x in enumerate(ins, 1):
            r = log[i - 1] if i <= len(log) else {}
            if agent == "oracle":
                by = "not read: the oracle is given the goal"
            else:
                by = {"lm": "read by the LM interpreter", "rule": "read by the rule reader"}.get(
                    r.get("source"), "not read by either reader")
                if r.get("source") == "rule" and interpreter == "lm" and world.lm_interpreter:
                    by += ", the LM reading unusable"
            console.print(f"  instruction {i}: {x.text}  [{by}]", markup=False)

    def show(rec: dict) -> None:
        if quiet:
            return
        bel = ", ".join(f"{k}={v:.2f}" for k, v in rec["beliefs"].items())
        mark = "ok" if rec["executed"] else f"FAILED: {rec['error']}"
        console.print(f"[cyan]t={rec['t']:3d}[/cyan] in {rec['room']:<12} saw {rec['observed']:2d} facts | "
                      f"-> [bold]{rec['skill']}[/bold] ({mark})")
        console.print(f"        why: {rec['why']}")
        if bel:
            console.print(f"        memory: {bel}")
        if rec["completed"]:
            console.print(f"        [green]completed instruction(s) {rec['completed']}[/green]")
        if rec["house_changed"]:
            console.print(f"        {world.changes_label}: {'; '.join(rec['house_changed'])}")

    embedder = None
    if interpreter == "lm" and lm is not None:
        from actionable.grounding.embedder import load_embedder
        note("loading translation LM (minilm) ...")
        embedder = load_embedder("minilm")
    note(f"running the episode: {plural(steps, 'step')} ...")
    res = run_episode(ag, house, ins, steps, seed, lm=lm if interpreter == "lm" else None, on_step=show,
                      embedder=embedder, world=world, on_read=header)
    for r in res.interpretation if agent != "oracle" else []:
        if r["source"] != "lm" and (world.lm_interpreter or r["error"]):
            why = f" ({r['error']})" if r["error"] else ""
            console.print(f"  interpreter: '{r['text']}' read by {r['source']}{why}")
    m, s = res.metrics, res.stats
    sr = "-" if m["sr"] is None else f"{100 * m['sr']:.1f}%"
    ps = "-" if m["ps"] is None else f"{m['ps']:.1f} steps"
    extra = f", Eq. 5 reuse {100 * s['reuse_rate']:.0f}%" if "reuse_rate" in s else ""
    console.print(f"[bold]SR {sr}  PS {ps}[/bold]  ({m['n_success']} completed, {m['n_failure']} missed, "
                  f"{m['n_cancelled']} cancelled by the house; {s['lm_calls_per_step']:.2f} LM calls/step{extra}; "
                  f"episode wall time {s['seconds']:.1f} s, model loading excluded)")
    if trace_out:
        with open(trace_out, "w", encoding="utf-8") as f:
            for rec in res.trace:
                f.write(json.dumps(rec) + "\n")
            summ = {k: v for k, v in res.to_dict().items() if k != "trace"}
            summ.update(env=world.name, scene=scene, agent=agent, instructions=[x.text for x in ins])
            f.write(json.dumps({"summary": summ}) + "\n")
    if html is not None or png is not None:
        from actionable.cli.show import write_outputs
        from actionable.viz.document import follow_document

        summ = {"metrics": res.metrics, "interpretation": res.interpretation, "activations": res.activations,
                "instructions": [x.text for x in ins]}
        write_outputs(follow_document(res.trace, summ, title=f"{agent} in {scene}", world=world.name, scene=scene),
                      html, png)


def continual_eval_command(
    out: Path = typer.Option(..., "--out", "-o", help="Run directory (rerun the same command to resume)."),
    agents: str = typer.Option("exrap,llm-planner,saycan,zsp,progprompt,instruction-wise", "--agents", help=_AGENT_HELP),
    nonstationarity: str = typer.Option("low,medium,high", "--nonstationarity", "-x", help="Levels, comma-separated."),
    set_sizes: str = typer.Option("3,5,7", "--set-sizes",
                                  help="Instruction-set sizes, comma-separated (--instructions, the old name, "
                                       "is a deprecated alias until the next release)."),
    instructions: Optional[str] = typer.Option(None, "--instructions", hidden=True,
                                               help="Deprecated alias of --set-sizes."),
    seeds: int = typer.Option(3, "--seeds", help="Seeds per setting (0..N-1)."),
    steps: int = typer.Option(60, "--steps", help="Episode length in skills."),
    model: str = typer.Option("embedded", "--model", "-m", help="LM spec (see `actionable follow --help`)."),
    scene: Optional[str] = typer.Option(None, "--scene", "-s",
                                        help="Scene (packaged program id or 'default'; default 1003_2; "
                                             "<scene>:rooms=<k> for a house of k rooms, 1-6); with "
                                             "--env thor a kitchen FloorPlan1 (default) ... FloorPlan30; with "
                                             "--env driving a road network (default town)."),
    env: str = typer.Option("virtualhome", "--env", help=_ENV_HELP),
    query_mode: str = typer.Option("logprob", "--query-mode", help="logprob or sample."),
    w_t: float = typer.Option(0.01, "--w-t", help="Weight of v_T (Eq. 12)."),
    relevance: float = typer.Option(0.5, "--relevance", help="Retrieval cut-off (see `actionable follow --help`)."),
    interpreter: str = typer.Option("lm", "--interpreter", help="lm or rule (see `actionable follow --help`)."),
    executor: str = typer.Option("local", "--executor", help="local or ray."),
    workers: int = typer.Option(1, "--workers", "-w", help="Ray workers."),
    address: Optional[str] = typer.Option(None, "--address", help="Ray cluster address."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Do not use the LM response cache."),
    retry_errors: bool = typer.Option(False, "--retry-errors", help="Rerun episodes that ended in an error."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
) -> None:
    """Run the continual benchmark and write summary.md (paper-style SR/PS table, then ExRAP's paired
    differences against each agent on the same level, set size and seed) + paired.json + continual.png."""
    from actionable.continual.episode import AGENTS
    from actionable.evaluation.continual import ContinualWorker, episodes_for, write_continual_report
    from actionable.continual.worlds import DEFAULT_WORLD
    from actionable.cli.progress import quiet
    from actionable.core.errors import ConfigError
    from actionable.evaluation.runner import config_fingerprint, run_episodes

    world = _world(env, "eval continual")
    scene = scene or world.scene
    ags = _csv(agents, "agents")
    bad = [a for a in ags if a not in AGENTS]
    if bad:
        from actionable.core.errors import unknown_names

        raise ConfigError(f"--agents: {unknown_names('agent', bad, AGENTS)}")
    sizes_flag = "--set-sizes"
    if instructions is not None:  # the deprecated spelling (it means a file in `follow`)
        sizes_flag, set_sizes = "--instructions", instructions
        typer.echo("warning: `eval continual --instructions` is deprecated (in `follow` it names a file); "
                   "use --set-sizes", err=True)
    try:
        sizes = [int(x) for x in _csv(set_sizes, sizes_flag.lstrip("-"))]
    except ValueError:
        raise ConfigError(f"{sizes_flag} must be integers like 3,5,7 (got {set_sizes!r})") from None
    if any(not 1 <= n <= 24 for n in sizes):
        raise ConfigError(f"{sizes_flag}: set sizes must be in 1..24 (got {set_sizes!r})")
    if not 1 <= seeds <= 1000:
        raise ConfigError(f"--seeds must be in 1..1000 (got {seeds})")
    if not 1 <= steps <= 2000:
        raise ConfigError(f"--steps must be in 1..2000 (got {steps})")
    if any(n > world.max_instructions for n in sizes):
        raise ConfigError(f"--env {world.name} grounds at most {world.max_instructions} instructions per set")
    if interpreter not in ("lm", "rule"):
        raise ConfigError(f"--interpreter must be lm or rule (got {interpreter!r})")
    if not world.lm_interpreter:
        interpreter = "rule"  # this world reads instructions by rule only
    if not 0.0 <= relevance <= 1.0:
        raise ConfigError(f"--relevance must be in [0, 1] (got {relevance})")
    from actionable.core.config import make_config
    from actionable.continual.agent import ExRAPConfig
    make_config(ExRAPConfig, query_mode=query_mode, w_t=w_t, relevance=relevance)  # typed error now, not per episode
    world.check_scene(scene)  # SceneError now for an unknown scene
    if any(a != "oracle" for a in ags):
        _check_model(model)  # before the run: one error line, not one failed episode each
    eps = episodes_for(ags, _csv(nonstationarity, "nonstationarity"), sizes, list(range(seeds)), steps,
                       scene, model, query_mode, w_t, interpreter, relevance, env=world.name)
    conf = {"steps": steps, "scene": scene, "model": model, "query_mode": query_mode, "w_t": w_t,
            "relevance": relevance}
    if interpreter != "lm":
        conf["interpreter"] = interpreter
    if world.name != DEFAULT_WORLD:
        conf["env"] = world.name
    manifest = {"kind": "continual", "command": "actionable " + " ".join(shlex.quote(a) for a in sys.argv[1:]),
                "fingerprint": config_fingerprint(conf),
                "config": conf}
    res = run_episodes(eps, ContinualWorker(cache=not no_cache), out, executor=executor, workers=workers,
                       address=address, manifest=manifest, progress=not (no_progress or quiet()),
                       retry_errors=retry_errors)
    if res.errors and not any(r.get("status") == "ok" for r in res.records.values()):
        first = next(r.get("error") for r in res.records.values() if r.get("status") != "ok")
        # the job ran and failed: exit 1 (exit 2 is for bad input, caught above)
        typer.echo(f"error: every episode failed; the first error: {first}", err=True)
        raise typer.Exit(1)
    paths = write_continual_report(out)
    from actionable.cli.progress import plural

    typer.echo(paths["markdown"].read_text(encoding="utf-8"))
    typer.echo(f"{res.new} new, {res.skipped} resumed, {plural(res.errors, 'error')}; wrote {paths['markdown']} "
               f"and {paths['figure']}")


def register(app, eval_app) -> None:
    """Add ``follow`` to the root app and ``continual`` to the eval sub-app."""
    app.command("follow")(follow_command)
    eval_app.command("continual")(continual_eval_command)
