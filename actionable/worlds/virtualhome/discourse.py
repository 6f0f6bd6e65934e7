"""The discourse of VirtualHome's goal interpreter: what a part of an instruction says about the
others.

:class:`Discourse` is a mixin of :class:`~actionable.worlds.virtualhome.interpret.VirtualHomeGoals`
(it uses the interpreter's ``graph``, ``lex``, ``name``, ``name_of`` and ``_read``): statements
that name an object for a later "it" ("the bills lying on my office desk - tuck them ..."), the
topic of a clause without a command, asides ("nobody is using it"), pronouns and "the other one",
a conjunct that names nothing ("... and dance"), and the chunk a failing task fails on. Split out
of interpret.py, which had passed 800 lines.
"""

from __future__ import annotations

import re

from actionable.core.conditions import GoalReading
from actionable.grounding import goal_frames as F
from actionable.grounding import goal_reader as G
from actionable.grounding.corrections import _COURTESY
from actionable.worlds import goal_phrases as P
from actionable.worlds.virtualhome.intents import EXTRA_VERBS as _EXTRA_VERBS

#: words after "and" that ask for nothing ("turn off the lights and hurry")
#: first words of a span that may name the object of a clause without a command
_TOPIC_START = frozenset({"the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that", "some", "one",
                          "two", "both", "all", "every"})

#: words for a group of things taken as one ("the other set" of keys, "the other pair" of socks)
_COLLECTIVE = frozenset({"set", "pair", "lot", "bunch", "load", "batch", "bundle"})
#: what a posture said in a room without a place goes on, in this order ("go to the bathroom and sit
#: down": a toilet, never the bath mat; no seat of these: the achievers' own choice)
_SEAT_CLASSES = ("bed", "couch", "sofa", "chair", "armchair", "bench", "toilet", "piano_bench")
#: what a posture of lying said in a room goes on (a bench or a chair that VirtualHome lets one lie
#: on is no place to lie down)
_LIE_CLASSES = ("bed", "couch", "sofa")
#: the property an object needs for a state effect (VirtualHome's object properties)
_NEEDS = {"ON": "HAS_SWITCH", "OFF": "HAS_SWITCH", "OPEN": "CAN_OPEN", "CLOSED": "CAN_OPEN",
          "PLUGGED_IN": "HAS_PLUG", "PLUGGED_OUT": "HAS_PLUG"}
#: the state a verb's effect sets
_STATE_OF = {"on": "ON", "off": "OFF", "open": "OPEN", "closed": "CLOSED", "plugged_in": "PLUGGED_IN",
             "plugged_out": "PLUGGED_OUT", "clean": "CLEAN"}


