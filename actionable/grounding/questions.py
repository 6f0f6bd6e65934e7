"""Spoken yes/no questions on a state, said as the one form the readers answer ("Is X STATE?").

People rarely ask "Is the TV on?". They say:

* what was done or left: "Has the stereo been left on?", "You've switched the office computer off,
  haven't you?", "Did you remember to turn the washing machine on?", "Did you leave the tap running
  in the kitchen?" -> "Is X on / off?"; "Is there any milk in the fridge?" -> "Is the milk in the fridge?";
* a negative statement with a tag: "The telly in here isn't on, is it?" -> "Is the telly in here off?";
* a statement with a tag or a rising "?": "Bedroom computer's switched off, yes?", "Kitchen light's
  switched on?" -> "Is the bedroom computer switched off?";
* what someone did: "Did they shut it properly?" -> "Is it closed?";
* "lit", "burning", "blaring", "playing" are "on": "Is the candle in the bedroom still lit?" -> "Is the
  candle in the bedroom still on?";
* where a thing is, with a tag: "The milk's in the fridge, right?" -> "Is the milk in the fridge?";
* "there is" with a tag: "there's soap on the bathroom counter, isn't there?" -> "Is a soap on the
  bathroom counter?";
* "has the dog got water in its bowl?", "is the bowl full of water?" -> "Is the bowl full?" (the
  adjective the readers answer; THOR's filled state).

:func:`as_asked` rewrites each sentence that is such a question and leaves every other sentence as
it was, so a command beside it ("..., if not switch it off") still makes the task a command.
The readers (:mod:`actionable.grounding.spoken`: ``state_question``, ``_YES_NO``) then answer it
from the state, Yes or No, and never act on it.
"""

from __future__ import annotations

import dataclasses
import re

from actionable.grounding.goal_reader import _OPPOSITE_WORD as OPPOSITE, split_verb, words
_STATE = r"(?P<st>switched on|switched off|turned on|turned off|plugged in|unplugged|on|off|open|closed|shut|running)"
_DETS = ("the", "a", "an", "my", "our", "your", "that", "this", "those", "these", "it", "they", "all", "both", "every")
#: a tag after a statement: ", is it", ", isn't it", ", yes", ", right", ", isn't there", ", surely"
_TAG = re.compile(r",?\s*(?:(?:is|isn't|is not|are|aren't|was|wasn't|did|didn't|has|hasn't|have|haven't) "
                  r"(?:it|they|there|he|she|you)"
                  r"|yes|right|surely|yeah|no|correct|i hope|hopefully)\s*$")
_SAID = re.compile(r"^(?P<s>.+?)(?:'s| is| are|'re|'s been| has been| have been|'ve been)(?P<neg> not|n't)? "
                   r"(?:still |already |properly |definitely |all |left )?"
                   + _STATE + r"(?: properly| now| still| already| again)?$")
_ISNT = re.compile(r"^(?P<s>.+?) (?:isn't|aren't|isnt|arent)(?: still| already)? " + _STATE + r"(?: now| still)?$")
#: "has the stereo been left on?", "have the lights been switched off?"
_BEEN = re.compile(r"^(?:has|have) (?P<s>.+?) been (?:left |switched |turned )?" + _STATE.replace("?P<st>", "?P<st2>")
                   + r"(?: all (?:day|night|morning|evening))?$")
#: "you've switched the office computer off", "did you leave the tap running": what the state is now
_YOU_DID = re.compile(r"^(?:you|they|someone|somebody|he|she)(?:'ve| have|'d| had)? (?:switched|turned|shut|closed|opened|"
                      r"unplugged|plugged in|left) (?P<s>.+?) (?P<st3>on|off|open|closed|shut|running|unplugged|plugged in)"
                      r"(?P<where> in (?:the|my) [a-z]+(?: [a-z]+)?)?$")
_WHO = r"(?:you|they|someone|somebody|anyone|anybody|i|we|he|she|the kids|the children|everyone|my [a-z]+)"
_LEFT_Q = re.compile(r"^(?:did " + _WHO + r" leave|(?:have|has) " + _WHO + r" (?:gone and )?(?:left|switched|turned)) "
                     r"(?P<s>.+?) (?P<st3>on|off|open|closed|running|plugged in|unplugged)"
                     r"(?P<where> in (?:the|my) [a-z]+(?: [a-z]+)?)?(?: again| all (?:day|night))?$")
#: "is there any milk in the fridge": is the milk there
_ANY_THERE = re.compile(r"^(?:is|are) there (?:any|a|an|some) (?P<s>[a-z]+(?: [a-z]+)?) (?P<p>in|on|inside|under) "
                        r"(?P<t>(?:the|a|an|my|our) .+)$")
