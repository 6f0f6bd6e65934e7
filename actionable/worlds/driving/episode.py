"""Run ExRAP, the baselines and the oracle on the driving world (SR / PS as in docs/continual.md).

:func:`run_driving_episode` is :func:`actionable.continual.episode.run_episode` with the driving
world (:data:`~.continual.CONTINUAL_WORLD`: its interpreter and exclusive states); agents come from
:func:`actionable.continual.episode.make_agent` unchanged and scoring is its
:class:`~actionable.continual.metrics.ActivationTracker` on SUMO's state. :func:`evaluate_driving`
runs a grid locally and renders the table with :mod:`actionable.continual.evaluate`.
"""

from __future__ import annotations

from actionable.continual.episode import EpisodeResult, run_episode
from actionable.worlds.driving.continual import (CONTINUAL_WORLD, DrivingHouse,
                                                 sample_driving_instructions)


def run_driving_episode(agent, house: DrivingHouse, instructions, steps: int, seed: int,
                        on_step=None, keep_trace: bool = True) -> EpisodeResult:
    """One episode of ``steps`` skills on SUMO, scored like the house episodes: the generic
    :func:`~actionable.continual.episode.run_episode` with ``world=CONTINUAL_WORLD`` (rule reading,
    driving exclusive states; ``sim_time`` in each step record, ``sim_seconds`` in the stats).

    Raises:
        ConfigError: ``steps < 1``. InputError: no instruction could be read.
    """
    return run_episode(agent, house, instructions, steps, seed, on_step=on_step, keep_trace=keep_trace,
                       world=CONTINUAL_WORLD)


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
