"""``check_world(world)``: conformance checks of a world, in the spirit of Gymnasium's
``env_checker``. Raises :class:`WorldCheckError` naming the first broken rule.

Checks (each a function, run in this order):

1. ``step`` and ``observe`` before ``reset`` raise ``WorldNotResetError``;
2. ``reset`` returns ``(obs, dict)`` with ``info["scene"]``; ``scenes()`` is a non-empty list
   containing the scene used;
3. determinism: two resets with the same seed, followed by the same admissible actions, give
   equal ``state_key()`` and equal ``info`` flags;
4. every action ``admissible()`` lists executes (up to ``max_actions``, drawn with the seed), each
   from a fresh reset; the ``info`` of a step has ``executed``, ``error``, ``unmet_preconditions``;
5. ``parse(format(a)) == a`` for those actions;
6. an unknown object raises ``UnknownNodeError`` (``UnknownObjectError`` in the worlds here) and
   nonsense text raises ``ProgramParseError`` (``WorldActionError``); a failed action does not
   raise and leaves ``state_key()`` unchanged.

:func:`check_capabilities` checks every capability a registered world declares
(:mod:`actionable.core.registry`) against its protocol in the core: ``planning`` (a domain on the
default scene whose affordance lists candidates, and an attempt of the first that is ok or says
why), ``verify`` (an adapter or a scene-graph replay that replays the empty plan as executable),
``continual`` (a house that resets and observes), ``dataset`` (programs with scenes), ``goals``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from actionable.core.errors import (ActionableError, ProgramParseError, UnknownNodeError, WorldError,
                               WorldNotResetError)


class WorldCheckError(WorldError, AssertionError):
    """A world broke a rule of the interface (raised by :func:`check_world`)."""


@dataclass
class CheckReport:
    """What :func:`check_world` checked: ``world`` id, ``scene``, ``n_admissible`` (listed now),
    ``n_executed`` (tried, all executed), ``checks`` (names passed)."""

    world: str
    scene: str
    n_admissible: int = 0
    n_executed: int = 0
    checks: list[str] = field(default_factory=list)


def _expect_raise(fn, exc, what: str) -> None:
    try:
        fn()
    except exc:
        return
    except Exception as other:  # noqa: BLE001
        raise WorldCheckError(f"{what} raised {type(other).__name__}: {other}; expected {exc.__name__}") from None
    raise WorldCheckError(f"{what} did not raise; expected {exc.__name__}")


def check_world(world, *, seed: int = 0, options: dict | None = None, max_actions: int = 30,
                fresh=None) -> CheckReport:
    """Check ``world`` against the interface (see the module doc).

    Args:
        world: a :class:`~actionable.core.world.World`, not yet reset (for the reset rule).
        seed: reset seed and the seed that draws which admissible actions to try.
        options: reset options (e.g. ``{"scene": "teach:<game>"}``).
        max_actions: how many admissible actions to execute (each after a fresh reset).
        fresh: zero-argument callable making a new un-reset world of the same kind (default:
            ``type(world)()``), for the step-before-reset rule.

    Raises:
        WorldCheckError: the first rule broken.
    """
    rep = CheckReport(getattr(world, "id", type(world).__name__), "")
    new = fresh or type(world)
    _expect_raise(lambda: new().step(None), WorldNotResetError, "step() before reset()")
    _expect_raise(lambda: new().observe(), WorldNotResetError, "observe() before reset()")
    rep.checks.append("reset-before-step")

    out = world.reset(seed=seed, options=options)
    if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[1], dict) and "scene" in out[1]):
        raise WorldCheckError("reset() must return (obs, info) with info['scene']")
    rep.scene = out[1]["scene"]
    scenes = world.scenes()
    if not scenes or rep.scene not in scenes and rep.scene not in ("custom",):
        raise WorldCheckError(f"scenes() does not list the scene reset() used ({rep.scene!r})")
    rep.checks.append("reset")

    adm = world.admissible()
    rep.n_admissible = len(adm)
    if not adm:
        raise WorldCheckError("admissible() is empty right after reset()")
    rng = random.Random(seed)
    tried = adm if len(adm) <= max_actions else rng.sample(adm, max_actions)
    for a in tried:
        world.reset(seed=seed, options=options)
        res = world.step(a)
        if not (isinstance(res, tuple) and len(res) == 5):
            raise WorldCheckError("step() must return (obs, reward, terminated, truncated, info)")
        info = res[4]
        for k in ("executed", "error", "unmet_preconditions"):
            if k not in info:
                raise WorldCheckError(f"step() info lacks {k!r}")
        if not info["executed"]:
            raise WorldCheckError(f"admissible action {world.format(a)!r} did not execute: {info['error']}")
        if world.parse(world.format(a)) != a:
            raise WorldCheckError(f"parse(format(a)) != a for {world.format(a)!r}")
        rep.n_executed += 1
    rep.checks += ["admissible-execute", "parse-format"]

    def run() -> tuple:
        world.reset(seed=seed, options=options)
        flags = []
        for _ in range(3):
            cand = world.admissible()
            if not cand:
                break
            flags.append(world.step(cand[len(cand) // 2])[4]["executed"])
        return world.state_key(), tuple(flags)

    if run() != run():
        raise WorldCheckError("two episodes with the same seed and actions ended in different states")
    rep.checks.append("determinism")

    world.reset(seed=seed, options=options)
    _expect_raise(lambda: world.step(world.parse(_unknown_object_text(world, adm[0]))),
                  UnknownNodeError, "an action on an unknown object")
    _expect_raise(lambda: world.parse("this is not an action ((("), ProgramParseError, "parse() of nonsense")
    rep.checks.append("typed-errors")

    before = world.state_key()
    failing = _failing_action(world)
    if failing is not None:
        try:
            info = world.step(failing)[4]
        except ActionableError as exc:
            raise WorldCheckError(f"a plan-level failure raised {type(exc).__name__}: {exc}") from None
        if info["executed"] or not info["error"] or world.state_key() != before:
            raise WorldCheckError("a failed action must set executed=False, an error, and leave the state")
        rep.checks.append("failure-info")
    return rep


def check_capabilities(world_id: str, scene: str | None = None) -> list[str]:
    """Check each capability world ``world_id`` declares (see the module doc) on ``scene``
    (default: the world's default scene); returns the names checked.

    Raises:
        WorldCheckError: a capability does not meet its protocol (the message names it).
    """
    from actionable.core.continual import ContinualWorld
    from actionable.core.dataset import TaskDataset
    from actionable.core.planning import PlanningDomain
    from actionable.core.registry import spec as world_spec
    from actionable.core.replay import GraphReplay, judge_kind

    sp = world_spec(world_id)
    scene = scene or sp.default_scene
    done = []

    def fail(cap: str, why: str):
        raise WorldCheckError(f"world {world_id!r}, capability {cap!r}: {why}")

    if sp.has("planning"):
        dom = sp.capability("planning")(scene)
        if not isinstance(dom, PlanningDomain):
            fail("planning", f"{type(dom).__name__} does not implement PlanningDomain (world, name, start, ...)")
        aff = dom.start(repair_budget=0)
        cands = aff.candidates(aff.class_names())
        if not cands:
            fail("planning", f"no candidate steps in scene {scene!r}")
        att = aff.attempt(cands[0], repair=False)
        if not att.ok and not (att.info or att.satisfied):
            fail("planning", "a failed attempt must carry the world's info (why) or satisfied=True")
        done.append("planning")
    if sp.has("verify"):
        cap = sp.capability("verify")
        if judge_kind(cap) == "graph":
            rp = cap()
            if not isinstance(rp, GraphReplay):
                fail("verify", "a 'graph' verify capability must be a GraphReplay")
            res = rp.replay([], rp.load_scene(None if scene == "default" else scene))
        else:
            res = cap(scene, None).replay([])
        if not res.executable:
            fail("verify", "the empty plan must replay as executable")
        done.append("verify")
    if sp.has("continual"):
        cw = sp.capability("continual")
        if not isinstance(cw, ContinualWorld):
            fail("continual", f"expected a ContinualWorld, got {type(cw).__name__}")
        if cw.interpret is None and cw.vocabulary is None:
            fail("continual", "give a rule reader (interpret) or an instruction vocabulary")
        done.append("continual")
    if sp.has("dataset"):
        ds = sp.capability("dataset")
        if not isinstance(ds, TaskDataset):
            fail("dataset", f"{type(ds).__name__} does not implement TaskDataset")
        ids = ds.program_ids()
        if not ids:
            fail("dataset", "no programs")
        ds.program(ids[0])
        done.append("dataset")
    if sp.has("goals"):
        done.append("goals")
    if sp.has("scene_map"):
        from actionable.core.scene_map import MAP_KINDS, SceneMapper

        mp = sp.capability("scene_map")(scene)
        if not isinstance(mp, SceneMapper):
            fail("scene_map", f"{type(mp).__name__} does not implement SceneMapper (layout, replay)")
        lay = mp.layout(())
        if lay.get("kind") not in MAP_KINDS or lay != mp.layout(()):
            fail("scene_map", f"layout() must return a deterministic map of kind {', '.join(MAP_KINDS)}")
        if mp.replay([]) != []:
            fail("scene_map", "the empty plan must replay as no frame")
        done.append("scene_map")
    return done


def _unknown_object_text(world, action) -> str:
    text = world.format(action)
    if "(" in text and text.startswith("["):  # VirtualHome script: replace the id
        head = text.split("(")[0]
        return f"{head}(987654321)"
    name = text.split("(")[0]
    return f"{name}(NoSuchObject|+9.99|+9.99|+9.99)"


def _failing_action(world):
    """An action that should fail right after reset (an action not in admissible())."""
    now = set(map(world.format, world.admissible()))
    for a in world.admissible("all")[:2000]:
        try:
            if world.format(a) not in now and getattr(a, "is_resolved", True):
                return a
        except ActionableError:
            continue
    return None
