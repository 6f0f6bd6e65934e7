"""Simulator benchmark (issue 7): our ``Simulator.step`` wrapper against the raw
evolving-graph ``ScriptExecutor.execute_one_step`` on the 518 packaged gold programs.

Both sides run the same resolved steps from the same initial graph, stopping at the
first failing step; graph construction (``reset``) is timed separately from
stepping. Target: step-time ratio ours / raw <= 1.10.

    python benchmarks/bench_simulator.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import time


def run(repeat: int = 3, limit: int | None = None) -> dict:
    from virtualhome_eval.simulation.evolving_graph import environment, execution, scripts

    from actionable.worlds.virtualhome.scene import SceneGraph, list_program_ids, load_graphs, load_program
    from actionable.worlds.virtualhome.simulator import Simulator

    pids = list_program_ids()[:limit] if limit else list_program_ids()
    data = []
    for pid in pids:
        init, _ = load_graphs(pid)
        data.append((pid, init, SceneGraph.from_dict(init, name=pid), load_program(pid)))
    alias = {"LOOKAT_SHORT": "LOOKAT", "LOOKAT_LONG": "LOOKAT"}

    def raw_pass():
        step_s = reset_s = 0.0
        steps = ok_programs = 0
        for _, init, _, prog in data:
            t = time.perf_counter()
            g = environment.EnvironmentGraph(init)
            state = environment.EnvironmentState(g, {}, instance_selection=True)
            ex = execution.ScriptExecutor(g, {})
            reset_s += time.perf_counter() - t
            t = time.perf_counter()
            ok = True
            for i, s in enumerate(prog.steps):
                line = scripts.ScriptLine(scripts.Action[alias.get(s.action, s.action)],
                                          [scripts.ScriptObject(a.name, a.id) for a in s.args], i)
                try:
                    ok, state = ex.execute_one_step(scripts.Script([line]), state)
                except Exception:  # noqa: BLE001 - raw executor crashes count as failures
                    ok = False
                steps += 1
                if not ok:
                    break
            step_s += time.perf_counter() - t
            ok_programs += ok
        return step_s, reset_s, steps, ok_programs

    def ours_pass():
        step_s = reset_s = 0.0
        steps = ok_programs = 0
        sim = Simulator()
        for _, _, scene, prog in data:
            t = time.perf_counter()
            sim.reset(options={"scene": scene})
            reset_s += time.perf_counter() - t
            t = time.perf_counter()
            ok = True
            for s in prog.steps:
                info = sim.step(s)[4]
                steps += 1
                if not info["executed"]:
                    ok = False
                    break
            step_s += time.perf_counter() - t
            ok_programs += ok
        return step_s, reset_s, steps, ok_programs

    raws, ours = [], []
    for _ in range(repeat):  # interleaved so machine load hits both alike
        raws.append(raw_pass())
        ours.append(ours_pass())
    r = min(raws, key=lambda x: x[0])
    o = min(ours, key=lambda x: x[0])
    return {
        "programs": len(data), "steps_raw": r[2], "steps_ours": o[2],
        "executable_raw": r[3], "executable_ours": o[3],
        "raw_step_us": 1e6 * r[0] / r[2], "ours_step_us": 1e6 * o[0] / o[2],
        "raw_steps_per_s": r[2] / r[0], "ours_steps_per_s": o[2] / o[0],
        "ratio_step_ours_over_raw": (o[0] / o[2]) / (r[0] / r[2]),
        "raw_reset_ms": 1e3 * min(x[1] for x in raws) / len(data),
        "ours_reset_ms": 1e3 * min(x[1] for x in ours) / len(data),
        "target_ratio": 1.10,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=int, default=None)
    a = ap.parse_args()
    print(json.dumps(run(a.repeat, a.limit), indent=2))


if __name__ == "__main__":
    main()
