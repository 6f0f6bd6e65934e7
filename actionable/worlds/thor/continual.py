"""Conditional kitchen instructions in ExRAP's query + execution form, and the kitchen's continual world.

ExRAP (arXiv 2509.08222, Sec. 3) writes a continual instruction as a *query* (a condition on the
world) and an *execution* (skills). In the kitchen (:class:`~actionable.worlds.thor.kitchen.KitchenHouse`):

=====================  =====================================================  ==========================
template               surface form                                           execution (goal)
=====================  =====================================================  ==========================
``clean_in_sink``      If the {D} in the sink is dirty, clean it.             clean {D} (clean)
``clean_on_counter``   If the {D} on the counter is dirty, clean it.          clean {D} (clean)
``dirty_to_sink``      If the {D} on the counter is dirty, put it in the sink. put {D} in sink (in sink)
``burner_off``         If the stove burner is on and nothing is on it,        switch off (off)
                       switch it off.
``pan_off_stove``      If there is a {S} on the stove burner and the stove    put {S} in sink
                       burner is off, put it in the sink.
``close_fridge``       If the fridge is open, close it.                       close (closed)
``produce_to_fridge``  If there is a {P} on the counter, put it in the        put {P} in fridge
                       fridge.
``produce_from_sink``  If there is a {P} in the sink, put it on the counter.  put {P} on counter
``microwave_to_fridge`` If there is a {P} in the microwave, put it in the     put {P} in fridge
                       fridge.
``faucet_off``         If the faucet at the sink is on, switch it off.        switch off (off)
``coffee_off``         If the coffee machine is on, switch it off.            switch off (off)
``microwave_closed``   If the microwave is open, close it.                    close (closed)
=====================  =====================================================  ==========================

Slots: D a dish (Mug, Cup, Plate, Bowl, Pan, Pot), S a Pan or Pot, P produce the two places can
hold (Apple, Tomato, Potato, Bread). :func:`parse_kitchen` reads these phrasings and free variants
(``When``/``Whenever``, ``turn off``, ``wash``, ``refrigerator``...) by rule; ``it`` is the
condition's first object. Instructions are read by rule only (ExRAP's Eq. 4 LM reading is wired for
VirtualHome), like the driving world.
"""

from __future__ import annotations

import re

import numpy as np

from actionable.core.continual import Task
from actionable.core.continual import Instruction, Predicate
from actionable.core.continual import Skill
from actionable.core.errors import InputError
from actionable.worlds.thor.kitchen import EXCLUSIVE_PAIRS, KITCHENS, KitchenHouse

DISHES, POTS, PRODUCE = ("Mug", "Cup", "Plate", "Bowl", "Pan", "Pot"), ("Pan", "Pot"), ("Apple", "Tomato", "Potato", "Bread")
#: (id, surface form, slot kind, slot types)
TEMPLATES = [
    ("clean_in_sink", "If the {X} in the sink is dirty, clean it.", DISHES),
    ("clean_on_counter", "If the {X} on the counter is dirty, clean it.", DISHES),
    ("dirty_to_sink", "If the {X} on the counter is dirty, put it in the sink.", DISHES),
    ("burner_off", "If the stove burner is on and nothing is on it, switch it off.", ()),
    ("pan_off_stove", "If there is a {X} on the stove burner and the stove burner is off, put it in the sink.", POTS),
    ("close_fridge", "If the fridge is open, close it.", ()),
    ("produce_to_fridge", "If there is a {X} on the counter, put it in the fridge.", PRODUCE),
    ("produce_from_sink", "If there is a {X} in the sink, put it on the counter.", PRODUCE[:3]),
    ("microwave_to_fridge", "If there is a {X} in the microwave, put it in the fridge.", PRODUCE),
    ("faucet_off", "If the faucet at the sink is on, switch it off.", ()),
    ("coffee_off", "If the coffee machine is on, switch it off.", ()),
    ("microwave_closed", "If the microwave is open, close it.", ()),
]
MAX_INSTRUCTIONS = 8
_ALIAS = {"stove": "stove burner", "burner": "stove burner", "sink basin": "sink", "countertop": "counter",
          "counter top": "counter", "refrigerator": "fridge", "tap": "faucet", "coffee maker": "coffee machine"}
