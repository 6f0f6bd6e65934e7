"""What people say around a command, rewritten as the commands the goal grammar reads.

The goal grammar (:mod:`actionable.grounding.goal_reader`) reads a clause that starts with a verb
phrase. People wrap their commands: politeness ("Could you ...?"), asides and reasons ("nobody is
watching it"), statements before "it" ("I could hear the bedroom computer humming. Power it off."),
questions ("Is the TV still on?"), exceptions ("..., but leave the lamps on"), wished states ("make
sure the TV is off"), the order said with "before" / "after", and spoken shapes of placements
("the sponge goes in the sink", "take the pot off the oven"). :func:`prepare` rewrites a task into
commands before a world reads it (:func:`conversational`, :func:`state_request`,
:func:`checked_request`, :func:`polite`); :func:`state_question` and :func:`answer_question` answer
a question on a state instead of acting on it (:func:`adjective_question` reads one said with an
adjective of the world's lexicon, "Is the plate dirty?"). Both worlds' readers use this module.
"""

from __future__ import annotations

import re

from actionable.grounding.corrections import (_ROOM_NAMES, both_of_them, contrast, in_there, self_correction, verbless,
                                              with_inside)
from actionable.grounding.rephrase import rephrase
from actionable.grounding.goal_reader import (  # noqa: F401  (names the rewrites share with the grammar)
    _DETERMINERS, _KEEP_WORD, _ONE_WORD_VERBS, _OPPOSITE_WORD, _PREPS, _STATE_PART, _STATE_VERB, _WANT,
    has_verb, negation_refusal, split_verb, words, _split_prep)

_IF_NOT = re.compile(r"^(?:please )?(?:is|are) (.+?) (?:still )?(on|off|open|closed|clean|plugged in|unplugged|"
                     r"switched on|switched off|turned on|turned off|shut) if (?:not|it is not|it isn't|it's not|"
                     r"they are not|they aren't|they're not|no)(?: then)? (?:please )?(.+)$")


def checked_request(text: str) -> str:
    """ "Is the stove off? If not, switch it off" -> "make sure the stove is off": a yes/no question
    on a state followed by "if not, <do it>" asks for that state (whatever the second part's
    wording); other text unchanged."""
    m = _IF_NOT.match(" ".join(words(text)))
    return f"make sure {m.group(1)} is {m.group(2)}" if m else text


#: sentence ends and dashes between the parts of a spoken request ("The TV is on - switch it off")
_SENTENCES = re.compile(r"(?:[.?!]+(?=\s|$)|\s[-\u2013\u2014]+\s)")
#: a part that says how the user feels or why, naming nothing to do ("no one's watching it", "I need
#: to write something down", "they've been on all morning", "it's raining")
_CHATTER = re.compile(r"^(?:no one|nobody|no-one|i|we|they|it|he|she|there|that|this)(?:'s|'re|'ve|'m|'d|'ll| is| are| was|"
                      r"| were| has| have| had| am| need to| want to| will| would| keep| just| always| never)?\b")
_LEFT = re.compile(r"^(?:someone|somebody|you|i|we|they|he|she)(?: has| have|'s|'ve)? left (.+?) "
                   r"(on|off|open|running|burning|lit)\b(.*)$")
_DONT_LEAVE = re.compile(r"^(?:don'?t|do not|never) leave (.+?) (on|open|running|burning|plugged in)$")
#: "leave the fridge open": the state itself, as its verb (not "leave the mug on the table")
_LEAVE = re.compile(r"^leave (.+?) (on|off|open|closed|shut|running|plugged in|unplugged)(?P<where> (?:in|inside|at) .+)?$")
#: "take it to the kitchen and put it in the cupboard": the room is on the way to the placement that follows
_VIA_ROOM = re.compile(r"\b(?:take|bring|carry) (it|them|(?:the|my|our|a|an|some) [a-z]+(?: [a-z]+)?) (?:to|into) (?:the )?"
                       r"(kitchen|bathroom|bedroom|(?:home )?office|living room|dining room|hallway)(?:,|;| and| then)+ "
                       r"((?:put|place|set|store|leave|hang)) (?:it|them)\b([^,]*)")
#: where the things said before are, one by one ("ice is melting - one on the office table, one in
#: the sink"): asks for nothing
_WHERE_ONE = re.compile(r"(?:and )?(?:one|another|some|a few|two|three|the other|others?) (?:is |are )?"
                        r"(?:on|in|inside|under|by|next to|on top of|behind) (?:the|my|a|our|your) [a-z' ]+")
#: a part that is only an interjection
_INTERJECTION = re.compile(r"(?:(?:ugh|ew|eww|oh|ooh|hey|ok|okay|right|well|um|hmm|wow|oops|argh|yikes|gosh|phew|"
                           r"yeah|great|damn|dang|god|man|sigh|honestly|seriously|so)\b ?)+")
#: a cleaning verb with its result after the object ("scrub it clean", "wipe the table down")
_RESULT = re.compile(r"^((?:wash|scrub|wipe|rinse|clean|dry) (?:(?!\b(?:and|then)\b)[^,;.])+?) "
                     r"(?:clean|down|off|properly|thoroughly|well|up)+$")  # (one clause: "... and then lie down" keeps it)
#: throwing away is putting in the bin ("throw away the milk from the fridge" was read as a placement
#: into the fridge)
_DISCARD = ((re.compile(r"^(?:throw away|throw out|chuck out|chuck away|toss out|bin|dispose of|get rid of|discard) (.+)$"),
             r"put \1 in the bin"),
            (re.compile(r"^(?:throw|toss|chuck) (.+?) (?:away|out)$"), r"put \1 in the bin"))
#: "take the pot off the oven": the pot on the oven, not one in it ("off" read as "from")
_OFF_OF = re.compile(r"^((?:take|get|lift|grab|pick up|fetch)) ((?:the|my|a|that|this) [a-z]+(?: [a-z]+)?) off (?:of )?((?:the|my) .+)$")

#: a comma part that only says when ("after dinner", "tonight", "first thing tomorrow")
_TIME_PART = re.compile(r"(?:after|before|during|by|at|later|tonight|tomorrow|first thing|this|in the)(?: [a-z']+){0,3}")
#: a time clause of its own ("once it's in", "when you're done"): the order the commands already give
_WHEN = re.compile(r"^(?:once|when|after|as soon as|whenever) (?:it|they|you|i|we|that|this)(?:'s|'re|'m| is| are| has| have)?\b")
#: the room a speaker's aside names ("I'm loading laundry in the office")
_SPEAKER_ROOM = re.compile(r"\b(?:in|into) (?:the |my |our )?(" + _ROOM_NAMES + r")\b")
#: "get the washer open", "keep the window open", "get the second one on as well": the state, as its verb
_GET_STATE = re.compile(r"^(?:get|keep|make|have) (?!sure\b|certain\b)(.+?) (on|off|open|closed|shut|running|plugged in|unplugged)"
                        r"(?: as well| too| again| now| please)*$")
