"""Continual instructions on the road: the driving world as an ExRAP house (arXiv 2509.08222).

:class:`DrivingHouse` offers what the agents of :mod:`actionable.continual` read from
``NonStationaryHouse`` - ``rooms`` (one per junction, named by its place), ``room_hops``
(Manhattan blocks), ``static_room``, ``entity()``, ``navigation_skills()``, ``distance()``,
``states_of()``, ``reset(seed, focus) -> Observation`` and ``step(skill, after_skill) ->
StepResult`` - so ExRAP, the baselines and the oracle run on SUMO unchanged. Objects (int ids):

=============  ======================  ==========================  =======================
id             entity                  states (``is``)             room
=============  ======================  ==========================  =======================
100 + k        ``light_<street>_<id>`` ``red`` / ``green``         junction street k enters
200 + k        ``left_lane_<st>_<id>`` ``blocked`` / ``free``      junction street k enters
300 + i        ``crossing_<pl>_<id>``  ``waiting`` / ``clear``     junction i
400            ``car_ahead_400``       ``stalled`` / ``moving``    wherever the ego is
65             ``agent`` (the ego)     goal states, see below      junction ahead (or in)
=============  ======================  ==========================  =======================

Observations are TEKG triples of what the ego sees (its street's left lane, its street's light
- every approach's light once within 40 m of the junction -, the crossing ahead, the car ahead, its own place / lane / motion). Skills: ``go`` (drive to a
place), ``stop_on`` (drive onto a street, halt before its line), ``yield_at`` (drive to a place,
halt, wait <= 20 s for the crossing to clear), ``keep_right`` (drive onto a street, take its
right lane), ``overtake`` (pass the halted car ahead on the ego's own street), ``wait``. Goals are
ego states: ``halted_on:<k>``, ``halted_at:<i>``, ``right_lane:<k>``, ``overtook``.

A step is executed only when its skill did what it says (the world's ``done``): a keep right
when the ego ends in the right lane of its street, an overtake when the ego got past the car or at
least moved out to pass it; otherwise ``executed`` is False and ``error`` says why, as the
world's unmet preconditions (``overtake() cannot run: no halted car ahead of the ego on ...``) or
what fell short (``change_lane(right) fell short: lane change blocked``). A skill whose ego state
already holds does nothing and is executed, as before: ``stop_on`` with the ego halted before its
street's line, ``keep_right`` with the ego in that street's right lane. A keep right or an
overtake on the ego's street keeps a stop before the line (``DrivingWorld``'s module docstring).
"""

from __future__ import annotations

import re

import numpy as np

from actionable.core.continual import Instruction, Predicate
from actionable.core.continual import Observation, Skill, StepResult
from actionable.core.errors import InputError, SimulatorError
from actionable.core.world import Action
from actionable.worlds.driving.network import RIGHT_LANE
from actionable.worlds.driving.sim import APPROACH, EGO
from actionable.worlds.driving.world import DRIVE_CAP_S
from actionable.worlds.driving.vocabulary import (ALTERNATIVES, CAR, CAR_EXECUTION, CAR_QUERY, EGO_ID,  # one-way:
                                                   DrivingVocabulary)  # vocabulary imports nothing from here

AGENT = "agent"
SETTLE_S = 60  # simulated s the ego may take to leave a junction before a street skill fails
#: mutually exclusive states for the TEKG's contradiction rule (a new ``red`` replaces a remembered
#: ``green``); handed to the agents through :data:`CONTINUAL_WORLD`'s ``exclusive``
EXCLUSIVE_PAIRS = (("red", "green"), ("waiting", "clear"), ("blocked", "free"), ("stalled", "moving"))
EXCLUSIVE = {a: b for x, y in EXCLUSIVE_PAIRS for a, b in ((x, y), (y, x))}


