"""THOR's intent tasks and shared helpers of :mod:`.interpret` (split out of it for size).

:data:`INTENTS` names the kitchen tasks whose end state is a product or an activity ("make
coffee", "boil water", "water the plant", "make toast", "make a salad"); :class:`ThorIntents` holds
:class:`~actionable.worlds.thor.interpret.ThorGoals`' methods that read them (written from TEACh's
task definitions, :mod:`.goals`, and AI2-THOR's state changes) and the "I can't tell" answer with
the closest known task.
"""

from __future__ import annotations

import difflib
import re

from actionable.core.conditions import Clause, Condition, GoalReading, bind_once
from actionable.grounding import goal_reader as G
from actionable.worlds import goal_phrases as P
from actionable.worlds.thor.actions import teach_can_contain
from actionable.worlds.thor.scene import ThorState


def _inside(s: ThorState, obj, target) -> bool:
    """``obj`` stands in/on ``target`` (directly or through the parent chain)."""
    if obj not in s.objects:
        return False
    p, seen = s.objects[obj].parent, {obj}
    while p is not None and p not in seen:
        if p == target:
            return True
        seen.add(p)
        p = s.objects[p].parent if p in s.objects else None
    return False


def _norm(text: str) -> str:
    return " ".join(G.words(text))


#: intent tasks: name -> phrasings (normalised words); their end states are built by ThorGoals._intent_*
INTENTS: dict[str, tuple[str, ...]] = {
    "make coffee": ("make coffee", "make a coffee", "make me a coffee", "make some coffee", "make a cup of coffee",
                    "brew coffee", "brew some coffee", "prepare coffee", "prepare a coffee", "coffee",
                    "make a mug of coffee", "pour a cup of coffee", "get me a coffee"),
    "boil water": ("boil water", "boil some water", "boil the water", "boil a pot of water", "boil a kettle",
                   "heat some water", "heat water", "heat up some water", "heat up water",
                   "boil the kettle", "boil some water in a pot", "boil water in a pot", "boil water on the stove"),
    "water the plant": ("water the plant", "water the plants", "water plant", "water plants",
                        "water the houseplant", "water the house plant"),
    "make toast": ("make toast", "make some toast", "make a toast", "toast bread", "toast the bread",
                   "toast some bread", "toast a slice of bread", "make a slice of toast"),
    "make a plate of toast": ("make a plate of toast", "make me a plate of toast", "a plate of toast",
                              "make toast and put it on a plate", "make toast and put it on the plate",
                              "make some toast and put it on a plate", "make toast on a plate",
                              "put a slice of toast on a plate", "serve toast on a plate", "plate of toast",
                              "make toast and serve it on a plate"),
    "make a salad": ("make a salad", "make salad", "make me a salad", "prepare a salad", "make a lettuce salad",
                     "make a simple salad"),
}


#: the coffee task in the words its table does not list ("pour me a cup of coffee")
_COFFEE = re.compile(r"^(?:make|brew|prepare|pour|fix)(?: me| us)?(?: a| some| one| another)?"
                     r"(?: (?:cup|mug|fresh|hot))*(?: of)? coffee$")


#: "toast" as a verb on bread or its slices, after its slicing or not ("slice the bread and toast a
#: slice", "toast a slice of bread in the toaster"); "it" only after the bread's own slicing ("slice
#: the apple and toast it" is the apple, which the toaster refuses): the toast task
_TOAST = re.compile(r"^(?:(?:slice|cut)(?: up)? (?:the |some |a )?(?:loaf of )?bread and toast (?:it|them)"
                    r"|(?:(?:slice|cut)(?: up)? (?:the |some |a )?(?:loaf of )?bread and )?toast "
                    r"(?:a |one |the |some )?(?:slice|piece|bread|loaf)(?: of (?:the )?bread| of it)?)"
                    r"(?: in the toaster)?$")


#: what a known task makes, as a later part's "it" names it ("make coffee and put it in the fridge")
_PRODUCT = {"make coffee": "mug", "make a plate of toast": "plate", "boil water": "pot"}


def _enabling_last(clauses: list[Clause]) -> list[Clause]:
    """The clauses with the asked-for ones first (readable output); enabling clauses after."""
    return [c for c in clauses if "enabling" not in c.source] + [c for c in clauses if "enabling" in c.source]


