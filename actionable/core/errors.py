"""Typed errors for actionable.

One root exception, :class:`ActionableError`, with one subclass per layer.
Every message says what was wrong and how to fix it. The CLI catches
``ActionableError`` and prints a single line (no traceback unless ``--debug``).

Never put secrets (API keys) into an error message.
"""

from __future__ import annotations


class ActionableError(Exception):
    """Root of every error raised deliberately by actionable."""


# --- configuration / user input -------------------------------------------------
class ConfigError(ActionableError, ValueError):
    """A configuration value or CLI flag is out of range or inconsistent."""


class InputError(ActionableError, ValueError):
    """User-supplied text or file is unusable (empty task, non-UTF-8, too long...)."""


class EmptyTaskError(InputError):
    """The task is empty once control, format and space characters are removed."""


class TaskTooLongError(InputError):
    """The cleaned task is longer than the limit (``length`` and ``limit``, in characters)."""

    def __init__(self, message: str, length: int = 0, limit: int = 0):
        super().__init__(message)
        self.length = length
        self.limit = limit


# --- env layer ------------------------------------------------------------------
class EnvError(ActionableError):
    """Errors of the house: scenes, programs, simulator."""


class ProgramParseError(EnvError, ValueError):
    """A program line could not be parsed (bad syntax, unknown action, wrong arity).

    Attributes:
        line: the offending line (truncated to 200 characters).
        lineno: 1-based line number, or ``None`` when parsing a single line.
    """

    def __init__(self, message: str, line: str = "", lineno: int | None = None):
        self.line = line[:200]
        self.lineno = lineno
        where = f"line {lineno}: " if lineno is not None else ""
        super().__init__(f"{where}{message}")


class SceneError(EnvError, ValueError):
    """A scene / graph is missing, malformed, or unknown."""


class UnknownNodeError(EnvError, KeyError):
    """An action names a node id that is absent from the scene graph."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the plain message
        return str(self.args[0]) if self.args else "unknown node"


class ResolutionError(EnvError):
    """A class-level step could not be bound to a node of the scene."""


class SimulatorError(EnvError, RuntimeError):
    """The simulator was misused (step before reset, ...). Plan-level failures are
    *not* errors: ``Simulator.step`` reports them in ``info['error']``."""


# --- language models ---------------------------------------------------------------
class LMError(ActionableError):
    """Errors of language-model backends."""


class ModelNotFoundError(LMError, ValueError):
    """A model id / path names nothing that can be loaded."""


class BackendUnavailableError(LMError, ConnectionError):
    """A server could not be reached, or an optional dependency is missing."""


class CapabilityError(LMError):
    """The backend lacks a capability the caller needs (log-probs, n>1, ...)."""


class LMResponseError(LMError):
    """The backend answered with something unusable (malformed, truncated)."""


# --- grounding / planning ---------------------------------------------------------
class GroundingError(ActionableError):
    """Errors of the translation LM or the admissible-action index."""


class PlanningError(ActionableError):
    """Errors of the planners."""


# --- verification -------------------------------------------------------------------
class GoalReadingError(PlanningError, InputError):
    """The instruction's goal cannot be planned for: the scene cannot reach it, the text is not a
    household task (``status == "refuse"``), or no end state could be read (``"unclear"``, with the
    closest reading in ``closest``). Exit code 2, one ``error:`` line."""

    status: str = "refuse"
    closest: str | None = None


class VerifyError(ActionableError):
    """Errors of the judge/planner verification loop."""


class CritiqueParseError(VerifyError, ValueError):
    """Judge output could not be turned into critiques."""


# --- continual -------------------------------------------------------------------------
class ContinualError(ActionableError):
    """Errors of continual instruction following (instructions, TEKG, agents)."""


# --- evaluation ----------------------------------------------------------------------
class EvaluationError(ActionableError):
    """Errors of the evaluation harness (run directories, reports)."""


class RunFileError(EvaluationError):
    """A run directory or run.jsonl is unusable."""


# --- worlds (actionable.worlds) --------------------------------------------------------
class WorldError(EnvError):
    """Errors of a world behind the :mod:`actionable.worlds` interface."""


class UnknownWorldError(WorldError, ConfigError):
    """``worlds.make(id)`` names no registered world (``attribute known`` lists the ids)."""


class WorldNotResetError(WorldError, SimulatorError):
    """A world was stepped or queried before ``reset()``."""


class UnknownObjectError(WorldError, UnknownNodeError):
    """An action names an object id that is absent from the world's scene."""


class UnknownSceneError(WorldError, SceneError):
    """``reset(options={"scene": ...})`` names no scene of the world."""


class WorldActionError(WorldError, ProgramParseError):
    """Text is not an action of the world's language (unknown verb, wrong arity)."""


class WorldGoalError(WorldError, InputError):
    """A world has no goal definition for the named task."""


class MissingCapabilityError(WorldError, ConfigError):
    """A world does not declare the capability a method needs (``planning``, ``verify``,
    ``continual``, ``dataset``, ``goals``); attributes ``world``, ``capability`` and ``have`` (the
    worlds that declare it)."""


class PluginError(WorldError, ConfigError):
    """A world plugin (an entry point of the ``actionable.worlds`` group, or a ``"module:attr"``
    reference of a registration) cannot be loaded."""
# --- PDDL world (actionable.worlds.pddl) -------------------------------------------------
class PddlError(WorldError, InputError):
    """A PDDL domain or problem file cannot be used by the ``pddl`` world.

    Attributes:
        path: the file at fault (``None`` when not one file). line / column: 1-based position in
            ``path`` when known, else ``None``.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None,
                 column: int | None = None):
        self.path, self.line, self.column = path, line, column
        super().__init__(message)


class PddlFileError(PddlError, SceneError):
    """A PDDL file (or a shipped scene) does not exist or cannot be read; the message names the path."""


class PddlSyntaxError(PddlError):
    """A PDDL file is malformed; the message names the file, the line and the column."""


class PddlMismatchError(PddlError):
    """A problem does not belong to the domain: another domain name, or a predicate, type, object
    or constant the domain does not declare."""


class PddlUnsupportedError(PddlError):
    """The domain or problem needs a PDDL feature the sequential simulator of unified-planning does
    not execute (durative actions, processes, ...); the message names the requirement."""


def unknown_names(what: str, bad, allowed=None) -> str:
    """Plain text for unknown names, never Python list notation:
    ``unknown_names("judge", ["nope"], ("rule", "sim"))`` -> ``unknown judge 'nope'; choose from rule, sim``
    (``judges 'a', 'b'`` for several)."""
    bad = list(bad)
    names = ", ".join(repr(str(b)) for b in bad)
    text = f"unknown {what}{'s' if len(bad) > 1 else ''} {names}" if bad else f"no {what} given"
    if allowed:
        text += f"; choose from {', '.join(allowed)}"
    return text
