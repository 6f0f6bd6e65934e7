"""CLI commands of this concern (filled in by its owner)."""

from __future__ import annotations


def register(app, eval_app) -> None:
    """Add this module's commands to the root app and the eval sub-app."""
