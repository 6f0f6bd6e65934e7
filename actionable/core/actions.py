"""Tables of the shared step vocabulary (:mod:`actionable.core.program`) that methods and worlds
both read: which action undoes which, which only move the agent, which put a held object down,
and which action sets which object state.

They describe the *vocabulary* (VirtualHome's 44 actions, which the other worlds map onto), not a
world's semantics; the simulators stay the judge of what a step does.
"""

from __future__ import annotations

#: Pairs of actions where the second undoes the first (both directions).
INVERSE_ACTIONS: dict[str, str] = {
    "SWITCHON": "SWITCHOFF", "SWITCHOFF": "SWITCHON", "OPEN": "CLOSE", "CLOSE": "OPEN",
    "PLUGIN": "PLUGOUT", "PLUGOUT": "PLUGIN",
}
#: Posture actions undone by STANDUP (and STANDUP undone by them): the agent's
#: state, not an object's, so they pair without a shared argument.
POSTURE_ACTIONS = frozenset({"SIT", "LIE"})
#: Actions that only move or orient the agent; they do not "use" an object.
NAVIGATION = frozenset({"WALK", "RUN", "FIND", "TURNTO", "LOOKAT", "LOOKAT_SHORT", "LOOKAT_LONG",
                        "POINTAT"})
#: Actions that put a held object somewhere.
PUT_ACTIONS = frozenset({"PUTBACK", "PUTIN"})
#: Actions that take their first object into a hand.
TAKE_ACTIONS = frozenset({"GRAB"})
#: Actions that put their first object out of the hands (put somewhere, dropped, let go).
RELEASE_ACTIONS = PUT_ACTIONS | frozenset({"PUTOBJBACK", "DROP", "RELEASE"})
#: The action that establishes an object state (a goal state, or a precondition).
STATE_FIX: dict[str, str] = {"ON": "SWITCHON", "OFF": "SWITCHOFF", "OPEN": "OPEN", "CLOSED": "CLOSE",
                             "PLUGGED_IN": "PLUGIN", "PLUGGED_OUT": "PLUGOUT"}
#: The object state each state-setting action makes (the inverse of :data:`STATE_FIX`).
EFFECT_STATE: dict[str, str] = {act: state for state, act in STATE_FIX.items()}

__all__ = ["INVERSE_ACTIONS", "POSTURE_ACTIONS", "NAVIGATION", "PUT_ACTIONS", "RELEASE_ACTIONS", "STATE_FIX", "TAKE_ACTIONS", "EFFECT_STATE"]
