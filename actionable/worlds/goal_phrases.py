"""Phrasings around the world-neutral goal grammar (:mod:`actionable.grounding.goal_reader`) that
each world's goal interpreter reads the same way, after the grammar has read a clause:

* a count ("two plates", "a couple of cups", "3 apples"): :func:`count` finds it on a selector;
  the worlds' conditions cannot state "N of these", so the interpreter binds N specific instances
  (:func:`choose`, best first by a world's rank) and says which in a note; fewer than N in the
  scene is refused (:func:`count_refusal`);
* a state adjective before a noun ("the dirty dishes", "the open drawer"): :func:`adjectives`
  finds it, so that the interpreter can say when no instance is in that state (the grammar keeps
  every instance then);
* a place the worlds do not record ("in front of the door", "behind the TV"): :func:`unrecorded_place`;
* a leading clause that only says how the user feels ("I'm cold, could you close the window?"):
  :func:`drop_feeling` reads the command after it.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from actionable.grounding import goal_reader as G
from actionable.grounding import spoken as S

#: count words (a number of instances); "one" is the grammar's "any"
COUNT_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
               "couple": 2, "pair": 2}
_NUMBER_WORDS = {v: k for k, v in COUNT_WORDS.items() if k not in ("couple", "pair")}


def count(sel) -> int | None:
    """The number of instances the selector's phrase asks for ("two plates" -> 2, "a couple of
    cups" -> 2), or ``None`` without a count word."""
    if sel is None:
        return None
    ws = (sel.words or "").split()
    for w in ws[:-1]:  # the head noun is last
        if w.isdigit() and int(w) > 1:
            return int(w)
        if w in COUNT_WORDS:
            return COUNT_WORDS[w]
    return None


#: amounts that name no number the worlds can bind ("most of the lights"): refused
VAGUE_AMOUNTS = ("most", "several", "a few", "a handful of", "some of")


def amount(part: str, sel) -> str | None:
    """The amount word before the selector's noun in ``part``: ``"both"`` (two, and exactly two
    must fit), ``"half"`` (half of those that fit, rounded down, at least one), ``"all but one"``
    (two, three: every one that fits but that many), a word of :data:`VAGUE_AMOUNTS` (refused:
    :func:`amount_refusal`), or ``None``."""
    if sel is None or not sel.words:
        return None
    ws = G.words(part)
    head = sel.words.split()[-1]
    if head not in ws:
        return None
    before = " ".join(ws[max(0, ws.index(head) - 5): ws.index(head)])
    m = re.search(r"\ball but (one|two|three)\b", before)
    if m:  # "all but one plate" (spoken.py's reading of "every plate except one")
        return f"all but {m.group(1)}"
    for word in VAGUE_AMOUNTS:
        if re.search(rf"\b{word}\b", before):
            return word
    for word in ("both", "half"):
        if re.search(rf"\b{word}\b", before):
            return word
    return None


