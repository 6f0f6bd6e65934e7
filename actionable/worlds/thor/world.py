"""The THOR world: ALFRED's PDDL domain + TEACh's actions on AI2-THOR scenes, symbolic and offline.

``make("thor", scene="FloorPlan1")`` or ``ThorWorld(scene="teach:<game>")``. Actions are
:class:`~actionable.core.world.Action` objects whose args are object ids; text is
``Name(arg, ...)`` where an argument is an AI2-THOR id (``Mug|-01.64|+00.04|+00.67``), a short
name (``Mug_1``, see :meth:`ThorWorld.name_of`) or a bare type (``Mug``: the held one, else a
reachable one, else the first by id). TEACh's flattened forms ``PutAOnB(Mug, CounterTop)`` and
``Pickup(...)`` are read too.
"""

from __future__ import annotations

import re
from typing import Any

from actionable.core.errors import UnknownObjectError, WorldActionError, WorldNotResetError
from actionable.core.world import Action, Goal, World, check_goals
from actionable.worlds.thor import actions as A
from actionable.worlds.thor.scene import DEFAULT_SCENE, SCENE_PREFIXES, ThorState, list_scenes, load_scene

_TEXT = re.compile(r"^\s*(?:Driver\.)?([A-Za-z]+)\s*\((.*)\)\s*$")
_ALIASES = {n.lower(): n for n in A.ARITY}
_ALIASES.update({"pickup": "PickUp", "putaonb": "Place", "goto": "GotoLocation", "navigate": "GotoLocation"})
_LANG = {"alfred": A.ALFRED_ACTIONS, "teach": A.TEACH_ACTIONS, "both": tuple(A.ARITY)}


