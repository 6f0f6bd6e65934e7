"""One SUMO run of the town: background traffic, pedestrians, incidents, the ego vehicle.

:class:`TownSim` starts ``libsumo`` on a generated network (:mod:`.network`) with step length
1 s, and keeps everything that makes the world change seeded:

* **traffic** - ``flows`` vehicle flows between seeded street pairs and ``persons`` pedestrian
  flows on the sidewalks (a route file written per (network, level, seed));
* **traffic lights** - SUMO's static programs, cycle length set per level at ``netgenerate`` time;
* **incidents** - every ``incident_period`` s one seeded event: a vehicle halts in the *left*
  lane of a street (blocked lane), a vehicle breaks down in the *right* lane (stalled car), or a
  pedestrian waits at a junction's crossing, each for ``incident_duration`` s. With probability
  ``focus_prob`` the place is drawn among the *focus* places (those instructions mention). The
  schedule depends only on the seed, never on the ego.

Truth queries (SUMO state, used by goals and by the continual metrics):
``light(e)`` (``red``/``green`` for the straight link of the right lane of street ``e``; yellow
counts as red), ``crossing(j)`` (``waiting`` when a pedestrian has stood still >= 3 s, or is in
a waiting stage, within 16 m of junction ``j`` off the crossing itself, else ``clear``), ``left_lane(e)`` (``blocked`` when a
vehicle other than the ego has been halted >= 5 s in lane 2 more than 30 m before the line,
else ``free``), ``car_ahead()`` (``stalled`` when the ego's leader - the car ahead in its lane on
its own street, within 60 m (:meth:`TownSim.leader`) - has been halted > 10 s more than 30 m before
its stop line, else ``moving``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from actionable.worlds.driving.network import LEFT_LANE, RIGHT_LANE, Town, generate
from actionable.worlds.driving.sumo import claim, owns, require_sumo


@dataclass(frozen=True)
class Level:
    """Non-stationarity settings (docs/driving.md). Times in s."""

    name: str
    vehicle_period: float  # mean s between vehicle insertions over the whole town
    person_period: float   # mean s between pedestrian insertions
    cycle: int             # traffic-light cycle length
    incident_period: int
    incident_duration: int


#: Time scale (issue 15 item 3): one skill drives for about a minute (median ``go`` 53-73 s,
#: measured on tuning seeds 50-52), so light cycles and incident durations are set to outlast
#: one to three skills; with the earlier 90 / 60 / 40 s cycles and 180 / 120 / 60 s incidents,
#: 67-100% of the activations ended within the step that revealed them (docs/driving.md).
#: Traffic (issue 25): at one vehicle every 1.5 s the 3x3 town held 250-325 vehicles and jammed at
#: ``high`` (the oracle's skills ran out of time behind queues: SR 87.2% on calibration seeds 60-64,
#: 300 steps; 93.8% at 3.0 s, and 4x faster). The periods are now 8 / 4.5 / 3 s (were 6 / 3 / 1.5).
LEVELS: dict[str, Level] = {
    "low": Level("low", 8.0, 24.0, 240, 90, 360),
    "medium": Level("medium", 4.5, 12.0, 180, 60, 240),
    "high": Level("high", 3.0, 6.0, 120, 30, 150),
}
EGO = "ego"
APPROACH = 40.0   # m before the stop line: the ego is "at" the junction ahead
RADIUS = 60.0     # m: what the ego sees around it (plus its whole current street)
#: s a walking pedestrian must have stood still to count as waiting at a crossing: a pedestrian
#: just inserted at a street's end stands still for its first 1-2 s, and those blips made 1-step
#: activations no driver could serve (issue 25, calibration seeds 120-139)
PED_WAIT_S = 3.0
#: m from a junction's centre within which a standing pedestrian waits at its crossing: an
#: incident pedestrian stands at its street's end, 15.4 m from the centre of a 3- or 4-way
#: junction, and the old 15 m never saw it at 5 of the 9 places of the town (issue 25)
PED_RADIUS = 16.0
DECEL = 4.5       # m/s^2, SUMO passenger default
WARMUP = 30       # s of traffic before the ego enters
EGO_LC_MODE = 1541  # SUMO lane-change mode: strategic + cooperative, no speed-gain / keep-right


@dataclass
class Incident:
    t: int
    kind: str      # blocked_lane | stalled_car | pedestrian
    where: str     # street (edge id) or junction id
    duration: int
    actor: str = ""
    state: str = "scheduled"  # scheduled | active | over | dropped (never placed)

    @property
    def happened(self) -> bool:
        """Placed in the town (now or earlier); a scheduled or dropped incident did not happen."""
        return self.state in ("active", "over")


@dataclass
class TownSim:
    """A running SUMO simulation of one town (see the module docstring).

    Args:
        network: network name (:data:`~.network.NETWORKS`).
        level: ``low`` / ``medium`` / ``high`` (:data:`LEVELS`).
        seed: SUMO ``--seed``, traffic and incident seed.
        focus: places (junction ids) and streets (edge ids) incidents prefer.
        focus_prob: probability that an incident is drawn among ``focus``.
    """

    network: str = "town"
    level: str = "medium"
    seed: int = 0
    focus: tuple = ()
    focus_prob: float = 0.7
    incidents: list[Incident] = field(default_factory=list)

    def start(self, work_dir: Path) -> None:
        ls = require_sumo()
        lv = LEVELS[self.level]
        self.town = Town.load(self.network, generate(self.network, lv.cycle))
        routes = self._write_routes(work_dir, lv)
        claim(self)
        ls.start(["sumo", "-n", str(self.town.path), "-r", str(routes), "--seed", str(self.seed),
                  "--step-length", "1", "--no-step-log", "true", "--no-warnings", "true",
                  "--time-to-teleport", "300", "--ignore-junction-blocker", "20", "--collision.action", "warn", "--ignore-route-errors", "true"])
        self.ls = ls
        self._lost = False
        self._schedule(lv)
        self._links = self._light_links()
        for e in self.town.streets:
            ls.route.add(f"r_{e}", [e])
        for _ in range(WARMUP):
            self.tick()
        self.add_ego()

    def _lost_session(self) -> None:
        self._lost = True

    @property
    def alive(self) -> bool:
        return not getattr(self, "_lost", True) and owns(self)

    # ----------------------------------------------------------------- set-up
    def _write_routes(self, work_dir: Path, lv: Level) -> Path:
        rng = random.Random(f"traffic/{self.network}/{self.level}/{self.seed}")
        streets = self.town.streets
        n_flows, n_persons = 8, 4
        lines = ['<routes>', '  <vType id="car" vClass="passenger" sigma="0.5"/>',
                 '  <vType id="ego" vClass="passenger" sigma="0" color="1,0,0"/>',
                 '  <vType id="incident" vClass="passenger" sigma="0" color="1,1,0"/>']
        for i in range(n_flows):
            a, b = rng.sample(streets, 2)
            lines.append(f'  <flow id="f{i}" type="car" begin="0" end="14400" period="{lv.vehicle_period * n_flows:.2f}" '
                         f'from="{a}" to="{b}" departLane="best" departSpeed="max"/>')
        for i in range(n_persons):
            a, b = rng.sample(streets, 2)
            lines.append(f'  <personFlow id="p{i}" begin="0" end="14400" period="{lv.person_period * n_persons:.2f}">'
                         f'<walk from="{a}" to="{b}"/></personFlow>')
        lines.append('</routes>')
        path = Path(work_dir) / f"{self.network}-{self.level}-{self.seed}.rou.xml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    def _schedule(self, lv: Level) -> None:
        rng = random.Random(f"incidents/{self.network}/{self.level}/{self.seed}")
        focus_j = sorted(f for f in self.focus if f in self.town.junctions)
        focus_e = sorted(f for f in self.focus if f in self.town.ends)
        self.incidents = []
        for k in range(1, 200):
            kind = rng.choice(("blocked_lane", "stalled_car", "pedestrian"))
            use = rng.random() < self.focus_prob
            if kind == "pedestrian":
                where = rng.choice(focus_j if (use and focus_j) else self.town.junctions)
            else:
                where = rng.choice(focus_e if (use and focus_e) else self.town.streets)
            self.incidents.append(Incident(WARMUP + k * lv.incident_period, kind, where, lv.incident_duration))

    def _light_links(self) -> dict[str, tuple[str, int]]:
        out = {}
        tl = self.ls.trafficlight
        for j in tl.getIDList():
            for idx, links in enumerate(tl.getControlledLinks(j)):
                for inl, outl, _ in links:
                    e = inl.rsplit("_", 1)[0]
                    if inl == f"{e}_{RIGHT_LANE}" and e in self.town.ends:
                        straight = self.town.out_edges(e).get("straight")
                        if e not in out or (straight and outl.startswith(straight + "_")):
                            out[e] = (j, idx)
        return out

    def add_ego(self) -> None:
        ls = self.ls
        rng = random.Random(f"ego/{self.network}/{self.seed}/{self.now():.0f}")
        start = rng.choice(self.town.streets)
        rid = f"ego_start_{self.now():.0f}"
        if rid not in ls.route.getIDList():
            ls.route.add(rid, [start, self.default_next(start)])
        for _ in range(5):  # a removed ego's id is free again after a step
            try:
                ls.vehicle.add(EGO, rid, typeID="ego", departLane=str(RIGHT_LANE),
                               departPos="10", departSpeed="0")
                break
            except ls.TraCIException:
                ls.simulationStep()
        for _ in range(60):
            self.tick()
            if EGO in ls.vehicle.getIDList():
                break
        ls.vehicle.setLaneChangeMode(EGO, EGO_LC_MODE)
        self._ego_in = True

    # ----------------------------------------------------------------- time
    def now(self) -> float:
        return self.ls.simulation.getTime()

    def tick(self) -> None:
        """One SUMO step (1 s) plus due incidents; the ego's route is extended (straight, else
        right, else left) when it enters its last edge, so it never leaves the town."""
        self.ls.simulationStep()
        t = self.now()
        if getattr(self, "_ego_in", False):
            v = self.ls.vehicle
            try:
                if not v.getRoadID(EGO):
                    # teleporting after a jam (SUMO --time-to-teleport): the ego is on no road, and
                    # ego() / the goals would read edge '' (KeyError after ~700 driving steps, issue 25)
                    v.remove(EGO)
                    raise self.ls.TraCIException("ego teleporting")
                route, idx = v.getRoute(EGO), v.getRouteIndex(EGO)
                if idx >= len(route) - 1:
                    v.setRoute(EGO, [route[-1], self.default_next(route[-1])])
            except self.ls.TraCIException:  # the ego was teleported away after a jam: bring it back
                self._ego_in = False
                self.add_ego()
        for inc in self.incidents:
            if inc.t > t + 1:
                break
            if inc.state == "scheduled" and inc.t <= t:
                self._start_incident(inc)
            elif inc.state == "active":
                self._update_incident(inc, t)

    def _start_incident(self, inc: Incident) -> None:
        ls, k = self.ls, self.incidents.index(inc)
        inc.actor = f"inc{k}"
        if inc.kind != "pedestrian" and any(o.state == "active" and o.where == inc.where and o.kind != "pedestrian"
                                            for o in self.incidents):
            # never both lanes of one street: a blocked left lane beside a stalled car closed the
            # street, and the town jammed for minutes (issue 25, calibration seeds 60-69)
            inc.state = "dropped"  # never happened: not announced as a change
            return
        try:
            if inc.kind == "pedestrian":
                into = [e for e in self.town.streets if self.town.ends[e][1] == inc.where]
                e = into[k % len(into)]
                nxt = self.town.out_edges(e).get("straight") or next(iter(self.town.out_edges(e).values()))
                ls.person.add(inc.actor, e, self.town.length[e] - 1.0)
                ls.person.appendWaitingStage(inc.actor, inc.duration, "waits at the crossing")
                ls.person.appendWalkingStage(inc.actor, [e, nxt], 20.0)
            else:
                lane = LEFT_LANE if inc.kind == "blocked_lane" else RIGHT_LANE
                pos = 0.5 * self.town.length[inc.where]
                ls.vehicle.add(inc.actor, f"r_{inc.where}", typeID="incident", departLane=str(lane),
                               departPos=f"{pos:.1f}", departSpeed="0")
                ls.vehicle.setLaneChangeMode(inc.actor, 0)
            inc.state = "active"
        except self.ls.TraCIException:
            inc.state = "dropped"

    def _update_incident(self, inc: Incident, t: float) -> None:
        ls = self.ls
        if inc.kind == "pedestrian":
            if t >= inc.t + inc.duration + 60:
                inc.state = "over"
            return
        present = inc.actor in ls.vehicle.getIDList()
        if t >= inc.t + inc.duration:
            if present:
                ls.vehicle.setSpeed(inc.actor, -1)
            inc.state = "over"
        elif present:
            ls.vehicle.setSpeed(inc.actor, 0.0)

    # ----------------------------------------------------------------- ego
    def ego(self) -> dict:
        """Ego state: ``edge``, ``lane`` (1 right, 2 left), ``pos`` and ``to_line`` (m),
        ``speed`` (m/s), ``halted`` (speed < 0.1 m/s), ``stopped`` (at a SUMO stop), ``junction``
        (the one ahead; inside a junction, that one).

        Inside a junction (an internal edge ``:B2_4``) ``junction`` was the end of the street
        after it, a block on: an ego released from its stop at the market line rolled 2 m into
        the market junction in 1 s, and the trace's place said hospital (issue 25, ``follow
        --env driving --seed 3``: a stop at t=31, an overtake at t=32, record t=33), as did the
        goal "reach the hospital" and the text "ego is inside the hospital junction"."""
        v = self.ls.vehicle
        edge = v.getRoadID(EGO)
        for _ in range(120):  # teleporting (on no road): tick brings it back on a street (see tick)
            if edge:
                break
            self.tick()
            edge = v.getRoadID(EGO) if EGO in v.getIDList() else ""
        if not edge:
            raise RuntimeError("the ego vehicle is on no road after 120 s (SUMO could not re-insert it)")
        internal = edge.startswith(":")
        lane = v.getLaneIndex(EGO)
        pos = v.getLanePosition(EGO)
        length = self.town.length.get(edge, 0.0)
        speed = v.getSpeed(EGO)
        if internal:  # SUMO names a junction's internal edges ":<junction>_<index>"
            junction = edge[1:].rsplit("_", 1)[0]
            if junction not in self.town.place:  # (never in a netgenerate grid) the next street's end
                route, idx = v.getRoute(EGO), v.getRouteIndex(EGO)
                junction = self.town.ends[route[min(idx + 1, len(route) - 1)]][1]
        else:
            junction = self.town.ends[edge][1]
        return {"edge": edge, "internal": internal, "lane": lane, "pos": pos,
                "to_line": (length - pos) if not internal else 0.0, "speed": speed,
                "halted": speed < 0.1, "stopped": bool(v.isStopped(EGO)), "junction": junction}

    def default_next(self, edge: str) -> str:
        outs = self.town.out_edges(edge)
        return outs.get("straight") or outs.get("right") or outs["left"]

    def ego_position(self) -> tuple[float, float]:
        return self.ls.vehicle.getPosition(EGO)

    # ----------------------------------------------------------------- truth
    def light(self, edge: str) -> str:
        j, idx = self._links[edge]
        return "green" if self.ls.trafficlight.getRedYellowGreenState(j)[idx] in "Gg" else "red"

    def waiting_pedestrians(self, junction: str) -> list[str]:
        p = self.ls.person
        cx, cy = self.town.xy[junction]
        out = []
        for pid in p.getIDList():
            if p.getSpeed(pid) >= 0.1 or p.getRoadID(pid).startswith(f":{junction}_c"):
                continue
            if p.getWaitingTime(pid) < PED_WAIT_S and p.getStage(pid, 0).type != 1:  # 1: a waiting stage
                continue
            x, y = p.getPosition(pid)
            if math.hypot(x - cx, y - cy) <= PED_RADIUS:
                out.append(pid)
        return out

    def crossing(self, junction: str) -> str:
        return "waiting" if self.waiting_pedestrians(junction) else "clear"

    def left_lane(self, edge: str) -> str:
        v = self.ls.vehicle
        limit = self.town.length[edge] - 30.0
        for vid in self.ls.lane.getLastStepVehicleIDs(f"{edge}_{LEFT_LANE}"):
            if vid != EGO and v.getWaitingTime(vid) >= 5.0 and v.getLanePosition(vid) < limit:
                return "blocked"
        return "free"

    def leader(self) -> tuple[str, float] | None:
        """The car ahead: ``(id, gap in m)`` of the nearest vehicle ahead of the ego in its lane
        *on the ego's own street*, at most :data:`RADIUS` m off; ``None`` when there is none (and
        inside a junction). SUMO's ``getLeader`` looks on along the route past the stop line, and
        its distance is only a minimum look-ahead: at the market line of ``follow --env driving
        --seed 3`` it gave a stalled car 68 m on, beyond the junction, and 23 overtakes in a row
        "passed" it in 1 s each with the ego still halted at the line (issue 25)."""
        v = self.ls.vehicle
        got = v.getLeader(EGO, RADIUS)
        if not got or not got[0] or got[1] > RADIUS:
            return None
        road = v.getRoadID(EGO)
        if road.startswith(":") or v.getRoadID(got[0]) != road:
            return None
        return got[0], got[1]

    def car_ahead(self) -> str:
        ld = self.leader()
        if ld is None:
            return "moving"
        v = self.ls.vehicle
        lane_len = self.ls.lane.getLength(v.getLaneID(ld[0]))
        if v.getWaitingTime(ld[0]) > 10.0 and v.getLanePosition(ld[0]) < lane_len - 30.0:
            return "stalled"
        return "moving"

    def close(self) -> None:
        if self.alive:
            self.ls.close()
            self._lost = True
