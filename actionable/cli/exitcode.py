"""The exit code a command has decided before it prints (``plan``'s verdict), so that a reader that
closes stdout early (``actionable plan ... | head -1``) does not turn "Not done" (exit 1) into 0.

One record per CLI process: :func:`decide` sets it, :func:`decided` reads it (0 when nothing was
decided), :func:`clear` resets it at the start of a command (``actionable.cli.main``).
"""

from __future__ import annotations

_DECIDED: dict[str, int] = {}


def decide(code: int) -> int:
    """Record ``code`` (the exit code the command will return) and return it."""
    _DECIDED["code"] = int(code)
    return int(code)


def decided() -> int:
    """The recorded exit code, 0 when none."""
    return _DECIDED.get("code", 0)


def clear() -> None:
    """Forget the recorded code (a new command in the same process)."""
    _DECIDED.clear()


__all__ = ["clear", "decide", "decided"]
