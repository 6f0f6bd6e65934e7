"""One clause per object of a conjunctive instruction.

"Switch on the TV and the computer" asks for two things; the grounded planner's
*task step* (:mod:`actionable.planning.taskstep`) and the goal conditions read from
a task's text (:mod:`actionable.worlds.virtualhome.goaltext`) are found per clause, so a plan is not
done after the first object. The split is by words, with the task's object words
given by the caller (the names the object matcher found):

* the instruction is cut at ``and`` / ``then``, commas and ``&``; every part must name an object, else
  the instruction stays whole ("Sit down and watch TV": "sit down" names none);
* a part with no verb of its own (only articles before its object: "the computer")
  takes the words before the object of the part before it ("switch on the");
* a part that took a verb and says where ("the plate *in the sink*") lends that
  ending to the parts before it that say nothing after their object ("put the cup"
  -> "put the cup in the sink").

Examples: "Put the cup and the plate in the sink" -> ``["put the cup in the sink",
"put the plate in the sink"]``; "Turn off the light and close the door" -> ``["turn
off the light", "close the door"]``; "Make coffee" -> ``["make coffee"]``.
"""

from __future__ import annotations

import re
from typing import Iterable

_SPLIT = frozenset({"and", "then"})
#: room words: a conjunct that is only a room after "X in the <room>" is X in that room too
_ROOMS = frozenset({"bathroom", "bedroom", "kitchen", "office", "lounge", "hallway", "study", "livingroom",
                    "diningroom", "home office", "living room", "dining room"})
_DETERMINERS = frozenset({"the", "a", "an", "my", "your", "his", "her", "our", "their", "some", "this", "that",
                          "these", "those", "all", "every", "both"})
_ARTICLES = frozenset({"the", "a", "an", "my", "your", "his", "her", "our", "their", "some", "this", "that",
                       "these", "those", "both", "also", "all", "every", "each"})


def _norm_words(text: str, cut: str = " and ") -> list[str]:
    from actionable.grounding.objects import words

    # a list's commas (and "&") cut like "and"; so does the end of a sentence ("Turn on the TV. Open the fridge.")
    # "please" and "too" ask nothing ("X is dirty, please wash it" is "wash it")
    return [w for w in words(re.sub(r"[,;&+\n]|[.!?](?=\s|$)", cut, text)) if w not in ("please", "kindly", "too")]


def clauses(task: str, object_words: Iterable[str], sentences: bool = False) -> list[str]:
    """The clauses of ``task``, one per conjoined object (see the module doc).

    Args:
        task: the instruction (any case, punctuation ignored).
        object_words: lower-case words that name objects in ``task`` ("tv", "coffee", "maker").
        sentences: cut at ``;`` first (where :func:`actionable.grounding.spoken.conversational`
            joins sentences) and split each sentence alone, so a sentence naming no object
            ("my back's sore and I want to sit up in bed") keeps the others apart.

    Returns:
        Lower-case clauses, at least one; ``[task in lower case, words only]`` when the
        instruction is not a conjunction of objects.
    """
    if sentences and ";" in task:
        return [c for part in task.split(";") if part.strip() for c in clauses(part, object_words)]
    words = _norm_words(task)
    objs = {w.lower() for w in object_words}
    parts: list[list[str]] = [[]]
    for w in words:
        if w in _SPLIT:
            if parts[-1]:
                parts.append([])
        else:
            parts[-1].append(w)
    parts = [p for p in parts if p]
    whole = [" ".join(_norm_words(task, " "))]
    if len(parts) < 2:
        return whole
    spans = []
    for p in parts:
        # "brush your teeth", "water the plants": a first word that names an object but comes right
        # before a determiner is the verb (the part has its own), not the object
        start = 1 if len(p) > 1 and p[0] in objs and p[1] in _DETERMINERS else 0
        first = next((i for i, w in enumerate(p) if w in objs and i >= start), None)
        if first is None:
            return whole
        end = first
        while end < len(p) and p[end] in objs:
            end += 1
        spans.append((p[:first], p[first:end], p[end:]))
    out: list[list] = []
    kept: list[int] = []  # the spans that start a clause of their own
    own_words = [[w for w in pre + obj if w not in _ARTICLES] for pre, obj, post in spans]
    for k, (pre, obj, post) in enumerate(spans):
        own_verb = any(w not in _ARTICLES for w in pre)
        statement = bool({"is", "are"} & set(post))  # "the purse is on the desk": states, borrows no verb
        if not pre and k > 0 and not post and {"with", "using"} & set(out[-1][2]):
            # "wash your hands with soap and water": a bare noun goes on the tool phrase of the one
            # washing ("wipe the table with a rag and the chair" wipes both)
            out[-1][2] = out[-1][2] + ["and"] + obj
            continue
        kept.append(k)
        if not own_verb and k > 0 and not statement:
            pre = [w for w in out[-1][0] if w not in _ARTICLES] + pre
            if post:  # "the plate in the sink": the parts before that share the verb end the same way
                for prev in reversed(out):
                    if prev[2]:
                        break
                    prev[2] = list(post)
                    if prev[3]:  # the part that brought the verb: no further back
                        break
        out.append([pre, obj, post, own_verb or k == 0])
    texts = [" ".join(pre + obj + post) for pre, obj, post, _ in out]
    own_words = [own_words[i] for i in kept]
    for k in range(1, len(out)):  # "the lights in the bathroom and the bedroom": the same lights, there
        _, _, post, own = out[k]
        prev = texts[k - 1].split()
        if not own and not post and " ".join(own_words[k]) in _ROOMS and "in" in prev:
            at = len(prev) - 1 - prev[::-1].index("in")
            texts[k] = " ".join(prev[: at + 1] + ["the"] + own_words[k])
    return texts


__all__ = ["clauses"]
