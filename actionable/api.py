"""The top-level Python API: ``actionable.plan``, ``actionable.verify``, ``actionable.follow``
and ``actionable.make``, with the same defaults as the CLI (:mod:`actionable.core.defaults`).

>>> import actionable
>>> r = actionable.plan("Watch TV")                # grounded planner, embedded model, default house
>>> r.executable, [s.to_text() for s in r.steps_as_program()]
>>> v = actionable.verify(r, judge="sim")          # critique the plan, get the revised one
>>> f = actionable.follow(["If the television in the dining room is on, switch it off."], steps=30)
>>> w = actionable.make("thor", scene="FloorPlan1")   # a world, Gymnasium style

Every result is plain data with ``to_dict()`` (JSON-ready). Errors are the typed errors of
:mod:`actionable.core.errors` (``ConfigError`` names the keyword argument). Progress: timestamped
lines on stderr (``progress=True``, the default; a notebook shows them), ``progress=False``
for none, or a callable that receives the event dicts.

Each call loads its models (the embedded LM in about a second, the translation LM in a few);
for many plans on one scene, use :class:`actionable.planning.session.PlanningSession`.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Union

from actionable.core import defaults as D

Progress = Union[bool, Callable[[dict], None], None]


# ----------------------------------------------------------------------------- progress
def _line(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _progress(progress: Progress) -> Callable[[dict], None] | None:
    """The planner's event callback for ``progress`` (see the module docstring)."""
    if callable(progress):
        return progress
    if not progress:
        return None
    last = {"line": None}

    def show(event: dict) -> None:
        ev = event.get("event")
        if ev == "load":
            msg = f"loading {event.get('what')}" + (f" ({event['spec']})" if event.get("spec") else "")
            if event.get("what") == "admissible-action index":
                msg += " (first run only: embeds every action, then cached)"
            msg += " ..."
        elif ev == "step":
            msg = f"planning step {event['step']}/{event['max_steps']}"
        elif ev == "generate":
            msg = "planning: the LM writes the plan ..."
        else:
            msg = str(ev)
        if msg != last["line"]:
            _line(msg)
            last["line"] = msg

    return show


