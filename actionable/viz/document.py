"""Replay documents: the plain data an HTML replay or PNG figure is drawn from.

Built from what a command already computed (a :class:`PlanResult`'s ``to_dict()``, a verify
``to_dict()``, a ``follow --trace`` JSONL), plus, for plans and verifications, the world's
``scene_map`` capability (:mod:`actionable.core.scene_map`): its map and one replay of the
resolved steps (a cheap symbolic replay: the plan is not planned again). A document is JSON::

    {"format": "actionable-replay", "version": 1, "kind": "plan" | "verify" | "follow",
     "title": str, "world": str, "scene": str, "map": <map> | None,
     "steps": [{"n": int (1-based), "text": str, "script": str, "repair": bool, "executed": bool,
                "room": str | None, "at": str | None, "held": [str], "changes": [str],
                "error": str | None, "unmet": [str]}],
     "goals": [{"text": str, "met": bool, "step": int | None}], "summary": [str],
     # verify:  "before": [str], "after": [str], "critiques": [{"round", "kind", "step", "reason"}]
     # follow:  "instructions": [{"text", "query", "spans": [{"start", "end", "outcome"}]}],
     #          "timeline": [{"t", "room", "skill", "ok", "error", "v_t", "v_r", "why",
     #                        "p": [P(q) | None per instruction], "truth": [bool | None ...],
     #                        "done": [int], "changed": [str]}]}
"""

from __future__ import annotations

import re
from typing import Any, Iterable

FORMAT = "actionable-replay"
VERSION = 1


def _scene_mapper(world: str, scene: Any):
    """The world's ``scene_map`` for ``scene``, or ``None`` when the world has no such capability."""
    from actionable.core.errors import MissingCapabilityError
    from actionable.core.registry import capability

    try:
        factory = capability(world, "scene_map")
    except MissingCapabilityError:
        return None
    return factory(scene)


def _step_obj(d: Any):
    from actionable.core.errors import ProgramParseError
    from actionable.core.program import Argument, Step, parse_step

    if isinstance(d, dict):
        try:
            return Step.from_dict(d)
        except ProgramParseError:  # a world whose object ids are not numbers (THOR's "Mug|+1.0|...")
            return Step(str(d.get("action", "")), tuple(Argument(str(n), i) for n, i in d.get("args", [])))
    if isinstance(d, str):
        return parse_step(d)
    return d


def _text(step) -> str:
    try:
        return step.unresolved().to_text()
    except Exception:  # noqa: BLE001 - a world's step without the phrase table: its script
        return step.to_script()


def _goal_rows(goal_check: dict | None, steps: list[dict]) -> tuple[list[dict], str]:
    """Goal conditions from a plan's ``goal_check`` (``met``/``total``/``unmet``, or ``conditions``
    where the world lists them), each with the first step whose changes name its object and state
    (``None`` when no step did: it held from the start, or was never made true)."""
    gc = goal_check or {}
    if not gc.get("checked"):
        return [], str(gc.get("reason") or "goal not checked")
    rows = []
    conds = gc.get("conditions")
    if conds is None:
        unmet = [str(u) for u in gc.get("unmet") or []]
        conds = [{"text": u, "met": False} for u in unmet]
        n_met = int(gc.get("met") or 0)
        if n_met:
            conds = [{"text": f"{n_met} condition{'s' if n_met != 1 else ''} met (not listed by the world)",
                      "met": True, "summary": True}] + conds
    for c in conds:
        text = str(c.get("text") if isinstance(c, dict) else c)
        met = bool(c.get("met")) if isinstance(c, dict) else False
        row = {"text": text, "met": met, "step": None}
        if isinstance(c, dict) and "step" in c:  # the goal interpreter's check says when it became true
            row["step"] = c["step"] if met else None
        elif met and not (isinstance(c, dict) and c.get("summary")):
            row["step"] = _made_true_at(text, steps)
        rows.append(row)
    verdict = f"{gc.get('met', sum(r['met'] for r in rows))} of {gc.get('total', len(rows))} goal conditions met"
    return rows, verdict


_STATE_GOAL = re.compile(r"^(\w+)\((\w+)\.(\w+)\)$")      # ON(television.410)
_REL_GOAL = re.compile(r"^(\w+)\((\w+),\s*(\w+)\)$")       # INSIDE(12, 30)
_ACT_GOAL = re.compile(r"^did\(([\w|]+)\)$")                  # did(SWITCHON|PLUGIN)


