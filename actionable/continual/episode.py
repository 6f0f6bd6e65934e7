"""Episode harness: interpret instructions, run an agent, score SR/PS.

* instructions are read by the world's interpreter (VirtualHome:
  :func:`~actionable.continual.interpreter.interpret`, ExRAP Eq. 4: LM reading,
  translation to admissible clauses, polarity check, rule fallback; every stage
  logged in the result's ``interpretation``); the world (``world=``, a
  :class:`~actionable.continual.worlds.ContinualWorld` or its ``--env`` name) also
  supplies the TEKG's exclusive states.
* **Numbering** (issue 25): instructions are numbered from 1 everywhere a user reads them -
  the console (``instruction 1: ...``), the trace records' ``completed`` and the summary's
  ``activations[].instruction`` (instruction ``n`` is ``instructions[n - 1]``). Steps ``t``
  count skills already run, from 0 (``t=0`` is the first decision), in the console and the trace.
* :func:`run_episode` - one episode: ``steps`` skills, dynamics by seed, the
  live trace (observation, beliefs, chosen skill, why) through ``on_step``.
* :func:`make_agent` - agents by name (``exrap``, ``exrap-tc``, ``exrap-exp``,
  ``exrap-llm``, ``exrap-sample``, ``llm-planner``, ``saycan``, ``zsp``, ``progprompt``,
  ``instruction-wise``, ``oracle``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from actionable.continual.agent import ExRAPAgent, ExRAPConfig
from actionable.continual.baselines import (InstructionWiseAgent, LLMPlannerAgent, OracleAgent,
                                            ProgPromptAgent, SayCanAgent, ZSPAgent)
from actionable.core.continual import ContinualHouse, Instruction
from actionable.continual.metrics import ActivationTracker, sr_ps
from actionable.continual.worlds import get_world, read_tasks
from actionable.core.continual import ContinualWorld
from actionable.core.errors import ConfigError, InputError

AGENTS = ("exrap", "exrap-tc", "exrap-exp", "exrap-llm", "exrap-sample", "llm-planner", "saycan",
          "zsp", "progprompt", "instruction-wise", "oracle")

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
              "progprompt": ProgPromptAgent, "instruction-wise": InstructionWiseAgent}
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


def run_episode(agent, house: ContinualHouse, instructions: list[Instruction], steps: int,
                seed: int, lm=None, on_step=None, keep_trace: bool = True,
                embedder=None, world: ContinualWorld | str | None = None, on_read=None) -> EpisodeResult:
    """Run one episode of ``steps`` skills and score it.

    Args:
        agent: from :func:`make_agent`.
        house: the environment (reset here with ``seed`` and the instructions' objects as focus),
            built by ``world.make_house``.
        instructions: ground-truth instructions (text is what the agent reads).
        lm: interpreter LM (``None``: rule-based reading only).
        embedder: translation LM of the interpreter (``None``: no translation stage).
        on_step: optional callback ``(record: dict) -> None`` for live traces.
        on_read: optional callback ``(log: list[dict]) -> None`` called once the instructions are
            read, before the first step (the log records of ``interpretation``: which reader read
            each instruction, ``source``), so a console can say so up front.
        world: the :class:`~actionable.continual.worlds.ContinualWorld` (or its name) whose
            interpreter reads the instructions and whose exclusive states the TEKG uses
            (``None``: VirtualHome).

    Raises:
        ConfigError: ``steps < 1`` or an unknown world. InputError: no instruction could be interpreted.
    """
    if steps < 1:
        raise ConfigError(f"steps must be >= 1 (got {steps})")
    spec = get_world(world)
    t0 = time.perf_counter()
    focus = set().union(*(ins.nodes for ins in instructions))
    obs = house.reset(seed=seed, focus=focus)
    tasks, log = read_tasks(spec, instructions, house, lm if agent.name != "oracle" else None, embedder)
    if on_read is not None:
        on_read(log)
    if not tasks and not isinstance(agent, OracleAgent):
        raise InputError("no instruction could be interpreted: " + "; ".join(r["error"] or "" for r in log))
    agent.reset(tasks, house, spec.exclusive)
    tracker = ActivationTracker(instructions)
    trace, failed = [], 0
    for t in range(steps):
        tracker.observe_state(house, t)
        d = agent.act(obs, t)
        done: list[int] = []
        res = house.step(d.skill, after_skill=lambda: done.extend(tracker.after_agent(house, t)))
        failed += not res.executed
        rec = {"t": t, "room": obs.room, "skill": d.skill.text or d.skill.kind, "why": d.why,
               "executed": res.executed, "error": res.error, "completed": [i + 1 for i in done],
               "beliefs": {k: round(v, 3) for k, v in d.beliefs.items()}, "house_changed": res.changed,
               "observed": len(obs.facts), "truth": list(tracker.truth)}
        if spec.step_extras is not None:
            rec.update(spec.step_extras(house))
        if keep_trace:
            trace.append(rec)
        if on_step is not None:
            on_step(rec)
        obs = res.observation
    tracker.finish(steps)
    stats = dict(getattr(agent, "stats", {}))
    stats.update({"steps": steps, "failed_skills": failed, "seconds": round(time.perf_counter() - t0, 3)})
    if spec.episode_extras is not None:
        stats.update(spec.episode_extras(house))
    stats["lm_calls_per_step"] = stats.get("lm_calls", 0) / steps
    acts = [{"instruction": a.instruction + 1, "start": a.start, "end": a.end, "outcome": a.outcome}
            for a in tracker.activations]
    return EpisodeResult(sr_ps(tracker.activations), stats, log, trace, acts)