_STATE = "on|off|open|closed|dirty|clean|empty|occupied|running"
_SPLIT = re.compile(r"^(?:if|when|whenever|once|as soon as)\s+(?P<q>.+?),\s*(?:then\s+)?(?P<e>.+?)\.?$")
_INSIDE = ("sink", "fridge", "microwave", "coffee machine")


class KitchenInstruction(Instruction):
    """An :class:`Instruction` whose ``nodes`` also hold the places its conditions name (the sink of
    "an apple in the sink"), so the dynamics can move focus objects there (see ``KitchenHouse``)."""

    @property
    def nodes(self) -> set[int]:
        return super().nodes | {int(p.value) for p in self.query + self.goal if p.kind == "on"}


def _names(house: KitchenHouse) -> dict[str, int]:
    return {house.name(n): n for n in list(house.surfaces) + list(house.movables) + list(house.switchables)}


def _obj(house: KitchenHouse, text: str, table: dict[str, int]) -> int:
    key = re.sub(r"^(?:the|a|an)\s+", "", re.sub(r"\s+", " ", text.strip().lower()))
    key = re.sub(r"\s+at the sink$", "", key)
    key = _ALIAS.get(key, key)
    if key not in table:
        raise InputError(f"no {key!r} in this kitchen; objects: {', '.join(sorted(table))}")
    return table[key]


def _where(house: KitchenHouse, y: int) -> str:
    n = house.name(y)
    return f"{'in' if n in _INSIDE else 'on'} the {n}"


def _state_pred(house: KitchenHouse, x: int, s: str) -> Predicate:
    s = "on" if s == "running" else s
    if s not in house.states_of_vocab(x):
        raise InputError(f"the {house.name(x)} is never {s}; it can be {' / '.join(sorted(house.states_of_vocab(x)))}")
    return Predicate("state", x, s)


def parse_condition(text: str, house: KitchenHouse) -> tuple[Predicate, ...]:
    """``the mug in the sink is dirty`` -> predicates (clauses joined by ``and``).

    Raises:
        InputError: unknown phrasing, object, or a state the object cannot have.
    """
    table, preds = _names(house), []
    for clause in re.split(r"\s+and\s+", text.strip().lower()):
        clause = clause.strip()
        m = re.match(r"^there (?:is|are) (?:a|an|the|some) (?P<x>.+?) (?:on|in) (?:the )?(?P<y>.+)$", clause)
        if m:
            preds.append(Predicate("on", _obj(house, m["x"], table), _obj(house, m["y"], table)))
            continue
        m = re.match(r"^nothing is on (?:it|(?:the )?(?P<y>.+))$", clause)
        if m:
            if not m["y"] and not preds:
                raise InputError(f"'{clause}': 'it' refers to nothing; name the object")
            preds.append(_state_pred(house, _obj(house, m["y"], table) if m["y"] else preds[-1].node, "empty"))
            continue
        m = re.match(rf"^(?:the )?(?P<x>.+?) (?:on|in) (?:the )?(?P<y>.+?) is (?P<s>{_STATE})$", clause)
        if m and _ALIAS.get(m["x"], m["x"]) in table and _ALIAS.get(m["y"], m["y"]) in table:
            x = _obj(house, m["x"], table)
            preds += [_state_pred(house, x, m["s"]), Predicate("on", x, _obj(house, m["y"], table))]
            continue
        m = re.match(rf"^(?:the )?(?P<x>.+?) is (?P<s>{_STATE})$", clause)
        if m:
            preds.append(_state_pred(house, _obj(house, m["x"], table), m["s"]))
            continue
        m = re.match(r"^(?:the )?(?P<x>.+?) is (?:on|in) (?:the )?(?P<y>.+)$", clause)
        if m:
            preds.append(Predicate("on", _obj(house, m["x"], table), _obj(house, m["y"], table)))
            continue
        raise InputError(f"cannot read the condition {clause!r}; write e.g. 'the mug in the sink is dirty', "
                         "'the fridge is open', 'there is an apple on the counter'")
    return tuple(preds)


