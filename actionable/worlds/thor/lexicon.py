"""The THOR kitchen's lexicon for the goal reader: object phrases -> AI2-THOR types
(:func:`phrases`, :data:`NAMES`), state adjectives (:data:`_ADJ`), the
:class:`~actionable.grounding.goal_reader.Lexicon` over a :class:`~actionable.worlds.thor.scene.ThorState`
(:class:`ThorLexicon`) and the :class:`~actionable.core.conditions.ConditionView` of a state
(:class:`ThorConditionView`). Split out of interpret.py, which had passed 800 lines.
"""

from __future__ import annotations

from actionable.core.conditions import CHARACTER, Condition
from actionable.grounding import goal_reader as G
from actionable.grounding.goal_reader import DIRTY_WORDS
from actionable.worlds.thor import data
from actionable.worlds.thor.intents import _inside
from actionable.worlds.thor.repair import class_name
from actionable.worlds.thor.scene import ThorState

#: extra names users type for THOR types (lower-case phrase -> AI2-THOR type)
NAMES: dict[str, str] = {
    "tv": "Television", "television": "Television", "trash": "GarbageCan", "trash can": "GarbageCan",
    "bin": "GarbageCan", "garbage": "GarbageCan", "garbage can": "GarbageCan", "rubbish bin": "GarbageCan",
    "sink": "SinkBasin", "sink basin": "SinkBasin", "stove": "StoveBurner", "burner": "StoveBurner",
    "stove burner": "StoveBurner", "hob": "StoveBurner", "cooker": "StoveBurner",
    "stovetop": "StoveBurner", "stove top": "StoveBurner", "cooktop": "StoveBurner", "cook top": "StoveBurner",
    "burners": "StoveBurner", "knob": "StoveKnob",
    "stove knob": "StoveKnob", "light": "LightSwitch", "lights": "LightSwitch", "light switch": "LightSwitch",
    "cupboard": "Cabinet", "counter": "CounterTop", "countertop": "CounterTop", "table": "DiningTable",
    "coffee machine": "CoffeeMachine", "coffee maker": "CoffeeMachine", "coffeemaker": "CoffeeMachine",
    "plant": "HousePlant", "houseplant": "HousePlant", "tap": "Faucet", "water": "Faucet",
    "refrigerator": "Fridge", "fridge": "Fridge", "microwave oven": "Microwave", "phone": "CellPhone",
    "remote": "RemoteControl", "wine bottle": "WineBottle", "glass bottle": "Glassbottle",
    "sponge": "DishSponge", "salt": "SaltShaker", "pepper": "PepperShaker", "soap": "SoapBottle",
    "paper towel": "PaperTowelRoll", "lamp": "FloorLamp", "dish": "Plate", "dishes": "Plate",
    "telly": "Television", "tv": "Television", "toilet roll": "ToiletPaper", "loo roll": "ToiletPaper",
    "toilet roll holder": "ToiletPaperHanger", "loo roll holder": "ToiletPaperHanger",
    "worktop": "CounterTop", "loo": "Toilet",
    "roll": "ToiletPaper", "toilet paper roll": "ToiletPaper", "keys": "KeyChain", "key": "KeyChain", "car keys": "KeyChain", "house keys": "KeyChain",
    "spray bottle": "SprayBottle", "spray": "SprayBottle", "sofa": "Sofa", "couch": "Sofa",
    "bedside table": "SideTable", "nightstand": "SideTable", "mobile": "CellPhone", "mobile phone": "CellPhone",
    "box of tissues": "TissueBox", "tissue box": "TissueBox", "tissues": "TissueBox", "tissue": "TissueBox",
    "debit card": "CreditCard", "bank card": "CreditCard", "card": "CreditCard", "towel ring": "HandTowelHolder",
    "ring": "HandTowelHolder", "towel holder": "HandTowelHolder", "towel rail": "TowelHolder", "basin": "SinkBasin",
    "wash basin": "SinkBasin", "washbasin": "SinkBasin", "wine": "WineBottle", "bath": "Bathtub", "tub": "Bathtub",
    "bath tub": "Bathtub", "hob": "StoveBurner", "loaf": "Bread", "loaf of bread": "Bread", "dog bed": "DogBed",
    "dog's bed": "DogBed", "dogs bed": "DogBed", "dog basket": "DogBed", "bookcase": "Shelf",
}
#: a word whose type depends on the scene: the first type of the list the scene has ("a ring" is a towel
#: ring in a bathroom, a hob's ring in a kitchen)
_OTHER_SENSE = {"ring": ("HandTowelHolder", "StoveBurner")}
#: what "soap" may name
_SOAPS = ("SoapBottle", "SoapBar")
_ADJ = {"dirty": ("isDirty", False), "clean": ("isDirty", True), "open": ("isOpen", False),
        "closed": ("isOpen", True), "empty": ("isFilledWithLiquid", True), "full": ("isFilledWithLiquid", False),
        "sliced": ("isSliced", False), "hot": ("Hot", False), "cold": ("Cold", False),
        # everyday words for dirty ("the grimy mug")
        **{w: ("isDirty", False) for w in DIRTY_WORDS}}