_GET_DOING = re.compile(r"^(?:get|set) (.+?) ([a-z]+?)(?:ing)\b((?: (?:in|on|at|for|now|again|please)\b.*)?)$")
_NEEDS = re.compile(r"^(.+?) (?:needs|need|could use|wants) (?:a |some )?(wash|washing|clean|cleaning|wipe|wiping|scrub)"
                    r"(?: down)?$")
_GOES = re.compile(r"^(.+?) (?:(?:should |must |has to |have to |needs to |need to |ought to )?(?:goes|go|belongs|belong|lives|live)|"
                   r"(?P<wish>should|must|has to|have to|needs to|need to|ought to) (?:be|stay|end up)(?: put)?)"
                   r"(?: back)? (in|into|on|inside|onto) (.+?)(?:,? not (?:just |simply |left |piled |sitting |lying |"
                   r"stacked |dumped )?(?:in|on|into|on top of|onto) .+)?$")
#: "I need the butter knife": the object fetched (not "I want a cold apple": a state word asks for more)
_I_NEED = re.compile(r"^i need (the|a|an|my|some|one|that|this|those|these) (?!.*\b(?:to be|is|are|cold|hot|warm|chilled|cooked|clean|"
                     r"fresh|toasted|sliced|heated|boiled|fried|washed|dry|wet|full|empty|filled)\b)(.+)$")
_TRAILING_CHATTER = re.compile(r"\s*,\s*(?:(?:they|it|he|she|no one|nobody)(?:'ve|'re|'s| have| are| is| was| were| has)|"
                               r"(?:everyone|everybody|the kids|the guests|my (?:wife|husband|partner|mum|dad|son|daughter))"
                               r"(?:'s|'re| wants?| needs?| is| are| will| has| have| likes?)|"
                               r"(?:i|we)(?:'ll|'m|'re|'ve| will| am| are| have| can))\b[^,]*$")
_STATE_WORD = (r"(on|off|open|closed|shut|clean|running|plugged in|unplugged|switched on|switched off|turned on|"
               r"turned off)")
#: the subject of a state said or asked about ("the light", "my laptop", "it", "all the lights")
_SUBJECT = r"((?:the|my|our|your|that|this|those|these|it|they|them|all|both|every)\b.*?)"
_STATE_END = r" (?:still |already )?" + _STATE_WORD + r"(?: now| yet| already| still)?$"
_STATED_SUBJECT = _SUBJECT.replace("|them|all|both|every", "")  # a statement's subject
#: "is the window open", "are the lights still on": a yes/no question on a state, read as the wish
#: that it holds (nothing to do when it does); "did somebody leave the toaster on" stays a question
_YES_NO = re.compile(r"^(?:is|are) " + _SUBJECT + _STATE_END)
#: "is the mug in the sink", "are the apples still in the fridge": a yes/no question on where a
#: thing is, read as the wish that it is there (nothing to do when it is; "No" when it is not)
_YES_NO_WHERE = re.compile(r"^(?:is|are) " + _SUBJECT + r" (?:still |already )?(in|on|inside|on top of|under) "
                           r"((?:the|a|an|my|our|your) .+)$")


def _where_question(q: str):
    """:data:`_YES_NO_WHERE`'s match, unless its subject ends in a state ("is the light on in the
    bedroom" asks for a state, not for where the light is)."""
    m = _YES_NO_WHERE.match(q)
    if m and re.fullmatch(_STATE_WORD, m.group(1).split()[-1]):
        return None
    return m


#: "the light is on, isn't it": a tag question after a state statement
_TAG = re.compile(r"^(?:isn't|aren't|is|are|wasn't) (?:it|they|he|she)(?: not)?$|^right$|^yes$|^surely$")
_STATED = re.compile(r"^" + _STATED_SUBJECT + r" (?:is|are)" + _STATE_END.replace("| yet", ""))
#: "the alarm clock has to be plugged in": a wished state ("make sure ...")
_MUST_BE = re.compile(r"^(.+?) (?:has to|have to|must|needs to|need to|should|ought to) (?:be|stay|remain) (?:kept )?"
                      + _STATE_WORD + r"$")
#: "can you check", "check please", "make sure": asks that the statement before it holds
_CHECK_WORDS = (r"^(?:(?:can|could|would|will) you )?(?:please )?(?:check|double check|see{})"
                r"(?: (?:that|it|them|all|all of them|every one|each one|for me|please{}))*$")
_CHECK = re.compile(_CHECK_WORDS.format("|make sure", "|on (?:it|that)"))
#: the same, as a question only ("make sure" asks for the state)
_ASK_CHECK = re.compile(_CHECK_WORDS.format("", ""))
#: "in the house", "around the flat", "everywhere": the whole scene, which names no place
_WHOLE_HOME = re.compile(r"\s+(?:(?:in|around|throughout|all over) (?:the|this|my|our|your) (?:whole |entire )?"
                         r"(?:house|home|flat|apartment|place)(?! office)|everywhere|in here|in this room)\b")
#: "set the cups out on the table", "lay the plates out on the counter": a placement
_SET_OUT = re.compile(r"^(?:set|lay|put|leave|stand) (.+?) out (on|onto|in|into) ")
#: "get the shakers (all) out of the microwave and onto the counter": where they end, not holding them
_OUT_AND_ONTO = re.compile(r"^(?:get|take|bring|pull|fish|lift) (.+?) out(?P<src> of (?:the |my |a )?[a-z ]+?)? and "
                           r"(onto|on|into|in|inside) (.+)$")  # (", and put it on ...": two commands, read as such)


def _out_and_onto(m) -> str:
    """"take the apple out of the fridge and onto the counter" -> "put the apple that is in the fridge
    on the counter" (the source still picks the instance)."""
    src = m.group("src")
    what = m.group(1) + (f" that is in {src[4:]}" if src and m.group(1) not in ("it", "them", "them all") else "")
    return f"put {what} {m.group(3)} {m.group(4)}"


def _any_one(subject: str) -> str:
    """A question's "the TV" is any TV ("is the TV on?" is yes when one is): "a tv"; plurals and
    other determiners unchanged."""
    ws = subject.split()
    cut = next((i for i, w in enumerate(ws) if i > 1 and w in ("in", "on", "at", "from", "of", "near", "by")), len(ws))
    head = ws[cut - 1] if cut else ""
    if ws[:1] == ["the"] and len(ws) > 1 and not (head.endswith("s") and not head.endswith("ss")):
        return " ".join(["a"] + ws[1:])
    return subject


