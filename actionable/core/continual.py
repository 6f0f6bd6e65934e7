"""The continual capability: what ExRAP's agents and the episode loop need from a world.

A world that follows standing instructions declares the capability ``continual``
(:mod:`actionable.core.registry`): a :class:`ContinualWorld`. The agents, the TEKG, the query
evaluator and the episode loop (:mod:`actionable.continual`) see only what is here:

* the vocabulary of a step: :class:`Skill` (one skill is one step), :class:`Observation` (triples
  the agent sees), :class:`StepResult`, and the non-stationarity settings :class:`DynamicsConfig`
  (the environment changes every 8 / 6 / 4 steps at low / medium / high; ExRAP Sec. 5.1);
* conditional instructions (ExRAP Sec. 3): :class:`Instruction` (query + execution + goal, over
  :class:`Predicate` facts of the true state) and the :class:`Task` an agent holds;
* the house a world supplies (:class:`ContinualHouse`, a protocol: rooms, hops, entities,
  navigation skills, ``reset`` / ``step`` / ``observe``) and, for ExRAP's LM interpreter, its
  :class:`InstructionVocabulary`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from actionable.core.errors import InputError

STATES = ("on", "off", "open", "closed")

Level = Literal["low", "medium", "high"]
#: Steps between two house changes per non-stationarity level (ExRAP Sec. 5.1).
PERIODS: dict[str, int] = {"low": 8, "medium": 6, "high": 4}

AGENT = "agent"


class DynamicsConfig(BaseModel):
    """Settings of the non-stationary house (all defaults documented in docs/continual.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    level: Level = "medium"
    period: int | None = Field(None, ge=1, le=1000,
                               description="steps between changes; default from level (8/6/4)")
    changes_per_event: int = Field(3, ge=1, le=50)
    focus_prob: float = Field(0.7, ge=0.0, le=1.0,
                              description="probability a change hits an instruction-relevant object")

    @property
    def steps_between_changes(self) -> int:
        return self.period if self.period is not None else PERIODS[self.level]


@dataclass(frozen=True)
class Skill:
    """A high-level skill; one skill is one environment step.

    Attributes:
        kind: ``go`` | ``switch_on`` | ``switch_off`` | ``open`` | ``close`` |
            ``grab`` | ``put_on`` | ``put_in`` | ``move_onto`` | ``wait``.
        args: node ids (``go``: a room or an object; ``put_on``/``put_in``/
            ``move_onto``: (object, destination)).
        text: natural-language form shown to LMs (``switch off the dining_room television``).
    """

    kind: str
    args: tuple[int, ...] = ()
    text: str = ""

    def to_dict(self) -> dict:
        return {"kind": self.kind, "args": list(self.args), "text": self.text}

    @classmethod
    def from_dict(cls, d: dict) -> "Skill":
        return cls(str(d["kind"]), tuple(int(a) for a in d.get("args", ())), str(d.get("text", "")))


SKILL_KINDS = ("go", "switch_on", "switch_off", "open", "close", "grab", "put_on", "put_in",
               "move_onto", "wait")


@dataclass
class Observation:
    """What the agent sees at step ``t``: triples ``(source, relation, target)``.

    Relations: ``is`` (state: on/off/open/closed), ``on``/``inside`` (placement),
    ``in_room``, and for the agent ``in_room`` and ``holds``.
    """

    t: int
    room: str
    facts: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class StepResult:
    """Outcome of one step of a continual house (``house.step(skill)``)."""

    observation: Observation
    executed: bool
    error: str | None
    actions: list[str]
    changed: list[str]


def net_changes(changes) -> list[str]:
    """The net change of one change event, one line per object attribute.

    Args:
        changes: ``(key, before, after, message)`` per change in the order applied; ``key``
            names one attribute of one object (e.g. ``(node, "power")``), ``before`` / ``after``
            its value around that change, ``message`` the change in words
            (``"television_248 became on"``).

    Returns:
        For each key, in order of its first change, the message of its last change; a key that
        ended where it began (``off`` then ``on`` again) is left out: a step's house-change line
        shows what changed over the step, never ``X became off; X became on``.
    """
    first: dict = {}
    last: dict = {}
    for key, before, after, message in changes:
        first.setdefault(key, before)
        last[key] = (after, message)
    return [message for key, (after, message) in last.items() if after != first[key]]


@dataclass(frozen=True)
class Predicate:
    """One fact: ``state`` (value in on/off/open/closed), ``on`` (value = surface
    id) or ``in_room`` (value = room id)."""

    kind: str
    node: int
    value: str | int

    def holds(self, house: "ContinualHouse") -> bool:
        """Evaluate on the house's true state."""
        if self.kind == "state":
            return self.value in house.states_of(self.node)
        if self.kind == "on":
            return house.holder_of(self.node) is None and house.placement(self.node) == ("on", self.value)
        if self.kind == "in_room":
            return house.room_of(self.node) == self.value
        raise InputError(f"unknown predicate kind {self.kind!r}; use state, on or in_room")

    def to_list(self) -> list:
        return [self.kind, self.node, self.value]


def holds_all(preds, house: "ContinualHouse") -> bool:
    return all(p.holds(house) for p in preds)


@dataclass
class Instruction:
    """A conditional instruction (ExRAP Sec. 3).

    Attributes:
        text: what the agent reads.
        query: conjunction of :class:`Predicate` (the condition), true graph.
        goal: conjunction that the execution makes true (completion check).
        execution: skills that satisfy the instruction, in order.
        query_text / execution_text: canonical clauses (interpreter targets).
        template: template id, or ``"user"``.
    """

    text: str
    query: tuple[Predicate, ...]
    goal: tuple[Predicate, ...]
    execution: tuple[Skill, ...]
    query_text: str
    execution_text: str
    template: str = "user"
    meta: dict = field(default_factory=dict)

    @property
    def nodes(self) -> set[int]:
        out = {p.node for p in self.query + self.goal}
        for s in self.execution:
            out.update(s.args)
        return out

    def to_dict(self) -> dict:
        return {"text": self.text, "query": [p.to_list() for p in self.query],
                "goal": [p.to_list() for p in self.goal],
                "execution": [s.to_dict() for s in self.execution],
                "query_text": self.query_text, "execution_text": self.execution_text,
                "template": self.template}

    @classmethod
    def from_dict(cls, d: dict) -> "Instruction":
        try:
            return cls(d["text"], tuple(Predicate(*p) for p in d["query"]),
                       tuple(Predicate(*p) for p in d["goal"]),
                       tuple(Skill.from_dict(s) for s in d["execution"]),
                       d["query_text"], d["execution_text"], d.get("template", "user"))
        except KeyError as exc:
            raise InputError(f"bad instruction record (no field {exc.args[0]!r}); write instructions as text lines "
                             "or as the JSON that 'actionable follow --save-instructions' writes") from None
        except (TypeError, ValueError) as exc:
            raise InputError(f"bad instruction record ({exc}); write instructions as text lines "
                             "or as the JSON that 'actionable follow --save-instructions' writes") from None


@dataclass
class Task:
    """An interpreted instruction as the agent holds it (ExRAP Eq. 4)."""

    text: str
    query: str
    execution: tuple[Skill, ...]
    facts: tuple = ()  # the query's predicates as ClozeFact (see query.py)


def read_instructions_file(path, parse_line, from_records=None) -> list:
    """Read an instructions file of any world: the JSON list that ``--save-instructions`` writes,
    or text with one ``If <condition>, <action>.`` per line (``#`` comments, blank lines skipped).

    Args:
        path: the file.
        parse_line: ``text -> Instruction`` (the world's rule reader; raises InputError).
        from_records: ``(records, path) -> list[Instruction]`` for the JSON form; default
            :func:`records_by_text` with ``parse_line`` (a saved record is re-read from its text,
            never trusted).

    Raises:
        InputError: missing/unreadable file, bad JSON, unreadable line (with its number), no
        instructions.
    """
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8-sig")  # a UTF-8 BOM (Windows editors) is not part of line 1
    except FileNotFoundError:
        raise InputError(f"instructions file {p} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read instructions file {p}: {exc}") from None
    if raw.lstrip().startswith(("[", "{")):
        try:
            recs = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"instructions file {p}: invalid JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(recs, list):
            raise InputError(f"{p}: a JSON {_json_kind(recs)}, not a list of instruction records; write "
                             "instructions as text lines or as the JSON that 'actionable follow "
                             "--save-instructions' writes")
        return (from_records or records_by_text(parse_line))(recs, p)
    out = []
    for i, line in enumerate(raw.splitlines(), 1):
        if line.strip() and not line.lstrip().startswith("#"):
            try:
                out.append(parse_line(line.strip()))
            except InputError as exc:
                raise InputError(f"{p} line {i}: {exc}") from None
    if not out:
        raise InputError(f"{p} holds no instructions; write one 'If <condition>, <action>.' per line")
    return out


def _json_kind(x) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", type(None): "null"}.get(type(x), "number")


def records_by_text(parse_line, parse_record=None):
    """A ``from_records`` for :func:`read_instructions_file` that re-reads each record's ``text``
    with the world's rule reader, so a saved file gets the same checks as a text file (an edited
    text, an unknown id or an impossible state in a record are not trusted). ``parse_record(d) ->
    Instruction`` reads a record another way (VirtualHome: from its clause texts when it has them).
    Errors name the record."""
    def from_records(recs, p):
        out = []
        for k, d in enumerate(recs, 1):
            if not isinstance(d, dict):
                raise InputError(f"{p}: record {k} is a JSON {_json_kind(d)} ({json.dumps(d)[:40]}), not an instruction "
                                 "object; write instructions as text lines or as the JSON that 'actionable follow "
                                 "--save-instructions' writes")
            if not isinstance(d.get("text"), str):
                raise InputError(f"{p}: record {k} has no 'text' string; write a JSON list of records with "
                                 "a 'text' field, as 'actionable follow --save-instructions' does")
            try:
                ins = parse_record(d) if parse_record is not None else parse_line(d["text"])
            except InputError as exc:
                raise InputError(f"{p}: record {k}: {exc}") from None
            ins.template = d.get("template", "user") if isinstance(d.get("template", "user"), str) else "user"
            out.append(ins)
        if not out:
            raise InputError(f"{p} holds no instructions (an empty JSON list)")
        return out
    return from_records


def save_instructions(instructions: list[Instruction], path: str | Path) -> None:
    Path(path).write_text(json.dumps([i.to_dict() for i in instructions], indent=1), encoding="utf-8")



class ContinualHouse(Protocol):
    """What the agents read from a world's non-stationary, partially observable house (VirtualHome's
    :class:`~actionable.worlds.virtualhome.nonstationary.NonStationaryHouse`, the THOR kitchen's,
    the SUMO town's): ``rooms`` ({id: name}), ``room_hops`` (graph distances between rooms),
    ``static_room``, ``entity(node) -> str``, ``navigation_skills()``, ``reset(seed, focus)``,
    ``step(skill) -> StepResult``, ``observe() -> Observation``, and the truth for scoring
    (``states_of``, ``placement``, ``holder_of``, ``room_of``). Optional:
    ``skill_effect(skill) -> (source, relation, target) | None``, the observed triple a world's own
    skill kinds make true (the agents know switch/open/close/move_onto; a world with other skills,
    such as driving's ``stop_on``, names their effects here so that memory can show them done)."""

    rooms: dict

    def entity(self, node: Any) -> str: ...

    def step(self, skill: Skill, *args, **kwargs) -> StepResult: ...

    def observe(self) -> Observation: ...


class InstructionVocabulary(Protocol):
    """A world's instruction language for ExRAP's LM interpreter (Eq. 4; VirtualHome's:
    :class:`actionable.worlds.virtualhome.instructions.VirtualHomeVocabulary`).

    ``clauses(text) -> (queries, executions)``: canonical clauses over the objects ``text`` names
    (the translation LM's candidates); ``parse_condition(q) -> predicates``; ``parse_execution(e)
    -> (skills, goal predicates)``; ``parse_instruction(text) -> Instruction`` (the rule reader);
    ``cloze(predicates) -> facts`` (``(source, relation, value, alternatives)`` for cloze answers).
    Parsers raise InputError naming what they cannot read."""

    def clauses(self, text: str) -> tuple[list[str], list[str]]: ...

    def parse_condition(self, text: str) -> tuple: ...

    def parse_execution(self, text: str) -> tuple: ...

    def parse_instruction(self, text: str) -> "Instruction": ...

    def cloze(self, preds) -> tuple: ...


@dataclass(frozen=True)
class ContinualWorld:
    """A world the continual agents can follow standing instructions in (see the module docstring).

    ``interpret(instructions, house, lm, embedder) -> (tasks, log)``: the world's own reader (a rule
    reader: :func:`rule_reading`), or ``None`` to have ExRAP's LM interpreter
    (:func:`actionable.continual.interpreter.interpret`) read through ``vocabulary(house)`` (an
    :class:`InstructionVocabulary`). ``lm_interpreter``: whether the LM reads (``False``: it reads by rule whatever the
    ``--interpreter`` flag says, and no embedder is loaded). ``describe(level)``: a short phrase for
    the trace header (``changes every 6 steps``). ``step_extras(house)`` / ``episode_extras(house)``:
    optional world-specific fields added to every step record / to the episode stats.
    ``names_itself_in_runs``: episode payloads carry ``env=<name>`` (:meth:`run_fields`);
    VirtualHome's do not, so run directories written before worlds existed resume as before.
    ``changes_label``: the words that introduce a step's changes in the live trace (``house
    changed``, ``kitchen changed``, ``on the road``).
    """

    name: str
    scene: str
    make_house: Callable
    sample: Callable
    load: Callable
    interpret: Callable | None = None
    vocabulary: Callable | None = None
    exclusive: tuple = ()
    check_scene: Callable[[str], None] = lambda scene: None
    describe: Callable[[str], str] = lambda level: level
    lm_interpreter: bool = True
    max_instructions: int = 24
    step_extras: Callable | None = None
    episode_extras: Callable | None = None
    description: str = field(default="", compare=False)
    names_itself_in_runs: bool = True
    #: how the live trace (``actionable follow``) introduces a step's changes, in the world's words
    changes_label: str = field(default="house changed", compare=False)

    def run_fields(self) -> dict:
        """Fields this world adds to an episode payload (``{"env": name}`` or nothing)."""
        return {"env": self.name} if self.names_itself_in_runs else {}


def rule_reading(instructions, parse, cloze) -> tuple[list[Task], list[dict]]:
    """Tasks the agents hold, read by a world's rule reader, and a log record per instruction.

    Args:
        instructions: the world's :class:`Instruction` list.
        parse: ``text -> parsed instruction`` (with ``query_text`` and ``execution``); raises InputError.
        cloze: ``parsed -> cloze facts`` for ExRAP's query answers.

    Returns:
        ``(tasks, log)``; an unreadable instruction is logged with ``source "none"`` and its error.
    """
    tasks, log = [], []
    for ins in instructions:
        rec = {"text": ins.text, "lm_output": None, "source": "rule", "error": None}
        try:
            parsed = parse(ins.text)
            tasks.append(Task(ins.text, parsed.query_text, parsed.execution, cloze(parsed)))
            rec["query"], rec["execution"] = parsed.query_text, [z.text for z in parsed.execution]
        except InputError as exc:
            rec["source"], rec["error"] = "none", str(exc)
        log.append(rec)
    return tasks, log


__all__ = ["AGENT", "ContinualHouse", "ContinualWorld", "DynamicsConfig", "Instruction", "InstructionVocabulary",
           "Observation", "PERIODS", "Predicate", "SKILL_KINDS", "STATES", "Skill", "StepResult", "Task", "holds_all",
           "net_changes", "read_instructions_file", "rule_reading", "save_instructions"]
