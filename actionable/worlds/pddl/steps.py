"""PDDL actions in the project's step vocabulary (:class:`~actionable.core.program.Step`).

The base :class:`Step` knows VirtualHome's 44 actions only. A PDDL domain names its own actions
(``pick-up``, ``stack``, ``switch-on``), so :class:`PddlStep` is a ``Step`` whose action is the
domain's action name (lower case, as written) and whose arguments are the problem's objects:
``PddlStep("stack", (Argument("a", "a"), Argument("b", "b")))``. A PDDL object is an individual,
so its *class* (the name the planner scores) and its *id* (what the world executes) are the same
string; a class-level step has ``id=None``.

Text forms (all read back by the world, :meth:`PddlWorld.parse`):

* :meth:`PddlStep.to_script`: PDDL plan syntax ``(stack a b)`` (what ``plan --format script``
  prints and what a planner's plan file holds);
* :meth:`PddlStep.to_text`: the phrase the planning LM scores, ``stack a b`` / ``pick up a``
  (the action name's hyphens as spaces, the objects as named);
* :func:`format_action`: the world's ``Name(args)`` form, ``stack(a, b)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from actionable.core.program import Argument, Step
from actionable.core.errors import ProgramParseError

#: a PDDL name (action, object): a letter, then letters, digits, ``-`` or ``_``
NAME = re.compile(r"^[a-z][a-z0-9_\-]*$")


@dataclass(frozen=True)
class PddlStep(Step):
    """A step of a PDDL action (see the module doc). ``action`` is the domain's action name
    (lower-cased, never upper-cased as VirtualHome's are, so it never collides with them);
    ``args`` are :class:`Argument` (object name, object name or ``None``). The arity is checked
    by the world that runs it, which knows the domain.

    Raises:
        ProgramParseError: the action or an object is not a PDDL name.
    """

    def __post_init__(self) -> None:
        if not isinstance(self.action, str) or not NAME.match(self.action.strip().lower()):
            raise ProgramParseError(f"a PDDL action is a name such as 'pick-up', got {self.action!r:.60}")
        object.__setattr__(self, "action", self.action.strip().lower())
        if isinstance(self.args, list):
            object.__setattr__(self, "args", tuple(self.args))
        if not isinstance(self.args, tuple) or not all(isinstance(a, Argument) for a in self.args):
            raise ProgramParseError("step arguments must be a tuple of Argument(name, id)")
        object.__setattr__(self, "args", tuple(
            Argument(a.name.lower(), a.id.lower() if isinstance(a.id, str) else a.id) for a in self.args))
        for a in self.args:
            if not NAME.match(a.name):
                raise ProgramParseError(f"a PDDL object is a name such as 'block-a', got {a.name!r:.60}")

    @classmethod
    def of(cls, action: str, *names: str) -> "PddlStep":
        """Resolved step over objects: ``PddlStep.of("stack", "a", "b")``."""
        return cls(action, tuple(Argument(n.lower(), n.lower()) for n in names))

    def unresolved(self) -> "PddlStep":
        return PddlStep(self.action, tuple(Argument(a.name) for a in self.args))

    def resolved(self) -> "PddlStep":
        """Every argument bound to the object it names (a PDDL object is its own instance)."""
        return PddlStep(self.action, tuple(Argument(a.name, a.name) for a in self.args))

    def with_ids(self, ids: Sequence) -> "PddlStep":
        if len(ids) != len(self.args):
            raise ProgramParseError(f"{self.action} needs {len(self.args)} ids, got {len(ids)}")
        return PddlStep(self.action, tuple(Argument(a.name, str(i)) for a, i in zip(self.args, ids)))

    def to_script(self) -> str:
        """``(stack a b)``: PDDL plan syntax."""
        return "(" + " ".join([self.action, *self.names]) + ")"

    def to_text(self) -> str:
        """``stack a b``, ``pick up a``: the phrase the planning LM scores."""
        return " ".join([self.action.replace("-", " ").replace("_", " "), *self.names])

    @classmethod
    def from_dict(cls, d: dict) -> "PddlStep":
        """From :meth:`to_dict` output (``{"action": "stack", "args": [["a", "a"], ["b", null]]}``).

        Raises:
            ProgramParseError: a malformed record."""
        try:
            return cls(str(d["action"]), tuple(Argument(str(n), None if i is None else str(i))
                                               for n, i in d.get("args", [])))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ProgramParseError(f"bad PDDL step record {d!r:.200}: {exc}; expected "
                                    "{'action': 'stack', 'args': [['a', 'a'], ['b', 'b']]}") from None

    def __str__(self) -> str:
        return self.to_script()


def format_action(name: str, args: Sequence[str]) -> str:
    """The world's ``Name(args)`` form: ``stack(a, b)``, ``handempty-check()``."""
    return f"{name}({', '.join(args)})"


#: ``(stack a b)`` (PDDL plan syntax) and ``stack(a, b)`` / ``stack(a b)`` (the world's form)
_SEXP = re.compile(r"^\(\s*([^\s()]+)((?:\s+[^\s()]+)*)\s*\)$")
_CALL = re.compile(r"^([^\s(),]+)\s*\(([^()]*)\)$")


def split_action(text: str) -> tuple[str, list[str]] | None:
    """``"(stack a b)"`` / ``"stack(a, b)"`` -> ``("stack", ["a", "b"])`` (lower case), else
    ``None``. A trailing IPC cost annotation (``[1]``) is dropped."""
    t = re.sub(r"\s*\[\s*[0-9.]+\s*\]\s*$", "", text.strip())
    m = _SEXP.match(t)
    if m:
        return m.group(1).lower(), [x.lower() for x in m.group(2).split()]
    m = _CALL.match(t)
    if m:
        return m.group(1).lower(), [x.strip().strip("'\"").lower() for x in re.split(r"[,\s]+", m.group(2))
                                    if x.strip()]
    return None


def split_phrase(text: str, actions: Sequence[str]) -> tuple[str, list[str]] | None:
    """``"pick up a"`` (:meth:`PddlStep.to_text`) -> ``("pick-up", ["a"])`` given the domain's
    action names (the longest action whose words start the phrase); ``None`` when none does."""
    words = text.strip().lower().split()
    best = None
    for a in actions:
        aw = a.replace("-", " ").replace("_", " ").split()
        if words[:len(aw)] == aw and (best is None or len(aw) > len(best[1])):
            best = (a, aw)
    if best is None:
        return None
    return best[0], words[len(best[1]):]


__all__ = ["PddlStep", "format_action", "split_action", "split_phrase", "NAME"]
