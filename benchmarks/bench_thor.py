"""THOR world step speed: our interpreter against unified-planning's sequential simulator (issue 13).

Both run the same trajectory of ALFRED task actions (GotoLocation, OpenObject, CloseObject,
PickupObject, PutObject, CleanObject, HeatObject, CoolObject), drawn at random among the
actions our world admits, in an ALFRED layout. UP runs ``alfred.pddl`` with the documented patch
(``actionable.worlds.thor.pddl.patched_domain``: observation actions dropped, type constants
declared, action costs dropped); every step is checked for applicability and applied
(``SequentialSimulator.is_applicable`` + ``apply``). The two must agree on every step. Also
reported: ms/step of the TEACh replay (all 79 episodes) and of TEACh actions.

    pip install unified-planning==1.3.0      # only for the UP column; not a project dependency
    python benchmarks/bench_thor.py [--scene FloorPlan1] [--steps 200] [--seed 0] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

UP_ACTIONS = ("GotoLocation", "OpenObject", "CloseObject", "PickupObject", "PutObject", "CleanObject",
              "HeatObject", "CoolObject")


def trajectory(scene: str, steps: int, seed: int):
    """A random walk of admissible ALFRED actions (with the PDDL location of the agent per step),
    restricted to what the PDDL types allow (receptacles are the fixtures; openable pickupables
    such as a Box are not PDDL receptacles)."""
    from actionable.worlds import make
    from actionable.worlds.thor.pddl import Names, pddl_params

    w = make("thor", scene=scene, actions="alfred")
    w.reset(seed=seed)
    names = Names(w.state)
    rng = random.Random(seed)
    out, loc = [], "lstart"
    for _ in range(steps):
        rec = set(names.rec)
        cand = [a for a in w.admissible() if a.name in UP_ACTIONS and all(x in names.name for x in a.args)
                and not (a.name == "PutObject" and a.args[1] not in rec)
                and not (a.name == "PickupObject" and w.state.objects[a.args[0]].parent not in rec)
                and not (a.name in ("OpenObject", "CloseObject", "GotoLocation") and a.args[0] not in rec)]
        if not cand:
            break
        a = rng.choice(cand)
        out.append((a, pddl_params(w.state, names, a, loc)))
        assert w.step(a)[4]["executed"]
        if a.name == "GotoLocation":
            loc = names.at(a.args[0])
    return out


def time_ours(scene: str, seed: int, traj, repeats: int = 20) -> float:
    from actionable.worlds import make

    w = make("thor", scene=scene)
    t = time.perf_counter()
    for _ in range(repeats):
        w.reset(seed=seed)
        for a, _ in traj:
            w.step(a)
    return (time.perf_counter() - t) / (repeats * len(traj)) * 1e3


def time_up(scene: str, seed: int, traj) -> dict:
    from actionable.worlds import make
    from actionable.worlds.thor.pddl import UPTrajectory

    w = make("thor", scene=scene)
    w.reset(seed=seed)
    t0 = time.perf_counter()
    up = UPTrajectory(w.state)
    load = time.perf_counter() - t0
    t = time.perf_counter()
    agree = sum(up.apply(name, params) for _, (name, params) in traj)
    per = (time.perf_counter() - t) / len(traj) * 1e3
    return {"up_ms_per_step": per, "up_load_s": load, "up_agrees": agree}


def time_teach() -> dict:
    from actionable.worlds.thor.replay import replay_all

    replay_all()  # warm the data caches
    t = time.perf_counter()
    res = replay_all()
    dt = time.perf_counter() - t
    steps = sum(r.n_executed + r.n_gotos for r in res)
    return {"teach_complete": sum(r.complete for r in res), "teach_episodes": len(res),
            "teach_actions": sum(r.n_actions for r in res), "teach_steps": steps,
            "teach_ms_per_step_incl_reset": dt / steps * 1e3}


def run(scene: str = "FloorPlan1", steps: int = 200, seed: int = 0, with_up: bool = True) -> dict:
    traj = trajectory(scene, steps, seed)
    out = {"scene": scene, "steps": len(traj), "ours_ms_per_step": time_ours(scene, seed, traj)}
    if with_up:
        try:
            out.update(time_up(scene, seed, traj))
            out["ratio_up_over_ours"] = out["up_ms_per_step"] / out["ours_ms_per_step"]
        except Exception as exc:  # noqa: BLE001 - UP is optional
            out["up_error"] = f"{type(exc).__name__}: {exc}"
    out.update(time_teach())
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scene", default="FloorPlan1")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--no-up", action="store_true", help="skip unified-planning")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    r = run(a.scene, a.steps, a.seed, not a.no_up)
    if a.json:
        print(json.dumps(r, indent=1))
        return
    for k, v in r.items():
        print(f"{k:32s} {v:.4f}" if isinstance(v, float) else f"{k:32s} {v}")


if __name__ == "__main__":
    main()