class Discourse:
    """Statements, topics, asides, pronouns and failing chunks (see the module doc)."""

    def _failing_chunk(self, task: str, whole: GoalReading, exclude_titles=(), exclude_programs=()) -> GoalReading:
        """A refused or unclear ``whole`` reading of a task of several chunks ("open the window and
        then relax") said for the first chunk that fails when another chunk reads: its own refusal
        or "cannot tell", naming it, instead of a reading of all the words at once. ``whole`` when
        no chunk reads or every one does, a chunk refers back, or the failing ones are asides ("I'm
        cold")."""
        chunks = P.chunks(task.lower())
        if len(chunks) < 2 or any({"it", "them", "they", "one"} & set(G.words(c)) for c in chunks):
            return whole
        reads = [self._read(c, exclude_titles, exclude_programs) for c in chunks]
        bad = [(c, r) for c, r in zip(chunks, reads) if r.status in ("refuse", "unclear")
               and G.words(c)[:1] != [] and G.words(c)[0].split("'")[0] not in G.ASIDE_START  # not "i'm cold"
               and P.drop_feeling(c, self._names_object)[1] is None]
        good = [c for c, r in zip(chunks, reads) if r.is_goal]
        if not bad or not good:
            return whole
        c, r = bad[0]
        read = f" (the other part{'s' if len(good) > 1 else ''} read: {', '.join(repr(g) for g in good)})"
        return GoalReading(task, status=r.status, closest=r.closest, notes=list(r.notes), why=f"in '{c}': {r.why}{read}")

    def _statement(self, part: str, topic: bool = False):
        """The selector of a clause that states a fact ("one pillow on the bed is dirty": the
        pillows on the bed that are dirty), or ``None`` for a clause with a verb of its own.
        With ``topic`` (the next part says "it"/"them"), a bare noun phrase is a fact too: "the
        bills lying on my office desk - tuck them in the box" names those bills."""
        ws = G.words(part)
        if G.split_verb(ws, _EXTRA_VERBS)[0] is not None:
            return None
        if topic and not {"is", "are"} & set(ws):
            return self._topic(ws)
        if not {"is", "are"} & set(ws):
            return None
        k = next(i for i, w in enumerate(ws) if w in ("is", "are"))
        sel = G.select(ws[:k], self.lex, [])
        if not isinstance(sel, G.Selector):
            # "what is the salt doing on the table in the bedroom? take it to ...": the object it mentions;
            # "the music from the office stereo is too loud. turn it off": the stereo
            return (self._topic(ws[:k]) or self._topic(ws[k + 1:])) if topic else None
        if ws[k + 1: k + 2] and ws[k + 1] in ("on", "in", "inside", "under", "by", "near"):
            where = G.select(ws[:k] + ws[k + 1:], self.lex, [])  # "the purse is on the desk": that purse
            if isinstance(where, G.Selector) and where.ids and set(where.ids) < set(sel.ids):
                return where
        for w in ws[k + 1:]:
            adj = self.lex.adjective(w)
            if adj:
                keep = [i for i in sel.ids if self.lex.has_state(i, adj[0]) != adj[1]]
                sel.ids = keep or sel.ids
        return sel

    def _names_object(self, text: str) -> bool:
        """Some word of ``text`` names an object class of this scene (not a room)."""
        return any(self.lex.classes([w]) for w in G.words(text) if w not in G._DETS and not self.lex.room([w]))

    def _topic(self, ws: list[str]):
        """The object a clause without a command mentions, for the "it" of the next clause ("I could
        hear the bedroom computer humming all night", "somebody keeps leaving my comb out by the
        sink"): the longest span of at most 7 words from a determiner or a class word that selects
        instances of this scene (the earliest of equal length); ``None`` when no span does. "There is / are
        X on Y" introduces X, not the place it is at: the spans after "there is" are tried first ("there's
        a mug on the kitchen counter - put it in the dishwasher": the mug)."""
        if len(ws) > 2 and ws[0] == "there" and ws[1] in ("s", "is", "are", "was", "were"):
            got = self._topic_from(ws, (2, 3))  # the determiner or the noun after "there is"
            if got is not None:
                return self._in_room_said(ws, got)
        return self._topic_from(ws, None)

    def _in_room_said(self, ws: list[str], sel):
        """``sel`` narrowed to the instances in the room the statement names last ("there's a blender
        buried among my files in the office": the office's blender); unchanged when none is there."""
        rooms = [self.lex.room(ws[k + 1: k + 3]) for k, w in enumerate(ws) if w in ("in", "inside") and k + 1 < len(ws)]
        room = next((r for r in reversed(rooms) if r is not None), None)
        if room is None:
            return sel
        here = [i for i in sel.ids if self.lex.in_room(i, room)]
        if here and len(here) < len(sel.ids):
            sel.ids = here
        return sel

    def _topic_from(self, ws: list[str], starts: tuple | None):
        """:meth:`_topic`'s search, over the spans that begin at one of ``starts`` only (``None``: any)."""
        best = None
        for i, w in enumerate(ws):
            if starts is not None and i not in starts:
                continue
            if w not in _TOPIC_START and not self.lex.classes([w]):
                continue
            for j in range(min(len(ws), i + 7), i, -1):
                if best is not None and j - i <= best[0]:
                    break
                sel = G.select(ws[i:j], self.lex, [])
                span = ws[i:j]  # a room said as a place ("the tv in the bedroom"), not a compound ("bathroom sink")
                room = next((r for t, r in enumerate(self.lex.room([w]) for w in span)
                             if r is not None and "in" in span[max(0, t - 2):t]), None)
                if room is not None and not (isinstance(sel, G.Selector) and sel.ids
                                             and all(self.lex.in_room(x, room) for x in sel.ids)):
                    break  # "the tv in the bedroom" with no tv there: not every tv (nor "the tv in")
                if ws[j - 1] in G._PREPS or ws[j - 1] in G._DETS:
                    continue
                if isinstance(sel, G.Selector) and sel.ids:
                    best = (j - i, sel)
                    break
        return best[1] if best else None

    def _unread_tail(self, r) -> str | None:
        """The words after an "and" in a noun phrase that name nothing here ("the radio and dance":
        "dance"), which the reading would drop without a word; ``None`` when every conjunct names an
        object or is a courtesy ("... and hurry", "... and thanks")."""
        for sel in (r.subject, r.target):
            if sel is None or not sel.words or " and " not in f" {sel.words} ":
                continue
            for tail in sel.words.split(" and ")[1:]:
                tw = [w for w in tail.split() if w not in G._DETS and w not in _COURTESY]
                if tw and not any(self.lex.classes([w]) or self.lex.known([w]) or self.lex.room([w]) for w in tw):
                    return tail
        return None


    def _aside(self, part: str, parts: list[str]) -> bool:
        """``part`` says how things are or why (no command verb, no wished state; it starts with a
        person, a question word or a time word) while another part asks for something: "nobody is
        using it", "what is the salt doing on the table"."""
        ws = G.words(part)
        # "the bedroom chairs creak": a statement about things (a determiner, no verb the reader knows)
        later = parts[parts.index(part) + 1:] if part in parts else []
        stated = (bool(ws) and ws[0] in ("the", "my", "our", "these", "those") and not G.has_verb(ws)
                  and not any(re.search(r"\b(?:it|them|they)\b|\bone\b(?! of)", " ".join(G.words(p)))
                              for p in later))  # "..., wash them": the statement names them
        if not ws or (ws[0] not in G.ASIDE_START and not stated) or G.split_verb(ws, _EXTRA_VERBS)[0] is not None:
            return False
        if F.reframe(part, self.lex, []) is not None:
            return False
        return any(p is not part and G.split_verb(G.words(p), _EXTRA_VERBS)[0] is not None for p in parts)

    def _room_seats(self, room, able: str) -> list:
        """The seats of ``room`` for a posture (``able``: ``SITTABLE`` / ``LIEABLE``): the instances of
        the first class of :data:`_SEAT_CLASSES` (lying: :data:`_LIE_CLASSES`) the room has, by id."""
        g = self.graph
        seats = _SEAT_CLASSES if able == "SITTABLE" else _LIE_CLASSES
        ids = sorted((i for i in g.node_ids if able in g.properties_of(i) and g.room_of(i) == room and i != room
                      and g.class_of(i) in seats), key=lambda i: (seats.index(g.class_of(i)), i))
        return [i for i in ids if g.class_of(i) == g.class_of(ids[0])] if ids else []

    def _seat_named(self, named, able: str, text: str):
        """The one rule for a posture said without a place ("put the pillow on the bed and lie down",
        "go to the bedroom and lie down"): ``named`` lists what the clauses before it name, the
        latest first, each ``(room gone to or None, [ids of targets, ids of subjects], a posture
        said there)``; the first that names a seat for ``able`` (``SITTABLE`` / ``LIEABLE``) wins:
        the seats of a room gone to (:meth:`_room_seats`; a room without one ends the search, the
        achievers choose), else the ids that afford it (lying: only a bed, or the seat of a posture
        said before, "sit on the couch and lie down": a couch that holds what the task put on it may
        be too full to lie on, VirtualHome's "Too many things on <x>"). ``(ids, note)``, or ``None``."""
        g = self.graph
        for room, groups, postured in named:
            if room is not None:
                ids = self._room_seats(room, able)
                if not ids:
                    return None
                return ids, (f"'{text}': on a {g.class_of(ids[0])} of the "
                             f"{g.class_of(room).replace('_', ' ')} named before")
            for group in groups:
                ids = [i for i in group if able in g.properties_of(i)
                       and (able == "SITTABLE" or g.class_of(i) == "bed" or postured)]
                if ids:
                    what = self.name_of(ids[0]) if len(ids) == 1 else "the " + g.class_of(ids[0]).replace("_", " ")
                    return ids, f"'{text}': on {what} named before"
        return None

    def _implied_seat(self, r, history, notes: list):
        """:meth:`_seat_named` on the clause readings of one chunk: ``r`` (a posture without a place,
        "lie down") on the seat the ``history`` names, with a note; ``r`` unchanged otherwise ("lie
        down" alone: any bed, then the couch, as the achievers order them)."""
        import dataclasses

        if r.effect not in ("sit", "lie") or r.target is not None or r.subject is not None or not history:
            return r
        able = "SITTABLE" if r.effect == "sit" else "LIEABLE"
        sels = {id(h): [sel for sel in (h.target, h.subject) if sel is not None] for h in history}
        named = [(h.room if h.effect == "go" and h.room is not None and h.target is None else None,
                  [list(sel.ids) for sel in sels[id(h)]], h.effect in ("sit", "lie")) for h in reversed(history)]
        got = self._seat_named(named, able, r.text)
        if got is None:
            return r
        ids, note = got
        notes.append(note)
        sel = next((sel for h in reversed(history) for sel in sels[id(h)] if ids[0] in sel.ids), None)
        sel = G.Selector(self.graph.class_of(ids[0]), "any", ids) if sel is None else dataclasses.replace(sel, ids=ids)
        return G.ClauseReading(r.text, r.effect, None, sel, "on", r.room)

    def _in_room_gone_to(self, r, history, notes: list):
        """"Go to the bedroom, turn on the light and lie down": an object phrase that names no room
        ("the light", "a cup"; not "all the lights"), after a clause that goes to a room, means the
        instances in that room when it has some, with a note; ``r`` unchanged otherwise."""
        go = next((h.room for h in reversed(history) if h.effect == "go" and h.room is not None and h.target is None),
                  self._gone_to)  # (read in chunks: the room an earlier chunk goes to)
        if go is None or r.effect == "go" or any(self.lex.room([w]) is not None for w in G.words(r.text)):
            return r
        for sel in (r.subject, r.target):
            if sel is None or sel.quantifier == "all" or not sel.ids:
                continue
            here = [i for i in sel.ids if self.graph.room_of(i) == go]
            if here and len(here) < len(sel.ids):
                sel.ids = here
                notes.append(f"'{r.text}': the {sel.cls.replace('_', ' ')} in the "
                             f"{self.graph.class_of(go).replace('_', ' ')} the task goes to")
        return r

    def _seat_after(self, before: list, clauses: list, text: str):
        """:meth:`_seat_named` on the clauses of chunks read alone ("go to the home office", "sit
        down"): ``(the clause "on <seat>", a note)`` when ``clauses`` ask only a posture and
        ``before`` names a seat for it (a relation's target or subject, a state's object, or the
        room the character goes to), else ``None``."""
        from actionable.core.conditions import CHARACTER, Condition

        postures = {o.value for c in clauses for o in c.options
                    if o.kind == "state" and o.subject == CHARACTER and not o.negate}
        if len(clauses) != 1 or len(postures) != 1 or not postures <= {"SITTING", "LYING"}:
            return None
        rooms = set(self.graph.rooms)
        sat = any(p.kind == "state" and p.subject == CHARACTER for cl in before for p in cl.options)
        named = []
        for c in reversed(before):
            for o in c.options:
                if o.kind == "relation" and o.subject == CHARACTER and o.value == "INSIDE" and o.target in rooms:
                    named.append((o.target, [], sat))
                else:
                    named.append((None, [[x] for x in (o.target, o.subject)
                                         if x not in (None, CHARACTER) and x not in rooms], sat))
        got = self._seat_named(named, "SITTABLE" if postures == {"SITTING"} else "LIEABLE", text)
        if got is None:
            return None
        return self._clause([Condition("relation", CHARACTER, "ON", i) for i in got[0]]), got[1]

    def _pronouns(self, part: str, prev, history=()) -> str:
        """"it" / "them" / "the other one" -> the object of the clause before (its target for a state
        verb: "put the milk in the fridge and close it" closes the fridge); a clause without a verb
        takes the verb of the clause before ("turn the TV off and the other one on")."""
        ws = G.words(part)
        if prev is None:
            return part
        for k in range(len(ws) - 1, 0, -1):  # "the other set", "the other pair": the other one; "open the other"
            if ws[k - 1] == "other" and ws[k] in _COLLECTIVE:
                ws[k] = "one"
        if len(ws) > 1 and ws[-2:] == ["the", "other"]:
            ws = ws + ["one"]
        if G.split_verb(ws, _EXTRA_VERBS)[0] is None and prev.effect != "fact" and (
                not ws or ws[0] in G._DETS | G._QUANT_ANY | G._QUANT_ALL):
            # "... and the other one on": the verb before; never "brush your teeth" (a verb not read)
            pw = G.words(prev.text)
            _, rest = G.split_verb(pw, _EXTRA_VERBS)  # the whole verb phrase: "turn off", not "turn"
            verb = pw[: len(pw) - len(rest)] if rest and pw[-len(rest):] == rest else pw[:1]
            ws = verb + ws
        if "door" in ws and ws.index("door") > 0 and ws[ws.index("door") - 1] == "the":
            # "put it in the fridge and shut the door": the door of the container named before
            box = next((sel for h in reversed(list(history)) for sel in (h.target, h.subject) if sel is not None
                        and sel.ids and sel.cls != "door"
                        and all("CAN_OPEN" in self.graph.properties_of(i) for i in sel.ids)), None)
            if box is not None:
                ws[ws.index("door")] = box.cls.replace("_", " ")
        for pat in (["one", "of", "the", "other", "ones"], ["one", "of", "the", "others"]):
            # "bring me one of the other ones": another one of the class named before
            k = next((k for k in range(len(ws) - len(pat) + 1) if ws[k: k + len(pat)] == pat), None)
            if k is not None and prev.subject is not None:
                ws[k: k + len(pat)] = ["another", prev.subject.cls.replace("_", " ")]
                break
        if "one" in ws and prev.subject is not None:
            k = ws.index("one")
            if k > 0 and (ws[k - 1] in ("other", "the", "another", "that")
                          or (k > 1 and ws[k - 2] in ("the", "that", "other") and self.lex.room([ws[k - 1]]) is not None)):
                # "the other one", "the bedroom one": the class named before
                ws[k] = prev.subject.cls.replace("_", " ")
        if not {"it", "them"} & set(ws):
            return " ".join(ws)
        eff, _ = G.split_verb(ws, _EXTRA_VERBS)
        k = next(i for i, w in enumerate(ws) if w in ("it", "them"))
        # "open the fridge, take out the milk and close it": what an earlier clause opened or switched
        earlier = next((h.subject for h in reversed(history) if eff in _STATE_OF and h.effect in _STATE_OF
                        and h.subject is not None and _NEEDS.get(_STATE_OF[h.effect]) == _NEEDS.get(_STATE_OF[eff])),
                       None)
        if earlier is not None:
            ref = earlier
        elif prev.subject is None or prev.target is None:
            ref = prev.subject or prev.target
        elif k > 0 and ws[k - 1] in ("on", "in", "into", "onto", "inside", "to"):
            ref = prev.target  # "put the remote on the sofa and sit on it": the place named before
        elif (ws[0] in ("bring", "carry", "take", "move", "fetch") and prev.prep in ("in", "into", "inside")
              and all({"GRABBABLE", "CONTAINERS"} <= self.graph.properties_of(i) for i in prev.target.ids)):
            ref = prev.target  # "put the keys in the purse and bring it to the bedroom": the purse
        elif eff in _STATE_OF:  # the one that can take the state: "put the milk in the fridge and close it"
            need = _NEEDS.get(_STATE_OF[eff])
            order = (prev.subject, prev.target) if need is None else (prev.target, prev.subject)
            can = [sel for sel in order if need is None or any(need in self.graph.properties_of(i) for i in sel.ids)]
            ref = can[0] if can else prev.subject  # "put the plate in the sink and wash it": the plate
        else:
            ref = prev.subject
        posture = {"sit": "SITTABLE", "lie": "LIEABLE"}.get(eff)
        if posture and ref is not None and not any(posture in self.graph.properties_of(i) for i in ref.ids):
            # "I want to know how comfy the office couch is. Grab a pillow and lie down on it": the couch,
            # the last thing named that one can lie on (a pillow is not)
            ref = next((sel for h in reversed(list(history)) for sel in (h.target, h.subject) if sel is not None
                        and sel.ids and all(posture in self.graph.properties_of(i) for i in sel.ids)), ref)
        if ref is None:
            return part
        phrase = ("all the " if "them" in ws else "the ") + ref.cls.replace("_", " ")
        return " ".join(phrase if w in ("it", "them") else w for w in ws)


__all__ = ["Discourse"]