def state_question(text: str) -> bool:
    """Whether ``text`` only asks whether a state holds ("Is the TV still on?", "The fridge is
    closed, right?", "The light's on, isn't it? Can you check?"), with no command or wish beside it
    ("Is the stove off? If not, switch it off" and "the alarm clock has to be plugged in, can you
    check?" ask for the state). Such a question is answered, never acted on: the worlds read it as
    the state and say "No" when it does not hold (:func:`answer_question`)."""
    raw = re.split(r"[.?!,;]+|\s[-\u2013\u2014]+\s", text.lower())
    parts = []
    for p in raw:
        q = " ".join(re.sub(r"[^a-z0-9']", " ", p.replace("_", " ")).split())
        q = _IS_CONTRACTED.sub(r"\1 is \2", polite(q).strip()) if q else q
        if q:
            parts.append(q)
    asked = False
    for i, q in enumerate(parts):
        if _YES_NO.match(q) or _where_question(q) or (
                (_TAG.match(q) or _ASK_CHECK.match(q)) and i and _STATED.match(parts[i - 1])):
            asked = True
        elif (split_verb(words(q))[0] is not None or _WANT.match(q) or _MUST_BE.match(q) or re.match(r"^if\b", q)) \
                and not _STATED.match(q):
            return False  # a command, a wish or "if not, ..." beside the question: it asks for the state
    return asked


def answer_question(task: str, reading):
    """``reading`` marked as a question (:attr:`~actionable.core.conditions.GoalReading.question`)
    when ``task`` is a state question (:func:`state_question`): answered Yes or No from the state by
    the planner (:func:`~actionable.planning.pipeline.plan_task`), never acted on; ``reading``
    unchanged otherwise."""
    import dataclasses

    if not (reading.is_goal and state_question(task)):
        return reading
    return dataclasses.replace(reading, question=True)


def as_command(task: str) -> str:
    """A state question said as the command that would make it so ("Is the TV on?" -> "turn on the
    tv"), for the hint after a "No" answer; ``None`` when no command makes it ("Is the plate dirty?")."""
    command = state_request(conversational(checked_request(polite(task))))
    ok = command != task and split_verb(words(command))[0] is not None
    return command.replace(" a ", " the ") if ok else None


#: "is the plate dirty", "are the mugs still full": a yes/no question on a state said by an adjective
#: (checked against the world's lexicon: :func:`adjective_question`)
_YES_NO_ADJ = re.compile(r"^(?:is|are) " + _SUBJECT + r" (?:still |already |now )?([a-z]+)(?: now| yet| still)?$")


def adjective_question(task: str, lex, clause):
    """A yes/no question on a state the world's lexicon names by an adjective that no command of
    the grammar makes ("Is the plate dirty?", "Are the mugs empty?", "is the bread sliced"), read as
    that state, marked as a question; ``None`` for any other text.

    Args:
        task: the text. lex: the world's :class:`~actionable.grounding.goal_reader.Lexicon` (its
            ``adjective(word) -> (state, negate) | None`` names the state).
        clause: ``options -> Clause`` of the world (its readable text).

    Returns:
        a :class:`~actionable.core.conditions.GoalReading` with ``question=True``: "the plate" is any
        plate (one clause, an option per instance), a plural or "all" every one (a clause each); or
        ``None``.
    """
    from actionable.core.conditions import Condition, GoalReading
    from actionable.grounding.goal_reader import Selector, select

    q = " ".join(re.sub(r"[^a-z0-9']", " ", polite(task.lower()).replace("_", " ")).split())
    q = _IS_CONTRACTED.sub(r"\1 is \2", q)
    m = _YES_NO_ADJ.match(q)
    if not m or re.fullmatch(_STATE_WORD, m.group(2)):
        return None  # a state a command makes ("is the tv on"): the grammar reads it
    adj = lex.adjective(m.group(2))
    sel = select(words(m.group(1)), lex, []) if adj is not None else None
    if not isinstance(sel, Selector) or not sel.ids:
        return None
    state, negate = adj
    opts = [Condition("state", i, state, negate=negate) for i in sel.ids]
    clauses = tuple(clause([o]) for o in opts) if sel.quantifier == "all" else (clause(opts),)
    return GoalReading(task, clauses, question=True,
                       notes=[f"'{m.group(2)}' is read as the state {state}" + (" not holding" if negate else "")])


#: "..., but leave the lamps on", "and keep the one on the table running": a second command whose
#: state is kept where it holds and never made to hold (marked "still")
_KEPT_PART = re.compile(r",? (?:but (?:please )?|and )(?=(?:keep|leave) )")
#: "..., but make sure the door is shut": a second command
_BUT_ALSO = re.compile(r",? but (?:please )?(?=(?:make sure|also|then)\b)")
#: "the fridge door", "the washing machine's door": the appliance itself (its door is how it opens)
_APPLIANCE_DOOR = re.compile(r"\b(fridge|refrigerator|freezer|microwave|oven|dishwasher|washer|washing machine|dryer|"
                             r"cabinet|cupboard|closet|wardrobe|safe)(?:'s)? doors?\b")
#: "the tv's off": the contraction of "is" before a state word
_IS_CONTRACTED = re.compile(r"\b([a-z]+)'s (on|off|open|closed|shut|running|dirty|clean|empty|full|still|already)\b")
#: "go grab the mug", "come stretch out on the sofa": the errand's verb is the command
_GO_AND = re.compile(r"^(?:go|come|run) (?:and )?(?=\w)")
#: "bring it here", "fetch the form over to me": the speaker holds it in the end (a hold, not a placement)
_TO_SPEAKER = re.compile(r"^(bring|fetch|carry|get|hand|pass|give) (.+?) (?:over )?(?:here|to me|over here|over to me|back here)$")
#: "later on", "from now on": a time; the "on" is no state
_LATER_ON = re.compile(r"\b(later|from now|from then|and so) on\b", re.I)
#: an aside about how something nameless is ("..., the fumes are awful"): asks for nothing
_AWFUL = re.compile(r"^(?:the |this |that |these |those )?[a-z' ]+? (?:is|are|was|were|'s|'re) (?:so |really |just |too |way too |"
                    r"absolutely |pretty )?(?:awful|terrible|horrible|unbearable|disgusting|gross|bad|strong|overpowering|"
                    r"too much|killing me|getting to me)$")
#: "... if it's open", "... if they are on": a condition that leaves the command's end state as it is
_IF_SO = re.compile(r"(?<=\w)\s+if (?:it|they|that|so)(?:'s|'re| is| are| s)? ?(?:still |already )?"
                    r"(?:open|on|off|closed|shut|running|plugged in|unplugged|dirty|clean|there|needed|necessary)$")
