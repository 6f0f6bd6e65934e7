"""Shared fixtures for the house tests: real packaged VirtualHome data."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def default_scene():
    """The merged default scene (built once, then cached on disk under the cache dir)."""
    from actionable.worlds.virtualhome.scene import load_scene

    return load_scene(None)


@pytest.fixture(scope="session")
def program_ids():
    from actionable.worlds.virtualhome.scene import list_program_ids

    return list_program_ids()