class ThorWorld(World):
    """Symbolic AI2-THOR kitchen/house (see the module doc and docs/worlds.md).

    Args:
        scene: default scene for ``reset`` (``FloorPlan<N>`` or ``teach:<game>``).
        actions: ``"both"`` (default), ``"alfred"`` or ``"teach"``: the actions ``admissible``
            lists (``step`` accepts all of them).
        max_steps: truncation limit (None: none).

    Raises:
        UnknownSceneError: at ``reset`` for an unknown scene.
    """

    id = "thor"

    def __init__(self, scene: str = DEFAULT_SCENE, actions: str = "both", max_steps: int | None = None):
        if actions not in _LANG:
            raise WorldActionError(f"actions must be one of {sorted(_LANG)}, got {actions!r}")
        self.default_scene, self.language, self.max_steps = scene, actions, max_steps
        self._s: ThorState | None = None
        self._goals: list[Goal] = []
        self._t = 0
        self._done = False

    # --- episode ---
    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        """Start an episode. ``options``: ``{"scene": name, "goals": task name | list[Goal]}``;
        ``seed`` places the objects of ALFRED layouts (TEACh scenes ignore it).

        Returns ``(observe(), {"scene", "source", "step_index": 0})``."""
        opts = dict(options or {})
        bad = set(opts) - {"scene", "goals"}
        if bad:
            from actionable.core.errors import unknown_names

            raise WorldActionError(unknown_names("reset option", sorted(bad), ("scene", "goals")))
        scene = load_scene(opts.get("scene") or self.default_scene, seed)
        self._s = ThorState(scene)
        g = opts.get("goals") or []
        self._goals = self.goals(g) if isinstance(g, str) else list(g)
        self._t, self._done = 0, False
        return self.observe(), {"scene": scene.name, "source": scene.source, "step_index": 0}

    def step(self, action: Action | str) -> tuple[dict, float, bool, bool, dict]:
        """Apply one action. Returns ``(observe(), reward, terminated, truncated, info)`` with
        ``info = {"executed", "error", "unmet_preconditions", "step_index", "action"}``; reward is
        1.0 on the step that first meets the reset's goals (then ``terminated``), else 0.0.

        Raises:
            WorldNotResetError: before ``reset``. WorldActionError: unknown action / arity.
            UnknownObjectError: an argument names no object of the scene.
        """
        s = self._state_or_raise()
        act = self.parse(action) if isinstance(action, str) else self._validate(action)
        unmet = A.execute(s, act.name, act.args)
        ok = not unmet
        info = {"executed": ok, "unmet_preconditions": unmet, "step_index": self._t, "action": self.format(act),
                "error": None if ok else f"{self.format(act)} is not executable: unmet {', '.join(unmet)}"}
        self._t += 1
        reward, term = 0.0, False
        if ok and self._goals and not self._done and check_goals(self._goals, s).success:
            reward, term, self._done = 1.0, True, True
        trunc = self.max_steps is not None and self._t >= self.max_steps
        return self.observe(), reward, term, trunc, info

    # --- action language ---
    def _validate(self, act: Any) -> Action:
        if not isinstance(act, Action):
            raise WorldActionError(f"a THOR action is an Action or text such as 'PickUp(Mug_1)', got {type(act).__name__}")
        if act.name not in A.ARITY:
            raise WorldActionError(f"unknown THOR action {act.name!r}; use one of {', '.join(A.ARITY)}", line=act.name)
        if len(act.args) not in A.ARITY[act.name]:
            raise WorldActionError(f"{act.name} takes {' or '.join(map(str, A.ARITY[act.name]))} argument(s), "
                                   f"got {len(act.args)}", line=str(act))
        s = self._state_or_raise()
        for a in act.args:
            if a not in s.objects:
                raise UnknownObjectError(f"object {a!r} is not in scene {s.scene.name!r}; "
                                         "use an id, a short name (Mug_1) or a type present there")
        return act

    def parse(self, text: str) -> Action:
        """``"PickUp(Mug_1)"`` -> ``Action("PickUp", (<id>,))`` (names resolved in the current scene).

        Raises:
            WorldActionError: not ``Name(args)``, unknown name, wrong arity.
            UnknownObjectError: an argument matches no object. WorldNotResetError: before reset.
        """
        if not isinstance(text, str):
            raise WorldActionError(f"expected action text, got {type(text).__name__}")
        m = _TEXT.match(text[:500])
        if not m:
            raise WorldActionError(f"cannot read {text[:80]!r} as a THOR action; write e.g. 'PickUp(Mug_1)'", line=text)
        name = _ALIASES.get(m.group(1).lower())
        if name is None:
            raise WorldActionError(f"unknown THOR action {m.group(1)!r}; use one of {', '.join(A.ARITY)}", line=text)
        raw = [x.strip().strip("'\"") for x in m.group(2).split(",") if x.strip()]
        if name == "Place" and len(raw) == 2:  # PutAOnB(Mug, CounterTop)
            raw = raw[1:]
        return self._validate(Action(name, tuple(self._resolve(x, name) for x in raw)))

    def _resolve(self, ref: str, action: str) -> str:
        s = self._state_or_raise()
        if ref in s.objects:
            return ref
        sc = s.scene
        if ref in sc.by_short and sc.by_short[ref] in s.objects:
            return sc.by_short[ref]
        cands = [i for i, o in s.objects.items() if o.type.lower() == ref.lower()]
        if not cands:
            raise UnknownObjectError(f"no object {ref!r} in scene {sc.name!r}; types there include "
                                     f"{', '.join(sorted({o.type for o in s.objects.values()})[:12])}")
        cands.sort()
        return next((i for i in cands if i == s.held), None) or next((i for i in cands if s.reachable(i)), cands[0])

    def format(self, action: Action) -> str:
        """``Name(id, ...)`` (ids verbatim; :meth:`parse` reads it back)."""
        return f"{action.name}({', '.join(action.args)})"

    def name_of(self, oid: str) -> str:
        """Short readable name of an object id (``Mug_1``)."""
        return self._state_or_raise().scene.short.get(oid, oid)

    def admissible(self, state: Any = None) -> list[Action]:
        """Actions executable in ``state`` (default: the current state), or with ``state="all"``
        every grounded action of the scene by static capabilities. Order is deterministic."""
        s = self._state_or_raise() if state is None or state == "all" else state
        if not isinstance(s, ThorState):
            raise WorldActionError("admissible(state) takes None, 'all' or a ThorState")
        return _admissible(s, _LANG[self.language], check=state != "all")

    # --- goals and views ---
    def goals(self, task: str | list) -> list[Goal]:
        """Goal predicates of ``"Make coffee"``, ``"Boil water"``, ``"Water the plant"``."""
        from actionable.worlds.thor.goals import task_goals

        return task_goals(task)

    @property
    def state(self) -> ThorState:
        return self._state_or_raise()

    def observe(self) -> dict:
        """``{"location", "held", "visible": {id: {"type", "parent", "states"}}}``: objects at
        reachable anchors that no closed container hides (receptacles are seen when open/visited)."""
        s = self._state_or_raise()
        vis = {}
        for i, o in s.objects.items():
            if o.type != "Floor" and s.reachable(i) and s.enclosed(i) is None:
                vis[i] = {"type": o.type, "parent": o.parent, "states": o.states()}
        return {"location": s.agent_loc, "held": s.held, "visible": vis}

    def state_key(self) -> tuple:
        s = self._state_or_raise()
        return (s.agent_loc, s.held, tuple((i, o.parent, tuple(o.states())) for i, o in sorted(s.objects.items())))

    scene_prefixes = SCENE_PREFIXES

    def scenes(self) -> list[str]:
        return list(list_scenes())

    def scene_info(self, name: str, classes: bool = False, admissible: bool = False) -> dict:
        """Source, object and type counts of a floor plan or TEACh initial state."""
        from collections import Counter

        from actionable.worlds.thor.scene import load_scene

        sc = load_scene(name)
        types = Counter(t["type"] for t in sc.templates)
        info = {"source": sc.source, "objects": len(sc.ids), "types": len(types)}
        if classes:
            info["class_counts"] = dict(sorted(types.items()))
        return info

    def scene_tasks(self) -> dict[str, tuple]:
        """The TEACh demonstrations' task and description, by ``teach:<game>`` scene
        (:mod:`.teach_demos`)."""
        from actionable.worlds.thor.teach_demos import load_demos

        return {f"teach:{d.id}": (d.task, d.desc) for d in load_demos()}

    def _state_or_raise(self) -> ThorState:
        if self._s is None:
            raise WorldNotResetError("the THOR world has no episode; call reset() first")
        return self._s