def _made_true_at(text: str, steps: list[dict]) -> int | None:
    """The first step (1-based) whose state changes make goal condition ``text`` true, read from
    the condition's own form (a state, a relation, an action); ``None`` when no step did (it held
    from the start) or the form is not one of these."""
    m = _STATE_GOAL.match(text)
    if m:
        state, cls, nid = m.groups()
        for s in steps:
            for ch in s.get("changes") or []:
                head, _, after = ch.partition(": ")
                now = [x.strip() for x in after.split("->")[-1].split("/")] if "->" in after else []
                if (f"({nid})" in head or head.startswith(cls + " ")) and state in now:
                    return s["n"]
        return None
    m = _REL_GOAL.match(text)
    if m:
        rel, a, b = m.groups()
        for s in steps:
            if any(f"({a}): {rel} " in ch and f"({b})" in ch for ch in s.get("changes") or []):
                return s["n"]
        return None
    m = _ACT_GOAL.match(text)
    if m:
        acts = set(m.group(1).split("|"))
        for s in steps:
            if s.get("executed") and s.get("script", "").lstrip("[").split("]")[0] in acts:
                return s["n"]
    return None


def plan_document(plan: dict, world: str | None = None, scene: Any = None, mapper=None) -> dict:
    """The replay of one plan.

    Args:
        plan: ``PlanResult.to_dict()`` (``actionable plan --json``, or the ``plan`` of an eval record).
        world, scene: where it ran (default: the dict's ``world``/``scene``, else VirtualHome's
            default house); ``scene`` may be the world's loaded scene object (no reload).
        mapper: a ready :class:`~actionable.core.scene_map.SceneMapper` (overrides world/scene).

    Raises:
        InputError: ``plan`` is not a plan record. SceneError / UnknownWorldError from the world.
    """
    from actionable.core.errors import InputError

    if not isinstance(plan, dict) or "steps" not in plan or "task" not in plan:
        raise InputError("not a plan record: expected the JSON of `actionable plan --json` "
                         "(keys 'task', 'steps', 'resolved_program')")
    world = world or plan.get("world") or "virtualhome"
    if scene is None:
        scene = plan.get("scene") or "default"
    if mapper is None:
        mapper = _scene_mapper(world, scene)
    resolved = (plan.get("resolved_program") or {}).get("steps") or []
    if not resolved:
        resolved = [s["step"] for s in plan["steps"] if s.get("step")]
    steps = [_step_obj(s) for s in resolved]
    rflags = list(plan.get("resolved_repaired") or [])
    if not rflags:
        rflags = [bool(s.get("repaired")) for s in plan["steps"] if s.get("step")]
    frames = mapper.replay(steps) if mapper is not None else []
    ex = plan.get("executability") or {}
    rows = []
    for i, st in enumerate(steps):
        fr = frames[i] if i < len(frames) else None
        row = {"n": i + 1, "text": _text(st), "script": st.to_script(),
               "repair": bool(rflags[i]) if i < len(rflags) else False,
               "executed": bool(fr["executed"]) if fr else (ex.get("failed_index") is None or i < ex["failed_index"]),
               "room": fr.get("room") if fr else None, "at": fr.get("at") if fr else None,
               "held": list(fr.get("held") or []) if fr else [], "changes": list(fr.get("changes") or []) if fr else [],
               "error": fr.get("error") if fr and not fr["executed"] else None,
               "unmet": list(fr.get("unmet") or []) if fr and not fr["executed"] else []}
        if fr is None and ex.get("failed_index") == i:
            row.update(error=ex.get("error"), unmet=list(ex.get("unmet_preconditions") or []), executed=False)
        rows.append(row)
    focus = sorted({str(a.id) for st in steps for a in getattr(st, "args", ()) if a.id is not None})
    goals, verdict = _goal_rows(plan.get("goal_check"), rows)
    summary = [("executable" if ex.get("executable") else "not executable") if ex else "not executed",
               verdict, f"{sum(r['repair'] for r in rows)} repair step(s)", f"stop: {plan.get('stop_reason', '')}"]
    return {"format": FORMAT, "version": VERSION, "kind": "plan", "title": str(plan["task"]), "world": world,
            "scene": getattr(scene, "name", scene) if not isinstance(scene, str) else scene,
            "map": mapper.layout(focus) if mapper is not None else None, "steps": rows, "goals": goals,
            "summary": summary}


