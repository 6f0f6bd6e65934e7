"""Food of the THOR world read as goal conditions (split out of :mod:`.interpret` for size).

:class:`ThorFood` holds :class:`~actionable.worlds.thor.interpret.ThorGoals`' methods for what
becomes a new object or a cooked one in AI2-THOR:

* Slices of an object the task slices first ("slice the tomato and put a slice on a plate"):
  AI2-THOR's ``Slice`` turns a sliceable ``<Type>`` into ``<Type>Sliced`` pieces, which exist only
  once it is cut, so the clauses name the pieces the world will make (``Tomato|..|TomatoSliced_0``
  .. ``_2``, :func:`actionable.worlds.thor.actions.sliced`): "a slice" is any one of them in/on
  the target, "the slices" every one.
* An egg cooked ("cook an egg", "fry an egg"): AI2-THOR's ``Egg`` is not ``cookable``; slicing
  (cracking) it makes an ``EggCracked`` that is cookable and cannot be picked up, so the egg is
  cracked where it cooks: the egg in a pan (or pot) on a stove burner, cracked there with a knife
  in hand, the burner lit; the asked-for condition is the ``EggCracked`` cooked.
* Heating, cooking and chilling a whole object with a heater or the fridge (:meth:`ThorFood._treat`).
"""

from __future__ import annotations

import re

from actionable.core.conditions import Condition
from actionable.grounding import goal_reader as G
from actionable.worlds.thor.actions import teach_can_contain
from actionable.worlds.thor.intents import _inside

#: "put a slice on a plate", "place the tomato slices in the bowl", "put one piece of it on the plate"
_SLICE_PART = re.compile(
    r"^(?:put|place|set|lay|move|arrange|transfer|add) (?:(?P<q>a single|a|an|one|the|some|all the|all|two|three|"
    r"both|the two|the three) )?(?:(?P<pre>[a-z]+) )?(?P<n>slices?|pieces?)(?: of (?:the |an? )?(?P<of>[a-z]+))? "
    r"(?P<prep>on top of|onto|on|into|in|inside) (?P<tgt>.+)$")
_COUNTS = {"two": 2, "three": 3, "the two": 2, "the three": 3, "both": 2}


def slice_ids(oid: str, otype: str) -> list[str]:
    """The ids of the pieces :func:`actionable.worlds.thor.actions.sliced` makes of ``oid``."""
    if otype == "Egg":
        return [f"{oid}|EggCracked_0"]
    return [f"{oid}|{otype}Sliced_{k}" for k in range(3)]


def slices_mentioned(task: str) -> bool:
    """``task`` slices something and then names its pieces ("slice the tomato and put a slice
    on a plate", "... a slice of it ..."): the pieces are read against that slicing."""
    return bool(re.search(r"\b(?:slice|cut)\b.*\b(?:slices?|pieces?)\b", task, re.I))


