"""The THOR kitchen's ``scene_map`` capability (:mod:`actionable.core.scene_map`).

The map is the kitchen seen from above: every receptacle (counter tops, cabinets, the sink, the
fridge, the coffee machine, ...) at its AI2-THOR position (x, z; scaled to the map, z up), with
what lies in it listed by name (the focus objects and their receptacles first). The replay runs
the resolved steps with the THOR interpreter (the planner's own :meth:`ThorAffordance.run`) and
reports what each step changed on the objects it touched or the agent holds: states
(``Mug_1: - -> isFilledWithLiquid``), the receptacle (``Mug_1: INSIDE CoffeeMachine_1``) and
what is held.
"""

from __future__ import annotations

from typing import Any, Iterable


def _pos(o) -> tuple | None:
    """An object's (x, y, z): its recorded position, else the one AI2-THOR writes in its id
    (``Cabinet|+00.68|+00.50|-02.20``)."""
    if o.pos:
        return tuple(o.pos)
    parts = str(o.id).split("|")
    try:
        return tuple(float(x) for x in parts[1:4]) if len(parts) >= 4 else None
    except ValueError:
        return None


class ThorSceneMap:
    """``scene``: a THOR scene name (``FloorPlan1``, ``teach:<game>``, ``default``) or a loaded
    :class:`~actionable.worlds.thor.scene.Scene` (the planning domain's ``scene``).

    Raises:
        UnknownSceneError: no such scene.
    """

    def __init__(self, scene: Any = "default"):
        from actionable.worlds.thor.scene import DEFAULT_SCENE, load_scene, resolve_scene

        if scene is None or isinstance(scene, str):
            name = DEFAULT_SCENE if scene in (None, "", "default") else resolve_scene(scene)
            scene = load_scene(name)
        self.scene = scene
        self.name = scene.name

    def _short(self, oid: str) -> str:
        return self.scene.short.get(oid, oid)

    def layout(self, focus: Iterable[Any] = ()) -> dict:
        """The kitchen's receptacles at their positions, with their contents; deterministic."""
        from actionable.worlds.thor.scene import ThorState

        s = ThorState(self.scene)
        objs = s.objects
        pos = {i: _pos(o) for i, o in objs.items()}
        rec = sorted(i for i, o in objs.items() if "receptacle" in o.caps and pos[i] and o.type != "Floor")
        focus = {str(f) for f in focus}
        want = {i for i in objs if i in focus or objs[i].type in focus or self._short(i) in focus}
        pts = [pos[i] for i in rec] or [(0.0, 0.0, 0.0)]
        xs, zs = [p[0] for p in pts], [p[-1] for p in pts]
        x0, z0 = min(xs), min(zs)
        span = max(max(xs) - x0, max(zs) - z0, 1e-6)
        scale = 300.0 / span

        def xy(p):
            return round(20 + (p[0] - x0) * scale, 1), round(20 + (max(zs) - p[-1]) * scale, 1)

        w = round(40 + (max(xs) - x0) * scale, 1)
        h = round(40 + (max(zs) - z0) * scale, 1)
        items = []
        for i in rec:
            x, y = xy(pos[i])
            kids = sorted(objs[i].children, key=lambda k: (k not in want, k))
            items.append({"id": i, "name": self._short(i) + (": " + ", ".join(self._short(k) for k in kids[:4])
                                                            + (" ..." if len(kids) > 4 else "") if kids else ""),
                          "room": "kitchen", "parent": None, "rel": None, "x": x, "y": y})
        for i in sorted(want - set(rec)):
            o = objs[i]
            base = o.parent if o.parent in objs and pos.get(o.parent) else None
            p = pos[base] if base else pos[i]
            if p is None:
                continue
            x, y = xy(p)
            items.append({"id": i, "name": self._short(i), "room": "kitchen", "parent": base,
                          "rel": "INSIDE" if base else None, "x": round(x + 6, 1), "y": round(y + 8, 1)})
        rooms = [{"id": "kitchen", "name": f"kitchen {self.name}", "x": 0.0, "y": 0.0, "w": w, "h": h}]
        return {"kind": "kitchen", "width": w, "height": h, "rooms": rooms, "items": items, "doors": [],
                "roads": [], "lights": []}

    def replay(self, steps: list[Any]) -> list[dict]:
        """One frame per step, resolved or class-level (bound like the planner binds); stops after
        the first failure."""
        from actionable.worlds.thor.planning import ThorAffordance, clone

        aff = ThorAffordance(self.scene, repair_budget=0)
        s = clone(aff.initial)
        frames = []
        for st in steps:
            try:
                # a class-level step (a verify plan: `[GRAB] <mug>`) is bound as the planner binds it:
                # the first binding that runs, else the first binding's unmet preconditions
                cands = [st] if st.is_resolved else aff._bindings(st, s)
                ok, new, unmet = False, None, [f"no {st.to_text()} in the scene"]
                for k, b in enumerate(cands):
                    r = aff.run(b, s)
                    if r[0] or k == 0:
                        (ok, new, unmet), st = r, b
                    if r[0]:
                        break
            except Exception as exc:  # noqa: BLE001 - an unknown id or action is a failed step of the replay
                ok, new, unmet = False, None, [str(exc)]
            ids = [a.id for a in st.args if a.id is not None]
            if not ok:
                frames.append({"executed": False, "room": "kitchen", "at": None,
                               "held": [self._short(s.held)] if s.held else [], "changes": [],
                               "error": f"{st.to_text() if hasattr(st, 'to_text') else st} is not executable",
                               "unmet": list(unmet)})
                break
            touched = sorted({str(i) for i in ids} | ({s.held} if s.held else set()) | ({new.held} if new.held else set()))
            changes = []
            for i in touched:
                if i not in new.objects:
                    continue
                a, b = s.objects.get(i), new.objects[i]
                s0, s1 = set(a.states()) if a else set(), set(b.states())
                if s0 != s1:
                    changes.append(f"{self._short(i)}: {'/'.join(sorted(s0 - s1)) or '-'} -> "
                                   f"{'/'.join(sorted(s1 - s0)) or '-'}")
                if a is not None and a.parent != b.parent and b.parent:
                    changes.append(f"{self._short(i)}: INSIDE {self._short(b.parent)}")
            if s.held != new.held:
                changes.append(f"held: {self._short(s.held) if s.held else '-'} -> "
                               f"{self._short(new.held) if new.held else '-'}")
            at = str(ids[0]) if st.action == "WALK" and ids else None
            frames.append({"executed": True, "room": "kitchen", "at": at,
                           "held": [self._short(new.held)] if new.held else [], "changes": changes,
                           "error": None, "unmet": []})
            s = new
        return frames


__all__ = ["ThorSceneMap"]
