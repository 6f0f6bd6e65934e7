"""VirtualHome behind the :class:`~actionable.core.world.World` interface (a thin adapter).

Wraps :class:`actionable.worlds.virtualhome.simulator.Simulator` and :class:`actionable.worlds.virtualhome.resolver.Resolver`
unchanged. Actions are :class:`~actionable.core.program.Step` objects (``[GRAB] <mug> (1001)``);
text is VirtualHome script (``parse``/``format``). A class-level step (no ids) passed to ``step``
is bound to node ids by the resolver against the current state first.

Errors: step before reset -> ``WorldNotResetError``; an unknown node id -> ``UnknownObjectError``
(a subclass of ``UnknownNodeError``); text that is not a step -> ``ProgramParseError``.
"""

from __future__ import annotations

from typing import Any

from actionable.core.errors import ResolutionError, UnknownNodeError, UnknownObjectError, WorldNotResetError
from actionable.core.world import Goal, World

#: actions ``admissible()`` grounds on node ids: action -> property the node needs (None: any object)
_GROUNDED = {"WALK": None, "GRAB": "GRABBABLE", "OPEN": "CAN_OPEN", "CLOSE": "CAN_OPEN",
             "SWITCHON": "HAS_SWITCH", "SWITCHOFF": "HAS_SWITCH"}

_INTERACTIVE = {"GRABBABLE", "CAN_OPEN", "HAS_SWITCH"}


