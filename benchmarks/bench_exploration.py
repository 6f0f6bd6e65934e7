"""Exploration benchmark (issue 13 item 5): where does ExRAP's Eq. 11 exploration send the agent?

For each episode (VirtualHome scene 1003_2, ExRAP with the embedded LM, the LM interpreter as in
``actionable follow``) it prints, for the Eq. 11 targets before the fix (``retrieved``: the
query-named entities of the retrieved quadruples) and after (``query``: the interpreted query's
own objects), side by side:

* ``visits``: steps spent in each room (bathroom / bedroom / dining room / home office);
* ``cover``: rooms visited at least once / rooms that hold an object of some instruction's query;
* ``ABA``: share of moves that go straight back to the room of two steps before (oscillation);
* ``oldest age``: per instruction, the age in steps of the agent's newest look that settles its
  condition - per predicate, a look at the room of any of its objects (``napkin on counter``:
  the napkin's or the counter's room), the oldest over the predicates; a room never seen counts
  from step 0 -, maximised over the episode; the row shows the worst instruction and the mean
  over instructions;
* SR / PS of the episode (few activations per episode: read them as a sanity check only).

    ACTIONABLE_LM_THREADS=1 python benchmarks/bench_exploration.py                  # default cases
    ACTIONABLE_LM_THREADS=1 python benchmarks/bench_exploration.py --cases high:1:40 --targets query

A case is ``level:seed:steps`` (5 generated instructions, seeded). The defaults are the two
runs reported in issue 13 (``high:1:40``, ``high:0:15``) and a seed that is not in the results
table (``high:10:40``; the table uses seeds 0-4 at 30 steps).
"""

from __future__ import annotations

import argparse
import json

DEFAULT_CASES = ("high:1:40", "high:0:15", "high:10:40")


def exploration_metrics(rooms_visited: list[int], watched: list[list[list[set[int]]]], all_rooms: list[int]) -> dict:
    """Coverage and belief-age numbers of one episode.

    Args:
        rooms_visited: the agent's room id at each step ``t`` (what it observed), length ``T``.
        watched: ``watched[i][t][k]``: the room ids holding the objects of predicate ``k`` of
            instruction ``i``'s query at step ``t`` (a look at any of them settles the predicate).
        all_rooms: every room id of the house.

    Returns:
        ``visits`` (room id -> steps), ``cover`` (visited / needed rooms, fraction), ``aba`` (share
        of moves returning to the room of two steps before), ``oldest_age`` (per instruction, the
        maximum over ``t`` of the age in steps of its oldest predicate's newest look), ``worst_age``,
        ``mean_age``.
    """
    T = len(rooms_visited)
    visits = {r: rooms_visited.count(r) for r in all_rooms}
    needed = {r for w in watched for preds in w for rooms in preds for r in rooms}
    cover = len(needed & set(rooms_visited)) / len(needed) if needed else 1.0
    moves = [(a, b, c) for a, b, c in zip(rooms_visited, rooms_visited[1:], rooms_visited[2:]) if a != b]
    aba = sum(a == c for a, b, c in moves) / len(moves) if moves else 0.0
    oldest = []
    for w in watched:
        last: dict[int, int] = {}
        worst = 0
        for t in range(T):
            last[rooms_visited[t]] = t
            age = max((min(t - last.get(r, -1) for r in rooms) for rooms in w[t] if rooms), default=0)
            worst = max(worst, age)
        oldest.append(worst)
    return {"visits": visits, "cover": cover, "aba": aba, "oldest_age": oldest,
            "worst_age": max(oldest) if oldest else 0,
            "mean_age": sum(oldest) / len(oldest) if oldest else 0.0}


def run_case(level: str, seed: int, steps: int, targets: str, lm, embedder, n: int = 5) -> dict:
    from actionable.continual.agent import ExRAPConfig
    import actionable.continual.episode as _ep
    make_agent, run_episode = _ep.make_agent, _ep.run_episode
    from actionable.continual.worlds import get_world

    world = get_world("virtualhome")
    house = world.make_house(world.scene, level)
    house.reset(seed)
    ins = world.sample(house, n, seed)
    agent = make_agent("exrap", lm, ins, ExRAPConfig(targets=targets))
    rooms: list[int] = []
    watched: list[list[list[set[int]]]] = [[] for _ in ins]
    names = {v: k for k, v in house.rooms.items()}

    def on_step(rec: dict) -> None:
        rooms.append(names[rec["room"]])
        for i, x in enumerate(ins):  # the query objects' true rooms at this step (scoring only)
            watched[i].append([{house.room_of(p.node)} | ({house.room_of(p.value)} if p.kind == "on" else set())
                               for p in x.query])

    res = run_episode(agent, house, ins, steps, seed, lm=lm, embedder=embedder, world=world,
                      on_step=on_step, keep_trace=False)
    m = exploration_metrics(rooms, watched, sorted(house.rooms))
    m["visits"] = {house.rooms[r]: v for r, v in m["visits"].items()}
    m.update(sr=res.metrics.get("sr"), ps=res.metrics.get("ps"), seconds=res.stats["seconds"])
    return m


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default=",".join(DEFAULT_CASES), help="level:seed:steps, comma-separated")
    ap.add_argument("--targets", default="retrieved,query", help="Eq. 11 target rules to compare")
    ap.add_argument("--json", action="store_true", help="print one JSON object per episode as well")
    a = ap.parse_args()

    from actionable.core.config import LMConfig, make_config
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm

    lm = load_lm("embedded", make_config(LMConfig, model="embedded", cache=True))
    embedder = load_embedder("minilm")
    modes = [m.strip() for m in a.targets.split(",") if m.strip()]
    print("| case | targets | visits bath/bed/dining/office | cover | ABA | oldest age worst / mean "
          "(steps) | SR | PS |")
    print("|---|---|---|---|---|---|---|---|")
    totals = {m: [] for m in modes}
    for case in a.cases.split(","):
        level, seed, steps = case.split(":")
        for mode in modes:
            m = run_case(level, int(seed), int(steps), mode, lm, embedder)
            totals[mode].append(m)
            v = m["visits"]
            sr = "-" if m["sr"] is None else f"{100 * m['sr']:.0f}%"
            ps = "-" if m["ps"] is None else f"{m['ps']:.1f}"
            print(f"| {case} | {mode} | {v['bathroom']}/{v['bedroom']}/{v['dining_room']}/{v['home_office']} "
                  f"| {m['cover']:.2f} | {m['aba']:.2f} | {m['worst_age']} / {m['mean_age']:.1f} "
                  f"| {sr} | {ps} |", flush=True)
            if a.json:
                print(json.dumps({"case": case, "targets": mode, **m}, default=str))
    for mode, ms in totals.items():
        k = len(ms)
        print(f"mean over {k} episodes, targets={mode}: cover {sum(m['cover'] for m in ms) / k:.2f}, "
              f"ABA {sum(m['aba'] for m in ms) / k:.2f}, oldest age worst "
              f"{sum(m['worst_age'] for m in ms) / k:.1f} / mean {sum(m['mean_age'] for m in ms) / k:.1f} steps")


if __name__ == "__main__":
    main()