_DID = re.compile(r"^did (?:they|you|he|she|someone|somebody|anyone|anybody|i|we|the kids|everyone) "
                  r"(?:remember to |manage to |forget to )?"
                  r"(?P<v>shut|close|open|turn off|switch off|turn on|switch on|unplug|plug in|turn|switch) "
                  r"(?P<s>.+?)(?: (?P<p>off|on|in))?(?: properly| all the way| fully| right| again| earlier| after)*$")
_DID_STATE = {"shut": "closed", "close": "closed", "open": "open", "turn off": "off", "switch off": "off",
              "turn on": "on", "switch on": "on", "unplug": "unplugged", "plug in": "plugged in"}
_THERE = re.compile(r"^there(?:'s| is| are) (?P<s>.+?) (?P<p>on|in|inside|on top of|under) (?P<t>(?:the|a|an|my|our) .+)$")
_FILLED = re.compile(r"^(?:has|have|does|do) (?P<s>.+?) (?:got|have|has) (?P<l>water|coffee|wine|milk) in "
                     r"(?:(?:its|their|his|her) (?P<y>[a-z]+(?: [a-z]+)?)|it|them)$")


#: everyday words for a thing that is on ("the candle is lit", "the telly is blaring")
_ON_WORD = re.compile(r"\b(?:lit|alight|burning|glowing|blaring|playing|booted up|powered on|powered up)$")
_SAID_WHERE = re.compile(r"^(?P<s>.+?)(?:'s| is| are|'re) (?:still |already |definitely |safely )?(?P<p>in|on|inside|on top of|"
                         r"under) (?P<t>(?:the|a|an|my|our) .+)$")
_FULL_OF = re.compile(r"^(?:is|are) (?P<s>.+?) (?:still )?(?:full of|filled with|filled up with) water$")


#: words that cannot begin the subject of a stated state ("could you hold the bag that's on ...")
_NOT_SUBJECT = re.compile(r"^(?:could|can|would|will|please|why|what|how|where|who|when|do|does|did|there|i|we|you|"
                          r"he|she|they|let|just|so)\b|\b(?:that|which|who|and|or|but|if|when)\b")


def _is_subject(s: str) -> bool:
    """Whether ``s`` can be the noun phrase a statement is about (at most six words, no clause)."""
    return len(s.split()) <= 6 and not _NOT_SUBJECT.search(s)


def _subject(s: str) -> str:
    """A subject said without its determiner ("bedroom computer") gets one ("the bedroom computer")."""
    return s if s.split()[0] in _DETS else f"the {s}"


def _sentence(q: str, asked: bool) -> str | None:
    """The canonical question for one sentence ``q`` (lower case, no end mark), or ``None``.
    ``asked``: the sentence ended with "?" (a rising statement is a question)."""
    tagged = _TAG.search(q)
    core = q[: tagged.start()].strip(" ,") if tagged else q
    if not (asked or tagged) or not core:
        return None
    core = re.sub(r" (?:properly|all the way|fully|completely)$", "", core)  # "is the tap turned off properly?"
    lit = _ON_WORD.sub("on", core)  # "is the candle still lit?", "the telly's blaring, isn't it?": on
    if lit != core or (lit != q and not tagged):
        if re.match(r"^(?:is|are) ", lit):
            return lit
        core = lit
    m = _BEEN.match(core)
    if m and asked and _is_subject(m.group("s")):
        return f"is {_subject(m.group('s'))} {m.group('st2')}"
    m = _LEFT_Q.match(core) if asked else None
    m = m or (_YOU_DID.match(core) if (asked or tagged) else None)
    if m and _is_subject(m.group("s")):
        state = {"running": "on"}.get(m.group("st3"), m.group("st3"))
        return f"is {_subject(m.group('s'))}{m.group('where') or ''} {state}"
    m = _ANY_THERE.match(core)
    if m and asked:
        return f"is the {m.group('s')} {m.group('p')} {m.group('t')}"
    m = _DID.match(core)
    if m and asked:
        v = m.group("v") + (f" {m.group('p')}" if m.group("v") in ("turn", "switch") and m.group("p") else "")
        state = _DID_STATE.get(v)
        return f"is {_subject(m.group('s'))} {state}" if state else None
    m = _FILLED.match(core)
    if m and asked:
        what = f"the {m.group('y')}" if m.group("y") else _subject(m.group("s"))  # "has the dog got water in its bowl"
        return f"is {what} full" if m.group("l") == "water" else f"is {what} filled with {m.group('l')}"
    m = _FULL_OF.match(core)
    if m and asked:  # "is the bowl full of water": full (the adjective the readers answer)
        return f"is {_subject(m.group('s'))} full"
    m = _THERE.match(core)
    if m and tagged and re.match(r"^(?:no|not|none)\b", m.group("s")):
        return None  # "there's no soap in the cabinet, is there?": a negated place, not read
    if m and tagged:
        head = re.sub(r"^(?:a|an|some|any|the) ", "", m.group("s"))  # a question's "the soap" is any soap
        return f"is the {head} {m.group('p')} {m.group('t')}"
    m = _SAID_WHERE.match(core)
    if m and _is_subject(m.group("s")):
        return f"is {_subject(m.group('s'))} {m.group('p')} {m.group('t')}"  # "the milk's in the fridge, right?"
    m = _ISNT.match(core)
    if m and _is_subject(m.group("s")):
        return f"is {_subject(m.group('s'))} {OPPOSITE[m.group('st')]}"
    m = _SAID.match(core)
    if m and _is_subject(m.group("s")):
        state = OPPOSITE[m.group('st')] if m.group("neg") else m.group('st')
        return f"is {_subject(m.group('s'))} {state}"
    return None


