"""The THOR world's example bank for the grounded planner's retrieval (LLM-Planner style kNN).

There is no VirtualHome-style program bank for AI2-THOR kitchens. The bank is the driver's
success-flagged object interactions of the 79 TEACh episodes packaged with the world
(:func:`.data.teach_episodes`; TEACh, Padmakumar et al. AAAI 2022, data (c) Amazon.com, Inc. or
its affiliates, CDLA-Sharing-1.0, see ``data/LICENSE-TEACh-CDLA-Sharing-1.0.txt``), one program
per episode in the planner's step vocabulary (:func:`episode_program`). The task of an example is
the episode's description (``Prepare coffee in a clean mug``, ``Water the plant``, ``Boil
Potato``), its description the TEACh task (``Coffee``). TEACh moves are not object interactions,
so the programs hold no walks (the planner's repairs insert them).

A second, optional source (off by default; ``teach_bank(goal_demos=True)``): demonstrations of
the tasks with goal predicates (Make coffee, Boil water), found by a search to the world's goals
in six other ALFRED kitchens (:mod:`.demos`, ``data/goal_demos.json``), because TEACh has no
demonstration of boiling water. Measured, they help "Boil water" little and hurt "Make coffee"
(docs/results.md, "Worlds"), so the planner's default bank is TEACh's alone.

Leakage: :func:`held_out_sources` lists the programs recorded in one AI2-THOR floor plan; an
evaluation in a scene of that floor plan excludes them (``benchmarks/bench_thor_plan.py``). The
goal demonstrations come from floor plans the measurement does not use; a leave-task-out run
(``--protocol title-out``) also excludes every program with the query's task name.
"""

from __future__ import annotations

import functools

from actionable.core.dataset import Example
from actionable.core.program import Argument, Step
from actionable.worlds.thor import data
from actionable.worlds.thor.repair import class_name, put_verb

_BANK_ACT = {"Pickup": "GRAB", "ToggleOn": "SWITCHON", "ToggleOff": "SWITCHOFF", "Open": "OPEN",
             "Close": "CLOSE", "Slice": "CUT", "Clean": "WASH"}


def episode_program(ep: dict) -> tuple[str, ...]:
    """A TEACh episode's success-flagged object interactions as step phrases
    (``Pickup Mug`` -> ``grab mug``; ``Place CoffeeMachine`` with a mug held -> ``put mug in
    coffee machine``; ``Pour HousePlant`` -> ``pour cup into house plant``)."""
    types = {o["id"]: o["type"] for o in ep["objects"]}
    held = next((o["type"] for o in ep["objects"] if "isPickedUp" in o["states"]), None)
    out: list[str] = []
    for act, oid, ok in ep["interactions"]:
        if not ok or not oid:
            continue
        t = types.get(oid, oid.split("|")[0])
        if act in ("Place", "Pour"):
            if held is None:
                continue
            verb = put_verb(t) if act == "Place" else "POUR"
            out.append(Step(verb, (Argument(class_name(held)), Argument(class_name(t)))).to_text())
            held = None if act == "Place" else held
        elif act in _BANK_ACT:
            out.append(Step(_BANK_ACT[act], (Argument(class_name(t)),)).to_text())
            if act == "Pickup":
                held = t
    return tuple(out)


@functools.lru_cache(maxsize=2)
def teach_bank(goal_demos: bool = False) -> tuple[Example, ...]:
    """The example bank (:class:`~actionable.core.dataset.Example` records): one program per TEACh episode (:func:`episode_program`); task = the
    episode's description (``Prepare coffee in a clean mug``), description = its TEACh task
    (``Coffee``), source = ``teach:<game>``; episodes without an interaction are left out. With
    ``goal_demos``, also the demonstrations searched from the world's goal predicates in other
    ALFRED kitchens (:mod:`.demos`; task = the goal task, source = ``goals:<floor plan>``)."""
    exs = [Example(ep["desc"].strip().rstrip("."), ep["task"], episode_program(ep), f"teach:{g}")
           for g, ep in sorted(data.teach_episodes().items())]
    if goal_demos:
        exs += [Example(d["task"], "", tuple(d["steps"]), f"goals:{d['scene']}") for d in data.goal_demos()]
    return tuple(e for e in exs if e.steps)


def floor_plan(world: str) -> str:
    """``FloorPlan10_physics`` / ``FloorPlan10`` -> ``FloorPlan10``."""
    return world.split("_")[0]


def held_out_sources(plan: str) -> tuple[str, ...]:
    """Sources of the bank recorded in floor plan ``plan`` (``FloorPlan10``): its TEACh episodes
    (``teach:<game>``) and its goal demonstrations (``goals:<plan>``)."""
    return tuple(f"teach:{g}" for g, ep in sorted(data.teach_episodes().items()) if floor_plan(ep["world"]) == plan) \
        + tuple(dict.fromkeys(f"goals:{d['scene']}" for d in data.goal_demos() if floor_plan(d["scene"]) == plan))


__all__ = ["teach_bank", "episode_program", "held_out_sources", "floor_plan"]
