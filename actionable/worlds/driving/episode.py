"""Run ExRAP, the baselines and the oracle on the driving world (SR / PS as in docs/continual.md).

:func:`run_driving_episode` is :func:`actionable.continual.episode.run_episode` with the driving
interpreter (:func:`~.continual.interpret_driving`) in place of the house's; agents come from
:func:`actionable.continual.episode.make_agent` unchanged and scoring is its
:class:`~actionable.continual.metrics.ActivationTracker` on SUMO's state. :func:`evaluate_driving`
runs a grid locally and renders the table with :mod:`actionable.continual.evaluate`.
"""

from __future__ import annotations

import time

from actionable.continual.episode import EpisodeResult
from actionable.continual.metrics import ActivationTracker, sr_ps
from actionable.errors import ConfigError, InputError
from actionable.worlds.driving.continual import (DrivingHouse, interpret_driving, register_states,
                                                 sample_driving_instructions)


def run_driving_episode(agent, house: DrivingHouse, instructions, steps: int, seed: int,
                        on_step=None, keep_trace: bool = True) -> EpisodeResult:
    """One episode of ``steps`` skills on SUMO, scored like the house episodes.

    Raises:
        ConfigError: ``steps < 1``. InputError: no instruction could be read.
    """
    if steps < 1:
        raise ConfigError(f"steps must be >= 1 (got {steps})")
    register_states()
    t0 = time.perf_counter()
    focus = set().union(*(ins.nodes for ins in instructions))
    obs = house.reset(seed=seed, focus=focus)
    tasks, log = interpret_driving(instructions, house)
    if not tasks:
        raise InputError("no instruction could be interpreted: " + "; ".join(r["error"] or "" for r in log))
    agent.reset(tasks, house)
    tracker = ActivationTracker(instructions)
    trace, failed = [], 0
    for t in range(steps):
        tracker.observe_state(house, t)
        d = agent.act(obs, t)
        done: list[int] = []
        res = house.step(d.skill, after_skill=lambda: done.extend(tracker.after_agent(house, t)))
        failed += not res.executed
        rec = {"t": t, "room": obs.room, "skill": d.skill.text or d.skill.kind, "why": d.why,
               "executed": res.executed, "error": res.error, "completed": done,
               "beliefs": {k: round(v, 3) for k, v in d.beliefs.items()}, "house_changed": res.changed,
               "observed": len(obs.facts), "sim_time": house.world.sim.now()}
        if keep_trace:
            trace.append(rec)
        if on_step is not None:
            on_step(rec)
        obs = res.observation
    tracker.finish(steps)
    stats = dict(getattr(agent, "stats", {}))
    stats.update({"steps": steps, "failed_skills": failed, "seconds": round(time.perf_counter() - t0, 3),
                  "sim_seconds": house.world.sim.now()})
    stats["lm_calls_per_step"] = stats.get("lm_calls", 0) / steps
    acts = [{"instruction": a.instruction, "start": a.start, "end": a.end, "outcome": a.outcome}
            for a in tracker.activations]
    return EpisodeResult(sr_ps(tracker.activations), stats, log, trace, acts)


def evaluate_driving(agents, levels=("low", "medium", "high"), sizes=(3,), seeds=(0,), steps: int = 20,
                     lm=None, network: str = "town", on_episode=None) -> dict:
    """Run the grid locally; returns ``{"rows": summarize(...), "markdown": ..., "records": ...}``.

    ``lm``: a loaded :class:`~actionable.lm.base.LanguageModel` (needed by every agent but the oracle).
    """
    from actionable.continual.episode import make_agent
    from actionable.continual.evaluate import render_markdown, summarize
    from actionable.worlds.driving.world import DrivingWorld

    world = DrivingWorld(network)
    records = {}
    for s in seeds:
        for lv in levels:
            house = DrivingHouse(world, lv, network)
            for n in sizes:
                ins = sample_driving_instructions(house, n, s)
                for a in agents:
                    agent = make_agent(a, None if a == "oracle" else lm, ins)
                    res = run_driving_episode(agent, house, ins, steps, s, keep_trace=False)
                    d = res.to_dict()
                    d["instructions"] = [i.text for i in ins]
                    d["truth"] = [[z.text for z in i.execution] for i in ins]
                    key = f"{a}|{lv}|{n}|{s}"
                    records[key] = {"status": "ok", "payload": {"agent": a, "level": lv, "n": n, "seed": s},
                                    "result": d}
                    if on_episode is not None:
                        on_episode(key, d)
    rows = summarize(records)
    return {"rows": rows, "markdown": render_markdown(rows), "records": records}
