"""Baselines and the oracle for continual instructions (ExRAP Sec. 5.1).

All agents share the interface ``reset(tasks, house)`` / ``act(obs, t) ->
Decision`` and read the house only through the observation and the static map
(rooms, doors, fixed objects' rooms), except the oracle.

* :class:`LLMPlannerAgent` (LLM-Planner style, Song et al. 2023): the prompt
  holds the instructions and the last ``window`` observations; it replans every
  step by scoring every candidate skill (one ``score`` call a step).
* :class:`SayCanAgent` (SayCan style, Ahn et al. 2022): LM score (softmax over
  candidates) times a feasibility (affordance) value from the current
  observation: manipulations whose effect is not already observed and whose
  object is in view get 1, unobserved ones 0.2, redundant ones 0.05; moves 0.5.
* :class:`ZSPAgent` (zero-shot planner style, Huang et al. 2022): no memory;
  the LM *generates* the next step from the instructions and the current
  observation and it is translated to the lexically closest candidate skill.
* :class:`ProgPromptAgent` (ProgPrompt style, Singh et al. 2023): the prompt is a Python-like
  program - an import of the skill functions, the object list, one example function with an
  ``assert ... else`` check - and the body written so far; the LM scores each admissible skill as
  the next program line (one ``score`` call a step). ProgPrompt's *assertions* give environment
  feedback before a line runs: a manipulation whose object is not in view fails its assertion
  and its recovery (go to the object's room on the static map) runs instead; one whose effect is
  already observed is skipped. No memory beyond the lines written.
* :class:`InstructionWiseAgent`: handles the instructions one at a time: walks
  to the room of the current instruction's condition, asks the LM whether it
  holds given only what it sees there (same cloze query answer as ExRAP, no
  memory), executes if ``P > 0.5``, then moves to the next.
* :class:`OracleAgent`: full observability and the true conditions; executes
  the nearest needed instruction, else waits - the upper bound.
"""

from __future__ import annotations

import math
import re

from actionable.continual.agent import Decision, MemoryAgentBase, skill_effect
from actionable.core.continual import ContinualHouse, Task
from actionable.core.continual import Instruction, holds_all
from actionable.continual.query import QueryEvaluator
from actionable.continual.tekg import TEKG
from actionable.core.continual import Observation, Skill
from actionable.lm.base import GenerationParams
from actionable.lm.choice import scoring


def _facts_text(facts) -> str:
    """Compact observation text; ``in_room`` facts are dropped (the room is stated)."""
    return "; ".join(f"{s} {r} {o}" for s, r, o in facts if r != "in_room")


def _softmax(xs: list[float]) -> list[float]:
    m = max(xs)
    e = [math.exp(x - m) for x in xs]
    s = sum(e)
    return [x / s for x in e]


class _Candidates(MemoryAgentBase):
    def candidates(self) -> list[Skill]:
        out = list(self.house.navigation_skills())
        for t in self.tasks:
            out += [z for z in t.execution if z not in out]
        return out

    def instructions_text(self) -> str:
        return "\n".join(f"- {t.text}" for t in self.tasks)

    @property
    def stats(self) -> dict:
        return {"lm_calls": self.lm_calls}


class LLMPlannerAgent(_Candidates):
    """LLM-Planner style: recent observations in the prompt, replans every step."""

    def __init__(self, lm, window: int = 2, name: str = "llm-planner"):
        self.lm, self.window, self.name = scoring(lm), window, name

    def reset(self, tasks, house, exclusive=None) -> None:
        super().reset(tasks, house, exclusive)
        self.recent: list[Observation] = []

    def act(self, obs: Observation, t: int) -> Decision:
        self.recent = (self.recent + [obs])[-self.window:]
        seen = "\n".join(f"step {o.t} in the {o.room}: {_facts_text(o.facts)}" for o in self.recent)
        prompt = (f"You are a home robot following these standing instructions:\n"
                  f"{self.instructions_text()}\nRecent observations:\n{seen}\nNext skill:")
        cands = self.candidates()
        self.lm_calls += 1
        scores = self.lm.score(prompt, [" " + z.text for z in cands])
        i = max(range(len(cands)), key=lambda j: scores[j])
        return Decision(cands[i], f"highest LM score {scores[i]:.2f} among {len(cands)} skills")


