"""Frame-free reading: an end state said without a command verb the grammar knows.

The verb grammar (:mod:`actionable.grounding.goal_reader`) reads a clause that *starts* with a
verb phrase ("put the tray on the table"). People also say what they want without one, or with a
verb the grammar lacks:

* "a tray on the dining table would be handy", "every single knife should end up in the sink",
  "I need every stamp on my office desk", "pop the noodles in the microwave", "cup goes into the
  microwave": an object, a placement preposition (``in``/``into``/``inside``/``on``/``onto``/``on
  top of``) and a receptacle;
* "the dishwasher in the office ought to be closed", "the tv should be off", "get the second one
  on as well": an object and a state word (``on``/``off``/``open``/``closed``/``shut``/``clean``).

:func:`reframe` finds such an object phrase and receptacle or state *by the scene's lexicon*, not
by the words around them, and returns the canonical clause ("put a tray on the dining table",
"close the dishwasher in the office") for the verb grammar to read; the world then binds it as it
binds any clause. A wished placement of "the X" is read as "put a X ..." (any instance already in
place meets it), where "put the X ..." asks for one not yet there. It is only tried on a part in which the grammar found no verb, so it never
changes a reading the grammar made. Its limits: it reads one placement or one state a part; the
object must come before the preposition or state word; a receptacle that is a room ("in the
kitchen") is not a placement target here; words between the object and the preposition must be
filler (:data:`FILLER`: "should end up", "would go", "goes"), so "the cup I left in the sink" is not
read as a placement.
"""

from __future__ import annotations

import re

from actionable.grounding import goal_reader as G

#: placement prepositions, longest first -> the grammar's preposition
PLACE_PREPS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("on", "top", "of"), "on"), (("inside", "of"), "in"), (("into",), "in"), (("inside",), "in"),
    (("onto",), "on"), (("in",), "in"), (("on",), "on"), (("at",), "on"))  # "my mug at the dining table"
#: verbs of using an object where it is ("read a book in bed", "eat the apple on the table"): a part
#: that starts with one is an activity, never reframed as a placement
USING_VERBS = frozenset({"read", "eat", "drink", "watch", "play", "use", "study", "write", "work", "sleep", "relax",
                         "listen", "enjoy", "browse", "type", "sit", "lie", "nap", "rest", "do", "practise",
                         "practice", "finish", "start", "wear", "try"})
#: state words -> the verb the grammar reads
STATE_WORDS = {"off": "turn off", "on": "turn on", "open": "open", "closed": "close", "shut": "close",
               "clean": "clean", "unplugged": "unplug"}
#: words allowed between an object phrase and its preposition or state word
FILLER = frozenset({"should", "shall", "must", "would", "could", "can", "will", "to", "be", "been", "is", "are",
                    "was", "were", "go", "goes", "going", "end", "ends", "up", "sit", "sits", "sitting", "stay",
                    "stays", "stand", "standing", "lie", "lying", "hang", "hanging", "kept", "placed", "put",
                    "stored", "belong", "belongs", "ought", "needs", "need", "has", "have", "got", "left", "back",
                    "away", "right", "now", "as", "well", "too", "also", "all", "turned", "switched", "it's",
                    "they're", "being", "get", "gets"})
#: words that end an object phrase (a new clause begins)
_STOP = frozenset({"and", "but", "so", "then", "because", "if", "when", "while", "would", "could", "should", "will",
                   "can", "please", "i", "we", "you", "he", "she", "they", "me", "us", "for", "since", "until",
                   "before", "after", "once", "is", "are", "be", "handy", "nice", "great", "good"})
_MAX_PHRASE = 6
#: "in the house", "around here": the whole place, not a room or receptacle
_WHOLE_PLACE = re.compile(r"\b(?:in|around|across|throughout|all over|from) (?:the |this |my |our )?"
                          r"(?:house|home|place|apartment|flat|here)\b(?! office| theat)")

#: words of a noun phrase the lexicon does not know ("every single knife", "a pair of socks")
_NP_EXTRA = frozenset({"of", "single", "fresh", "spare", "whole", "couple", "pair", "second", "last", "first"})
_INNER_PREPS = frozenset({"in", "on", "from", "near"})
#: filler that says how things are now ("the shampoo is on the counter" is a statement, not a wish)
_NOW = frozenset({"is", "are", "was", "were", "been", "left", "sits", "sitting", "lying", "lies", "has", "have"})
#: filler that says how things should be
_WISH = frozenset({"should", "shall", "ought", "must", "needs", "need", "would", "could", "will", "go", "goes",
                   "belong", "belongs", "end", "ends", "to"})

#: the grammar's verb phrases of two or more words ("switch off", "lie down"): one inside a part means the
#: part holds commands, which a frame-free reading must not flatten into one state
_PHRASAL = tuple(v.split() for v, _ in G.VERBS if " " in v)