def _singulars(word: str) -> list[str]:
    out = [word]
    if word.endswith("ves"):
        out += [word[:-3] + "fe", word[:-3] + "f"]
    if word.endswith("ies"):
        out.append(word[:-3] + "y")
    if word.endswith("es"):
        out.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return out


def _all_types() -> set[str]:
    types = set(data.vocab()["TYPE_CAPS"])
    for ep in data.teach_episodes().values():
        types |= {o["type"] for o in ep["objects"]}
    return types


_PHRASES: dict[str, str] = {}


def phrases() -> dict[str, str]:
    """Every known object phrase -> AI2-THOR type (types spaced and joined, :data:`NAMES`, the
    planner's aliases), over all THOR types (so an absent type is known, and refused)."""
    if not _PHRASES:
        from actionable.worlds.thor.planning import ALIASES

        out: dict[str, str] = {}
        types = _all_types()
        for t in types:
            spaced = class_name(t).replace("_", " ")
            out[spaced] = t
            out[t.lower()] = t
        by_class = {class_name(t): t for t in types}
        for cls, alts in ALIASES.items():
            for a in alts:
                if a != "coffee" and cls in by_class:
                    out.setdefault(a, by_class[cls])
        out.update(NAMES)
        _PHRASES.update(out)
    return _PHRASES


def _article(word: str) -> str:
    """ "an" before a vowel sound's letter ("an Apple"), else "a"."""
    return "an" if word[:1].lower() in "aeiou" else "a"


#: what "the dishes" covers in a kitchen (AI2-THOR object types)
_DISH_TYPES = ("Plate", "Bowl", "Cup", "Mug", "Pot", "Pan")


#: the room kinds of the ALFRED floor plans, by number (AI2-THOR iTHOR: 1-30 kitchens, 201-230 living
#: rooms, 301-330 bedrooms, 401-430 bathrooms)
_ROOM_BY_HUNDRED = {0: "kitchen", 2: "living room", 3: "bedroom", 4: "bathroom"}
_ROOM_WORDS = {"kitchen": "kitchen", "living room": "living room", "lounge": "living room", "sitting room":
               "living room", "bedroom": "bedroom", "bathroom": "bathroom"}
_SCENE_ROOM = "<the scene's room>"


