"""Corrections and shortened commands, rewritten as the commands the goal grammar reads.

People correct where a thing goes ("put the apple on the fridge, on top, not inside"), drop the verb
("oven off", "steak out onto the counter", "into the fridge with it"), point back at a room ("in
there") and say what an appliance runs with ("run the microwave with the pizza inside").
:mod:`actionable.grounding.spoken` applies these rewrites in :func:`~actionable.grounding.spoken.prepare`
and per part; a world refuses a correction it cannot honour with :func:`insisted_refusal`. Both worlds'
readers use this module (issue 24).
"""

from __future__ import annotations

import re

from actionable.grounding import goal_reader as G
from actionable.grounding.goal_reader import _STATE_VERB, split_verb, words

#: the rooms people name in a house (the words, whatever the scene has)
_ROOM_NAMES = r"(?:(?:home )?office|bedroom|bathroom|kitchen|living room|dining room|hallway|study)"

#: a contrast that only names the place the object must not end up ("inside the cabinet - inside it, not
#: on top", "at the dining table, not up on that shelf"): the placement said before it is the goal
_PLACE_PREP = r"(?:on top of|on top|next to|inside|into|onto|in|on|under|by|at|beside)"
_NOT_PLACE = re.compile(r"(?:\s*(?:[,;]|\s-+)\s*(?P<echo>" + _PLACE_PREP + r")(?: (?:it|them|there))?)?"
                        r"\s*(?:,|;|\s-+|\s(?:and|but))\s*(?:and |but )?not (?:up |down |back |just |simply )?"
                        r"(?P<neg>" + _PLACE_PREP + r")"
                        r"(?P<obj> (?:it|them|there|(?:the|that|this|my|a|an|its|their|your|our) [a-z' ]+?))?"
                        r"(?: where [^.;!?,]*)?(?=\s*(?:[.;!?,]|$))", re.I)
_IN_WORDS = frozenset({"in", "inside", "into"})


def _relation(prep: str) -> str:
    """``"in"`` or ``"on"`` for a placement preposition (``"at"`` places on), else the word itself."""
    p = prep.lower()
    return "in" if p in _IN_WORDS else "on" if p in ("on", "onto", "on top", "on top of", "at") else p


def _correction(text: str):
    """``(match, placement prep match, same_target, want, neg)`` of a negated place said after a
    placement (:data:`_NOT_PLACE` and the last placement preposition before it), or ``None``.
    ``same_target``: the negated place is the placement's own target ("not inside", "not on it",
    "not in the fridge" after "on the fridge"); ``want`` / ``neg``: the relations said and negated."""
    m = _NOT_PLACE.search(text)
    if not m:
        return None
    preps = list(re.finditer(r"\b" + _PLACE_PREP + r"\b", text[: m.start()], re.I))
    if not preps:
        return None
    p = preps[-1]
    target = text[p.end(): m.start()].lower().split()
    obj = (m.group("obj") or "").strip().lower()
    same_target = obj in ("", "it", "them", "there") or bool(target and obj.split()[-1] == target[-1])
    return m, p, same_target, _relation(m.group("echo") or p.group(0)), _relation(m.group("neg"))


def contrast(text: str) -> str:
    """A negated place said after a placement, as a correction of where the object goes:
    "Put the mouthwash inside the cabinet - inside it, not on top." -> "Put the mouthwash inside the
    cabinet."; "put the apple on the fridge, not inside" -> "put the apple on top of the fridge" (the
    relation the user insists on is made explicit, so the target's usual one does not win); "put the
    book on the desk, not on the floor" -> "put the book on the desk". A correction that contradicts
    the placement ("on the desk, not on it", "on the desk, not on the desk") and a negated object
    ("..., not the plate") are left as said, so the grammar refuses them
    (:func:`~actionable.grounding.goal_reader.negation_refusal`). Other text unchanged."""
    got = _correction(text)
    if got is None:
        return text
    m, p, same_target, want, neg = got
    if same_target and want == neg:
        return text  # "on the desk, not on it", "on the desk, not on the desk": says both
    prep = p.group(0)
    if (same_target or m.group("echo")) and want in ("in", "on"):
        prep = "inside" if want == "in" else "on top of"  # the relation insisted on, said explicitly
    return text[: p.start()] + prep + text[p.end(): m.start()] + text[m.end():]


def insisted_relation(text: str) -> str | None:
    """``"in"`` / ``"on"`` when the task corrects a placement's relation ("..., not on top",
    "inside it, not on top", "on the fridge, not inside") and so insists on the other one, else
    ``None``; a world whose target cannot take that relation must refuse rather than place it the
    other way (:func:`contrast` keeps the words, the world decides)."""
    got = _correction(text)
    if got is None:
        return None
    _, _, same_target, want, neg = got
    return want if same_target and want in ("in", "on") and neg in ("in", "on") and want != neg else None