def parse_execution(text: str, house: KitchenHouse) -> tuple[Skill, Predicate]:
    """``put the apple in the fridge`` -> (skill, goal predicate).

    Raises:
        InputError: unknown phrasing or object, or an action the object does not afford.
    """
    table, t = _names(house), re.sub(r"\s+", " ", text.strip().lower().rstrip("."))
    m = re.match(r"^(?:clean|wash) (?P<x>.+)$", t)
    if m:
        x = _obj(house, m["x"], table)
        if x not in house.dirtyables:
            raise InputError(f"the {house.name(x)} cannot be cleaned; clean a dish: mug, cup, plate, bowl, pan, pot")
        return Skill("clean", (x,), f"clean the {house.name(x)}"), Predicate("state", x, "clean")
    m = re.match(r"^(?:switch|turn) (?P<v>on|off) (?P<x>.+)$", t) or \
        re.match(r"^(?:switch|turn) (?P<x>.+?) (?P<v>on|off)$", t)
    if m:
        x = _obj(house, m["x"], table)
        if x not in house.switchables:
            raise InputError(f"the {house.name(x)} has no switch; switch the faucet, stove burner, coffee machine "
                             "or microwave")
        return Skill(f"switch_{m['v']}", (x,), f"switch {m['v']} the {house.name(x)}"), Predicate("state", x, m["v"])
    m = re.match(r"^(?P<v>open|close|shut) (?P<x>.+)$", t)
    if m:
        x = _obj(house, m["x"], table)
        if x not in house.openables:
            raise InputError(f"the {house.name(x)} cannot be opened or closed; the fridge and microwave can")
        v = "open" if m["v"] == "open" else "close"
        return Skill(v, (x,), f"{v} the {house.name(x)}"), Predicate("state", x, "open" if v == "open" else "closed")
    m = re.match(r"^(?:put|move|bring|place) (?P<x>.+?) (?:on|onto|in|into|to) (?P<y>.+)$", t)
    if m:
        x, y = _obj(house, m["x"], table), _obj(house, m["y"], table)
        if x not in house.movables or y not in house.homes[x]:
            raise InputError(f"cannot put the {house.name(x)} {_where(house, y)} (ALFRED's canContain); "
                             "move a small object to a place that holds it")
        return (Skill("move_onto", (x, y), f"put the {house.name(x)} {_where(house, y)}"), Predicate("on", x, y))
    raise InputError(f"cannot read the execution {text!r}; write e.g. 'clean it', 'switch it off', 'close it', "
                     "'put it in the fridge'")


def _clause(house: KitchenHouse, p: Predicate) -> str:
    n = house.name(p.node)
    if p.kind == "on":
        return f"{n} is {_where(house, p.value)}"
    return f"{n}{' at the sink' if n == 'faucet' else ''} is {p.value}"


def parse_kitchen(text: str, house: KitchenHouse) -> Instruction:
    """Rule reading of ``If <condition>, <execution>.`` into an :class:`Instruction` whose
    ``query_text`` / ``execution_text`` are canonical (every query names its kitchen area).

    Raises:
        InputError: not of that form, or an unknown object / phrasing (the message says what exists).
    """
    m = _SPLIT.match(text.strip().lower())
    if not m:
        raise InputError(f"cannot read {text!r}; write 'If <condition>, <action>.', e.g. 'If the fridge is open, "
                         "close it.'")
    query = parse_condition(m["q"], house)
    ex = re.sub(r"\bit\b", "the " + house.name(query[0].node), m["e"])
    skill, goal = parse_execution(ex, house)
    return KitchenInstruction(text, query, (goal,), (skill,), " and ".join(_clause(house, p) for p in query),
                              skill.text)


