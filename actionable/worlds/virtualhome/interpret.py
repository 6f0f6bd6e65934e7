"""VirtualHome's ``goals`` capability: instructions read as goal conditions over the scene graph.

:class:`VirtualHomeGoals` (``capability("virtualhome", "goals")(scene)``) implements
:class:`~actionable.core.conditions.GoalInterpreter`:

* :meth:`~VirtualHomeGoals.read`: the world-neutral grammar of
  :mod:`actionable.grounding.goal_reader` over :class:`SceneLexicon`, mapped onto VirtualHome's
  predicates: node states (``ON``/``OFF``, ``OPEN``/``CLOSED``, ``PLUGGED_IN``/``PLUGGED_OUT``,
  ``CLEAN``), relations (``INSIDE``, ``ON``, ``HOLDS`` = ``HOLDS_RH`` or ``HOLDS_LH``, ``FACING``,
  ``CLOSE``) and the character's posture (``SITTING``, ``LYING``). Containment against surface
  follows the target's properties (``CONTAINERS`` / ``SURFACES``). An instruction whose end state is
  a product or an activity ("make coffee") takes the annotated goals (EAI, Li et al. 2024) of the
  packaged program whose title is nearest (cosine >= :data:`INTENT_SIMILARITY` with the translation
  LM), bound by class to this scene's instances; below that it is ``unclear`` with the closest title.
* :meth:`~VirtualHomeGoals.view`: a :class:`~actionable.core.conditions.ConditionView` of a
  simulator state.
* :meth:`~VirtualHomeGoals.achievers`: the step that makes a condition hold (``SWITCHOFF`` for
  ``OFF``, ``PUTIN`` for ``INSIDE``, ...); the planning affordance's rule repair adds its
  preconditions (walk, grab, open the container).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from actionable.core.conditions import CHARACTER, Clause, Condition, GoalReading, bind_references, drop_undone, visits_on_the_way
from actionable.grounding import goal_frames as F
from actionable.grounding import goal_reader as G
from actionable.grounding import spoken as S
from actionable.grounding.corrections import insisted_refusal, unread_refusal
from actionable.grounding.questions import as_asked, as_said
from actionable.worlds import goal_phrases as P
from actionable.worlds.virtualhome.achieve import _FLOORS, VirtualHomeAchievers
from actionable.worlds.virtualhome.discourse import _NEEDS, _STATE_OF, Discourse
from actionable.worlds.virtualhome.goalview import HOLDING, ConditionViewVH, _as_view
from actionable.worlds.virtualhome.intents import EXTRA_VERBS as _EXTRA_VERBS, OPPOSITE as _OPPOSITE, AnnotatedIntents, _room_classes, last_posture
from actionable.worlds.virtualhome.lexicon import SceneLexicon, human

#: a statement of how something is, beside a command ("the fumes are awful"): an aside even when
#: the scene has no such thing
_COMPLAINT = re.compile(r"^(?:the|my|our|this|that|these|those) [a-z ]+? (?:is|are|was|were|smells?|feels?|looks?|"
                        r"seems?) (?:so |really |very |too |just |a bit |kind of )?[a-z]+$")

#: cosine (translation LM) of the task to a packaged title for its annotated goals to be the reading
INTENT_SIMILARITY = G.INTENT_SIMILARITY
#: the appliances that do a verb's work, in order of preference (VirtualHome has no cooked state:
#: "bake the turkey" is the turkey in the oven with the oven on)
_APPLIANCES = {"heat": ("microwave", "stove", "oven"), "toast": ("toaster",), "chill": ("freezer", "fridge"),
               "cook": ("stove", "oven", "microwave"), "bake": ("oven",), "fry": ("stove",), "boil": ("stove",)}
_COOKING = frozenset({"cook", "bake", "fry", "boil"})
#: a state and the one that reverses it (a clause a later one reverses is not in the end state)
#: a part that only stresses the objects named before ("yes, the clean ones too", "those ones as well")
_THE_ONES = re.compile(r"(?:yes |and |even )?(?:the|those|these) (?:[a-z]+ )?ones(?: too| as well| also)?")
#: "make (some) toast", "make me a slice of toast": the bread toasted (no packaged title says it)
_TOAST = re.compile(r"\bmake (?:me |us )?(?:some |a (?:slice|piece|round) of |a bit of )?toast\b", re.I)
#: the states that undo another (ending a state): over every instance, vacuous for those that cannot be in
#: the other one
_UNDONE = frozenset({"OFF", "CLOSED", "PLUGGED_OUT"})
#: "listen to (some) music", "play music", "put some music on": a music player switched on (the first
#: of :data:`_MUSIC_PLAYERS` the scene has; no packaged title needed)
_MUSIC = re.compile(r"\b(?:listen to|play|put on|put) (?:some |a bit of |the )?(?:music|songs?|tunes)(?: on)?\b", re.I)
_MUSIC_PLAYERS = ("stereo", "cd_player", "radio")
#: (state an adjective names, state the verb makes) where the verb undoes the adjective ("wash the
#: dirty dishes"): with no instance in that state there is nothing to do
_UNDOES = frozenset({("DIRTY", "CLEAN"), ("OPEN", "CLOSED"), ("CLOSED", "OPEN"), ("ON", "OFF"), ("OFF", "ON"),
                     ("PLUGGED_IN", "PLUGGED_OUT"), ("PLUGGED_OUT", "PLUGGED_IN")})


class VirtualHomeGoals(Discourse, AnnotatedIntents, VirtualHomeAchievers):
    """The ``goals`` capability for one VirtualHome scene (a name or a ``SceneGraph``).

    Args:
        scene: scene name (``"default"``, a packaged program id) or graph.
        embedder: the translation LM (``grounding.embedder``) for intent readings; ``None``: intent
            tasks are ``unclear``.

    Raises:
        SceneError: unknown scene name.
    """

    world = "virtualhome"

    def __init__(self, scene: Any = "default", embedder=None):
        from actionable.worlds.virtualhome.scene import load_scene

        self.graph = load_scene(scene) if scene is None or isinstance(scene, str) else scene
        self.name = getattr(self.graph, "name", "")
        self.embedder = embedder
        self.lex = SceneLexicon(self.graph, embedder)
        self._vacuous: list[str] = []
        self._cannot: list[str] = []
        self._said_rooms: set = set()
        self._gone_to = None  # while reading in chunks: the room an earlier chunk goes to (_chunks)

    # --- naming
    def name_of(self, x) -> str:
        if x == CHARACTER:
            return "the character"
        cls = self.graph.class_of(x)
        room = self.graph.room_of(x)
        where = f" in the {human(self.graph.class_of(room))}" if room is not None and room != x else ""
        return f"{human(cls)} {x}{where}"

    def describe(self, c: Condition) -> str:
        if c.kind == "action":
            what = " or ".join(x.lower() for x in c.value.split("|"))
            return (f"the character did {what}" + (f" ({self.name_of(c.subject)})" if c.subject is not None else "")
                    + (f" holding {self.name_of(c.holding)}" if c.holding is not None else ""))
        s = self.name_of(c.subject)
        neg = "not " if c.negate else ""
        if c.kind == "state":
            if c.subject == CHARACTER:
                return f"the character is {neg}{c.value.lower()}"
            return f"{s} is {neg}{c.value}"
        rel = {"INSIDE": "in", "ON": "on", "HOLDS": "holding", "FACING": "facing", "CLOSE": "close to"}.get(
            c.value, c.value.lower())
        tgt = self.name_of(c.target)
        if c.value in HOLDING:
            hand = {"HOLDS_RH": " in the right hand", "HOLDS_LH": " in the left hand"}.get(c.value, "")
            return f"the character is {neg}holding {tgt}{hand}"
        return f"{s} is {neg}{rel} {tgt}"

    def view(self, state=None):
        return ConditionViewVH(self.graph if state is None else _as_view(state, self.graph))

    # --- reading
    def read(self, task: str, exclude_titles=(), exclude_programs=()) -> GoalReading:
        """The goal conditions of ``task`` (see the module doc); a question on a state ("Is the TV
        on?", "Is the plate dirty?") is marked ``question``: answered Yes or No, never acted on
        (:func:`~actionable.grounding.spoken.answer_question`, :func:`~actionable.grounding.spoken.adjective_question`).

        Args and returns: as :meth:`_read`.
        """
        said, task = task, as_asked(task)  # "The telly isn't on, is it?": "Is the telly off?"
        asked = S.adjective_question(task, self.lex, self._clause)  # "Is the plate dirty?"
        if asked is not None:
            return dataclasses.replace(asked, task=said)
        r = self._read(task, exclude_titles, exclude_programs)
        if r.status in ("refuse", "unclear"):
            r = self._failing_chunk(task, r, exclude_titles, exclude_programs)
        r = insisted_refusal(task, r, self._cannot_place)  # "on the desk - inside it, not on top"
        r = S.answer_question(task, r).in_order(task)
        return as_said(said, r)  # "Have I left the oven on?": a question never acted on

    def _here(self, task: str) -> str:
        """ "in here", "in this room": the room the character is in ("Switch the light on, it's dark in here"
        had switched on a light of another room); unchanged when the character has no room."""
        g = self.graph
        room = g.class_of(g.room_of(g.character_id)) if g.character_id is not None else None
        if not room:
            return task
        return re.sub(r"\b(?:in here|in this room)\b", f"in the {room.replace('_', ' ')}", task, flags=re.I)

    def _cannot_place(self, insisted: str, r: GoalReading) -> str | None:
        """Why a placement of ``r`` cannot be made ``insisted`` ("in" / "on"): its target takes
        things only the other way (a surface, a container), or ``None``."""
        want = "INSIDE" if insisted == "in" else "ON"
        wrong = [c for c in r.clauses if c.options and all(o.kind == "relation" and o.value in ("ON", "INSIDE")
                                                           and o.value != want and o.subject != CHARACTER
                                                           for o in c.options)]
        return None if not wrong else (f"{self.name_of(wrong[0].options[0].target)} can only take things "
                                       f"{'on it' if want == 'INSIDE' else 'inside'} in VirtualHome")

    def _read(self, task: str, exclude_titles=(), exclude_programs=()) -> GoalReading:
        """The goal conditions of ``task`` (see the module doc).

        Args:
            task: the instruction.
            exclude_titles / exclude_programs: packaged titles and program ids whose annotated goals
                may not inform an intent reading (leave-title-out and leave-one-program-out
                evaluation: the task's own title, its step-for-step twins, its own program).

        Returns:
            a :class:`~actionable.core.conditions.GoalReading`.
        """
        from actionable.grounding.clauses import clauses as split_clauses

        from actionable.core.dataset import normalize_task

        self._exclude = (frozenset(normalize_task(t) for t in exclude_titles), frozenset(exclude_programs))
        self._vacuous: list[str] = []  # parts over every instance of a class none of which can be otherwise
        self._cannot: list[str] = []  # instances "all" covers that cannot take the state (said in a note)
        ws = G.words(task)  # the rooms the task names anywhere (:meth:`_nearest`)
        self._said_rooms = {r for k in range(len(ws)) for n in (1, 2) if k + n <= len(ws)
                            for r in [self.lex.room(ws[k:k + n])] if r is not None}
        if G.not_a_task(task):
            return GoalReading(task, status="refuse", why="the text is not a household task (it addresses a chat "
                                                           "model, not an agent in the house); give a task such "
                                                           "as 'turn off the lights'")
        task, feeling = P.drop_feeling(task, lambda ws: any(
            self.lex.classes([w]) or self.lex.room([w]) for w in ws if w not in G._DETS and w not in G._QUANT_ANY))
        player = next((c for c in _MUSIC_PLAYERS if c in self.lex._class_set), None)
        if player:  # "listen to music": the scene's music player on
            task = _MUSIC.sub(f"turn on the {player.replace('_', ' ')}", task)
        task = self._here(task)  # "turn the light on in here": the character's room
        task, refusal = S.prepare(task, "turn on the TV' or 'make sure the computer is off", self._names_object)
        task = _TOAST.sub("toast some bread", task)  # "make toast": the product of toasting bread
        if refusal:
            return GoalReading(task, status="refuse", why=refusal)
        unread = unread_refusal(task, self.lex, self.name, "turn off the oven", _EXTRA_VERBS)
        if unread is not None:  # "..., then call my mother": never dropped without a word
            return unread
        tw = G.words(task)
        # a quantifier before a noun is not an object word ("both bedside cabinets"); one that stands
        # for the objects is ("... and hang on to both")
        quant = G._QUANT_ALL | G._QUANT_ANY | G._DETS
        object_words = [w for k, w in enumerate(tw)
                        if (w not in quant or k + 1 == len(tw) or tw[k + 1] in ("of", "and", "then"))
                        and (self.lex.classes([w]) or self.lex.known([w]))]
        object_words += [w for w in tw if w in ("it", "them", "one")]
        object_words += [w for c in self.lex._classes if "_" in c and all(x in tw for x in c.split("_"))
                         for w in c.split("_")]
        parts = split_clauses(task, object_words, sentences=True)
        if len(parts) == 1:  # "watch TV and go to sleep": a chunk names no object, so the splitter kept one
            got = self._chunks(task, None)  # part; every chunk read alone, when each reads
            if got is not None:
                return got
        out: list[Clause] = []
        named: list = []
        notes: list[str] = [feeling] if feeling else []
        bound: dict[str, list] = {}
        prev = None
        history: list = []  # the clauses read so far (pronouns may refer further back than the last)
        mentioned: list = []  # those and the statements between them, in order (what "it" may name)
        wished = None  # the last part read as a wish without a verb ("a tray on the table would be handy")
        parts_read: list = []  # (selectors, clauses) per part ("the other fridge" is another one)
        facts = [self._statement(part, topic=k + 1 < len(parts) and bool({"it", "them", "they"} & set(G.words(parts[k + 1]))))
                 for k, part in enumerate(parts)]
        for fact in facts:  # a statement binds its object, after the command too ("..., the purse is on the desk")
            if fact is not None:
                bound.setdefault(fact.cls, list(fact.ids))
        for part, fact in zip(parts, facts):
            if fact is not None:  # "one pillow on the bed is dirty": names an instance, asks nothing
                named.extend(fact.ids)
                prev = G.ClauseReading(part, "fact", fact)
                mentioned.append(prev)
                notes.append(f"'{part}': a statement about {fact.describe(self.name_of)}")
                continue
            pw = G.words(part)
            if prev is not None and _THE_ONES.fullmatch(" ".join(pw)):
                # "load them into the dishwasher. yes, the clean ones too": those named, all of them
                notes.append(f"'{part}': the ones named before, asks for nothing more")
                continue
            if (len(pw) == 2 and pw[1] == "one" and prev is not None and prev is wished
                    and prev.effect in ("place", "put_back") and G.split_verb(pw, _EXTRA_VERBS)[0] == "hold"):
                # "a tray on the dining table would be handy, could you fetch one": how to do the wish
                notes.append(f"'{part}': the {prev.subject.cls.replace('_', ' ')} placed above, asks for nothing more")
                continue
            pronoun = bool({"it", "them", "they"} & set(G.words(part)))
            part = self._pronouns(part, prev, mentioned)
            place = P.unrecorded_place(part)
            if place and G.split_verb(G.words(part), _EXTRA_VERBS)[0] is not None:  # not "in the door"
                return GoalReading(task, status="refuse", why=P.place_refusal(part, place, "VirtualHome",
                                                                              "put the keys on the table"))
            r0 = G.read_clause(part, self.lex, named, _EXTRA_VERBS)
            r = F.reread(part, r0, self.lex, named, _EXTRA_VERBS, notes)  # "a tray on the table would be handy"
            if r is not r0 and isinstance(r, G.ClauseReading):
                wished = r  # a wish said without a verb: "fetch one" after it is how to do it
            stated = None  # "wash the dirty dishes" with none dirty: nothing to do
            if isinstance(r, G.ClauseReading):
                for sel in (r.subject, r.target):  # "the fridge" again: the same fridge as before
                    # "the lights in the dining room are on, turn them off": "them" are those lights
                    if sel is not None and (sel.quantifier == "the" or pronoun) and sel.cls in bound:
                        sel.ids = [i for i in sel.ids if i in bound[sel.cls]] or sel.ids
                dropped = self._unread_tail(r)
                if dropped is not None:  # "turn on the radio and dance": "dance" would be dropped unsaid
                    return GoalReading(task, status="unclear", why=(
                        f"I can't tell what '{dropped}' asks for in '{part}': it names no object of scene "
                        f"{self.name!r} and no state I can check; give each thing to do as its own command, "
                        f"e.g. 'turn on the radio'"))
                stated = self._adjectives(part, r, notes)
                if isinstance(stated, str):
                    return GoalReading(task, status="refuse", why=stated)
                n = P.count(r.subject)
                if n is not None:  # "two plates": that many instances (chosen in _per_subject)
                    r.subject.count = n
                    r.subject.quantifier = "all"
                amount = P.amount(part, r.subject)
                if amount is not None:  # "both pillows", "half of the lights" (bound in _per_subject)
                    r.subject.amount = amount
                    r.subject.quantifier = "all"
            if isinstance(r, str) and not all(G.names_an_object(w) for w in r.split(":", 1)[1].split(",")):
                got = self._part_read(task, part, parts, notes, out, parts_read)  # "before the guests come
                if isinstance(got, GoalReading):  # over": no object is missing; "brush your teeth, then ...": a
                    return got  # known task
                continue
            if isinstance(r, str) and _COMPLAINT.match(" ".join(G.words(part))) and not G.has_verb(G.words(part)) \
                    and any(p is not part and G.split_verb(G.words(p), _EXTRA_VERBS)[0] is not None for p in parts):
                notes.append(f"'{part}': an aside, asks for nothing")  # "..., the fumes are awful"
                continue
            if isinstance(r, str):  # missing object
                what = ", ".join(G.missing_object(w) for w in r.split(":", 1)[1].split(","))
                lead = ("" if G.has_verb(G.words(part), _EXTRA_VERBS)
                        else f"I can't tell what to do: '{part}' names no action I know, and ")
                return GoalReading(task, status="refuse", why=f"{lead}scene {self.name!r} has no {what}; "
                                                              f"run 'actionable scenes {self.name} --classes' to list its objects")
            if r is None and self._aside(part, parts):
                notes.append(f"'{part}': an aside, asks for nothing")
                continue
            if r is None:  # the whole task as a known task, else this part as one ("... and watch TV")
                got = self._part_read(task, part, parts, notes, out, parts_read)
                if isinstance(got, GoalReading):
                    return got
                continue
            r = G.implied_source(r, history)
            r = self._implied_seat(r, history, notes)
            r = self._in_room_gone_to(r, history, notes)
            snap = G.snapshot(r)  # as named, before the reading narrows them
            got = stated or self._conditions(r)
            if isinstance(got, str):
                return GoalReading(task, status="refuse", why=got)
            if got is None:
                got = self._part_read(task, part, parts, notes, out, parts_read)
                if isinstance(got, GoalReading):
                    return got
                continue
            if got == [] and G.words(r.text)[:2] == ["keep", "still"]:
                notes.append(f"'{part.replace('keep still ', 'keep ')}': not so now, so nothing is kept and nothing is switched (say it as a "
                             "command to change it)")
            if r.subject is not None and r.subject.note:
                notes.append(r.subject.note)  # "two plates": which two
            if r.unheld:  # "scrub the pot with a brush and soap": one tool is held and checked
                notes.append(f"'{r.unheld}' is not checked: the washing is checked with the "
                             f"{human(r.using.cls)} held (one tool a washing)")
            out.extend(got)
            parts_read.append((snap, list(got)))
            prev = r
            history.append(r)
            mentioned.append(r)
            for sel in (r.subject, r.target):
                if sel is not None:
                    bound.setdefault(sel.cls, list(sel.ids))
            if r.subject is not None:
                named.extend(r.subject.ids)
            notes.append(f"'{part}': {r.effect}" + (f" {r.subject.describe(self.name_of)}" if r.subject else "")
                         + (f" {r.prep} {r.target.describe(self.name_of)}" if r.target else ""))
        if not out and self._vacuous:
            return GoalReading(task, status="refuse", why=self._vacuous[0])
        notes += self._vacuous + self._cannot
        if not out:
            return self._intent(task, notes)
        out = self._doors_shut(bind_references(parts_read, lambda c, opts: self._clause(opts, c.source)))
        out = list({c.options: c for c in reversed(out)}.values())[::-1]  # said twice ("..., bring it here"): once
        out, undone = drop_undone(last_posture(out, notes), _OPPOSITE)
        out, visits = visits_on_the_way(out)
        notes += undone + visits
        bound_classes = {self.graph.class_of(x) for c in out for o in c.options for x in (o.subject, o.target)
                         if x not in (None, CHARACTER)}
        return GoalReading(task, tuple(out), notes=self._aliases(tw, bound_classes) + notes)

    def _adjectives(self, part: str, r, notes: list):
        """A state adjective before the subject's or target's noun ("the dirty dishes", "the open
        drawer") restricts it to the instances in that state. With none in it: the clauses that
        say so, already met, when the verb undoes the state ("wash the dirty dishes": nothing to
        wash), else a refusal naming the phrase; ``None`` when nothing was said or some fit."""
        g = self.graph
        unfit = P.unfit_adjective(part, r, self.lex.adjective, self.lex.has_state)
        if unfit is None:
            return None
        sel, adjs = unfit
        word, st, neg = adjs[0]
        what = P.plural(human(sel.cls) if not sel.words or len(sel.words.split()) > 1 else sel.words)
        states = ", ".join(f"{self.name_of(i)}: {'/'.join(sorted(g.states_of(i) & {'CLEAN', 'DIRTY', 'OPEN', 'CLOSED', 'ON', 'OFF'})) or 'neither'}"
                           for i in sel.ids[:4]) + (f" and {len(sel.ids) - 4} more" if len(sel.ids) > 4 else "")
        made = _STATE_OF.get(r.effect)
        if sel is r.subject and (st, made) in _UNDOES and not neg:
            notes.append(f"'{part}': none of the {what} in scene {self.name!r} is {word} ({states}), so there is "
                         f"nothing to {G.words(part)[0]}; none is chosen")
            return [self._clause([Condition("state", i, st, negate=True)]) for i in sel.ids]
        return (f"none of the {what} in scene {self.name!r} is {word} ({states}), so none fits "
                f"'{word} {what}'; say which one, or leave out '{word}'")

    def _aliases(self, ws, bound=None) -> list[str]:
        """Notes for words read as a class of another name ("apple" -> food_food: this scene's
        name for it), so that a reading by synonym is never silent; with ``bound`` (the classes the
        clauses bind), only those ("the tv remote" binds no television: 'tv' is no alias there)."""
        from actionable.grounding.objects import compact_name

        out = []
        for w, c in self.lex._match(list(ws)):
            cw, cc = compact_name(w), compact_name(c)
            if cw in cc or cw.rstrip("s") in cc or cc in cw or (bound is not None and c not in bound):
                continue
            out.append(f"'{w}' is read as {human(c)} (this scene's name for it)")
        for w in ws:  # "the kitchen light" in a house without a kitchen: the room read for it, said
            room = self.lex.room([w]) if w in G.PLACE_WORDS else None
            if room is not None and w not in self.graph.class_of(room).split("_") \
                    and not any(n.startswith(f"'{w}' is read as") for n in out):  # (bound: said above)
                out.append(f"'{w}' is read as the {human(self.graph.class_of(room))} (scene {self.name!r} has no "
                           f"{w}; the room nearest in meaning)")
        return list(dict.fromkeys(out))

    def _part_read(self, task, part, parts, notes, out, parts_read):
        """:meth:`_part_intent` of a part the grammar cannot read; its clauses are added to ``out``
        and ``parts_read``. Returns them, or the :class:`GoalReading` to return for the task."""
        got = self._part_intent(task, part, parts, notes)
        if not isinstance(got, GoalReading):
            out.extend(got)
            parts_read.append(([], list(got)))
        return got

    def _clause(self, opts, source="rule") -> Clause:
        opts = tuple(dict.fromkeys(opts))
        return Clause(opts, self._summary(opts), source)

    def _summary(self, opts) -> str:
        """Readable text of a disjunction: "clothes shirt 1047 is in a washing machine (1380, 2091 or
        2343)"; options that differ in more than one place are listed."""
        if len(opts) == 1:
            return self.describe(opts[0])
        g = self.graph
        o0 = opts[0]
        if any(o.kind == "action" for o in opts):
            acts = [o for o in opts if o.kind == "action"]
            what = " or ".join(x.lower() for x in acts[0].value.split("|"))
            objs = [o.subject for o in acts if o.subject is not None and o.subject != CHARACTER]
            names = sorted({human(g.class_of(x) or str(x)) for x in objs})
            tools = sorted({o.holding for o in acts if o.holding is not None}, key=str)
            tool = (f"a {human(g.class_of(tools[0]) or 'object')} ({', '.join(map(str, tools))})" if len(tools) > 1
                    else self.name_of(tools[0])) if tools else ""
            if len(acts) < len(opts):  # "the soap is held, or the washing was done with it" (enabling)
                return f"the character holds {tool} while washing" if tool else f"the character did {what}"
            return (f"the character did {what}" + (f" (on a {' or '.join(names)})" if objs else "")
                    + (f" holding {tool}" if tool else ""))

        def ids(xs):
            xs = [str(x) for x in xs]
            return ", ".join(xs[:-1]) + f" or {xs[-1]}" if len(xs) <= 5 else ", ".join(xs[:4]) + f" or {len(xs) - 4} more"
        same = all(o.kind == o0.kind and o.value == o0.value and o.negate == o0.negate for o in opts)
        if same and all(o.subject == o0.subject for o in opts) and o0.target is not None:
            classes = {g.class_of(o.target) for o in opts}
            if len(classes) == 1:
                d = self.describe(o0)
                head = d[: d.rindex(self.name_of(o0.target))]
                return f"{head}a {human(classes.pop())} ({ids([o.target for o in opts])})"
        if same and all(o.target == o0.target for o in opts) and o0.subject != CHARACTER:
            classes = {g.class_of(o.subject) for o in opts if o.subject is not None}
            if len(classes) == 1:
                d = self.describe(o0)
                tail = d[len(self.name_of(o0.subject)):]
                return f"a {human(classes.pop())} ({ids([o.subject for o in opts])}){tail}"
        if same and o0.kind == "relation" and CHARACTER not in {o.subject for o in opts}:
            sc = {g.class_of(o.subject) for o in opts}
            tc = {g.class_of(o.target) for o in opts}
            if len(sc) == 1 and len(tc) == 1:
                rel = {"INSIDE": "in", "ON": "on", "CLOSE": "close to", "FACING": "facing"}.get(o0.value, o0.value)
                subs = list(dict.fromkeys(o.subject for o in opts))
                tgts = list(dict.fromkeys(o.target for o in opts))
                return (f"a {human(sc.pop())} ({ids(subs)}) is {'not ' if o0.negate else ''}{rel} "
                        f"a {human(tc.pop())} ({ids(tgts)})")
        return " or ".join(self.describe(o) for o in opts[:2]) + (f" (or {len(opts) - 2} more)" if len(opts) > 2 else "")

    def _per_subject(self, sel, make) -> list[Clause]:
        """One clause per instance (``all``), else one clause with an option per instance; a count
        ("two plates") binds that many instances: those not already in place, not shut in a
        closed container and in the target's room first (refused when fewer fit)."""
        if sel.amount is not None:  # "both" must find exactly two; "half", "all but one": that many of those that fit
            got = P.bind_amount(sel.amount, [i for i in sel.ids if make(i)], sel.words, sel.cls, self.name_of,
                                self.name)
            if isinstance(got, str):
                return got
            sel.count = got if got is not None else sel.count
        n = sel.count
        if n is not None:
            fit = [i for i in sel.ids if make(i)]
            if len(fit) < n:
                return P.count_refusal(sel.words, n, fit, sel.cls, self.name_of, self.name)
            g, view = self.graph, self.view()

            def rank(i):
                opts = make(i)
                rooms = {g.room_of(o.target) for o in opts if o.target not in (None, CHARACTER)}
                shut = any("CLOSED" in g.states_of(t) and "CAN_OPEN" in g.properties_of(t)
                           for t in g.targets(i, "INSIDE"))
                return (any(view.holds(o) for o in opts), shut, bool(rooms) and g.room_of(i) not in rooms)
            sel.ids = P.choose(fit, n, rank)
            sel.note = P.count_note(sel.words, sel.ids, len(fit), self.name_of,
                                    "not yet in place, not in a closed container, nearest the target's room, "
                                    "then the scene's order")
        g = self.graph

        def apart(o):  # a placement across rooms after those within one (the dining room's sink for its plate)
            return (o.kind == "relation" and o.subject not in (None, CHARACTER) and o.target not in (None, CHARACTER)
                    and g.room_of(o.subject) != g.room_of(o.target))
        if sel.quantifier == "all":
            groups = [sorted(make(i), key=apart) for i in sel.ids]
        else:
            groups = [sorted((o for i in sel.ids for o in make(i)), key=apart)]
        if not all(groups):  # "put the microwave in the microwave": no instance can satisfy it
            return f"no {human(sel.cls)} here can satisfy that (an object cannot be put in or on itself)"
        return [self._clause(g) for g in groups]

    def _conditions(self, r: G.ClauseReading):
        eff, sel, tgt = r.effect, r.subject, r.target
        near = G.near_refusal(r, "VirtualHome")
        if near is not None:
            return near
        g = self.graph
        if eff in _COOKING and sel is not None:  # no cooked state: in the appliance that cooks it, switched on
            if tgt is None:
                tgt = self._appliance(eff)
                if tgt is None:
                    return f"scene {self.name!r} has no {' or '.join(_APPLIANCES[eff])} to {eff} the {human(sel.cls)} in"
            eff = "heat"
        if eff == "on" and sel is not None and G.words(r.text)[:2] in (["put", "on"], ["wear"]) and sel.ids \
                and all("CLOTHES" in g.properties_of(i) for i in sel.ids):
            # "put on the shirt": wearing, not switching on (VirtualHome records no worn state, so the
            # EAI action goal PUTON is checked on the executed steps)
            return self._per_subject(sel, lambda i: [Condition("action", i, "PUTON")])
        if eff == "clean" and sel is not None and sel.ids and r.using is not None and r.using.ids:
            return self._washed_with(sel, r.using, G.words(r.text)[0].upper())
        if eff == "clean" and sel is not None and sel.ids and all("BODY_PART" in g.properties_of(i) for i in sel.ids):
            # "wash your hands": the character washes them (EAI's action goal, "Wash hands": RINSE|WASH);
            # VirtualHome's hands are objects that are CLEAN from the start, so a CLEAN state would
            # always read "nothing to do"
            return [self._clause([Condition("action", i, "WASH|RINSE|SCRUB") for i in sel.ids])]
        if eff in _STATE_OF and sel is not None:
            state = _STATE_OF[eff]
            if sel.ids and all(i in g.rooms for i in sel.ids):
                return (f"VirtualHome does not model a room being {state.lower().replace('_', ' ')}; name "
                        f"the objects in it (e.g. 'wipe the {human(sel.cls)} counter', 'turn off the "
                        f"{human(sel.cls)} light')")
            rws = G.words(r.text)
            keep = rws[:1] == ["keep"]  # "..., but leave the lamps on": kept as they are, never switched
            need = _NEEDS.get(state)
            if need:
                ok = [i for i in sel.ids if need in g.properties_of(i)]
                held = [i for i in sel.ids if state in g.states_of(i)]
                if not ok and held and (sel.quantifier != "all" or keep):  # ("the ceiling lamps": no switch)
                    ok = held  # "is the window open?" with it open: nothing to do, though no one could open it
                if not ok:
                    why = (f"no {human(sel.cls)} in scene {self.name!r} can be {state.lower().replace('_', ' ')} "
                           f"(it lacks {need})")
                    if (sel.quantifier == "all" and state in _UNDONE
                            and not any(_OPPOSITE[state] in g.states_of(i) for i in sel.ids)):
                        # "close all the cupboards and drawers" where no drawer opens: none can be open,
                        # so every one that can be closed is closed already; the other parts are read
                        self._vacuous.append(f"{why}: none is open, so there is nothing to close"
                                             if state == "CLOSED" else f"{why}, so there is nothing to do for them")
                        return []
                    return why
                stay = [i for i in sel.ids if i not in ok and _OPPOSITE.get(state) in g.states_of(i)]
                if stay and sel.quantifier == "all":  # "turn off all the lights": the ceiling lamps have no switch
                    kinds = ", ".join(dict.fromkeys(human(g.class_of(i)) for i in stay))
                    self._cannot.append(f"{len(stay)} of them ({kinds}) stay {_OPPOSITE[state].replace('_', ' ')}: "
                                        f"they lack {need}, so VirtualHome cannot make them "
                                        f"{state.lower().replace('_', ' ')}; the goal conditions ask the others")
                sel.ids = ok
            if state in ("ON", "OFF"):
                sw = [i for i in sel.ids if {"ON", "OFF"} & g.states_of(i)]
                if not sw:
                    return (f"{self.name_of(sel.ids[0])} has neither ON nor OFF in this scene, so VirtualHome "
                            f"cannot switch it")
                sel.ids = sw
            held = [i for i in sel.ids if state in g.states_of(i)]
            if keep and not held and rws[1:2] == ["still"]:
                return []  # "..., and keep the other one running" with it off: nothing to keep, never switched on
            if keep and held and (sel.quantifier != "all" or rws[1:2] in (["the"], ["still"])):
                # "..., but leave the lamps on": the lamps that are on stay on; none is switched on
                sel.ids = held
                sel.quantifier = "all"
            elif sel.quantifier == "the" and len(sel.ids) > 1:
                # "the TV": one of the instances not yet in the state (turning on / opening / cleaning:
                # any of them; turning off / closing / unplugging: the nearest, named)
                todo = [i for i in sel.ids if state not in g.states_of(i)]
                if todo:
                    sel.ids = todo  # "the other light": one other, never every other one
                    sel.quantifier = "any"
                if len(todo) > 1 and state in _UNDONE and any(self.lex.plural(w) for w in G.words(sel.words)):
                    sel.quantifier = "all" if not sel.other else "any"  # "the lights and hurry": a plural
                elif len(todo) > 1 and state in _UNDONE:
                    # "close the door": a singular definite is one instance (not every open door);
                    # the text does not say which, so the one nearest the character, named in a note
                    sel.ids = [self._nearest(todo)]
                    sel.note = (f"'the {sel.words}' means one: {self.name_of(sel.ids[0])} (of {len(todo)} not "
                                f"{state.replace('_', ' ')}; chosen as the one in a room the task names, else the "
                                f"nearest to the character, in the {human(g.class_of(g.room_of(g.character_id)) or 'house')}); "
                                f"say which one, or 'all the {P.plural(sel.words)}' for every one")
            return self._per_subject(sel, lambda i: [Condition("state", i, state)])
        if eff in ("place", "put_away", "heat", "chill", "toast") and sel is not None:
            if tgt is None and r.room is not None:
                return self._to_room(sel, r.room) if eff == "place" else None
            if tgt is None:
                if eff in ("heat", "toast", "chill"):
                    tgt = self._appliance(eff)
                    if tgt is None:
                        return f"scene {self.name!r} has nothing to {eff} with"
                else:
                    return None
            if not any("GRABBABLE" in g.properties_of(i) for i in sel.ids):
                return (f"a {human(sel.cls)} cannot be picked up (it lacks GRABBABLE), so it cannot be put in or "
                        f"on anything")
            # "a towel on the rack": of the classes a bare head noun covers (dish rack, shoe rack, towel
            # rack), the one named for the object put there, when there is one
            own = [t for t in tgt.ids if g.class_of(t).startswith(sel.cls + "_") and g.class_of(t) != sel.cls]
            if own and len({g.class_of(t) for t in tgt.ids}) > 1:
                tgt.ids = own
            rel = self._placement(r.prep, tgt.ids)
            if r.prep == "on" and ("on top of" in " ".join(G.words(r.text)) or "top" in G.words(r.text)[-4:-1]):
                rel = "ON"  # "on top of the microwave": said outright, whatever the microwave can hold
            elif r.prep == "on" and rel == "INSIDE":  # "put the apple on the fridge": said in a note
                self._cannot.append(f"'on the {human(tgt.cls)}' is read as in it (a {human(tgt.cls)} holds things "
                                    f"inside and has no surface in VirtualHome); say 'on top of' for on it")
            if sel.quantifier == "the" and len(sel.ids) > 1:  # "the milk": one not already there
                away = [i for i in sel.ids if not any(t in g.targets(i, rel) for t in tgt.ids)]
                sel.ids = away or sel.ids
            extra = []
            if eff in ("heat", "toast"):
                sw = [t for t in tgt.ids if "HAS_SWITCH" in g.properties_of(t)]
                extra = [self._clause([Condition("state", t, "ON") for t in sw])] if sw else []

            if tgt.quantifier == "all" and len(tgt.ids) > 1 and sel.quantifier != "all" and sel.count is None:
                # "put a towel on every towel rack": one clause per target, each met by a different
                # instance (an object is on or in one place at a time)
                if len(sel.ids) < len(tgt.ids):
                    return (f"'{r.text}' needs a {human(sel.cls)} for each of the {len(tgt.ids)} "
                            f"{human(tgt.cls)}s, and scene {self.name!r} has {len(sel.ids)}")
                return [self._clause([Condition("relation", i, rel, t) for i in sel.ids if i != t])
                        for t in tgt.ids] + extra

            def make(i):
                return [Condition("relation", i, rel, t) for t in tgt.ids if t != i]
            got = self._per_subject(sel, make)
            return got if isinstance(got, str) else got + extra
        if eff == "put_back" and sel is not None:
            if tgt is not None:
                rel = self._placement(r.prep, tgt.ids)
                if sel.quantifier == "the" and len(sel.ids) > 1:  # "put the milk back": one that is away
                    away = [i for i in sel.ids if not any(t in g.targets(i, rel) for t in tgt.ids)]
                    sel.ids = away or sel.ids
                return self._per_subject(sel, lambda i: [Condition("relation", i, rel, t) for t in tgt.ids])

            def home(i):
                return [Condition("relation", i, rel, t) for rel in ("ON", "INSIDE") for t in g.targets(i, rel)
                        if g.class_of(t) not in _room_classes(g)]
            return self._per_subject(sel, home) if all(home(i) for i in sel.ids) else None
        if eff == "take_out" and sel is not None:
            if tgt is None:
                return self._per_subject(sel, lambda i: [Condition("relation", CHARACTER, "HOLDS", i)])
            inside = [i for i in sel.ids if any(t in g.targets(i, "INSIDE") for t in tgt.ids)]
            if not inside:
                return None if not sel.ids else self._per_subject(
                    sel, lambda i: [Condition("relation", i, "INSIDE", t, negate=True) for t in tgt.ids])
            sel.ids = inside  # "take the milk out of the fridge": the milk that is in it
            tgt.ids = [t for t in tgt.ids if any(t in g.targets(i, "INSIDE") for i in inside)]
            return self._per_subject(sel, lambda i: [Condition("relation", i, "INSIDE", t, negate=True)
                                                     for t in tgt.ids if t in g.targets(i, "INSIDE")])
        if eff == "hold" and sel is not None and r.prep == "from" and tgt is not None:
            # "grab the glasses off the desk", "take the pizza off the counter": the ones there, held
            there = [i for i in sel.ids if any(self.lex.related(i, "from", t) for t in tgt.ids)]
            if there and "GRABBABLE" in set().union(*(g.properties_of(i) for i in there)):
                sel.ids = there
                tgt.ids = [t for t in tgt.ids if any(self.lex.related(i, "from", t) for i in there)]
                return self._per_subject(sel, lambda i: [Condition("relation", CHARACTER, "HOLDS", i)])
            if sel.ids and tgt.ids and "GRABBABLE" in set().union(*(g.properties_of(i) for i in sel.ids)):
                return (f"no {human(sel.cls)} is on or in {self.name_of(tgt.ids[0]) if len(tgt.ids) == 1 else 'a ' + human(tgt.cls)}"
                        f" (the {human(sel.cls)}s here: {', '.join(self.name_of(i) for i in sel.ids[:4])}); "
                        f"say where to take it from, or 'bring me the {human(sel.cls)}'")
            return self._conditions(G.ClauseReading(r.text, "take_out", sel, tgt, r.prep, r.room))
        if eff == "hold" and sel is not None:
            if "GRABBABLE" not in set().union(*(g.properties_of(i) for i in sel.ids)):
                if G.words(r.text)[:1] in (["take"], ["get"]):
                    return None  # "take a shower", "get ready for bed": an activity, read as an intent
                return f"a {human(sel.cls)} cannot be picked up (it lacks GRABBABLE)"
            if tgt is not None or r.room is not None:
                return self._conditions(G.ClauseReading(r.text, "place", sel, tgt, r.prep, r.room))
            return self._per_subject(sel, lambda i: [Condition("relation", CHARACTER, "HOLDS", i)])
        if eff in ("sit", "lie"):
            posture = "SITTING" if eff == "sit" else "LYING"
            cl = [self._clause([Condition("state", CHARACTER, posture)])]
            beds = [i for i in g.nodes_of_class("bed") if "LIEABLE" in g.properties_of(i)]
            if tgt is None and eff == "lie" and "bed" in G.words(r.text) and beds:  # "go to bed": on a bed
                cl.append(self._clause([Condition("relation", CHARACTER, "ON", b) for b in beds]))
            if tgt is not None:
                able = "SITTABLE" if eff == "sit" else "LIEABLE"
                on = [t for t in tgt.ids if able in g.properties_of(t)]
                if not on and r.prep == "on" and "on" in G.words(r.text):  # "sit on the TV": no seat near it
                    return (f"a {human(tgt.cls)} is not for {'sitting' if eff == 'sit' else 'lying'} on (it lacks "
                            f"{able}); name {'a seat, such as the couch or a chair' if eff == 'sit' else 'a bed or the couch'}"
                            f" (\"{eff} by the {human(tgt.cls)}\" takes a seat near it)")
                if not on:  # "sit at the desk": on a chair in the desk's room (another seat when none)
                    rooms = {g.room_of(t) for t in tgt.ids}
                    on = sorted((i for i in g.node_ids if able in g.properties_of(i) and g.room_of(i) in rooms
                                 and g.class_of(i) not in _FLOORS), key=lambda i: (g.class_of(i) != "chair", i))
                    on = [i for i in on if g.class_of(i) == "chair"] or on
                    if not on:
                        return (f"a {human(tgt.cls)} is not for {'sitting' if eff == 'sit' else 'lying'} on, and its "
                                f"room has nothing that is")
                cl.append(self._clause([Condition("relation", CHARACTER, "ON", t) for t in on]))
            return cl
        if eff == "stand":
            return [self._clause([Condition("state", CHARACTER, "SITTING", negate=True)]),
                    self._clause([Condition("state", CHARACTER, "LYING", negate=True)])]
        if eff == "go" and r.room is not None:
            return [self._clause([Condition("relation", CHARACTER, "INSIDE", r.room)])]
        if eff == "go" and tgt is not None:
            return [self._clause([Condition("relation", CHARACTER, "CLOSE", t) for t in tgt.ids])]
        return None

    def _washed_with(self, sel, using, verb: str = "WASH") -> list[Clause] | str:
        """"Wash your hands with soap", "wipe the table with a towel": the washing done while the
        character holds one of ``using`` (a clause per object of a quantified ``sel``, one clause
        otherwise), and an enabling clause, "the soap is held, or the washing was done with it", that
        orders the grab before the washing and stays met once it is done; a refusal (text) when no
        instance of ``using`` can be held."""
        g = self.graph
        body = all("BODY_PART" in g.properties_of(i) for i in sel.ids)
        acts = ["WASH", "RINSE", "SCRUB"] + ([] if body else ["WIPE"])
        acts = "|".join(sorted(acts, key=lambda a: a != verb))  # the verb said is tried first
        tools = [u for u in using.ids if "GRABBABLE" in g.properties_of(u)][:4]
        if not tools:
            return f"a {human(using.cls)} cannot be held (it lacks GRABBABLE), so nothing can be washed with it"
        groups = [[i] for i in sel.ids] if sel.quantifier == "all" and not body else [list(sel.ids)]
        done = [[Condition("action", i, acts, holding=u) for i in grp for u in tools] for grp in groups]
        held = [Condition("relation", CHARACTER, "HOLDS", u) for u in tools]
        what = " or ".join(a.lower() for a in acts.split("|"))
        tool = self.name_of(tools[0]) if len(tools) == 1 else f"a {human(using.cls)} ({', '.join(map(str, tools))})"
        texts = [f"the character did {what} ({self.name_of(grp[0]) if len(grp) == 1 else 'a ' + human(sel.cls)}) "
                 f"holding {tool}" for grp in groups]
        return ([Clause(tuple(opts), t) for opts, t in zip(done, texts)]
                + [Clause(tuple(held + [o for opts in done for o in opts]), f"the character holds {tool} while washing",
                          f"rule (enabling: washing with the {human(using.cls)} needs it in hand)")])

    def _nearest(self, ids):
        """Of ``ids``, one in a room the task names ("everything in the bedroom is open. Close the
        bookcase": the bedroom's), then the one fewest rooms away from the character's room in the
        scene (rooms joined by the doors between them; a door is in both rooms it joins), then the
        scene's order."""
        g = self.graph
        doors = {d: set(g.targets(d, "BETWEEN")) for d in g.node_ids if g.targets(d, "BETWEEN")}
        start = g.room_of(g.character_id)
        away, frontier = {start: 0}, [start]
        while frontier:
            r = frontier.pop(0)
            for joined in doors.values():
                if r in joined:
                    for other in joined - set(away):
                        away[other] = away[r] + 1
                        frontier.append(other)

        def dist(i):
            rooms = doors.get(i) or {g.room_of(i)}
            return min(away.get(x, len(away) + 1) for x in rooms)
        said = self._said_rooms
        return min(ids, key=lambda i: (not ((doors.get(i) or {g.room_of(i)}) & said), dist(i), ids.index(i)))

    def _to_room(self, sel, room):
        """ "bring the book to the bedroom", "put the cup in the kitchen": the object in that room (on or
        in something there, or in the hands of a character there; :meth:`ConditionViewVH.room_now`)."""
        g = self.graph
        if not any("GRABBABLE" in g.properties_of(i) for i in sel.ids):
            return f"a {human(sel.cls)} cannot be picked up (it lacks GRABBABLE), so it cannot be taken to a room"
        if sel.quantifier == "the" and len(sel.ids) > 1:  # "the book": one not in that room yet
            view = self.view()
            away = [i for i in sel.ids if view.room_now(i) != room]
            sel.ids = away or sel.ids
        return self._per_subject(sel, lambda i: [Condition("relation", i, "INSIDE", room)])

    def _doors_shut(self, clauses: list[Clause]) -> list[Clause]:
        """An appliance with a door switched on runs with the door shut ("put the plate in the
        dishwasher and switch it on": closed; VirtualHome's executor switches it on open): before a
        clause asking one such instance (``CAN_OPEN`` + ``CONTAINERS`` + ``HAS_SWITCH``) to be ON, a
        ``CLOSED`` clause for it, marked as a rule; an earlier "open it" is then undone by it."""
        g, out = self.graph, []
        for c in clauses:
            subs = {o.subject for o in c.options}
            if len(subs) == 1 and all(o.kind == "state" and o.value == "ON" and not o.negate for o in c.options):
                i = next(iter(subs))
                if i != CHARACTER and {"CAN_OPEN", "CONTAINERS", "HAS_SWITCH"} <= set(g.properties_of(i)):
                    out.append(self._clause([Condition("state", i, "CLOSED")],
                                            "rule (enabling: an appliance with a door runs closed)"))
            out.append(c)
        return out

    def _appliance(self, eff):
        for c in _APPLIANCES[eff]:
            ids = self.graph.nodes_of_class(c)
            if ids:
                return G.Selector(c, "any", ids, c)
        return None

    def _placement(self, prep, targets) -> str:
        """``INSIDE`` or ``ON`` for "in"/"on" a target, following its properties."""
        props = set().union(*(self.graph.properties_of(t) for t in targets)) if targets else set()
        if prep == "on":
            return "ON" if "SURFACES" in props or "CONTAINERS" not in props else "INSIDE"
        return "INSIDE" if "CONTAINERS" in props or "SURFACES" not in props else "ON"


__all__ = ["INTENT_SIMILARITY", "SceneLexicon", "VirtualHomeGoals"]