def insisted_refusal(task: str, reading, cannot):
    """``reading`` unless ``task`` insists on a relation (:func:`insisted_relation`) that the world
    cannot give one of its placements; then a refusal. ``cannot(relation, reading)`` is the world's
    reason for the first placement it cannot make that way ("desk 357 ... can only take things on
    it"), or ``None``. Returns a :class:`~actionable.core.conditions.GoalReading`."""
    from actionable.core.conditions import GoalReading

    insisted = insisted_relation(task) if reading.status == "goal" else None
    why = cannot(insisted, reading) if insisted else None
    if why is None:
        return reading
    return GoalReading(task, status="refuse", why=f"the task insists on {'inside' if insisted == 'in' else 'on top of'} "
                                                  f"the target, but {why}; ask for another place")


#: verbless commands: "oven off", "steak out onto the kitchen counter", "into the fridge with it"
_VERBLESS_STATE = re.compile(r"^((?:the |my |that |this |your |our |all the )?[a-z][a-z' -]*?) (on|off|open|shut|closed)"
                             r"((?: in (?:the|my|our) [a-z ]+)?)$")
_VERBLESS_PUT = re.compile(r"^((?:the |my |that |this |your |our |a )?[a-z][a-z' -]*?) (?:out |back |away )?"
                           r"(into|onto|inside) ((?:the|my|a|your|our) [a-z' ]+?)(?: with (?:it|them))?$")
_WITH_IT = re.compile(r"^(?:and |then )?(?:out |back )?(into|onto|inside|in|on) ((?:the|my|a|your|our) [a-z' ]+?) with (it|them)$")
_NP_DETS = frozenset({"the", "my", "that", "this", "your", "our", "a", "all"})
_NP_PLACE_WORDS = frozenset({"office", "home", "bedroom", "bathroom", "kitchen", "living", "room", "dining", "hallway",
                             "study", "main", "big", "little", "small", "other", "front", "back"})
#: words that make a phrase a clause ("make sure the oven isn't", "did somebody leave the tv"), not a noun phrase
_NOT_NP = frozenset({"make", "sure", "did", "do", "does", "leave", "left", "is", "are", "was", "were", "be", "been",
                     "somebody", "someone", "anyone", "anybody", "everyone", "it", "they", "them", "i", "we", "you",
                     "he", "she", "not", "no", "can", "could", "would", "will", "should", "please", "turn", "switch",
                     "put", "keep", "get", "has", "have", "had", "still", "if", "when", "so", "and", "or", "then"})


def _noun_phrase(np: str, names_object) -> bool:
    """Whether ``np`` is only a short noun phrase of the world ("the oven", "coffee machine", "the
    light in the bedroom"): at most six words, naming an object, with no verb, pronoun or function
    word of a clause."""
    ws = np.split()
    return (0 < len(ws) <= 6 and ws[-1] not in ("both", "all", "each", "too", "again") and bool(names_object(np))
            and not any(w in _NOT_NP or w.endswith("n't") or (w.endswith(("ed", "ing")) and not names_object(w))
                        for w in ws))  # "the apple rolled into the bin": a statement


def verbless(q: str, names_object) -> str:
    """A command said without its verb, as the command: "oven off" -> "turn off oven", "steak out
    onto the kitchen counter" -> "put steak onto the kitchen counter", "into the fridge with it" ->
    "put it into the fridge". Only a part with no verb the grammar knows, whose noun phrase names an
    object of the world (``names_object``); a place said with plain "on" / "in" ("the cup on the
    table") stays a statement. Other text unchanged."""
    m = _VERBLESS_STATE.fullmatch(q)  # before the verb test: "microwave on" (a noun that is also a verb)
    pair = m and " and " in m.group(1) and m.group(1).split(" and ")
    if pair and len(pair) == 2 and all(_noun_phrase(x, names_object) for x in pair):
        # "office light and floor lamp on": both of them
        state = {"shut": "closed"}.get(m.group(2), m.group(2))
        return " and ".join(f"{_STATE_VERB[state]} {x}{m.group(3)}" for x in pair)
    if m and _noun_phrase(m.group(1), names_object):
        state = {"shut": "closed"}.get(m.group(2), m.group(2))
        return f"{_STATE_VERB[state]} {m.group(1)}{m.group(3)}"
    if split_verb(words(q))[0] is not None:
        return q
    m = _WITH_IT.fullmatch(q)
    if m:
        return f"put {m.group(3)} {m.group(1)} {m.group(2)}"
    m = _VERBLESS_PUT.fullmatch(q)
    if (m and _noun_phrase(m.group(1), names_object) and names_object(m.group(3))
            and all(w in _NP_DETS or w in _NP_PLACE_WORDS or names_object(w) for w in m.group(1).split())):
        # every word an object's ("steak out onto ..."), never a verb the grammar lacks ("pour some milk into")
        return f"put {m.group(1)} {m.group(2)} {m.group(3)}"
    return q


