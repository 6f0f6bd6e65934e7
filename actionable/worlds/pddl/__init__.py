"""The ``pddl`` world: any PDDL domain + problem (a user's own files, or the shipped Blocksworld and
household examples), parsed and executed by unified-planning (:mod:`.world`, docs/worlds.md,
"Add a world"). Planning domain: :mod:`.planning`; the problem's goal for the goal-directed planner
(a classical planner, replayed): :mod:`.goals`; the sim judge's adapter: :mod:`.verify_adapter`.
"""


def register(registry) -> None:
    """Register this world in ``registry`` (:class:`actionable.core.registry.Registry`)."""
    registry.register(
        "pddl", "actionable.worlds.pddl.world:PddlWorld",
        capabilities={"planning": "actionable.worlds.pddl.planning:PddlPlanning",
                      "verify": "actionable.worlds.pddl.verify_adapter:PddlAdapter",
                      "goals": "actionable.worlds.pddl.goals:PddlGoals"},
        default_scene="blocksworld:p01", requires=("unified_planning",),
        description="any PDDL domain + problem run by unified-planning (shipped: Blocksworld, a small "
                    "household; yours: --scene domain.pddl::problem.pddl)")