class DrivingHouse:
    """The driving world seen as a non-stationary house (see the module docstring).

    Args:
        world: a :class:`~actionable.worlds.driving.world.DrivingWorld`.
        level: non-stationarity ``low`` / ``medium`` / ``high``.
    """

    def __init__(self, world, level: str = "medium", network: str = "town"):
        self.world, self.level, self.network = world, level, network
        self.t, self._overtook, self.focus = 0, False, set()
        world.reset(seed=0, options={"nonstationarity": level, "scene": network})
        self._index(world.sim.town)

    def _index(self, town) -> None:
        self.town = town
        self.rooms = {1000 + i: town.place[j] for i, j in enumerate(town.junctions)}
        self._room_of_j = {j: 1000 + i for i, j in enumerate(town.junctions)}
        h = town.hops()
        self.room_hops = {self._room_of_j[a]: {self._room_of_j[b]: d for b, d in row.items()} for a, row in h.items()}
        self.class_of, self.static_room, self.street_of_node = {EGO_ID: "character", CAR: "car_ahead"}, {}, {}
        for k, e in enumerate(town.streets):
            for base, cls in ((100, "light"), (200, "left_lane")):
                self.class_of[base + k] = cls
                self.static_room[base + k] = self._room_of_j[town.ends[e][1]]
                self.street_of_node[base + k] = e
        for i, j in enumerate(town.junctions):
            self.class_of[300 + i] = "crossing"
            self.static_room[300 + i] = 1000 + i
        self.dynamic = sorted(n for n in self.class_of if n not in (EGO_ID,))
        self.switchables = self.openables = self.movables = self.surfaces = []

    # ----------------------------------------------------------------- names
    def entity(self, node: int) -> str:
        if node in self.rooms:
            return self.rooms[node]
        if node == EGO_ID:
            return AGENT
        cls = self.class_of[node]
        if node in self.street_of_node:  # the street in the name, so BM25 retrieval finds it
            return f"{cls}_{self.street_token(self.street_of_node[node])}_{node}"
        if cls == "crossing":
            return f"crossing_{self.rooms[self.static_room[node]]}_{node}"
        return f"{cls}_{node}"

    def street_token(self, e: str) -> str:
        return self.town.street_name(e).lower().replace(" the ", " ").replace(" ", "_")

    def name(self, node: int) -> str:
        """Text name: ``High Street towards the market`` / ``market`` / ``car ahead``."""
        if node in self.rooms:
            return self.rooms[node]
        if node in self.street_of_node:
            return self.town.street_name(self.street_of_node[node])
        if self.class_of.get(node) == "crossing":
            return self.rooms[self.static_room[node]]
        return "car ahead"

    def room_id(self, name: str) -> int:
        for r, n in self.rooms.items():
            if n == name:
                return r
        raise InputError(f"no place named {name!r}; places: {', '.join(sorted(self.rooms.values()))}")

    def navigation_skills(self) -> list[Skill]:
        return [Skill("go", (r,), f"drive to the {n}") for r, n in sorted(self.rooms.items())]

    # ----------------------------------------------------------------- truth
    def _ego_room(self) -> int:
        return self._room_of_j[self.world.sim.ego()["junction"]]

    def room_of(self, node: int) -> int:
        if node in self.rooms:
            return node
        return self.static_room.get(node, self._ego_room()) if node != EGO_ID else self._ego_room()

    def distance(self, a: int, b: int) -> int:
        return self.room_hops[self.room_of(a)][self.room_of(b)]

    def states_of(self, node: int) -> set[str]:
        """True states of an object from SUMO (see the module docstring for the vocabulary)."""
        sim = self.world.sim
        cls = self.class_of[node]
        if cls == "light":
            return {sim.light(self.street_of_node[node])}
        if cls == "left_lane":
            return {sim.left_lane(self.street_of_node[node])}
        if cls == "crossing":
            return {sim.crossing(self.town.junctions[node - 300])}
        if cls == "car_ahead":
            return {sim.car_ahead()}
        e = sim.ego()
        out = {"overtook"} if self._overtook else set()
        if not e["internal"]:
            k = self.town.streets.index(e["edge"])
            if e["halted"] and e["to_line"] <= APPROACH:
                out |= {f"halted_on:{k}", f"halted_at:{self.town.junctions.index(e['junction'])}"}
            if e["lane"] == RIGHT_LANE:
                out.add(f"right_lane:{k}")
        return out

    def oracle_choice(self, due: list[Instruction]) -> Instruction | None:
        """The oracle's first of several due instructions: the order that begins the most of them
        before their conditions end, from true signal programs and incident ends
        (:mod:`~actionable.worlds.driving.oracle_plan`); ``None`` (nearest first) for more than
        ``MAX_PLAN``. Only the oracle calls this."""
        from actionable.worlds.driving.oracle_plan import MAX_PLAN, holds_at, plan_first, remaining_s, route_leg
        from actionable.worlds.driving.sim import LEVELS

        if len(due) > MAX_PLAN:
            return None
        rem = {id(i): remaining_s(self, i) for i in due}
        leg = None if self.world.sim.ego()["internal"] else (lambda pos, t, ins: route_leg(self, pos, t, ins))
        return plan_first(due, self.room_of, lambda a, b: self.room_hops[a][b], self._ego_room(), rem,
                          LEVELS[self.level].cycle, leg=leg,
                          holds=lambda ins, t: holds_at(self, ins, t, rem[id(ins)]))

    def placement(self, node):  # no movable objects on the road
        return None

    def holder_of(self, node):
        return None

    # ----------------------------------------------------------------- episode
    def reset(self, seed: int = 0, focus: set[int] | None = None) -> Observation:
        """Restart SUMO with ``seed``; incidents prefer the streets / places of ``focus`` nodes."""
        places = set()
        for n in focus or ():
            if n in self.street_of_node:
                places.add(self.street_of_node[n])
            elif self.class_of.get(n) == "crossing":
                places.add(self.town.junctions[n - 300])
        self.world.reset(seed=seed, options={"nonstationarity": self.level, "scene": self.network,
                                             "focus": sorted(places)})
        self.t, self._overtook, self.seed = 0, False, seed
        return self.observe()

    def observe(self) -> Observation:
        """TEKG triples of what the ego sees now (partial observation)."""
        sim = self.world.sim
        e = sim.ego()
        room = self.rooms[self._ego_room()]
        facts = [(AGENT, "in_room", room), (AGENT, "is", "halted" if e["halted"] else "driving"),
                 (AGENT, "in_lane", "right" if e["lane"] == RIGHT_LANE else "left")]
        if not e["internal"]:
            k = self.town.streets.index(e["edge"])
            tok = self.street_token(e["edge"])
            facts.append((AGENT, "on_street", tok))
            seen = [(200 + k, sim.left_lane(e["edge"]))]
            # at the junction (<= 40 m) the ego sees the signals of every approach, else its own
            into = [x for x in self.town.streets if self.town.ends[x][1] == e["junction"]] \
                if e["to_line"] <= APPROACH else [e["edge"]]
            seen += [(100 + self.town.streets.index(x), sim.light(x)) for x in into]
            for node, value in seen:
                ent = self.entity(node)
                facts += [(ent, "is", value), (ent, "in_room", room)]
        i = self.town.junctions.index(e["junction"])
        facts += [(self.entity(300 + i), "is", sim.crossing(e["junction"])), (self.entity(300 + i), "in_room", room),
                  (self.entity(CAR), "is", sim.car_ahead())]
        # the ego knows its own goal states (halted before the line of street k, at place i, in the
        # right lane of k): without them a stop at a red light was never seen done, and ExRAP
        # stopped again every step while the light stayed red (issue 25, a new user's check)
        facts += [(AGENT, "is", s) for s in sorted(self.states_of(EGO_ID)) if s != "overtook"]
        return Observation(self.t, room, facts)

    def skill_effect(self, skill: Skill) -> tuple[str, str, str] | None:
        """The ego state a street skill makes true, as :meth:`observe` reports it (the
        :class:`~actionable.core.continual.ContinualHouse` hook); ``None`` for moves, waits and
        overtakes (an overtake is over when it is done)."""
        state = {"stop_on": ("halted_on", 100), "keep_right": ("right_lane", 200), "yield_at": ("halted_at", 300)}
        if skill.kind not in state:
            return None
        name, base = state[skill.kind]  # node ids: 100 + street k, 200 + street k, 300 + place i
        return (AGENT, "is", f"{name}:{skill.args[0] - base}")

    def _do(self, name: str, *args: str) -> tuple[bool, str | None]:
        """Run one world skill: ``(True, None)`` when it did what it says; otherwise False and why
        (its unmet preconditions, or what it did instead: ``change_lane(right) fell short: lane
        change blocked``). A skill that ran but fell short used to count as executed: "overtake
        the car ahead" and "keep right" reported success with the ego still halted in its lane
        (issue 25, ``follow --env driving --seed 3``)."""
        act = Action(name, tuple(args))
        _, _, _, _, info = self.world.step(act)
        if info["executed"] and not info["done"]:
            return False, f"{self.world.format(act)} fell short: {info['outcome']}"
        return info["executed"], info["error"]

    def _hold(self) -> tuple[bool, str | None]:
        """Wait in place: halt first when moving (or roll on when that is impossible)."""
        for name in ("wait", "stop", "slow_down", "drive_to_next_junction", "go_straight", "turn_right", "turn_left"):
            if not self.world.preconditions(Action(name)):
                return self._do(name)
        return False, "no way to wait here"

    def _settle(self, cap: int = SETTLE_S) -> bool:
        """Let the ego roll off the junction's internal edges (``:A1_7``), at most ``cap`` simulated
        s; True when it is on a street. A vehicle waiting inside a junction to turn left can stay
        there for many ticks (issue 25: one tick was not enough, and ``route`` then got an internal
        edge and raised KeyError at t=15 of ``follow --env driving --steps 30``)."""
        sim = self.world.sim
        for _ in range(cap):
            if not sim.ego()["internal"]:
                return True
            sim.tick()
        return not sim.ego()["internal"]

    def _onto(self, street: str, lane: int | None = None) -> str | None:
        """Drive onto ``street`` (with ``lane``: ending once in that lane there, see
        ``DrivingWorld.drive_along``); an error text (the skill fails, the episode goes on) when the
        ego cannot leave the junction it is in or cannot reach the street within ``DRIVE_CAP_S`` s."""
        if not self._settle():
            return f"still inside the {self.rooms[self._ego_room()]} junction after {SETTLE_S} s"
        e = self.world.sim.ego()
        if e["edge"] != street:
            try:
                seq = self.world.route_from_ego(to_edge=street)
            except KeyError:
                return f"no route from {self.town.street_name(e['edge'])} to {self.town.street_name(street)}"
            self.world.drive_along(seq, DRIVE_CAP_S, lane)
            if self.world.sim.ego()["edge"] != street:
                return f"could not reach {self.town.street_name(street)} in time"
        return None

    def step(self, skill: Skill, after_skill=None) -> StepResult:
        """Run one skill (see the module docstring); ``after_skill()`` is called right after it."""
        if self.world.sim is None:
            raise SimulatorError("DrivingHouse.step called before reset(); call reset(seed=...) first")
        sim = self.world.sim
        before = {i.actor for i in sim.incidents if i.happened}
        self._overtook = False
        ok, err, k = True, None, skill.kind
        t_start = sim.now()
        self._settle()  # every skill starts on a street (a skill cannot be begun inside a junction)
        if k == "go":
            place = self.rooms[skill.args[0]]
            ok, err = self._do("drive_to", place) if self.rooms[self._ego_room()] != place else self._hold()
        elif k in ("stop_on", "keep_right"):
            street = self.street_of_node[skill.args[0]]
            err = self._onto(street, RIGHT_LANE if k == "keep_right" else None)
            e = sim.ego()
            if err is None and k == "keep_right" and e["lane"] != RIGHT_LANE and e["to_line"] > APPROACH:
                self.world.drive_along([], 90, RIGHT_LANE)  # already on the street: move over on the way
            if err is None and k == "stop_on":
                if sim.ego()["to_line"] > APPROACH:  # halted (or slow) far from the line: drive up first
                    self.world.drive_along([], 90)
                ok, err = self._do("stop") if not sim.ego()["halted"] else (True, None)
            elif err is None and sim.ego()["lane"] != RIGHT_LANE:
                ok, err = self._do("change_lane", "right")  # held before the line, it stays held there
            ok = ok and err is None
            e = sim.ego()
            if ok and k == "keep_right" and (e["edge"] != street or e["lane"] != RIGHT_LANE):
                # (already in the right lane of the street: the state holds, as for stop_on halted)
                ok, err = False, (f"ego ended in the left lane of {self.town.street_name(street)}"
                                  if e["edge"] == street else f"ego left {self.town.street_name(street)}")
        elif k == "yield_at":
            place = self.rooms[self.static_room[skill.args[0]]]
            if self.rooms[self._ego_room()] != place:
                ok, err = self._do("drive_to", place)
            if ok and not sim.ego()["halted"]:
                ok, err = self._do("stop")
            j = self.town.junction_of[place]
            for _ in range(20):
                if not ok or sim.crossing(j) == "clear":
                    break
                sim.tick()
        elif k == "overtake":  # a halted car ahead on the ego's own street (DrivingWorld._overtake)
            ok, err = self._do("overtake")
            self._overtook = ok
        elif k == "wait":
            ok, err = self._hold()
        else:
            raise SimulatorError(f"unknown driving skill {k!r}; use go, stop_on, yield_at, keep_right, overtake, wait")
        if sim.now() == t_start:
            sim.tick()  # a skill takes time: a step that ran no tick would freeze the world (issue 25)
        if after_skill is not None:
            after_skill()
        self.t += 1
        return StepResult(self.observe(), ok, err, [skill.text], self._announce(
            [i for i in sim.incidents if i.happened and i.actor not in before]))

    def _announce(self, new) -> list[str]:
        """The incidents placed during one step, in the road's words ("a stalled car at High
        Street"); one that already ended within the step says so, and one text said by several
        incidents is said once with its count (a long drive can see two alike in turn)."""
        texts = []
        for i in new:
            where = self.town.street_name(i.where) if i.where in self.town.ends else self.town.place[i.where]
            texts.append(f"a {i.kind.replace('_', ' ')} at {where}" + (" (already cleared)" if i.state == "over" else ""))
        return [t if texts.count(t) == 1 else f"{t} (x{texts.count(t)})" for t in dict.fromkeys(texts)]