class VirtualHomeWorld(World):
    """VirtualHome's evolving graph. ``scene``: default scene (``"default"`` or a program id).

    ``reset(options={"scene": ..., "program": ..., "goals": task | list[Goal]})``; ``step`` as
    :meth:`Simulator.step`; ``admissible()`` lists id-level steps that execute now: WALK to the rooms and
    to one grabbable/openable/switchable object per class of the character's room, GRAB/OPEN/CLOSE/SWITCHON/SWITCHOFF on the objects close
    to the character (the evolving graph needs CLOSE for those); ``admissible("all")`` the class-level admissible space of the scene.
    """

    id = "virtualhome"
    def __init__(self, scene: str | None = None, max_steps: int | None = None):
        from actionable.worlds.virtualhome.resolver import Resolver
        from actionable.worlds.virtualhome.simulator import Simulator

        self.default_scene = scene
        self.max_steps = max_steps
        self.sim = Simulator(max_steps=max_steps)
        self.resolver = Resolver()
        self._ready = False
        self._adm_cache = None
        self._goals: list[Goal] = []
        self._done = False

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[Any, dict]:
        opts = dict(options or {})
        g = opts.pop("goals", None) or []
        if "scene" not in opts and "program" not in opts:
            opts["scene"] = self.default_scene
        obs, info = self.sim.reset(seed=seed, options=opts)
        self._ready, self._done = True, False
        self._goals = self.goals(g) if isinstance(g, str) else list(g)
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        if not self._ready:
            raise WorldNotResetError("VirtualHomeWorld.step() called before reset(); call reset() first")
        step = self.parse(action) if isinstance(action, str) else action
        if not step.is_resolved:
            try:
                step = self.resolver.resolve_step(step, self.sim.observation)
            except ResolutionError as exc:
                raise UnknownObjectError(str(exc)) from None
        try:
            obs, reward, term, trunc, info = self.sim.step(step)
        except UnknownObjectError:
            raise
        except UnknownNodeError as exc:
            raise UnknownObjectError(str(exc)) from None
        info["action"] = step.to_script()
        if info["executed"] and self._goals and not self._done and self.check(self._goals).success:
            reward, term, self._done = 1.0, True, True
        return obs, reward, term, trunc, info

    def admissible(self, state: Any = None) -> list:
        from actionable.worlds.virtualhome.admissible import admissible_actions
        from actionable.core.program import Argument, Step

        if not self._ready:
            raise WorldNotResetError("call reset() before admissible()")
        if state == "all":
            return admissible_actions(self.sim.scene)
        cur = self.sim._state  # the simulator's copy-on-write state: trial steps never commit
        if self._adm_cache is not None and self._adm_cache[0] is cur:
            return list(self._adm_cache[1])
        view = self.sim.observation
        room = view.character_room()
        near = set(view.close_to_character())
        out = []
        walk_classes: set[str] = set()
        for node in sorted(self.sim.graph["nodes"], key=lambda n: n["id"]):
            nid = node["id"]
            if node["class_name"] == "character":
                continue
            props = set(node.get("properties", ()))
            in_room = node["category"] == "Rooms" or (props & _INTERACTIVE and node["class_name"] not in walk_classes
                                                      and view.room_of(nid) == room)
            if in_room:
                walk_classes.add(node["class_name"])
            for act, need in _GROUNDED.items():
                if act == "WALK" and not in_room or act != "WALK" and (nid not in near or need not in props):
                    continue
                step = Step(act, (Argument(node["class_name"], nid),))
                ok, _, _ = self.sim._run(step, cur)
                if ok:
                    out.append(step)
        self._adm_cache = (cur, out)
        return list(out)

    def parse(self, text: str):
        from actionable.core.program import parse_step

        return parse_step(text)

    def format(self, action: Any) -> str:
        return action.to_script()

    def goals(self, task: Any) -> list[Goal]:
        """One goal: the state goals of any annotated program of ``task`` hold (class match)."""
        from actionable.core.goals import check_goals
        from actionable.worlds.virtualhome.goals import goals_for_task, load_goal_annotations
        from actionable.core.errors import WorldGoalError

        if not isinstance(task, str):
            return list(task)
        specs = goals_for_task(task, load_goal_annotations())
        if not specs:
            raise WorldGoalError(f"no goal annotation for VirtualHome task {task!r}")
        return [Goal(f"the goals of one annotated program of {task!r} ({len(specs)} programs)",
                     lambda st: any(check_goals(s, st.to_dict(), [], match="class").task_success for s in specs))]

    @property
    def state(self):
        if not self._ready:
            raise WorldNotResetError("call reset() first")
        return self.sim.observation

    def observe(self) -> dict:
        """``{"location": room class, "held": [ids], "visible": {id: {"type", "states"}}}`` for the
        objects in the character's room."""
        v = self.state
        room = v.character_room()
        g = self.sim.graph
        vis = {}
        for n in g["nodes"]:
            if n["class_name"] != "character" and n["id"] != room and v.room_of(n["id"]) == room:
                vis[n["id"]] = {"type": n["class_name"], "states": sorted(n.get("states", ()))}
        return {"location": v.class_of(room) if room is not None else None, "held": v.held(), "visible": vis}

    def state_key(self):
        g = self.sim.graph
        return (tuple(sorted((n["id"], tuple(sorted(n.get("states", ())))) for n in g["nodes"])),
                tuple(sorted((e["from_id"], e["relation_type"], e["to_id"]) for e in g["edges"])))

    def scenes(self) -> list[str]:
        from actionable.worlds.virtualhome.scene import list_scenes

        return list(list_scenes())

    def scene_info(self, name: str, classes: bool = False, admissible: bool = False) -> dict:
        """``name``'s node, edge and class counts, objects per room and (a program scene) its
        task; ``class_counts`` with ``classes``; ``admissible_actions`` (and per action) with
        ``admissible``.

        Raises:
            SceneError: an unknown scene (the message names close ids).
        """
        from collections import Counter

        from actionable.worlds.virtualhome.scene import load_program, load_scene

        scene = load_scene(name)
        info = _scene_summary(scene)
        if classes:
            info["class_counts"] = {c: len(scene.nodes_of_class(c)) for c in scene.class_names()}
        if admissible:
            from actionable.worlds.virtualhome.admissible import admissible_actions

            acts = admissible_actions(scene)
            info["admissible_actions"] = len(acts)
            info["admissible_by_action"] = dict(sorted(Counter(s.action for s in acts).items()))
        if scene.name != "default":
            prog = load_program(scene.name)
            info.update(task=prog.task, description=prog.description, steps=len(prog))
        return info

    def scene_listing(self, task: str | None = None) -> dict:
        """``{"default": summary of the merged house, "programs": [{"id", "task", "steps"}],
        "program_count", "task_count"}``; ``task`` keeps the programs whose task contains it."""
        from collections import Counter

        from actionable.worlds.virtualhome.scene import list_program_ids, load_program, load_scene

        rows = []
        for pid in list_program_ids():
            prog = load_program(pid)
            if task and task.lower() not in prog.task.lower():
                continue
            rows.append({"id": pid, "task": prog.task, "steps": len(prog)})
        return {"default": _scene_summary(load_scene(None)), "programs": rows, "program_count": len(rows),
                "task_count": len(Counter(r["task"] for r in rows))}


def _scene_summary(scene) -> dict:
    rooms = {}
    for r in scene.rooms:
        rooms[scene.class_of(r)] = 0
    for nid in scene.node_ids:
        room = scene.room_of(nid)
        if room is not None and room != nid:
            rooms[scene.class_of(room)] = rooms.get(scene.class_of(room), 0) + 1
    return {"name": scene.name, "nodes": len(scene), "edges": len(scene.edges),
            "classes": len(scene.class_names()),
            "added_objects": sum(1 for i in scene.node_ids if i >= 1000),
            "objects_per_room": rooms}