class SayCanAgent(_Candidates):
    """SayCan style: LM usefulness x affordance from the current observation."""

    def __init__(self, lm, name: str = "saycan"):
        self.lm, self.name = scoring(lm), name

    def act(self, obs: Observation, t: int) -> Decision:
        visible = {f for f in obs.facts}
        in_view = {s for s, _, _ in obs.facts}
        cands = self.candidates()
        prompt = f"You are a home robot. Instructions:\n{self.instructions_text()}\nNext skill:"
        self.lm_calls += 1
        probs = _softmax(self.lm.score(prompt, [" " + z.text for z in cands]))
        here = obs.room
        vals = []
        for z, p in zip(cands, probs):
            if z.kind == "go":
                feas = 0.05 if self.house.rooms[z.args[0]] == here else 0.5
            else:
                eff = skill_effect(z, self.house)
                if eff is not None and eff in visible:
                    feas = 0.05
                elif self.house.entity(z.args[0]) in in_view:
                    feas = 1.0
                else:
                    feas = 0.2
            vals.append(p * feas)
        i = max(range(len(cands)), key=lambda j: vals[j])
        return Decision(cands[i], f"LM x feasibility = {vals[i]:.3f}")


def _overlap(a: str, b: str) -> float:
    ta, tb = set(re.findall(r"[a-z]+", a.lower())), set(re.findall(r"[a-z]+", b.lower()))
    return len(ta & tb) / max(1, len(ta | tb))


class ZSPAgent(_Candidates):
    """Zero-shot-planner style: generate a step, translate it to a skill; no memory."""

    def __init__(self, lm, name: str = "zsp"):
        self.lm, self.name = scoring(lm), name

    def act(self, obs: Observation, t: int) -> Decision:
        # The prompt ends inside the answer ("A: The robot should"): ending it with
        # "Next step:" or "Action:" made SmolLM2-135M emit an empty line or EOS every step.
        prompt = (f"You are a home robot. Instructions:\n{self.instructions_text()}\n"
                  f"You are in the {obs.room.replace('_', ' ')} and see: {_facts_text(obs.facts)}\n"
                  "Q: What is the robot's next action?\nA: The robot should")
        self.lm_calls += 1
        out = self.lm.generate(prompt, GenerationParams(n=1, temperature=0.0, max_tokens=16,
                                                        stop=("\n",), seed=t))
        text = out[0].text if out else ""
        cands = self.candidates()
        best = max(cands, key=lambda z: _overlap(text, z.text))
        if _overlap(text, best.text) == 0.0:
            # garbage (no word of any skill): skipped and counted, never mapped to the first skill
            # (issue 25: an unreadable answer used to become cands[0], a walk, every step)
            self.unreadable += 1
            return Decision(Skill("wait", (), "wait"), f"LM wrote {text.strip()[:60]!r}: no skill in it, skipped")
        return Decision(best, f"LM wrote {text.strip()[:60]!r} -> closest skill")

    def reset(self, tasks, house, exclusive=None) -> None:
        super().reset(tasks, house, exclusive)
        self.unreadable = 0

    @property
    def stats(self) -> dict:
        return {"lm_calls": self.lm_calls, "unreadable_answers": getattr(self, "unreadable", 0)}