#: "in there" after a room was named: that room
_IN_THERE = re.compile(r"\b(in|into) there\b", re.I)
_ROOM_SAID = re.compile(r"\b(?:in|into|to|the|my|our) (?:the |my |our )?(" + _ROOM_NAMES + r")\b", re.I)


#: an earlier command that opened a container ("open the fridge", "pop the oven open")
_OPENED_BEFORE = re.compile(r"\b(?:open|opened|opening|unlock)\b (?:up )?(?:the|my|that|this|our) [a-z]+", re.I)


def in_there(text: str) -> str:
    """ "The kids play in the dining room. Plug in the controller on the table in there" -> "... on
    the table in the dining room": "in there" names the room said last before it; with no room
    before it, after a command that opened something ("open the fridge and put the milk in there"),
    it is "in it" (that container); unchanged otherwise."""
    out, last = [], 0
    for m in _IN_THERE.finditer(text):
        rooms = list(_ROOM_SAID.finditer(text[: m.start()]))
        if not rooms:
            if _OPENED_BEFORE.search(text[: m.start()]):  # "open the fridge and put the milk in there": in it
                out += [text[last: m.start()], f"{m.group(1)} it"]
                last = m.end()
            continue
        own = max(text.rfind(c, 0, m.start()) for c in ".;!?")  # the sentence "in there" is in starts after it
        between = text[rooms[-1].end(): own] if own > rooms[-1].end() else ""
        if re.search(r"\b(?:the|a|an|my|our|your) [a-z]+", between, re.I):
            continue  # "In the kitchen the fridge is empty. Put the milk in there": the fridge, not the room
        out += [text[last: m.start()], f"{m.group(1)} the {rooms[-1].group(1).lower()}"]
        last = m.end()
    return "".join(out) + text[last:] if out else text


#: "run the microwave with the pizza inside": the appliance runs with the object in it
_WITH_INSIDE = re.compile(r"\b(run|turn on|switch on|start|power on|heat up)\s+((?:the|a|an|my|your) [a-z]+(?: [a-z]+)?) "
                          r"with ((?:the|a|an|my|your|some|that|this) [a-z' ]+?) (?:inside it|inside|in it|in there|in)"
                          r"(?=\s*(?:[.;!?,]|$))", re.I)


def with_inside(text: str) -> str:
    """ "Run the microwave with the counter pizza inside" -> "put the counter pizza in the microwave
    and run the microwave": what an appliance runs "with ... inside" is put in it first (the grammar
    read only the appliance's state, and the plan ran it empty); other text unchanged."""
    return _WITH_INSIDE.sub(lambda m: f"put {m.group(3)} in {m.group(2)} and {m.group(1)} {m.group(2)}", text)


#: first words of a piece that says when, why or how, never a deed of its own ("..., before dinner")
_NOT_A_DEED = frozenset({"make", "ensure", "check", "see", "sure", "keep", "leave", "before", "after", "when", "while",
                         "until", "because", "since", "if", "once", "by", "for",
                         "in", "at", "on", "with", "without", "right", "straight", "again", "tonight", "today",
                         "tomorrow", "later", "first", "last", "just", "only", "even", "or", "but", "and", "that",
                         "which", "where", "whatever", "whenever", "as", "not", "no", "yes", "ok", "okay",
                         # the things said before ("..., and the other one too", "... and both of them")
                         "other", "another", "one", "ones", "both", "all", "each", "every", "them", "it", "those",
                         "these", "everything", "some", "any", "rest"})
#: words of a piece that ask for nothing (politeness, haste)
_COURTESY = frozenset({"hurry", "quickly", "quick", "please", "thanks", "thank", "you", "now", "fast", "asap",
                       "be", "then", "so", "too", "also", "as", "well"})


#: a command corrected by the speaker ("Switch the computer on. No wait, I mean the one in the office";
#: "Put a cup in the sink, sorry, I mean the dishwasher"; "..., actually make that the office one")
_SELF_FIX = re.compile(r"^(?P<cmd>.+?)[\s,.;!\-\u2013\u2014]+(?:(?:no|oh|oops|sorry|wait|actually|hang on|er|erm|um)[\s,.;!]+)*"
                       r"(?:i mean|i meant|make (?:that|it)(?= (?:the|a|an|my|two|three)\b)|or rather|rather|scratch that,? (?:i mean )?)\s+"
                       r"(?P<fix>.+?)[.!]*$",
                       re.I)
