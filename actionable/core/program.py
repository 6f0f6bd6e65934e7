"""Programs: the plain-data plan representation of VirtualHome.

A :class:`Program` is a tuple of :class:`Step` objects. Each step is an action
name (one of the 44 VirtualHome actions, upper case) and 0, 1 or 2
:class:`Argument` objects (an object class name and an optional node id).

Two surface forms are parsed and formatted, with a round trip:

* script form, as in the VirtualHome dataset: ``[PUTIN] <mug> (12) <fridge> (40)``.
  Dataset ids such as ``(1.319)`` are accepted; the part after the dot is the
  node id (319).
* natural text, the admissible-action strings of Huang et al. 2022 (Sec. 3.2):
  ``put mug in fridge``, ``walk to bathroom``, ``switch on tv``.

Action names are case-insensitive on input. Malformed lines raise
:class:`~actionable.core.errors.ProgramParseError` naming the line and the fix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from actionable.core.errors import ProgramParseError

#: Arity of every VirtualHome action (from virtualhome_eval's vocabulary.json).
ACTION_ARITY: dict[str, int] = {
    "CLOSE": 1, "DRINK": 1, "FIND": 1, "WALK": 1, "GRAB": 1, "LOOKAT": 1,
    "LOOKAT_SHORT": 1, "LOOKAT_LONG": 1, "OPEN": 1, "POINTAT": 1, "PUTBACK": 2,
    "PUTIN": 2, "PUTOBJBACK": 1, "RUN": 1, "SIT": 1, "STANDUP": 0, "SWITCHOFF": 1,
    "SWITCHON": 1, "TOUCH": 1, "TURNTO": 1, "WATCH": 1, "WIPE": 1, "PUTON": 1,
    "PUTOFF": 1, "GREET": 1, "DROP": 1, "READ": 1, "LIE": 1, "POUR": 2, "TYPE": 1,
    "PUSH": 1, "PULL": 1, "MOVE": 1, "WASH": 1, "RINSE": 1, "SCRUB": 1,
    "SQUEEZE": 1, "PLUGIN": 1, "PLUGOUT": 1, "CUT": 1, "EAT": 1, "SLEEP": 0,
    "WAKEUP": 0, "RELEASE": 1,
}

#: Natural-text template per action; ``{0}``/``{1}`` are object names.
ACTION_TEMPLATES: dict[str, str] = {
    "CLOSE": "close {0}", "DRINK": "drink {0}", "FIND": "find {0}",
    "WALK": "walk to {0}", "GRAB": "grab {0}", "LOOKAT": "look at {0}",
    "LOOKAT_SHORT": "glance at {0}", "LOOKAT_LONG": "stare at {0}",
    "OPEN": "open {0}", "POINTAT": "point at {0}", "PUTBACK": "put {0} on {1}",
    "PUTIN": "put {0} in {1}", "PUTOBJBACK": "put back {0}", "RUN": "run to {0}",
    "SIT": "sit on {0}", "STANDUP": "stand up", "SWITCHOFF": "switch off {0}",
    "SWITCHON": "switch on {0}", "TOUCH": "touch {0}", "TURNTO": "turn to {0}",
    "WATCH": "watch {0}", "WIPE": "wipe {0}", "PUTON": "put on {0}",
    "PUTOFF": "take off {0}", "GREET": "greet {0}", "DROP": "drop {0}",
    "READ": "read {0}", "LIE": "lie on {0}", "POUR": "pour {0} into {1}",
    "TYPE": "type on {0}", "PUSH": "push {0}", "PULL": "pull {0}",
    "MOVE": "move {0}", "WASH": "wash {0}", "RINSE": "rinse {0}",
    "SCRUB": "scrub {0}", "SQUEEZE": "squeeze {0}", "PLUGIN": "plug in {0}",
    "PLUGOUT": "unplug {0}", "CUT": "cut {0}", "EAT": "eat {0}",
    "SLEEP": "sleep", "WAKEUP": "wake up", "RELEASE": "release {0}",
}

# Extra natural phrasings accepted on input (never produced on output).
_TEXT_SYNONYMS: dict[str, str] = {
    "turn on {0}": "SWITCHON", "turn off {0}": "SWITCHOFF",
    "pick up {0}": "GRAB", "take {0}": "GRAB", "go to {0}": "WALK",
    "walk {0}": "WALK", "put {0} into {1}": "PUTIN", "put {0} onto {1}": "PUTBACK",
    "place {0} on {1}": "PUTBACK", "place {0} in {1}": "PUTIN",
    "plug out {0}": "PLUGOUT", "look {0}": "LOOKAT", "lie down on {0}": "LIE",
    "sit down on {0}": "SIT", "sit {0}": "SIT", "get up": "STANDUP",
    "walk towards {0}": "WALK", "switch {0} on": "SWITCHON", "switch {0} off": "SWITCHOFF",
}

_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_\-']*$")
_SCRIPT_LINE_RE = re.compile(r"^\s*\[\s*([A-Za-z_]+)\s*\]\s*(.*?)\s*$")
_SCRIPT_ARG_RE = re.compile(r"<\s*([^<>()]+?)\s*>\s*(?:\(\s*([0-9]+(?:\.[0-9]+)?)\s*\))?")
_MAX_LINE = 500


def normalize_name(name: str) -> str:
    """Canonical class name: lower case, spaces to underscores (``coffee maker`` ->
    ``coffee_maker``)."""
    return re.sub(r"\s+", "_", name.strip().lower())


def display_name(name: str) -> str:
    """Human/embedding form of a class name (underscores to spaces)."""
    return name.replace("_", " ")


@dataclass(frozen=True)
class Argument:
    """An object argument: a class name and, once resolved, a node id."""

    name: str
    id: int | None = None

    def to_script(self) -> str:
        return f"<{self.name}>" + (f" ({self.id})" if self.id is not None else "")


@dataclass(frozen=True)
class Step:
    """One action with its arguments (``len(args) == ACTION_ARITY[action]``)."""

    action: str
    args: tuple[Argument, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.action, str):
            raise ProgramParseError(f"an action is a name such as 'GRAB', got {type(self.action).__name__}")
        if isinstance(self.args, list):
            object.__setattr__(self, "args", tuple(self.args))
        if not isinstance(self.args, tuple) or not all(isinstance(a, Argument) for a in self.args):
            raise ProgramParseError("step arguments must be a tuple of Argument(name, id)")
        act = self.action.upper()
        if act not in ACTION_ARITY:
            raise ProgramParseError(
                f"unknown action {self.action!r}; use one of the 44 VirtualHome actions "
                f"(e.g. WALK, GRAB, PUTIN, SWITCHON)", line=self.action)
        object.__setattr__(self, "action", act)
        if len(self.args) != ACTION_ARITY[act]:
            raise ProgramParseError(
                f"{act} takes {ACTION_ARITY[act]} argument(s), got {len(self.args)}",
                line=self.action)

    @classmethod
    def of(cls, action: str, *names: str | tuple[str, int | None]) -> "Step":
        """Convenience constructor: ``Step.of("putin", "mug", ("fridge", 40))``."""
        args = []
        for n in names:
            if isinstance(n, tuple):
                args.append(Argument(normalize_name(n[0]), n[1]))
            else:
                args.append(Argument(normalize_name(n)))
        return cls(action, tuple(args))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(a.name for a in self.args)

    @property
    def ids(self) -> tuple[int | None, ...]:
        return tuple(a.id for a in self.args)

    @property
    def is_resolved(self) -> bool:
        return all(a.id is not None for a in self.args)

    def unresolved(self) -> "Step":
        """The class-level step (node ids dropped)."""
        return Step(self.action, tuple(Argument(a.name) for a in self.args))

    def with_ids(self, ids: Sequence[int]) -> "Step":
        if len(ids) != len(self.args):
            raise ProgramParseError(f"{self.action} needs {len(self.args)} ids, got {len(ids)}")
        return Step(self.action, tuple(Argument(a.name, int(i)) for a, i in zip(self.args, ids)))

    def to_script(self) -> str:
        """``[PUTIN] <mug> (12) <fridge> (40)``."""
        return " ".join([f"[{self.action}]", *(a.to_script() for a in self.args)])

    def to_text(self) -> str:
        """Admissible-action string, e.g. ``put mug in fridge``."""
        return ACTION_TEMPLATES[self.action].format(*(display_name(a.name) for a in self.args))

    def to_dict(self) -> dict:
        return {"action": self.action, "args": [[a.name, a.id] for a in self.args]}

    @classmethod
    def from_dict(cls, d: dict) -> "Step":
        try:
            return cls(d["action"], tuple(Argument(str(n), None if i is None else int(i))
                                          for n, i in d.get("args", [])))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ProgramParseError(f"bad step record {d!r:.200}: {exc}; expected "
                                    "{'action': 'GRAB', 'args': [['mug', 12]]}") from None

    def __str__(self) -> str:
        return self.to_script()


def _check_name(raw: str, line: str) -> str:
    name = normalize_name(raw)
    if not name or not _NAME_RE.match(name):
        raise ProgramParseError(
            f"bad object name {raw!r}: use letters, digits and underscores (e.g. <coffee_maker>)",
            line=line)
    return name


def parse_script_step(line: str) -> Step:
    """Parse ``[ACTION] <obj> (id) <obj2> (id2)``; ids optional, ``(1.319)`` accepted.

    Raises:
        ProgramParseError: unknown action, wrong arity, bad id or trailing junk.
    """
    m = _SCRIPT_LINE_RE.match(line)
    if not m:
        raise ProgramParseError("expected '[ACTION] <object> (id)'", line=line)
    action, rest = m.group(1).upper(), m.group(2)
    args: list[Argument] = []
    pos = 0
    for am in _SCRIPT_ARG_RE.finditer(rest):
        if rest[pos:am.start()].strip():
            raise ProgramParseError(f"unexpected text {rest[pos:am.start()].strip()!r}; "
                                    "arguments look like '<mug> (12)'", line=line)
        name = _check_name(am.group(1), line)
        rid = am.group(2)
        node_id = None
        if rid is not None:
            node_id = int(rid.split(".")[-1]) if "." in rid else int(rid)
        args.append(Argument(name, node_id))
        pos = am.end()
    if rest[pos:].strip():
        raise ProgramParseError(f"unexpected text {rest[pos:].strip()!r}; arguments look "
                                "like '<mug> (12)'", line=line)
    if action not in ACTION_ARITY:
        raise ProgramParseError(f"unknown action [{action}]; valid actions: "
                                f"{', '.join(sorted(ACTION_ARITY))}", line=line)
    if len(args) != ACTION_ARITY[action]:
        raise ProgramParseError(f"[{action}] takes {ACTION_ARITY[action]} argument(s), "
                                f"got {len(args)}", line=line)
    return Step(action, tuple(args))


def _compile_text_patterns() -> list[tuple[re.Pattern, str]]:
    pats: list[tuple[str, str]] = [(t, a) for a, t in ACTION_TEMPLATES.items()]
    pats += list(_TEXT_SYNONYMS.items())
    # Longer literal prefixes first so "put back {0}" beats "put {0} on {1}".
    pats.sort(key=lambda p: -len(p[0].replace("{0}", "").replace("{1}", "")))
    out = []
    for tmpl, act in pats:
        rx = re.escape(tmpl).replace(r"\{0\}", r"(?P<a>.+?)").replace(r"\{1\}", r"(?P<b>.+?)")
        out.append((re.compile(rf"^{rx}$"), act))
    return out


_TEXT_PATTERNS = _compile_text_patterns()
_ARTICLES = re.compile(r"\b(the|a|an|some|your)\b\s*")


def parse_text_step(text: str) -> Step:
    """Parse a natural admissible-action string (``put mug in fridge``).

    Case-insensitive; leading step numbers (``1.``, ``Step 2:``) and articles are
    ignored.

    Raises:
        ProgramParseError: when no action template matches.
    """
    t = text.strip().lower().rstrip(".")
    t = re.sub(r"^(step\s*)?\d+\s*[.:)]\s*", "", t)
    t = _ARTICLES.sub("", t).strip()
    t = re.sub(r"\s+", " ", t)
    for rx, act in _TEXT_PATTERNS:
        m = rx.match(t)
        if m:
            names = [m.group(g) for g in ("a", "b") if g in rx.groupindex]
            return Step(act, tuple(Argument(_check_name(n, text)) for n in names))
    raise ProgramParseError(
        "not an admissible-action phrase; write e.g. 'walk to bathroom', 'grab mug', "
        "'put mug in sink' or the script form '[GRAB] <mug> (12)'", line=text)


def parse_step(line: str) -> Step:
    """Parse one step in either script form or natural text.

    Raises:
        ProgramParseError: malformed line (see the message for the expected form).
    """
    if not isinstance(line, str):
        raise ProgramParseError(f"a step must be text, got {type(line).__name__}")
    if len(line) > _MAX_LINE:
        raise ProgramParseError(f"line is {len(line)} characters; steps are at most {_MAX_LINE}",
                                line=line)
    if line.lstrip().startswith("["):
        return parse_script_step(line)
    return parse_text_step(line)


@dataclass(frozen=True)
class Program:
    """An ordered plan. Plain data; JSON and script round trips.

    Attributes:
        steps: the steps, in execution order.
        task: task name (dataset line 1), may be empty.
        description: task description (dataset line 2), may be empty.
    """

    steps: tuple[Step, ...] = ()
    task: str = ""
    description: str = ""
    meta: dict = field(default_factory=dict, compare=False, hash=False)

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self):
        return iter(self.steps)

    def __getitem__(self, i):
        return self.steps[i]

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(s.action for s in self.steps)

    def unresolved(self) -> "Program":
        return Program(tuple(s.unresolved() for s in self.steps), self.task, self.description)

    def replace_steps(self, steps: Iterable[Step]) -> "Program":
        return Program(tuple(steps), self.task, self.description, dict(self.meta))

    def to_script(self, header: bool = False) -> str:
        """Script text, one step a line; with ``header`` the dataset layout
        (task, description, blank line, steps)."""
        body = "\n".join(s.to_script() for s in self.steps)
        if header:
            return f"{self.task}\n{self.description}\n\n{body}\n"
        return body

    def to_text(self) -> list[str]:
        return [s.to_text() for s in self.steps]

    def to_dict(self) -> dict:
        return {"task": self.task, "description": self.description,
                "steps": [s.to_dict() for s in self.steps]}

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, d: dict) -> "Program":
        if not isinstance(d, dict) or "steps" not in d:
            raise ProgramParseError("program JSON needs a 'steps' list")
        return cls(tuple(Step.from_dict(s) for s in d["steps"]), str(d.get("task", "")),
                   str(d.get("description", "")))

    @classmethod
    def from_json(cls, text: str) -> "Program":
        try:
            return cls.from_dict(json.loads(text))
        except json.JSONDecodeError as exc:
            raise ProgramParseError(f"invalid program JSON: {exc.msg} at line {exc.lineno}") from None

    @classmethod
    def parse(cls, text: str, task: str = "", description: str = "") -> "Program":
        """Parse a program, one step a line (script or natural text mixed).

        Blank lines and ``#`` comments are skipped. A dataset file (task name on
        line 1, description on line 2, then script steps) is recognised when its
        first line is not a step; use :meth:`parse_dataset` to be explicit.

        Raises:
            ProgramParseError: with the 1-based line number of the first bad line.
        """
        lines = text.splitlines()
        if lines and not _looks_like_step(lines[0]) and any(
                ln.lstrip().startswith("[") for ln in lines[1:]):
            return cls.parse_dataset(text)
        steps = []
        for i, ln in enumerate(lines, 1):
            if not ln.strip() or ln.lstrip().startswith("#"):
                continue
            try:
                steps.append(parse_step(ln))
            except ProgramParseError as exc:
                raise ProgramParseError(str(exc), line=ln, lineno=i) from None
        return cls(tuple(steps), task, description)

    @classmethod
    def parse_dataset(cls, text: str) -> "Program":
        """Parse the VirtualHome dataset layout: task, description, then steps."""
        lines = text.splitlines()
        task = lines[0].strip() if lines else ""
        desc = lines[1].strip() if len(lines) > 1 else ""
        steps = []
        for i, ln in enumerate(lines[2:], 3):
            if not ln.strip():
                continue
            try:
                steps.append(parse_script_step(ln))
            except ProgramParseError as exc:
                raise ProgramParseError(str(exc), line=ln, lineno=i) from None
        return cls(tuple(steps), task, desc)


def _looks_like_step(line: str) -> bool:
    try:
        parse_step(line)
        return True
    except ProgramParseError:
        return False