# ----------------------------------------------------------------------------- plan
def plan(task: str, world: str = D.WORLD, scene: str = D.PLAN_SCENE, model: str = D.MODEL,
         variant: str = D.VARIANT, *, translation_model: str = D.TRANSLATION_MODEL, bank=None,
         cache: bool = True, progress: Progress = True, lm_mode: str = "auto", **options: Any):
    """Plan a household ``task`` and check it in the simulator, as ``actionable plan`` does.

    Args:
        task: the instruction, e.g. ``"Watch TV"``.
        world: a registered world with the ``planning`` capability (``"virtualhome"``, ``"thor"``
            (the AI2-THOR kitchen), ``"pddl"``; :func:`list_worlds`); the paper's variants need a
            whole-scene admissible-action space (VirtualHome's).
        scene: the world's scene: VirtualHome ``"default"`` or a packaged program id
            (``actionable scenes``); THOR ``FloorPlan<N>`` or ``teach:<game>`` (``"default"``:
            FloorPlan1; ``actionable scenes --env thor``).
        model: planning LM spec (``embedded``, ``gguf:<file>``, ``openai:<name>@<url>``, ``hf:<path>``).
            The goal planner uses none (never loaded); a model other than the default is then named
            in ``result.notes`` as not used.
        variant: ``goal`` (default: read the task as goal conditions, search the world's exact
            affordance for a plan that reaches them, check the same conditions; a world without a
            ``goals`` capability plans with ``grounded``), ``grounded`` (the LM-scored imitation
            planner) or a Huang et al. 2022 variant: ``vanilla``, ``translated``, ``corrected``, ``full``.
        translation_model: ``minilm``, ``bow`` or ``st:<dir>``.
        bank: example-bank JSONL path (default: the world's bank: VirtualHome's packaged programs,
            THOR's TEACh demonstrations).
        cache: use the LM response cache.
        progress: see the module docstring.
        lm_mode: how the grounded planner scores candidates (``auto``, ``score``, ``choice-logprobs``,
            ``choice-name``; :mod:`actionable.lm.choice`); ``result.lm_mode`` says which ran.
        **options: planner settings: fields of ``GroundedConfig`` for ``grounded``
            (``max_steps``, ``samples``, ``seed``, ...), of ``PlannerConfig`` otherwise
            (``samples``, ``beta``, ``cutoff``, ``max_steps``, ``seed``, ``repair``, ...).
            The paper variants' cutoff defaults to the CLI's (0.4 for ``embedded``, else 0.8).

    Returns:
        :class:`actionable.planning.result.PlanResult`: ``done`` (True: the goal read from the task
        holds after the plan; False: it does not; None: no goal could be checked), ``verdict()``,
        ``reading``, ``executable``, ``executability``, ``steps_as_program()``, ``goal_check``,
        ``to_dict()``.

    Raises:
        ConfigError, InputError, SceneError (THOR: UnknownSceneError), UnknownWorldError,
        PlanningError (e.g. the task names an object the scene lacks; the message names the
        closest objects), GoalReadingError (``goal``: the goal is refused or cannot be read),
        ModelNotFoundError (all :class:`ActionableError`).
    """
    from actionable.core.config import VARIANTS, GroundedConfig, LMConfig, PlannerConfig, make_config
    from actionable.core.errors import ConfigError
    from actionable.core.registry import planning_domain
    from actionable.planning.prompts import clean_task

    if variant not in ("grounded", "goal") and variant not in VARIANTS:
        raise ConfigError(f"variant={variant!r}: use one of goal, grounded, {', '.join(VARIANTS)}")
    task = clean_task(task)
    lcfg = make_config(LMConfig, model=model, translation_model=translation_model, cache=cache, lm_mode=lm_mode)
    if bank is not None and not Path(bank).is_file():
        raise ConfigError(f"bank={str(bank)!r} is not a file; give a JSONL example bank")
    if variant == "goal":
        from actionable.planning.goaldirected import GoalSearchConfig
        from actionable.planning.pipeline import LazyEmbedder, interpreter_for, plan_task, read_goal

        domain = planning_domain(world, scene)
        interp = interpreter_for(domain, LazyEmbedder(lcfg.translation_model, lcfg.cache_dir))
        reading = read_goal(interp, task) if interp is not None else None
        if reading is not None and reading.is_goal:
            known = {k: v for k, v in options.items() if k in ("max_steps", "repair_budget", "lookahead", "max_options")}
            result = plan_task(domain, task, interp, GoalSearchConfig.for_reading(reading, **known), reading)
            if model != D.MODEL:  # a planning LM asked for and not used: said, as by the CLI
                from actionable.planning.pipeline import unused_model_note

                result.notes.append(unused_model_note(model, translation_model))
            return result
        variant = "grounded"
        options = {k: v for k, v in options.items() if k not in ("repair_budget", "lookahead", "max_options")}
    if variant == "grounded":
        gcfg = make_config(GroundedConfig, **options)
    else:
        options["cutoff"] = D.plan_cutoff(model, options.get("cutoff"))
        pcfg = make_config(PlannerConfig, variant=variant, **options)
    domain = planning_domain(world, scene)  # unknown world or scene: one clear error before any model loads
    if variant != "grounded" and not getattr(domain, "paper_variants", False):
        raise ConfigError(f"variant={variant!r} needs a world with a whole-scene admissible-action space; "
                          f"world {world!r} has none: use variant='grounded'")
    from actionable.planning.session import PlanningSession

    cb = _progress(progress)
    if variant == "grounded":
        session = PlanningSession(lcfg, None, scene=domain, bank=bank if bank is not None else domain.example_bank(),
                                  progress=cb)
        result = session.grounded_planner(gcfg).plan(task, domain)
    else:
        session = PlanningSession(lcfg, pcfg, scene=domain, bank=bank, progress=cb)
        result = session.plan(task)
        result.world, result.scene = domain.world, domain.name
    from actionable.planning.pipeline import check_result

    check_result(result, domain, session)
    return result


