"""The driving world's instruction language for ExRAP's LM interpreter (arXiv 2509.08222, Eq. 4).

:class:`DrivingVocabulary` is the town's :class:`~actionable.core.continual.InstructionVocabulary`:
the LM rewrites an instruction as ``query: ...`` / ``execution: ...`` with the few-shot
:data:`DRIVING_PROMPT`, the translation LM maps each part to the nearest *admissible* clause over
the streets and places the sentence names (Huang et al. 2022, Sec. 3), and the parsers below turn
the chosen clauses into predicates and skills (the rule reader :func:`~.continual.parse_driving` reads its clauses with the same parsers). The
rule reader (:func:`~.continual.parse_driving`) stays the fallback, so an instruction the LM
misreads is still followed as the rules read it, and the run record says which reader read it.

Canonical clauses (the ``query_text`` / ``execution_text`` of the rule reader):

==================================================  ==============================
query                                               execution
==================================================  ==============================
``light on <street> is red``                        ``stop on <street>``
``pedestrian is waiting at the crossing at the <P>`` ``yield at the <P>``
``left lane of <street> is blocked``                ``keep right on <street>``
``car ahead is stalled``                            ``overtake the car ahead``
==================================================  ==============================
"""

from __future__ import annotations

import re

from actionable.core.continual import Instruction, Predicate, Skill
from actionable.core.errors import InputError

#: few-shot prompt of the driving reading (the household prompt's layout, driving sentences)
DRIVING_PROMPT = (
    "Rewrite each driving instruction as a condition to check and an action to do.\n"
    "Instruction: If the light on Mill Road towards the station is red, stop before the line.\n"
    "query: light on Mill Road towards the station is red\nexecution: stop on Mill Road towards the station\n"
    "Instruction: Whenever someone waits at the crossing at the school, yield to them.\n"
    "query: pedestrian is waiting at the crossing at the school\nexecution: yield at the school\n"
    "Instruction: When the left lane of Bridge Street towards the park is blocked, keep to the right lane there.\n"
    "query: left lane of Bridge Street towards the park is blocked\n"
    "execution: keep right on Bridge Street towards the park\n"
    "Instruction: {text}\nquery:"
)

CAR_QUERY, CAR_EXECUTION = "car ahead is stalled", "overtake the car ahead"
#: object ids of the ego and the car ahead (the town's id layout: see :mod:`.continual`)
EGO_ID, CAR = 65, 400
#: the two states of each object class, for ExRAP's cloze answers
ALTERNATIVES = {"light": ("red", "green"), "left_lane": ("blocked", "free"),
                "crossing": ("waiting", "clear"), "car_ahead": ("stalled", "moving")}