# ----------------------------------------------------------------------------- instructions
#: (id, surface form, canonical query, canonical execution, slot: E street | P place | - none)
TEMPLATES = [
    ("red_stop", "If the light on {E} is red, stop before the line.", "light on {E} is red", "stop on {E}", "E"),
    ("red_stop_when", "When the light on {E} turns red, stop before the line.", "light on {E} is red", "stop on {E}", "E"),
    ("ped_yield", "If a pedestrian is waiting at the crossing at the {P}, yield.",
     "pedestrian is waiting at the crossing at the {P}", "yield at the {P}", "P"),
    ("ped_yield_any", "Whenever someone waits at the crossing at the {P}, yield to them.",
     "pedestrian is waiting at the crossing at the {P}", "yield at the {P}", "P"),
    ("blocked_right", "If the left lane of {E} is blocked, change to the right lane.",
     "left lane of {E} is blocked", "keep right on {E}", "E"),
    ("blocked_keep_right", "When the left lane of {E} is blocked, keep to the right lane there.",
     "left lane of {E} is blocked", "keep right on {E}", "E"),
    ("stalled_overtake", "If the car ahead stops for more than 10 s, overtake it.", "car ahead is stalled",
     "overtake the car ahead", "-"),
]

_Q = [(re.compile(r"^(?:the )?light on (?P<x>.+?) (?:is|turns) red$"), "light"),
      (re.compile(r"^(?:a )?(?:pedestrian|someone) (?:is waiting|waits) at the crossing at (?:the )?(?P<x>[a-z]+)$"), "crossing"),
      (re.compile(r"^(?:the )?left lane of (?P<x>.+?) is blocked$"), "left_lane"),
      (re.compile(r"^the car ahead (?:is stalled|has stopped|is stopped|is halted)$"), "car")]


