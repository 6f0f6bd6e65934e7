"""ALFRED's PDDL domain through ``unified-planning`` (optional; benchmark and cross-check only).

Neither ``unified-planning`` 1.3.0 nor ``pddl`` 0.5.1 loads ``alfred.pddl`` as shipped (see
docs/worlds.md). :func:`patched_domain` applies the documented patch:

1. drop the observation actions ``look``, ``inventory``, ``examineReceptacle``, ``examineObject``
   and ``help`` (they apply ``checked``, declared for receptacles, to locations and the agent);
2. declare the type constants the actions use (``SinkBasinType``, ``MicrowaveType``,
   ``FridgeType`` - rtype; ``KnifeType``, ``ButterKnifeType`` - otype);
3. drop action costs (``:action-costs``, ``:functions``, every ``(increase (total-cost) n)``).

:func:`problem_text` writes a PDDL problem for a THOR state; :class:`UPTrajectory` replays ALFRED
actions with UP's sequential simulator. ``unified-planning`` is not a dependency of the project:
this module imports it lazily and raises ``BackendUnavailableError`` when it is missing.
"""

from __future__ import annotations

import re

from actionable.core.errors import BackendUnavailableError
from actionable.core.world import Action
from actionable.worlds.thor import data
from actionable.worlds.thor.scene import ThorState

OBSERVATION_ACTIONS = ("look", "inventory", "examineReceptacle", "examineObject", "help")
CONSTANTS = "(:constants SinkBasinType MicrowaveType FridgeType - rtype KnifeType ButterKnifeType - otype)"


def _drop_block(text: str, start: int) -> str:
    depth, i = 0, start
    while True:
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[:start] + text[i + 1:]
        i += 1


def patched_domain() -> str:
    """``alfred.pddl`` with the three documented patches (text)."""
    text = "\n".join(line.split(";", 1)[0] for line in data.domain_text().splitlines())
    for name in OBSERVATION_ACTIONS:
        text = _drop_block(text, text.index(f"(:action {name}"))
    text = _drop_block(text, text.index("(:functions"))
    text = re.sub(r"\(increase \(total-cost\) \d+\)", "", text)
    text = text.replace(":action-costs", "")
    return text.replace("(:predicates", CONSTANTS + "\n (:predicates", 1)


class Names:
    """PDDL-safe names for THOR ids (``o12``, ``r3``, ``l4``) and their types."""

    def __init__(self, s: ThorState):
        self.s = s
        self.rec = sorted(i for i, o in s.objects.items() if "pickupable" not in o.caps and "receptacle" in o.caps)
        self.obj = sorted(i for i, o in s.objects.items() if "pickupable" in o.caps)
        self.loc = sorted({s.scene.loc_key.get(r, r) for r in self.rec})
        self.name = {i: f"r{k}" for k, i in enumerate(self.rec)}
        self.name.update({i: f"o{k}" for k, i in enumerate(self.obj)})
        self.lname = {l: f"l{k}" for k, l in enumerate(self.loc)}

    def at(self, rid: str) -> str:
        return self.lname[self.s.scene.loc_key.get(rid, rid)]