def room_kind(scene) -> str | None:
    """The room kind of a THOR scene (``FloorPlan15``: kitchen; a TEACh episode by its floor plan,
    ``meta["world"]`` ``FloorPlan411_physics``: bathroom), or ``None`` when unknown."""
    import re

    for name in (getattr(scene, "name", ""), (getattr(scene, "meta", None) or {}).get("world", "")):
        m = re.search(r"FloorPlan(\d+)", str(name))
        if m:
            return _ROOM_BY_HUNDRED.get(int(m.group(1)) // 100)
    return None


class ThorLexicon:
    """:class:`actionable.grounding.goal_reader.Lexicon` over a THOR state (ids are THOR ids)."""

    def __init__(self, state: ThorState):
        self.s = state
        self.types = {o.type for o in state.objects.values() if o.type != "Floor"}
        self.room_kind = room_kind(state.scene)

    def _lookup(self, ws: list[str]) -> str | None:
        """The type the longest known suffix of ``ws`` names (plural forms too), or ``None``."""
        ph = phrases()
        for n in range(min(3, len(ws)), 0, -1):
            head, last = ws[-n:-1], ws[-1]
            for form in _singulars(last):
                for cand in (" ".join(head + [form]), "".join(head + [form])):
                    if cand in ph:
                        return ph[cand]
        return None

    def exact(self, ws: list[str]) -> str | None:
        """The type the whole phrase ``ws`` names (its last word may be plural), or ``None``."""
        ph = phrases()
        for form in _singulars(ws[-1]) if ws else ():
            for cand in (" ".join(ws[:-1] + [form]), "".join(ws[:-1] + [form])):
                if cand in ph:
                    return ph[cand]
        return None

    def classes(self, ws):
        t = self._lookup([w for w in ws if w not in G._DETS])
        if t is not None and t not in self.types and ws and _singulars(ws[-1])[-1] in _OTHER_SENSE:
            t = next((o for o in _OTHER_SENSE[_singulars(ws[-1])[-1]] if o in self.types), t)
        return [t] if t is not None and t in self.types else []

    def known(self, ws):
        return self._lookup([w for w in ws if w not in G._DETS]) is not None

    def kinds(self, ws, cls):
        if ws and ws[-1] in ("soap", "soaps") and cls in _SOAPS:
            # "the soap in the basin": a bar or a bottle, whichever the rest of the phrase picks
            return [cls] + [t for t in _SOAPS if t != cls and t in self.types]
        if ws and ws[-1] in ("dishes",) and cls == "Plate":
            # "the dishes": the tableware and cookware of the scene (plates, bowls, cups, mugs, pots, pans)
            return [cls] + [t for t in _DISH_TYPES if t != cls and t in self.types]
        return [cls]

    def instances(self, cls):
        return self.s.of_type(cls)

    def room(self, ws):
        """A THOR scene is one room: "in this kitchen" in a kitchen names the whole scene (a token
        every object is in); another room, or a scene of unknown kind, names none."""
        key = " ".join(w for w in ws if w not in ("the", "this", "my", "our", "a", "here"))
        return _SCENE_ROOM if self.room_kind is not None and _ROOM_WORDS.get(key) == self.room_kind else None

    def in_room(self, obj, room):
        return room == _SCENE_ROOM

    def related(self, obj, prep, other):
        if prep == "near":
            return self.s.location_of(obj) is not None and self.s.location_of(obj) == self.s.location_of(other)
        return _inside(self.s, obj, other)

    def adjective(self, word):
        return _ADJ.get(word)

    def discarded(self, obj):
        objs, p, seen = self.s.objects, self.s.objects[obj].parent, {obj}
        while p is not None and p in objs and p not in seen:
            if objs[p].type == "GarbageCan":
                return True
            seen.add(p)
            p = objs[p].parent
        return False

    def has_state(self, obj, state):
        return state in self.s.objects[obj].states()

    def plural(self, word):
        return word.endswith("s") and not word.endswith("ss") and self.exact([word]) is not None and (
            word not in phrases() or word in ("lights", "dishes"))




class ThorConditionView:
    """:class:`~actionable.core.conditions.ConditionView` of a :class:`ThorState`: the same
    reading of the predicates as :class:`actionable.evaluation.goal_states.ThorView` (an object
    the state lacks, e.g. a slice not yet cut, holds nothing, negated or not)."""

    def __init__(self, state: ThorState):
        self.state = state

    def holds(self, c: Condition) -> bool:
        s = self.state
        if c.kind == "state":
            if c.subject == CHARACTER or c.subject not in s.objects:
                return False
            ok = c.value in s.objects[c.subject].states()
        elif c.value == "HOLDS":
            if c.target not in s.objects:
                return False
            ok = c.subject == CHARACTER and s.held == c.target
        elif c.value == "IN":
            if c.subject not in s.objects or c.target not in s.objects:
                return False
            ok = _inside(s, c.subject, c.target)
        else:
            ok = False
        return ok != c.negate


__all__ = ["NAMES", "ThorConditionView", "ThorLexicon", "phrases"]
