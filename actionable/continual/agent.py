"""The ExRAP agent: exploration-exploitation skill choice over a TEKG memory.

At each step ``t`` (ExRAP Sec. 3, Algorithm 1):

1. the observation is merged into the TEKG (Eq. 2-3, :mod:`.tekg`);
2. every instruction's query gets ``P_t(q)`` (Eq. 5-7, :mod:`.query`), then a
   **staleness prior** pulls it towards 0.5 with the age ``a`` of the newest
   retrieved quadruple: ``P <- 0.5 + (P - 0.5) exp(-a / tau)``. This is our
   addition (documented in docs/continual.md): the paper's large LM reads the
   timestamps and grows uncertain by itself; a 135M model does not;
3. an execution is *pending* when ``P_t(q) > theta`` (0.5) and memory does not
   already show its effect; a skill whose effect is not an observable triple
   (the driving world's ``yield_at``, ``stop_on``, ...) is not pending again until
   memory holds a fact about the query's objects newer than its last run (the
   agent looks again before repeating it);
4. each candidate skill ``z`` (go to each room, plus pending executions) gets
   - ``v_T(z)``: the LM's summed log-prob of the skill text given the pending
     executions and a demonstration (Eq. 9; one ``score`` call per step, none
     when nothing is pending),
   - ``v_R(z) = sum_q H(P_t(q)) max(0, 1 - d_after(z) / d_now)`` (Eq. 11), with ``d``
     the mean graph distance (room hops + 1) from the agent to ``q``'s *targets*:
     the objects the interpreted query is about (its predicates' entities, Eq. 4),
     placed by memory's ``in_room`` belief, else the house's static map;
     without predicates, the entities of ``q``'s retrieved quadruples that the
     query names (else the rooms it names);
5. the skill is ``argmax_z w_T v_T(z) + w_R v_R(z)`` (Eq. 12; w_T = 0.01, w_R = 1).

Value scales (issue 25 item 3, ``values="normalised"``, the default): the paper's Table A.4
weights only balance when ``w_T v_T`` and ``w_R v_R`` share a range. Raw, v_T is a summed log-prob
(-12 to -17 nats for SmolLM2-135M) and only its *differences* matter, so exploitation moved the
total by 0.01 x a few nats, less than any exploration gain: the agent never carried out an
instruction it knew was due (kitchen: "bread is on the counter" believed at 1.00 for 30 steps).
We therefore read Eq. 9 as the LM's *choice probability* over the candidate skills, in percent:
``v_T(z) = 100 softmax_z(log P(z | pending))`` in [0, 100], so ``w_T v_T`` in [0, 1]; and Eq. 11 as
the *mean* over the instructions of the information gain with H in bits:
``v_R(z) = (1/|Q|) sum_q H_2(P_t(q)) max(0, 1 - d_after/d_now)`` in [0, 1]. No weight was tuned:
w_T = 0.01 and w_R = 1 are the paper's. ``values="raw"`` keeps the old scales (before/after
tests and benchmarks).

Deviation (documented in docs/continual.md): the Eq. 11 term is clipped at 0.
Information gain cannot be negative; unclipped, leaving a room whose objects
the LM is still unsure about costs up to ``-3 H`` per query in this house, and
no pending execution elsewhere can win at ``w_T = 0.01`` (measured: the agent
stood still for 14 steps with an execution pending).

Fix (issue 13 item 5, measured in ``benchmarks/bench_exploration.py``): the targets
used to be taken from the retrieved quadruples only. Retrieval is by text similarity,
so for "light in the home office is on" with the home office never visited it
returns the *lights already seen* in the bedroom and dining room; d then pointed at
rooms the agent had just left, the home office never had any v_R, and the agent
alternated between two rooms (``targets="retrieved"`` keeps that rule for the
before/after benchmark). The staleness age is likewise taken from the retrieved
quadruples *about the query's own objects* (a fresh look at another light no longer
keeps an old belief about this one young).

Fix (issue 25, the driving loop; ``looks="ignored"`` keeps the old rule): Eq. 11 took a visit to a
target's believed room as a look that sees it. In the driving world a street's left lane is placed
at the junction the street enters but is seen only from that street, so a visit by another street
saw nothing, the belief stayed at the 0.5 prior (H = 1 bit) and the next step pulled the agent
straight back: A-B-A-B for 40-60 steps between two such places, never looking anywhere else
(calibration seed 65). Now a target the agent stood in the believed room of without observing it
is a *missed look*; its weight in the gain is ``1 - exp(-age / staleness_tau)`` (age = steps since
that look; seen again, the record goes), so a look goes stale as fast as a fact does and the agent
tries again later, perhaps from another side. No new weight: tau is the staleness prior's. In a
house where the agent sees its whole room a missed look only happens when the object has left
the room (memory then falls back on the static map): a 40-step VirtualHome run (seed 61, high)
chose the same skills as before.

Ablations: ``temporal_consistency=False`` (ExRAP-TC), ``explore="fixed"``
(ExRAP-EXP: visit rooms in a fixed cycle instead of v_R) and ``explore="llm"``
(ExRAP-LLM: the LM scores the go-to skills instead of v_R); both exploit
(v_R = 0) while an execution is pending.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from actionable.continual.query import QueryEvaluator, entropy
from actionable.lm.choice import scoring
from actionable.continual.tekg import TEKG, tokenize
from actionable.core.continual import ContinualHouse, AGENT, Observation, Skill


class ExRAPConfig(BaseModel):
    """Hyper-parameters of ExRAP (defaults from the paper where it gives them)."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
    k: int = Field(12, ge=1, le=100, description="quadruples retrieved per query")
    relevance: float = Field(0.5, ge=0.0, le=1.0,
                             description="retrieval cut-off: keep quadruples scoring >= relevance x the best")
    theta: float = Field(0.5, ge=0.0, le=1.0, description="execution threshold on P(q)")
    w_t: float = Field(0.01, ge=0.0, description="weight of v_T (Eq. 12)")
    w_r: float = Field(1.0, ge=0.0, description="weight of v_R (Eq. 12)")
    query_mode: str = Field("logprob", pattern="^(logprob|sample)$")
    answer: str = Field("cloze", pattern="^(cloze|yesno)$")
    samples: int = Field(10, ge=1, le=64)
    temporal_consistency: bool = True
    reuse: bool = True
    staleness_tau: float = Field(12.0, gt=0.0, description="steps; 1e9 disables the prior")
    explore: str = Field("info_gain", pattern="^(info_gain|fixed|llm)$")
    values: str = Field("normalised", pattern="^(normalised|raw)$",
                        description="Eq. 11-12 value scales: normalised (v_T the LM's choice probability "
                                    "over the candidates in percent, 0..100; v_R the mean over queries of "
                                    "H in bits x the distance gain, 0..1) or raw (before issue 25: v_T the "
                                    "summed log-prob in nats, v_R the sum over queries of H in nats x gain)")
    targets: str = Field("query", pattern="^(query|retrieved)$",
                         description="Eq. 11 targets: the query's own objects (query) or, as before "
                                     "issue 13 item 5, the query-named entities of the retrieved quadruples")
    cloze_context: str = Field("object", pattern="^(object|retrieved)$",
                               description="what a cloze query prompt shows: the retrieved quadruples about "
                                           "the asked object (object) or, as before the 6-room distractor "
                                           "fix, every retrieved quadruple (retrieved)")
    looks: str = Field("counted", pattern="^(counted|ignored)$",
                       description="Eq. 11 and looks that missed: counted (a target the agent looked for from "
                                   "its believed room without seeing it weighs 1 - exp(-age / staleness_tau) "
                                   "in the information gain, age = steps since that look) or ignored (before "
                                   "issue 25's driving loop: a visit always counted as a look that would see it)")