#: the same without "I mean": "..., no, sorry, in the cabinet", "... - no wait, the radio"
_SELF_FIX_BARE = re.compile(r"^(?P<cmd>.+?)[\s,.;!\-\u2013\u2014]+(?:no|oops|sorry|wait|actually)(?:[\s,.;!]+(?:no|oops|sorry|wait|"
                            r"actually))*[\s,.;!]+(?P<fix>(?:(?:in|into|on|onto|inside) )?(?:the|my|that) .+?)[.!]*$", re.I)
#: words that correct what was said before, in any shape
_CORRECTING = re.compile(r"\b(?:no,? wait|wait,? no|i mean|i meant|make that (?:the|a|an|my)|scratch that|or rather)\b", re.I)
_STOPS = {"on", "off", "in", "into", "onto", "inside", "to", "from", "and", "then", "up", "down", "out", "back", "away",
          "please", "for", "with"}
_DET = {"the", "a", "an", "my", "that", "this", "our", "your", "some"}


def _object_np(ws: list[str]) -> tuple[int, int] | None:
    """``(start, end)`` of the first noun phrase after the verb of ``ws`` (a determiner and the words up to a
    particle or preposition), or ``None``."""
    start = next((i for i, w in enumerate(ws) if i and w in _DET), None)
    if start is None:
        return None
    end = start + 1
    while end < len(ws) and ws[end] not in _STOPS:
        end += 1
    return (start, end) if end > start + 1 else None


def self_correction(text: str) -> tuple[str, str | None]:
    """``(text, refusal)``: a command the speaker corrects ("..., I mean X") as the corrected command, or
    a refusal when the correction cannot be applied (it had been ignored: the first thing said was done).

    * "the one in the office" (a descriptor): added to the command's object ("switch the computer in the
      office on");
    * "the office one": the room or word before the object ("switch the office computer on");
    * "the dishwasher" (a noun phrase): replaces the command's place when it has one ("put a cup in the
      dishwasher"), else its object ("switch on the tv, I mean the radio")."""
    m = _SELF_FIX.match(text.strip()) or _SELF_FIX_BARE.match(text.strip())
    if m and re.match(r"^it\b|^(?:business|what i say)\b", m.group("fix").strip().lower()):
        return text, None  # "turn off the light. I mean it!": emphasis
    if not m:
        said = _CORRECTING.search(text)
        if said and len(text[: said.start()].split()) >= 2 and not re.search(r"\bi mean(?:t)? it\b", text, re.I):
            return text, (f"the task corrects itself ('{said.group(0)}') and I can't tell what it changes to; say it "
                          f"once, as you mean it")
        return text, None
    cmd, fix = m.group("cmd").strip(" ,.;!-"), m.group("fix").strip().lower()
    ws = cmd.split()
    low = [w.lower().strip(",.;!?") for w in ws]
    np_ = _object_np(low)
    fw = fix.split()
    if re.match(r"^(?:the|that) other(?: one| ones)?$|^another(?: one)?$", fix):
        return text, (f"the task corrects itself ('{fix}') and I can't tell which one it means; say it once, "
                      f"naming the one you mean")
    if fw and fw[0] in ("in", "into", "on", "onto", "inside"):  # "..., no, sorry, in the cabinet": the place
        places = [i for i, w in enumerate(low) if w in ("in", "into", "onto", "inside", "on") and i + 1 < len(low)
                  and low[i + 1] in _DET]
        if places:
            return " ".join(ws[:places[-1]] + fw), None
    if np_ and len(fw) >= 3 and fw[0] in ("the", "that") and fw[1] in ("one", "ones"):
        s, e = np_
        rest = ws[e:]
        if fw[2] in ("in", "on", "from", "at", "by"):  # "... the light in the bedroom, I mean the one in the dining room"
            low_rest = low[e:]
            k = next((i for i in range(len(low_rest) - 1) if low_rest[i] in ("in", "on", "from", "at", "by", "inside")
                      and low_rest[i + 1] in _DET), None)
            if k is not None:
                j = k + 2
                while j < len(low_rest) and low_rest[j] not in _STOPS:
                    j += 1
                rest = rest[:k] + rest[j:]  # the corrected place goes
        return " ".join(ws[:e] + fw[2:] + rest), None
    if np_ and len(fw) in (3, 4) and fw[0] in ("the", "that") and fw[-1] in ("one", "ones"):
        s, e = np_  # "turn off the bedroom light, I mean the bathroom one": the bathroom light
        return " ".join(ws[:s + 1] + fw[1:-1] + ws[e - 1:]), None
    if fw and fw[0] in _DET and "one" not in fw:
        places = [i for i, w in enumerate(low) if w in ("in", "into", "onto", "inside", "on") and i + 1 < len(low)
                  and low[i + 1] in _DET]
        if places:
            k = places[-1] + 1
            return " ".join(ws[:k] + fw), None
        if np_:
            s, e = np_
            return " ".join(ws[:s] + fw + ws[e:]), None
    return text, (f"the task corrects itself ('{m.group(0)[len(m.group('cmd')):].strip(' ,.;!-')}') in a way I can't "
                  f"apply; say it once, as you mean it")


