"""The driving oracle's order of service when several conditions hold at once (issue 25).

An activation succeeds when the agent *begins* the skill that reaches the goal while the condition
still holds (the tracker closes it at the first step boundary where the condition is false), so
with two conditions due in two places the order decides whether both can be served. The oracle is
an upper bound and reads the true state; from it this module estimates, in simulated seconds,

* :func:`remaining_s` - how long a condition will still hold: a red light until its link's next
  green in the signal program, a pedestrian incident until its waiting stage ends, a background
  pedestrian until a crossing at the junction turns green, a lane or car incident until it ends;
* :func:`travel_s` - how long a drive of ``hops`` blocks takes (a block plus an expected red wait
  per junction of the level's light cycle),

and :func:`plan_first` picks, among the permutations of the due instructions, the one that begins
the most of them in time (then the shortest), and returns its first. No LM, no agent reads this.
"""

from __future__ import annotations

from itertools import permutations

#: s per block at the ego's eased speeds (150 m blocks, 8-14 m/s, turns)
BLOCK_S = 15.0
#: s for the skill itself at the target (the final approach, the halt, a short yield)
SKILL_S = 10.0
#: the remaining time assumed for a condition the world cannot time (queues, unplaced states)
UNKNOWN_S = 30.0
#: plan over at most this many due instructions (permutations: 4! = 24); more fall back to nearest
MAX_PLAN = 4


def until_green(sim, junction: str, idx: int) -> float:
    """Simulated s until link ``idx`` of ``junction``'s signal shows green (0 when it does now),
    from the running program's phases; at most one cycle."""
    tl, now = sim.ls.trafficlight, sim.now()
    if tl.getRedYellowGreenState(junction)[idx] in "Gg":
        return 0.0
    logic = next((lg for lg in tl.getAllProgramLogics(junction) if lg.programID == tl.getProgram(junction)), None)
    if logic is None:
        return UNKNOWN_S
    phases, k = logic.phases, tl.getPhase(junction)
    t = max(0.0, tl.getNextSwitch(junction) - now)
    for step in range(1, len(phases) + 1):
        ph = phases[(k + step) % len(phases)]
        if ph.state[idx] in "Gg":
            return t
        t += ph.duration
    return t


def _crossing_links(sim, junction: str) -> list[int]:
    """Link indices of ``junction``'s signal that lead pedestrians over a crossing."""
    out = []
    for idx, links in enumerate(sim.ls.trafficlight.getControlledLinks(junction)):
        if any(inl.startswith(f":{junction}_w") or inl.startswith(f":{junction}_c") for inl, _, _ in links):
            out.append(idx)
    return out


def remaining_s(house, ins) -> float:
    """Estimated simulated s that instruction ``ins``'s condition will still hold (true state).

    Args:
        house: a :class:`~actionable.worlds.driving.continual.DrivingHouse` after ``reset``.
        ins: an :class:`~actionable.core.continual.Instruction` of the driving world.
    Returns:
        seconds >= 0; :data:`UNKNOWN_S` when the world cannot time the condition.
    """
    sim, now = house.world.sim, house.world.sim.now()
    node = ins.execution[0].args[0] if ins.execution[0].args else None
    cls = house.class_of.get(node) if node is not None else "car_ahead"
    incidents = {i.actor: i for i in sim.incidents if i.state == "active"}
    if cls == "light":
        j, idx = sim._links[house.street_of_node[node]]
        return until_green(sim, j, idx)
    if cls == "crossing":
        j = house.town.junctions[node - 300]
        waits = []
        for pid in sim.waiting_pedestrians(j):
            inc = incidents.get(pid)
            if inc is not None:
                waits.append(max(0.0, inc.t + inc.duration - now))
            else:
                reds = [until_green(sim, j, i) for i in _crossing_links(sim, j)]
                waits.append(min((r for r in reds if r > 0), default=UNKNOWN_S))
        return max(waits, default=0.0)
    if cls == "left_lane":
        e = house.street_of_node[node]
        ends = [i.t + i.duration - now for i in incidents.values() if i.kind == "blocked_lane" and i.where == e]
        return max(max(ends, default=UNKNOWN_S), 0.0)
    ld = sim.leader()
    inc = incidents.get(ld[0]) if ld else None
    return max(0.0, inc.t + inc.duration - now) if inc is not None else UNKNOWN_S


def travel_s(hops: int, cycle: float) -> float:
    """Estimated simulated s from beginning a skill ``hops`` blocks away to its goal: per block a
    drive of :data:`BLOCK_S` and the mean red wait (half the time red, a quarter cycle on average),
    plus :data:`SKILL_S`."""
    return SKILL_S + hops * (BLOCK_S + cycle / 8.0)


def plan_first(due: list, room_of, hops, start_room: int, remaining: dict, cycle: float):
    """The instruction to serve first.

    Args:
        due: instructions whose condition holds and goal does not (their first skill's first
            argument is the target node).
        room_of: ``node -> room``; ``hops``: ``(room, room) -> blocks``; ``start_room``: the ego's.
        remaining: ``id(instruction) -> s`` from :func:`remaining_s`.
        cycle: the light cycle, s.
    Returns:
        the first instruction of the order that begins the most of ``due`` while their conditions
        still hold (an instruction no longer due is skipped, costing nothing), ties broken by the
        shorter total time and then by the nearer first target.
    """
    def target(ins):
        return room_of(ins.execution[0].args[0]) if ins.execution[0].args else start_room

    best, best_key = None, None
    for order in permutations(due):
        t, room, served = 0.0, start_room, 0
        for ins in order:
            if t > remaining[id(ins)]:
                continue  # ended before the ego could begin it: skipped
            served += 1
            t += travel_s(hops(room, target(ins)), cycle)
            room = target(ins)
        key = (-served, t, hops(start_room, target(order[0])))
        if best_key is None or key < best_key:
            best, best_key = order[0], key
    return best
