"""Everyday phrasings rewritten as the wording the goal grammar reads, one spoken part at a time.

Each entry of :data:`REPHRASE` is ``(pattern, replacement)`` over a lower-cased part with its
politeness removed (:func:`actionable.grounding.spoken.conversational` applies them in order):
"put the lid down on the bin" -> "close the bin", "give the mop a rinse" -> "rinse the mop", "carry
the laundry basket" -> "pick up the laundry basket", "power the laptop down" -> "turn off the laptop",
"I could murder a beer" -> "bring me a beer", "the telly is blaring" -> "turn off the telly", and so on
(each entry says what it reads). Split from ``spoken.py`` (7 Dec, twelfth session).
"""

from __future__ import annotations

import re

#: phrasings of a state verb the grammar reads ("put the lid down on the bin": close the bin; "pull its
#: plug out": unplug it), a time's possessive ("this week's post": the post), "two pairs of pyjamas",
#: "do the dishes" (wash them)
REPHRASE = ((re.compile(r"^(?:the|my|our) [a-z ]+? (?:is|are|s) (?:about to|going to|due to|set to) (?:start|begin|finish|end|"
                         r"arrive|kick off)(?: any minute| soon| now)?(?:,| and| so)+ (?=\w)"), ""),  # "the match is about to start and ..."
             (re.compile(r"\b(?:put|pull|shut|close|drop) (?:the |its )?lid (?:down )?(?:on |of )(?=\w)"), "close "),
             (re.compile(r"\bpull (?:out )?(its|the|their) plugs? (?:out )?(?:of (?=\w))?"), r"unplug it "),
             (re.compile(r"\b(?:this|last|next) (?:week|month|weekend|morning|evening|year)'?s? (?=\w)"), ""),
             (re.compile(r"\b(?:today|tonight|yesterday|tomorrow)'?s (?=\w)"), ""),
             (re.compile(r"\b(two|three|four|five|both|all|my|the|those|these) pairs of (?=\w)"), r"\1 "),
             # "a set of keys", "a bunch of bananas": the things, not a class "set"
             (re.compile(r"\b(?:a|an|the|my|that|this|one) (?:set|bunch|pile|stack|handful) of (?=\w)"), "the "),
             # "bits of ice", "every piece of it": the stuff itself, all of it
             (re.compile(r"\b(?:every|each) (?:piece|bit|lump|chunk|one) of (it|them)\b"), r"all of \1"),
             (re.compile(r"(^|\b(?:the|some|those|these|all|all the|any|there are|there were|there s) )(?:bits|pieces|lumps|chunks) of (?=\w)"), r"\1"),
             # "give the mop a rinse", "give it a good wash": the verb of the noun
             (re.compile(r"^give (.+?) an? (?:good |quick |proper |little )?(wash|rinse|scrub|wipe|clean|wipe down)$"), r"\2 \1"),
             # "flip open the address book", "push the drawer shut": the state verb
             (re.compile(r"^(?:flip|pull|push|prise|prize|pry|pop|swing|fling|throw) open (?=\w)"), "open "),
             (re.compile(r"^(?:push|pull|slam|kick|swing|nudge|flip|pop|fold|snap|click|bang) (?:shut|closed) (?=\w)"), "close "),
             (re.compile(r"^(?:push|pull|slam|kick|swing|nudge|flip|pop|fold|snap|click|bang) (.+?) (?:shut|closed)(?=$| and | then )"),
              r"close \1"),
             (re.compile(r"^do (?:the |all the )?(dishes|washing up|washing-up)$"), "wash the dishes"),
             # "carry the laundry basket (from the dining room)": carrying with no destination is holding it
             (re.compile(r"^(?:carry|lug|cart) (?!.*\b(?:to|into|onto|in|on|inside|over|here|there|upstairs|downstairs)\b "
                         r"(?!.*\bfrom\b))(.+)$"), r"pick up \1"),
             # "..., leave the other alone", "leave the bedroom one, it's fine": nothing to do to that one
             (re.compile(r"(?:,| and| but)+ leave (?:the other(?: one)?|the [a-z]+ one|that one|the rest|the others) "
                         r"(?:alone|as (?:it is|they are)|be)$"), ""),
             (re.compile(r"^(?:but )?leave (?:the other(?: one)?|the [a-z]+ one|that one|the rest|the others)"
                         r"(?: alone| as (?:it is|they are)| be)?$"), ""),
             # "rinse it out", "wash the mug out": the cleaning verb ("out" is no place)
             (re.compile(r"^(rinse|wash|clean|wipe|scrub) (.+?) out$"), r"\1 \2"),
             # "light a candle": switch it on; "on the side of the bath": on the bath
             (re.compile(r"^light (the|a|an|my|some|all the|every) (candles?|lamps?|lanterns?)\b"), r"turn on \1 \2"),
             (re.compile(r"\bthe (?:side|edge|rim|corner) of the (bath|tub|bathtub|sink|basin|table|counter|desk)\b"), r"the \1"),
             # "grab a remote off the sofa and hang on to it": holding is the end state already
             (re.compile(r" and (?:then )?(?:hang on to|hold on to|hold onto|hang onto|keep hold of) (?:it|them)$"), ""),
             # "power the laptop down", "shut down the computer": off; "power it up": on
             (re.compile(r"^(?:power|shut) down (.+)$"), r"turn off \1"),
             (re.compile(r"^(?:power|shut) (.+?) (?:down|off)$"), r"turn off \1"),
             (re.compile(r"^power (.+?) (?:up|on)$"), r"turn on \1"),
             (re.compile(r"^power up (.+)$"), r"turn on \1"),
             # "get the toaster going": on
             (re.compile(r"\b(?:get|set|start) ((?:the|my|a|an|that|this|our) [a-z ]+?) (?:going|running|on the go)\b"),
              r"turn on \1"),
             # "the second one" (of two): the other one
             (re.compile(r"\bthe second (one|[a-z]+)\b"), r"the other \1"),
             # "... in the sink to soak": the reason for the place asks nothing more
             (re.compile(r" to (?:soak|dry|dry off|drain|air|air out|cool|cool down|defrost|thaw|warm up|charge|rest)$"), ""),
             # "gather the lot into the box": all of them
             (re.compile(r"\bthe lot\b"), "all of them"),
             # "my office desk has a letter on it": there is a letter on it (for the "it" that follows)
             (re.compile(r"^((?:the|my|our) [a-z ]+?) (?:has|have|has got|s got|ve got) (an?|some|the) ([a-z ]+?) (on|in) "
                         r"(?:it|them)$"), r"there is \2 \3 \4 \1"),
             # "the telly in the dining room is blaring": off (the volume has no state)
             (re.compile(r"^(?:.* and )?((?:the|my|that|this) (?!music|noise|sound|volume|racket)[a-z ]+?) (?:is|are|s) "
                         r"(?:blaring|deafening|too loud|so loud|"
                         r"way too loud|really loud|going full blast|on full blast)$"), r"turn off \1"),
             # "I can't see a thing in here": a light on
             (re.compile(r"^i can'?t see (?:a thing|anything|a thing in here|anything in here)$"), "turn on the light"),
             # "every pair I own", "each one we have": all of them (the class said before)
             (re.compile(r"\b(?:every|each|all the) (?:pair|one|set|single one)s? (?:of them )?(?:that )?(?:i|we) "
                         r"(?:own|have|'ve got|have got)\b"), "all of them"),
             # "scrub the mud off my shoes", "wipe the crumbs off the table": clean the thing
             (re.compile(r"^(wash|scrub|wipe|rinse|clean|brush) (?:the |all the |some )?(?:mud|dirt|dust|grease|grime|muck|"
                         r"crumbs|stains?|gunk|marks?|splashes|food) (?:off|from) (?:of )?(.+)$"), r"\1 \2"),
             # "I could murder a beer", "I could do with a coffee": the speaker wants one
             (re.compile(r"^(?:i|we) (?:could|would) (?:murder|kill for|really go|go|do with|use) (an?|some) (.+)$"),
              r"bring me \1 \2"))


def rephrase(q: str) -> str:
    """``q`` with every :data:`REPHRASE` rewrite applied in order (and stripped)."""
    for pat, rep in REPHRASE:
        q = pat.sub(rep, q).strip()
    return q


__all__ = ["REPHRASE", "rephrase"]