# ----------------------------------------------------------------------------- verify
def _as_program(plan):
    """A :class:`Program` from a Program, a PlanResult, a path, plan text or a list of lines."""
    from actionable.core.program import Program
    from actionable.core.errors import InputError

    if isinstance(plan, Program):
        return plan, plan.task
    if hasattr(plan, "steps_as_program") and hasattr(plan, "task"):  # a PlanResult
        prog = plan.resolved_program if getattr(plan, "resolved_program", None) is not None else plan.program
        steps = list(prog.steps) if prog is not None else plan.steps_as_program()
        return Program.parse("\n".join(s.to_script() for s in steps), task=plan.task), plan.task
    if isinstance(plan, Path):
        from actionable.verify.planfile import read_plan_file

        return read_plan_file(plan)
    if isinstance(plan, str):
        text = plan
    elif isinstance(plan, Iterable):
        text = "\n".join(str(x) for x in plan)
    else:
        raise InputError(f"plan: expected a Program, a PlanResult, a Path, text or a list of lines "
                         f"(got {type(plan).__name__})")
    from actionable.core.errors import ProgramParseError
    from actionable.verify.planfile import not_a_kitchen_plan

    try:
        prog = Program.parse(text)
    except ProgramParseError:
        not_a_kitchen_plan(text, "plan")  # a kitchen plan for VirtualHome: say to pass world="thor"
        raise
    if not len(prog):
        raise InputError("plan holds no action; write one action a line, e.g. '[WALK] <sink>' or 'walk to sink'")
    return prog, prog.task


def verify(plan, goal: str | None = None, judge: str = D.JUDGE, *, planner: str = D.VERIFY_PLANNER,
           model: str = D.MODEL, scene: str = D.VERIFY_SCENE, program: str | None = None,
           max_rounds: int = D.MAX_ROUNDS, cache: bool = True, world: str | None = None, lm=None):
    """Critique a plan with the Judge/Planner loop (arXiv 2509.02761), as ``actionable verify`` does.

    Args:
        plan: a :class:`PlanResult` (from :func:`plan`), a ``Program``, a ``Path`` to a plan file,
            plan text (one action a line, ``[GRAB] <mug> (12)`` or ``grab mug``) or a list of lines.
        goal: the instruction the plan is for (default: the plan's task).
        judge: ``hybrid`` (default), ``sim``, ``rule`` or ``llm``.
        planner: ``apply`` (default) or ``llm``.
        model: LM of the ``llm``/``hybrid`` judge and the ``llm`` planner.
        scene: scene the ``sim``/``hybrid`` judge replays in (in a world other than VirtualHome,
            default: the plan's own scene, from a PlanResult or the plan's ``plan`` output).
        program: a packaged program id whose annotated goal conditions to check (sets the scene;
            VirtualHome only).
        max_rounds: most judge rounds (1..20).
        world: the world the judge replays in, as ``actionable verify --env``: ``virtualhome`` or
            ``thor`` (default: the world a PlanResult or a ``plan --json`` file records, else
            ``virtualhome``). In ``thor`` a plan is a PlanResult of ``plan(world="thor")``, a Path
            to any output of ``actionable plan --env thor`` or TEACh-style lines
            (``PickUp(Mug)``), or such text.
        lm: an already-loaded LM for the ``llm``/``hybrid`` judge and ``llm`` planner (``actionable
            serve`` passes its one model); default: loaded from ``model`` when needed.

    Returns:
        :class:`actionable.verify.loop.LoopResult`: ``initial``, ``final``, ``rounds``,
        ``converged``, ``to_dict()``; in a world judged through an adapter (``thor``), a
        :class:`actionable.verify.inworld.WorldVerification` with the same attributes plus
        ``before`` / ``after`` replays (``executable``, ``goals_met``, ``goals_total``) and ``scene``.

    Raises:
        ConfigError: a bad judge, planner, max_rounds, world or scene, or no goal. InputError: the
            plan cannot be read (a kitchen plan given for VirtualHome says to pass ``world="thor"``).
    """
    from actionable.core.errors import ConfigError
    from actionable.verify.inworld import verify_on_graph
    from actionable.verify.judge import JUDGE_NAMES, VerifyTask
    from actionable.verify.loop import loop_lm

    if judge not in JUDGE_NAMES:
        raise ConfigError(f"judge={judge!r}: choose from {', '.join(JUDGE_NAMES)}")
    if planner not in ("apply", "llm"):
        raise ConfigError(f"planner={planner!r}: choose apply or llm")
    if not 1 <= max_rounds <= 20:
        raise ConfigError(f"max_rounds must be in 1..20 (got {max_rounds})")
    if world is None:  # the world a PlanResult or a `plan --json` file records, else VirtualHome
        world = getattr(plan, "world", "") or _recorded_world(plan) or D.WORLD
    from actionable.verify.worldsim import verify_route

    try:
        route = verify_route(world)
    except ConfigError as exc:  # name the argument, not the CLI flag
        raise ConfigError(f"world={world!r}: {str(exc).split(': ', 1)[-1]}") from None
    if route == "adapter":
        return _verify_in_world(plan, goal, judge, planner, model, scene, program, max_rounds, cache, world, lm)
    prog, own_goal = _as_program(plan)
    goal = (goal or own_goal or "").strip()
    if not goal:
        raise ConfigError("goal is required (the plan names no task), e.g. goal=\"Turn on TV\"")
    spec = None
    if program is not None:
        from actionable.core.registry import capability

        ds = capability(world, "dataset")
        if program not in set(ds.program_ids()):
            raise ConfigError(f"program={program!r} is not a program id of world {world!r}'s dataset")
        spec = ds.goal_annotations().get(program)
        scene = ds.scene(program)
    task = VerifyTask(goal=goal, scene=None if scene == "default" else scene, goal_spec=spec, program_id=program)
    return verify_on_graph(prog, task, judge=judge, planner=planner,
                           lm=lm if lm is not None else loop_lm(judge, planner, model, cache),
                           max_rounds=max_rounds, world=world)


