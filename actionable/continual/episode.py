"""Episode harness: interpret instructions, run an agent, score SR/PS.

* :func:`interpret` - the instruction interpreter of ExRAP Eq. 4: the LM
  rewrites each instruction into a canonical ``query:`` / ``execution:`` pair
  (few-shot prompt, greedy); each clause is re-ranked by LM score against its
  opposite polarity (``switch on`` / ``switch off``; ``is open`` / ``is
  closed``), because the small model often flips it; the pair is checked with
  :func:`~actionable.continual.instructions.parse_condition` /
  ``parse_execution`` against the house. When the LM output does not parse or
  names objects that are not in the house, the rule-based reader
  (:func:`~actionable.continual.instructions.parse_instruction`) is used and
  the record says so (``source: "rule"``); an instruction neither can read is
  dropped with its reason (``source: "none"``). Every LM output is logged.
* :func:`run_episode` - one episode: ``steps`` skills, dynamics by seed, the
  live trace (observation, beliefs, chosen skill, why) through ``on_step``.
* :func:`make_agent` - agents by name (``exrap``, ``exrap-tc``, ``exrap-exp``,
  ``exrap-llm``, ``exrap-sample``, ``llm-planner``, ``saycan``, ``zsp``,
  ``instruction-wise``, ``oracle``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from actionable.continual.agent import ExRAPAgent, ExRAPConfig, Task
from actionable.continual.baselines import (InstructionWiseAgent, LLMPlannerAgent, OracleAgent,
                                            SayCanAgent, ZSPAgent)
from actionable.continual.instructions import (Instruction, parse_condition, parse_execution,
                                               parse_instruction)
from actionable.continual.metrics import ActivationTracker, sr_ps
from actionable.env.nonstationary import NonStationaryHouse
from actionable.errors import ConfigError, InputError
from actionable.lm.base import GenerationParams

AGENTS = ("exrap", "exrap-tc", "exrap-exp", "exrap-llm", "exrap-sample", "llm-planner", "saycan",
          "zsp", "instruction-wise", "oracle")

INTERPRET_PROMPT = (
    "Rewrite each instruction as a condition to check and an action to do.\n"
    "Instruction: If the light in the bedroom is on, switch it off.\n"
    "query: light in the bedroom is on\nexecution: switch off light in the bedroom\n"
    "Instruction: When the door in the bathroom is open, turn on the computer in the bedroom.\n"
    "query: door in the bathroom is open\nexecution: switch on computer in the bedroom\n"
    "Instruction: Whenever the cup is on the table in the bedroom, put it on the desk in the bedroom.\n"
    "query: cup is on table in the bedroom\nexecution: put cup on desk in the bedroom\n"
    "Instruction: {text}\nquery:"
)


def cloze_facts(preds, house: NonStationaryHouse) -> tuple:
    """Predicates as ``(source, relation, value, alternatives)`` for cloze answers."""
    out = []
    for p in preds:
        ent = house.entity(p.node)
        if p.kind == "state":
            alts = ("on", "off") if p.value in ("on", "off") else ("open", "closed")
            out.append((ent, "is", p.value, alts))
        elif p.kind == "on":
            out.append((ent, "on", house.entity(p.value), tuple(house.entity(s) for s in house.surfaces)))
        else:
            out.append((ent, "in_room", house.rooms[p.value], tuple(sorted(house.rooms.values()))))
    return tuple(out)


_FLIP = {"on": "off", "off": "on", "open": "close", "close": "open", "closed": "open"}


def _flip(text: str) -> str:
    """Opposite polarity of a clause: ``switch off X`` <-> ``switch on X``, ``is open`` <-> ``is closed``."""
    words = text.split()
    for i, w in enumerate(words):
        if w in ("on", "off") and i > 0 and words[i - 1] in ("switch", "turn"):
            words[i] = _FLIP[w]
            return " ".join(words)
    if words and words[0] in ("open", "close"):
        return " ".join([_FLIP[words[0]]] + words[1:])
    if words and words[-1] in ("on", "off", "open", "closed"):
        return " ".join(words[:-1] + [{"open": "closed", "closed": "open"}.get(words[-1], _FLIP[words[-1]])])
    return text


def _polarity_check(lm, text: str, q: str, e: str) -> tuple[str, str]:
    """Re-rank the generated query / execution against their opposite polarity by
    LM score (the 135M model often writes 'switch on' for 'turn it off')."""
    if not getattr(lm, "supports_score", False):
        return q, e
    head = INTERPRET_PROMPT.format(text=text)
    qs = list(dict.fromkeys([q, _flip(q)]))
    sq = lm.score(head, [f" {c}" for c in qs])
    q = qs[max(range(len(qs)), key=lambda i: sq[i])]
    es = list(dict.fromkeys([e, _flip(e)]))
    se = lm.score(f"{head} {q}\nexecution:", [f" {c}" for c in es])
    return q, es[max(range(len(es)), key=lambda i: se[i])]


def interpret(instructions: list[Instruction], house: NonStationaryHouse, lm=None) -> tuple[list[Task], list[dict]]:
    """Map instruction texts to tasks (Eq. 4). Returns ``(tasks, log)``; the log
    has one record per instruction: ``text``, ``lm_output``, ``source``
    (``lm``/``rule``/``none``), ``query``, ``execution``, ``error``."""
    tasks, log = [], []
    for ins in instructions:
        rec = {"text": ins.text, "lm_output": None, "source": "none", "error": None}
        task = None
        if lm is not None:
            out = lm.generate(INTERPRET_PROMPT.format(text=ins.text),
                              GenerationParams(n=1, temperature=0.0, max_tokens=40, stop=("\nInstruction",),
                                               presence_penalty=0.0, frequency_penalty=0.0, seed=0))
            raw = out[0].text if out else ""
            rec["lm_output"] = raw
            lines = [ln.strip() for ln in ("query:" + raw).splitlines() if ln.strip()]
            q = next((ln.split(":", 1)[1].strip() for ln in lines if ln.lower().startswith("query:")), "")
            e = next((ln.split(":", 1)[1].strip() for ln in lines if ln.lower().startswith("execution:")), "")
            while q.lower().startswith("query:"):  # the LM repeated the prompt's "query:" prefix
                q = q[len("query:"):].strip()
            q, e = _polarity_check(lm, ins.text, q, e)
            rec["checked"] = {"query": q, "execution": e}
            try:
                preds = parse_condition(q, house)
                skills, _ = parse_execution(e, house)
                task, rec["source"] = Task(ins.text, q, skills, cloze_facts(preds, house)), "lm"
            except InputError as exc:
                rec["error"] = f"LM interpretation unusable: {exc}"
        if task is None:
            try:
                parsed = parse_instruction(ins.text, house)
                task, rec["source"] = Task(ins.text, parsed.query_text, parsed.execution,
                                           cloze_facts(parsed.query, house)), "rule"
            except InputError as exc:
                rec["error"] = f"{rec['error'] or ''} rule reading failed: {exc}".strip()
        if task is not None:
            rec["query"], rec["execution"] = task.query, [z.text for z in task.execution]
            tasks.append(task)
        log.append(rec)
    return tasks, log


def make_agent(name: str, lm, instructions: list[Instruction], config: ExRAPConfig | None = None):
    """Build an agent by name (see :data:`AGENTS`).

    Raises:
        ConfigError: unknown name, or an LM-based agent without an LM.
    """
    base = config or ExRAPConfig()
    if name == "oracle":
        return OracleAgent(instructions)
    if lm is None:
        raise ConfigError(f"agent {name!r} needs a language model")
    variants = {"exrap": {}, "exrap-tc": {"temporal_consistency": False},
                "exrap-exp": {"explore": "fixed"}, "exrap-llm": {"explore": "llm"},
                "exrap-sample": {"query_mode": "sample"}}
    if name in variants:
        return ExRAPAgent(lm, base.model_copy(update=variants[name]), name=name)
    simple = {"llm-planner": LLMPlannerAgent, "saycan": SayCanAgent, "zsp": ZSPAgent,
              "instruction-wise": InstructionWiseAgent}
    if name in simple:
        return simple[name](lm)
    raise ConfigError(f"unknown agent {name!r}; choose from {', '.join(AGENTS)}")


@dataclass
class EpisodeResult:
    metrics: dict
    stats: dict
    interpretation: list[dict]
    trace: list[dict] = field(default_factory=list)
    activations: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"metrics": self.metrics, "stats": self.stats, "interpretation": self.interpretation,
                "activations": self.activations, "trace": self.trace}


def run_episode(agent, house: NonStationaryHouse, instructions: list[Instruction], steps: int,
                seed: int, lm=None, on_step=None, keep_trace: bool = True) -> EpisodeResult:
    """Run one episode of ``steps`` skills and score it.

    Args:
        agent: from :func:`make_agent`.
        house: the environment (reset here with ``seed`` and the instructions' objects as focus).
        instructions: ground-truth instructions (text is what the agent reads).
        lm: interpreter LM (``None``: rule-based reading only).
        on_step: optional callback ``(record: dict) -> None`` for live traces.

    Raises:
        ConfigError: ``steps < 1``. InputError: no instruction could be interpreted.
    """
    if steps < 1:
        raise ConfigError(f"steps must be >= 1 (got {steps})")
    t0 = time.perf_counter()
    focus = set().union(*(ins.nodes for ins in instructions))
    obs = house.reset(seed=seed, focus=focus)
    tasks, log = interpret(instructions, house, lm if agent.name != "oracle" else None)
    if not tasks and not isinstance(agent, OracleAgent):
        raise InputError("no instruction could be interpreted: " + "; ".join(r["error"] or "" for r in log))
    agent.reset(tasks, house)
    tracker = ActivationTracker(instructions)
    trace, failed = [], 0
    for t in range(steps):
        tracker.observe_state(house, t)
        d = agent.act(obs, t)
        done: list[int] = []
        res = house.step(d.skill, after_skill=lambda: done.extend(tracker.after_agent(house, t)))
        failed += not res.executed
        rec = {"t": t, "room": obs.room, "skill": d.skill.text or d.skill.kind, "why": d.why,
               "executed": res.executed, "error": res.error, "completed": done,
               "beliefs": {k: round(v, 3) for k, v in d.beliefs.items()}, "house_changed": res.changed,
               "observed": len(obs.facts)}
        if keep_trace:
            trace.append(rec)
        if on_step is not None:
            on_step(rec)
        obs = res.observation
    tracker.finish(steps)
    stats = dict(getattr(agent, "stats", {}))
    stats.update({"steps": steps, "failed_skills": failed, "seconds": round(time.perf_counter() - t0, 3)})
    stats["lm_calls_per_step"] = stats.get("lm_calls", 0) / steps
    acts = [{"instruction": a.instruction, "start": a.start, "end": a.end, "outcome": a.outcome}
            for a in tracker.activations]
    return EpisodeResult(sr_ps(tracker.activations), stats, log, trace, acts)