def _admissible(s: ThorState, names: tuple[str, ...], check: bool) -> list[Action]:
    objs = s.objects
    ids = sorted(objs)
    anchors: dict[str, str] = {}
    for i in ids:
        o = objs[i]
        if o.parent is None and o.type != "Floor" and i != s.held and "pickupable" not in o.caps:
            anchors.setdefault(s.scene.loc_key.get(i, i), i)
    near = ids if not check else [i for i in ids if i != s.held and objs[i].type != "Floor" and s.reachable(i)]
    holding = ids if not check else ([s.held] if s.held else [])
    cands: list[Action] = []
    want = set(names)

    def add(n, *a):
        if n in want:
            cands.append(Action(n, a))

    for i in sorted(anchors.values()):
        add("GotoLocation", i)
    for i in near:
        c = objs[i].caps
        if "pickupable" in c:
            add("PickupObject", i)
            add("PickUp", i)
        if "openable" in c:
            for n in ("OpenObject", "CloseObject", "Open", "Close"):
                add(n, i)
        if "toggleable" in c:
            for n in ("ToggleObject", "ToggleOn", "ToggleOff"):
                add(n, i)
        if "sliceable" in c:
            add("Slice", i)
            for k in holding:
                if objs[k].type in A.KNIVES:
                    add("SliceObject", i, k)
        if "receptacle" in c:
            add("Place", i)
            for k in holding:
                if k != i and "pickupable" in objs[k].caps:
                    add("PutObject", k, i)
            for n, rt in (("CleanObject", "SinkBasin"), ("HeatObject", "Microwave"), ("CoolObject", "Fridge")):
                if objs[i].type == rt:
                    for k in holding:
                        add(n, i, k)
        if "canFillWithLiquid" in c or objs[i].type in ("SinkBasin", "Sink"):
            add("Pour", i)
        if "canFillWithLiquid" in c:
            add("Fill", i)
        if "dirtyable" in c:
            add("Clean", i)
    if not check:
        return cands
    return [a for a in cands if not A.execute(s, a.name, a.args, check_only=True)]