@dataclass
class Decision:
    """What the agent chose at one step and why (for the live trace)."""

    skill: Skill
    why: str
    beliefs: dict[str, float] = field(default_factory=dict)
    values: dict[str, float] = field(default_factory=dict)


def skill_effect(skill: Skill, house: ContinualHouse) -> tuple[str, str, str] | None:
    """The triple a manipulation skill makes true (domain knowledge of skills); a house that
    defines ``skill_effect`` (:class:`~actionable.core.continual.ContinualHouse`) names the effects
    of its own skill kinds."""
    own = getattr(house, "skill_effect", None)
    if own is not None:
        got = own(skill)
        if got is not None:
            return got
    eff = {"switch_on": "on", "switch_off": "off", "open": "open", "close": "closed"}
    if skill.kind in eff:
        return (house.entity(skill.args[0]), "is", eff[skill.kind])
    if skill.kind == "move_onto":
        return (house.entity(skill.args[0]), "on", house.entity(skill.args[1]))
    return None


def query_entities(task: Task) -> list[str]:
    """The objects an interpreted query is about (Eq. 11's targets): every predicate's source
    entity and, for a relation to another object (``napkin on counter``), that object too.
    Rooms (``in_room`` values) and states are not objects. Empty when the task has no predicates."""
    out: list[str] = []
    for src, rel, value, _alts in task.facts:
        for e in (src, value if rel not in ("is", "in_room") else None):
            if e and e != AGENT and e not in out:
                out.append(e)
    return out