#: words at the end of a command that ask nothing more ("... on instead", "... on as well")
_ALSO_END = re.compile(r"(?<=\w)\s+(?:instead|as well|too|also|again|properly|fully|completely|all the way)$")
#: a hedged count said aside ("..., three of them I think, gather them ..."): it asks for nothing
_COUNT = r"(?:a couple|a few|a dozen|two|three|four|five|six|seven|eight|nine|ten|\d+)(?: of them)?"
_HEDGE = r"(?: i think| i reckon| i guess| i believe| maybe| probably| or so| at least| or more)"
_COUNT_ASIDE = re.compile(r"(?:(?:there are |there's |there is )?(?:about|maybe|roughly|around|probably) " + _COUNT + _HEDGE
                          + r"*|(?:there are |there's |there is )?" + _COUNT + _HEDGE + r"+)")
#: a part that is only a state word after a part that names the thing ("the stereo is way too loud. off!")
_BARE_STATE = {"off": "turn it off", "on": "turn it on", "open": "open it", "shut": "close it", "closed": "close it"}
#: a part that is only a place (one to three words) after a statement about a thing ("... fridge, please")
_BARE_PLACE = re.compile(r"(?:(?:in|into|on|onto|to) )?(?:the )?(?!(?:on|off|open|closed|shut|out|up|down|away|back|now)\b)[a-z]+"
                         r"(?: (?!(?:on|off|open|closed|shut|out|up|down|away|back|now)\b)[a-z]+){0,2}")
#: what the speaker is about to do ("washing my hands in a sec", "heading downstairs in a moment"): asks nothing
_DOING_SOON = re.compile(r"[a-z]+ing\b[a-z' ]*?\b(?:in a (?:sec|second|moment|minute|bit|jiffy|tick)|"
                         r"in (?:two|five|ten|a few|a couple of) minutes|soon|shortly)")
#: how a thing came to be where it is, said as where it is ("has ended up in", "has rolled under")
_ENDED_UP = re.compile(r"(?:'s\s+|\s+(?:has |have |had |'s |'ve |is |are |was |were )?)(?:somehow )?(?:ended up|wound up|landed|fallen|"
                       r"fell|rolled|been left|been dumped|been shoved|found its way|got|gotten|shut away|tucked away|"
                       r"stashed away|hidden away|put away|stuck|got left|been put|got put|got dumped|left lying|"
                       r"left sitting|left out|slipped|slid|dropped)(?: again)? (?:down )?(?:the (?:back|side) of |between )?"
                       r"(in|on|inside|under|behind|into|onto|the) ")
#: an occasion said before the request ("board game night tonight", "party on saturday"): asks nothing
_EVENT_SOON = re.compile(r"[a-z' ]+ (?:night|party|day|dinner|lunch|time|match|game)(?: is)? (?:tonight|tomorrow|today|"
                         r"this evening|this weekend|later|on (?:mon|tues|wednes|thurs|fri|satur|sun)day)")
#: an aside about the light in a room ("it's dark in the bedroom"): the room is the light's
_DARK = re.compile(r"\b(?:dark|gloomy|dim|bright|pitch black)\b")
#: an aside of surprise ("..., of all places", "of all things")
_OF_ALL = re.compile(r",?\s*of all (?:places|things|people|days|times|nights|rooms)\b", re.I)
_VAGUE = re.compile(r"^(?:move|do|fix|sort|handle|deal with) (?:it|that|this|them)(?: out| please| now)?$")
_PURPOSE = re.compile(r"\s+(?:where (?:it|they|he|she) (?:lives?|belongs?|goes|go|is kept|are kept|should be)\b.*|"
                      r"(?:or|otherwise|while|because|since|as|until|before) (?:else )?(?:i|we|you|they|he|she|everyone)(?:'ll|'m|'re|'ve|'d)?\b.*|"
                      r"by (?:then|tonight|tomorrow|the morning|the evening|eight|nine|ten|noon|later)\b.*|"
                      r"(?:just )?to (?:check|see|test|find out|make sure) (?:if |whether |that |how )?(?:it|they|the|that|this|i|we|you|he|she)\b.*|"
                      r"so (?:that )?(?:i|we|you|they|he|she|it|everyone)\b.*|for (?:later|now|tonight|tomorrow|the week|the day|the weekend|a bit|a while|a minute|a moment|a second|"
                      r"(?:a |an |the |my |our )?(?:\w+ )?(?:dinner|lunch|breakfast|party|date|guests))\b.*)$")


#: "before / after [you've]": the order word and who does the other part
_ORDER_WORD = (r"(?:right |just |only )?(before|after|once|as soon as) (?:(?:you|i|we)(?:'ve|'re|'m)? )?"
               r"(?:(?:have|are|am) )?")
_ORDER_LEAD = re.compile(r"^" + _ORDER_WORD + r"(.+?), (?:(?:and )?then )?(.+)$")
_ORDER_TAIL = re.compile(r"^(.+?),? " + _ORDER_WORD + r"(.+)$")
#: "put the pillow in the bedroom on the bed": the room picks the pillow, the bed is the target
_ROOM_THEN_TARGET = re.compile(r"^(put|place|move|set|lay|stand|hang) (.+?) (?:in|from) ((?:the |my |our )?"
                               + _ROOM_NAMES + r") (on|onto|in|into|on top of|inside) (.+)$")
#: "move the plate from the table into the sink": the source, then the target (read with "to")
_FROM_INTO = re.compile(r"^((?:move|take|carry|bring|put|transfer|shift) (?:(?! and | then ).)+? from (?:(?! and | then ).)+?) "
                        r"(?:into|onto|in|on|on top of|inside) ((?:the|my|our|a|an) (?:(?! and | then ).)+)$")
#: "turn off every light except the one in the bedroom": the exception left as it is ("but leave ... on")
_EXCEPT = re.compile(r"^(turn off|switch off|turn on|switch on|open|close|shut) ((?:all|every|each|both) (?:of )?(?:the )?.+?)"
                     r",? (?:except(?: for)?|but not|apart from|other than|save for) "
                     r"((?!.*\b(?:by|near|beside|next to|behind)\b).+)$")  # a place the worlds do not record: refused
#: "every plate except one", "all the cups but two": every instance but that many (a count)
_ALL_BUT = re.compile(r"\b(?:every|each|all(?: of)?(?: the)?) ([a-z]+(?: [a-z]+)?) (?:except|but|apart from|other than|save) "
                      r"(one|two|three)\b")
_KEEP_AS_IS = {"turn off": "on", "switch off": "on", "turn on": "off", "switch on": "off", "open": "closed",
               "close": "open", "shut": "open"}