#: two things said together in a statement ("Both the toaster and the oven tray are grubby."), for a later "them"
_PAIR_SAID = re.compile(r"\b(?:both )?((?:the|my|our) [a-z' -]+? and (?:the|my|our) [a-z' -]+?) (?:are|were|look|seem|have|'re|"
                        r"need|got|smell|feel)\b[^.;!?]*(?:[.;!?]+|\s-\s)\s*", re.I)
_THEM = re.compile(r"\b(?:both of them|them both|the two of them|them)\b", re.I)


def both_of_them(text: str) -> str:
    """ "Both the toaster and the oven tray are grubby. Give both of them a wash." -> "... Give the
    toaster and the oven tray a wash": "them" after a statement that names two things together is those
    two (the readers bind a pronoun to one class), and the statement, which only named them, goes.
    Unchanged otherwise."""
    m = _PAIR_SAID.search(text)
    if not m:
        return text
    rest = text[m.end():]
    p = _THEM.search(rest)
    if not p:
        return text
    return text[: m.start()] + rest[: p.start()] + m.group(1) + rest[p.end():]  # the statement only named them


def unread_piece(task: str, lex, extra_verbs=()) -> tuple[str, str | None] | None:
    """A piece of a task of several (after a comma, ";", "and" or "then") that asks for something
    the world has no words for ("turn off the oven, then call my mother": "call my mother"; "; rm -rf
    /"), which a reader would otherwise join to the clause before it (it names no object) and drop
    without a word: ``(piece, missing)``, where ``missing`` is the object it names that the world
    lacks ("nudge the thermostat up": "thermostat", a refusal by name) or ``None`` (cannot tell).
    ``None`` when every later piece names an object or a room of ``lex`` (a
    :class:`~actionable.grounding.goal_reader.Lexicon`), has a verb the grammar knows, or says when,
    why or how ("..., before dinner")."""
    for piece in re.split(r"\s*(?:,|;|\bthen\b|\band\b)\s*", task)[1:]:
        pw = [w for w in words(piece) if w not in G._DETS and w not in _COURTESY]
        if (len(pw) < 2 or pw[0] in G.ASIDE_START or pw[0] in _NOT_A_DEED or pw[0].endswith(("ly", "ing", "ed"))
                or split_verb(pw, extra_verbs)[0] is not None or G.has_verb(pw, extra_verbs)
                or any(lex.classes([w]) or lex.known([w]) or lex.room([w]) for w in pw)
                or any(lex.classes(pw[k:k + n]) for n in (2, 3) for k in range(len(pw) - n + 1))):  # "coffee machine"
            continue
        return piece, G.unnamed_object(piece, lex)
    return None


def unread_refusal(task: str, lex, scene: str, example: str, extra_verbs=()):
    """The :class:`~actionable.core.conditions.GoalReading` refusing a task with an
    :func:`unread_piece` (``refuse`` naming the missing object, else ``unclear``), or ``None``."""
    from actionable.core.conditions import GoalReading

    got = unread_piece(task, lex, extra_verbs)
    if got is None:
        return None
    piece, missing = got
    if missing:
        return GoalReading(task, status="refuse", why=f"I can't tell what to do: '{piece}' names no action I know, and "
                                                      f"scene {scene!r} has no {missing}; give only what the agent can "
                                                      f"do there, e.g. '{example}'")
    return GoalReading(task, status="unclear", why=f"I can't tell what '{piece}' asks for: it names no object of scene "
                                                   f"{scene!r} and no action I know; give only what the agent can do "
                                                   f"there, e.g. '{example}'")

__all__ = ["both_of_them", "contrast", "self_correction", "in_there", "insisted_refusal", "insisted_relation", "unread_piece", "unread_refusal", "verbless",
           "with_inside"]