def sample_kitchen_instructions(house: KitchenHouse, n: int, seed: int) -> list[Instruction]:
    """Draw ``n`` (1..8) instructions from :data:`TEMPLATES` by seed: distinct templates, and no
    object is the subject (or switched / opened fixture) of two instructions.

    Raises:
        InputError: ``n`` outside 1..8, or the kitchen cannot ground ``n``.
    """
    if not 1 <= n <= MAX_INSTRUCTIONS:
        raise InputError(f"instruction set size must be 1..{MAX_INSTRUCTIONS} (got {n})")
    rng = np.random.default_rng([seed, 30011])
    out, used = [], set()
    for ti in rng.permutation(len(TEMPLATES)):
        tid, surface, types = TEMPLATES[int(ti)]
        text = surface
        if types:
            free = [t for t in types if t.lower() not in used]
            if not free:
                continue
            x = free[int(rng.integers(len(free)))].lower()
            text = surface.format(X=x).replace(" a apple", " an apple")
        ins = parse_kitchen(text, house)
        subj = {house.name(ins.query[0].node), house.name(ins.execution[0].args[0])}
        if subj & used:
            continue
        used |= subj
        ins.template = tid
        out.append(ins)
        if len(out) == n:
            return out
    raise InputError(f"could not ground {n} kitchen instructions with distinct objects")


def cloze_facts(ins: Instruction, house: KitchenHouse) -> tuple:
    """The query as ``(entity, relation, value, alternatives)`` for ExRAP's cloze answers."""
    out = []
    for p in ins.query:
        if p.kind == "on":
            out.append((house.entity(p.node), "on", house.entity(p.value), tuple(house.entity(s) for s in house.surfaces)))
        else:
            out.append((house.entity(p.node), "is", p.value, next(x for x in EXCLUSIVE_PAIRS if p.value in x)))
    return tuple(out)


def interpret_kitchen(instructions: list[Instruction], house: KitchenHouse) -> tuple[list[Task], list[dict]]:
    """Tasks the agents hold, read by rule (canonical query, execution, cloze facts), and a log."""
    from actionable.core.continual import rule_reading

    return rule_reading(instructions, lambda text: parse_kitchen(text, house),
                             lambda parsed: cloze_facts(parsed, house))


def load_kitchen_instructions(path, house: KitchenHouse) -> list[Instruction]:
    """Read kitchen instructions: the JSON ``--save-instructions`` writes, or one ``If <condition>,
    <action>.`` per line (``#`` comments).

    Raises:
        InputError: missing/unreadable file, bad JSON, unreadable line (with its number).
    """
    from actionable.core.continual import read_instructions_file

    return read_instructions_file(path, lambda text: parse_kitchen(text, house))


# ----------------------------------------------------------------------------- the continual world
def _dynamics(level: str):
    from actionable.core.config import make_config
    from actionable.core.continual import DynamicsConfig

    return make_config(DynamicsConfig, level=level)  # ConfigError for an unknown level


def _check_scene(scene: str) -> None:
    from actionable.core.errors import SceneError, UnknownSceneError
    from actionable.worlds.thor.scene import list_scenes

    if scene in KITCHENS:
        return
    if scene in list_scenes():
        raise SceneError(f"THOR scene {scene!r} is not an ALFRED kitchen; the kitchen world uses FloorPlan1 ... "
                         "FloorPlan30")
    raise UnknownSceneError(f"unknown THOR kitchen {scene!r}; choose FloorPlan1 ... FloorPlan30 "
                            "(`actionable scenes --env thor` lists every scene)")


def _make_house(scene: str, level: str) -> KitchenHouse:
    dyn = _dynamics(level)  # the level is checked before the scene loads
    _check_scene(scene)
    return KitchenHouse(scene, dyn)


def _load_world():
    from actionable.core.continual import ContinualWorld

    return ContinualWorld(
        name="thor", scene="FloorPlan1", make_house=_make_house, sample=sample_kitchen_instructions,
        load=load_kitchen_instructions, interpret=lambda ins, house, lm=None, emb=None: interpret_kitchen(ins, house),
        exclusive=EXCLUSIVE_PAIRS, check_scene=_check_scene,
        describe=lambda level: f"changes every {_dynamics(level).steps_between_changes} steps",
        lm_interpreter=False, max_instructions=MAX_INSTRUCTIONS,
        description="AI2-THOR kitchen, symbolic (ALFRED PDDL semantics; FloorPlan1-30); rule-read instructions",
        changes_label="kitchen changed")


#: the kitchen as a continual world (``--env thor``; :mod:`actionable.continual.worlds`)
CONTINUAL_WORLD = _load_world()