_CYCLE = re.compile(r"^(turn|switch|flip|flick|power) (.+?) (on|off) and (?:then )?(?:back )?(on|off)(?: again)?$")


def _stems(g: str) -> list[str]:
    """The verbs a word stripped of "-ing" / "-ed" may be: ``putt`` -> put, ``clos`` -> close,
    ``open`` -> open."""
    return [g, g + "e"] + ([g[:-1]] if len(g) > 2 and g[-1] == g[-2] else [])


def _as_command(part: str) -> str | None:
    """``part`` ("putting the milk in it", "you grab the milk") as a command ("put the milk in
    it"), or ``None`` when it does not start with a verb ("dinner")."""
    ws = part.split()
    if not ws:
        return None
    if split_verb(words(part))[0] is not None:  # "switch on the tv": a verb phrase as it stands
        return part
    first = ws[0]
    stems = [first] + [x for end in ("ing", "ed")  # "turned off the light", "putting the milk in it"
                       if first.endswith(end) and len(first) > len(end) + 1 for x in _stems(first[: -len(end)])]
    for verb in stems:
        out = " ".join([verb, *ws[1:]])
        if split_verb(words(out))[0] is not None:
            return out
    return None


def _object_of(command: str) -> str | None:
    """The object phrase of ``command`` ("close the fridge" -> "the fridge"), up to a preposition."""
    _, rest = split_verb(words(command))
    obj, _, _ = _split_prep(rest)
    return " ".join(obj) if obj and obj[0] in _DETERMINERS | {"my", "our"} and obj != ["it"] else None


def in_order(q: str) -> str:
    """A part whose order is said with "before" / "after" as commands in the order they are done:
    "close the fridge after putting the milk in it" -> "put the milk in the fridge, then close the
    fridge"; "before you sit on the sofa, turn on the tv" -> "turn on the tv, then sit on the sofa";
    "it" in the part moved first is the other part's object. A time ("before bed, ...", "... after
    dinner") is dropped: it asks for nothing. And a switch cycle in one part, "turn the tv on and off" -> "turn on the tv and then turn it
    off" (then read as any later part that reverses a state: only the end state is planned)."""
    # "first open the fridge, then ...", "..., and afterwards close it": the order is the parts' own
    q = re.sub(r"^(?:first|firstly|first of all|next|finally|afterwards|after that|and afterwards|and after that),? ", "", q)
    # "... and open the other", "one cup in the sink and the other on the table": the other one
    q = re.sub(r"\bthe other(?=$| (?:on|in|into|onto|to|off|back)\b)", "the other one", q)
    q = re.sub(r"\bthe (?:rim|edge|side|lip|top|end|corner) of (?=(?:the|my|our|a) )", "", q)  # "the rim of the bathtub"
    m = _ROOM_THEN_TARGET.match(q)
    if m:
        q = f"{m.group(1)} {m.group(2)} that {'is' if m.group(2).split()[-1][-1:] != 's' else 'are'} in {m.group(3)} " \
            f"{m.group(4)} {m.group(5)}"
    q = _FROM_INTO.sub(r"\1 to \2", q)
    m = _CYCLE.match(q)
    if m and m.group(3) != m.group(4):
        return f"{m.group(1)} {m.group(3)} {m.group(2)} and then {m.group(1)} it {m.group(4)}"
    m = _ORDER_LEAD.match(q)
    if m:
        sub, main, first_sub = m.group(2), m.group(3), m.group(1) != "before"
    else:
        m = _ORDER_TAIL.match(q)
        if not m or split_verb(words(m.group(1)))[0] is None:
            return q
        main, sub, first_sub = m.group(1), m.group(3), m.group(2) != "before"
    if split_verb(words(main))[0] is None:
        return q
    sub_cmd = _as_command(sub)
    if sub_cmd is None:  # "before bed, ...", "... after dinner": a time, which asks for nothing
        return main if len(words(sub)) <= 3 and not has_verb(words(sub)) else q
    first, second = (sub_cmd, main) if first_sub else (main, sub_cmd)
    obj = _object_of(second)
    if obj is not None and re.search(r"\b(?:it|them)\b", first):
        first = re.sub(r"\b(?:it|them)\b", obj, first, count=1)
    return f"{first}, then {second}"


def _deictic(q: str, room: str, dets=("that", "this")) -> str:
    """"get that washing machine open" with an aside in the office -> "get the washing machine in the
    office open": the noun phrase after "that"/"this" (up to two words, before a preposition or a state
    word) gets the room, unless a place phrase follows it ("that form from the desk"); other text
    unchanged."""
    ws = q.split()
    for k, w in enumerate(ws):
        if w in dets and k + 1 < len(ws):
            j = k + 1
            while j < len(ws) and j < k + 3 and ws[j] not in _PREPS and ws[j] not in _STATE_VERB and ws[j] != "and":
                j += 1
            if j > k + 1 and (j == len(ws) or ws[j] in _STATE_VERB or ws[j] not in _PREPS):  # "that form from the desk": placed already
                return " ".join(ws[:k] + ["the"] + ws[k + 1:j] + ["in", "the", room] + ws[j:])
    return q


