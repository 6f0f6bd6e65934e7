"""Continual-instruction benchmark (issue 7): LLM calls per step and steps per second
of ExRAP (arXiv 2509.08222) against the baselines, one episode each, same house,
instructions and dynamics seed, embedded LM (cache off).

Calls the continual package's public functions (``sample_instructions``,
``make_agent``, ``run_episode``); SR/PS of these short episodes are printed too
but are not the continual results table (that lives in docs/continual.md).

    python benchmarks/bench_continual.py [--steps 40] [--agents exrap,llm-planner,saycan,zsp]
"""

from __future__ import annotations

import argparse
import json
import time


def run(steps: int = 40, agents: tuple[str, ...] = ("exrap", "llm-planner", "saycan", "zsp",
                                                     "instruction-wise"),
        n_instructions: int = 3, seed: int = 0, level: str = "medium", verbose: bool = False) -> dict:
    from actionable.core.config import LMConfig
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.core.continual import DynamicsConfig
    from actionable.lm.registry import load_lm

    lm = load_lm("embedded", LMConfig(cache=False))
    house = NonStationaryHouse(None, DynamicsConfig(level=level))
    instructions = sample_instructions(house, n_instructions, seed)
    out = {}
    for name in agents:
        agent = make_agent(name, lm, instructions)
        t = time.perf_counter()
        res = run_episode(agent, house, instructions, steps, seed, lm=lm, keep_trace=False)
        wall = time.perf_counter() - t
        out[name] = {"lm_calls_per_step": res.stats.get("lm_calls_per_step"),
                     "steps_per_s": steps / wall, "wall_s": wall, "metrics": res.metrics}
        if verbose:  # one line per agent as soon as it finishes (episodes are slow on CPU)
            print(json.dumps({name: out[name]}, default=str), flush=True)
    return {"steps": steps, "level": level, "instructions": n_instructions, "agents": out,
            "model": lm.model_id}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--agents", default="exrap,llm-planner,saycan,zsp,instruction-wise")
    a = ap.parse_args()
    print(json.dumps(run(a.steps, tuple(x.strip() for x in a.agents.split(",") if x.strip()),
                         verbose=True), indent=2, default=str))


if __name__ == "__main__":
    main()
