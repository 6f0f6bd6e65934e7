"""Goal conditions read from an instruction, bound to instances, and their one check.

A world's ``goals`` capability (:class:`GoalInterpreter`) turns instruction text plus a scene into a
:class:`GoalReading`: conjunctive :class:`Clause` s, each a disjunction of :class:`Condition` s over
the world's own predicates, bound to the world's object ids. ``plan``, ``verify``, ``eval`` and the
API check the same reading with :func:`check_reading` on a :class:`ConditionView` of a state, so
they reach one answer (EAI, Li et al. 2024, Sec. 3: goal interpretation as node states, relations
and the agent's posture; LLM+P, Liu et al. 2023: plan to the read goal, check the same goal).

Shapes:

* ``Condition(kind, subject, value, target=None, negate=False)``: ``kind`` is ``"state"``
  (``subject`` has state ``value``: VirtualHome ``ON``/``OFF``/``OPEN``/``CLEAN``/``SITTING``...,
  THOR ``isToggled``/``isOpen``/``isCooked``...) or ``"relation"`` (edge ``subject --value-->
  target``: ``INSIDE``/``ON``/``HOLDS``; THOR ``IN``/``HOLDS``) or ``"action"`` (a step of the plan
  did one of the ``|``-separated actions of ``value``, on ``subject`` unless it is ``None``: EAI's
  action goals, "did(WATCH)"; ``target``: the action's second object, as in POUR). ``holding``
  (``"action"`` only): the object the character held when it did the step ("wash your hands with
  soap"). ``subject``/``target`` are world ids (VirtualHome ints, THOR id strings) or
  :data:`CHARACTER` for the agent.
* ``Clause(options, text, source)``: met when any option holds ("put a mug in the sink": any mug;
  "the bedroom light": one option). ``source`` says where the clause came from (``"rule"``: the
  grammar; ``"annotation"``: the annotated goals of a similar packaged program; ``"lm"``).
* ``GoalReading(task, clauses, status, why, closest, notes)``: ``status`` is ``"goal"`` (clauses
  to reach), ``"refuse"`` (the scene cannot reach it, or the text is not a task: ``why`` says which),
  ``"unclear"`` (no end state could be read: "I can't tell what end state this asks for";
  ``closest`` is the nearest reading, if any) or ``"none"`` (the interpreter has nothing to say:
  the caller falls back to imitation planning and says the goal was not checked).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol, runtime_checkable

#: the agent as a condition's subject (its posture, what it holds, the room it is in)
CHARACTER = "character"

#: statuses of a :class:`GoalReading`
STATUSES = ("goal", "refuse", "unclear", "none")


@dataclass(frozen=True)
class Condition:
    """One goal condition on instances (see the module doc for the fields)."""

    kind: str
    subject: Any
    value: str
    target: Any = None
    negate: bool = False
    holding: Any = None

    def to_dict(self) -> dict:
        d = {"kind": self.kind, "subject": self.subject, "value": self.value}
        if self.target is not None:
            d["target"] = self.target
        if self.negate:
            d["negate"] = True
        if self.holding is not None:
            d["holding"] = self.holding
        return d


@dataclass(frozen=True)
class Clause:
    """A disjunction of :class:`Condition` s; ``text`` is readable ("light 169 is OFF")."""

    options: tuple[Condition, ...]
    text: str
    source: str = "rule"

    def to_dict(self) -> dict:
        return {"text": self.text, "source": self.source, "options": [o.to_dict() for o in self.options]}


def said_in_order(text: str) -> bool:
    """Whether ``text`` says an order of its parts ("then", "before", "after", "afterwards")."""
    return bool(re.search(r"\b(?:then|before|after|afterwards|once you|as soon as)\b", text.lower()))


@dataclass
class GoalReading:
    """The goal conditions an instruction asks for (see the module doc).

    Attributes:
        task: the instruction. clauses: conjunctive clauses (empty unless ``status == "goal"``).
        status: one of :data:`STATUSES`. why: the refusal or "cannot tell" reason.
        closest: for ``unclear``, the nearest reading or program title. notes: how each part was
            read (for ``--json`` and the human output). ordered: the task says an order ("then",
            "before", "after"): the clauses are in the order it wants them done (the readers put
            "X after Y" as Y, then X), which the goal planner tries first.
        question: the task only asks whether the clauses hold ("Is the TV on?", "Is the plate
            dirty?"): it is answered from the state, Yes or No, and never planned or acted on.
    """

    task: str
    clauses: tuple[Clause, ...] = ()
    status: str = "goal"
    why: str = ""
    closest: str | None = None
    notes: list[str] = field(default_factory=list)
    ordered: bool = False
    question: bool = False

    @property
    def is_goal(self) -> bool:
        return self.status == "goal" and bool(self.clauses)

    def in_order(self, said: str) -> "GoalReading":
        """This reading with :attr:`ordered` set from ``said``, the task as the user wrote it."""
        return dataclasses.replace(self, ordered=said_in_order(said))

    def conditions(self) -> list[Condition]:
        """Every option of every clause, in order."""
        return [o for c in self.clauses for o in c.options]

    def to_dict(self) -> dict:
        return {"task": self.task, "status": self.status, "why": self.why, "closest": self.closest,
                "clauses": [c.to_dict() for c in self.clauses], "notes": list(self.notes), "ordered": self.ordered,
                "question": self.question}


@runtime_checkable
class ConditionView(Protocol):
    """A read-only state a condition is checked on (a world supplies it)."""

    def holds(self, condition: Condition) -> bool:
        """Whether ``condition`` holds in this state (``negate`` applied)."""


@dataclass(frozen=True)
class ConditionCheck:
    """Which clauses of a reading hold in a state.

    Attributes:
        met: clauses that hold. total: clauses. flags: one bool per clause.
        unmet: the ``text`` of each clause that does not hold.
    """

    met: int
    total: int
    flags: tuple[bool, ...]
    unmet: tuple[str, ...]

    @property
    def done(self) -> bool:
        return self.total > 0 and self.met == self.total

    def to_dict(self) -> dict:
        return {"met": self.met, "total": self.total, "done": self.done, "unmet": list(self.unmet)}


def did(condition: Condition, steps: Iterable) -> bool:
    """An ``"action"`` condition holds on the executed ``steps`` (:class:`~actionable.core.program.Step`):
    some step's action is one of ``value``'s alternatives (on ``subject`` unless it is ``None``),
    done while the character held ``holding`` when that is set. What is held is followed through
    the steps (:data:`~actionable.core.actions.TAKE_ACTIONS` take their first object,
    :data:`~actionable.core.actions.RELEASE_ACTIONS` put it down); an object held before the first
    step is not known here, so it counts only once a step took it."""
    from actionable.core.actions import RELEASE_ACTIONS, TAKE_ACTIONS

    alts = set(condition.value.upper().split("|"))
    held: set = set()
    for st in steps:
        act = st.action.upper()
        if act in alts and (condition.subject is None or any(a.id == condition.subject for a in st.args)) \
                and (condition.holding is None or condition.holding in held):
            return True
        first = st.args[0].id if st.args else None
        if act in TAKE_ACTIONS and first is not None:
            held.add(first)
        elif act in RELEASE_ACTIONS and first is not None:
            held.discard(first)
    return False


def clause_holds(clause: Clause, view: ConditionView, steps: Iterable = ()) -> bool:
    """Any option of ``clause`` holds in ``view`` (action options: on the executed ``steps``)."""
    steps = list(steps)
    return any((did(o, steps) != o.negate) if o.kind == "action" else view.holds(o) for o in clause.options)


def check_clauses(clauses: Iterable[Clause], view: ConditionView, steps: Iterable = ()) -> ConditionCheck:
    """Check ``clauses`` on ``view`` (and ``"action"`` conditions on the executed ``steps``): the one
    goal check of ``plan``, ``verify`` and ``eval``."""
    clauses = tuple(clauses)
    steps = list(steps)
    flags = tuple(clause_holds(c, view, steps) for c in clauses)
    return ConditionCheck(sum(flags), len(clauses), flags,
                          tuple(c.text for c, f in zip(clauses, flags) if not f))


def presupposed_change(clauses, view: ConditionView) -> tuple[list, list[str]]:
    """``(clauses, notes)``: a command presupposes that what it asks is not yet so. A clause over
    several candidate objects ("the toothpaste": 1071, 2223 or 1588) that already holds through some
    of them and not others asks for one that is not yet so ("pop the toothpaste back inside the
    cabinet", where 1071 already is: 2223 or 1588 is meant), so the options of the subjects that
    already satisfy it are dropped, with a note. A clause that holds through every candidate, or
    through none, or whose options share one subject ("put the cup in a cupboard": the cup is one
    thing, the cupboards are the choice) is kept unchanged, as is a posture or an action clause, and a
    clause whose candidates another clause also names (their options must stay together).
    Callers apply it to commands only, never to a wish or a check ("make sure the toothpaste is in
    the cabinet": any one will do). Source: the presupposition of imperatives (a request is felicitous
    only when its content does not already hold; Searle 1969, preparatory conditions)."""
    clauses = list(clauses)
    out, notes = [], []
    for k, c in enumerate(clauses):
        opts = [o for o in c.options if o.kind in ("state", "relation") and o.subject != CHARACTER]
        subjects = {o.subject for o in opts}
        elsewhere = {x for j, d in enumerate(clauses) if j != k for o in d.options for x in (o.subject, o.target)}
        if len(opts) != len(c.options) or len(subjects) < 2 or subjects & elsewhere:
            # another clause is about the same candidates ("heat up the potato in the microwave": hot, in the
            # microwave): narrowing one clause alone would part them (a second potato would be moved)
            out.append(c)
            continue
        already = {o.subject for o in opts if view.holds(o)}
        if not already or already == subjects:
            out.append(c)
            continue
        kept = tuple(o for o in opts if o.subject not in already)
        named = ", ".join(str(s) for s in sorted(already, key=str))
        out.append(dataclasses.replace(c, options=kept, text=f"{c.text}, other than {named} (already so)"))
        notes.append(f"'{c.text}': already so for {named}; a command asks for a change, so one of the others is meant")
    return out, notes


#: a wish or a check rather than a command: the state is wanted, and one already so will do
#: ("make sure the toothpaste is in the cabinet", "I want a mug on the table", "the cups should be away")
_WISH = re.compile(r"\b(make sure|ensure|see that|check|i want|we want|i'd like|i would like|i need|we need|"
                   r"should|must|ought to|has to be|have to be|needs to be|need to be|is it|are they|isn't it|"
                   r"aren't they|right\?)")
#: an indefinite object ("chill a beer" with one already in the fridge: any beer will do, nothing to do)
_INDEFINITE = re.compile(r"\b(?:a|an|some|any|another)\b")


def asks_for_change(task: str) -> bool:
    """Whether ``task`` is a command about definite things ("pop the toothpaste back in the cabinet", "fold
    the laptop on the bed shut"): not a wish or a check (:data:`_WISH`), and no indefinite object
    (:data:`_INDEFINITE`). Such a command presupposes its content is not yet so for the thing it means
    (:func:`presupposed_change`)."""
    low = task.lower()
    return not _WISH.search(low) and not _INDEFINITE.search(low)


def presuppose(reading: "GoalReading", task: str, view: ConditionView) -> "GoalReading":
    """``reading`` with :func:`presupposed_change` applied when ``task`` asks for a change
    (:func:`asks_for_change`) and is no question; ``view``: the state the task is given in. The one
    place ``plan`` (the goal planner) and ``verify`` (the goal read from the text) narrow a reading, so
    both check the same conditions."""
    if reading.question or not reading.clauses or not asks_for_change(task):
        return reading
    clauses, notes = presupposed_change(reading.clauses, view)
    if not notes:
        return reading
    return dataclasses.replace(reading, clauses=tuple(clauses), notes=list(reading.notes) + notes)


#: relations that do not say where a thing stands: being near or facing something does not move it
#: off its support ("sit on the couch and watch TV": on the couch, facing the TV)
_NOT_SUPPORT = frozenset({"HOLDS", "HOLDS_RH", "HOLDS_LH", "FACING", "CLOSE", "NEXT_TO", "BETWEEN"})


def drop_undone(clauses, opposite: dict | None = None) -> tuple[list, list[str]]:
    """``(kept clauses, a note per dropped one)``: a state clause that a later clause reverses on the same objects ("open
    the fridge, take the milk, then close the fridge"; "turn on the TV and then turn it off") is a
    step on the way, not part of the end state, so it is dropped (an end-state planner could never
    make both hold). So is holding an object that a later clause puts somewhere ("grab the pan and
    put it on the burner"), and a placement of objects that a later clause places elsewhere ("put
    the cup on the table and then put it in the sink"). Reversed: the same subject with ``opposite[value]`` (VirtualHome: ON/OFF), or
    the same value negated (THOR: ``isOpen`` / not ``isOpen``).

    Args:
        clauses: the reading's clauses, in the task's order.
        opposite: ``{state: its opposite state}`` of the world (``None``: negation only).
    """
    opposite = opposite or {}

    def states(c):
        if not c.options or any(o.kind != "state" for o in c.options):
            return None
        return {(o.subject, o.value, o.negate) for o in c.options}

    def reversed_(st):
        return {(s, opposite[v], n) for s, v, n in st if v in opposite} | {(s, v, not n) for s, v, n in st}
    def held(c):  # "grab the pan": the objects a clause asks the agent to hold
        if not c.options or any(o.kind != "relation" or o.value != "HOLDS" or o.negate for o in c.options):
            return None
        return {o.target for o in c.options}

    def placed(c):  # "put it on the burner": the objects a clause sets down somewhere
        return {o.subject for o in c.options if o.kind == "relation" and o.value not in _NOT_SUPPORT and not o.negate}

    def placements(c):  # "put the cup on the table": (object, relation, target) of every option
        if not c.options or any(o.kind != "relation" or o.value in _NOT_SUPPORT or o.negate for o in c.options):
            return None
        return {(o.subject, o.value, o.target) for o in c.options}

    clauses = list(clauses)
    kept, notes = [], []
    for i, c in enumerate(clauses):
        mine, hold, put = states(c), held(c), placements(c)
        # one object placed, then placed elsewhere ("a plate on every table" places any plate on each: kept)
        one = {p[0] for p in put} if put else set()
        moved_on = len(one) == 1 and any(later != put and {p[0] for p in later} == one
                                         for later in map(placements, clauses[i + 1:]) if later)
        if moved_on:  # "put the cup on the table and then put it in the sink": the table is on the way
            notes.append(f"'{c.text}' is undone by a later part of the task (" + (
                "the character goes on from there" if one == {CHARACTER} else "what is put there is then moved on")
                + "): only the end state is planned")
        elif hold and any(hold & placed(later) for later in clauses[i + 1:]):
            notes.append(f"'{c.text}' is undone by a later part of the task (what is picked up is then put "
                         f"down): only the end state is planned")
        elif mine and any(st and reversed_(mine) & st for st in map(states, clauses[i + 1:])):
            notes.append(f"'{c.text}' is undone by a later part of the task: only the end state is planned")
        else:
            kept.append(c)
    return kept, notes


def referents(selectors) -> list[list]:
    """The id sets a task names more than once as one thing: each class that two or more "the"
    selectors with several candidates name ("put the milk in *the fridge* and close *it*", where
    "it" was read as "the fridge"), as the ids of its first such selector. ``selectors``: the
    reading's :class:`~actionable.grounding.goal_reader.Selector` objects (``cls``, ``quantifier``,
    ``ids``) in the task's order, ``None`` skipped."""
    seen: dict = {}
    count: dict = {}
    for sel in selectors:
        if sel is None or sel.quantifier != "the" or len(sel.ids) < 2:
            continue
        seen.setdefault(sel.cls, list(sel.ids))
        count[sel.cls] = count.get(sel.cls, 0) + 1
    return [seen[c] for c in seen if count[c] >= 2]


def bind_once(clauses, groups, remake) -> list:
    """``clauses`` with each group's referent bound to one instance: a fridge that is filled and then
    closed is the same fridge, so "the milk is in a fridge" and "a fridge is closed" cannot be met by
    two different fridges. Per group (ids from :func:`referents`) the first id that every clause
    naming the group offers is kept, and options naming the group's other ids are dropped (a clause
    left without options keeps all of its own). ``remake(clause, options) -> Clause`` rebuilds a
    clause (its readable text)."""
    clauses = list(clauses)
    for ids in groups:
        def names(c, x):
            return any(o.subject == x or o.target == x for o in c.options)
        mention = [c for c in clauses if any(names(c, x) for x in ids)]
        chosen = next((x for x in ids if all(names(c, x) for c in mention)), None)
        if chosen is None or len(mention) < 2:
            continue
        others = set(ids) - {chosen}
        out = []
        for c in clauses:
            opts = [o for o in c.options if o.subject not in others and o.target not in others]
            out.append(remake(c, opts) if opts and len(opts) < len(c.options) else c)
        clauses = out
    return clauses


def bind_apart(parts, remake) -> list:
    """The clauses of a reading's parts, flattened, with "the other X" kept apart from the X named
    before: "put the milk in the fridge and the juice in the other fridge" puts them in two
    fridges. ``parts``: ``[(selectors, clauses), ...]`` per part in the task's order (selectors with
    ``cls``, ``ids`` and ``other``). For each selector marked ``other`` the latest earlier selector
    of its class is bound to one instance (its first id the other selector could do without) in
    that part's clauses, and the other part's clauses drop the options naming that instance (a
    clause left without options keeps its own). ``remake(clause, options) -> Clause``."""
    parts = [(list(sels), list(cls_)) for sels, cls_ in parts]

    def narrow(clauses, drop):
        out = []
        for c in clauses:
            opts = [o for o in c.options if o.subject not in drop and o.target not in drop]
            out.append(remake(c, opts) if opts and len(opts) < len(c.options) else c)
        return out
    for k, (sels, _) in enumerate(parts):
        for sel in sels:
            if not getattr(sel, "other", False):
                continue
            j, before = next(((j, b) for j in range(k - 1, -1, -1) for b in parts[j][0] if b.cls == sel.cls),
                             (None, None))
            if before is None:
                continue
            x = next((i for i in before.ids if set(sel.ids) - {i}), None)
            if x is None:
                continue
            parts[j] = (parts[j][0], narrow(parts[j][1], set(before.ids) - {x}))
            parts[k] = (parts[k][0], narrow(parts[k][1], {x}))
    return [c for _, cls_ in parts for c in cls_]


#: the action goal of a visit on the way (:func:`visits_on_the_way`): a walk to, run to or find of it
VISIT = "WALK|RUN|FIND"


def visits_on_the_way(clauses) -> tuple[list, list[str]]:
    """``(clauses, a note per changed one)``: a clause that puts the character close to something
    ("take a shower": close to the shower, EAI's annotation), or facing it ("watch TV": facing the
    TV), before a later clause that puts the character elsewhere or in a posture ("... and go to
    sleep": lying on the bed) is a visit on the way. Both could never hold at the end, so it is
    asked as done on the way: a walk to (or find of) one of its objects, or a turn to / look at /
    watch of it, among the executed steps (an ``"action"`` condition, :func:`did`)."""
    clauses = list(clauses)

    def close_to(c):  # (relation, the action that did it on the way)
        for rel, did_it in (("CLOSE", VISIT), ("FACING", "TURNTO|LOOKAT|WATCH")):
            if c.options and all(o.kind == "relation" and o.subject == CHARACTER and o.value == rel and not o.negate
                                 for o in c.options):
                return {o.target for o in c.options}, did_it
        return None, None

    def places_character(c, here):
        return any(o.subject == CHARACTER and not o.negate and (
            (o.kind == "relation" and o.value in ("ON", "INSIDE", "CLOSE") and o.target not in here)
            or (o.kind == "state" and o.value in ("LYING", "SITTING", "SLEEPING"))) for o in c.options)
    out, notes = [], []
    for i, c in enumerate(clauses):
        here, did_it = close_to(c)
        if here and any(places_character(later, here) for later in clauses[i + 1:]):
            text = (c.text.replace("is close to", "went to").replace("is facing", "faced")
                    if "is close to" in c.text or "is facing" in c.text else f"on the way: {c.text}")
            out.append(Clause(tuple(Condition("action", x, did_it) for x in sorted(here, key=str)), text, c.source))
            notes.append(f"'{c.text}' is asked as done on the way (a later part puts the character elsewhere)")
        else:
            out.append(c)
    return out, notes


def bind_references(parts, remake) -> list:
    """A reading's clauses with its references bound, for a world's goal interpreter: "the other X"
    apart from the X before (:func:`bind_apart`), then a thing named twice as one instance
    (:func:`bind_once` over :func:`referents`). ``parts``: ``[(selectors as named, clauses), ...]``
    per part in the task's order; ``remake(clause, options) -> Clause``."""
    sels = [x for sel_list, _ in parts for x in sel_list]
    if any(getattr(x, "other", False) for x in sels):
        clauses = bind_apart(parts, remake)
    else:
        clauses = [c for _, cls_ in parts for c in cls_]
    return bind_once(clauses, referents([x for x in sels if not getattr(x, "other", False)]), remake)


def check_reading(reading: GoalReading, view: ConditionView, steps: Iterable = ()) -> ConditionCheck:
    """:func:`check_clauses` on ``reading.clauses``."""
    return check_clauses(reading.clauses, view, steps)


class GoalInterpreter(Protocol):
    """A world's ``goals`` capability, for one scene: ``capability(world, "goals")(scene)``.

    Methods:
        read(task) -> GoalReading: the instruction as goal conditions over the scene.
        view(state=None) -> ConditionView: a state of the world's planning affordance (``None``:
            the scene's initial state).
        achievers(condition, view) -> list[Step]: resolved steps, best first, that make
            ``condition`` hold when their preconditions are repaired (the goal-directed planner
            tries them through the planning affordance, :mod:`actionable.planning.goaldirected`).
    """

    def read(self, task: str) -> GoalReading: ...

    def view(self, state: Any = None) -> ConditionView: ...

    def achievers(self, condition: Condition, view: ConditionView) -> list: ...


def goal_interpreter(world: str, scene: Any):
    """World ``world``'s goal interpreter for ``scene``, or ``None`` when the world has no ``goals``
    capability (the caller plans by imitation and says the goal was not checked)."""
    from actionable.core.registry import spec

    s = spec(world)
    if not s.has("goals"):
        return None
    return s.capability("goals")(scene)


__all__ = ["CHARACTER", "Clause", "Condition", "ConditionCheck", "ConditionView", "GoalInterpreter", "GoalReading",
           "STATUSES", "bind_apart", "bind_once", "bind_references", "check_clauses", "check_reading", "clause_holds", "asks_for_change", "did", "drop_undone", "goal_interpreter", "presuppose", "presupposed_change", "referents", "VISIT", "visits_on_the_way"]
