"""THOR's ``goals`` capability: kitchen instructions read as goal conditions over ALFRED's predicates.

:class:`ThorGoals` (``capability("thor", "goals")(scene)``) implements
:class:`~actionable.core.conditions.GoalInterpreter` for one AI2-THOR kitchen:

* :meth:`~ThorGoals.read`: the world-neutral grammar of :mod:`actionable.grounding.goal_reader`
  over :class:`ThorLexicon`, mapped onto the predicates the independent checker reads
  (:mod:`actionable.evaluation.goal_states`, ``THOR_STATES``): states ``isToggled`` (on/off),
  ``isOpen`` (open/closed), ``isDirty`` (negated: clean), ``isFilledWithLiquid`` /
  ``filledWith:water`` / ``filledWith:coffee`` (fill, water), ``isCooked`` (cook, fry, toast),
  ``isBoiled``, ``isSliced``, ``Hot`` (heat), ``Cold`` (chill); relations ``IN`` (follows the parent
  chain: AI2-THOR's ``parentReceptacles`` do not tell *in* from *on*) and ``HOLDS`` (the agent holds
  it). Placement follows the world's placement table (ALFRED's ``canContain`` extended with TEACh's
  states, :func:`actionable.worlds.thor.actions.teach_can_contain`): a target that cannot take the
  object is a refusal naming both. Objects the scene lacks ("the TV" in a kitchen) and objects that
  lack the capability an effect needs (a ``toggleable`` TV, a ``cookable`` egg to boil) are refusals;
  slices of what the task slices, and an egg cooked by cracking it in a pan, are read by
  :mod:`.food`.
* Intent tasks ("make coffee", "boil water", "water the plant", "make toast", "make a salad") take
  their end state from :data:`INTENTS`, a small table written from TEACh's task definitions
  (:mod:`.goals`) and AI2-THOR's state changes; anything else whose end state cannot be read is
  ``unclear`` ("I can't tell what end state this asks for") with the closest known task (difflib
  ratio, or the translation LM's cosine when an ``embedder`` is given).
* Some effects need a standing condition in this world, which the reading adds as an *enabling*
  clause (its ``source`` says so): cleaning and filling with water need a running faucet (AI2-THOR
  cleans and fills what stands under it), heating and cooking a running heater, coffee a running
  coffee machine, slicing a knife in hand ("a knife is held, or it is already sliced": the clause
  stays met after the knife is put down). Every enabling clause holds in the final state of a plan
  that meets the reading, so a reading's "Done" implies the asked-for conditions.
* :meth:`~ThorGoals.view`: a :class:`~actionable.core.conditions.ConditionView` of a
  :class:`~actionable.worlds.thor.scene.ThorState` (``None``: the scene's initial state).
* :meth:`~ThorGoals.achievers`: resolved steps of the shared vocabulary the THOR planning
  affordance runs (``SWITCHON``/``SWITCHOFF``, ``OPEN``/``CLOSE``, ``GRAB``, ``PUTIN``/``PUTBACK``,
  ``POUR``, ``WASH``, ``CUT``), bound to THOR ids; the affordance's rule repair
  (:mod:`.repair`) adds the walking, opening, picking up and filling. Achievers of a condition
  with ordering constraints (boil water: heat the pot only once it holds water) are offered only
  once those hold.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading, bind_references, drop_undone
from actionable.grounding import goal_frames as F
from actionable.grounding import goal_reader as G
from actionable.grounding import spoken as S
from actionable.grounding.corrections import insisted_refusal, unread_refusal
from actionable.grounding.questions import as_asked, as_said
from actionable.worlds import goal_phrases as P
from actionable.worlds.thor import data
from actionable.worlds.thor.actions import KNIVES, teach_can_contain
from actionable.worlds.thor.achieve import ThorAchievers
from actionable.worlds.thor.food import ThorFood, slices_mentioned
from actionable.worlds.thor.intents import INTENTS, ThorIntents, _enabling_last, _inside, _norm  # noqa: F401
from actionable.worlds.thor.lexicon import NAMES, ThorConditionView, ThorLexicon, _article, _singulars, phrases
from actionable.worlds.thor.scene import Scene, ThorState, load_scene, resolve_scene

_EXTRA_VERBS = (("light", "on"), ("put on", "on"), ("wash up", "clean"), ("make toast", "toast"))
#: effect -> the AI2-THOR capability its object needs
_NEEDS = {"on": "toggleable", "off": "toggleable", "open": "openable", "closed": "openable",
          "clean": "dirtyable", "slice": "sliceable", "fill": "canFillWithLiquid", "hold": "pickupable",
          "cook": "cookable", "fry": "cookable", "boil": "cookable"}
_STATE = {"on": ("isToggled", False), "off": ("isToggled", True), "open": ("isOpen", False),
          "closed": ("isOpen", True), "clean": ("isDirty", True), "slice": ("isSliced", False)}
#: appliances and vessels a cooking verb's preposition names ("cook the potato in the pan")
_TOOLS = frozenset({"Microwave", "StoveBurner", "Toaster", "Pan", "Pot", "Kettle", "Bowl"})
_STORAGE = ("Drawer", "Cabinet", "Shelf")
_PRONOUNS = frozenset({"it", "them"})
_FILLER = re.compile(r"^(please |can you |could you |would you |will you |i want you to |i'd like you to |"
                     r"now |then |go and |go )+")
_ASSERT = re.compile(r"^(?:make sure|ensure|check|see|verify)(?: that)? (?:(?:you|to) )?(.+?) (?:is|are) "
                     r"(not )?(.+)$")
_ASSERT_EFFECT = {"closed": "close", "shut": "close", "open": "open", "off": "turn off", "on": "turn on",
                  "clean": "clean", "sliced": "slice", "cooked": "cook", "hot": "heat", "cold": "chill",
                  "switched off": "turn off", "switched on": "turn on", "turned off": "turn off",
                  "turned on": "turn on", "washed": "clean"}


_REWRITES = (
    (re.compile(r"^(?:bring|give|hand|fetch|get|pass) me (.+)$"), r"pick up \1"),
    (re.compile(r"^(?:throw away|throw out|discard|bin|dispose of|get rid of) (.+)$"), r"put \1 in the garbage can"),
    (re.compile(r"^(?:throw|toss) (.+?) (?:away|out)$"), r"put \1 in the garbage can"),
)


_OF_LIQUID = re.compile(r"\b(a|an|the|one|my) (cup|mug|glass|bowl|pot|kettle) of (water|coffee)\b", re.I)


#: "boil (some) water (in the kettle)", "boil the kettle": a vessel of water made hot on the stove
_BOIL_WATER = re.compile(r"\bboil (?:some |the )?water(?: in (?:the |a )?(kettle|pot|saucepan))?\b|\bboil the (kettle)\b",
                         re.I)


def _of_liquid(text: str) -> str:
    """ "warm a cup of water in the microwave" -> "fill a cup with water, then warm the cup in the
    microwave": a vessel *of* a liquid is the vessel filled with it (not the faucet the water comes
    from); the text is unchanged without one, or when it already says "fill"."""
    m = _OF_LIQUID.search(text)
    if not m or re.search(r"\bfill", text, re.I):
        return text
    return f"fill {m.group(1)} {m.group(2)} with {m.group(3)}, then {text[:m.start()]}the {m.group(2)}{text[m.end():]}"


def _rewrite(seg: str) -> str:
    """Phrasal commands the grammar does not know, as ones it does ("bring me the bread" ->
    "pick up the bread"; "throw away the apple" -> "put the apple in the garbage can")."""
    for pat, rep in _REWRITES:
        if pat.match(seg):
            return pat.sub(rep, seg)
    return seg






#: first words of an aside: the grammar's, and the contracted ones ("we've got friends coming")
_ASIDE_START = G.ASIDE_START | {"i've", "we've", "i'm", "we're"}
#: words of a statement that say how an object got where it is ("stuck up in the cabinet", "hiding
#: somewhere"), not which object it is
_HOW_PUT = frozenset({"stuck", "up", "hiding", "hidden", "buried", "somewhere", "still", "sitting", "lying", "left",
                      "kept", "stored", "standing", "been", "just", "now"})


#: ALFRED / TEACh state predicates in words
_STATE_WORDS = {"isOpen": "open", "isToggled": "on", "isDirty": "dirty", "isCooked": "cooked", "isSliced": "sliced",
                "isBoiled": "boiled", "Hot": "hot", "Cold": "cold", "isFilledWithLiquid": "filled", "isBroken": "broken",
                "isUsedUp": "used up"}


#: receptacles that hold what is put in them inside / on top (an insisted "on top" / "inside" is refused)
_ENCLOSING = frozenset({"Fridge", "Microwave", "Cabinet", "Drawer", "Safe", "Box", "GarbageCan"})
_SURFACES = frozenset({"CounterTop", "DiningTable", "SideTable", "Desk", "Shelf", "CoffeeTable", "Sofa", "Bed",
                       "Chair", "ArmChair", "TVStand", "Ottoman", "Stool"})


class ThorGoals(ThorFood, ThorIntents, ThorAchievers):
    """The ``goals`` capability for one THOR scene (``FloorPlan<N>``, ``teach:<game>`` or a
    :class:`~actionable.worlds.thor.scene.Scene`).

    Args:
        scene: scene name (a bare TEACh game id is read as one) or ``Scene``.
        embedder: the translation LM (``encode(list[str]) -> array``) to name the closest known
            task of an unclear intent; ``None``: difflib's ratio.

    Raises:
        UnknownSceneError: no such THOR scene.
    """

    world = "thor"

    def __init__(self, scene: Any = "FloorPlan1", embedder=None):
        if scene in (None, "default"):
            scene = "FloorPlan1"
        if not isinstance(scene, Scene):
            scene = load_scene(resolve_scene(scene) or scene) if isinstance(scene, str) else load_scene(scene)
        self.scene = scene
        self.name = scene.name
        self.initial = ThorState(scene)
        self.embedder = embedder
        self.lex = ThorLexicon(self.initial)
        #: condition -> conditions that must hold before its achievers are offered (an element that is a
        #: frozenset: any one of its conditions)
        self.after: dict[Condition, tuple[Condition, ...]] = {}

    # --- naming
    def name_of(self, x) -> str:
        if x == CHARACTER:
            return "the agent"
        short = self.scene.short.get(x)
        if short is None and "|" in str(x):  # a slice not cut yet: "Bread_1 slice 0"
            base, _, tail = str(x).rpartition("|")
            if tail.startswith("EggCracked"):
                return f"{self.scene.short.get(base, base)} cracked"
            return f"{self.scene.short.get(base, base)} slice {tail.rsplit('_', 1)[-1]}"
        return short or str(x)

    def describe(self, c: Condition) -> str:
        """The condition in words, the ALFRED/TEACh predicate after it ("Fridge_1 is open (isOpen)")."""
        neg = "not " if c.negate else ""
        if c.kind == "state":
            v = str(c.value)
            word = _STATE_WORDS.get(v) or (f"filled with {v.split(':', 1)[1]}" if v.startswith("filledWith:") else v)
            return f"{self.name_of(c.subject)} is {neg}{word}" + (f" ({v})" if word != v else "")
        if c.value == "HOLDS":
            return f"the agent is {neg}holding {self.name_of(c.target)}"
        return f"{self.name_of(c.subject)} is {neg}in/on {self.name_of(c.target)}"

    def view(self, state=None):
        return ThorConditionView(self.initial if state is None else state)

    def _caps(self, t: str) -> set:
        ids = self.initial.of_type(t)
        if ids:
            return set().union(*(self.initial.objects[i].caps for i in ids))
        return set(data.vocab()["TYPE_CAPS"].get(t, ()))

    def _clause(self, opts, source="rule") -> Clause:
        opts = tuple(dict.fromkeys(opts))
        text = self.describe(opts[0]) if len(opts) == 1 else " or ".join(self.describe(o) for o in opts[:3]) + (
            f" (or {len(opts) - 3} more)" if len(opts) > 3 else "")
        return Clause(opts, text, source)

    def _per_subject(self, ids, quantifier, make, source="rule") -> list[Clause]:
        if quantifier == "all":
            return [self._clause(make(i), source) for i in ids]
        return [self._clause([o for i in ids for o in make(i)], source)]

    # --- reading
    def read(self, task: str) -> GoalReading:
        """``task`` as goal conditions over this scene (see the module doc). Never raises for
        text: refusals and unreadable goals come back as ``status`` ``refuse`` / ``unclear``; a
        question on a state ("Is the fridge open?", "Is the plate dirty?") is marked ``question``:
        answered Yes or No, never acted on (:func:`~actionable.grounding.spoken.answer_question`,
        :func:`~actionable.grounding.spoken.adjective_question`)."""
        said, task = task, as_asked(task)  # "The telly isn't on, is it?": "Is the telly off?"
        asked = S.adjective_question(task, self.lex, self._clause)
        if asked is not None:
            return dataclasses.replace(asked, task=said)
        r = self._read(task)
        r = insisted_refusal(task, r, self._cannot_place)  # "put the egg on the fridge, on top, not inside"
        r = S.answer_question(task, r).in_order(task)
        return as_said(said, r)  # "Have I left the oven on?": a question never acted on

    def _cannot_place(self, insisted: str, r: GoalReading) -> str | None:
        """Why a placement of ``r`` cannot be made ``insisted`` ("in" / "on"): THOR records only the
        receptacle an object is in or on, and this one holds things the other way; or ``None``."""
        kinds = _ENCLOSING if insisted == "on" else _SURFACES
        wrong = [o.target for c in r.clauses for o in c.options
                 if o.kind == "relation" and isinstance(o.target, str) and o.target.split("|")[0] in kinds]
        return None if not wrong else (f"{self.name_of(wrong[0])} is a {wrong[0].split('|')[0]}, which holds things "
                                       f"{'inside' if insisted == 'on' else 'on it'}, and the THOR world records "
                                       "only the receptacle an object is in or on")

    def _read(self, task: str) -> GoalReading:
        self.after = {}
        if G.not_a_task(task):
            return GoalReading(task, status="refuse", why="the text is not a kitchen task (it addresses a chat "
                                                           "model, not an agent in the kitchen); give a task such "
                                                           "as 'put the mug in the sink'")
        task, feeling = P.drop_feeling(task, lambda ws: any(
            self.lex.known([w]) for w in ws if w not in G._DETS and w not in G._QUANT_ANY))
        task, refusal = S.prepare(task, "put the apple in the fridge",
                                  lambda t: any(self.lex.known([w]) for w in G.words(t) if w not in G._DETS))
        if refusal:
            return GoalReading(task, status="refuse", why=refusal)
        unread = unread_refusal(task, self.lex, self.name, "put the apple in the fridge", _EXTRA_VERBS)
        if unread is not None:  # "..., then call my mother": never dropped without a word
            return unread
        intent = self._intent_name(_FILLER.sub("", _norm(task)))
        if intent is not None:  # "make a cup of coffee" is the coffee task, not "fill a cup with coffee"
            return self._intent(task, intent)
        spans = self._intent_spans(", ".join(_FILLER.sub("", _norm(x)) for x in re.split(r"[;,]", task) if _norm(x)))
        if spans is not None:  # "boil water and then turn off the light": a known task among other parts
            return self._mixed(task, spans, self._read)
        boiled = _BOIL_WATER.search(task)
        if boiled:  # "boil water in the kettle": a kettle of water heated on the stove (AI2-THOR's Hot)
            vessel = boiled.group(1) or boiled.group(2) or "kettle"
            task = f"{task[:boiled.start()]}warm a {vessel} of water on the stove burner{task[boiled.end():]}"
            notes_before = [f"'{boiled.group(0)}' is read as a {vessel} of water made hot on the stove burner "
                            f"(AI2-THOR tracks a vessel's temperature, not boiling)"]
        else:
            notes_before = []
        task = _of_liquid(task)
        piece = re.search(r"\b(?:a |one |two |the )?(?:slices?|pieces?|bits?|halves|half) of (?:an? |the )?(\w+)", task, re.I)
        if piece and piece.group(0).lower().lstrip().startswith("half of the") and piece.group(1).endswith("s"):
            piece = None  # "half of the apples": an amount of whole ones (bound as a count)
        if piece and slices_mentioned(task) and (piece.group(1) in ("it", "them") or re.search(
                rf"\b(?:slice|cut)\b(?: up)? (?:the |an? )?{piece.group(1)}", task, re.I)):
            piece = None  # "slice the tomato and put a slice of it on a plate": pieces of that slicing
        if piece:  # the slices exist only once it is sliced: no instance to bind before that
            return GoalReading(task, status="unclear", why=(
                f"I can't tell which objects '{piece.group(0)}' means: slices of an object exist only after it is "
                f"sliced, and the goal reader binds objects that exist now; ask for the slicing itself, e.g. "
                f"'slice the {piece.group(1)}'"))
        text = _FILLER.sub("", _norm(task))
        intent = self._intent_name(text)
        raw_text = self._door_of(re.sub(r"[;,]", " , ", task.lower()))
        if intent is not None:
            return self._intent(task, intent)
        notes: list[str] = ([feeling] if feeling else []) + notes_before
        named: list = []
        said: dict = {}  # class -> the instances a statement named ("one salt shaker is in a cabinet")
        segments = self._segments(raw_text, named, notes, said)
        if isinstance(segments, GoalReading):
            return segments
        if not segments:
            return self._unclear(task)
        from actionable.grounding.clauses import clauses as split_clauses

        joined = " and ".join(segments)
        object_words = [w for w in G.words(joined) if self.lex.known([w])]
        object_words += [w for ws_, _ in self._nouns(G.words(joined)) for w in ws_]
        parts = split_clauses(joined, object_words)
        out: list[Clause] = []
        readings: list = []  # the clause readings so far
        parts_read: list = []  # (selectors, clauses) per part ("the other plate" is another one)
        for part in parts:
            place = P.unrecorded_place(part)
            if place and G.split_verb(G.words(part), _EXTRA_VERBS)[0] is not None:  # not "in the sink"
                return GoalReading(task, status="refuse", why=P.place_refusal(part, place, "the THOR world",
                                                                              "put the mug on the counter"))
            got = self._slice_part(part, readings, named)  # "..., and put a slice on a plate"
            if isinstance(got, str):
                return GoalReading(task, status="refuse", why=got)
            if got is not None:
                cls_, note, tsel = got
                parts_read.append(([tsel], cls_))
                out += [c for c in cls_ if all(c.options != o.options for o in out)]
                notes.append(note)
                continue
            r = self._tool_clause(part, named) or G.read_clause(part, self.lex, named, _EXTRA_VERBS)
            r = F.reread(part, r, self.lex, named, _EXTRA_VERBS, notes)  # "every knife should end up in the sink"
            if isinstance(r, str) and not G.names_an_object(r.split(":", 1)[1]):
                return self._unclear(task, notes)  # "the kitchen ready, we're having people over"
            if isinstance(r, str):
                what = G.missing_object(r.split(":", 1)[1])
                return GoalReading(task, status="refuse", why=f"scene {self.name!r} has no {what}; run "
                                                              f"'actionable scenes --env thor {self.name} --classes' "
                                                              f"to list its objects")
            if r is None:
                return self._unclear(task, notes)
            r = G.implied_source(r, readings)
            for sel in (r.subject, r.target):  # "one salt shaker is in a cabinet, put it on the counter": that one
                if sel is not None and sel.quantifier == "the" and not sel.other and sel.cls in said:
                    sel.ids = [i for i in sel.ids if i in said[sel.cls]] or sel.ids
            sliced = {i for h in readings if h.effect == "slice" and h.subject is not None for i in h.subject.ids}
            if r.effect in G.PLACING and r.subject is not None and r.subject.ids and set(r.subject.ids) <= sliced:
                return GoalReading(task, status="unclear", why=(
                    f"I can't tell which objects '{part}' means once the {r.subject.cls} is sliced: its slices "
                    f"exist only after the slicing, and the goal reader binds objects that exist now; ask for the "
                    f"slicing alone ('slice the {r.subject.cls.lower()}')"))
            stated = self._adjectives(part, r, notes)  # "the dirty plates" with none dirty
            if isinstance(stated, str):
                return GoalReading(task, status="refuse", why=stated)
            counted = self._count(r, notes)  # "two apples": that many instances
            if counted is not None:
                return GoalReading(task, status="refuse", why=counted)
            if (r.effect == "off" and r.subject is not None and r.subject.cls == "StoveBurner"
                    and "burner" not in (r.subject.words or "") and "ring" not in (r.subject.words or "")):
                r.subject.quantifier = "all"  # "turn off the stove": every burner of it, not one
            readings.append(r)
            if r.subject is not None and r.subject.ids and r.subject.quantifier == "the" and not r.subject.other:
                # "take the book off the shelf and put it in a drawer": "it" (read as "the book") is that book
                said.setdefault(r.subject.cls, list(r.subject.ids))
            snap = G.snapshot(r)  # as named, before the reading narrows them
            got = stated or self._conditions(r)
            if isinstance(got, str):
                return GoalReading(task, status="refuse", why=got)
            if got is None:
                return self._unclear(task, notes)
            if got == [] and G.words(r.text)[:2] == ["keep", "still"]:
                notes.append(f"'{part.replace('keep still ', 'keep ')}': not so now, so nothing is kept and nothing is switched (say it as a "
                             "command to change it)")
            parts_read.append((snap, [c for c in got if all(c.options != o.options for o in out)]))
            for c in got:
                if all(c.options != o.options for o in out):
                    out.append(c)
            if r.subject is not None:
                named.extend(r.subject.ids)
            notes.append(f"'{part}': {r.effect}" + (f" {r.subject.describe(self.name_of)}" if r.subject else "")
                         + (f" {r.prep} {r.target.describe(self.name_of)}" if r.target else ""))
        if not out:
            return self._unclear(task, notes)
        out = bind_references(parts_read, lambda c, opts: self._clause(opts, c.source))
        out, undone = drop_undone(out)
        notes += undone
        return GoalReading(task, tuple(self._drop_needless(_enabling_last(out), notes)), notes=notes)

    def _door_of(self, text: str) -> str:
        """ "the door" in a scene without doors: the door of the openable thing named before it ("put
        the bread in the fridge and close the door" closes the fridge); ``text`` unchanged otherwise."""
        ws = text.split()
        if "door" not in ws or self.lex.known(["door"]):
            return text
        k = ws.index("door")
        box = next((w for w in reversed(ws[:k]) for t in self.lex.classes([w])
                    if any("openable" in self.initial.objects[i].caps for i in self.initial.of_type(t))), None)
        return text if box is None else " ".join(box if i == k else w for i, w in enumerate(ws))

    def _adjectives(self, part: str, r, notes: list):
        """A state adjective before the subject's or target's noun ("the dirty plates", "the open
        drawer") restricts it to the instances in that state; with none in it, the clauses that
        say so (already met) when the verb undoes the state ("wash the dirty dishes": nothing to
        do), else a refusal naming the phrase; ``None`` when nothing was said or some fit."""
        if not isinstance(r, G.ClauseReading):
            return None
        unfit = P.unfit_adjective(part, r, self.lex.adjective, self.lex.has_state)
        if unfit is None:
            return None
        sel, adjs = unfit
        word, st, neg = adjs[0]
        what = P.plural(sel.words if sel.words and len(sel.words.split()) == 1 else sel.cls)
        names = ", ".join(self.name_of(i) for i in sel.ids[:4]) + (f" and {len(sel.ids) - 4} more"
                                                                 if len(sel.ids) > 4 else "")
        made = _STATE.get(r.effect)
        if sel is r.subject and made is not None and made[0] == st and made[1] != neg:
            notes.append(f"'{part}': none of the {what} in scene {self.name!r} is {word} ({names}), so there "
                         f"is nothing to {G.words(part)[0]}; none is chosen")
            return [self._clause([Condition("state", i, st, negate=not neg)]) for i in sel.ids]
        return (f"none of the {what} in scene {self.name!r} is {word} ({names}), so none fits '{word} {what}'; "
                f"say which one, or leave out '{word}'")

    def _count(self, r, notes: list) -> str | None:
        """A count on the subject ("two apples") binds that many instances: those that can take
        the verb's effect, not already in place first; the refusal when fewer fit, else ``None``."""
        sel = r.subject if isinstance(r, G.ClauseReading) else None
        n = P.count(sel)
        amount = P.amount(r.text, sel) if sel is not None else None
        if n is None and amount is None:
            return None
        s = self.initial
        need = _NEEDS.get(r.effect) or ("pickupable" if r.effect in G.PLACING else None)
        fit = [i for i in sel.ids if need is None or need in s.objects[i].caps]
        if amount is not None:  # "both" must find exactly two; "half", "all but one": that many of those that fit
            sel.quantifier = "all"
            n = P.bind_amount(amount, fit, sel.words, sel.cls, self.name_of, self.name)
            if isinstance(n, str):
                return n
            if n is None:  # both: every one of the two
                sel.ids = fit
                return None
        if len(fit) < n:
            return P.count_refusal(sel.words, n, fit, sel.cls, self.name_of, self.name)

        def rank(i):
            if r.effect in _STATE:
                st, neg = _STATE[r.effect]
                return (st in s.objects[i].states()) != neg
            return r.target is not None and any(_inside(s, i, t) for t in r.target.ids)
        sel.ids = P.choose(fit, n, rank)
        sel.quantifier = "all"
        notes.append(P.count_note(sel.words, sel.ids, len(fit), self.name_of,
                                  "not yet in place first, then the scene's order"))
        return None

    def _drop_needless(self, clauses: list[Clause], notes: list) -> list[Clause]:
        """Without the enabling clauses when every asked-for clause already holds at the start
        (nothing to do: no faucet is run for plates that are clean)."""
        from actionable.core.conditions import check_clauses

        asked = [c for c in clauses if "enabling" not in c.source]
        if len(asked) < len(clauses) and check_clauses(asked, self.view()).done:
            notes.append("every asked-for condition already holds; enabling conditions dropped")
            return asked
        return clauses

    def _segments(self, text: str, named: list, notes: list, stated: dict | None = None):
        """Split at ``;``/``,``/``and``/``then``; rewrite assertions ("make sure the X is off" ->
        "turn off the X"); resolve ``it``/``them``/"the other one" to the noun they stand for;
        statements ("one apple is in the bin") bind their objects to ``named`` ("the other one"
        then excludes them) and, by class, to ``stated`` (a later "it" or "the apple" is that one),
        and ask for nothing."""
        raw = [_norm(p) for p in re.split(r"\s*(?:;|,|\band\b|\bthen\b)\s*", text) if _norm(p)]
        out: list[str] = []
        history: list[list[tuple[list[str], str]]] = []
        asks = any(G.split_verb(_rewrite(_FILLER.sub("", x)).split(), _EXTRA_VERBS)[0] is not None
                   or F.reframe(_FILLER.sub("", x), self.lex, named) is not None for x in raw)  # a wish asks too
        for k, seg in enumerate(raw):
            seg = _FILLER.sub("", seg)
            m = _ASSERT.match(seg)
            if m:
                np_, neg, adj = m.group(1), m.group(2), m.group(3)
                eff = _ASSERT_EFFECT.get(adj)
                if eff is None and adj.split()[0] in ("in", "on", "inside"):
                    seg = f"put {np_} {adj}"
                elif eff is not None:
                    if neg:
                        eff = {"close": "open", "open": "close", "turn off": "turn on", "turn on": "turn off"}.get(eff)
                        if eff is None:
                            return None
                    seg = f"{eff} {np_}"
                else:
                    seg = f"{seg}"
            seg = _rewrite(seg)
            seg = re.sub(r"^there(?:'s| s| is| are) ", "there is ", seg)  # "there's a mug in the fridge": a statement
            ws = seg.split()
            effect, rest = G.split_verb(ws, _EXTRA_VERBS)
            if effect is None and any(w in ("is", "are", "sits", "lies", "stands") for w in ws):
                k = next(i for i, w in enumerate(ws) if w in ("is", "are", "sits", "lies", "stands"))
                if k and k + 1 < len(ws) and not any(w in G._PREPS for w in ws[k + 1:]) and self._nouns(ws[:k]):
                    ws = ws[:k]  # "that soap in the basin is getting soggy": the subject says which one
                np_ = [w for w in ws if w not in ("is", "are", "sits", "lies", "stands", "already") and w not in _HOW_PUT]
                if np_[:1] == ["there"]:
                    np_ = np_[1:]  # "there is a mug in the fridge": the mug
                sel, _ = G.select_cut(np_, self.lex, named)  # "... near the ceiling" names no object
                if isinstance(sel, G.Selector):
                    named.extend(sel.ids)
                    if stated is not None:
                        stated.setdefault(sel.cls, list(sel.ids))
                    notes.append(f"'{seg}': names {', '.join(self.name_of(i) for i in sel.ids)} (a statement)")
                history.append(_topic_first(self._nouns(np_), sel.cls if isinstance(sel, G.Selector) else None))
                continue
            if effect is None and asks and F.reframe(seg, self.lex, named) is None:
                nxt = set(G.words(raw[k + 1])) if k + 1 < len(raw) else set()
                nouns = self._nouns(ws)
                sel = self._topic(ws, named) if nouns and (_PRONOUNS | {"they"}) & nxt else None
                if sel is not None:
                    # "the apple rolled into the bin. put it in the fridge": that apple, for "it" (not the bin;
                    # "the potato in the frying pan - hand it here": not the pan)
                    history.append(_topic_first(nouns, sel.cls))
                    named.extend(sel.ids)
                    if stated is not None:
                        stated.setdefault(sel.cls, list(sel.ids))
                    notes.append(f"'{seg}': names {', '.join(self.name_of(i) for i in sel.ids)}, the 'it' that follows")
                    continue
                if ws and ws[0] in _ASIDE_START:
                    notes.append(f"'{seg}': an aside, asks for nothing")
                    continue
            ws = self._resolve(ws, effect, history)
            history.append(self._nouns(ws))
            out.append(" ".join(ws))
        return out

    def _topic(self, ws: list[str], named: list):
        """The instances a clause without a command says something about ("the apple rolled into the
        bin": the apple in the bin), from its object, preposition and determiner words; a place
        phrase that selects nothing is cut from the end; ``None`` when a stated place cannot be read
        (never an instance the clause did not mean)."""
        np_ = [w for w in ws if w in G._DETS or w in G._PREPS or w in G._QUANT_ANY or w in G._QUANT_ALL
               or self.lex.known([w]) or self.lex.adjective(w) is not None]
        while np_ and np_[-1] in ("on", "off"):
            np_.pop()  # "did somebody leave the toaster on": a state, not a place
        sel, k = G.select_cut(np_, self.lex, named)
        if not isinstance(sel, G.Selector) or not sel.ids:
            return None
        placed = any(w in G._PREPS for w in np_[:k])
        if not placed:
            if any(w in G._PREPS for w in np_):
                return None
            sel.ids = [i for i in sel.ids if not self.lex.discarded(i)] or sel.ids  # not the one in the bin
        return sel

    def _nouns(self, ws: list[str]) -> list[tuple[list[str], str]]:
        """``(words, type)`` of each object phrase of ``ws``, in order (longest match first)."""
        skip = G._DETS | G._QUANT_ALL | G._QUANT_ANY | G._MODIFIERS | {"is", "are"}
        out, i = [], 0
        while i < len(ws):
            n_found = 0
            if ws[i] not in skip:
                for n in (3, 2, 1):
                    t = self.lex.exact(ws[i:i + n]) if i + n <= len(ws) else None
                    if t is not None and t in self.lex.types:
                        out.append((ws[i:i + n], t))
                        n_found = n
                        break
            i += max(1, n_found)
        return out

    def _resolve(self, ws: list[str], effect, history) -> list[str]:
        """``ws`` with ``it``/``them``/"(other) one" replaced by the phrase of the noun meant:
        the most recent earlier object with the capability the effect needs (``close it``: an
        openable), else the first object of the part before."""
        if not history or not any(w in _PRONOUNS or w == "one" for w in ws[1:]):
            return ws
        out = list(ws)
        for k, w in enumerate(ws):
            if k == 0 or not (w in _PRONOUNS or (w == "one" and ws[k - 1] in ("other", "the", "that", "this"))):
                continue
            role_target = any(p in ws[:k] for p in ("in", "into", "on", "onto", "inside")) and effect in G.PLACING
            need = "receptacle" if role_target else _NEEDS.get(effect, "pickupable" if effect in G.PLACING else None)
            cands = [c for h in reversed(history) for c in (h if isinstance(h, _Topic) else reversed(h))]
            # a StoveBurner is switched by its knob: "put the pan on the stove and turn it on" is the stove
            # no capability needed ("toast it", "slice it"): the object of the part before, its first
            # noun ("take the bread out of the fridge and toast it": the bread, not the fridge)
            pick = (history[-1][0] if need is None and history[-1] else
                    next((c for c in cands if need is None or need in self._caps(c[1])
                          or (need == "toggleable" and c[1] == "StoveBurner")), None))
            if pick is None and history[-1]:
                pick = history[-1][0]
            if pick is None:
                continue
            phrase = list(pick[0])
            if w == "one":
                phrase = [_singulars(phrase[-1])[-1] if len(_singulars(phrase[-1])) > 1 else phrase[-1]]
                phrase = pick[0][:-1] + phrase
                out[k] = " ".join(phrase)
            else:
                out[k] = " ".join((["the"] if w == "it" else ["all", "the"]) + phrase)
        return " ".join(out).split()

    # --- effects -> conditions
    def _targets_for(self, obj_type: str, ids: list) -> list:
        cc = teach_can_contain()
        return [t for t in ids if obj_type in cc.get(self.initial.objects[t].type, ())]

    def _tool_clause(self, part: str, named: list):
        """"cook the potato in the pan", "boil the egg in the pot": the phrase after the
        preposition is the appliance or vessel, not a filter on the object (``None``: not such
        a clause)."""
        effect, rest = G.split_verb(part.split(), _EXTRA_VERBS)
        if effect not in ("cook", "fry", "boil", "heat", "toast"):
            return None
        obj, prep, tgt = G._split_prep(rest)
        if prep not in ("in", "on", "with") or not tgt:
            return None
        tsel = G.select(tgt, self.lex, named)
        if not isinstance(tsel, G.Selector) or tsel.cls not in _TOOLS:
            return None
        sub = G.select(obj, self.lex, named)
        if sub is None or isinstance(sub, str):
            return sub
        G.not_discarded(sub, tsel, self.lex, named)
        return G.ClauseReading(part, effect, sub, tsel, prep)

    def _conditions(self, r: G.ClauseReading):
        eff, sel, tgt = r.effect, r.subject, r.target
        near = G.near_refusal(r, "the THOR world", "counter")
        if near is not None:
            return near
        s = self.initial
        if eff in ("sit", "lie", "stand"):
            return "the kitchen agent has no posture in the THOR world (AI2-THOR's agent neither sits nor lies)"
        if eff == "go":
            return None
        if sel is None:
            return None
        need = _NEEDS.get(eff)
        if eff in ("cook", "fry") and sel.cls == "Egg":  # cracked where it cooks (AI2-THOR's EggCracked)
            return self._cook_egg(eff, sel, tgt)
        if eff in ("cook", "fry") and sel.cls in ("Bread",):
            return self._intent_clauses("make toast", sel.ids)
        if need:
            ok = [i for i in sel.ids if need in s.objects[i].caps]
            if not ok and eff in ("on", "off") and sel.cls == "StoveBurner":
                ok = [i for i in sel.ids if self._knobs(i)]
            if not ok:
                what = {"toggleable": "switched on or off", "openable": "opened or closed", "dirtyable": "cleaned",
                        "sliceable": "sliced", "canFillWithLiquid": "filled", "pickupable": "picked up",
                        "cookable": "cooked"}[need]
                return (f"{_article(sel.cls)} {sel.cls} cannot be {what} in the THOR world (it lacks the '{need}' capability)")
            sel.ids = ok
        if eff in _STATE:
            state, neg = _STATE[eff]
            ws = G.words(r.text)
            if ws[:1] == ["keep"]:  # "keep / leave X on": the instances already so (as in the house)
                view = self.view()
                held = [i for i in sel.ids if view.holds(Condition("state", i, state, negate=neg))]
                if held:
                    sel.ids, sel.quantifier = held, "all"
                elif ws[1:2] == ["still"]:
                    return []  # "..., and keep the other one running" with it off: nothing kept, never switched on
            cl = self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, state, negate=neg)])
            if eff == "clean":
                if not self._faucet_clause(""):
                    return f"scene {self.name!r} has no faucet over a sink to clean a {sel.cls} with"
                return self._faucet_clause("cleaning", cl) + cl
            if eff == "slice":
                return self._knife_clause(sel.ids) + cl
            return cl
        if eff in ("fill", "water"):
            liquid = "coffee" if "coffee" in G.words(r.text) else "water"
            if eff == "water":
                ok = [i for i in sel.ids if "canFillWithLiquid" in s.objects[i].caps]
                if not ok:
                    return f"a {sel.cls} cannot be watered in the THOR world (it lacks 'canFillWithLiquid')"
                return self._per_subject(ok, sel.quantifier, lambda i: [Condition("state", i, "isFilledWithLiquid")])
            cl = self._per_subject(sel.ids, sel.quantifier, lambda i: [Condition("state", i, f"filledWith:{liquid}")])
            if liquid == "coffee":
                m = s.of_type("CoffeeMachine")
                if not m:
                    return f"scene {self.name!r} has no coffee machine to fill from"
                return [self._clause([Condition("state", x, "isToggled") for x in m] + _single(cl),
                                     "rule (enabling: a coffee machine fills what stands in it while on)")] + cl
            if any("pickupable" in s.objects[i].caps for i in sel.ids):
                if not self._faucet_clause(""):
                    return f"scene {self.name!r} has no faucet over a sink to fill a {sel.cls} from"
                return self._faucet_clause("filling", cl) + cl
            return cl
        if eff in ("heat", "cook", "fry", "chill", "toast", "boil"):
            return self._treat(eff, sel, tgt, r.prep)
        if eff == "place" and tgt is None:  # "put the mug back" / "put the knife away" (the grammar reads "put")
            ws = G.words(r.text)
            eff = "put_back" if "back" in ws else "put_away" if "away" in ws else eff
        if eff == "put_away" and tgt is None:
            store = [i for t in _STORAGE for i in s.of_type(t)]
            if store:
                tgt = G.Selector("storage", "any", store, "drawer or cabinet")
        if eff in ("place", "put_away", "put_back"):
            if tgt is None:
                if eff == "put_back":
                    homes = {i: s.objects[i].parent for i in sel.ids}
                    if all(homes.values()):
                        return self._per_subject(sel.ids, sel.quantifier,
                                                 lambda i: [Condition("relation", i, "IN", homes[i])])
                return None
            if r.prep == "near":  # "next to the pepper shaker": where it stands
                homes = sorted({s.objects[t].parent for t in tgt.ids if s.objects[t].parent})
                if not homes:
                    return None
                tgt = G.Selector(s.objects[homes[0]].type, "any", homes, "")
            return self._placement(sel, tgt)
        if eff in ("take_out", "hold") and tgt is not None and r.prep == "from":
            inside = [i for i in sel.ids if any(_inside(s, i, t) for t in tgt.ids)]
            sel.ids = inside or sel.ids
            if eff == "hold":  # "get a mug from the cabinet": hold one of those
                return self._hold(sel)
            homes = {i: [t for t in tgt.ids if _inside(s, i, t)] or tgt.ids for i in sel.ids}
            if sel.quantifier == "all" or len(sel.ids) == 1:
                return [self._clause([Condition("relation", i, "IN", t, negate=True)], "rule")
                        for i in sel.ids for t in homes[i]]
            return [self._clause([Condition("relation", i, "IN", homes[i][0], negate=True) for i in sel.ids])]
        if eff == "take_out":
            if tgt is None:
                return self._hold(sel)
            return self._per_subject(sel.ids, sel.quantifier,
                                     lambda i: [Condition("relation", i, "IN", t, negate=True) for t in tgt.ids])
        if eff == "hold":
            if tgt is not None:
                return self._placement(sel, tgt)
            return self._hold(sel)
        return None

    def _hold(self, sel):
        if sel.quantifier == "all" and len(sel.ids) > 1:
            return f"the agent holds one object at a time; it cannot hold every {sel.cls}"
        return [self._clause([Condition("relation", CHARACTER, "HOLDS", i) for i in sel.ids])]

    def _placement(self, sel, tgt):
        s = self.initial
        ok_t = self._targets_for(sel.cls, tgt.ids)
        if not ok_t:
            return (f"{_article(sel.cls)} {sel.cls} cannot be put in or on {_article(tgt.cls)} {tgt.cls} in the THOR "
                    f"world (its placement table, ALFRED's canContain with TEACh's states, never allows it)")
        if "pickupable" not in self._caps(sel.cls):
            return f"a {sel.cls} cannot be picked up in the THOR world (it lacks 'pickupable')"
        if tgt.quantifier == "all" and len(ok_t) > 1 and sel.quantifier != "all" and getattr(sel, "count", None) is None:
            # "put an apple in every bowl": one clause per target, each met by a different instance
            if len(sel.ids) < len(ok_t):
                return (f"that needs {_article(sel.cls)} {sel.cls} for each of the {len(ok_t)} {tgt.cls}s, "
                        f"and this scene has {len(sel.ids)}")
            return [self._clause([Condition("relation", i, "IN", t) for i in sel.ids if i != t and not _inside(s, t, i)])
                    for t in ok_t]
        ids = sel.ids
        if getattr(sel, "other", False) and len(ids) > 1:
            # "put the other mug in the sink": not the mug already there (with an X named before,
            # the reading's bind_apart also keeps it apart from that one)
            away = [i for i in ids if not any(_inside(s, i, t) for t in ok_t)]
            ids = away or ids
        # a sink basin and its sink are one place (the checker accepts either)
        return self._per_subject(ids, sel.quantifier,
                                 lambda i: [Condition("relation", i, "IN", t) for t in ok_t if t != i
                                            and not _inside(s, t, i)])

    def _knobs(self, burner) -> list:
        return sorted(k for k, b in self.scene.links.items() if b == burner
                      and self.initial.objects[k].type == "StoveKnob")

    def _faucet_clause(self, why: str, done: list[Clause] = ()) -> list[Clause]:
        """A running faucet, or the effect already there: cleaning or filling happens under a running
        faucet; once it has happened the faucet need not run. One such clause per object ("wash both
        dirty plates": faucet on or plate 1 clean, faucet on or plate 2 clean), so the faucet is never
        a goal of its own once every object is done (it had been left running)."""
        f = sorted(k for k, b in self.scene.links.items() if self.initial.objects[k].type == "Faucet")
        if not f:
            return []
        src = f"rule (enabling: {why} happens under a running faucet in AI2-THOR)"
        on = [Condition("state", x, "isToggled") for x in f]
        per = [list(c.options) for c in done if c.options and all(o.kind == "state" for o in c.options)]
        if len(per) == len(done) and len(per) > 1:
            return [self._clause(on + opts, src) for opts in per]
        return [self._clause(on + _single(done), src)]

    def _knife_clause(self, ids) -> list[Clause]:
        knives = [i for t in KNIVES for i in self.initial.of_type(t)]
        if not knives:
            return []
        return [self._clause([Condition("relation", CHARACTER, "HOLDS", k) for k in knives]
                             + [Condition("state", i, "isSliced") for i in ids],
                             "rule (enabling: slicing needs a knife in hand; met for good once sliced)")]


class _Topic(list):
    """The object phrases of a statement, the thing it is about first ("the potato in the frying pan": the
    potato, then the pan): a later "it" is the first of them that can take the verb."""


def _topic_first(nouns: list, cls: str | None) -> list:
    """``nouns`` as a :class:`_Topic` with the phrases of class ``cls`` first (unchanged list without one)."""
    if cls is None or not any(n[1] == cls for n in nouns):
        return nouns
    return _Topic([n for n in nouns if n[1] == cls] + [n for n in nouns if n[1] != cls])


def _single(clauses) -> list[Condition]:
    """The options of ``clauses`` when there is exactly one clause (else none)."""
    clauses = list(clauses)
    return list(clauses[0].options) if len(clauses) == 1 else []




__all__ = ["INTENTS", "NAMES", "ThorConditionView", "ThorGoals", "ThorLexicon", "phrases"]
