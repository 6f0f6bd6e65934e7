"""VirtualHome's planning domain for the grounded planner (:mod:`actionable.planning.domain`).

A thin layer over what the planner used before it became world-agnostic, unchanged: the
simulator affordance and rule repair of :class:`~actionable.planning.affordance.AffordanceOracle`
(CAPE rules of :mod:`actionable.planning.repair`), the scene's class-level admissible actions
(:func:`~actionable.worlds.virtualhome.admissible.admissible_actions`) restricted to the task's classes plus
walks to the rooms and ``STANDUP`` / ``SLEEP`` / ``WAKEUP``, VirtualHome's name equivalences
(``class_name_equivalence.json``), task-object matching over the dataset's vocabulary
(:func:`~actionable.planning.objects.match_task_objects`), the 518 packaged programs as the
example bank, and the implied goal check of
:func:`~actionable.planning.session.implied_goal_check`.
"""

from __future__ import annotations

from typing import Any

from actionable.planning.affordance import AffordanceOracle


class VirtualHomeAffordance(AffordanceOracle):
    """:class:`AffordanceOracle` plus the scene-side queries of
    :class:`~actionable.planning.domain.Affordance` (on the simulator's scene graph)."""

    def class_names(self) -> list[str]:
        return self.scene.class_names()

    def equivalents(self, name: str):
        from actionable.worlds.virtualhome.scene import load_name_equivalence

        eq = load_name_equivalence()
        return (name, *eq.get(name, ()), *(k for k, v in eq.items() if name in v))

    def step_classes(self, text: str) -> list[str]:
        from actionable.core.program import parse_step

        return [a.name for a in parse_step(text).args]

    def match_objects(self, task: str, embedder):
        from actionable.planning.objects import match_task_objects

        return match_task_objects(task, self.class_names(), embedder)

    def candidates(self, classes) -> list:
        from actionable.worlds.virtualhome.admissible import admissible_actions
        from actionable.core.program import Step

        graph = self.scene
        rooms = {graph.class_of(r) for r in graph.rooms}
        pool = [s for s in admissible_actions(graph) if s.args and (
            (s.action in ("WALK", "RUN") and s.args[0].name in rooms)
            or all(a.name in classes for a in s.args))]
        pool += [Step(a, ()) for a in ("STANDUP", "SLEEP", "WAKEUP")]
        return list(dict.fromkeys(pool))

    def execute(self, resolved_steps) -> tuple[dict, Any]:
        from actionable.core.program import Program
        from actionable.worlds.virtualhome.simulator import execute_program

        steps = list(resolved_steps)
        er = execute_program(Program(tuple(steps)), self.scene)
        fi = er.failed_index
        return ({"executable": bool(er.executable), "failed_index": fi,
                 "failed_step": steps[fi].unresolved().to_text() if fi is not None else None,
                 "error_type": er.error_type, "error": er.error,
                 "unmet_preconditions": list(er.unmet_preconditions or []),
                 "steps_executed": er.steps_executed}, er.final_state)


class VirtualHomePlanning:
    """VirtualHome scene ``scene`` (a name or a :class:`~actionable.worlds.virtualhome.scene.SceneGraph`).

    Raises:
        SceneError: unknown scene name.
    """

    world = "virtualhome"
    classes_hint = "run 'actionable scenes --classes'"
    executes_in = "the VirtualHome simulator"

    def __init__(self, scene: Any = "default"):
        from actionable.worlds.virtualhome.scene import load_scene

        self.graph = load_scene(scene) if scene is None or isinstance(scene, str) else scene
        self.name = getattr(self.graph, "name", "")
        #: the scene graph the paper variants (whole-scene admissible-action index) plan on
        self.paper_graph = self.graph

    def start(self, repair_budget: int = 3) -> VirtualHomeAffordance:
        return VirtualHomeAffordance(self.graph, repair_budget=repair_budget)

    def example_bank(self):
        from actionable.planning.examples import ExampleBank

        return ExampleBank.packaged()

    def goal_check(self, result, session=None) -> dict:
        from actionable.planning.session import implied_goal_check

        if session is None:
            return {"checked": False, "reason": "no planning session to find the task's annotated program"}
        return implied_goal_check(session.with_scene(self.graph), result)


__all__ = ["VirtualHomePlanning", "VirtualHomeAffordance"]
