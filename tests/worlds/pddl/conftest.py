"""Shared helpers of the pddl world's tests: small PDDL files written to a temporary directory."""

from __future__ import annotations

import pytest


@pytest.fixture
def write(tmp_path):
    """``write(name, text) -> str`` path of a new file in ``tmp_path``."""

    def _write(name: str, text: str) -> str:
        p = tmp_path / name
        p.write_text(text, encoding="utf-8")
        return str(p)

    return _write


@pytest.fixture
def bw_domain():
    from actionable.worlds.pddl.scenes import DATA

    return str(DATA / "blocksworld" / "domain.pddl")