class DrivingVocabulary:
    """The town's instruction language on one :class:`~.continual.DrivingHouse` (see the module
    docstring). ``prompt`` is the interpreter's few-shot prompt (``{text}`` is the instruction).

    Parsers raise :class:`~actionable.core.errors.InputError` naming the clause they cannot read."""

    prompt = DRIVING_PROMPT

    def __init__(self, house, rule_reader):
        self.house, self._rule_reader = house, rule_reader
        town = house.town
        self._streets: dict[str, tuple[int, str]] = {}
        for k, e in enumerate(town.streets):  # the first street of a name, as the rule reader's street_of
            self._streets.setdefault(town.street_name(e).lower(), (k, town.street_name(e)))
        self._places = {n.lower(): r for r, n in house.rooms.items()}

    # ------------------------------------------------------------------ candidates
    def _named(self, text: str) -> tuple[list[str], list[str]]:
        t = " ".join(text.lower().split())
        streets = [self._streets[s][1] for s in self._streets if s in t]
        places = [self.house.rooms[r] for n, r in self._places.items()
                  if re.search(rf"\b(?:the )?{re.escape(n)}\b", t) and not any(n in s.lower() for s in streets)]
        return streets, places

    def clauses(self, text: str) -> tuple[list[str], list[str]]:
        """``(queries, executions)``: the canonical clauses over the streets and places ``text``
        names, and the car-ahead pair (the translation LM's candidates); every street when the
        sentence names none but says "light" or "lane" (so a near-name still has candidates)."""
        streets, places = self._named(text)
        if not streets and re.search(r"\b(?:light|lane)\b", text.lower()):
            streets = [name for _, name in self._streets.values()]
        qs, es = [CAR_QUERY], [CAR_EXECUTION]
        for s in streets:  # each action in its canonical and its spelled-out words (better MiniLM targets)
            qs += [f"light on {s} is red", f"left lane of {s} is blocked"]
            es += [f"stop on {s}", f"stop before the line on {s}", f"keep right on {s}",
                   f"change to the right lane on {s}"]
        for p in places:
            qs.append(f"pedestrian is waiting at the crossing at the {p}")
            es += [f"yield at the {p}", f"yield to the pedestrian at the {p}"]
        return qs, es

    def complete_execution(self, execution: str, query: str) -> str:
        """The LM's execution with its condition's street or place added when it names none
        ("stop before the line" + "light on X is red" -> "stop before the line on X"): the actions
        are said without their object, and the rule reader reads them as the condition's."""
        streets, places = self._named(execution)
        if streets or places:
            return execution
        qs, qp = self._named(query)
        if qs:
            return f"{execution} on {qs[0]}"
        return f"{execution} at the {qp[0]}" if qp else execution

    # ------------------------------------------------------------------ parsers
    def _street(self, name: str, clause: str) -> tuple[int, str]:
        got = self._streets.get(" ".join(name.lower().split()))
        if got is None:
            raise InputError(f"cannot read {clause!r}: no street {name!r}")
        return got

    def _place(self, name: str, clause: str) -> tuple[int, str]:
        r = self._places.get(name.lower().strip())
        if r is None:
            raise InputError(f"cannot read {clause!r}: no place {name!r}; places: "
                             f"{', '.join(sorted(self.house.rooms.values()))}")
        return r, self.house.rooms[r]

    def parse_condition(self, text: str) -> tuple[Predicate, ...]:
        """A canonical query clause -> its predicates (one; see the module docstring)."""
        c = " ".join(text.lower().strip().rstrip(".").split())
        if c in (CAR_QUERY, "the " + CAR_QUERY):
            return (Predicate("state", CAR, "stalled"),)
        m = re.fullmatch(r"(?:the )?light on (.+) is red", c)
        if m:
            return (Predicate("state", 100 + self._street(m[1], text)[0], "red"),)
        m = re.fullmatch(r"(?:the )?left lane of (.+) is blocked", c)
        if m:
            return (Predicate("state", 200 + self._street(m[1], text)[0], "blocked"),)
        m = re.fullmatch(r"(?:a )?pedestrian is waiting at the crossing at (?:the )?(.+)", c)
        if m:
            return (Predicate("state", 300 + (self._place(m[1], text)[0] - 1000), "waiting"),)
        raise InputError(f"cannot read the condition {text!r}; conditions: 'light on <street> is red', "
                         "'pedestrian is waiting at the crossing at the <place>', 'left lane of <street> is "
                         "blocked', 'car ahead is stalled'")

    def parse_execution(self, text: str) -> tuple[tuple[Skill, ...], tuple[Predicate, ...]]:
        """A canonical execution clause -> ``(skills, goal predicates)`` (the rule reader's)."""
        c = " ".join(text.lower().strip().rstrip(".").split())
        if c == CAR_EXECUTION:
            return (Skill("overtake", (CAR,), "overtake the car ahead"),), (Predicate("state", EGO_ID, "overtook"),)
        m = re.fullmatch(r"stop (?:before the line )?on (.+)", c)
        if m:
            k, name = self._street(m[1], text)
            return ((Skill("stop_on", (100 + k,), f"stop before the line on {name}"),),
                    (Predicate("state", EGO_ID, f"halted_on:{k}"),))
        m = re.fullmatch(r"(?:keep right|change to the right lane) on (.+)", c)
        if m:
            k, name = self._street(m[1], text)
            return ((Skill("keep_right", (200 + k,), f"drive in the right lane of {name}"),),
                    (Predicate("state", EGO_ID, f"right_lane:{k}"),))
        m = re.fullmatch(r"yield (?:to the pedestrian )?at (?:the )?(.+)", c)
        if m:
            r, name = self._place(m[1], text)
            return ((Skill("yield_at", (300 + (r - 1000),), f"yield at the crossing at the {name}"),),
                    (Predicate("state", EGO_ID, f"halted_at:{r - 1000}"),))
        raise InputError(f"cannot read the action {text!r}; actions: 'stop on <street>', 'yield at the <place>', "
                         "'keep right on <street>', 'overtake the car ahead'")

    def parse_instruction(self, text: str) -> Instruction:
        """The rule reader (:func:`~.continual.parse_driving`), the interpreter's fallback."""
        return self._rule_reader(text)

    def cloze(self, preds) -> tuple:
        """``(entity, "is", value, alternatives)`` per predicate, for ExRAP's cloze answers."""
        return tuple((self.house.entity(p.node), "is", p.value, ALTERNATIVES[self.house.class_of[p.node]])
                     for p in preds)


__all__ = ["ALTERNATIVES", "CAR", "CAR_EXECUTION", "CAR_QUERY", "DRIVING_PROMPT", "DrivingVocabulary", "EGO_ID"]
