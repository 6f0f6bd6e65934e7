"""Continual-instruction benchmark (issue 7): LLM calls per step and steps per second
of ExRAP (arXiv 2509.08222) against the baselines, one episode each, same house,
instructions and dynamics seed, embedded LM (cache off); and the house-size sweep
of issue 25 (item 4): SR and PS of two agents, paired on the same seeds, per house size.

Calls the continual package's public functions (``get_world``, ``make_agent``,
``run_episode``); SR/PS of the short single episodes are printed too but are not the
continual results table (that lives in docs/continual.md and docs/results.md).

    python benchmarks/bench_continual.py [--steps 40] [--agents exrap,llm-planner,saycan,zsp]
                                         [--scene 1003_2:rooms=6]
    # house-size sweep: rooms 3..6 of 1003_2 (docs/results.md, "by house size")
    python benchmarks/bench_continual.py --rooms 3,4,5,6 --agents exrap,instruction-wise \\
        --seeds 5 --set-size 7 --steps 30
    # the same table from `actionable eval continual --scene 1003_2:rooms=K --out DIR` runs
    python benchmarks/bench_continual.py --report runs/housesize-r3 runs/housesize-r4 ...

A scene ``<scene>:rooms=<k>`` is the packaged house with ``k`` rooms
(actionable/worlds/virtualhome/house_size.py); an unknown scene or an unreadable or
out-of-range ``k`` raises ``SceneError`` before any model loads.
"""

from __future__ import annotations

import argparse
import json
import time


def run(steps: int = 40, agents: tuple[str, ...] = ("exrap", "llm-planner", "saycan", "zsp",
                                                     "instruction-wise"),
        n_instructions: int = 3, seed: int = 0, level: str = "medium", verbose: bool = False,
        scene: str | None = None, lm=None) -> dict:
    """One episode per agent in one house. ``scene``: a continual VirtualHome scene name
    (``None``: the merged default house, as before the sweep existed). Returns
    ``{"steps", "level", "instructions", "scene", "agents": {name: {lm_calls_per_step,
    steps_per_s, wall_s, metrics}}, "model"}``. Raises ``SceneError`` for an unknown scene."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world

    world = get_world("virtualhome")
    house = world.make_house(scene if scene is not None else "default", level)  # SceneError first
    house.reset(seed)
    instructions = world.sample(house, n_instructions, seed)
    if lm is None and any(a != "oracle" for a in agents):
        from actionable.core.config import LMConfig
        from actionable.lm.registry import load_lm

        lm = load_lm("embedded", LMConfig(cache=False))
    out = {}
    for name in agents:
        agent = make_agent(name, lm if name != "oracle" else None, instructions)
        t = time.perf_counter()
        res = run_episode(agent, house, instructions, steps, seed, lm=lm, keep_trace=False, world=world)
        wall = time.perf_counter() - t
        out[name] = {"lm_calls_per_step": res.stats.get("lm_calls_per_step"),
                     "steps_per_s": steps / wall, "wall_s": wall, "metrics": res.metrics}
        if verbose:  # one line per agent as soon as it finishes (episodes are slow on CPU)
            print(json.dumps({name: out[name]}, default=str), flush=True)
    return {"steps": steps, "level": level, "instructions": n_instructions, "scene": scene or "default",
            "agents": out, "model": getattr(lm, "model_id", None)}


def table(episodes: dict[int, dict[str, list[dict]]]) -> list[dict]:
    """Rows per house size and agent from ``{rooms: {agent: [{"seed", "sr", "ps"}...]}}`` (SR in
    [0, 1] or ``None`` per episode): SR % with the Wilson interval and PS with the t-interval of
    ``actionable.evaluation.continual`` (over episodes), and for every agent after the first the
    paired difference to the first agent (same seeds, episodes where both scored) with its
    t-interval."""
    from actionable.continual.metrics import mean_ci
    from actionable.evaluation.continual import wilson_interval
    from actionable.evaluation.paired import compare

    rows = []
    for rooms in sorted(episodes):
        per = episodes[rooms]
        first = next(iter(per))
        for agent, eps in per.items():
            sr = [e["sr"] * 100 if e["sr"] is not None else None for e in eps]
            m_sr, _ = mean_ci(sr)
            n_sr = sum(v is not None for v in sr)
            sr_iv = None if m_sr is None or n_sr < 2 else [100 * x for x in wilson_interval(m_sr / 100, n_sr)]
            m_ps, h_ps = mean_ci([e["ps"] for e in eps])
            row = {"rooms": rooms, "agent": agent, "episodes": len(eps), "sr": m_sr, "sr_interval": sr_iv,
                   "ps": m_ps, "ps_interval": None if h_ps is None else [max(0.0, m_ps - h_ps), m_ps + h_ps],
                   "completed": sum(e.get("n_success", 0) for e in eps),
                   "scored": sum(e.get("n_success", 0) + e.get("n_failure", 0) for e in eps)}
            if agent != first:
                mine = {e["seed"]: {"metrics": e} for e in eps}
                base = {e["seed"]: {"metrics": e} for e in per[first]}
                for key in ("sr", "ps"):
                    c = compare(mine, base, sorted(set(mine) & set(base)), key, 100.0 if key == "sr" else 1.0)
                    half = None if c["interval"] is None else (c["interval"][1] - c["interval"][0]) / 2
                    row[f"d_{key}_vs_{first}"] = None if c["diff"] is None else [c["diff"], half]
            rows.append(row)
    return rows


def sweep(rooms: list[int], agents: tuple[str, ...] = ("exrap", "instruction-wise"), seeds: int = 5,
          n_instructions: int = 7, steps: int = 30, level: str = "medium", base: str = "1003_2",
          verbose: bool = False) -> list[dict]:
    """The house-size sweep: every agent on ``base:rooms=k`` for each ``k``, seeds ``0..seeds-1``
    (the same seeds, instructions and dynamics for every agent). Returns :func:`table`'s rows."""
    from actionable.continual.worlds import get_world

    world = get_world("virtualhome")
    for k in rooms:
        world.check_scene(f"{base}:rooms={k}")  # every house checked before the first episode
    lm = None
    if any(a != "oracle" for a in agents):
        from actionable.core.config import LMConfig
        from actionable.lm.registry import load_lm

        lm = load_lm("embedded", LMConfig(cache=False))
    eps: dict[int, dict[str, list[dict]]] = {}
    for k in rooms:
        for s in range(seeds):
            r = run(steps, agents, n_instructions, s, level, scene=f"{base}:rooms={k}", lm=lm)
            for a, v in r["agents"].items():
                eps.setdefault(k, {}).setdefault(a, []).append({"seed": s, **v["metrics"]})
            if verbose:
                print(json.dumps({"rooms": k, "seed": s, **{a: v["metrics"] for a, v in r["agents"].items()}},
                                 default=str), flush=True)
    return table(eps)


