"""Lazy access to Eclipse SUMO (PyPI ``eclipse-sumo``/``libsumo``/``sumolib`` 1.28.0, optional extra).

SUMO is large (about 0.8 GB installed), so it is the optional extra ``[driving]``; nothing here
imports it at module load. :func:`require_sumo` raises :class:`SumoMissingError` with the install
command when it is absent. libsumo runs one simulation per process: :func:`claim` makes the
calling world the owner of that session (closing the previous owner's run).
"""

from __future__ import annotations

import importlib.util

from actionable.core.errors import ConfigError, WorldError

INSTALL = 'pip install -e ".[dev,driving]" torch==2.13.0  (eclipse-sumo==1.28.0 libsumo==1.28.0 traci sumolib)'


class SumoMissingError(WorldError, ConfigError, ImportError):
    """Eclipse SUMO (libsumo / sumolib) is not installed; the message says what to install."""

    def __init__(self, what: str = "Eclipse SUMO"):
        super().__init__(f"the driving world needs Eclipse SUMO ({what} is missing); install it with: {INSTALL}")


def sumo_available() -> bool:
    """True when ``libsumo`` and ``sumolib`` can be imported (checked without importing them)."""
    return all(importlib.util.find_spec(m) is not None for m in ("libsumo", "sumolib"))


def require_sumo():
    """Import and return ``libsumo`` (raises :class:`SumoMissingError`)."""
    if not sumo_available():
        raise SumoMissingError("libsumo/sumolib")
    import libsumo

    return libsumo


_OWNER: list = [None]


def claim(owner) -> None:
    """Make ``owner`` the holder of the process's libsumo session, closing any other run."""
    ls = require_sumo()
    prev = _OWNER[0]
    if prev is not None:
        try:
            ls.close()
        except Exception:  # noqa: BLE001 - nothing was running
            pass
        if prev is not owner and hasattr(prev, "_lost_session"):
            prev._lost_session()
    _OWNER[0] = owner


def owns(owner) -> bool:
    return _OWNER[0] is owner