class ThorFood:
    """Slices, a cooked egg and heating of :class:`~actionable.worlds.thor.interpret.ThorGoals` (a mixin)."""

    def _slice_part(self, part: str, readings: list, named: list):
        """The clauses of a part that places pieces of an object sliced earlier in the task, a
        refusal, or ``None`` when ``part`` is no such placement. Returns ``(clauses, note,
        target selector)``."""
        m = _SLICE_PART.match(part)
        if not m:
            return None
        cut = [h for h in readings if h.effect == "slice" and h.subject is not None and h.subject.ids]
        word = m.group("of") or m.group("pre")
        if word in (None, "it", "them", "its", "tomato's"):
            source = cut[-1] if cut else None
        else:
            source = next((h for h in reversed(cut) if word in G.words(h.subject.words or "")
                           or self.lex.classes([word]) == [h.subject.cls]
                           or h.subject.cls.lower() == word.rstrip("s")), None)
        if source is None:
            return None
        s = self.initial
        src_ids = list(source.subject.ids)
        otype = s.objects[src_ids[0]].type
        piece = "EggCracked" if otype == "Egg" else f"{otype}Sliced"
        if otype == "Egg":
            return (f"a cracked egg cannot be picked up in the THOR world (AI2-THOR's EggCracked is not "
                    f"pickupable), so it cannot be put {m.group('prep')} anything; crack the egg where it should be")
        tsel = G.select(m.group("tgt").split(), self.lex, named)
        if isinstance(tsel, str):
            return f"scene {self.name!r} has no {G.missing_object(tsel.split(':', 1)[1])}"
        if tsel is None or not tsel.ids:
            return None
        ok_t = self._targets_for(piece, tsel.ids)
        if not ok_t:
            return (f"a {piece} cannot be put in or on {tsel.cls} in the THOR world (its placement table, "
                    f"ALFRED's canContain with TEACh's states, never allows it)")
        pieces = {x: slice_ids(x, otype) for x in src_ids}
        q, plural = m.group("q"), m.group("n").endswith("s")
        n = _COUNTS.get(q or "", 1 if not plural else (3 if q in (None, "the", "all", "all the") else None))
        if n is None:
            return f"I can't tell how many slices '{q} {m.group('n')}' means; say 'a slice' or 'the slices'"
        src = "rule (slices of what the task slices: AI2-THOR makes them with the Slice action)"
        if n == 1:
            clauses = [self._clause([Condition("relation", p, "IN", t) for x in src_ids for p in pieces[x]
                                     for t in ok_t], src)]
        else:  # slice k of whichever one is sliced, for k < n
            clauses = [self._clause([Condition("relation", pieces[x][k], "IN", t) for x in src_ids for t in ok_t], src)
                       for k in range(n)]
        what = "a slice" if n == 1 else f"{n} slices"
        note = f"'{part}': place {what} of {source.subject.describe(self.name_of)} {m.group('prep')} " \
               f"{tsel.describe(self.name_of)} (the slices exist once it is sliced)"
        return clauses, note, tsel

    def _cook_egg(self, eff: str, sel, tgt):
        """Cook or fry an egg: cracked into a pan (or pot) on a stove burner that is lit, its
        ``EggCracked`` cooked; a refusal naming why when the scene cannot."""
        s = self.initial
        cc = teach_can_contain()
        why = ("AI2-THOR cooks an egg only once it is cracked (its Egg is not cookable; slicing it makes a "
               "cookable EggCracked that cannot be picked up, so it is cracked where it cooks)")
        if tgt is not None and tgt.cls not in ("Pan", "Pot", "StoveBurner"):
            return f"the THOR world here cooks an egg in a pan on a lit stove burner, not in a {tgt.cls}: {why}"
        burners = [b for b in s.of_type("StoveBurner") if self._knobs(b)]
        vessels = [v for t in ("Pan", "Pot") for v in (tgt.ids if tgt is not None and tgt.cls == t else s.of_type(t))
                   if "Egg" in cc.get(t, ()) and t in cc.get("StoveBurner", ())]
        knives = self._knife_clause(sel.ids)
        if not burners or not vessels or not knives:
            lack = "stove burner with a knob" if not burners else "pan or pot" if not vessels else "knife"
            return f"scene {self.name!r} has no {lack} to cook an egg with: {why}"
        on = {v: next((b for b in burners if _inside(s, v, b)), None) for v in vessels}
        v = min(vessels, key=lambda i: (on[i] is None, s.enclosed(i) is not None, vessels.index(i)))
        under = on[v] or (tgt.ids[0] if tgt is not None and tgt.cls == "StoveBurner" else burners[0])
        eggs = sel.ids if sel.quantifier == "all" else [min(sel.ids, key=lambda i: (s.enclosed(i) is not None, i))]
        sel.ids = eggs
        src = "rule (cook an egg: cracked into a pan on a lit stove burner; AI2-THOR cooks the EggCracked)"
        on_stove = Condition("relation", v, "IN", under)
        out = [self._clause([on_stove], src)]
        cooked, cut = [], []
        for e in eggs:  # the order a cook takes: pan on the stove, egg in the pan, cracked there, burner lit
            cracked = slice_ids(e, "Egg")[0]
            in_pan, sliced = Condition("relation", e, "IN", v), Condition("state", e, "isSliced")
            self.after[in_pan] = (on_stove,)
            self.after[sliced] = (in_pan,)  # cracked in the pan, never on the counter
            cooked.append(Condition("state", cracked, "isCooked"))
            cut.append(sliced)
            out += [self._clause([in_pan], src), self._clause([sliced], src)]
        lit = Condition("state", under, "isToggled")
        for c in [lit] + cooked:
            self.after[c] = tuple(cut)
        knife = self._knife_clause(eggs)
        for k in knife[0].options:  # the knife taken up once the egg is in the pan (the hand carries the egg first)
            if k.value == "HOLDS":
                self.after[k] = tuple(self.after[c][0] for c in cut)
        return out + knife + \
            [self._clause([lit] + (cooked if len(cooked) == 1 else []),
                          "rule (enabling: AI2-THOR cooks what is in a pan on a lit stove burner)")] + \
            [self._clause([c], src) for c in cooked]

    def _heaters(self, obj_type: str, prefer=("Microwave", "StoveBurner", "Toaster")) -> list:
        cc = teach_can_contain()
        for t in prefer:
            ids = [i for i in self.initial.of_type(t) if obj_type in cc.get(t, ())
                   and (t != "StoveBurner" or self._knobs(i))]
            if ids:
                return ids
        return []

    def _treat(self, eff, sel, tgt, prep):
        s = self.initial
        if eff == "chill":
            fr = tgt.ids if tgt is not None else s.of_type("Fridge")
            fr = self._targets_for(sel.cls, fr)
            if not fr:
                return f"scene {self.name!r} has nothing that can chill a {sel.cls}"
            return self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, "Cold")])
        if eff == "toast" and sel.cls not in ("Bread", "BreadSliced"):  # "toast the apple"
            return (f"{'an' if sel.cls[0] in 'AEIOU' else 'a'} {sel.cls} cannot be toasted in the THOR world (its toaster cooks bread slices only); "
                    f"say 'heat the {sel.cls.lower()} in the microwave'")
        if eff == "toast" or (eff in ("cook", "fry") and sel.cls == "Bread"):
            return self._intent_clauses("make toast", [i for i in sel.ids if s.objects[i].type == "Bread"])
        prefer = {"heat": ("Microwave", "StoveBurner", "Toaster"), "cook": ("StoveBurner", "Microwave", "Toaster"),
                  "fry": ("StoveBurner",), "boil": ("StoveBurner",)}[eff]
        if tgt is not None and tgt.cls in ("Pan", "Pot", "Kettle", "Bowl"):
            return self._in_vessel(eff, sel, tgt)
        if tgt is not None:
            prefer = tuple(dict.fromkeys(s.objects[t].type for t in tgt.ids))
        heaters = self._heaters(sel.cls, prefer)
        if not heaters:
            return f"scene {self.name!r} has nothing to {eff} a {sel.cls} with"
        state = {"heat": "Hot", "cook": "isCooked", "fry": "isCooked", "boil": "isBoiled"}[eff]
        if eff == "boil":
            return self._boil(sel)
        cl = self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, state)])
        shut = []
        doors = [h for h in heaters if "openable" in s.objects[h].caps]
        if len(heaters) == 1 and doors:
            # a microwave runs closed, with the food already in (the house's rule too): switched on
            # only once it holds what it heats (every one, or any of "the bread") and is shut, and it ends shut
            h = doors[0]
            inside = [Condition("relation", i, "IN", h) for i in sel.ids]
            gate = tuple((inside if sel.quantifier == "all" else [frozenset(inside)])
                         + [Condition("state", h, "isOpen", negate=True)])
            for c in [Condition("state", h, "isToggled")] + [Condition("state", i, state) for i in sel.ids]:
                self.after[c] = gate
            shut = self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("relation", i, "IN", h)],
                                     "rule (heated inside the microwave)") + \
                [self._clause([Condition("state", h, "isOpen", negate=True)], "rule (an appliance with a door runs closed)")]
        single = list(cl[0].options) if len(cl) == 1 else []
        return [self._clause([Condition("state", h, "isToggled") for h in heaters] + single,
                             f"rule (enabling: AI2-THOR {'heats' if state == 'Hot' else 'cooks'} what is in a "
                             f"running heater)")] + cl + shut