#: what each condition's action may say (the rule reader derives the skill from the condition, so
#: an action it would not do is refused instead of being replaced: "..., turn left." was read as a stop)
_ACTIONS = {
    "light": (re.compile(r"^(?:stop|halt)(?: before the (?:stop )?line| at the (?:stop )?line)?(?: there)?$"),
              "stop before the line"),
    "crossing": (re.compile(r"^(?:stop and )?(?:yield|give way|let (?:them|him|her) cross)(?: to (?:them|him|her|the pedestrian))?$"),
                 "yield"),
    "left_lane": (re.compile(r"^(?:change|move|switch|keep)(?: over)? (?:to|into|in) the right lane(?: there)?$|^keep right(?: there)?$"),
                  "change to the right lane"),
    "car": (re.compile(r"^(?:overtake|pass)(?: it| the car(?: ahead)?| them)?$"), "overtake it"),
}


def _check_action(action: str, kind: str, text: str) -> None:
    rx, canonical = _ACTIONS[kind]
    a = re.sub(r"\s+", " ", action.strip().rstrip(".!").strip())
    if not rx.match(a):
        what = {"light": "a red light", "crossing": "a waiting pedestrian", "left_lane": "a blocked left lane",
                "car": "a stalled car ahead"}[kind]
        raise InputError(f"cannot read the action {a!r} in {text!r}: for {what} the driving world does "
                         f"'{canonical}' and no other action (write e.g. '..., {canonical}.')")


