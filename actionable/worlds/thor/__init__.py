"""The THOR world (ALFRED's PDDL domain and TEACh's actions, symbolic): see :mod:`.world`."""

from actionable.worlds.thor.world import ThorWorld

__all__ = ["ThorWorld"]