#: a yes/no question by its form ("Have I left the oven on?", "Did the kids ...?"), never a request
#: ("Can you ...?", "Would you mind ...?")
_ASKS = re.compile(r"^(?:have|has|had|did|does|do|is|are|was|were|isn't|aren't|hasn't|haven't|didn't|doesn't|don't|"
                   r"wasn't|weren't)\b(?! you mind\b)")


def only_asks(text: str) -> bool:
    """Whether the last sentence of ``text`` is a yes/no question by its form (an auxiliary first, a "?"
    at the end) and no sentence before it is a command: such a text asks, and must never be acted on
    even when no reader answers it ("Have I left the oven on?" had switched the oven on)."""
    parts = [p for p in re.split(r"(?<=[.?!])\s+", text.strip()) if p.strip()]
    if not parts or not parts[-1].rstrip().endswith("?"):
        return False
    before = [_clean(p) for p in parts[:-1]]
    if any(re.match(r"^(?:i|we) (?:want|need|would like|'d like)\b|^(?:please|make sure)\b", b)
           or split_verb(words(b))[0] is not None for b in before):
        return False  # "I want fresh air in the bedroom. Is the window open?": a wish, with its question
    return bool(_ASKS.match(_clean(parts[-1])))


def as_said(said: str, reading):
    """``reading`` (of the text :func:`as_asked` made of ``said``) with its task as said; a goal reading of
    a bare question (:func:`only_asks`) that no reader answered becomes "can't tell", so that a question is
    never acted on ("Have I left the oven on?" had switched the oven on)."""
    if only_asks(said) and reading.status == "goal" and not reading.question:
        return dataclasses.replace(reading, task=said, status="unclear", clauses=(), why=(
            "this is a question, and I can't tell which state it asks about, so nothing is done; ask about "
            "one state (e.g. 'Is the oven on?') or say what to do"))
    return dataclasses.replace(reading, task=said)


def _clean(body: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9',]", " ", body.lower().replace("\u2019", "'")).split())


def as_asked(text: str) -> str:
    """``text`` with every spoken state question in the form "Is X STATE?" (see the module doc);
    other sentences, and text with no such question, unchanged. A tag said as its own part ("The TV
    is off - isn't it?") belongs to the sentence before it."""
    pieces = re.split(r"([.?!]+(?=\s|$)|\s[-\u2013\u2014]+\s)", text)
    segs = [[pieces[k], pieces[k + 1] if k + 1 < len(pieces) else ""] for k in range(0, len(pieces), 2)]
    merged: list[list[str]] = []
    for body, end in segs:
        if merged and _TAG.fullmatch(_clean(body)) and _clean(body):
            merged[-1] = [merged[-1][0] + ", " + body.strip(), end]  # "... is off - isn't it?"
        else:
            merged.append([body, end])
    out, changed = [], False
    for body, end in merged:
        q = _clean(body)
        got = _sentence(q, "?" in end) if q else None
        if got is None:
            out.append(body + end)
        else:
            lead = body[: len(body) - len(body.lstrip())]
            out.append(lead + got[0].upper() + got[1:] + "?" + (" - " if "-" in end or "\u2013" in end else ""))
            changed = True
    return "".join(out).strip() if changed else text


__all__ = ["OPPOSITE", "as_asked", "as_said", "only_asks"]
