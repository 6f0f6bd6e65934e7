"""Templated human-like slips for the new verification set (README sections 4-5).

A :class:`Draft` is the reference plan R as a list of entries ``(step, tag, edit)``:
``ref`` (a step of R, valid), ``ins`` (inserted, REMOVE), ``del`` (a deleted step of R:
not in the plan, a MISSING at the next plan step), ``mis`` (a misplaced step, REMOVE; its
right place is a ``del`` ghost, T3) and ``wrong`` (a wrong-instance step, REMOVE; the step it
replaced is the ``del`` ghost just before it, T4). Each kind function takes a draft, the
program's :class:`~actionable.evaluation.verify_noise.PlanFacts` and a seeded
``random.Random``, and returns a new draft with one more edit (the simulator confirmed the
edit on its own) or ``None`` when no candidate works. Nothing here imports a judge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from actionable.evaluation.verify_noise import PlanFacts, looks_unneeded

#: actions whose repetition changes no object state (candidates for a far twin)
REPEATABLE = frozenset({"LOOKAT", "TURNTO", "WATCH", "TOUCH", "READ", "PUSH", "PULL", "WIPE", "WASH", "RINSE",
                        "SCRUB", "TYPE", "POINTAT", "DRINK", "SQUEEZE", "GREET"})
_WALKS = frozenset({"WALK", "RUN", "FIND"})
#: seats a person sits on for a moment (tried first for "standing again")
SEATS = frozenset({"chair", "couch", "sofa", "bench", "armchair", "stool", "love_seat", "bed", "piano_bench"})


@dataclass(frozen=True)
class Entry:
    step: object
    tag: str  # ref | ins | del | mis | wrong
    edit: int | None = None


@dataclass(frozen=True)
class Draft:
    """R with edits. ``edits``: kinds by edit id (list index); ``facts``: per-edit notes."""

    entries: tuple[Entry, ...]
    edits: tuple[str, ...] = ()
    notes: tuple[dict, ...] = ()

    @classmethod
    def of(cls, steps) -> "Draft":
        return cls(tuple(Entry(s, "ref") for s in steps))

    def plan(self) -> list:
        return [e.step for e in self.entries if e.tag in ("ref", "ins", "mis", "wrong")]

    def with_only(self, edit: int) -> list:
        """R with only ``edit`` applied."""
        out = []
        for e in self.entries:
            mine = e.edit == edit
            if e.tag == "ref" or (e.tag == "del" and not mine) or (e.tag in ("ins", "mis", "wrong") and mine):
                out.append(e.step)
        return out

    def add(self, entries, kind: str, note: dict | None = None) -> "Draft":
        return Draft(tuple(entries), self.edits + (kind,), self.notes + (note or {},))

    @property
    def next_edit(self) -> int:
        return len(self.edits)


def _step(action: str, *nodes: tuple[str, int]):
    from actionable.core.program import Step

    return Step.of(action, *nodes)


def _node(f: PlanFacts, nid: int) -> tuple[str, int]:
    return (f.scene.class_of(nid), nid)


def _used(d: Draft, f: PlanFacts) -> set[int]:
    return {a.id for e in d.entries for a in e.step.args} | f.goal_ids | {f.scene.character_id}


def _try_insert(d: Draft, f: PlanFacts, rng: random.Random, block, kind: str, positions, note=None,
                tries: int = 8) -> Draft | None:
    positions = list(positions)
    rng.shuffle(positions)
    e = d.next_edit
    for p in positions[:tries]:
        entries = list(d.entries[:p]) + [Entry(s, "ins", e) for s in block] + list(d.entries[p:])
        trial = d.add(entries, kind, {**(note or {}), "at": p})
        if f.correct(trial.with_only(e)):
            return trial
    return None


def _all_positions(d: Draft) -> range:
    return range(len(d.entries) + 1)


def side_effect(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Walk to an object no goal names and R never touches; switch it on (or off), open it,
    or move it to another surface; leave it."""
    sc, used = f.scene, _used(d, f)
    rooms = set(sc.rooms)
    cands = []
    for n in sc.node_ids:
        if n in used or n in rooms:
            continue
        props, states = sc.properties_of(n), sc.states_of(n)
        if "HAS_SWITCH" in props and "OFF" in states:
            cands += [("switchon", n)] * 3
        if "HAS_SWITCH" in props and "ON" in states:
            cands.append(("switchoff", n))
        if "CAN_OPEN" in props and "CLOSED" in states:
            cands += [("open", n)] * 2
        if "GRABBABLE" in props and sc.targets(n, "ON"):
            cands.append(("move", n))
    rng.shuffle(cands)
    seen = set()
    for how, n in cands:
        if (how, n) in seen:
            continue
        seen.add((how, n))
        if len(seen) > 6:
            break
        x = _node(f, n)
        if how == "move":
            surf = [s for s in sc.node_ids if "SURFACES" in sc.properties_of(s) and s not in used
                    and s not in sc.targets(n, "ON") and s not in rooms]
            if not surf:
                continue
            y = _node(f, rng.choice(surf))
            block = [_step("WALK", x), _step("GRAB", x), _step("WALK", y), _step("PUTBACK", x, y)]
        else:
            act = {"switchon": "SWITCHON", "switchoff": "SWITCHOFF", "open": "OPEN"}[how]
            block = [_step("WALK", x), _step(act, x)]
        out = _try_insert(d, f, rng, block, "side_effect", _all_positions(d), {"what": how, "object": x[0]})
        if out is not None:
            return out
    return None