def conversational(text: str, names_object=None) -> str:
    """A spoken request as commands (statements kept for the pronouns that follow them):

    * sentences and dashes are parts ("The TV is on. Switch it off", "I need to write - find me a
      pencil"); a part that only says how or why (:data:`_CHATTER`: "no one's watching it") is
      dropped when another part asks for something;
    * "someone left the lighter burning on the table" -> "the lighter on the table is on" (a
      statement); "don't leave the microwave running" -> "make sure the microwave is not running";
      "leave the fridge open" -> "open the fridge";
    * "get the steak cooking" -> "cook the steak"; "the rug needs a wash" -> "wash the rug"; "the
      sponge goes in the sink, not in the drawer" -> "put the sponge in the sink"; "I need the
      butter knife" -> "get me the butter knife";
    * a purpose or time at the end ("so I can see", "for later", "for dinner tonight") is dropped;
      so is the speaker's aside after a request ("or I'll oversleep", "while I paint", "by then");
    * "get / keep / make / have X open|on|off|..." is the state's verb ("get the washer open");
    * a part that is only a state word after a part naming an object is that state of "it" ("the
      office stereo is way too loud. off, please" -> "..., turn it off"); "bring it here" / "fetch
      the form over to me" -> "bring me it" (the speaker holds it);
    * "turn off every light except the one in the bedroom" is "..., but leave the one in the bedroom
      on": the exception keeps whatever state it has;
    * comma parts are read one by one; "X, so Y" drops the reason X when Y asks; an aside that names
      a room lends it to "that X" ("I'm loading laundry in the office - get that washer open"); an
      aside that names an object (``names_object``) and is followed by "it"/"them" is kept.

    Parts are joined with ", " within a sentence and "; " between sentences (a world's clause
    splitter cuts there). Text without any of these comes back unchanged."""
    parts = [p.strip(" ,") for p in _SENTENCES.split(text) if p and p.strip(" ,")]
    out, asks = [], False
    sent: list[int] = []  # per part of ``out``: the sentence it came from
    short: set[str] = set()  # one-part sentences of at most 3 words without a verb ("Bedtime.")
    for si, p in enumerate(parts):
        q = re.sub(r"\s*,\s*", ", ", " ".join(re.sub(r"[^a-z0-9',]", " ",
                                                      polite(p).lower().replace("_", " ").replace(";", ",")).split()))
        q = q.strip(" ,")
        q = re.sub(r"(?:,| )\s*(?:would|will|can|could) you$", "", q)
        q = ", ".join(x for x in (polite(x).strip(" ,") for x in q.split(", ")) if x)  # "..., could you fetch one"
        q = _IS_CONTRACTED.sub(r"\1 is \2", _APPLIANCE_DOOR.sub(r"\1", q))
        if split_verb(words(q))[0] is None:  # "the alarm clock has ended up in the dog's bed": where it is
            q = _ENDED_UP.sub(lambda m: " is " + ("in the" if m.group(1) == "the" else m.group(1)) + " ", q)
        tail = _TRAILING_CHATTER.search(q)
        q = _TRAILING_CHATTER.sub("", q)
        room = tail and _DARK.search(tail.group(0)) and \
            _SPEAKER_ROOM.search(tail.group(0))
        if room and " in the " not in q:  # "switch the light on, it's dark in the bedroom": the bedroom's light
            q = _deictic(q, room.group(1), ("that", "this", "the"))
        q = _ALL_BUT.sub(r"all but \2 \1", q)  # "every plate except one": all but one plate (a count)
        m = _EXCEPT.match(q)
        if m:  # the exception keeps the state it has (never switched): "..., but leave the one in the bedroom on"
            head = m.group(2).split()[-1]
            heads = head if head.endswith("s") else head + "s"
            # "the one(s) in the bedroom": the same kind there ("the lights in the bedroom", lamps too)
            exc = re.sub(r"^the ones? (?=(?:in|on|inside) )", f"the {heads} ", m.group(3))
            q = f"{m.group(1)} {m.group(2)}, but leave {exc} {_KEEP_AS_IS[m.group(1)]}"
        q = _KEPT_PART.sub(", still ", q)  # "..., but leave the lamps on": a command, kept as they are
        q = _BUT_ALSO.sub(", ", q)
        q = _WHOLE_HOME.sub("", q)  # "every light in the house": the whole scene, no place
        q = in_order(q)  # "close the fridge after putting the milk in it": in the order done
        subs = re.sub(r", (?=not |but not |rather than |instead of )", " ", q).split(", ")  # "..., not in the drawer"
        for i in range(len(subs) - 1, 0, -1):  # "the cat keeps getting shut out, so the door has to stay open"
            if subs[i].startswith(("so ", "and so ")) and all(
                    split_verb(words(x))[0] is None and not re.search(r"\b(?:is|are)\b", x) for x in subs[:i]):
                subs = [subs[i].split(" ", 2 if subs[i].startswith("and so ") else 1)[-1], *subs[i + 1:]]
                break
        if len(subs) == 1 and len(words(subs[0])) <= 3 and split_verb(words(subs[0]))[0] is None:
            short.add(subs[0])
        for q in subs:  # each comma part ("nobody's watching, make sure the tv is off")
            # ", and the plate goes on the table", ", and afterwards close it": the order is the parts' own
            q = re.sub(r"^(?:and |and then |then )?(?:afterwards|after that|next|finally)?,? ?(?=\w)", "", q)
            if (_TAG.match(q) or _CHECK.match(q)) and out:  # "the light's on, isn't it?", "..., can you check?"
                m = _STATED.match(out[-1]) or _MUST_BE.match(out[-1])
                if m:
                    subj = _any_one(m.group(1)) if _STATED.match(out[-1]) else m.group(1)
                    out[-1] = state_request(f"make sure {subj} is {m.group(2)}")
                    asks = True
                    continue
                if split_verb(words(out[-1]))[0] is not None:
                    continue  # "close the fridge, can you check": the check asks nothing more
            if _INTERJECTION.fullmatch(q) or (out and (_COUNT_ASIDE.fullmatch(q) or _WHERE_ONE.fullmatch(q))):
                continue  # "ugh", "ew", "oh no"; "three of them I think"; "one on the office table"
            if out and names_object is not None and _AWFUL.fullmatch(q) and not names_object(q):
                continue  # "keep the window open while I paint, the fumes are awful"
            if (q in _BARE_STATE and out and names_object is not None and names_object(out[-1])
                    and not re.search(r"\b(?:and|are|were|all|both|every|off|on)\b|,", out[-1])):
                # one thing named before: "... all on in the kitchen. Off, off, off" names several (unread)
                q = _BARE_STATE[q]  # "the music from the office stereo is way too loud. off, please": turn it off
            if (out and names_object is not None and _BARE_PLACE.fullmatch(q) and names_object(q)
                    and split_verb(words(q))[0] is None and names_object(out[-1])
                    and split_verb(words(out[-1]))[0] is None):
                # "there's a lettuce sitting on a chair. fridge, please": the place to put it
                q = "move it to the " + re.sub(r"^(?:the|a|an|in|into|on|onto|to) (?:the )?", "", q)
            q = re.sub(r"^(?:and |then |plus )?(?:also|too)\s+(?=\w)", "", q)  # "...; also water the plants"
            q = _TO_SPEAKER.sub(r"\1 me \2", q)  # "bring it here": the speaker gets it
            q = rephrase(q)
            q = _ALSO_END.sub("", q)  # "put the floor lamp on instead": "instead" asks nothing more
            q = _IF_SO.sub("", q)  # "close the fridge if it's open": the end state is the same either way
            q = _RESULT.sub(r"\1", q)  # "scrub it clean": the verb's result, not "the clean one"
            for pat, rep in _DISCARD:  # "throw away the milk": into the bin
                q = pat.sub(rep, q)
            q = _OFF_OF.sub(r"\1 \2 that is on \3", q)  # "take the pot off the oven": the pot on the oven
            q = _SET_OUT.sub(r"put \1 \2 ", q)  # "set every cup out on the table": "out" asks nothing more
            q = _OUT_AND_ONTO.sub(_out_and_onto, q)  # "get them out of the microwave and onto the counter"
            m = _GO_AND.match(q)
            if m and split_verb(q[m.end():].split())[0] not in (None, "go"):
                q = q[m.end():]
            m = _where_question(q) if not _YES_NO.match(q) else None
            if m:  # "is the mug in the sink?": the placement, wished (answered, never acted on)
                q = f"put {_any_one(m.group(1))} {m.group(2)} {m.group(3)}"
            m = _YES_NO.match(q) or _MUST_BE.match(q)
            if m:  # "is the window open?", "the alarm clock has to be plugged in": the state, wished
                q = f"make sure {_any_one(m.group(1)) if _YES_NO.match(q) else m.group(1)} is {m.group(2)}"
            m = _LEFT.match(q)
            if m:
                state = {"running": "on", "burning": "on", "lit": "on"}.get(m.group(2), m.group(2))
                out.append(f"{m.group(1)}{m.group(3)} is {state}")
                sent.append(si)
                continue
            m = _DONT_LEAVE.match(q)
            if m:  # the opposite state, as its verb ("don't leave any lights on": all of them off)
                subj = re.sub(r"^any (?=\w)", "all the ", m.group(1))
                q = f"{_STATE_VERB[_OPPOSITE_WORD[{'burning': 'running'}.get(m.group(2), m.group(2))]]} {subj}"
            still = q.startswith("still ")
            q = q[6:] if still else q
            m = _LEAVE.match(q) or _GET_STATE.match(q)
            if m and q.startswith(("keep ", "leave ")) and m.group(2) in _KEEP_WORD:
                # the state kept where it already holds; "still": only there (a second command)
                q = (f"keep {'still ' if still else ''}{m.group(1)} {_KEEP_WORD[m.group(2)]}"
                     f"{m.groupdict().get('where') or ''}")
            elif m:  # the state, as its verb
                q = f"{_STATE_VERB[{'running': 'on'}.get(m.group(2), m.group(2))]} {m.group(1)}"
            if asks and _VAGUE.match(q):
                continue  # "..., move it": the part before said how
            m = _GET_DOING.match(q)
            if m:  # "get the steak cooking", "get the dishwasher running": the verb of the gerund
                stem = next((x for x in _stems(m.group(2)) if x in _ONE_WORD_VERBS), None)
                if stem is not None:
                    q = f"{stem} {m.group(1)}{m.group(3)}"
            m = _NEEDS.match(q)
            if m:
                q = f"{ {'wipe': 'wipe', 'wiping': 'wipe', 'scrub': 'scrub'}.get(m.group(2), 'wash')} {m.group(1)}"
            m = _GOES.match(q)
            if m:
                subj = m.group(1)
                if m.group("wish") and re.fullmatch(r"the [a-z]+(?: [a-z]+)?", subj) and not re.search(r"\b(?:in|on)\b", subj):
                    subj = "a" + subj[3:]  # a wish: "the apple should be in the fridge" is met by any apple there
                q = f"put {subj} {m.group(3)} {m.group(4)}"
            m = _I_NEED.match(q)
            if m and state_request(q) == q:
                q = f"get me {m.group(1)} {m.group(2)}"
            if names_object is not None:
                q = verbless(q, names_object)  # "oven off, steak out onto the counter"
            m = _NONE_OF.search(q)
            if m and (m.start() == 0 or re.search(r"(?:,|\bso|\band)\s*$", q[: m.start()])) and not q[m.end():].strip():
                # "none of the CD players can be playing" (after a reason: "we're recording, so ..."), "make
                # sure no lights are on": all of them off; "none of the cups can be in the sink": all out of it
                if m.group("place") and m.group(2) in ("in", "inside"):
                    q = f"take all the {m.group(1)} out of{m.group('place')}"
                elif not m.group("place") and m.group(2) not in ("in", "inside", "on top of"):
                    state = _OPPOSITE_WORD[{"playing": "running", "going": "running"}.get(m.group(2), m.group(2))]
                    q = f"{_STATE_VERB[{'running': 'on'}.get(state, state)]} all the {m.group(1)}"
                # else ("none of the books can be on the bed"): left as said, refused as a negation
            q = _PURPOSE.sub("", q)
            q = state_request(q)
            if split_verb(words(q))[0] is not None or _WANT.match(q):
                asks = True
            out.append(q)
            sent.append(si)
    if names_object is not None and asks:  # "Bedtime.", "Guests at eight.": a short sentence naming nothing
        keep = [k for k, q in enumerate(out) if q not in short or names_object(q)]
        out, sent = [out[k] for k in keep], [sent[k] for k in keep]

    if names_object is not None:  # "the bedroom chairs wobble. sit in one": one of the bedroom chairs
        for k, q in enumerate(out):
            eff, rest = split_verb(words(q))
            if eff is not None and (rest == ["one"] or (len(rest) == 2 and rest[1] == "one" and rest[0] in _PREPS)):
                at = text.lower().rfind(" one")
                found = [m.group(1) for m in re.finditer(r"\b(?:the|my|our|those|these) ((?:[a-z]+ ){0,2}[a-z]+s)\b",
                                                         text.lower()[:at]) if names_object(m.group(1))]
                if found:
                    out[k] = f"{q[:-3]}one of the {found[-1]}"

    def antecedent(k: int) -> bool:  # "i could hear the bedroom computer humming, power it off": keep it for "it"
        nxt = out[k + 1] if k + 1 < len(out) else ""
        return names_object is not None and bool({"it", "them", "they"} & set(words(nxt))) and names_object(out[k])

    keep = [k for k, q in enumerate(out) if not (asks and _CHATTER.match(q) and split_verb(words(q))[0] is None
                                                 and not re.search(r"\b(?:is|are)\b", q) and not antecedent(k))
            and not (asks and _WHEN.match(q)) and not (asks and _DOING_SOON.fullmatch(q))
            and not (asks and _EVENT_SOON.fullmatch(q) and split_verb(words(q))[0] is None)
            and not (asks and _TIME_PART.fullmatch(q) and not (names_object and names_object(q)))]
    kept = [out[k] for k in keep]
    where = next((m.group(1) for q in out if q not in kept for m in [_SPEAKER_ROOM.search(q)] if m), None)
    if where:  # "I'm loading laundry in the office - get that washing machine open": the office's one
        dark = any(_DARK.search(q) for q in out if q not in kept)
        # "switch the light on, it's dark in the bedroom": the bedroom's light
        dets = ("that", "this", "the") if dark else ("that", "this")
        kept = [_deictic(q, where, dets) if " in the " not in q else q for q in kept]
    # parts of one sentence meet at ", ", sentences at "; " (a world's clause splitter may cut sentences
    # apart first: "My back's sore and I want to sit up in bed. Fetch every pillow ...")
    pairs = [(sent[k], q) for k, q in zip(keep, kept) if q]
    joined = "".join((("; " if si != pairs[j - 1][0] else ", ") if j else "") + q for j, (si, q) in enumerate(pairs))
    joined = _VIA_ROOM.sub(lambda m: f"{m.group(3)} {m.group(1)}{m.group(4)}"
                           + ("" if _SPEAKER_ROOM.search(m.group(4)) else f" in the {m.group(2)}"), joined)
    if not joined or (len(parts) < 2 and " ".join(words(joined)) == " ".join(words(text))):
        return text
    return joined  # parts cut at a dash or a sentence end stay cut ("the bills on my desk - file them")


