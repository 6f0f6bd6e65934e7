"""EAI's stateless actions and the action goals a task name says (issue 24, EAI goal
interpretation): shared by the retrieval predictor (:mod:`~actionable.evaluation.eai.goal_retrieval`)
and the interpreter's predictor (:func:`~actionable.evaluation.eai.planners.interpreter_predictor`).
"""

from __future__ import annotations

import re

#: EAI's actions that change no state VirtualHome records: when the task's name says one ("Read
#: book", "Drink"), node and edge goals cannot describe it, so it is an action goal (EAI's prompt:
#: "if node goals and edge goals are not enough to fully describe the goal, add action goals")
STATELESS_ACTIONS = frozenset({"READ", "DRINK", "EAT", "SLEEP", "TYPE", "TOUCH", "GREET", "WATCH", "LOOKAT"})

#: English verbs of a name that say one of EAI's stateless actions under another word ("Pet cat":
#: VirtualHome has no PET; its TOUCH is the act). Written looking at the tune half's titles (module
#: doc of :func:`~actionable.evaluation.eai.goal_retrieval.retrieval_predictor`).
ACTION_WORDS = {"PET": "TOUCH", "STROKE": "TOUCH", "PAT": "TOUCH", "WRITE": "TYPE"}

#: Stateless actions whose executor needs a posture (``SleepExecutor``: the character LYING or
#: SITTING): a posture the description reads belongs to the task.
POSTURE_ACTIONS = frozenset({"SLEEP"})


#: node states of which a thing has one at a time (EAI's state pairs; the character's posture)
EXCLUSIVE_STATES = (frozenset({"ON", "OFF"}), frozenset({"OPEN", "CLOSED"}), frozenset({"PLUGGED_IN", "PLUGGED_OUT"}),
                    frozenset({"CLEAN", "DIRTY"}), frozenset({"SITTING", "LYING"}))


def exclusive(a: str, b: str) -> bool:
    """States ``a`` and ``b`` (EAI's names) differ and a thing has at most one of them
    (:data:`EXCLUSIVE_STATES`): ``exclusive("ON", "OFF")`` is True."""
    return a != b and any(a in pair and b in pair for pair in EXCLUSIVE_STATES)


def title_actions(task_name: str) -> set:
    """The action goals a name says: its words in :data:`STATELESS_ACTIONS`, or in
    :data:`ACTION_WORDS` (``"Pet cat"`` -> TOUCH)."""
    out = set()
    for w in re.findall(r"[A-Za-z]+", task_name.upper()):
        a = w if w in STATELESS_ACTIONS else ACTION_WORDS.get(w)
        if a:
            out.add(("action", a))
    return out


__all__ = ["ACTION_WORDS", "EXCLUSIVE_STATES", "exclusive", "POSTURE_ACTIONS", "STATELESS_ACTIONS", "title_actions"]
