"""Driving skills that used to strand the oracle (issue 25, found on calibration seeds 60-69):
a SUMO stop left pending after ``stop``, an overtake refused in the left lane, a route whose
first turn the ego's lane does not have, incidents closing both lanes of a street, and a town
that jammed at ``high``. Each test fails on the code before the fix. Skipped without SUMO."""

from __future__ import annotations

import pytest

from actionable.worlds.driving.sumo import sumo_available

pytestmark = pytest.mark.skipif(not sumo_available(),
                                reason='Eclipse SUMO not installed: pip install -e ".[dev,driving]" torch==2.13.0')


def _world(seed: int = 3, level: str = "high"):
    from actionable.worlds.driving.world import DrivingWorld

    w = DrivingWorld("town", level)
    w.reset(seed=seed, options={"nonstationarity": level})
    return w


def test_a_drive_after_a_stop_leaves_no_pending_stop():
    """``stop`` returns when the ego is halted, which can be before SUMO counts the stop as
    reached; the next drive only resumed reached stops, so the pending one held the ego at the
    line for its 1e6 s. Now every drive clears the ego's stops first."""
    from actionable.core.world import Action
    from actionable.worlds.driving.sim import EGO

    w = _world()
    sim, v = w.sim, w.sim.ls.vehicle
    e = sim.ego()
    v.setStop(EGO, e["edge"], pos=sim.town.length[e["edge"]] - 1.0, laneIndex=e["lane"], duration=1e6)
    assert v.getStops(EGO), "the stop was not set"
    w.clear_stops()
    assert not v.getStops(EGO) and not v.isStopped(EGO)
    _, _, _, _, info = w.step(Action("drive_to_next_junction"))
    assert info["executed"]
    _, _, _, _, info = w.step(Action("go_straight")) if "straight" in sim.town.out_edges(sim.ego()["edge"]) \
        else w.step(Action("turn_right"))
    assert info["executed"] and not v.getStops(EGO)


def test_overtake_passes_a_halted_car_in_either_lane():
    """The car ahead can be halted in the left lane (a blocked lane) with the ego behind it; the
    overtake was refused there ("ego must be driving in the right lane", 798 failed skills on
    calibration seed 62). Now it passes on the other lane."""
    from actionable.core.world import Action
    from actionable.worlds.driving.network import LEFT_LANE, RIGHT_LANE
    from actionable.worlds.driving.sim import EGO

    w = _world(seed=5, level="low")
    sim, v = w.sim, w.sim.ls.vehicle
    for _ in range(600):  # until the ego has just entered a street
        e = sim.ego()
        if not e["internal"] and e["pos"] < 15.0 and sim.town.length[e["edge"]] > 120.0:
            break
        sim.tick()
    street = e["edge"]
    v.add("blocker", f"r_{street}", departLane=str(LEFT_LANE), departPos=f"{sim.town.length[street] - 50.0:.1f}",
          departSpeed="0")
    v.setLaneChangeMode("blocker", 0)
    v.changeLane(EGO, LEFT_LANE, 60.0)
    for _ in range(60):  # the ego queues behind it in the left lane
        if "blocker" in v.getIDList():
            v.setSpeed("blocker", 0.0)
        sim.tick()
        e = sim.ego()
        if e["halted"] and e["edge"] == street:
            break
    assert e["edge"] == street and e["lane"] == LEFT_LANE and e["halted"], e
    ld = sim.leader()
    assert ld is not None and ld[0] == "blocker", ld
    assert w.preconditions(Action("overtake")) == []
    _, _, _, _, info = w.step(Action("overtake"))
    assert info["executed"] and info["outcome"] == "overtook the halted car", info
    assert sim.ego()["lane"] == RIGHT_LANE or sim.ego()["edge"] != street