def _recorded_world(plan) -> str | None:
    """The world recorded in ``plan --json`` output given as a Path or as text, else None."""
    from actionable.verify.inworld import plan_world

    if isinstance(plan, Path):
        try:
            return plan_world(plan.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError):
            return None  # the reader below says what is wrong with the file
    return plan_world(plan) if isinstance(plan, str) else None


def _verify_in_world(plan, goal, judge, planner, model, scene, program, max_rounds, cache, world, lm=None):
    """:func:`verify` in a world judged through its adapter (:mod:`actionable.verify.inworld`)."""
    from actionable.core.program import Program
    from actionable.core.errors import ConfigError
    from actionable.verify.inworld import verify_in_world, world_scene

    if program is not None:
        raise ConfigError(f"program={program!r} names a VirtualHome program; in world {world!r} give scene=")
    where, suffix = "plan", ""
    if hasattr(plan, "to_json") and hasattr(plan, "steps_as_program"):  # a PlanResult
        text = plan.to_json()
        if scene in ("", "default") and getattr(plan, "scene", ""):
            scene = plan.scene
    elif isinstance(plan, Path):
        from actionable.verify.planfile import read_text

        (text, where), suffix = read_text(plan), plan.suffix
    elif isinstance(plan, Program):
        text = "\n".join(s.to_text() for s in plan.steps)
        goal = goal or plan.task or None
    elif isinstance(plan, str):
        text = plan
    elif isinstance(plan, Iterable):
        text = "\n".join(str(x) for x in plan)
    else:
        from actionable.core.errors import InputError

        raise InputError(f"plan: expected a PlanResult, a Program, a Path, text or a list of lines "
                         f"(got {type(plan).__name__})")
    from actionable.verify.loop import loop_lm

    sc = world_scene(world, scene, text)  # a bad scene: one clear error before any model loads
    return verify_in_world(world, text, scene=sc, goal=goal, judge=judge, planner=planner,
                           lm=lm if lm is not None else loop_lm(judge, planner, model, cache), max_rounds=max_rounds,
                           where=where, suffix=suffix)


# ----------------------------------------------------------------------------- follow
@dataclass
class FollowResult:
    """One episode of continual instruction following: ``metrics`` (``sr``, ``ps``, counts),
    ``stats`` (LM calls per step, seconds, ...), the ``instructions`` followed, the interpreter's
    ``interpretation`` log and the per-step ``trace``."""

    instructions: list[str]
    metrics: dict
    stats: dict
    interpretation: list = field(default_factory=list)
    activations: list = field(default_factory=list)
    trace: list = field(default_factory=list)
    settings: dict = field(default_factory=dict)

    @property
    def sr(self):
        return self.metrics.get("sr")

    @property
    def ps(self):
        return self.metrics.get("ps")

    def to_dict(self) -> dict:
        return {"instructions": list(self.instructions), "metrics": self.metrics, "stats": self.stats,
                "interpretation": self.interpretation, "activations": self.activations, "trace": self.trace,
                "settings": self.settings}