#: words that start an object right after a verb ("put *it*", "wash *the* plate")
_OBJECT_START = frozenset({"the", "a", "an", "it", "them", "my", "your", "our", "this", "that", "these", "those",
                           "some", "every", "all", "both"})
#: first words of a yes/no question
_QUESTION = frozenset({"did", "does", "do", "is", "are", "was", "were", "has", "have", "had"})

#: words of wanting at the start of a part: what follows is wished, even said as a state ("I want the
#: kettle sitting on the oven", "I'd like the plates stacked in the cupboard")
_WANTED = frozenset({"want", "need", "like", "wanted", "needed"})

#: words after the receptacle that welcome it ("would be handy")
_PLEASED = frozenset({"handy", "nice", "great", "good", "helpful", "please"})


def _wished(before: list[str], between: list[str], after: list[str]) -> bool:
    """The part asks for the placement or state rather than stating it: a wish word between the
    object and the preposition ("should end up in") or after the receptacle ("would be handy"),
    or words before the object that are not a statement ("pop the noodles in", "I need every
    stamp on"; not "there are cups in the sink", not "the shampoo is on the counter")."""
    if set(between) & _NOW and not set(between) & _WISH and not set(before[:3]) & _WANTED:
        return False  # not "I want the kettle sitting on top of the oven"
    if set(between) & _WISH or set(after) & (_WISH | _PLEASED):
        return True
    return bool(before) and not (set(before) & _NOW and not set(before) & _WISH)


def _then_placed(after: list[str]) -> bool:
    """Words after a receptacle are filler, then another placement preposition ("... sitting on top
    of the oven", "... should go in the sink"): the first receptacle said where the object is."""
    k = 0
    while k < len(after) and after[k] in FILLER and after[k] not in ("on", "in"):
        k += 1
    return k > 0 and any(tuple(after[k: k + len(pw)]) == pw for pw, _ in PLACE_PREPS)


def _np_word(w: str, lex) -> bool:
    """``w`` can be part of a noun phrase: a determiner, quantifier, count or modifier, or a word
    the lexicon knows as an object, room or state adjective."""
    return (w in G._DETS or w in G._QUANT_ALL or w in G._QUANT_ANY or w in G._MODIFIERS or w in _NP_EXTRA
            or w.isdigit() or bool(lex.classes([w])) or lex.known([w]) or lex.room([w]) is not None
            or lex.adjective(w) is not None)


def _phrase_ending_at(ws: list[str], end: int, lex, named) -> tuple[int, G.Selector] | None:
    """The longest noun phrase ``ws[s:end]`` that selects an object, or ``None``."""
    best, first = None, end
    for s in range(end - 1, max(-1, end - 1 - _MAX_PHRASE), -1):
        w = ws[s]
        if not (_np_word(w, lex) or (w in _INNER_PREPS and s < end - 1)):
            break
        first = s
        if w in _INNER_PREPS:
            continue  # "the dishwasher in the office": a phrase never starts with its preposition
        sel = G.select(ws[s:end], lex, named)
        if isinstance(sel, G.Selector):
            best = (s, sel)
    if best is not None and any(lex.room([w]) is not None for w in ws[first:best[0]]):
        return None  # "the bedroom door" with no door in the bedroom: never every door instead
    return best


def _subject_before(ws: list[str], p: int, lex, named) -> tuple[int, int] | None:
    """``(s, e)`` of the object phrase before position ``p`` with only :data:`FILLER` between."""
    for e in range(p, max(0, p - 5) - 1, -1):
        if e < p and ws[e] not in FILLER:
            return None
        got = _phrase_ending_at(ws, e, lex, named)
        if got is not None:
            return got[0], e
    return None


def _target_after(ws: list[str], q: int, lex, named) -> int | None:
    """End of the longest receptacle phrase from ``q`` that selects an object (not a room)."""
    best = None
    for e in range(q + 1, min(len(ws), q + _MAX_PHRASE) + 1):
        w = ws[e - 1]
        if w in _STOP or not (_np_word(w, lex) or w in _INNER_PREPS):
            break
        if w in _INNER_PREPS or w in G._DETS or lex.room(ws[q:e]) is not None:
            continue
        if isinstance(G.select(ws[q:e], lex, named), G.Selector):
            best = e
    return best


