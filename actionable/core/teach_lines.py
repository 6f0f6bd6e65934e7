"""TEACh-style action lines and the shared step vocabulary.

Plan-verification work on TEACh (arXiv 2509.02761, Sec. 4) flattens each episode to lines such as
``PickUp(Mug)``, ``PutAOnB(Mug, CounterTop)``, ``ToggleOn(Faucet)``; the code of that paper
(AnanthHariharan/Task-Agents) writes ``Driver.PickUp('Mug')``. :func:`parse_teach_action` reads the
first form into a class-level :class:`~actionable.core.program.Step` (``GRAB mug``), and
:func:`split_line` the second into its parts. Both the plan readers of verification and the THOR
world's adapter read these lines, so they live in the core.
"""

from __future__ import annotations

import re

from actionable.core.errors import InputError, ProgramParseError
from actionable.core.program import ACTION_ARITY, Argument, Step

#: TEACh-style action name (lower case, no spaces) -> step action
TEACH_ACTIONS: dict[str, str] = {
    "pickup": "GRAB", "place": "PUTBACK", "putaonb": "PUTBACK", "put": "PUTBACK", "open": "OPEN",
    "close": "CLOSE", "toggleon": "SWITCHON", "toggleoff": "SWITCHOFF", "slice": "CUT", "pour": "POUR",
    "navigate": "WALK", "goto": "WALK", "gotolocation": "WALK", "clean": "WIPE", "putin": "PUTIN",
    "pourfromaintob": "POUR",
}
#: TEACh motion primitives (no object; not plan steps)
MOTION = frozenset({"forward", "backward", "turnleft", "turnright", "panleft", "panright", "lookup",
                    "lookdown", "stop", "text", "speech", "navigation", "strafeleft", "straferight"})
_CALL_RE = re.compile(r"^\s*([A-Za-z_ ]+?)\s*(?:\(\s*(.*?)\s*\))?\s*$")


def snake(name: str) -> str:
    """``CounterTop`` / ``Counter Top`` -> ``counter_top``."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name.strip())
    return re.sub(r"[\s\-]+", "_", s).lower()


def parse_teach_action(text: str, held: str | None = None) -> Step | None:
    """One TEACh action string -> a class-level :class:`Step`; ``None`` for a
    motion primitive.

    Raises:
        ProgramParseError: unknown action or wrong number of objects.
    """
    m = _CALL_RE.match(str(text))
    if not m:
        raise ProgramParseError("expected 'Action(Object)' or 'Action(Object, Target)'", line=str(text))
    name = m.group(1).replace(" ", "").replace("_", "").lower()
    objs = [snake(o) for o in (m.group(2) or "").split(",") if o.strip()]
    if name in MOTION:
        return None
    act = TEACH_ACTIONS.get(name) or (name.upper() if name.upper() in ACTION_ARITY else None)
    if act is None:
        raise ProgramParseError(f"unknown TEACh action {m.group(1)!r}; known: "
                                f"{', '.join(sorted(TEACH_ACTIONS))} or a VirtualHome action", line=str(text))
    if act in ("PUTBACK", "POUR", "PUTIN") and len(objs) == 1 and held:
        objs = [held] + objs
    if len(objs) != ACTION_ARITY[act]:
        raise ProgramParseError(f"{m.group(1)} needs {ACTION_ARITY[act]} object(s), got {len(objs)}",
                                line=str(text))
    return Step(act, tuple(Argument(o) for o in objs))


_LINE = re.compile(r"^\s*(Driver|Commander)\.(\w+)\((.*)\)\s*$")
#: driver actions that move the agent in Task-Agents' lines (no object; not plan steps)
SEQ_MOTION = frozenset({"Move", "TurnLeft", "TurnRight", "Navigation", "Forward", "Backward", "Pan", "LookUp",
                    "LookDown"})
#: seq line action -> TEACh-style action name read by actionable.verify.teach
SEQ_ACTIONS = {"PickUp": "PickUp", "PutAOnB": "PutAOnB", "PourFromAIntoB": "Pour", "ToggleOn": "ToggleOn",
               "ToggleOff": "ToggleOff", "Open": "Open", "Close": "Close", "Slice": "Slice", "Place": "Place",
               "Pour": "Pour", "Clean": "Clean"}


def split_line(line: str) -> tuple[str, str, list[str]] | None:
    """``"Driver.PutAOnB('Mug', 'Sink')"`` -> ``("Driver", "PutAOnB", ["Mug", "Sink"])``;
    ``None`` for a line that is not ``Who.Action(args)``."""
    m = _LINE.match(line)
    if not m:
        return None
    args = [a.strip().strip("'\"") for a in re.findall(r"'[^']*'|\"[^\"]*\"|[^,]+", m.group(3)) if a.strip()]
    return m.group(1), m.group(2), args



def is_driver_action(line: str) -> bool:
    """A ``Driver.*`` line other than ``Driver.Say`` (the unit of the labels)."""
    p = split_line(line)
    return p is not None and p[0] == "Driver" and p[1] != "Say"


def is_object_action(line: str) -> bool:
    """A driver action on objects (a plan step), i.e. not motion and not speech."""
    p = split_line(line)
    return p is not None and p[0] == "Driver" and p[1] != "Say" and p[1] not in SEQ_MOTION


def teach_text(line: str) -> str:
    """A seq line -> TEACh-style action text: ``Driver.PourFromAIntoB('Mug', 'Sink')`` -> ``Pour(Mug, Sink)``.

    Raises:
        InputError: not an object action of the driver.
    """
    p = split_line(line)
    if p is None or p[0] != "Driver" or p[1] not in SEQ_ACTIONS:
        raise InputError(f"not a driver object action: {line[:80]!r}")
    return f"{SEQ_ACTIONS[p[1]]}({', '.join(p[2])})"


def align(short: list[str], noised: list[str]) -> list[tuple[int, int]]:
    """Longest common subsequence of two line lists as ``[(i_short, j_noised)]`` pairs, ties broken
    by matching each ``short[i]`` to the earliest ``noised[j]`` that keeps the alignment longest.
    O(len(short) * len(noised))."""
    n, m = len(short), len(noised)
    L = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            L[i][j] = L[i + 1][j + 1] + 1 if short[i] == noised[j] else max(L[i + 1][j], L[i][j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if short[i] == noised[j] and L[i][j] == L[i + 1][j + 1] + 1:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif L[i][j + 1] >= L[i + 1][j]:
            j += 1
        else:
            i += 1
    return out


__all__ = ["MOTION", "SEQ_ACTIONS", "SEQ_MOTION", "TEACH_ACTIONS", "parse_teach_action", "snake", "split_line", "is_driver_action", "is_object_action", "teach_text", "align"]