def verify_document(result: dict, world: str | None = None, scene: Any = None, mapper=None) -> dict:
    """The replay of one verification (``LoopResult.to_dict()`` / ``actionable verify --json``):
    the plan before and after, every critique with its round, and the final plan replayed.

    Raises:
        InputError: not a verify record.
    """
    from actionable.core.errors import InputError

    if not isinstance(result, dict) or "initial" not in result or "final" not in result:
        raise InputError("not a verify record: expected the JSON of `actionable verify --json` "
                         "(keys 'initial', 'final', 'rounds')")
    world = world or result.get("world") or "virtualhome"
    scene = scene if scene is not None else (result.get("scene") or "default")
    before, after = _plan_lines(result["initial"]), _plan_lines(result["final"])
    critiques = []
    for k, rnd in enumerate(result.get("rounds") or [], 1):
        for c in _critiques_of(rnd):
            critiques.append({"round": rnd.get("round", k) if isinstance(rnd, dict) else k, **c})
    if mapper is None:
        mapper = _scene_mapper(world, scene)
    steps, frames = [], []
    if mapper is not None:
        try:
            steps = [_step_obj(s) for s in after]
            frames = mapper.replay(steps)
        except Exception:  # noqa: BLE001 - a final plan the world cannot replay still shows its critiques
            steps, frames = [], []
    rows = []
    for i, line in enumerate(after):
        fr = frames[i] if i < len(frames) else {}
        st = steps[i] if i < len(steps) else None
        rows.append({"n": i + 1, "text": _text(st) if st is not None else line, "script": line, "repair": False,
                     "executed": bool(fr.get("executed", True)), "room": fr.get("room"), "at": fr.get("at"),
                     "held": list(fr.get("held") or []), "changes": list(fr.get("changes") or []),
                     "error": fr.get("error") if fr and not fr.get("executed") else None,
                     "unmet": list(fr.get("unmet") or []) if fr and not fr.get("executed") else []})
    goals = []
    rounds = [r for r in result.get("rounds") or [] if isinstance(r, dict)]
    conds = result.get("goal_conditions") or next(
        (r["goal_conditions"] for r in reversed(rounds) if r.get("goal_conditions")), [])
    for g in conds:
        if isinstance(g, dict):
            goals.append({"text": str(g.get("text") or g.get("condition") or g),
                          "met": g.get("met") if isinstance(g.get("met"), bool) else None, "step": None})
        else:
            goals.append({"text": str(g), "met": None, "step": None})
    focus = sorted({str(a.id) for st in steps for a in getattr(st, "args", ()) if a.id is not None})
    summary = [f"{len(critiques)} critique(s) in {len(result.get('rounds') or [])} round(s)",
               "converged" if result.get("converged") else "not converged",
               f"{len(before)} -> {len(after)} steps"]
    return {"format": FORMAT, "version": VERSION, "kind": "verify", "title": str(result.get("goal") or result.get("task") or ""),
            "world": world, "scene": scene if isinstance(scene, str) else getattr(scene, "name", ""),
            "map": mapper.layout(focus) if mapper is not None and steps else None, "steps": rows, "goals": goals,
            "summary": summary, "before": before, "after": after, "critiques": critiques}


