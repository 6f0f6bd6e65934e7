"""Replay TEACh demonstrations in the THOR world (a check against real AI2-THOR behaviour).

For each of the 79 packaged TEACh episodes, the driver's object interactions that succeeded in
AI2-THOR (``success == 1``) are run from the episode's initial state, in order. TEACh's motion
actions (Forward, Turn, ...) are not modelled: before an interaction whose object is out of reach,
one ``GotoLocation(<that object>)`` stands in for the walk. A replay stops at the first
interaction our preconditions reject. After a full replay the final state is compared with
TEACh's recorded ``final_state`` on the objects the driver touched (parent, isOpen, isToggled,
isDirty, isFilledWithLiquid, coffee, isBoiled). Interactions AI2-THOR refused are checked
the other way round (would we refuse them too, in the state reached, agent where it stands).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from actionable.core.world import Action
from actionable.worlds.thor import actions as A
from actionable.worlds.thor import data
from actionable.worlds.thor.world import ThorWorld

#: TEACh interaction name -> THOR world action
TEACH_TO_WORLD = {"Pickup": "PickUp", "Place": "Place", "Open": "Open", "Close": "Close",
                  "ToggleOn": "ToggleOn", "ToggleOff": "ToggleOff", "Slice": "Slice", "Pour": "Pour",
                  "Clean": "Clean", "Fill": "Fill"}


@dataclass
class ReplayResult:
    """One episode's replay: ``n_actions`` success-flagged interactions, ``n_executed`` of them
    ran; ``failed`` is None or ``(index, action text, unmet preconditions)``; ``mismatches``
    lists final-state differences (``"<id>: isDirty ours=False teach=True"``)."""

    game: str
    task: str
    n_actions: int
    n_executed: int
    n_gotos: int
    failed: tuple[int, str, list[str]] | None = None
    #: interactions AI2-THOR refused (``success == 0``, with an object): how many, and how many we refuse too
    n_refused: int = 0
    n_refused_too: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return self.failed is None


def _final_view(objs: list[dict]) -> dict[str, dict]:
    out = {}
    for o in objs:
        st = set(o["states"])
        out[o["id"]] = {"parent": o["parent"], "isOpen": "isOpen" in st, "isToggled": "isToggled" in st,
                        "isDirty": "isDirty" in st,
                        "isFilledWithLiquid": "isFilledWithLiquid" in st or "simbotIsFilledWithWater" in st
                        or "simbotIsFilledWithCoffee" in st,
                        "coffee": "simbotIsFilledWithCoffee" in st, "held": "isPickedUp" in st,
                        "isBoiled": "simbotIsBoiled" in st}
    return out


def replay_episode(game: str, world: ThorWorld | None = None) -> ReplayResult:
    """Replay TEACh episode ``game`` (see the module doc). Raises UnknownSceneError for an unknown game."""
    w = world or ThorWorld()
    w.reset(options={"scene": f"teach:{game}"})
    ep = data.teach_episodes()[game]
    todo = [(TEACH_TO_WORLD.get(a), oid, ok) for a, oid, ok in ep["interactions"] if ok == 1 or oid]
    res = ReplayResult(game, ep["task"], sum(t[2] == 1 for t in todo), 0, 0)
    s = w.state
    touched: set[str] = set()
    i = -1
    for name, oid, ok in todo:
        if ok != 1:  # refused by AI2-THOR: do we refuse it too (from wherever it was tried)?
            if name and oid in s.objects:
                res.n_refused += 1
                res.n_refused_too += bool(A.execute(s, name, (oid,), check_only=True))
            continue
        i += 1
        if name is None or oid not in s.objects:
            res.failed = (i, f"{name}({oid})", [f"object {oid} absent from the initial state" if name
                                               else "action not modelled"])
            return res
        if not s.reachable(oid):
            w.step(Action("GotoLocation", (oid,)))
            res.n_gotos += 1
        held_before = s.held
        *_, info = w.step(Action(name, (oid,)))
        if not info["executed"]:
            res.failed = (i, info["action"], info["unmet_preconditions"])
            return res
        res.n_executed += 1
        touched.update(x for x in (oid, held_before, s.held) if x)
    final = _final_view(ep["final"])
    for oid in sorted(touched):
        if oid not in final:
            continue
        o, f = s.objects[oid], final[oid]
        ours = {"parent": o.parent, "isOpen": o.open, "isToggled": o.on, "isDirty": o.dirty,
                "isFilledWithLiquid": o.filled, "coffee": o.liquid == "coffee", "held": s.held == oid,
                "isBoiled": o.boiled}
        if o.type == "StoveBurner":
            ours.pop("isToggled")  # AI2-THOR burners never report isToggled (their knob does)
        if f["held"] or ours["held"] or "pickupable" not in o.caps:
            ours.pop("parent")  # fixtures stand on their own here (see scene.ThorState)
        for k, v in ours.items():
            if v != f[k]:
                res.mismatches.append(f"{oid}: {k} ours={v} teach={f[k]}")
    return res


def replay_all() -> list[ReplayResult]:
    """Replay every packaged TEACh episode (sorted by game id)."""
    w = ThorWorld()
    return [replay_episode(g, w) for g in sorted(data.teach_episodes())]
