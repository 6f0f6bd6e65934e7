"""The THOR world (ALFRED's PDDL domain and TEACh's actions, symbolic): see :mod:`.world`.

``ThorWorld`` is imported lazily, so the world's own modules (``scene``, ``actions``) can import
their sibling ``data`` without the package importing them back (no import cycle).
"""

__all__ = ["ThorWorld"]


def __getattr__(name: str):
    if name == "ThorWorld":
        from actionable.worlds.thor.world import ThorWorld

        return ThorWorld
    raise AttributeError(f"module 'actionable.worlds.thor' has no attribute {name!r}")
