"""VirtualHome's lexicon for the goal reader: what the world-neutral grammar of
:mod:`actionable.grounding.goal_reader` asks of a scene (:class:`~actionable.grounding.goal_reader.Lexicon`),
over a VirtualHome scene graph - the classes a noun phrase names (a class's own name, compounds,
plurals, "the dishes", a bare head noun several classes end with, one thing under two class
names), the instances of a class, rooms, relations in the initial state and state adjectives.
Used by :mod:`actionable.worlds.virtualhome.interpret`.
"""

from __future__ import annotations

from actionable.grounding.goal_reader import DIRTY_WORDS

_ADJ = {"dirty": ("DIRTY", False), "clean": ("CLEAN", False), "open": ("OPEN", False),
        "closed": ("CLOSED", False),
        # everyday words for dirty ("the grubby mop")
        **{w: ("DIRTY", False) for w in DIRTY_WORDS}}
#: words that begin a class name but name nothing ("after" of after_shave)
_FUNCTION_WORDS = frozenset({"after", "before", "over", "under", "about", "around", "into", "onto", "with", "from",
                             "for", "to", "at", "by", "in", "on", "off", "out", "up", "down", "back", "the", "a"})
#: everyday words for one class ("the trash", "the bin": the trashcan)
_ALIASES = {"trash": "trashcan", "bin": "trashcan", "garbage": "trashcan", "rubbish": "trashcan",
            "washer": "washing_machine"}
#: everyday names (British and American) of the dataset's classes, whole phrases; the first class
#: the scene has is meant ("the wardrobe": a closet, else the dresser VirtualHome equates with one)
_PHRASES = {"wardrobe": ("closet", "dresser"), "bookcase": ("bookshelf",), "bedside table": ("nightstand",),
            "bedside cabinet": ("nightstand",), "night stand": ("nightstand",), "worktop": ("kitchen_counter",),
            "countertop": ("kitchen_counter",), "telly": ("television",), "tap": ("faucet",),
            "settee": ("couch",), "specs": ("spectacles",), "mouse mat": ("mousepad",), "mousemat": ("mousepad",), "mouse pad": ("mousepad",), "glasses": ("spectacles",), "laundry basket": ("basket_for_clothes",), "hamper": ("basket_for_clothes",),
            "cushion": ("pillow",), "loaf": ("food_bread", "bread"), "post": ("mail", "envelope"), "letter": ("mail", "envelope"), "letters": ("mail", "envelope"),
            "pyjama": ("pajamas",), "pyjamas": ("pajamas",), "game controller": ("video_game_controller",),
            "games controller": ("video_game_controller",), "dish rack": ("dishrack",),
            "drawer": ("closetdrawer", "drawer"), "drawers": ("closetdrawer", "drawer"),
            "desk lamp": ("tablelamp",), "bedside lamp": ("tablelamp",), "reading lamp": ("tablelamp",
                                                                                           "floor_lamp")}
#: every word of those names ("wardrobe"; "bedside", "cabinet"): known object words
_PHRASE_WORDS = frozenset(_PHRASES) | {w for p in _PHRASES for w in p.split()}
#: words for a category of classes named by a common prefix
_CATEGORIES = {"clothes": "clothes_", "clothing": "clothes_", "groceries": "food_", "grocery": "food_"}
#: class names of one kind of thing (the words name either)
_SAME_THING = (frozenset({"hairdryer", "blow_dryer"}),)
#: "the dishes": the tableware classes a scene has (VirtualHome has no dish class)
_DISHES = ("plate", "bowl", "dish_bowl", "cup", "coffee_cup", "mug", "drinking_glass", "water_glass", "wine_glass",
           "wineglass", "fork", "knife", "spoon", "wooden_spoon", "measuring_cup", "sauce_pan", "frying_pan", "pot")


def human(cls: str) -> str:
    return cls.replace("_", " ")