def parse_driving(text: str, house: DrivingHouse) -> Instruction:
    """Rule reading of a driving instruction (the template phrasings and the canonical clauses).

    Raises:
        InputError: unknown phrasing, street or place (the message lists what exists).
    """
    m = re.match(r"^(?:if|when|whenever)\s+(?P<q>.+?),\s*(?P<e>.+?)\.?$", text.strip().lower())
    if not m:
        raise InputError(f"cannot read {text!r}; write e.g. 'If the light on High Street towards the market is red, "
                         "stop before the line.'")
    q = m["q"].replace("someone waits", "a pedestrian is waiting").replace("car ahead stops", "car ahead is stalled")
    if re.search(r"\b(?:and|or|but|unless|while)\b", q):
        raise InputError(f"cannot read the condition {m['q']!r}: one condition per instruction (write each on "
                         "its own line)")
    dur = re.search(r"\s+for\s+(.+)$", q)
    if dur:
        if "car ahead" not in q:
            raise InputError(f"cannot read the condition {m['q']!r}: only the car-ahead condition has a duration "
                             "(10 s); a light, a crossing or a lane counts as soon as it holds")
        if not re.fullmatch(r"(?:more than |over )?10 ?(?:s|sec|secs|seconds)", dur[1].strip()):
            raise InputError(f"cannot read the condition {m['q']!r}: the car ahead counts as stalled after 10 s "
                             "(write 'If the car ahead stops for more than 10 s, overtake it.')")
        q = q[:dur.start()].strip()
    for rx, kind in _Q:
        mm = rx.match(q if kind != "car" else "the " + q.removeprefix("the "))
        if not mm:
            continue
        _check_action(m["e"], kind, text)
        if kind == "car":
            q_text, e_text = CAR_QUERY, CAR_EXECUTION
        elif kind == "crossing":
            place = house.rooms[house.room_id(mm["x"])]  # InputError naming the places when there is none
            q_text, e_text = f"pedestrian is waiting at the crossing at the {place}", f"yield at the {place}"
        else:
            try:
                name = house.town.street_name(house.town.street_of(mm["x"]))
            except KeyError:
                raise InputError(f"no street {mm['x']!r}; streets look like "
                                 f"{house.town.street_name(house.town.streets[0])!r}") from None
            q_text, e_text = ((f"light on {name} is red", f"stop on {name}") if kind == "light"
                              else (f"left lane of {name} is blocked", f"keep right on {name}"))
        # the canonical clauses, read by the one parser of the town's clauses (the LM reading's too)
        vocab = DrivingVocabulary(house, None)
        skills, goal = vocab.parse_execution(e_text)
        return Instruction(text, vocab.parse_condition(q_text), goal, skills, q_text, e_text)
    raise InputError(f"cannot read the condition {m['q']!r}; conditions: a light is red, a pedestrian is waiting at a "
                     "crossing, a left lane is blocked, the car ahead stops for more than 10 s")