def reframe(text: str, lex, named: list | tuple = ()) -> str | None:
    """The canonical clause of a part said without a known verb, or ``None``.

    Args:
        text: one part of an instruction (pronouns already bound by the world).
        lex: the world's :class:`~actionable.grounding.goal_reader.Lexicon` for the scene.
        named: ids named earlier in the task (for "the other ...").

    Returns:
        ``"put <object> in|on <receptacle>"`` or ``"<state verb> <object>"`` in the words of the
        text, for :func:`~actionable.grounding.goal_reader.read_clause`; ``None`` when no object and
        receptacle or state is found by the lexicon.
    """
    text = re.sub(r"'s been\b", " has been", text.lower())
    ws = G.words(_WHOLE_PLACE.sub(" ", re.sub(r"(?<=[a-z])'s\b", " is", text)))
    # "the kettle that is in the cupboard sitting on the oven": the relative clause picks the kettle
    ws = " ".join(ws)
    ws = re.sub(r"\b(?:that|which) (?:is|are|s) (?=(?:in|on|inside) )", "", ws).split()
    if ws[:1] and ws[0] in USING_VERBS:
        return None  # "read a book in bed": the book is used there, not put there
    named = list(named)
    for i in range(1, len(ws)):  # placement: object, filler, preposition, receptacle
        for pw, prep in PLACE_PREPS:
            if tuple(ws[i: i + len(pw)]) != pw:
                continue
            subj = _subject_before(ws, i, lex, named)
            if subj is None:
                break
            end = _target_after(ws, i + len(pw), lex, named)
            if end is None:
                break
            s, e = subj
            if _then_placed(ws[end:]):
                break  # "the cup on the table should go in the sink": "on the table" says which cup
            if not _wished(ws[:s], ws[e:i], ws[end:]):
                break  # "the wooden spoons on the counter are dirty", "there are cups in the sink"
            subject, target = ws[s:e], ws[i + len(pw): end]
            if G.select(subject, lex, named).cls == G.select(target, lex, named).cls:
                break
            sel = G.select(subject, lex, named)
            if subject[:1] == ["the"] and sel.quantifier == "the" and not sel.other:
                # a wished end state is met by any instance already in place ("the milk should be in
                # the fridge" with a milk in it: nothing to do), unlike "put the milk in the fridge"
                subject = ["a", *subject[1:]]
            said = "on top of" if pw == ("on", "top", "of") else prep  # said outright: ON, whatever it can hold
            return f"put {' '.join(subject)} {said} {' '.join(target)}"
    for i, w in enumerate(ws):  # state: object, filler, state word (at a clause's end)
        verb = STATE_WORDS.get(w)
        if verb is None or (i + 1 < len(ws) and ws[i + 1] not in _STOP and ws[i + 1] not in FILLER):
            continue
        subj = _subject_before(ws, i, lex, named)
        if subj is not None and _wished(ws[:subj[0]], ws[subj[1]:i], ws[i + 1:]):
            s, e = subj
            return f"{verb} {' '.join(ws[s:e])}"
    return None


def reread(part: str, r, lex, named, extra_verbs, notes: list) -> "G.ClauseReading | str | None":
    """The grammar's reading ``r`` of ``part`` (from :func:`~actionable.grounding.goal_reader.read_clause`)
    kept when it is a clause; otherwise (no verb, or a word it could not place) the frame-free
    reading of :func:`reframe` when that reads as a clause, noted in ``notes``; else ``r``."""
    if isinstance(r, G.ClauseReading):
        return r
    ws = G.words(part)
    effect = G.split_verb(ws, extra_verbs)[0]
    if effect is not None and effect not in G.PLACING:
        return r  # "slice the tomato in the fridge" (none there): a verb was read; never a placement instead
    if effect is not None and isinstance(r, str) and sum(w in ("in", "into", "on", "onto", "inside") for w in ws) >= 2:
        return r  # "put the cup on the counter in the dishwasher" with no cup there: never "on the counter"
    if effect == "hold" and isinstance(r, str) and ws[0] != "get":
        return r  # "grab the apple in the fridge" with none there: never "put an apple in the fridge"
    if ws and ws[0] in _QUESTION:
        return r  # "did somebody leave the toaster on": a question, not a wish ("turn on the toaster")
    inner = [i for i in range(1, len(ws) - 1) if ws[i] in G._ONE_WORD_VERBS and ws[i + 1] in _OBJECT_START]
    if any(ws[i: i + len(p)] == p for i in range(1, len(ws)) for p in _PHRASAL) or inner:
        # "bedtime switch off the light but leave the lamps on", "take it out and put it on a plate":
        # commands the grammar did not cut apart, never flattened into one end state; one command
        # after words with no verb ("the pasta's nearly done stand a colander in the sink") is read alone
        alone = (len(inner) == 1 and not any(G.split_verb(ws[k:], extra_verbs)[0] for k in range(inner[0]))
                 and not {"and", "then"} & set(ws[inner[0]:]))  # one command, not "put it ... and switch it on"
        if not alone:
            return r
        rest = " ".join(ws[inner[0]:])
        got = reread(rest, G.read_clause(rest, lex, named, extra_verbs), lex, named, extra_verbs, notes)
        if isinstance(got, G.ClauseReading):
            notes.append(f"'{part}': '{' '.join(ws[:inner[0]])}' asks for nothing; read '{rest}'")
            return got
    rf = reframe(part, lex, named)
    got = G.read_clause(rf, lex, named, extra_verbs) if rf else None
    if isinstance(got, G.ClauseReading):
        notes.append(f"'{part}': said without a verb I know; read as '{rf}'")
        return got
    return r


__all__ = ["FILLER", "PLACE_PREPS", "STATE_WORDS", "reframe", "reread"]
