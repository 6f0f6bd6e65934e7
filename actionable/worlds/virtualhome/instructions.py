"""Conditional instructions: a *query* (condition) and an *execution* (skills).

ExRAP (arXiv 2509.08222, Sec. 3) writes a continual instruction as a pair
(query, execution): "whenever the TV is on, switch it off" is the query
*television is on* and the execution *switch off the television*. Here:

* :class:`Predicate` is one fact over the **true** scene graph (used only for
  scoring): ``state`` (on/off/open/closed), ``on`` (object on a surface) or
  ``in_room``. A :class:`Instruction` holds the query and goal as conjunctions
  of predicates, the execution as :class:`~actionable.worlds.virtualhome.nonstationary.Skill`
  objects, and the natural-language ``text`` the agent reads.
* :data:`TEMPLATES` are 24 instruction templates grounded in the scene's
  objects; :func:`sample_instructions` draws sets of 3 / 5 / 7 by seed, with no
  object shared between two instructions of a set.
* :func:`parse_condition` / :func:`parse_execution` turn canonical clauses
  ("television in the dining room is on", "switch off television in the dining
  room") into predicates and skills; :mod:`actionable.continual.interpreter`
  uses them to check the LLM's interpretation (Eq. 4).

Object names in text are ``<class> in the <room>`` (underscores as spaces) for
fixed objects and the bare class for movable ones; only objects whose name is
unique in the house are used, so a name always denotes one node.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from actionable.core.continual import (Instruction, Predicate, Skill, holds_all, read_instructions_file,  # noqa: F401
                                     save_instructions)
from actionable.core.errors import InputError
from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse



# ----------------------------------------------------------------------------- names
def name_of(house: NonStationaryHouse, node: int) -> str:
    """Text name of a node: ``television in the dining room`` / ``cup`` / ``bedroom``."""
    if node in house.rooms:
        return house.rooms[node].replace("_", " ")
    cls = house.class_of[node].replace("_", " ")
    if node in house.movables:
        return cls
    return f"{cls} in the {house.rooms[house.static_room[node]].replace('_', ' ')}"


#: VirtualHome class names (underscores as spaces) shown to a person as written in English; the
#: readers map both spellings back to the class (``coffe_maker`` is the dataset's spelling)
READABLE = {"coffe maker": "coffee maker", "food food": "food", "tablelamp": "table lamp", "tvstand": "TV stand"}
_TO_CLASS = [(re.compile(rf"\b(?:{re.escape(k)}|{re.escape(v.lower())})\b"), k)
             for k, v in sorted(READABLE.items(), key=lambda kv: -len(kv[1]))]


def readable(cls: str) -> str:
    """A class as a person reads it: ``coffe_maker`` -> ``coffee maker``, ``cup`` -> ``cup``."""
    c = cls.replace("_", " ")
    return READABLE.get(c, c)


def class_words(text: str) -> str:
    """Lower-case ``text`` with readable names put back to the dataset's (``coffee maker`` ->
    ``coffe maker``), as :func:`name_table` spells them; other words unchanged."""
    low = text.lower()
    for rx, cls in _TO_CLASS:
        low = rx.sub(cls, low)
    return low


def is_plural(cls: str) -> bool:
    """``band-aids``, ``keys``: the verb is ``are`` and the pronoun ``them`` (a final ``s``, not
    ``ss`` / ``us``)."""
    last = readable(cls).split()[-1].lower()
    return last.endswith("s") and not last.endswith(("ss", "us"))


def display_name(house: NonStationaryHouse, node: int) -> str:
    """:func:`name_of` as a person reads it: ``coffee maker in the kitchen``, ``TV stand``."""
    if node in house.rooms:
        return name_of(house, node)
    cls = readable(house.class_of[node])
    if node in house.movables:
        return cls
    return f"{cls} in the {house.rooms[house.static_room[node]].replace('_', ' ')}"


def name_table(house: NonStationaryHouse) -> dict[str, int]:
    """Unique text name -> node id for every usable object and room."""
    counts: dict[str, list[int]] = {}
    for n in list(house.dynamic) + list(house.surfaces) + list(house.rooms):
        counts.setdefault(name_of(house, n), []).append(n)
    return {k: v[0] for k, v in counts.items() if len(v) == 1}


#: everyday names of VirtualHome classes ("the fridge" is the dataset's freezer), tried when the
#: name itself is no class of the house
EVERYDAY_NAMES = {"fridge": "freezer", "refrigerator": "freezer", "sofa": "couch", "settee": "couch",
                  "tv": "television", "telly": "television", "tap": "faucet"}


def _lookup(house: NonStationaryHouse, name: str, table: dict[str, int]) -> int:
    key = re.sub(r"\s+", " ", class_words(name.strip().replace("_", " ")))
    key = re.sub(r"^(the|a|an)\s+", "", key)
    key = re.sub(r"\bin (?:the )?", "in the ", key)
    head = key.split(" in the ")[0]
    if head in EVERYDAY_NAMES and not any(k.split(" in the ")[0] == head for k in table):
        key = EVERYDAY_NAMES[head] + key[len(head):]  # "fridge" -> "freezer"
    if key in table:
        return table[key]
    cls = key.split(" in the ")[0]
    same = [k for k in table if k.split(" in the ")[0] == cls]
    if " in the " not in key and len(same) == 1 and len([n for n in house.class_of.values()
                                                          if n.replace("_", " ") == cls]) == 1:
        return table[same[0]]  # the only one of its class in the house
    known = sorted({k.split(" in the ")[0] for k in table})
    if cls not in known:
        raise InputError(f"no {cls!r} in this house; objects here include: "
                         f"{', '.join(known[:25])}")
    options = [k for k in table if k.split(" in the ")[0] == cls]
    raise InputError(f"{name!r} does not name one object; say which, e.g. {options[:4]}")


# ----------------------------------------------------------------------------- clauses
#: Words between ``is`` and a state that do not change it: "is still on", "is left open", "is switched off".
_STATE_MODIFIERS = r"(?:(?:still|left|now|already|switched|turned)\s+)*"
_STATE_RE = re.compile(rf"^(?P<x>.+?) (?:is|are) {_STATE_MODIFIERS}(?P<s>on|off|open|closed|running)$")
_ON_RE = re.compile(r"^(?P<x>.+?) (?:is|are) (?:lying )?on (?:the )?(?P<y>.+)$")
_ROOM_RE = re.compile(r"^(?P<x>.+?) (?:is|are) (?:somewhere )?in the (?P<r>bathroom|bedroom|dining room|home office|kitchen|living room)$")


def parse_condition(text: str, house: NonStationaryHouse) -> tuple[Predicate, ...]:
    """Parse ``A is on and B is open`` into predicates.

    Raises:
        InputError: unknown phrasing or an object absent from the house.
    """
    preds = []
    t = text.strip().lower().rstrip(".")
    table = name_table(house)
    for clause in re.split(r"\s+and\s+(?=(?:the\s+)?[a-z_\- ]+? (?:is|are)\b)", t):
        clause = re.sub(r"^the\s+", "", clause.strip())
        m = _ROOM_RE.match(clause)
        if m:
            preds.append(Predicate("in_room", _lookup(house, m["x"], table),
                                   house.room_id(m["r"].replace(" ", "_"))))
            continue
        m = _STATE_RE.match(clause)
        if m:
            s = "on" if m["s"] == "running" else m["s"]
            preds.append(Predicate("state", _lookup(house, m["x"], table), s))
            continue
        m = _ON_RE.match(clause)
        if m:
            preds.append(Predicate("on", _lookup(house, m["x"], table), _lookup(house, m["y"], table)))
            continue
        raise InputError(f"cannot read the condition {clause!r}; write e.g. 'television in the "
                         "dining room is on' or 'cup is on table in the bedroom'")
    if not preds:
        raise InputError("empty condition; write e.g. 'television in the dining room is on'")
    return tuple(preds)


_EXEC_RES = [
    (re.compile(r"^(?:switch|turn) (?P<v>on|off) (?:the )?(?P<x>.+)$"), "switch"),
    (re.compile(r"^(?P<v>open|close) (?:the )?(?P<x>.+)$"), "open"),
    (re.compile(r"^(?:put|move|bring|place) (?:the )?(?P<x>.+?) (?:on|onto|to) (?:the )?(?P<y>.+)$"), "move"),
]


#: Trailing words that do not change an action: "turn it off to save power", "close it again".
_ACTION_TAIL_RE = re.compile(r"\s+(?:again|to save (?:power|energy|electricity)|right away|please|now|immediately"
                             r"|at once|as well|too)$")


def normal_action(text: str) -> str:
    """An action with its trailing adverbs and purpose ("to save power", "again") dropped and
    its particle before the object: ``turn the TV back off`` -> ``turn off the TV``."""
    t = re.sub(r"\s+", " ", text.strip().lower().rstrip("."))
    while True:
        u = _ACTION_TAIL_RE.sub("", t)
        if u == t:
            break
        t = u
    t = re.sub(r"^(switch|turn) back (on|off)\b", r"\1 \2", t)
    m = re.match(r"^(switch|turn) (?!on\b|off\b)(?P<x>.+?) (?:back )?(?P<v>on|off)$", t)
    if m:  # "switch it off", "turn the light in the kitchen back on"
        t = f"{m[1]} {m['v']} {m['x']}"
    return t


def parse_execution(text: str, house: NonStationaryHouse) -> tuple[tuple[Skill, ...], tuple[Predicate, ...]]:
    """Parse ``switch off television in the dining room`` into skills and the goal.

    Raises:
        InputError: unknown phrasing or an object absent from the house.
    """
    t = normal_action(text)
    table = name_table(house)
    for rx, kind in _EXEC_RES:
        m = rx.match(t)
        if not m:
            continue
        x = _lookup(house, m["x"], table)
        if kind == "switch":
            if x not in house.switchables:
                raise InputError(f"{m['x']!r} has no switch; switch lights, TVs, computers...")
            v = m["v"]
            return (Skill(f"switch_{v}", (x,), f"switch {v} the {name_of(house, x)}"),), (Predicate("state", x, v),)
        if kind == "open":
            if x not in house.openables:
                raise InputError(f"{m['x']!r} cannot be opened or closed")
            v = "open" if m["v"] == "open" else "closed"
            return (Skill(m["v"], (x,), f"{m['v']} the {name_of(house, x)}"),), (Predicate("state", x, v),)
        y = _lookup(house, m["y"], table)
        if x not in house.movables or y not in house.surfaces:
            raise InputError(f"cannot move {m['x']!r} onto {m['y']!r}: move a small object onto a surface")
        return ((Skill("move_onto", (x, y), f"put the {name_of(house, x)} on the {name_of(house, y)}"),),
                (Predicate("on", x, y),))
    raise InputError(f"cannot read the execution {text!r}; write e.g. 'switch off television in "
                     "the dining room', 'close door in the bedroom', 'put cup on table in the bedroom'")


_SPLIT_RE = re.compile(r"^(?:if|when|whenever|once|as soon as)\s+(?P<q>.+?),\s*(?:then\s+)?(?P<e>.+?)\.?$")


def parse_instruction(text: str, house: NonStationaryHouse) -> Instruction:
    """Rule-based reading of ``If <condition>, <execution>.`` (canonical clauses,
    ``it`` referring to the condition's first object).

    Raises:
        InputError: the sentence is not of that form or names unknown objects.
    """
    m = _SPLIT_RE.match(text.strip().lower())
    if not m:
        raise InputError(f"cannot read instruction {text!r}; write 'If <condition>, <action>.', "
                         "e.g. 'If television in the dining room is on, switch it off.'")
    query = parse_condition(m["q"], house)
    ex = resolve_action(m["e"], name_of(house, query[0].node))
    skills, goal = parse_execution(ex, house)
    return Instruction(text, query, goal, skills, m["q"], ex)


def resolve_action(action: str, first: str) -> str:
    """The action part of an instruction in canonical order (:func:`normal_action`) with ``it`` /
    ``them`` read as ``first``, the condition's first object: ``turn it off to save power`` ->
    ``turn off <first>``. An action naming its own object keeps it (``close the fridge``)."""
    return re.sub(r"\b(?:it|them)\b", first, normal_action(action))


def _conjuncts(condition: str) -> list[str]:
    return [re.sub(r"^the\s+", "", c.strip())
            for c in re.split(r"\s+and\s+(?=(?:the\s+)?[a-z_\- ]+? (?:is|are)\b)", condition.strip())]


def _anchor_condition(clause: str, house: NonStationaryHouse) -> list[str]:
    """The admissible query clauses one conjunct of a condition can mean: about its subject (the
    first object it names) and of the kind and state it states (``is still on`` -> ``... is on``,
    ``is on the desk`` -> a placement, ``is in the kitchen`` -> a room)."""
    cands, _ = admissible_clauses(clause, house)
    objs = [n for n in mentioned(clause, house) if n not in house.rooms]
    if objs:
        subj = name_of(house, objs[0])
        cands = [c for c in cands if c.startswith(f"{subj} is ")]
    m = _STATE_RE.match(clause)
    if m:
        s = "on" if m["s"] == "running" else m["s"]
        return [c for c in cands if c.endswith(f" is {s}")]
    if re.search(r" (?:is|are) (?:somewhere )?in the ", clause):
        return [c for c in cands if " is in the " in c]
    if re.search(r" (?:is|are) (?:lying )?on ", clause):
        return [c for c in cands if " is on " in c and not c.endswith((" is on", " is off"))]
    return cands


def _anchor_action(action: str, house: NonStationaryHouse) -> list[str]:
    """The admissible executions a resolved action can mean: its verb and polarity (``switch off``,
    ``close``, ``put``) on its own object (the first it names)."""
    _, cands = admissible_clauses(action, house)
    objs = [n for n in mentioned(action, house) if n not in house.rooms]
    m = re.match(r"^(?:(?:switch|turn) (?P<v>on|off)|(?P<o>open|close)|(?P<p>put|move|bring|place))\b", action)
    if not m or not objs:
        return cands
    verb = f"switch {m['v']}" if m["v"] else m["o"] or "put"
    return [c for c in cands if c.startswith(f"{verb} {name_of(house, objs[0])}")]


def anchored_clauses(text: str, house: NonStationaryHouse) -> tuple[list[list[str]], list[str]] | None:
    """The admissible clauses of ``If <condition>, <action>.`` anchored to where the sentence
    says them: one candidate list per conjunct of the condition (over that conjunct's objects, with
    the state it states) and the executions of the action (over the action's own object, ``it``
    being the condition's first object, with the verb and polarity it says). ``None`` when the
    sentence is not of that form or a part anchors to nothing (then the caller uses
    :func:`admissible_clauses`). This keeps the LM's reading to what the sentence says: "If the
    computer is still on, turn it off to save power" cannot become "computer is off -> switch on",
    and "If the TV is on, close the fridge" cannot act on the TV."""
    m = _SPLIT_RE.match(text.strip().lower())
    if not m:
        return None
    groups = [_anchor_condition(c, house) for c in _conjuncts(m["q"])]
    if not groups or not all(groups):
        return None
    objs = [n for n in mentioned(m["q"], house) if n not in house.rooms]
    if not objs:
        return None
    execs = _anchor_action(resolve_action(m["e"], name_of(house, objs[0])), house)
    if not execs:
        return None
    return groups, execs


# ----------------------------------------------------------------------------- ExRAP vocabulary
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


def mentioned(text: str, house: NonStationaryHouse) -> list[int]:
    """Nodes (objects and rooms) whose unique name occurs in ``text``, in order of
    first mention; a longer name hides the shorter names inside it."""
    low = " " + re.sub(r"[^a-z0-9\- ]+", " ", class_words(text)) + " "
    hits: list[tuple[int, int, int]] = []  # (start, -length, node)
    for name, node in name_table(house).items():
        for m in re.finditer(rf"(?<=[ ]){re.escape(name)}(?=[ ])", low):
            hits.append((m.start(), -len(name), node))
    hits.sort()
    out, covered = [], -1
    for start, neg_len, node in hits:
        if start < covered:
            continue  # inside a longer name already taken
        covered = start - neg_len
        if node not in out:
            out.append(node)
    return out


def admissible_clauses(text: str, house: NonStationaryHouse) -> tuple[list[str], list[str]]:
    """Canonical query conjuncts and executions over the objects ``text`` names.

    Returns ``(queries, executions)`` in the phrasing ``parse_condition`` /
    ``parse_execution`` read, e.g. ``television in the dining room is on``,
    ``switch off television in the dining room``, ``put cup on desk in the bedroom``.
    """
    nodes = mentioned(text, house)
    rooms = [n for n in nodes if n in house.rooms]
    surfaces = [n for n in nodes if n in house.surfaces]
    queries, execs = [], []
    for x in nodes:
        nx = name_of(house, x)
        if x in house.switchables:
            queries += [f"{nx} is on", f"{nx} is off"]
            execs += [f"switch on {nx}", f"switch off {nx}"]
        if x in house.openables:
            queries += [f"{nx} is open", f"{nx} is closed"]
            execs += [f"open {nx}", f"close {nx}"]
        if x in house.movables:
            for f in surfaces:
                queries.append(f"{nx} is on {name_of(house, f)}")
                execs.append(f"put {nx} on {name_of(house, f)}")
            queries += [f"{nx} is in the {name_of(house, r)}" for r in rooms]
    return list(dict.fromkeys(queries)), list(dict.fromkeys(execs))


class VirtualHomeVocabulary:
    """The house's instruction language for ExRAP's LM interpreter
    (:class:`~actionable.core.continual.InstructionVocabulary`): canonical clauses over the objects
    a sentence names, their parsers, the rule reader and cloze facts, on one house."""

    def __init__(self, house: NonStationaryHouse):
        self.house = house

    def clauses(self, text: str) -> tuple[list[str], list[str]]:
        return admissible_clauses(text, self.house)

    def anchored_clauses(self, text: str) -> tuple[list[list[str]], list[str]] | None:
        return anchored_clauses(text, self.house)

    def parse_condition(self, text: str) -> tuple:
        return parse_condition(text, self.house)

    def parse_execution(self, text: str) -> tuple:
        return parse_execution(text, self.house)

    def parse_instruction(self, text: str) -> Instruction:
        return parse_instruction(text, self.house)

    def cloze(self, preds) -> tuple:
        return cloze_facts(preds, self.house)


# ----------------------------------------------------------------------------- templates
#: (id, surface form, condition form, execution form, slot kinds). Slots: S switchable,
#: O openable, M movable, F surface, R room; a trailing digit tells two apart.
TEMPLATES: list[tuple[str, str, str, str, tuple[str, ...]]] = [
    ("off_if_on", "If the {S} is on, switch it off.", "{S} is on", "switch off {S}", ("S",)),
    ("on_if_off", "Whenever the {S} is off, turn it on.", "{S} is off", "switch on {S}", ("S",)),
    ("close_if_open", "If the {O} is open, close it.", "{O} is open", "close {O}", ("O",)),
    ("open_if_closed", "When the {O} is closed, open it.", "{O} is closed", "open {O}", ("O",)),
    ("cross_on_off", "If the {S} is on, switch off the {S2}.", "{S} is on", "switch off {S2}", ("S", "S2")),
    ("cross_off_on", "When the {S} is off, turn on the {S2}.", "{S} is off", "switch on {S2}", ("S", "S2")),
    ("on_then_open", "If the {S} is on, open the {O}.", "{S} is on", "open {O}", ("S", "O")),
    ("on_then_close", "Whenever the {S} is on, close the {O}.", "{S} is on", "close {O}", ("S", "O")),
    ("open_then_on", "When the {O} is open, switch on the {S}.", "{O} is open", "switch on {S}", ("O", "S")),
    ("open_then_off", "If the {O} is open, turn off the {S}.", "{O} is open", "switch off {S}", ("O", "S")),
    ("closed_then_off", "If the {O} is closed, switch off the {S}.", "{O} is closed", "switch off {S}", ("O", "S")),
    ("open_close", "If the {O} is open, close the {O2}.", "{O} is open", "close {O2}", ("O", "O2")),
    ("move_from", "If the {M} is on the {F}, put it on the {F2}.", "{M} is on {F}", "put {M} on {F2}", ("M", "F", "F2")),
    ("bring_from_room", "Whenever the {M} is in the {R}, bring it to the {F}.", "{M} is in the {R}", "put {M} on {F}", ("M", "R", "F")),
    ("room_then_on", "If the {M} is in the {R}, switch on the {S}.", "{M} is in the {R}", "switch on {S}", ("M", "R", "S")),
    ("on_surface_close", "Whenever the {M} is on the {F}, close the {O}.", "{M} is on {F}", "close {O}", ("M", "F", "O")),
    ("both_on", "If the {S} is on and the {S2} is on, switch off the {S2}.", "{S} is on and {S2} is on", "switch off {S2}", ("S", "S2")),
    ("on_and_open", "If the {S} is on and the {O} is open, close the {O}.", "{S} is on and {O} is open", "close {O}", ("S", "O")),
    ("off_and_closed", "When the {S} is off and the {O} is closed, open the {O}.", "{S} is off and {O} is closed", "open {O}", ("S", "O")),
    ("tidy_when_on", "When the {S} is on and the {M} is on the {F}, move the {M} to the {F2}.", "{S} is on and {M} is on {F}", "put {M} on {F2}", ("S", "M", "F", "F2")),
    ("save_power", "If the {S} is still on, turn it off to save power.", "{S} is on", "switch off {S}", ("S",)),
    ("keep_closed", "As soon as the {O} is open, close it again.", "{O} is open", "close {O}", ("O",)),
    ("keep_on", "Once the {S} is off, switch it back on.", "{S} is off", "switch on {S}", ("S",)),
    ("closed_then_on", "When the {O} is closed, turn on the {S}.", "{O} is closed", "switch on {S}", ("O", "S")),
]


def _fill(house: NonStationaryHouse, slots, rng, used: set[int], table: dict[str, int]):
    pools = {"S": house.switchables, "O": house.openables, "M": house.movables, "F": house.surfaces}
    unique = set(table.values())
    out: dict[str, int] = {}
    for s in slots:
        if s[0] == "R":
            out[s] = int(rng.choice(sorted(house.rooms)))
            continue
        pool = [n for n in pools[s[0]] if n in unique and n not in used and n not in out.values()]
        if not pool:
            return None
        out[s] = int(pool[int(rng.integers(len(pool)))])
    return out


def _agree(surface: str, fill: dict[str, int], house: NonStationaryHouse) -> str:
    """The template with its verbs and pronoun agreeing with plural objects: ``the {M} are``,
    and ``them`` for ``it`` when the first slot (what ``it`` refers to) is plural."""
    plural = [k for k, v in fill.items() if k[0] != "R" and is_plural(house.class_of[v])]
    for k in plural:
        surface = surface.replace(f"{{{k}}} is", f"{{{k}}} are")
    if next(iter(fill), None) in plural:  # the templates' "it" is their first object
        surface = re.sub(r"\bit\b", "them", surface)
    return surface


def sample_instructions(house: NonStationaryHouse, n: int, seed: int) -> list[Instruction]:
    """Draw ``n`` instructions from :data:`TEMPLATES` (distinct templates and objects).

    Raises:
        InputError: ``n`` outside 1..len(TEMPLATES) or the house too small.
    """
    if not 1 <= n <= len(TEMPLATES):
        raise InputError(f"instruction set size must be 1..{len(TEMPLATES)} (got {n})")
    rng = np.random.default_rng([seed, 104729])
    table = name_table(house)
    order = rng.permutation(len(TEMPLATES))
    used: set[int] = set()
    out: list[Instruction] = []
    for ti in order:
        tid, surface, cond, exe, slots = TEMPLATES[int(ti)]
        fill = None
        for _ in range(20):
            fill = _fill(house, slots, rng, used, table)
            if fill and not ("R" in fill and "F" in fill and house.static_room[fill["F"]] == fill["R"]) \
                    and not ("F2" in fill and fill.get("F") == fill["F2"]):
                break
            fill = None
        if fill is None:
            continue
        names = {k: name_of(house, v) for k, v in fill.items()}
        text = _agree(surface, fill, house).format(**{k: display_name(house, v) for k, v in fill.items()})
        query = parse_condition(cond.format(**names), house)
        skills, goal = parse_execution(exe.format(**names), house)
        out.append(Instruction(text, query, goal, skills, cond.format(**names), exe.format(**names), tid))
        used.update(v for k, v in fill.items() if k[0] != "R")
        if len(out) == n:
            return out
    raise InputError(f"could not ground {n} instructions with distinct objects in this house")


def load_instructions(path: str | Path, house: NonStationaryHouse) -> list[Instruction]:
    """Read instructions: a JSON list (as written by :func:`save_instructions`) or a
    text file with one ``If <condition>, <action>.`` per line (``#`` comments).

    Raises:
        InputError: missing/unreadable file, bad JSON, unreadable line (with its number).
    """
    def from_record(d):
        # A saved record is re-read from its clause texts (the generator built its query and goal
        # from exactly these), or from its text when a hand-written record has none, so an edited
        # id, state or clause is checked as a text line is, never trusted.
        read = parse_instruction(d["text"], house)  # the text the agent reads must be readable, as a text line
        if isinstance(d.get("query_text"), str) and isinstance(d.get("execution_text"), str):
            skills, goal = parse_execution(d["execution_text"], house)
            return Instruction(d["text"], parse_condition(d["query_text"], house), goal, skills, d["query_text"],
                               d["execution_text"])
        return read

    from actionable.core.continual import records_by_text

    return read_instructions_file(path, lambda text: parse_instruction(text, house),
                                  records_by_text(lambda text: parse_instruction(text, house), from_record))