def sample_driving_instructions(house: DrivingHouse, n: int, seed: int) -> list[Instruction]:
    """Draw ``n`` (1..12) instructions from :data:`TEMPLATES` with distinct streets / places;
    the car-ahead template at most once. Raises InputError for another ``n``."""
    if not 1 <= n <= 12:
        raise InputError(f"instruction set size must be 1..12 (got {n})")
    rng = np.random.default_rng([seed, 7841])
    out, used, car = [], set(), False
    while len(out) < n:
        tid, surface, _, _, slot = TEMPLATES[int(rng.integers(len(TEMPLATES)))]
        if slot == "-":
            if car:
                continue
            car = True
            ins = parse_driving(surface, house)
            ins.template = tid  # (was left "user": the car template's episodes were not told apart)
            out.append(ins)
            continue
        pool = house.town.streets if slot == "E" else house.town.junctions
        x = pool[int(rng.integers(len(pool)))]
        if x in used:
            continue
        used.add(x)
        name = house.town.street_name(x) if slot == "E" else house.town.place[x]
        ins = parse_driving(surface.format(E=name, P=name), house)
        ins.template = tid
        out.append(ins)
    return out


def load_driving_instructions(path, house: DrivingHouse) -> list[Instruction]:
    """Read driving instructions: the JSON that ``--save-instructions`` writes, or a text file with
    one ``If <condition>, <action>.`` per line (``#`` comments).

    Raises:
        InputError: missing/unreadable file, bad JSON, unreadable line (with its number).
    """
    from actionable.core.continual import read_instructions_file

    def line(text):
        return parse_driving(text, house)

    return read_instructions_file(path, line)