_ENT_RE = re.compile(r"^[a-z_\-]+_(\d+)$")
_STATE_WORDS = {"on", "off", "open", "closed", "still"}


class MemoryAgentBase:
    """Shared plumbing: TEKG memory, static map of the house, entity rooms."""

    name = "base"

    def reset(self, tasks: list[Task], house: ContinualHouse, exclusive=None) -> None:
        """Start an episode. ``exclusive``: the world's mutually exclusive state pairs for the
        TEKG's contradiction rule (``None``: on/off, open/closed)."""
        self.tasks, self.house, self.exclusive = tasks, house, exclusive
        self.memory = TEKG(exclusive=exclusive)
        self.lm_calls = 0
        self.room_names = {v: k for k, v in house.rooms.items()}

    def entity_room(self, ent: str) -> int | None:
        """Believed room of an entity: a room itself, memory's ``in_room``, or the map."""
        if ent in self.room_names:
            return self.room_names[ent]
        for q in self.memory.about(ent):
            if q.relation == "in_room" and q.target in self.room_names:
                return self.room_names[q.target]
        m = _ENT_RE.match(ent)
        if m:
            return self.house.static_room.get(int(m.group(1)))
        return None

    def skill_room(self, skill: Skill, here: int) -> int:
        if skill.kind == "wait" or not skill.args:
            return here
        target = skill.args[-1] if skill.kind == "move_onto" else skill.args[0]
        room = self.entity_room(self.house.entity(target))
        return here if room is None else room

    def believed(self, triple) -> bool:
        return any(q.triple == triple for q in self.memory.about(triple[0]))