def problem_text(s: ThorState) -> str:
    """A PDDL problem of the patched domain for an ALFRED-layout state (agent at ``lstart``)."""
    n = Names(s)
    cc = data.can_contain()
    ao = data.action_objects()
    rtypes = sorted({s.objects[r].type for r in n.rec} | {"SinkBasin", "Microwave", "Fridge"})
    otypes = sorted({s.objects[o].type for o in n.obj} | {"Knife", "ButterKnife"})
    init = ["(atLocation agent0 lstart)"]
    for r in n.rec:
        o = s.objects[r]
        init += [f"(receptacleAtLocation {n.name[r]} {n.at(r)})", f"(receptacleType {n.name[r]} {o.type}Type)"]
        if "openable" in o.caps:
            init.append(f"(openable {n.name[r]})")
        if o.open:
            init.append(f"(opened {n.name[r]})")
    for i in n.obj:
        o = s.objects[i]
        init += [f"(objectType {n.name[i]} {o.type}Type)", f"(pickupable {n.name[i]})"]
        if o.parent in n.name and o.parent in n.rec:
            init += [f"(inReceptacle {n.name[i]} {n.name[o.parent]})",
                     f"(objectAtLocation {n.name[i]} {n.at(o.parent)})"]
        for pred, key in (("cleanable", "Cleanable"), ("heatable", "Heatable"), ("coolable", "Coolable"),
                          ("sliceable", "Sliceable"), ("toggleable", "Toggleable")):
            if o.type in ao[key]:
                init.append(f"({pred} {n.name[i]})")
    for rt in rtypes:
        for ot in otypes:
            if ot in cc.get(rt, ()):
                init.append(f"(canContain {rt}Type {ot}Type)")
    const = {"SinkBasinType", "MicrowaveType", "FridgeType", "KnifeType", "ButterKnifeType"}
    objs = ["agent0 - agent", " ".join(["lstart", *n.lname.values()]) + " - location",
            " ".join(n.name[r] for r in n.rec) + " - receptacle",
            " ".join(n.name[o] for o in n.obj) + " - object",
            " ".join(f"{t}Type" for t in rtypes if f"{t}Type" not in const) + " - rtype",
            " ".join(f"{t}Type" for t in otypes if f"{t}Type" not in const) + " - otype"]
    return ("(define (problem thor) (:domain alfred)\n (:objects\n  " + "\n  ".join(objs) + ")\n (:init\n  "
            + "\n  ".join(init) + ")\n (:goal (and (atLocation agent0 lstart))))\n")


def pddl_params(s: ThorState, n: Names, a: Action, agent_loc: str) -> tuple[str, list[str]]:
    """The PDDL action name and parameters (agent and locations filled in) of ALFRED action ``a``
    taken in ``s`` (before it is applied); ``agent_loc`` is the PDDL location of the agent."""
    nm = n.name
    if a.name == "GotoLocation":
        return a.name, ["agent0", agent_loc, n.at(a.args[0]), nm[a.args[0]]]
    if a.name in ("OpenObject", "CloseObject"):
        return a.name, ["agent0", agent_loc, nm[a.args[0]]]
    if a.name == "PickupObject":
        r = a.args[1] if len(a.args) > 1 else s.objects[a.args[0]].parent
        return a.name, ["agent0", agent_loc, nm[a.args[0]], nm[r]]
    if a.name == "PutObject":
        o, r = a.args
        return a.name, ["agent0", agent_loc, nm[o], nm[r], f"{s.objects[o].type}Type", f"{s.objects[r].type}Type"]
    if a.name in ("CleanObject", "HeatObject", "CoolObject"):
        return a.name, ["agent0", agent_loc, nm[a.args[0]], nm[a.args[1]]]
    raise ValueError(f"{a.name} is not mapped to PDDL here")


class UPTrajectory:
    """UP's sequential simulator on the patched domain and a THOR state's problem.

    ``apply(name, params) -> bool`` (applicable and applied); ``unsatisfied(name, params)`` names the
    failed conditions (UP's ``get_unsatisfied_conditions``)."""

    def __init__(self, s: ThorState):
        try:
            from unified_planning.io import PDDLReader
            from unified_planning.shortcuts import SequentialSimulator, get_environment
        except ImportError as exc:  # pragma: no cover - optional
            raise BackendUnavailableError("pip install unified-planning==1.3.0 to run the UP backend") from exc
        get_environment().credits_stream = None
        self.problem = PDDLReader().parse_problem_string(patched_domain(), problem_text(s))
        self.sim = SequentialSimulator(problem=self.problem)
        self.state = self.sim.get_initial_state()
        self._objs = {}

    def _grounded(self, name: str, params: list[str]):
        act = self.problem.action(name.lower())  # UP's PDDL reader lower-cases names
        objs = []
        for p in params:
            if p not in self._objs:
                self._objs[p] = self.problem.environment.expression_manager.ObjectExp(
                    self.problem.object(p.lower()))
            objs.append(self._objs[p])
        return act, objs

    def apply(self, name: str, params: list[str]) -> bool:
        act, objs = self._grounded(name, params)
        if not self.sim.is_applicable(self.state, act, objs):
            return False
        self.state = self.sim.apply(self.state, act, objs)
        return True