def follow(instructions=None, world: str = D.WORLD, steps: int = D.FOLLOW_STEPS, *, scene: str | None = None,
           agent: str = D.AGENT, nonstationarity: str = D.NONSTATIONARITY, count: int = D.INSTRUCTION_COUNT,
           model: str = D.MODEL, seed: int = D.SEED, query_mode: str = D.QUERY_MODE, w_t: float = D.W_T,
           relevance: float = D.RELEVANCE, interpreter: str = D.INTERPRETER, cache: bool = True,
           on_step: Callable[[dict], None] | None = None, progress: Progress = True, lm=None) -> FollowResult:
    """Follow standing conditional instructions in a changing house, as ``actionable follow`` does.

    Args:
        instructions: ``None`` (a seeded set of ``count`` generated instructions), a path to an
            instruction file (one ``If <condition>, <action>.`` a line, or saved JSON), or a list
            of instruction strings.
        world: a registered world with the ``continual`` capability (``virtualhome``, ``thor``,
            ``driving``; :func:`list_worlds`).
        steps: episode length in skills (1..2000).
        scene: the world's scene (default: the world's own, ``1003_2`` in VirtualHome).
        agent, nonstationarity, model, seed, query_mode, w_t, relevance, interpreter: as the
            flags of ``actionable follow``.
        on_step: called with each step's record (the live trace).
        lm: an already-loaded LM (``actionable serve`` passes its one model); default: loaded from ``model``.

    Returns:
        :class:`FollowResult` (``sr``, ``ps``, ``metrics``, ``to_dict()``).
    """
    import tempfile

    from actionable.core.config import LMConfig, make_config
    from actionable.continual.agent import ExRAPConfig
    from actionable.continual.episode import AGENTS, make_agent, run_episode
    from actionable.core.errors import ConfigError

    if agent not in AGENTS:
        raise ConfigError(f"agent={agent!r}: choose from {', '.join(AGENTS)}")
    if not 1 <= steps <= 2000:
        raise ConfigError(f"steps must be in 1..2000 (got {steps})")
    if interpreter not in ("lm", "rule"):
        raise ConfigError(f"interpreter must be 'lm' or 'rule' (got {interpreter!r})")
    cfg = make_config(ExRAPConfig, query_mode=query_mode, w_t=w_t, relevance=relevance)
    say = _line if progress is True else (lambda msg: None)
    from actionable.continual.worlds import get_world

    w = get_world(world)  # ConfigError naming the worlds that follow instructions
    scene = scene or w.scene
    w.describe(nonstationarity)  # checks the level
    house = w.make_house(scene, nonstationarity)
    load, sample, lm_reads = w.load, w.sample, w.lm_interpreter
    extra = {"world": w}
    house.reset(seed)
    if instructions is None:
        ins = sample(house, count, seed)
    elif isinstance(instructions, (str, Path)) and Path(instructions).is_file():
        ins = load(instructions, house)
    else:
        lines = [instructions] if isinstance(instructions, str) else [str(x) for x in instructions]
        with tempfile.TemporaryDirectory() as d:
            p = Path(d) / "instructions.txt"
            p.write_text("\n".join(lines) + "\n", encoding="utf-8")
            ins = load(p, house)
    if agent == "oracle":
        lm = None
    elif lm is None:
        from actionable.lm.registry import load_lm

        say(f"loading LM ({model}) ...")
        lm = load_lm(model, make_config(LMConfig, model=model, cache=cache))
    ag = make_agent(agent, lm, ins, cfg)
    use_lm = interpreter == "lm" and lm is not None and lm_reads
    embedder = None
    if use_lm:
        from actionable.grounding.embedder import load_embedder

        say("loading translation LM (minilm) ...")
        embedder = load_embedder("minilm")
    say(f"running the episode: {steps} step{'s' if steps != 1 else ''} ...")
    res = run_episode(ag, house, ins, steps, seed, lm=lm if use_lm else None, on_step=on_step,
                      embedder=embedder, **extra)
    return FollowResult(instructions=[i.text for i in ins], metrics=res.metrics, stats=res.stats,
                        interpretation=res.interpretation, activations=res.activations, trace=res.trace,
                        settings={"world": world, "scene": scene, "agent": agent, "nonstationarity": nonstationarity,
                                  "steps": steps, "seed": seed, "model": model if lm is not None else None,
                                  "interpreter": interpreter if use_lm else "rule"})


# ----------------------------------------------------------------------------- make
def make(world_id: str, **kwargs: Any):
    """Build a registered world (Gymnasium style): ``make("virtualhome")``, ``make("thor",
    scene="FloorPlan1")``, ``make("driving")``. See :func:`actionable.core.registry.make`."""
    from actionable.core.registry import make as _make

    return _make(world_id, **kwargs)


def list_worlds() -> list[str]:
    """The registered world ids (:func:`actionable.core.registry.list_worlds`)."""
    from actionable.core.registry import list_worlds as _list

    return _list()