def _plan_lines(p: Any) -> list[str]:
    """A verify record's plan (a list of lines, a program dict, or ``{"steps": [...]}``) as script lines."""
    if isinstance(p, str):
        p = [ln for ln in p.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if isinstance(p, dict):
        p = p.get("steps", p.get("lines", []))
    out = []
    for s in p or []:
        if isinstance(s, dict) and "action" in s:
            out.append(_step_obj(s).to_script())
        else:
            out.append(str(s))
    return out


def _critiques_of(rnd: Any) -> Iterable[dict]:
    """The critiques of one verify round (``{"critiques": [...]}``, or ``{"feedback": ...}`` lines
    such as ``#REMOVE 3: reason``)."""
    if not isinstance(rnd, dict):
        return []
    out = []
    for c in rnd.get("critiques") or rnd.get("feedback_items") or []:
        if isinstance(c, dict):
            idx = c.get("index")
            out.append({"kind": str(c.get("kind") or "").upper().lstrip("#"),
                        "step": idx + 1 if isinstance(idx, int) else None, "action": str(c.get("action") or ""),
                        "reason": str(c.get("reason") or "")})
        else:
            out.extend(_parse_critique_lines(str(c)))
    if not out and isinstance(rnd.get("feedback"), str):
        out.extend(_parse_critique_lines(rnd["feedback"]))
    return out


_CRIT = re.compile(r"#\s*(REMOVE|MISSING|OK|ADD)\b[:\s]*(.*)", re.I)


def _parse_critique_lines(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        m = _CRIT.search(line)
        if m:
            rest = m.group(2).strip()
            num = re.match(r"(?:step\s*)?(\d+)[:.)\s-]*(.*)", rest, re.I)
            out.append({"kind": m.group(1).upper(), "step": int(num.group(1)) if num else None,
                        "reason": (num.group(2) if num else rest).strip()})
    return out


_VALUES = re.compile(r"v_T\s*([+-]?[\d.]+),\s*v_R\s*([+-]?[\d.]+)")


def _follow_map(world: str, scene: str, rooms: list[str], mapper=None) -> dict | None:
    """The world's map when its rooms (places) carry the names the trace uses, else the trace's
    rooms as a grid (sorted: deterministic). Room ids are the names (the trace's ``room``)."""
    from actionable.core.scene_map import grid_rooms

    if not rooms:
        return None
    try:
        if mapper is None and world:
            mapper = _scene_mapper(world, scene or "default")
        lay = mapper.layout(()) if mapper is not None else None
    except Exception:  # noqa: BLE001 - no map for this scene: the grid below
        lay = None
    if lay is not None:
        names = {r["name"] for r in lay["rooms"]}
        if set(rooms) <= names:
            keep = {}
            for r in lay["rooms"]:
                keep.setdefault(r["name"], {**r, "id": r["name"]})
            return {**lay, "rooms": list(keep.values()), "items": [], "doors": []}
    areas = grid_rooms([(r, r) for r in sorted(rooms)], cell_w=140.0, cell_h=90.0)
    return {"kind": "rooms", "width": max(a["x"] + a["w"] for a in areas) + 6,
            "height": max(a["y"] + a["h"] for a in areas) + 6, "rooms": areas, "items": [], "doors": [],
            "roads": [], "lights": []}


def follow_document(records: list[dict], summary: dict | None = None, title: str = "", world: str = "",
                    scene: str = "", instructions: list[str] | None = None, mapper=None) -> dict:
    """The replay of one continual episode from its trace records (``follow --trace``: one record a
    step, then ``{"summary": ...}``) or, from an eval run, only its activations.

    P(q) per instruction comes from each record's ``beliefs`` (keyed by the interpreted query,
    matched to the instruction through the summary's ``interpretation``); the truth from the
    record's ``truth`` (the instruction's condition on the true house at the step's start);
    v_T / v_R of the chosen skill from the ``why`` text of ExRAP (``None`` for other agents).
    """
    summary = summary or {}
    interp = summary.get("interpretation") or []
    texts = list(instructions or summary.get("instructions") or [r.get("text", "") for r in interp])
    query_of = {}
    for i, r in enumerate(interp):
        if r.get("query"):
            query_of[r["query"]] = i
    spans: dict[int, list[dict]] = {}
    for a in summary.get("activations") or []:
        spans.setdefault(int(a["instruction"]), []).append(
            {"start": a["start"], "end": a["end"], "outcome": a.get("outcome", "open")})
    n = max([len(texts)] + [k + 1 for k in spans])
    ins = [{"text": texts[i] if i < len(texts) else f"instruction {i + 1}",
            "query": next((q for q, k in query_of.items() if k == i), ""), "spans": spans.get(i, [])}
           for i in range(n)]
    timeline = []
    rooms: list[str] = []
    for rec in records:
        p = [None] * n
        for q, v in (rec.get("beliefs") or {}).items():
            k = query_of.get(q)
            if k is not None and k < n:
                p[k] = v
        m = _VALUES.search(str(rec.get("why") or ""))
        truth = list(rec.get("truth") or [None] * n)[:n]
        room = str(rec.get("room", ""))
        if room and room not in rooms:
            rooms.append(room)
        timeline.append({"t": rec.get("t", len(timeline)), "room": room, "skill": str(rec.get("skill", "")),
                         "ok": bool(rec.get("executed", True)), "error": rec.get("error"),
                         "v_t": float(m.group(1)) if m else None, "v_r": float(m.group(2)) if m else None,
                         "why": str(rec.get("why") or ""), "p": p, "truth": truth + [None] * (n - len(truth)),
                         "done": list(rec.get("completed") or []), "changed": [str(c) for c in rec.get("house_changed") or []]})
    fmap = _follow_map(world, scene, rooms, mapper)
    m = summary.get("metrics") or {}
    sm = []
    if m:
        sr = "-" if m.get("sr") is None else f"{100 * m['sr']:.1f}%"
        ps = "-" if m.get("ps") is None else f"{m['ps']:.1f} steps"
        sm.append(f"SR {sr}, PS {ps} ({m.get('n_success', 0)} completed, {m.get('n_failure', 0)} missed, "
                  f"{m.get('n_cancelled', 0)} cancelled)")
    if not records:
        sm.append("no per-step trace in this record (eval runs keep activations only; `follow --trace` keeps every step)")
    return {"format": FORMAT, "version": VERSION, "kind": "follow", "title": title or "continual episode",
            "world": world, "scene": scene, "map": fmap, "steps": [], "goals": [], "summary": sm,
            "instructions": ins, "timeline": timeline,
            "length": max([len(timeline)] + [s["end"] or 0 for v in spans.values() for s in v])}


__all__ = ["FORMAT", "VERSION", "follow_document", "plan_document", "verify_document"]
