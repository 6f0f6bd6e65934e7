"""Verify one plan in a registered world through its adapter (``actionable verify --env <world>``
and ``actionable.verify(..., world=...)``), or on a world's scene graph (:func:`verify_on_graph`, VirtualHome's).

The Judge/Planner loop of arXiv 2509.02761 with the world judge of :mod:`.worldsim`: the plan is
read in the world's language (one action a line, ``PickUp(Mug)``; any output form of
``actionable plan --env <world>``, its ``--json`` included; a TEACh episode in JSON), judged by
replays in the world's scene, and replayed before and after the loop for the executability and
goal verdicts. Nothing here names a world: :func:`~.worldsim.make_adapter` asks the world class.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from actionable.core.program import Program
from actionable.core.errors import ConfigError, InputError
from actionable.verify.planfile import plan_scene
from actionable.verify.worldsim import WorldReplay, make_adapter, read_world_plan

def plan_world(text: str) -> str | None:
    """The world ``actionable plan --json`` output records (``"world": "thor"``), else None."""
    import json

    if not text.lstrip().startswith("{"):
        return None
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return None
    w = obj.get("world") if isinstance(obj, dict) else None
    return w if isinstance(w, str) and w else None


def world_scene(env: str, scene: str | None, text: str = "") -> str:
    """The world's own name of ``scene`` (THOR: ``FloorPlan<N>`` or a TEACh episode id,
    ``teach:`` optional); with no scene (``None``, ``""``, ``"default"``) the scene the plan text
    names (:func:`plan_scene`).

    Raises:
        ConfigError: no scene given or named by the plan, or one the world does not know (the
            message says how to list the world's scenes).
    """
    from actionable.core.registry import make

    world = make(env)
    if scene in (None, "", "default"):
        named = plan_scene(text) if text else None
        if named is None or world.resolve_scene(named) is None:
            raise ConfigError(f"world {env} needs a scene (--scene, or scene= in Python): one of its scenes, e.g. "
                              f"{', '.join(world.scenes()[:2])}; `actionable scenes --env {env}` lists them")
        scene = named
    name = world.resolve_scene(scene)
    if name is None:
        raise ConfigError(f"unknown {env} scene {scene!r}; `actionable scenes --env {env}` lists the "
                          f"{len(world.scenes())} scenes")
    return name


def read_plan_in_world(adapter, text: str, where: str = "plan", suffix: str = "") -> tuple[Program, list[str], str | None]:
    """``(plan, notes, goal or None)`` from a plan text in the adapter's world: ``actionable plan
    --json`` output (its resolved program, ids kept), a TEACh episode (``suffix`` ``.json`` /
    ``.jsonl``), or lines in the world's language (``plan``'s human output included).

    Raises:
        InputError: the text is not such a plan (the message starts with ``where``).
    """
    from actionable.verify.planfile import loads_world_plan_json, one_teach_episode

    if text.lstrip().startswith("{"):
        try:
            prog = loads_world_plan_json(text, getattr(adapter, "step_from_dict", None))
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        if prog is not None:
            return prog, [], prog.task or None
    if suffix.lower() in (".json", ".jsonl") or text.lstrip().startswith("{"):
        ep = one_teach_episode(text, "plan", where)
        return ep.plan, list(ep.warnings), ep.goal or None
    try:
        prog, notes = read_world_plan(adapter, text)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    return prog, notes, prog.task or None  # a `Task:` line of `plan`'s output


@dataclass
class WorldVerification:
    """Outcome of :func:`verify_in_world`.

    Attributes:
        env / scene / goal: where and against what the plan was judged.
        result: the loop's :class:`~actionable.verify.loop.LoopResult` (``initial``, ``final``,
            ``rounds``, ``converged``).
        before / after: :class:`~.worldsim.WorldReplay` of the plan and of the revised plan
            (``executable``, ``failed_index``, ``error``, ``goals_met`` / ``goals_total``).
        notes: lines of the plan that were skipped (speech, motion) and why.
        adapter: the world's adapter (``format_step(step)`` writes a step in the world's language).
    """

    env: str
    scene: str
    goal: str
    result: object
    before: WorldReplay
    after: WorldReplay
    notes: list[str] = field(default_factory=list)
    adapter: object = field(default=None, repr=False, compare=False)

    @property
    def initial(self):
        return self.result.initial

    @property
    def final(self):
        return self.result.final

    @property
    def rounds(self):
        return self.result.rounds

    @property
    def converged(self) -> bool:
        return self.result.converged

    def to_dict(self) -> dict:
        return {"goal": self.goal, "env": self.env, "scene": self.scene, "notes": list(self.notes),
                "executable_before": self.before.executable, "executable_after": self.after.executable,
                "goals_met_before": self.before.goals_met, "goals_met_after": self.after.goals_met,
                "goals_total": self.after.goals_total, **self.result.to_dict()}


def verify_in_world(env: str, text: str, *, scene: str | None = None, goal: str | None = None,
                    judge: str = "hybrid", planner: str = "apply", lm=None, max_rounds: int = 5,
                    where: str = "plan", suffix: str = "") -> WorldVerification:
    """Run the Judge/Planner loop (arXiv 2509.02761, Sec. 3; at most ``max_rounds`` rounds) on a
    plan in world ``env`` (module doc).

    Args:
        env: a registered world whose class gives a ``verify_adapter`` (``thor``).
        text: the plan (:func:`read_plan_in_world`).
        scene: the world's scene (default: the one the plan names).
        goal: the instruction (default: the plan's task; a TEACh scene's own instruction).
        judge / planner: names of :func:`~.judge.make_judge` / ``apply`` or ``llm``.
        lm: the LM of the ``llm``/``hybrid`` judge and the ``llm`` planner (None for ``sim``,
            ``rule`` and ``apply``).
        where: how errors name the plan (``plan file 'k.json'``); ``suffix``: its file suffix.

    Raises:
        ConfigError: no adapter for ``env``, no or an unknown scene, no goal.
        InputError: the text is not a plan of that world.
    """
    from actionable.verify.judge import VerifyTask
    from actionable.verify.loop import make_loop
    from actionable.core.registry import capability

    sc = world_scene(env, scene, text)
    # a scene that is a demonstration's initial state brings its task (which selects the goals) and goal
    hint = getattr(capability(env, "verify"), "scene_task", lambda s: None)(sc)
    adapter = make_adapter(env, sc, hint[0] if hint else None)
    plan, notes, own = read_plan_in_world(adapter, text, where, suffix)
    goal = (goal or own or (hint[1] if hint else None) or getattr(adapter, "default_goal", None) or "").strip()
    if not goal:
        raise ConfigError("a goal is required for this plan and scene (--goal, or goal= in Python), "
                          "e.g. \"Make coffee\"")
    result = make_loop(judge, planner, lm, max_rounds, world=adapter).run(plan, VerifyTask(goal=goal))
    goals, _ = adapter.goals(goal)
    return WorldVerification(env, sc, goal, result, adapter.replay(plan.steps, goals),
                             adapter.replay(result.final.steps, goals), notes, adapter)


def verify_on_graph(plan: Program, task, *, judge: str = "hybrid", planner: str = "apply", lm=None,
                    max_rounds: int = 5, where: str = "plan", world: str | None = None, progress=None):
    """The loop on a plan judged on a scene graph (a world whose ``verify`` capability is a
    :class:`~actionable.core.replay.GraphReplay`, VirtualHome's; ``world``: its id, default the
    default world): ``task`` is a :class:`~actionable.verify.base.VerifyTask` (its ``scene``, goal
    conditions). Returns the :class:`~actionable.verify.loop.LoopResult`.

    Raises:
        InputError: a step names an object the scene lacks (names ``where``, the step, the scene
            and the closest objects); a plan longer than the simulator judge takes
        (:data:`~actionable.verify.grounded.MAX_JUDGE_STEPS`).

    ``progress(message)``: progress lines of the simulator judge on long plans (the CLI: stderr)."""
    from actionable.core.errors import ResolutionError
    from actionable.verify.loop import make_loop
    from actionable.verify.planfile import unknown_object_error
    from actionable.verify.replay import graph_replay

    loop = make_loop(judge, planner, lm, max_rounds, world=graph_replay(world))
    sim = getattr(loop.judge, "sim", loop.judge)  # the hybrid judge's simulator judge, or the sim judge
    if progress is not None and hasattr(sim, "progress"):
        sim.progress = progress
    if hasattr(sim, "progress"):
        from actionable.verify.grounded import check_length

        check_length(plan)
    try:
        return loop.run(plan, task)
    except ResolutionError as exc:
        raise unknown_object_error(exc, plan, task.scene, where) from None


__all__ = ["WorldVerification", "verify_in_world", "verify_on_graph", "world_scene", "plan_scene", "plan_world", "read_plan_in_world"]