def posture(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Sitting/lying again after a SIT/LIE of R (STANDUP + the same posture), or standing
    again in a standing stretch (WALK seat, SIT seat, STANDUP)."""
    sits = [i for i, e in enumerate(d.entries) if e.tag == "ref" and e.step.action in ("SIT", "LIE")]
    opts = []
    for i in sits:
        s = d.entries[i].step
        opts.append(("again", [_step("STANDUP"), s], range(i + 1, min(i + 4, len(d.entries)) + 1)))
    seats = [n for n in f.scene.node_ids if "SITTABLE" in f.scene.properties_of(n) and n not in f.goal_ids
             and n not in set(f.scene.rooms)]
    rng.shuffle(seats)
    seats.sort(key=lambda n: f.scene.class_of(n) not in SEATS)  # a chair or a couch before a mat or a toilet
    for n in seats[:2]:
        x = _node(f, n)
        opts.append(("stand_again", [_step("WALK", x), _step("SIT", x), _step("STANDUP")], _all_positions(d)))
    rng.shuffle(opts)
    opts.sort(key=lambda o: o[0] != "again")  # sitting again first where R sits
    for how, block, pos in opts[:4]:
        out = _try_insert(d, f, rng, block, "posture", pos, {"what": how})
        if out is not None:
            return out
    return None


def far_twin(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """A copy of a step of R at least 3 plan steps after it: a repeatable step (with a walk
    back to its object when the copy alone does not execute), or a placement repeated (walk
    to the object, grab it, put it where it already is)."""
    idx = [i for i, e in enumerate(d.entries) if e.tag == "ref"
           and (e.step.action in REPEATABLE or e.step.action in ("PUTBACK", "PUTIN"))]
    rng.shuffle(idx)
    for i in idx[:5]:
        s = d.entries[i].step
        pos = range(i + 4, len(d.entries) + 1)
        if not pos:
            continue
        x = (s.args[0].name, s.args[0].id)
        blocks = ([[s], [_step("WALK", x), s]] if s.action in REPEATABLE
                  else [[_step("WALK", x), _step("GRAB", x), s]])
        for block in blocks:
            out = _try_insert(d, f, rng, block, "far_twin", pos, {"twin_of": i, "block": len(block)})
            if out is not None:
                return out
    return None


def detour(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """A walk to another room before a walk of R, or a walk away and back after a walk of R."""
    sc = f.scene
    walks = [i for i, e in enumerate(d.entries) if e.tag == "ref" and e.step.action in _WALKS]
    rng.shuffle(walks)
    for i in walks[:4]:
        tgt = d.entries[i].step.args[0]
        here = sc.room_of(tgt.id)
        others = [r for r in sc.rooms if r != here]
        if not others:
            continue
        r = _node(f, rng.choice(others))
        if rng.random() < 0.5:
            out = _try_insert(d, f, rng, [_step("WALK", r)], "detour", [i], {"what": "before_walk"})
        else:
            nxt = next((k for k in range(i + 1, len(d.entries)) if d.entries[k].step.action in _WALKS),
                       len(d.entries))
            out = _try_insert(d, f, rng, [_step("WALK", r), _step("WALK", (tgt.name, tgt.id))], "detour",
                              range(i + 1, nxt + 1), {"what": "away_and_back"})
        if out is not None:
            return out
    return None


def _needed(d: Draft, f: PlanFacts, i: int) -> bool:
    steps = [e.step for k, e in enumerate(d.entries) if e.tag == "ref" and k != i]
    return not f.correct(steps)


def missing(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Delete one needed step of R (non-navigation steps tried first, most of the time)."""
    idx = [i for i, e in enumerate(d.entries) if e.tag == "ref"]
    rng.shuffle(idx)
    if rng.random() < 0.7:
        idx.sort(key=lambda i: d.entries[i].step.action in _WALKS)
    e = d.next_edit
    for i in idx:
        if _needed(d, f, i):
            ents = list(d.entries)
            ents[i] = Entry(ents[i].step, "del", e)
            return d.add(ents, "missing", {"deleted": d.entries[i].step.to_script()})
    return None


def missing_prep(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Delete a needed step and the needed preparation it cannot run without."""
    refs = [i for i, e in enumerate(d.entries) if e.tag == "ref"]
    rng.shuffle(refs)
    e = d.next_edit
    for p in refs:
        others = [k for k in refs if k != p]
        steps = [d.entries[k].step for k in sorted(others)]
        o = f.outcome(steps)
        if o.executes:
            continue
        s = sorted(others)[o.failed]  # the step that cannot run without p
        if s <= p or d.entries[s].step == d.entries[p].step or not _needed(d, f, s) or not _needed(d, f, p):
            continue
        ents = list(d.entries)
        ents[p] = Entry(ents[p].step, "del", e)
        ents[s] = Entry(ents[s].step, "del", e)
        return d.add(ents, "missing_prep", {"prep": d.entries[p].step.to_script(),
                                            "step": d.entries[s].step.to_script()})
    return None


def _swapped(d: Draft, i: int, e: int) -> list:
    a, b = d.entries[i], d.entries[i + 1]
    return list(d.entries[:i]) + [Entry(a.step, "del", e), b, Entry(a.step, "mis", e)] + list(d.entries[i + 2:])


def swap(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Exchange two adjacent steps of R so that the plan fails or loses a goal (T3)."""
    idx = [i for i in range(len(d.entries) - 1) if d.entries[i].tag == d.entries[i + 1].tag == "ref"
           and d.entries[i].step != d.entries[i + 1].step]
    rng.shuffle(idx)
    e = d.next_edit
    for i in idx:
        trial = d.add(_swapped(d, i, e), "swap", {"first": d.entries[i].step.to_script()})
        if not f.correct(trial.with_only(e)):
            return trial
    return None


def wrong_instance(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Every step naming one object of R names another node of its class instead (T4)."""
    sc = f.scene
    objs = sorted({a.id for e in d.entries if e.tag == "ref" for a in e.step.args})
    objs = [o for o in objs if len(sc.nodes_of_class(sc.class_of(o))) > 1 and o not in set(sc.rooms)]
    rng.shuffle(objs)
    objs.sort(key=lambda o: o not in f.goal_ids)
    e = d.next_edit
    from actionable.core.program import Argument, Step

    for o in objs[:4]:
        other = rng.choice([n for n in sc.nodes_of_class(sc.class_of(o)) if n != o])
        ents = []
        for en in d.entries:
            if en.tag == "ref" and any(a.id == o for a in en.step.args):
                new = Step(en.step.action, tuple(Argument(a.name, other if a.id == o else a.id)
                                                 for a in en.step.args))
                ents += [Entry(en.step, "del", e), Entry(new, "wrong", e)]
            else:
                ents.append(en)
        trial = d.add(ents, "wrong_instance", {"object": sc.class_of(o), "was": o, "now": other})
        if not f.correct(trial.with_only(e)):
            return trial
    return None


# --- clean variants -----------------------------------------------------------------------
def early_pickup(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Move a GRAB (with the walk to its object) at least 3 steps earlier; clean if still correct."""
    ents = list(d.entries)
    grabs = [i for i, e in enumerate(ents) if e.step.action == "GRAB"
             and any(ents[k].step.action not in _WALKS and any(a.id == e.step.args[0].id for a in ents[k].step.args)
                     for k in range(i + 1, len(ents)))]
    rng.shuffle(grabs)
    for g in grabs:
        start = g - 1 if g > 0 and ents[g - 1].step.action in _WALKS and \
            ents[g - 1].step.args[0].id == ents[g].step.args[0].id else g
        block = ents[start:g + 1]
        rest = ents[:start] + ents[g + 1:]
        for p in sorted(range(0, start - 2), key=lambda _: rng.random())[:6]:
            trial = rest[:p] + block + rest[p:]
            if f.correct([e.step for e in trial]):
                return Draft(tuple(trial), ("early_pickup",), ({"moved": block[-1].step.to_script(),
                                                                "by": start - p},))
    return None


def harmless_swap(d: Draft, f: PlanFacts, rng: random.Random) -> Draft | None:
    """Exchange two adjacent different steps of R; clean if the plan is still correct."""
    idx = [i for i in range(len(d.entries) - 1) if d.entries[i].step != d.entries[i + 1].step]
    rng.shuffle(idx)
    for i in idx:
        ents = list(d.entries)
        ents[i], ents[i + 1] = ents[i + 1], ents[i]
        if f.correct([e.step for e in ents]):
            return Draft(tuple(ents), ("harmless_swap",), ({"swapped": i},))
    return None


def prep_steps(steps, f: PlanFacts) -> list[int]:
    """Indices of R's steps that look unneeded but are needed (README section 4)."""
    out = []
    for i, s in enumerate(steps):
        if looks_unneeded(s, f) and not f.correct(list(steps[:i]) + list(steps[i + 1:])):
            out.append(i)
    return out


KIND_FUNCS = {"side_effect": side_effect, "posture": posture, "far_twin": far_twin, "detour": detour,
              "missing": missing, "missing_prep": missing_prep, "swap": swap, "wrong_instance": wrong_instance,
              "early_pickup": early_pickup, "harmless_swap": harmless_swap}

def materialize(d: Draft) -> dict:
    """The case fields of a draft: ``plan``, ``labels``, ``reasons``, ``edit_ids``, ``missing``, ``edits``."""
    plan, labels, reasons, eids, miss = [], [], [], [], []
    pending = []
    for en in d.entries:
        if en.tag == "del":
            pending.append(en)
            continue
        for g in pending:
            miss.append({"position": len(plan), "step": g.step.to_script(), "reason": d.edits[g.edit], "edit": g.edit})
        pending = []
        plan.append(en.step.to_script())
        pos = en.tag != "ref"
        labels.append("remove" if pos else "valid")
        reasons.append(d.edits[en.edit] if pos else "")
        eids.append(en.edit if pos else None)
    for g in pending:
        miss.append({"position": len(plan), "step": g.step.to_script(), "reason": d.edits[g.edit], "edit": g.edit})
    edits = [{"id": i, "kind": k, **d.notes[i]} for i, k in enumerate(d.edits)]
    return {"plan": plan, "labels": labels, "reasons": reasons, "edit_ids": eids, "missing": miss, "edits": edits}


__all__ = ["Draft", "Entry", "KIND_FUNCS", "REPEATABLE", "materialize", "prep_steps"]