def report(run_dirs: list[str]) -> list[dict]:
    """:func:`table` from ``actionable eval continual --scene <scene>:rooms=<k>`` run directories
    (one house size each; finished episodes only)."""
    from actionable.evaluation.runner import RunStore
    from actionable.worlds.virtualhome.house_size import parse_sized

    eps: dict[int, dict[str, list[dict]]] = {}
    for d in run_dirs:
        store = RunStore(d)
        _, k = parse_sized(store.read_manifest()["config"]["scene"])
        for rec in sorted(store.read().values(), key=lambda r: (r["payload"]["agent"] != "exrap",
                                                                r["payload"]["agent"], r["payload"]["seed"])):
            if rec.get("status") == "ok":
                p = rec["payload"]
                eps.setdefault(k, {}).setdefault(p["agent"], []).append({"seed": p["seed"], **rec["result"]["metrics"]})
    return table(eps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--agents", default="exrap,llm-planner,saycan,zsp,instruction-wise")
    ap.add_argument("--scene", default=None, help="continual VirtualHome scene, e.g. 1003_2:rooms=6")
    ap.add_argument("--rooms", default=None, help="house-size sweep: room counts, e.g. 3,4,5,6")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--set-size", type=int, default=7)
    ap.add_argument("--level", default="medium")
    ap.add_argument("--report", nargs="+", default=None, help="eval continual run dirs, one house size each")
    a = ap.parse_args()
    agents = tuple(x.strip() for x in a.agents.split(",") if x.strip())
    if a.report:
        out = report(a.report)
    elif a.rooms:
        out = sweep([int(x) for x in a.rooms.split(",")], agents, a.seeds, a.set_size, a.steps, a.level,
                    verbose=True)
    else:
        out = run(a.steps, agents, verbose=True, scene=a.scene)
    print(json.dumps(out, indent=2, default=str))


if __name__ == "__main__":
    main()
