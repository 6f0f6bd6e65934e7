"""The driving oracle's order of service when several conditions hold at once (issue 25).

An activation succeeds when the agent *begins* the skill that reaches the goal while the condition
still holds (the tracker closes it at the first step boundary where the condition is false), so
with two conditions due in two places the order decides whether both can be served. The oracle is
an upper bound and reads the true state; from it this module estimates, in simulated seconds,

* :func:`remaining_s` - how long a condition will still hold: a red light until its link's next
  green in the signal program, a pedestrian incident until its waiting stage ends, a background
  pedestrian until a crossing at the junction turns green, a lane or car incident until it ends;
* :func:`route_leg` - how long one skill takes from a given position: its route walked junction by
  junction, each move waiting for its own light at the moment the ego reaches the line
  (:func:`wait_at`, from the signal programs); the town's lights all switch on one schedule, so a
  block-count estimate missed the red waits that decide whether a second condition can still be
  begun (issue 25, fourth calibration: mean error 5 s on calibration seeds 102, 110, 147);
* :func:`travel_s` - the coarse estimate by blocks (a block plus an expected red wait per junction
  of the level's light cycle), kept as the tie-break,

and :func:`plan_first` picks, among the permutations of the due instructions, the one that begins
the most of them in time (then the shortest), and returns its first. No LM, no agent reads this.
"""

from __future__ import annotations

from itertools import permutations

from actionable.worlds.driving.sim import LEVELS

#: s per block at the ego's eased speeds (150 m blocks, 8-14 m/s, turns)
BLOCK_S = 15.0
#: s for the skill itself at the target (the final approach, the halt, a short yield)
SKILL_S = 10.0
#: the remaining time assumed for a condition the world cannot time (queues, unplaced states)
UNKNOWN_S = 30.0
#: s either side of a step boundary that a light must be red for :func:`holds_at` to count it
#: red again there (the route time's errors: mean 5 s)
RED_MARGIN_S = 10.0
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


def plan_first(due: list, room_of, hops, start_room: int, remaining: dict, cycle: float, leg=None, start=None,
               holds=None):
    """The instruction to serve first.

    Args:
        due: instructions whose condition holds and goal does not (their first skill's first
            argument is the target node).
        room_of: ``node -> room``; ``hops``: ``(room, room) -> blocks``; ``start_room``: the ego's.
        remaining: ``id(instruction) -> s`` from :func:`remaining_s`.
        cycle: the light cycle, s.
        leg: optional ``(position, t, instruction) -> (seconds, position)``, the time of one
            skill begun ``t`` s from now at ``position`` (:func:`route_leg`); ``start``: the ego's
            position. Without it a skill takes :func:`travel_s` of its blocks.
        holds: optional ``(instruction, t) -> bool``, whether its condition holds ``t`` s from now
            (:func:`holds_at`); without it, while ``t <= remaining``. An activation stays open
            while its condition holds at every step boundary (the tracker looks only there), so a
            red light that turns green during one skill and red again before it ends can still be
            begun after it.
    Returns:
        the first instruction of the order that begins the most of ``due`` while their conditions
        still hold (an instruction no longer due is skipped, costing nothing), judged by ``leg``
        where given; ties broken by the shorter total time by blocks (:func:`travel_s`), then by
        ``leg``'s, then by the nearer first target.
    """
    def target(ins):
        return room_of(ins.execution[0].args[0]) if ins.execution[0].args else start_room

    if holds is None:
        def holds(ins, t):
            return t <= remaining[id(ins)]

    best, best_key = None, None
    for order in permutations(due):
        t, blocks_t, room, served, pos = 0.0, 0.0, start_room, 0, start
        ended: set[int] = set()  # conditions seen false at a step boundary: their activation is over
        for k, ins in enumerate(order):
            if id(ins) in ended:
                continue  # ended before the ego could begin it: skipped
            if t > 0.0:
                ended |= {id(x) for x in order[k:] if id(x) not in ended and not holds(x, t)}
                if id(ins) in ended:
                    continue
            served += 1
            blocks_t += travel_s(hops(room, target(ins)), cycle)
            if leg is not None:
                dt, pos = leg(pos, t, ins)
                t += dt
            else:
                t = blocks_t
            room = target(ins)
        # ties on the count: the shorter time by blocks, as before the route timing (issue 25:
        # by route time alone the oracle left for a far red light that it could serve no faster,
        # and on calibration seed 125 the near one then ended each cycle: 1,000/1,001 -> 1,000/1,499)
        key = (-served, blocks_t, t, hops(start_room, target(order[0])))
        if best_key is None or key < best_key:
            best, best_key = order[0], key
    return best


# ----------------------------------------------------------------------------- a route's real time
#: m/s the ego averages between junctions (accelerating from a line, easing at the end)
DRIVE_SPEED = 10.0
#: s to cross a junction once its light is green (a permissive left turn yields a little longer)
CROSS_S = 4.0
#: s of the skill at its target: a halt at the line; a halt plus the wait (<= 20 s) for the
#: crossing to clear (fitted on calibration seeds 102, 110, 147 at ``low``: median errors -2 / +1 s)
STOP_S, YIELD_S = 2.0, 24.0
#: s from entering a street to being in its right lane (a lane change under way)
KEEP_RIGHT_S = 4.0