def test_route_from_the_line_takes_a_turn_the_lane_has():
    """At the line, the first turn of the route must be one the ego's lane leads to."""
    from actionable.worlds.driving.sim import EGO

    w = _world(seed=2, level="low")
    sim = w.sim
    for _ in range(600):  # drive until the ego is near a line on a street
        e = sim.ego()
        if not e["internal"] and e["to_line"] < 25.0:
            break
        sim.tick()
    e = sim.ego()
    assert not e["internal"] and e["to_line"] < 30.0
    lane_links = {x[0].rsplit("_", 1)[0] for x in sim.ls.lane.getLinks(f"{e['edge']}_{e['lane']}")}
    for j in sim.town.junctions:
        if j == e["junction"]:
            continue
        seq = w.route_from_ego(to_junction=j)
        assert seq and seq[0] in lane_links, (e["edge"], e["lane"], j, seq, lane_links)
    assert sim.ls.vehicle.getRoadID(EGO) == e["edge"]  # planning a route does not move the ego


def test_incidents_never_close_both_lanes_of_a_street():
    from actionable.worlds.driving.sim import Incident

    w = _world(seed=1, level="high")
    sim = w.sim
    street = sim.town.streets[4]
    t = int(sim.now()) + 2
    sim.incidents[:0] = [Incident(t, "blocked_lane", street, 60), Incident(t + 1, "stalled_car", street, 60)]
    sim.incidents.sort(key=lambda i: i.t)
    for _ in range(5):
        sim.tick()
    mine = [i for i in sim.incidents if i.where == street and i.t in (t, t + 1)]
    assert [i.state for i in mine] == ["active", "dropped"], [(i.kind, i.state) for i in mine]


