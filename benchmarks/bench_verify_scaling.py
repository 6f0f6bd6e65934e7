"""How judging time grows with plan length (issue 26, "long plans").

    python benchmarks/bench_verify_scaling.py                       # 30, 100, 300, 1000 steps
    python benchmarks/bench_verify_scaling.py --lengths 30,100,300 --plain   # also without the
                                                                   # incremental replay (slow)

A plan of ``L`` steps is generated in scene ``1057_1`` (the "Watch TV" program's house) from
seeded chores that each execute from the state they start in: walk to an object and pick it up,
carry it to a surface and put it there, switch a device on or off, open or close a container, sit
down and stand up, walk to a room. Every 10th chore gets one error from the labelled set's kinds:
a repeated step, an undo pair (switch on, switch off), a missing walk before a grab, a detour to
another room. The plan is judged by the sim judge in the Judge/Planner loop (``apply`` planner,
5 rounds at most, the program's annotated goal conditions), as ``actionable verify --judge sim
--program 1057_1`` does. Columns: wall seconds of the loop, simulator steps run and taken over
(prefix caching and convergence, :mod:`actionable.core.incremental`), critiques of round 1.
``--plain`` also times the judge as it was before issue 26 (every replay from the initial state,
the evolving graph's deep-copied states) on the same plans, for comparison.
The numbers are wall time on this machine (2 shared cores), one run each.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

SCENE = "1057_1"


def chores(seed: int, n_steps: int, scene: str = SCENE):
    """``(steps, errors)``: a seeded plan of about ``n_steps`` steps (cut to ``n_steps``) that
    executes before its errors are injected, and the errors injected (kind, index)."""
    from actionable.core.program import Step
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.worlds.virtualhome.simulator import Simulator

    rng = random.Random(f"bench_verify_scaling:{seed}")
    sg = load_scene(scene)
    ids = sorted(sg.node_ids)
    has = lambda i, p: p in sg.properties_of(i)  # noqa: E731
    grab = [i for i in ids if has(i, "GRABBABLE")]
    surf = [i for i in ids if has(i, "SURFACES")]
    switch = [i for i in ids if has(i, "HAS_SWITCH")]
    cont = [i for i in ids if has(i, "CAN_OPEN")]
    seat = [i for i in ids if has(i, "SITTABLE")]
    rooms = list(sg.rooms)
    st = lambda a, *ns: Step.of(a, *[(sg.class_of(n), n) for n in ns])  # noqa: E731
    sim = Simulator()
    sim.reset(options={"scene": scene})
    steps: list = []
    errors: list = []
    n_chore = 0
    tries = 0
    while len(steps) < n_steps and tries < 20 * n_steps:
        tries += 1
        kind = rng.choice(("carry", "carry", "switch", "open", "sit", "room"))
        if kind == "carry":
            o, s = rng.choice(grab), rng.choice(surf)
            block = [st("WALK", o), st("GRAB", o), st("WALK", s), st("PUTBACK", o, s)]
        elif kind == "switch":
            o = rng.choice(switch)
            block = [st("WALK", o), st("SWITCHON" if rng.random() < 0.5 else "SWITCHOFF", o)]
        elif kind == "open":
            o = rng.choice(cont)
            block = [st("WALK", o), st("OPEN" if rng.random() < 0.5 else "CLOSE", o)]
        elif kind == "sit":
            o = rng.choice(seat)
            block = [st("WALK", o), st("SIT", o), Step("STANDUP")]
        else:
            block = [st("WALK", rng.choice(rooms))]
        saved = sim.state_token
        ok = True
        for b in block:
            _, _, _, _, info = sim.step(b)
            if not info.get("executed"):
                ok = False
                break
        if not ok:
            sim.restore(saved)
            continue
        n_chore += 1
        start = len(steps)
        if n_chore % 10 == 0:  # one labelled-set style error in every 10th chore
            err = rng.choice(("repeat", "undo", "missing_walk", "detour"))
            if err == "repeat":
                block = block[:1] + block[:1] + block[1:]
            elif err == "undo" and kind == "switch" and block[1].action == "SWITCHON":
                block = block + [st("SWITCHOFF", block[1].args[0].id)]
            elif err == "missing_walk" and kind == "carry":
                block = block[1:]
            else:
                err = "detour"
                block = [st("WALK", rng.choice(rooms))] + block
            errors.append((err, start))
        steps.extend(block)
    return steps[:n_steps], errors


def judge_once(steps, incremental: bool):
    """Wall seconds, stats and round-1 critique count of the loop on ``steps``."""
    from actionable.core.program import Program
    from actionable.verify.base import VerifyTask
    from actionable.verify.grounded import SimJudgeConfig, SimulatorJudge
    from actionable.verify.loop import VerificationLoop
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    spec = load_goal_annotations()[SCENE]
    world = None
    if not incremental:  # the judge before issue 26: every replay from the start, deep-copied states
        from actionable.worlds.virtualhome.replay import VirtualHomeReplay
        from actionable.worlds.virtualhome.simulator import Simulator

        class Plain(VirtualHomeReplay):
            def simulator(self):
                return Simulator(fast_copy=False)

        world = Plain()
    judge = SimulatorJudge(SimJudgeConfig(incremental=incremental), world=world)
    loop = VerificationLoop(judge, max_rounds=5)
    task = VerifyTask(goal="Watch TV", scene=SCENE, goal_spec=spec, program_id=SCENE)
    t0 = time.perf_counter()
    res = loop.run(Program(tuple(steps), task="Watch TV"), task)
    secs = time.perf_counter() - t0
    stats = {"stepped": 0, "reused": 0, "replays": 0}
    for inc in judge._inc.values():
        for k in stats:
            stats[k] += inc.stats[k]
    return secs, stats, len(res.first_critiques), len(res.rounds), len(res.final)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="30,100,300,1000")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plain", action="store_true", help="also time the judge without incremental replay")
    ap.add_argument("--plain-max", type=int, default=300, help="longest plan judged with --plain")
    a = ap.parse_args(argv)
    lengths = [int(x) for x in a.lengths.split(",") if x.strip()]
    print("| steps | errors injected | round-1 critiques | rounds | final steps | seconds (incremental) "
          "| replays | simulator steps run | steps taken over | seconds (plain replay) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for n in lengths:
        steps, errors = chores(a.seed, n)
        secs, stats, ncrit, rounds, final = judge_once(steps, True)
        plain = "-"
        if a.plain and n <= a.plain_max:
            plain = f"{judge_once(steps, False)[0]:.2f}"
        print(f"| {len(steps)} | {len(errors)} | {ncrit} | {rounds} | {final} | {secs:.2f} | {stats['replays']} | "
              f"{stats['stepped']} | {stats['reused']} | {plain} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