def _program(sim, junction: str):
    cache = sim.__dict__.setdefault("_oracle_programs", {})
    tl = sim.ls.trafficlight
    key = (junction, tl.getProgram(junction))
    if key not in cache:
        cache[key] = next((lg for lg in tl.getAllProgramLogics(junction) if lg.programID == key[1]), None)
    return cache[key]


def wait_at(sim, junction: str, idx: int, at: float) -> float:
    """Simulated s that a vehicle reaching ``junction``'s line at absolute time ``at`` (>= now)
    waits for link ``idx`` to show green, from the running signal program (0 when green then)."""
    tl = sim.ls.trafficlight
    logic = _program(sim, junction)
    if logic is None:
        return 0.0
    phases, k = logic.phases, tl.getPhase(junction)
    start, end = sim.now(), tl.getNextSwitch(junction)
    waiting_from = None
    for _ in range(4 * len(phases) + 4):
        green = phases[k].state[idx] in "Gg"
        if waiting_from is None and at < end:
            if green:
                return 0.0
            waiting_from = at
        elif waiting_from is not None and green:
            return max(0.0, start - waiting_from)
        k = (k + 1) % len(phases)
        start, end = end, end + phases[k].duration
    return UNKNOWN_S


def _link(sim, junction: str, cur: str, nxt: str) -> int | None:
    """The signal link index of the move ``cur -> nxt`` at ``junction`` (None: unsignalled)."""
    cache = sim.__dict__.setdefault("_oracle_links", {})
    if (cur, nxt) not in cache:
        found = None
        for idx, links in enumerate(sim.ls.trafficlight.getControlledLinks(junction)):
            if any(inl.startswith(cur + "_") and outl.startswith(nxt + "_") for inl, outl, _ in links):
                found = idx
                break
        cache[(cur, nxt)] = found
    return cache[(cur, nxt)]


def route_leg(house, pos, t: float, ins):
    """Simulated s of the skill of ``ins`` begun ``t`` s from now with the ego at ``pos``
    (``(street, m to its line)``; ``None``: the ego now), and the ego's position after it.

    Walks the skill's route junction by junction: the drive to each line at
    :data:`DRIVE_SPEED`, the wait for the move's own light at the time the ego gets there (the
    signal program, offsets included), :data:`CROSS_S` to cross; then the skill at its target.
    """
    sim, town = house.world.sim, house.town
    z = ins.execution[0]
    node = z.args[0] if z.args else None
    from_ego = pos is None
    if from_ego:
        e = sim.ego()
        if e["internal"]:  # (the oracle does not plan legs from inside a junction)
            return travel_s(1, LEVELS[house.level].cycle), None
        pos = (e["edge"], e["to_line"])
    edge, d = pos
    if z.kind in ("stop_on", "keep_right"):
        target = dict(to_edge=house.street_of_node[node])
    elif z.kind in ("yield_at", "go"):
        room = house.static_room.get(node, node) if z.kind == "yield_at" else node
        target = dict(to_junction=town.junction_of[house.rooms[room]])
    else:
        return SKILL_S, pos
    try:
        seq = house.world.route_from_ego(**target) if from_ego else town.route(edge, **target)
    except KeyError:
        return UNKNOWN_S * 10, pos
    now, el, cur = sim.now(), t, edge
    for nxt in seq:
        el += max(0.0, d) / DRIVE_SPEED
        j = town.ends[cur][1]
        link = _link(sim, j, cur, nxt)
        if link is not None:
            el += wait_at(sim, j, link, now + el)
        el += CROSS_S
        cur, d = nxt, town.length[nxt]
    if z.kind == "stop_on":
        el += max(0.0, d) / DRIVE_SPEED + STOP_S
        return el - t, (cur, 0.0)
    if z.kind == "keep_right" and seq:  # done once in the right lane of the street it entered
        return el + KEEP_RIGHT_S - t, (cur, max(0.0, d - KEEP_RIGHT_S * DRIVE_SPEED))
    el += max(0.0, d - 40.0) / DRIVE_SPEED + (YIELD_S if z.kind == "yield_at" else 0.0)
    return el - t, (cur, min(d, 40.0))



def holds_at(house, ins, t: float, remaining: float) -> bool:
    """Whether ``ins``'s condition will hold ``t`` s from now: a red light from its signal program
    (red again after a green counts: the activation is judged only at step boundaries, and a drive
    of 260 s at ``low`` spans a green; issue 25, calibration seed 82), anything else while
    ``t <= remaining`` (:func:`remaining_s`)."""
    if t <= remaining:
        return True
    z = ins.execution[0]
    node = z.args[0] if z.args else None
    if node is None or house.class_of.get(node) != "light":
        return False
    sim = house.world.sim
    j, idx = sim._links[house.street_of_node[node]]
    # red again then, with RED_MARGIN_S either side (a leg's time is an estimate, mean error 5 s)
    return all(wait_at(sim, j, idx, sim.now() + t + dt) > 0.0 for dt in (-RED_MARGIN_S, 0.0, RED_MARGIN_S))