def amount_count(word: str, fit: list) -> int | None:
    """The number of instances an amount binds among ``fit``: half (at least one), all but N;
    ``None`` for an amount that binds no number (refused) or "both" (every one of exactly two)."""
    if word == "half" and fit:
        return max(1, len(fit) // 2)
    if word.startswith("all but "):
        n = len(fit) - COUNT_WORDS.get(word.split()[-1], 1)
        return n if n >= 1 else None
    return None


def bind_amount(word: str, fit: list, phrase: str, cls: str, name: Callable, scene: str) -> int | str | None:
    """What an amount binds among ``fit`` (the instances that can take the verb): the number of
    instances (half, all but N), ``None`` for every one of exactly two ("both"), or the refusal
    (:func:`amount_refusal`). Both worlds' readers use it."""
    n = amount_count(word, fit)
    if n is not None or (word == "both" and len(fit) == 2):
        return n
    return amount_refusal(phrase, word, fit, cls, name, scene)


def amount_refusal(phrase: str, word: str, fit: list, cls: str, name: Callable, scene: str) -> str:
    """The refusal of an amount the reading cannot bind: a vague one ("most of the lights"), or
    "both" where not exactly two fit."""
    what = cls.replace("_", " ")
    listed = ", ".join(name(i) for i in fit[:4]) + (f" and {len(fit) - 4} more" if len(fit) > 4 else "")
    phrase = phrase if phrase.startswith(word) else f"{word} {phrase}"
    if word.startswith("all but "):
        return (f"'{word} {plural(what)}' leaves none: scene {scene!r} has {len(fit)} {plural(what)} that fit"
                + (f" ({listed})" if fit else ""))
    if word == "both":
        return (f"'{phrase}' means two {plural(what)}, but scene {scene!r} has {len(fit)} that fit"
                + (f" ({listed})" if fit else "") + "; say which two (by room or place, e.g. 'the "
                f"{plural(what)} in the bedroom'), or 'all the {plural(what)}'")
    return (f"'{word}' does not say how many {plural(what)} ({len(fit)} fit: {listed}); say a number "
            f"('two {plural(what)}'), which ones, or 'all the {plural(what)}'")


def plural(what: str) -> str:
    """ "plate" -> "plates" (a word already in -s unchanged), for "none of the plates"."""
    return what if what.endswith("s") else what + "s"


def number(n: int) -> str:
    return _NUMBER_WORDS.get(n, str(n))


def choose(ids: list, n: int, rank: Callable | None = None) -> list:
    """The ``n`` best of ``ids``: by ``rank(id)`` (smaller first), then in the scene's order."""
    ids = list(ids)
    order = sorted(range(len(ids)), key=lambda k: ((rank(ids[k]) if rank else 0), k))
    return [ids[k] for k in order[:n]]


def count_refusal(phrase: str, n: int, have: list, cls: str, name: Callable, scene: str) -> str:
    """The refusal of a count the scene cannot meet ("two plates" with one plate)."""
    what = cls.replace("_", " ")
    listed = ", ".join(name(i) for i in have[:4]) + (f" and {len(have) - 4} more" if len(have) > 4 else "")
    only = f"only {len(have)}" if have else "no"
    return (f"'{phrase}' asks for {number(n)} {what}s, but scene {scene!r} has {only} {what}"
            f"{'' if len(have) == 1 else 's'} that fit{'s' if len(have) == 1 else ''}"
            + (f" ({listed})" if have else "") + f"; ask for {'it' if len(have) == 1 else 'fewer'} instead")


def count_note(phrase: str, chosen: list, total: int, name: Callable, why: str) -> str:
    return (f"'{phrase}': {len(chosen)} of the {total} that fit are bound ({', '.join(name(i) for i in chosen)}; "
            f"chosen by: {why}): the goal conditions name instances, not a number of them")


def adjectives(text: str, sel, adjective: Callable, after: int = 0, last: bool = False) -> list[tuple]:
    """``[(word, state, negate), ...]`` for the state adjectives right before the selector's noun
    words in ``text`` ("wash the *dirty* dishes"): ``adjective(word)`` is the lexicon's. The noun
    is looked for after the verb (word index ``after`` on), its first occurrence (``last``: its
    last, for a target)."""
    if sel is None or not sel.words:
        return []
    ws = G.words(text)
    noun = sel.words.split()
    hits = [k for k in range(max(after, 0), len(ws) - len(noun) + 1) if ws[k: k + len(noun)] == noun]
    if not hits:
        return []
    k = hits[-1] if last else hits[0]
    skip = G._DETS | G._QUANT_ALL | G._QUANT_ANY | G._MODIFIERS | set(COUNT_WORDS)
    out = []
    j = k - 1
    while j >= max(after, 0) and (ws[j] in skip or ws[j].isdigit() or adjective(ws[j])):
        a = adjective(ws[j])
        if a:
            out.append((ws[j], a[0], a[1]))
        j -= 1
    return out[::-1]


def fitting(ids: Iterable, adjs: list[tuple], has_state: Callable) -> list:
    """The ids in every state the adjectives name."""
    return [i for i in ids if all(has_state(i, st) != neg for _, st, neg in adjs)]


#: words that end a noun phrase as its verb ("the front door is locked": "front door")
_COPULA = frozenset({"is", "are", "was", "were", "be", "been", "isn't", "aren't", "has", "have", "should", "must",
                     "will", "would", "can", "could", "like", "looks", "seems"})


def noun_phrase(ws: list[str], word: str) -> str:
    """The noun phrase of ``ws`` that ``word`` begins, up to three words ("lock the front door":
    "front door"), cut at a determiner, a preposition, a conjunction or a verb; ``word`` when it
    is not in ``ws``."""
    if word not in ws:
        return word
    k = ws.index(word)
    out = [word]
    for x in ws[k + 1: k + 3]:
        if x in G._DETERMINERS or x in G._PREPS or x in ("and", "or", "then", "but", "please", "so") \
                or x in _COPULA or G.split_verb([x])[0] is not None:
            break
        out.append(x)
    return " ".join(out)


#: places a world records no relation for (the grammar would read "in front of the door" as "in the door")
_UNRECORDED = re.compile(r"\b(in front of|behind|to the left of|to the right of|on the left of|on the right of|"
                         r"across from|opposite|on the other side of|in the middle of|at the back of|at the front of|"
                         r"in the front of|in the back of|above|below|beneath|underneath)\b")


def unrecorded_place(text: str) -> str | None:
    """The place phrase of ``text`` that no world records ("in front of", "behind"), or ``None``."""
    m = _UNRECORDED.search(" ".join(G.words(text)))
    return m.group(1) if m else None


def place_refusal(text: str, phrase: str, world: str, example: str) -> str:
    """The refusal of a clause that places or picks by a place :func:`unrecorded_place` found."""
    return (f"'{' '.join(G.words(text))}': {world} records an object on or in another (and the agent close "
            f"to an object), not '{phrase}' it, so the goal could not be checked; say what to put it on or in, "
            f"or where to go, e.g. '{example}'")


#: a leading clause about the speaker or the weather ("I'm cold", "it's dark in here", "ugh")
_FEELING = re.compile(r"^\s*(?:i'?m|i am|i feel|i'?m feeling|i'?ve been|we'?re|we are|it'?s|it is|it feels|"
                      r"it'?s getting|brr+|ugh|oh|wow|gosh|phew|man|hmm)\b[^,;:.!?\u2013\u2014]*"
                      r"(?:[,;:.!?\u2013\u2014]|\s-+\s)+\s*(?P<rest>.+)$", re.I)


def unfit_adjective(part: str, r, adjective: Callable, has_state: Callable):
    """Narrow the subject and target of the clause reading ``r`` to the instances in the states
    their adjectives name ("the dirty plates": the dirty ones); ``(selector, adjectives)`` of the
    first whose adjectives no instance fits (the world words the note or refusal), else ``None``."""
    for sel, last in ((r.subject, False), (r.target, True)):
        adjs = adjectives(part, sel, adjective, after=1, last=last)
        if not adjs:
            continue
        fit = fitting(sel.ids, adjs, has_state)
        if fit:
            sel.ids = fit
            continue
        return sel, adjs
    return None


def drop_feeling(text: str, names: Callable[[list[str]], bool]) -> tuple[str, str | None]:
    """``(text, note)``: a leading clause that says how the user feels and names nothing of the
    scene ("I'm cold, could you close the window?") dropped when a command follows it (``names(words)``:
    the words name an object or room of the scene, then the clause is kept as a statement the
    command may refer to); ``(text, None)`` otherwise."""
    m = _FEELING.match(text)
    if not m:
        return text, None
    rest = m.group("rest")
    lead = text[: m.start("rest")].strip(" ,;:.!?-\u2013\u2014")
    if names(G.words(lead)):
        return text, None
    cmd = " ".join(G.words(S.polite(rest)))
    if G.split_verb(cmd.split())[0] is None and not G._WANT.match(cmd):
        return text, None
    return rest, f"'{lead}' says how things are for the user and names nothing to do; the command after it is read"


__all__ = ["COUNT_WORDS", "activity", "adjectives", "unfit_adjective", "choose", "count", "count_note", "count_refusal", "drop_feeling", "fitting",
           "noun_phrase", "number", "plural", "place_refusal", "unrecorded_place"]


_ACTIVITY = re.compile(r"^\s*(?:i want to|i wanna|i'd like to|i would like to|i need to|i'm going to|i am going to|"
                       r"let's|let us|let me|time to)\s+", re.I)


#: "go to the bathroom and brush your teeth": the way there frames the activity
_GO_FIRST = re.compile(r"^\s*(?:please )?(?:go|head|come|run|walk)(?: over)? (?:in)?to (?:the |my |your )?"
                       r"(?:bathroom|bedroom|kitchen|living ?room|dining room|(?:home )?office|study|lounge)"
                       r"\s*(?:[,.;]|\band\b|\bthen\b)+\s*(?:then\s+)?", re.I)


#: where a task's chunks meet: commas, semicolons, "and", "then", "and then"
_CHUNK_SPLIT = re.compile(r"\s*(?:[,;]|\band then\b|\bthen\b|\band\b)\s*")


def chunks(text: str) -> list[str]:
    """``text`` cut where its chunks meet ("brush your teeth, then go to sleep" -> ["brush your
    teeth", "go to sleep"]), empty pieces dropped; case as given."""
    return [c for c in _CHUNK_SPLIT.split(text) if c.strip()]


def activity(task: str) -> str:
    """The activity an intent task names, without the speaker's framing ("I want to watch
    television" -> "watch television"; "go to the bathroom and brush your teeth" -> "brush your
    teeth"), for comparing it with the packaged task titles."""
    out = _ACTIVITY.sub("", _GO_FIRST.sub("", task))
    return out if out.strip() else task