# ----------------------------------------------------------------------------- the continual world
def _make_house(scene: str, level: str) -> DrivingHouse:
    from actionable.worlds.driving.world import DrivingWorld

    _check_scene(scene)
    return DrivingHouse(DrivingWorld(scene, level), level, scene)


def _check_scene(scene: str) -> None:
    from actionable.worlds.driving.network import NETWORKS
    from actionable.worlds.driving.sumo import require_sumo

    if scene not in NETWORKS:
        from actionable.core.errors import UnknownSceneError
        raise UnknownSceneError(f"unknown road network {scene!r}; networks: {', '.join(NETWORKS)}")
    require_sumo()


def _describe(level: str) -> str:
    from actionable.worlds.driving.sim import LEVELS

    lv = LEVELS.get(level)
    if lv is None:
        from actionable.core.errors import ConfigError
        raise ConfigError(f"unknown non-stationarity {level!r}; use low, medium or high")
    return (f"a vehicle every {lv.vehicle_period:g} s, light cycle {lv.cycle} s, "
            f"an incident every {lv.incident_period} s")


def _vocabulary(house):
    from actionable.worlds.driving.vocabulary import DrivingVocabulary

    return DrivingVocabulary(house, lambda text: parse_driving(text, house))


def _load_world():
    from actionable.core.continual import ContinualWorld

    return ContinualWorld(
        name="driving", scene="town", make_house=_make_house, sample=sample_driving_instructions,
        load=load_driving_instructions, interpret=None, vocabulary=_vocabulary, exclusive=EXCLUSIVE_PAIRS,
        check_scene=_check_scene, describe=_describe, lm_interpreter=True, max_instructions=12,
        step_extras=lambda house: {"sim_time": house.world.sim.now()},
        episode_extras=lambda house: {"sim_seconds": house.world.sim.now()},
        description="Eclipse SUMO town (needs the [driving] extra); instructions read by the LM, rules as fallback",
        changes_label="new on the road")


#: the driving world as a continual world (``--env driving``; :mod:`actionable.continual.worlds`)
CONTINUAL_WORLD = _load_world()