class ExRAPAgent(MemoryAgentBase):
    """ExRAP (see module docstring).

    Args:
        lm: a :class:`~actionable.lm.base.LanguageModel` (``score`` needed for
            ``query_mode="logprob"`` and for v_T).
        config: :class:`ExRAPConfig`.
    """

    def __init__(self, lm, config: ExRAPConfig | None = None, name: str = "exrap"):
        self.lm, self.config, self.name = scoring(lm), config or ExRAPConfig(), name

    def reset(self, tasks: list[Task], house: ContinualHouse, exclusive=None) -> None:
        super().reset(tasks, house, exclusive)
        c = self.config
        self.evaluator = QueryEvaluator(self.lm, mode=c.query_mode, k=c.k, samples=c.samples,
                                        temporal_consistency=c.temporal_consistency, reuse=c.reuse,
                                        answer=c.answer, min_ratio=c.relevance, context=c.cloze_context)
        self._cycle = 0
        self._ran: dict[str, int] = {}  # execution text -> step it was last chosen
        self._missed: dict[str, int] = {}  # target entity -> step of the last look at its room that did not see it

    @property
    def stats(self) -> dict:
        s = self.evaluator.stats
        return {"query_evaluations": s.evaluations, "query_reused": s.reused,
                "reuse_rate": s.reuse_rate, "query_lm_calls": s.lm_calls,
                "inconsistent": s.inconsistent, "lm_calls": s.lm_calls + self.lm_calls}

    def _retrieved_targets(self, task: Task, got) -> list[str]:
        """Entities of the retrieved subgraph that the query names; without any, the rooms it
        names (the Eq. 11 targets before issue 13 item 5, and the fallback without predicates)."""
        qtok = set(tokenize(task.query)) - _STATE_WORDS
        named = [q.source for q in got if q.source != AGENT and set(tokenize(q.source)) & qtok]
        return named or [name for name in self.room_names if name.replace("_", " ") in task.query]

    def _distance(self, ents: list[str], room: int) -> float:
        rooms = [r for r in (self.entity_room(e) for e in ents) if r is not None]
        if not rooms:
            return 1.0
        return sum(self.house.room_hops[room][r] + 1 for r in rooms) / len(rooms)

    def act(self, obs: Observation, t: int) -> Decision:
        self.memory.update(obs.facts, t, obs.room)
        here = self.room_names[obs.room]
        beliefs, ents, pending = {}, {}, []
        for task in self.tasks:
            p, got, how = self.evaluator.evaluate(task.query, self.memory, t, task.facts)
            own = query_entities(task) if self.config.targets == "query" else []
            seen_t = -1  # step of the newest retrieved fact about the query's objects
            if got:
                mine = [q for q in got if q.source in own] or got
                seen_t = max(q.t for q in mine)
                p = 0.5 + (p - 0.5) * math.exp(-(t - seen_t) / self.config.staleness_tau)
            ents[task.query] = own or self._retrieved_targets(task, got)
            beliefs[task.query] = p
            if p > self.config.theta:
                for z in task.execution:
                    eff = skill_effect(z, self.house)
                    if eff is not None and self.believed(eff):
                        continue  # memory shows the effect
                    if eff is None and self._ran.get(z.text, -1) >= seen_t:
                        continue  # no observable effect: ran since the last look, look again first
                    pending.append((task, z))
        self._count_looks(obs, ents, here, t)
        cands: list[Skill] = list(self.house.navigation_skills())
        cands += [z for _, z in pending if z not in cands]
        v_t = self._exploit(cands, pending)
        v_r = self._explore(cands, beliefs, ents, here, bool(pending), t)
        total = {z.text: self.config.w_t * v_t.get(z.text, 0.0) + self.config.w_r * v_r[z.text]
                 for z in cands}
        best = max(cands, key=lambda z: (round(total[z.text], 9), z in [p[1] for p in pending]))
        why = (f"argmax w_T*v_T + w_R*v_R = {total[best.text]:+.3f} "
               f"(v_T {v_t.get(best.text, 0.0):+.2f}, v_R {v_r[best.text]:+.3f}); "
               f"{len(pending)} pending"
               + (f"; {len(self._missed)} target(s) not seen at the last look from their room"
                  if self._missed and self.config.looks == "counted" else "")
               + {"fixed": "; v_R = 1 for the next room of the fixed cycle (ExRAP-EXP)",
                  "llm": "; v_R = the LM's probability of each move (ExRAP-LLM)"}.get(self.config.explore, ""))
        if any(best == z for _, z in pending):
            self._ran[best.text] = t
        return Decision(best, why, beliefs, total)

    def _exploit(self, cands: list[Skill], pending) -> dict[str, float]:
        """v_T (Eq. 9): summed log-prob of each candidate given the pending executions."""
        if not pending:
            return {}
        todo = "\n".join(f"- {z.text} (because: {task.text})" for task, z in pending)
        prompt = ("You are a home robot. Example: pending task 'switch off the light in the bedroom' "
                  "-> next skill: switch off the light in the bedroom\n"
                  f"Pending tasks:\n{todo}\nNext skill:")
        self.lm_calls += 1
        scores = self.lm.score(prompt, [" " + z.text for z in cands])
        if self.config.values == "raw":
            return {z.text: s for z, s in zip(cands, scores)}
        m = max(scores)
        ex = [math.exp(s - m) for s in scores]
        tot = sum(ex)
        return {z.text: 100.0 * e / tot for z, e in zip(cands, ex)}

    def _count_looks(self, obs: Observation, ents: dict[str, list[str]], here: int, t: int) -> None:
        """Remember looks that missed (issue 25): a target the agent stands in the believed room of
        but did not observe this step. Seen again, anywhere, it is forgotten."""
        seen = {f[0] for f in obs.facts}
        for e in {e for es in ents.values() for e in es}:
            if e in seen:
                self._missed.pop(e, None)
            elif self.entity_room(e) == here:
                self._missed[e] = t

    def _observability(self, ents: list[str], t: int) -> float:
        """How likely a look from the targets' believed rooms sees them: the mean over the targets
        of ``1 - exp(-age / staleness_tau)`` for one whose last look there missed ``age`` steps ago,
        1 for the others (a missed look goes stale as fast as an observed fact)."""
        if self.config.looks == "ignored" or not ents:
            return 1.0
        tau = self.config.staleness_tau
        return sum(1.0 - math.exp(-(t - self._missed[e]) / tau) if e in self._missed else 1.0
                   for e in ents) / len(ents)

    def _explore(self, cands, beliefs, ents, here, pending: bool = False, t: int = 0) -> dict[str, float]:
        mode = self.config.explore
        if mode in ("fixed", "llm") and pending:
            # the ablations replace exploration, not exploitation: with an execution pending
            # they exploit (v_R = 0 for every skill, so v_T decides). Without this gate their
            # move values (1, or a probability) always beat 0.01 v_T and no execution ever ran.
            return {z.text: 0.0 for z in cands}
        if mode == "fixed":
            rooms = sorted(self.house.rooms)
            nxt = rooms[(rooms.index(here) + 1) % len(rooms)]
            return {z.text: (1.0 if (z.kind == "go" and z.args[0] == nxt) else 0.0) for z in cands}
        if mode == "llm":
            qs = "; ".join(beliefs)
            prompt = (f"You are a home robot watching for: {qs}. You are in the "
                      f"{self.house.rooms[here].replace('_', ' ')}. To check on them, the next place to go:")
            self.lm_calls += 1
            nav = [z for z in cands if z.kind == "go" and z.args[0] != here]  # staying is not exploring
            sc = self.lm.score(prompt, [" " + z.text for z in nav])
            m = max(sc)
            z_sum = sum(math.exp(s - m) for s in sc)
            probs = {z.text: math.exp(s - m) / z_sum for z, s in zip(nav, sc)}
            return {z.text: probs.get(z.text, 0.0) for z in cands}
        raw = self.config.values == "raw"
        scale = 1.0 if raw else 1.0 / (math.log(2.0) * max(1, len(beliefs)))  # nats -> bits, mean over q
        seeable = {q: self._observability(ents[q], t) for q in beliefs}
        out = {}
        for z in cands:
            after = self.skill_room(z, here)
            v = 0.0
            for q, p in beliefs.items():
                d_now = self._distance(ents[q], here)
                d_after = self._distance(ents[q], after)
                v += entropy(p) * seeable[q] * max(0.0, 1.0 - d_after / d_now)
            out[z.text] = v * scale
        return out