def test_oracle_stays_above_90_percent_over_300_steps_at_high():
    """Calibration seed 62 (overtake refusals) and 63 (jams, pending stops): the oracle's SR was
    38.5% and 39.6% over 1,000 steps before these fixes; over 300 steps now 100% and 91.4%."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world

    w = get_world("driving")
    for seed in (62, 63):
        house = w.make_house("town", "high")
        house.reset(seed)
        ins = w.sample(house, 3, seed)
        res = run_episode(make_agent("oracle", None, ins), house, ins, 300, seed, world=w, keep_trace=False)
        house.world.close()
        assert res.metrics["sr"] >= 0.9, (seed, res.metrics)


def test_a_dropped_incident_is_not_announced():
    """A dropped incident never happened: "new on the road" listed it anyway (a new user saw
    "a stalled car at Dock Road" twice at one step)."""
    from actionable.continual.worlds import get_world
    from actionable.core.continual import Skill
    from actionable.worlds.driving.sim import Incident

    house = get_world("driving").make_house("town", "high")
    house.reset(1)
    sim = house.world.sim
    street = sim.town.streets[4]
    t = int(sim.now()) + 2
    sim.incidents[:0] = [Incident(t, "blocked_lane", street, 600), Incident(t + 1, "stalled_car", street, 600)]
    sim.incidents.sort(key=lambda i: i.t)
    res = house.step(Skill("wait", (), "wait"))
    name = sim.town.street_name(street)
    assert f"a blocked lane at {name}" in res.changed
    assert f"a stalled car at {name}" not in res.changed, res.changed
    # two alike in one step are said once with their count; one that ended within the step says so
    a, b, c = (Incident(t, "stalled_car", street, 5, state="active"),
               Incident(t, "stalled_car", street, 5, state="active"),
               Incident(t, "pedestrian", next(iter(sim.town.place)), 5, state="over"))
    said = house._announce([a, b, c])
    assert said[0] == f"a stalled car at {name} (x2)" and len(said) == 2, said
    assert said[1].endswith("(already cleared)"), said


def test_the_ego_sees_its_stop_done():
    """The effect of a street skill is observable (the ContinualHouse ``skill_effect`` hook), so
    memory shows a stop at a red light done: ExRAP stopped again every step while the light
    stayed red (t=14-29 of `follow --env driving --steps 30`, a new user's check)."""
    from actionable.continual.agent import skill_effect
    from actionable.continual.worlds import get_world
    from actionable.core.continual import Skill

    house = get_world("driving").make_house("town", "low")
    house.reset(2)
    sim = house.world.sim
    for _ in range(300):
        if not sim.ego()["internal"]:
            break
        sim.tick()
    k = house.town.streets.index(sim.ego()["edge"])
    skill = Skill("stop_on", (100 + k,), "stop before the line")
    eff = skill_effect(skill, house)
    assert eff == ("agent", "is", f"halted_on:{k}")
    res = house.step(skill)
    assert res.executed, res.error
    assert eff in res.observation.facts
    house.step(Skill("go", (next(r for r in house.rooms if r != house._ego_room()),), "go"))
    assert eff not in house.observe().facts  # it drove off: no longer halted there


def test_routes_use_u_turns_so_no_street_is_a_long_detour():
    """Without turnarounds, the other direction of the street the ego was on was a 7-street loop
    from a corner (A1A0 -> A0A1 went round the town), and the oracle's "stop before the line on
    Elm Lane towards the school" missed 29 red lights on calibration seed 64 at `medium`. The
    town now has a U-turn at every junction and the route takes it."""
    w = _world(seed=1, level="medium")
    town = w.sim.town
    assert set(town.uturn) == set(town.streets)
    for e in town.streets:
        back = town.uturn[e]
        assert town.ends[back] == town.ends[e][::-1]
        assert town.route(e, to_edge=back) == [back]
        # every street is within 5 moves of every other (a corner's other direction was 7)
        assert all(len(town.route(e, to_edge=x)) <= 5 for x in town.streets if x != e), e
    # SUMO drives it: the ego's route through a U-turn is accepted and followed
    from actionable.worlds.driving.sim import EGO

    sim = w.sim
    for _ in range(600):
        e = sim.ego()
        if not e["internal"] and e["to_line"] > 80.0:
            break
        sim.tick()
    e = sim.ego()
    back = town.uturn[e["edge"]]
    out = w.drive_along([back], 600)
    assert sim.ls.vehicle.getRoadID(EGO) == back, out
    assert out.startswith("at the"), out


def test_a_drive_arrives_slow_enough_to_stop_before_the_line():
    """At full speed (15.4 m/s, 26 m of braking) a third of the arrivals 40 m before the line
    came within braking distance, and the stop or yield after it failed ("too close to the line
    to stop (25 m at 15.4 m/s)", calibration seed 68 at `low`). A drive now eases on its final
    stretch, and a stop right after it runs."""
    from actionable.core.world import Action
    from actionable.worlds.driving.sim import DECEL

    stopped = 0
    for seed in (1, 2):
        w = _world(seed=seed, level="low")
        sim = w.sim
        for place in sim.town.place.values():
            if sim.town.junction_of[place] == sim.ego()["junction"]:
                continue
            _, _, _, _, info = w.step(Action("drive_to", (place,)))
            if not info["executed"]:
                continue
            e = sim.ego()
            assert e["speed"] ** 2 / (2 * DECEL) + 1.5 < e["to_line"], (place, e)  # can still stop
            _, _, _, _, info = w.step(Action("stop"))
            assert info["executed"], (place, info["error"])
            stopped += 1
        w.close()
    assert stopped >= 8


def test_oracle_reaches_far_streets_at_low_within_the_drive_cap():
    """Calibration seed 65 at `low`: three red waits of the 240 s cycle took longer than the old
    300 s cap, and "could not reach High Street towards the station in time" failed 10 drives
    (SR 87.5% over 1,000 steps). With U-turns, easing and the 600 s cap: no failed skill over 300
    steps, and SR >= 95%."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world

    w = get_world("driving")
    house = w.make_house("town", "low")
    house.reset(65)
    ins = w.sample(house, 3, 65)
    res = run_episode(make_agent("oracle", None, ins), house, ins, 300, 65, world=w, keep_trace=False)
    house.world.close()
    assert res.stats["failed_skills"] == 0, res.stats
    assert res.metrics["sr"] >= 0.95, res.metrics


# --------------------------------------------------------------------- third calibration (7 Dec)
def test_a_pedestrian_just_inserted_is_not_waiting():
    """A pedestrian inserted at a street's end stands still for its first 1-2 s; the crossing
    counted it as waiting, and at a step boundary that blip was a 1-step activation no driver
    could serve (calibration seeds 120-139: 84 of 135 waits on seed 128 lasted 1 s). Now a walking
    pedestrian waits once it has stood >= ``PED_WAIT_S``."""
    from actionable.worlds.driving.sim import PED_WAIT_S

    w = _world(seed=128, level="low")
    sim, p = w.sim, w.sim.ls.person
    seen = 0
    for _ in range(400):
        sim.tick()
        for j in sim.town.junctions:
            for pid in sim.waiting_pedestrians(j):
                seen += 1
                assert p.getWaitingTime(pid) >= PED_WAIT_S or p.getStage(pid, 0).type == 1, (pid, j)
    assert seen > 0, "no pedestrian waited in 400 s"


def test_an_incident_pedestrian_waits_at_every_junction():
    """An incident pedestrian stands at its street's end, 15.4 m from the centre of a 3- or 4-way
    junction: the old 15 m radius never saw it waiting at 5 of the town's 9 places, so those
    incidents made no activation. Now (``PED_RADIUS`` 16 m) it waits on every approach of every
    junction, from its first second (a waiting stage)."""
    import math

    from actionable.worlds.driving.sim import PED_RADIUS, PED_WAIT_S

    w = _world(seed=128, level="low")
    sim, p = w.sim, w.sim.ls.person
    placed = []
    for j in sim.town.junctions:
        for e in (x for x in sim.town.streets if sim.town.ends[x][1] == j):
            pid = f"waiter{len(placed)}"
            p.add(pid, e, sim.town.length[e] - 1.0)  # as TownSim._start_incident places it
            p.appendWaitingStage(pid, 100, "waits at the crossing")
            p.appendWalkingStage(pid, [e, next(iter(sim.town.out_edges(e).values()))], 20.0)
            placed.append((pid, j))
    for _ in range(2):  # inserted at the next step
        sim.tick()
    for pid, j in placed:
        assert math.dist(p.getPosition(pid), sim.town.xy[j]) <= PED_RADIUS, (pid, j)
        assert p.getWaitingTime(pid) < PED_WAIT_S and pid in sim.waiting_pedestrians(j), (pid, j)


def test_until_green_times_a_red_light():
    """The oracle times a red light from the signal program (``oracle_plan.until_green``): the
    estimate is within 1 s of when the light turns green."""
    from actionable.worlds.driving.oracle_plan import until_green

    w = _world(seed=121, level="low")
    sim = w.sim
    e = next(x for x in sim.town.streets if sim.light(x) == "red")
    j, idx = sim._links[e]
    est, t0 = until_green(sim, j, idx), sim.now()
    assert 0 < est <= 240
    while sim.light(e) == "red":
        sim.tick()
    assert abs((sim.now() - t0) - est) <= 1.0, (sim.now() - t0, est)


def test_the_oracle_serves_first_the_condition_that_ends_first():
    """Two conditions due in two places: the nearest first let the other end before the ego could
    begin it (calibration seed 124 at ``low``: a red light on Dock Road ended while the oracle
    served two crossings in turn). The oracle now takes the order that begins the most of them
    in time (``DrivingHouse.oracle_choice``); houses without that hook keep the nearest first."""
    from actionable.continual.baselines import OracleAgent
    from actionable.core.continual import Instruction, Observation, Predicate, Skill
    from actionable.worlds.driving.oracle_plan import plan_first

    near, far = (Instruction(t, (Predicate("state", n, "on"),), (Predicate("state", 65, f"g{n}"),),
                             (Skill("go", (n,), t),), t, t) for t, n in (("near", 1), ("far", 2)))
    room = {1: 10, 2: 12}.get
    hops = lambda a, b: abs(a - b)  # noqa: E731 - rooms on a line
    # the near one lasts 300 s, the far one 5 s: nearest first serves one, far first both
    assert plan_first([near, far], room, hops, 10, {id(near): 300.0, id(far): 5.0}, 240) is far
    assert plan_first([near, far], room, hops, 10, {id(near): 300.0, id(far): 300.0}, 240) is near

    class House:  # the oracle's view of a house: true states, distances, and the optional hook
        def __init__(self, hook):
            if hook:
                self.oracle_choice = lambda due: plan_first(due, room, hops, 10, {id(near): 300.0, id(far): 5.0}, 240)

        def states_of(self, node):
            return {"on"} if node in (1, 2) else set()

        def distance(self, a, b):
            return hops(10, room(b))

    for hook, want in ((True, "far"), (False, "near")):
        ag = OracleAgent([near, far])
        ag.house = House(hook)
        assert ag.act(Observation(0, 10, []), 0).skill.text == want