class SceneLexicon:
    """:class:`actionable.grounding.goal_reader.Lexicon` over a VirtualHome scene graph."""

    def __init__(self, graph, embedder=None):
        self.g = graph
        self.embedder = embedder
        self._classes = graph.class_names()
        self._rooms = {graph.class_of(r).replace("_", ""): r for r in graph.rooms}
        self._room_classes = {graph.class_of(r): r for r in graph.rooms}
        self._cache: dict = {}
        self._class_set = frozenset(self._classes)
        self._tokens = frozenset(t for c in self._classes for t in c.split("_"))

    def _match(self, ws):
        from actionable.worlds.virtualhome.planning import match_objects

        key = tuple(ws)
        if key not in self._cache:
            m = match_objects(" ".join(ws), self._classes, None)
            # the word "room" alone names no room ("the living room" of a house without one is not its
            # bathroom); rooms are named by room() from their own names
            got = [(w, c) for w, c, how, _ in m.matched
                   if how != "translation" and not (w == "room" and c in self._room_classes)]
            # "the ironing board": the head word is only the end of several classes' names (chessboard,
            # cupboard, cutting_board, keyboard) and the word before it is in none of them: another
            # object, which this scene lacks (it was read as the chessboard)
            if len(ws) > 1 and got and all(how.startswith("compound (of ") and "," in how
                                           for _, _, how, _ in m.matched if how != "translation"):
                mods = [w for w in ws[:-1] if w not in _FUNCTION_WORDS]
                if mods and not any(md in c for md in mods for _, c in got):
                    got = []
            self._cache[key] = got
        return self._cache[key]

    def classes(self, ws):
        """Classes the noun phrase names, the head noun (last word) first; rooms only when the
        phrase names nothing else ("kitchen sink" is a sink)."""
        exact = "_".join(ws)
        if exact in self._class_set:  # a class's own name ("check": no stop word)
            return [exact]
        phrase = " ".join(ws)
        for key in (phrase, phrase[:-1] if phrase.endswith("s") else None, phrase[:-2] if phrase.endswith("es") else None):
            hit = next((c for c in _PHRASES.get(key or "", ()) if c in self._class_set), None)
            if hit is not None:  # "the bedside cabinets": the nightstands
                return [hit]
        if len(ws) > 1:  # "table lamps" -> tablelamp, "wall lamp" -> walllamp, "wall lights" -> walllamp
            for last in (ws[-1], ws[-1][:-1] if ws[-1].endswith("s") else None,
                         "lamp" if ws[-1] in ("light", "lights") else None):
                if last and "".join(ws[:-1]) + last in self._class_set:
                    return ["".join(ws[:-1]) + last]
        if ws and ws[-1] in ("dishes", "dish") and self._dishes():
            return self._dishes()[:1]
        if len(ws) == 1:  # "the orange", "the egg": food_orange, food_egg where the scene has it (not the any-food class)
            own_food = next((f"food_{w}" for w in (ws[0], ws[0][:-1] if ws[0].endswith("s") else None)
                             if w and f"food_{w}" in self._class_set), None)
            if own_food:
                return [own_food]
        got = self._match(ws)
        head = ws[-1] if ws else ""
        if got and len(ws) > 1 and head not in _FUNCTION_WORDS and not any(head in w.split() for w, _ in got):
            # a compound noun names its head ("the tv remote" is a remote control, "the coffee mug" a
            # mug): a word before the head that names another class only modifies it
            own = self.classes([head])
            if own and not set(own) & {c for _, c in got}:
                return own
        if (got and len(ws) > 1 and head not in _FUNCTION_WORDS and not {"and", "or", "with", "that", "which", "s"} & set(ws)
                and all(c == "food_food" for _, c in got) and not head.endswith(("ing", "ed"))
                and not self._match([head]) and not self._match([head.rstrip("s")])):
            return []  # "the banana peel": VirtualHome's any-food class for a word that only modifies the head
        if not got and ws and ws[-1].endswith("s"):  # plural: "lights", "cups"
            for stem in (ws[-1][:-1], ws[-1][:-2]):
                got = self._match(ws[:-1] + [stem])
                if got:
                    break
        if len(ws) == 1 and _ALIASES.get(ws[0]) in self._class_set:  # "the trash": the trashcan
            return [_ALIASES[ws[0]]]
        if len(ws) == 1 and ws[0] in _CATEGORIES:  # "the clothes": every clothes_* class, not the table cloth
            group = sorted(c for c in self._classes if c.startswith(_CATEGORIES[ws[0]]))
            if group:
                return group[:1]
        if not got and len(ws) == 1 and ws[0] not in _FUNCTION_WORDS:  # "remote": the one class it begins
            for w in (ws[0], ws[0][:-1] if ws[0].endswith("s") else None):
                heads = [c for c in self._classes if w and "_" in c and c.split("_")[0] == w]
                if len(heads) == 1:
                    return heads
        rooms = set(self._room_classes)
        objs = [(w, c) for w, c in got if c not in rooms]
        got = objs or got
        got.sort(key=lambda wc: -max((i for i, x in enumerate(ws) if x in wc[0].split()), default=-1))
        return list(dict.fromkeys(c for _, c in got))

    def kinds(self, ws, cls):
        """Classes whose instances the phrase ``ws`` covers beside ``cls``: "the lights" (plural)
        are the lights and the lamps (switchable ones survive the ON/OFF filter)."""
        if ws and ws[-1] == "lights" and cls == "light":
            return [cls] + [c for c in self._classes if c.endswith("lamp")]
        if ws and ws[-1] == "lamps" and cls.endswith("lamp") and cls not in (
                "".join(ws[:-1]) + "lamp", "_".join(ws[:-1]) + "_lamp") \
                and " ".join(ws[:-1] + ["lamp"]) not in _PHRASES:  # "the lamps", not "the table / bedside lamps"
            return [cls] + [c for c in self._classes if c.endswith("lamp") and c != cls]
        if ws and ws[-1] in ("dishes", "dish") and cls in self._dishes():  # "the dishes": all the tableware
            return self._dishes()
        if len(ws) == 1 and ws[0] in _CATEGORIES and cls.startswith(_CATEGORIES[ws[0]]):
            return [cls] + sorted(c for c in self._classes if c.startswith(_CATEGORIES[ws[0]]) and c != cls)
        if (ws and ws[-1] in ("lamp", "lamps") and cls.endswith("lamp")
                and all(self.room([w]) is not None for w in ws[:-1])):
            # "the lamp on the nightstand", "the bedroom lamp": any lamp class (of that room)
            return [cls] + [c for c in self._classes if c.endswith("lamp") and c != cls]
        for group in _SAME_THING:  # one thing under two class names ("hair dryer": hairdryer, blow_dryer)
            if cls in group:
                return [cls] + [c for c in sorted(group) if c != cls and c in self._class_set]
        if len(ws) == 1 and ws[0] not in self._class_set:
            # a bare head noun several classes end with ("the counter": the kitchen's or the bathroom's)
            # ("the rack": the dish rack or a towel rack; the room or relation then picks)
            also = [c for c in self._classes if c != cls and len(c) > len(ws[0]) and c.endswith(ws[0])
                    and (c.endswith("_" + ws[0]) or cls.endswith("_" + ws[0]) or "_" not in c)]
            if cls.endswith(ws[0]) and also:
                return [cls] + also
        return [cls]

    def _dishes(self) -> list[str]:
        return [c for c in _DISHES if c in self._class_set]

    def known(self, ws):
        from actionable.worlds.virtualhome.planning import vocabulary

        voc = vocabulary()
        return any(w in voc or w.rstrip("s") in voc or w in _PHRASE_WORDS or w.rstrip("s") in _PHRASE_WORDS
                   for w in ws) \
            or "_".join(ws) in voc

    def instances(self, cls):
        return self.g.nodes_of_class(cls)

    def room(self, ws):
        key = "".join(w for w in ws if w not in ("the", "my", "a", "room") or w == "room" and len(ws) == 1)
        r = self._rooms.get(key)
        if r is None and not any(c not in self._room_classes for _, c in self._match([key])):
            r = self._rooms.get(key + "room")  # "the bath": the bathroom; "the bed" is a bed, not the bedroom
        if r is None and key in ("lounge", "livingroom", "living"):
            r = self._rooms.get("livingroom")
        if r is None and len(key) > 3:  # "the office": the one room whose name holds the word
            hits = [rid for k, rid in self._room_classes.items() if key in k.split("_")]
            if len(hits) == 1:
                r = hits[0]
        named = [w for w in ws if w not in ("the", "my", "a", "room", "rooms")]  # "living room" is not "bathroom"
        if r is None and named:
            got = [c for _, c in self._match(named)]
            thing = len(named) > 1 and any(c not in self._room_classes for c in self.classes(named))
            if got and all(c in self._room_classes for c in got) and not thing:  # "the kitchen worktop": a counter
                r = self._room_classes[got[0]]
        return r

    def in_room(self, obj, room):
        return self.g.room_of(obj) == room

    def related(self, obj, prep, other):
        rel = {"in": ("INSIDE",), "on": ("ON",), "near": ("CLOSE", "ON", "INSIDE"), "from": ("ON", "INSIDE")}.get(prep, ())
        if any(other in self.g.targets(obj, r) for r in rel):
            return True
        # one object between: "the laptop on the desk" stands on a mouse pad on the desk; "the keys in
        # the drawer" are in a box in it; "the cup in the fridge" is on a tray in it
        via = {"on": (("ON", "ON"),), "in": (("INSIDE", "INSIDE"), ("ON", "INSIDE")),
               "from": (("ON", "ON"), ("INSIDE", "INSIDE"), ("ON", "INSIDE"))}.get(prep, ())
        rooms = set(self.g.rooms)
        return any(other in self.g.targets(x, r2) for r1, r2 in via for x in self.g.targets(obj, r1) if x not in rooms)

    def adjective(self, word):
        return _ADJ.get(word)

    def discarded(self, obj):
        return any(self.g.class_of(t) in ("trashcan", "garbage_can") for t in self.g.targets(obj, "INSIDE"))

    def has_state(self, obj, state):
        return state in self.g.states_of(obj)

    def plural(self, word):
        """An ``-s`` word that is not itself a word of a class name ("curtains", not "glasses"), or a
        collective noun for a group of classes ("the clothes": every piece)."""
        return word in _CATEGORIES or (word.endswith("s") and not word.endswith("ss") and word not in self._tokens)


__all__ = ["SceneLexicon", "human"]