_POLITE = re.compile(r"^\s*(?:(?:please|kindly|hey|ok|okay|now)\b[\s,]*|(?:could|can|would|will) you\b[\s,]*(?:please\b[\s,]*)?|"
                     r"(?:i'd like you to|i would like you to|i want you to|i need you to)\b\s*)+", re.I)
_POLITE_END = re.compile(r"(?:[\s,]+(?:please|for me|thanks|thank you))*[\s?!.]*$", re.I)


def polite(text: str) -> str:
    """A request's politeness removed: "Could you please turn off the TV for me?" -> "turn off the
    TV" (a leading "please" / "could you" / "can you" / "I'd like you to", a trailing "please", "for
    me", "thanks" and the question mark); other text unchanged."""
    out = _POLITE_END.sub("", _POLITE.sub("", text))
    out = re.sub(r"(?i),?\s*\bplease\b\s*(?=[;.!?])", "", out)  # "TV off, please; also ...": the part ends there
    return out if out.strip() else text


#: "I want to ...", "we'd like to ...": the speaker's wish to do something
_I_WANT_TO = re.compile(r"^\s*(?:i|we)(?: really| just)?(?: want| wanna| would like|'d like| need) to\s+", re.I)


def wish_to_do(text: str) -> str:
    """ "I want to turn on the TV" -> "turn on the TV": a wish to do what the grammar has a verb for
    (:func:`~actionable.grounding.goal_reader.split_verb`), as that command (what the user wants done is
    the agent's task); other text unchanged ("I need to write something down" says why, not what)."""
    m = _I_WANT_TO.match(text)
    if not m:
        return text
    rest = text[m.end():]
    return rest if split_verb(words(rest))[0] is not None else text