def _ident(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "x"


class ProgPromptAgent(_Candidates):
    """ProgPrompt style (Singh et al. 2023, "ProgPrompt: Generating Situated Robot Task Plans using
    Large Language Models", ICRA): programmatic prompt, admissible lines scored by the LM, and
    ``assert`` preconditions checked against the current observation before a line runs.

    Args:
        lm: a backend that can score (completion with prompt log-probs) or one the choice modes
            wrap (:func:`actionable.lm.choice.scoring`).
        window: how many executed lines stay in the prompt's function body.
    """

    _EXAMPLE = ("def follow_standing_instructions_example():\n"
                "    # 1: if the lamp in the study is on, switch it off\n"
                "    go_to('study')\n"
                "    assert('lamp' is 'on') else: skip\n"
                "    switch_off('lamp')\n\n")

    def __init__(self, lm, window: int = 6, name: str = "progprompt"):
        self.lm, self.window, self.name = scoring(lm), window, name

    def reset(self, tasks, house, exclusive=None) -> None:
        super().reset(tasks, house, exclusive)
        self.written: list[str] = []
        self.recoveries = 0

    def line(self, z: Skill) -> str:
        """The program line of a skill: ``kind('arg', ...)``, rooms by name, objects by entity."""
        if z.kind == "go":
            a = z.args[0]
            return f"go_to('{_ident(self.house.rooms[a] if a in self.house.rooms else self.house.entity(a))}')"
        return f"{z.kind}(" + ", ".join(f"'{_ident(self.house.entity(a))}'" for a in z.args) + ")"

    def _header(self, cands: list[Skill]) -> str:
        kinds = sorted({"go_to" if z.kind == "go" else z.kind for z in cands})
        objs = sorted({_ident(self.house.entity(a)) for z in cands if z.kind != "go" for a in z.args})
        rooms = sorted(_ident(r) for r in self.house.rooms.values())
        return (f"from actions import {', '.join(kinds)}\n"
                f"rooms = {rooms}\nobjects = {objs}\n\n" + self._EXAMPLE)

    def act(self, obs: Observation, t: int) -> Decision:
        cands = self.candidates()
        body = "".join(f"    # {i}: {task.text}\n" for i, task in enumerate(self.tasks, 1))
        body += f"    # state: in the {obs.room.replace('_', ' ')}; observed: {_facts_text(obs.facts) or 'nothing'}\n"
        body += "".join(f"    {ln}\n" for ln in self.written[-self.window:])
        prompt = self._header(cands) + "def follow_standing_instructions():\n" + body + "    "
        lines = [self.line(z) for z in cands]
        self.lm_calls += 1
        scores = self.lm.score(prompt, lines)
        visible = set(obs.facts)
        in_view = {s for s, _, _ in obs.facts}
        here = self.room_names.get(obs.room)
        for i in sorted(range(len(cands)), key=lambda j: -scores[j]):
            z = cands[i]
            if z.kind == "go":
                if z.args[0] == here:
                    continue  # already there: the line does nothing
                chosen, why = z, f"line {lines[i]} (LM {scores[i]:.2f})"
                break
            eff = skill_effect(z, self.house)
            if eff is not None and eff in visible:
                continue  # assert(not already so) fails: skip the line
            ent = self.house.entity(z.args[0])
            if ent not in in_view:
                room = self.skill_room(z, here if here is not None else -1)
                if room in self.house.rooms and room != here:
                    self.recoveries += 1
                    chosen = Skill("go", (room,), f"go to the {self.house.rooms[room]}")
                    why = f"assert('{_ident(ent)}' in view) failed for {lines[i]}: else go_to('{_ident(self.house.rooms[room])}')"
                    break
                continue
            chosen, why = z, f"line {lines[i]} (LM {scores[i]:.2f}); assertions hold"
            break
        else:
            chosen, why = Skill("wait", (), "wait"), "every line's assertion fails: wait"
        self.written.append(self.line(chosen) if chosen.kind != "wait" else "wait()")
        return Decision(chosen, why)

    @property
    def stats(self) -> dict:
        return {"lm_calls": self.lm_calls, "assert_recoveries": getattr(self, "recoveries", 0)}


class InstructionWiseAgent(_Candidates):
    """Checks the instructions one by one (go, look, ask the LM, act)."""

    def __init__(self, lm, name: str = "instruction-wise"):
        self.lm, self.name = scoring(lm), name

    def reset(self, tasks, house, exclusive=None) -> None:
        super().reset(tasks, house, exclusive)
        self.i = 0

    def _room_of_task(self, task: Task) -> int | None:
        for z in task.execution:
            r = self.house.static_room.get(z.args[0])
            if r is not None and task.query.find(self.house.rooms[r].replace("_", " ")) >= 0:
                return r
        for r, name in self.house.rooms.items():
            if name.replace("_", " ") in task.query:
                return r
        return None

    def act(self, obs: Observation, t: int) -> Decision:
        task = self.tasks[self.i % len(self.tasks)]
        room = self._room_of_task(task)
        if room is not None and self.house.rooms[room] != obs.room:
            return Decision(Skill("go", (room,), f"go to the {self.house.rooms[room]}"),
                            f"checking instruction {self.i % len(self.tasks) + 1}: go look")
        self.i += 1
        seen = TEKG(exclusive=self.exclusive)  # only what is in view now: no memory
        seen.update(obs.facts, t)
        ev = QueryEvaluator(self.lm, reuse=False, temporal_consistency=False)
        p, _, _ = ev.evaluate(task.query, seen, t, task.facts)
        self.lm_calls += ev.stats.lm_calls
        if p > 0.5:
            return Decision(task.execution[0], f"LM gives P('{task.query}') = {p:.2f}: execute")
        return Decision(Skill("wait", (), "wait"), f"LM gives P('{task.query}') = {p:.2f}: skip")


class OracleAgent(_Candidates):
    """Full observability and true conditions (upper bound; no LM). Of several due instructions
    it serves the nearest, or the one the house's optional ``oracle_choice(due)`` names (the
    driving world times its conditions from the true state)."""

    name = "oracle"

    def __init__(self, instructions: list[Instruction], name: str = "oracle"):
        self.instructions, self.name = instructions, name

    def act(self, obs: Observation, t: int) -> Decision:
        house: ContinualHouse = self.house
        need = [ins for ins in self.instructions
                if holds_all(ins.query, house) and not holds_all(ins.goal, house)]
        if not need:
            return Decision(Skill("wait", (), "wait"), "no condition holds")
        # a house that can time its conditions orders several due ones itself (the driving world:
        # serving one lets another end, issue 25); otherwise the nearest first
        order = getattr(house, "oracle_choice", None)
        best = order(need) if order is not None and len(need) > 1 else None
        if best is None:
            best = min(need, key=lambda ins: house.distance(65, ins.execution[0].args[0]))
        return Decision(best.execution[0], f"condition true: {best.query_text}")