class ThorIntents:
    """Intent readings of :class:`~actionable.worlds.thor.interpret.ThorGoals` (a mixin)."""

    def _intent_name(self, text: str) -> str | None:
        t = " ".join(w for w in text.split() if w not in ("please", "now"))
        t = re.sub(r"\b(?:and )?then\b", "and", t)  # "make toast then put it on a plate"
        for name, forms in INTENTS.items():
            if t in forms or t.replace(" the plate", " a plate") in forms:
                return name
        if _COFFEE.match(t):  # "make me a cup of coffee", "brew us a mug of coffee"
            return "make coffee"
        if _TOAST.match(t) and t != "toast":
            return "make toast"
        return None

    def _intent_spans(self, text: str):
        """``text`` (normalised, fillers off) cut at "and" / "then" / commas into ``[(chunk, intent
        name or None)]``, each intent the longest run of chunks that names one ("make toast and put
        it on a plate" stays one; so does "slice the bread and toast a slice" + "and put it on a plate",
        the first run's intent named with what follows); ``None`` when no chunk is an intent."""
        chunks = P.chunks(text)
        out, i = [], 0
        while i < len(chunks):
            for j in range(len(chunks), i, -1):
                name = self._intent_name(" and ".join(chunks[i:j]))
                if name is not None:  # then the intent's own name with what follows ("slice the bread and
                    k = next((k for k in range(len(chunks), j, -1)  # toast a slice" + "and put it on a plate")
                              if self._intent_name(" and ".join([name] + chunks[j:k]))), j)
                    if k > j:
                        name = self._intent_name(" and ".join([name] + chunks[j:k]))
                    out.append((" and ".join(chunks[i:k]), name))
                    i = k
                    break
            else:
                out.append((chunks[i], None))
                i += 1
        return out if any(n is not None for _, n in out) else None

    def _mixed(self, task: str, spans, read_rest) -> GoalReading:
        """A task with known tasks among other parts ("boil water and then turn off the light",
        "put the apple in the fridge and make coffee"): the other parts read together by
        ``read_rest(text) -> GoalReading`` (a refusal or an unclear reading of them is the task's),
        then each intent's clauses from the intent table, in the task's order."""
        if len(spans) == 1:  # the whole text, chunk by chunk, is one known task
            return self._intent(task, spans[0][1])
        chunks, prev = [], None
        for chunk, name in spans:  # "make coffee and put it in the fridge": "it" is the coffee's mug
            if name is None and prev is not None and {"it", "them"} & set(chunk.split()):
                what = _PRODUCT.get(prev)
                if what is None:
                    return GoalReading(task, status="unclear", why=(
                        f"I can't tell what 'it' is in '{chunk}': after '{prev}' it would be what that makes, which "
                        f"exists only once made, and the goal reader binds objects that exist now; name the object"))
                chunk = re.sub(r"\b(?:it|them)\b", f"the {what}", chunk)
            chunks.append((chunk, name))
            prev = name
        others = " and ".join(c for c, n in chunks if n is None)
        rest = read_rest(others) if others else GoalReading(task, ())
        if rest.status != "goal":
            return GoalReading(task, status=rest.status, why=rest.why, closest=rest.closest, notes=rest.notes)
        out, notes = list(rest.clauses), list(rest.notes)
        made: list[Clause] = []
        for chunk, name in chunks:
            if name is None:
                continue
            got = self._intent_clauses(name)
            if isinstance(got, str):
                return GoalReading(task, status="refuse", why=got)
            made += [c for c in got if all(c.options != o.options for o in out + made)]
            notes.append(f"'{chunk}': intent '{name}' (its end state from the THOR intent table)")
        # "make coffee and then put the mug in the sink": the mug is the coffee's mug, one instance
        first = chunks[0][1] is not None  # in the task's order: "make coffee and then put the mug ..."
        out = bind_once(made + out if first else out + made, self._shared(out, made),
                        lambda c, opts: self._clause(opts, c.source))
        return GoalReading(task, tuple(self._drop_needless(_enabling_last(out), notes)), notes=notes)

    def _shared(self, rest: list[Clause], made: list[Clause]) -> list[list]:
        """Per object type named both by the other parts' clauses and by a known task's, the
        instances the known task's clauses name (a group for :func:`bind_once`)."""
        def ids(clauses):
            return {x for c in clauses for o in c.options for x in (o.subject, o.target)
                    if x in self.initial.objects}
        theirs = ids(made)
        groups = []
        for t in sorted({self.initial.objects[x].type for x in ids(rest)}):
            group = sorted(x for x in theirs if self.initial.objects[x].type == t)
            if group:
                groups.append(group)
        return groups

    def _named_absent(self, task: str) -> str | None:
        """A word of ``task`` that names a THOR object type the scene lacks ("boil the kettle" in a
        kitchen without a kettle), or ``None``. An intent's table would otherwise reach its end state
        with another object (a pot), which is not what was asked. A measure ("a cup of coffee") names no
        object."""
        ws = G.words(task)
        for i, w in enumerate(ws):
            measure = i + 1 < len(ws) and ws[i + 1] == "of"
            if w not in G._DETS and not measure and self.lex.known([w]) and not self.lex.classes([w]):
                return w
        return None

    def _intent(self, task: str, name: str) -> GoalReading:
        absent = self._named_absent(task)
        if absent is not None:
            return GoalReading(task, status="refuse", why=(
                f"scene {self.name!r} has no {absent}, which the task names ('{name}' would need one); run "
                f"'actionable scenes --env thor {self.name} --classes' to list its objects"))
        got = self._intent_clauses(name)
        if isinstance(got, str):
            return GoalReading(task, status="refuse", why=got)
        notes: list[str] = []
        return GoalReading(task, tuple(self._drop_needless(_enabling_last(got), notes)),
                           notes=notes + [f"intent '{name}': its end state from the THOR intent table (TEACh's task "
                                  f"definitions, AI2-THOR's state changes)"])

    def _intent_clauses(self, name: str, ids=None):
        s = self.initial
        src = f"intent table: {name}"
        if name == "water the plant":
            plants = s.of_type("HousePlant")
            if not plants:
                return f"scene {self.name!r} has no house plant to water"
            return [self._clause([Condition("state", p, "isFilledWithLiquid")], src) for p in plants]
        if name == "make coffee":
            mugs = s.of_type("Mug") or s.of_type("Cup")
            machines = s.of_type("CoffeeMachine")
            if not mugs or not machines:
                return f"scene {self.name!r} has no {'coffee machine' if not machines else 'mug or cup'} for coffee"
            clean = [m for m in mugs if not s.objects[m].dirty]
            target = clean or mugs[:1]
            coffee = [Condition("state", m, "filledWith:coffee") for m in target]
            out = [self._clause([Condition("state", x, "isToggled") for x in machines] + coffee,
                                f"{src} (enabling: a coffee machine fills the mug in it while on)")]
            if clean:
                return out + [self._clause(coffee, src)]
            cl = self._clause([Condition("state", target[0], "isDirty", negate=True)], src)
            self.after[coffee[0]] = cl.options
            return self._faucet_clause("cleaning the mug", [cl]) + out + [cl, self._clause(coffee, src)]
        if name == "boil water":
            got = self._pot()
            if isinstance(got, str):
                return got
            p, burners, filled, on_b, hot = got
            self.after[hot] = (filled,)
            return self._faucet_clause("filling the pot", [self._clause([filled])]) + [
                self._clause([filled], src),
                self._clause([Condition("state", b, "isToggled") for b in burners], src),
                self._clause(on_b, src), self._clause([hot], src)]
        if name == "make a plate of toast":  # TEACh's "Plate Of Toast": the toast on a plate
            got = self._intent_clauses("make toast", ids)
            plates = s.of_type("Plate")
            if isinstance(got, str) or not plates:
                return got if isinstance(got, str) else f"scene {self.name!r} has no plate for the toast"
            cooked = got[-1].options
            plates.sort(key=lambda d: (s.enclosed(d) is not None, s.objects[d].dirty, d))
            on = [Condition("relation", c.subject, "IN", p) for c in cooked for p in plates]
            for c in on:  # toasted first, then put on the plate
                self.after[c] = (Condition("state", c.subject, "isCooked"),)
            return got + [self._clause(on, src)]
        if name == "make toast":
            breads = ids if ids else s.of_type("Bread")
            toasters = s.of_type("Toaster")
            ready = s.of_type("BreadSliced")
            if not (breads or ready) or not toasters:
                return f"scene {self.name!r} has no {'toaster' if not toasters else 'bread'} to make toast"
            slices = ready + [f"{b}|BreadSliced_{k}" for k in range(3) for b in breads]
            cooked = [Condition("state", x, "isCooked") for x in slices]
            cut = [] if ready else self._knife_clause(breads) + [
                self._clause([Condition("state", b, "isSliced") for b in breads], src)]
            return cut + [self._clause([Condition("state", t, "isToggled") for t in toasters] + cooked,
                                       f"{src} (enabling: a toaster that is on cooks the slice in it)"),
                          self._clause(cooked, src)]
        if name == "make a salad":
            lettuce = s.of_type("Lettuce")
            ready = s.of_type("LettuceSliced")
            dishes = s.of_type("Bowl") + s.of_type("Plate")
            if not (lettuce or ready) or not dishes:
                return f"scene {self.name!r} has no {'lettuce' if not (lettuce or ready) else 'bowl or plate'} " \
                       f"for a salad"
            slices = ready + [f"{x}|LettuceSliced_{k}" for k in range(3) for x in lettuce]
            dishes.sort(key=lambda d: (s.enclosed(d) is not None, s.objects[d].dirty, d))
            cut = [] if ready else self._knife_clause(lettuce) + [
                self._clause([Condition("state", x, "isSliced") for x in lettuce], src)]
            return cut + [self._clause([Condition("relation", x, "IN", d) for x in slices for d in dishes], src)]
        return None

    def _in_vessel(self, eff, sel, tgt):
        """Cook/heat in a pan or pot: the object in the vessel, the vessel on a lit burner."""
        if eff == "boil":
            return self._boil(sel)
        s = self.initial
        cc = teach_can_contain()
        burners = [b for b in s.of_type("StoveBurner") if self._knobs(b)]
        vessels = [v for v in tgt.ids if sel.cls in cc.get(s.objects[v].type, ())]
        if not burners or not vessels or s.objects[vessels[0]].type not in cc.get("StoveBurner", ()):
            return f"scene {self.name!r} has no stove burner to {eff} a {sel.cls} in a {tgt.cls} on"
        v = min(vessels, key=lambda i: (not any(_inside(s, i, b) for b in burners), i))
        under = next((b for b in burners if _inside(s, v, b)), burners[0])
        state = "Hot" if eff == "heat" else "isCooked"
        src = f"rule ({eff} in a {tgt.cls} on a lit stove burner)"
        if sel.quantifier != "all":  # one instance, so that the same one goes in the vessel and cooks
            sel.ids = [min(sel.ids, key=lambda i: (s.enclosed(i) is not None, i))]
        for i in sel.ids:  # cooked there, not by another heater on the way
            self.after[Condition("state", i, state)] = (Condition("relation", i, "IN", v),)
        return [self._clause([Condition("relation", v, "IN", under)], src),
                self._clause([Condition("state", under, "isToggled")], src)] + \
            self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("relation", i, "IN", v)], src) + \
            self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, state)], src)

    def _pot(self):
        """``(pot, [burner], filled, [pot IN burner], pot Hot)`` for boiling on the stove (the
        pot already filled or on a burner first), or a refusal; ``pot IN burner`` comes after
        ``filled`` (:attr:`after`)."""
        s = self.initial
        burners = [b for b in s.of_type("StoveBurner") if self._knobs(b)]
        cc = teach_can_contain()
        pots = [i for t in ("Pot", "Kettle", "Pan", "Bowl") for i in s.of_type(t)
                if burners and t in cc.get("StoveBurner", ()) and "canFillWithLiquid" in s.objects[i].caps]
        if not pots or not burners or not self._faucet_clause(""):
            what = "stove burner" if not burners else "pot or kettle" if not pots else "faucet"
            return f"scene {self.name!r} has no {what} to boil water"
        under = {i: next((b for b in burners if _inside(s, i, b)), None) for i in pots}
        p = min(pots, key=lambda i: (not (s.objects[i].filled and s.objects[i].liquid == "water"),
                                     under[i] is None, pots.index(i)))
        burners = [under[p]] if under[p] is not None else burners[:1]
        filled = Condition("state", p, "filledWith:water")
        on_b = [Condition("relation", p, "IN", b) for b in burners]
        for c in on_b:
            self.after[c] = (filled,)
        return p, burners, filled, on_b, Condition("state", p, "Hot")

    def _boil(self, sel):
        """Boil a cookable: it stands in a pot of water on a lit burner (AI2-THOR's isBoiled)."""
        got = self._pot()
        if isinstance(got, str):
            return got
        p, burners, filled, on_b, _ = got
        cc = teach_can_contain()
        if sel.cls not in cc.get(self.initial.objects[p].type, ()):
            return f"a {sel.cls} cannot be put in a {self.initial.objects[p].type} in the THOR world"
        src = "rule (boil: in a pot of water on a lit stove burner)"
        return self._faucet_clause("filling the pot", [self._clause([filled])]) + [
            self._clause([filled], src), self._clause(on_b, src),
            self._clause([Condition("state", b, "isToggled") for b in burners], src)] + \
            self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("relation", i, "IN", p)], src) + \
            self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, "isBoiled")], src)

    def _unclear(self, task: str, notes=None) -> GoalReading:
        best, sim = self._closest(task)
        if self.embedder is not None and sim >= G.INTENT_SIMILARITY:  # "Could you make me some toast?"
            r = self._intent(task, best)
            named = {c for w in G.words(task) for c in self.lex.classes([w])}
            used = {str(x).split("|")[-1].rsplit("_", 1)[0] for c in r.clauses for o in c.options
                    for x in (o.subject, o.target) if x is not None}
            if not named - used:  # "toast the apple" is near "make toast", which never touches the apple
                return GoalReading(r.task, r.clauses, status=r.status, why=r.why, closest=best,
                                   notes=list(notes or []) + [f"read as the known task '{best}' (translation-LM "
                                                              f"similarity {sim:.2f} >= {G.INTENT_SIMILARITY})"]
                                   + list(r.notes)) if r.is_goal else r
        absent = G.unnamed_object(task, self.lex)
        if absent is not None:  # "make some popcorn": whatever the verb means, no kitchen has popcorn
            return GoalReading(task, status="refuse", notes=list(notes or []),
                               why=f"no AI2-THOR scene has a {absent}; run 'actionable scenes --env thor "
                                   f"{self.name} --classes' to list this scene's objects")
        tw = G.words(task)
        lacking = [w for w in tw[1:] if w not in G.NOT_OBJECTS and self.lex.known([w])  # (the first word is the
                   and not self.lex.classes([w])]  # verb: "watch TV" is not a wristwatch)
        if lacking:  # "watch TV" in a kitchen: the world has TVs, this scene has none (the last such word:
            # "can we watch something? switch the television on" lacks the television, not a watch)
            return GoalReading(task, status="refuse", closest=best, notes=list(notes or []),
                               why=f"scene {self.name!r} has no {lacking[-1]}; run 'actionable scenes --env thor "
                                   f"{self.name} --classes' to list its objects")
        return GoalReading(task, status="unclear", closest=best, notes=list(notes or []),
                           why=f"I can't tell what end state this asks for; the closest known task is '{best}' "
                               f"(similarity {sim:.2f})")

    def _closest(self, task: str) -> tuple[str, float]:
        names = list(INTENTS)
        if self.embedder is not None:
            import numpy as np

            m = np.asarray(self.embedder.encode(names), dtype=float)
            q = np.asarray(self.embedder.encode([task])[0], dtype=float)
            sims = m @ q / (np.linalg.norm(m, axis=1) * np.linalg.norm(q) + 1e-9)
            k = int(np.argmax(sims))
            return names[k], float(sims[k])
        t = _norm(task)
        scored = [(max(difflib.SequenceMatcher(None, t, f).ratio() for f in INTENTS[n]), n) for n in names]
        sim, best = max(scored)
        return best, sim

