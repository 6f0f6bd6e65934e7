"""VirtualHome's goal conditions on a state: the :class:`~actionable.core.conditions.ConditionView` of a
simulator state or scene graph (:class:`ConditionViewVH`), and a reading turned into the judges'
:class:`~actionable.core.goals.GoalSpec` (:func:`reading_to_spec`). The reading itself is
:mod:`actionable.worlds.virtualhome.interpret`."""

from __future__ import annotations

from actionable.core.conditions import CHARACTER, Condition, GoalReading
from actionable.worlds.virtualhome.intents import _room_classes


#: the relations that say the character holds a thing: in either hand (``HOLDS``, the readings'),
#: or in the hand VirtualHome records (EAI's annotated goals)
HOLDING = frozenset({"HOLDS", "HOLDS_RH", "HOLDS_LH"})


class ConditionViewVH:
    """:class:`~actionable.core.conditions.ConditionView` of a simulator state (a ``StateView`` or a
    ``SceneGraph``)."""

    def __init__(self, view):
        self.v = view
        self.char = view.character_id

    def _id(self, x):
        return self.char if x == CHARACTER else x

    def holds(self, c: Condition) -> bool:
        s = self._id(c.subject)
        if c.kind == "state":
            ok = c.value in self.v.states_of(s)
        elif c.value == "HOLDS":
            t = self._id(c.target)
            ok = t in self.v.targets(s, "HOLDS_RH") or t in self.v.targets(s, "HOLDS_LH")
        elif c.value == "INSIDE" and self.v.class_of(c.target) in _room_classes(self.v):
            ok = (self.v.room_of(s) if s == self.char else self.room_now(s)) == c.target
        elif c.value == "ON" and s == self.char:
            # VirtualHome keeps the character's ON edge after STANDUP: sitting on the bed, standing up
            # and lying on the couch leaves it ON both. Where it is ON two pieces of furniture it is
            # not known which one it is on now, so neither counts (the plan must end on one)
            on = self.v.targets(s, "ON")
            ok = self._id(c.target) in on and len(on) == 1
        else:
            ok = self._id(c.target) in self.v.targets(s, c.value)
        return ok != c.negate

    def room_now(self, obj, depth: int = 0):
        """The room ``obj`` is in now. VirtualHome's executor keeps an object's first INSIDE edge to a
        room when the object is moved (a novel put on the bedroom's nightstand is still INSIDE the
        home office), so the room is that of what holds the object now: the character's hands, or what it
        stands on or in; the INSIDE-room edge only when nothing else holds it."""
        if obj in self.v.targets(self.char, "HOLDS_RH") or obj in self.v.targets(self.char, "HOLDS_LH"):
            return self.v.room_of(self.char)
        rooms = _room_classes(self.v)
        if depth < 4:
            for rel in ("ON", "INSIDE"):
                for t in self.v.targets(obj, rel):
                    if t != obj and self.v.class_of(t) not in rooms:
                        return self.room_now(t, depth + 1)
        return self.v.room_of(obj)


def reading_to_spec(reading: GoalReading, plan, graph):
    """A :class:`~actionable.core.goals.GoalSpec` for the judges (``verify``): each clause bound to
    the option whose objects ``plan`` (a resolved program) uses, else its first option. Conditions a
    ``GoalSpec`` cannot state (negated, HOLDS in either hand, the character's room) are left out;
    ``None`` when nothing is left. An object's room ("bring the book to the bedroom") is bound to
    where the plan last puts it when that is in the room (ON / INSIDE that furniture: the
    simulator's own room edge of a moved object is stale, :meth:`ConditionViewVH.room_now`), else
    to the room edge (met only when it was there from the start)."""
    from actionable.core.goals import ActionGoal, GoalSpec, RelationGoal, StateGoal

    used = {a.id for s in plan.steps for a in s.args if a.id is not None}
    char = graph.character_id
    states, rels, acts = [], [], []
    for clause in reading.clauses:
        opts = sorted(clause.options, key=lambda o: -sum(x in used for x in (o.subject, o.target)))
        o = opts[0]
        subj = char if o.subject == CHARACTER else o.subject
        if o.negate:
            continue
        if o.kind == "state":
            states.append(StateGoal(subj, graph.class_of(subj) or "", o.value))
        elif o.kind == "action":
            acts.append(ActionGoal(tuple(o.value.split("|"))))
        elif o.value in ("ON", "INSIDE", "FACING", "CLOSE") and o.target not in _room_ids(graph):
            rels.append(RelationGoal(subj, o.value, char if o.target == CHARACTER else o.target))
        elif o.value == "INSIDE" and subj != char:  # an object taken to a room
            puts = [st for st in plan.steps if st.action in ("PUTBACK", "PUTIN") and len(st.args) == 2
                    and st.args[0].id == subj]
            last = puts[-1] if puts else None
            if last is not None and last.args[1].id is not None and graph.room_of(last.args[1].id) == o.target:
                rels.append(RelationGoal(subj, "ON" if last.action == "PUTBACK" else "INSIDE", last.args[1].id))
            else:
                rels.append(RelationGoal(subj, "INSIDE", o.target))
    spec = GoalSpec("the goal text", reading.task, tuple(dict.fromkeys(states)), tuple(dict.fromkeys(rels)),
                    tuple(dict.fromkeys(acts)))
    return spec if spec.total else None


def _room_ids(graph) -> set:
    return set(graph.rooms)


def _as_view(state, graph):
    """A ``StateView`` of a simulator state, or the state itself when it is already a view or graph."""
    if hasattr(state, "states_of"):
        return state
    from actionable.worlds.virtualhome.simulator import StateView

    return StateView(state, graph.character_id)


__all__ = ["ConditionViewVH", "reading_to_spec"]