#: "none of the CD players can be playing": the opposite state on all of them
_NONE_OF = re.compile(r"(?:so |and )?(?:(?:make sure|ensure|check|see to it) (?:that )?)?(?:none of (?:the |my |our |those |these )?|no )"
                      r"([a-z][a-z ]*?) (?:is |are |can |should |may |must |is to |are to |ought to |is allowed to |are allowed to )"
                      r"(?:be |stay |remain |get |gets )?(?:left )?"
                      r"(on|playing|running|going|open|plugged in|switched on|turned on|in|inside|on top of)(?P<place> (?:the|my|a|our) [a-z' ]+)?")

def prepare(task: str, example: str, names_object=None) -> tuple[str, str | None]:
    """``(task, refusal)`` before a world reads a task: politeness removed (:func:`polite`), a
    checked request (:func:`checked_request`) rewritten; then the refusal of a negation (:func:`negation_refusal`, ``example`` in its hint),
    else ``None`` and the task with a wanted end state rewritten as its verbs
    (:func:`state_request`). ``names_object(text) -> bool`` (the world's lexicon): an aside that
    names an object and is followed by "it"/"them" is kept as their antecedent (:func:`conversational`)."""
    task = task.replace("\u2019", "'").replace("\u2018", "'")  # "Don\u2019t leave ...": a typographic apostrophe
    task, fixed = self_correction(task)  # "Put a cup in the sink, sorry, I mean the dishwasher"
    if fixed:
        return task, fixed
    task = _LATER_ON.sub(r"\1", task)  # "... later on": a time, not the state "on"
    task = _OF_ALL.sub("", task)  # "there's a lettuce on a chair, of all places": surprise, not a place
    task = checked_request(wish_to_do(polite(with_inside(contrast(in_there(both_of_them(task)))))))
    task = conversational(task, names_object)
    wanted = state_request(task)
    if wanted != task:  # "make sure the TV isn't on": a wanted state, negated states read as their opposite
        return wanted, None
    refusal = negation_refusal(task, example)
    return (task, refusal) if refusal else (state_request(task), None)


#: a wanted placement after "make sure": "the cup is on the table", "the board is out on the dining table"
_WANTED_PLACE = re.compile(r"^((?:the|my|a|an|some|all the|every|both|our|your) [a-z' ]+?) (?:is|are|s|stays?|remains?) "
                           r"(?:out |back |still |already |safely |put away )?(on top of|inside|into|onto|in|on) "
                           r"((?:the|my|a|an|our|your) [a-z' ]+)$")


def state_request(text: str) -> str:
    """ "make sure the TV is off" -> "turn off the tv"; "I want the TV on and the fridge closed" ->
    "turn on the tv and close the fridge"; "make sure the dishwasher isn't running" -> "turn off the
    dishwasher" (a wanted end state as the verb that makes it, per "and" part; a negated two-valued
    state as its opposite); other text unchanged."""
    ws = " ".join(words(text))
    m = _WANT.match(ws)
    if not m:
        return text
    parts = ws[m.end():].split(" and ")
    out = []
    for part in parts:
        pm = _STATE_PART.match(part.strip())
        pl = (_WANTED_PLACE.match(re.sub(r"(?<=[a-z])'s\b", " is", part.strip()))
              if not pm and re.match(r"(?:please )?(?:make sure|ensure|see to it|check)", ws) else None)
        if pl and re.search(r"\b(?:that|which|who|sitting|lying|standing|is|are)\b", pl.group(1) + " " + pl.group(3)):
            pl = None  # "the kettle that's in the cupboard sitting on the oven": a relative clause, not the goal
        if pl:  # "make sure the cup is on the table", "... the board's out on the dining table": put it there
            # a wanted state: "the milk" is met by any milk already on the counter; "the cups" are all of them
            out.append(f"put {_any_one(pl.group(1))} {pl.group(2)} {pl.group(3)}")
            continue
        if not pm or (pm.group(2) and pm.group(3) not in _OPPOSITE_WORD):  # "is not clean": no opposite state
            return text
        subject = re.sub(r" (?:is|are)$", "", pm.group(1))
        state = _OPPOSITE_WORD[pm.group(3)] if pm.group(2) else ("on" if pm.group(3) == "running" else pm.group(3))
        out.append(f"{_STATE_VERB[state]} {subject}{pm.group('where') or ''}")  # "... off in the dining room"
    return " and ".join(out)


__all__ = ["adjective_question", "answer_question", "as_command", "checked_request", "conversational", "in_order",
           "polite", "prepare", "state_question", "state_request"]
