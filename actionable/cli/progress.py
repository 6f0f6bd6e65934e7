"""Progress that is visible everywhere, and small text helpers shared by the commands.

* On a terminal, long steps show a rich spinner or bar (transient).
* When stderr is not a terminal (CI logs, notebooks, ``nohup``, pipes), they print plain
  timestamped lines to stderr instead: ``[12:03:01] loading planning LM (embedded) ...``,
  ``[12:03:40] planning step 3/30``.
* ``--quiet`` (global, or on the command) silences both.

Light to import: no rich, no model code.
"""

from __future__ import annotations

import sys
import time

_STATE = {"quiet": False}


def set_quiet(quiet: bool) -> None:
    _STATE["quiet"] = bool(quiet)


def quiet() -> bool:
    return _STATE["quiet"]


def stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def mode() -> str:
    """``"off"`` (--quiet), ``"terminal"`` (spinner / bar) or ``"lines"`` (timestamped lines)."""
    if _STATE["quiet"]:
        return "off"
    return "terminal" if stderr_is_terminal() else "lines"


def line(message: str) -> None:
    """One timestamped progress line on stderr (always; callers decide when)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def note(message: str) -> None:
    """A progress line when stderr is not a terminal and not --quiet (the spinner covers terminals)."""
    if mode() == "lines":
        line(message)


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 step"``, ``"2 steps"``, ``"0 steps"`` (``many`` for irregular plurals)."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


#: the largest seed a command takes (numpy's seed range); a larger one is refused, never reduced
SEED_MAX = 2**32 - 1


def check_seed(value: int | None, flag: str = "--seed") -> None:
    """Refuse a seed outside ``0..SEED_MAX``: a larger one would otherwise be reduced silently
    somewhere below (or fail deep inside numpy).

    Raises:
        ConfigError: naming ``flag``, with the range.
    """
    from actionable.core.errors import ConfigError

    if value is None:
        return
    if value < 0:
        raise ConfigError(f"{flag} must be >= 0 (got {value})")
    if value > SEED_MAX:
        raise ConfigError(f"{flag} must be at most {SEED_MAX} (2**32 - 1; got {value}); larger seeds are "
                          f"refused, not reduced")
