"""Bad PDDL input -> one typed error naming the file, the line and what to fix.

Run before and around unified-planning's reader (``PDDLReader``), whose own errors are pyparsing
exceptions (``Expected ')', found end of text (line:8, col:1)``), ``SyntaxError`` with a position
in the message (``Not able to handle: (frobbed a) found at line: 5, col 22``) or a bare
``KeyError('drink')`` for an unknown type, and which says nothing when a problem names another
domain. So:

* :func:`read_pddl`: a missing, unreadable or non-UTF-8 file -> :class:`PddlFileError` (the path);
* :func:`check_domain_text` / :func:`check_problem_text`: an empty file, unbalanced parentheses (the
  line of the ``(`` never closed), a domain given as the problem or the reverse, a problem whose
  ``(:domain X)`` is not the domain's name (:class:`PddlMismatchError`), a requirement or construct
  UP's simulator does not run (:class:`PddlUnsupportedError`, naming it and its line);
* :func:`from_up_error`: UP's errors with their positions; in a problem file an unknown predicate,
  object or type, or a wrong arity, is a :class:`PddlMismatchError` (the problem is not for this
  domain), in a domain file a :class:`PddlSyntaxError`.
"""

from __future__ import annotations

import re
from pathlib import Path

from actionable.core.errors import PddlFileError, PddlMismatchError, PddlSyntaxError, PddlUnsupportedError

#: requirements unified-planning 1.3.0 reads and its sequential simulator runs (checked on
#: domains using each: tests/worlds/pddl/test_errors.py)
SUPPORTED = frozenset({":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
                       ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
                       ":conditional-effects", ":adl", ":action-costs", ":numeric-fluents", ":fluents",
                       ":object-fluents"})
#: requirements it does not run, and what they are
UNSUPPORTED = {":durative-actions": "durative (temporal) actions", ":duration-inequalities": "duration inequalities",
               ":continuous-effects": "continuous effects", ":timed-initial-literals": "timed initial literals",
               ":derived-predicates": "derived predicates (axioms)", ":preferences": "preferences",
               ":constraints": "state-trajectory constraints", ":time": "PDDL+ processes and events",
               ":hierarchy": "HTN methods (HDDL)", ":method-preconditions": "HTN method preconditions"}
#: constructs that need an unsupported requirement (found even when it is not declared)
_CONSTRUCTS = {":durative-action": ":durative-actions", ":derived": ":derived-predicates", ":process": ":time",
               ":event": ":time", ":constraints": ":constraints", ":method": ":hierarchy"}
#: UP problem-kind features -> the requirement that brings them
_FEATURE_REQ = {"CONTINUOUS_TIME": ":durative-actions", "DISCRETE_TIME": ":durative-actions",
                "INT_TYPE_DURATIONS": ":durative-actions", "REAL_TYPE_DURATIONS": ":durative-actions",
                "TIMED_EFFECTS": ":timed-initial-literals", "TIMED_GOALS": ":timed-initial-literals",
                "DURATION_INEQUALITIES": ":duration-inequalities", "INCREASE_CONTINUOUS_EFFECTS": ":time",
                "DECREASE_CONTINUOUS_EFFECTS": ":time", "PROCESSES": ":time", "EVENTS": ":time",
                "TRAJECTORY_CONSTRAINTS": ":constraints", "HIERARCHICAL": ":hierarchy"}


def requirements_for(features) -> str:
    """The PDDL requirements behind UP problem-kind features (for the error message)."""
    reqs = sorted({_FEATURE_REQ.get(f, f.lower()) for f in features})
    return "requirement " + ", ".join(reqs) if reqs else "an unsupported feature"


def read_pddl(path: str, what: str) -> str:
    """The text of a PDDL file. Raises :class:`PddlFileError` naming ``path``."""
    p = Path(path)
    if not p.exists():
        raise PddlFileError(f"PDDL {what} file {path!r} does not exist; give the path of a .pddl file", path=path)
    if not p.is_file():
        raise PddlFileError(f"PDDL {what} path {path!r} is not a file", path=path)
    try:
        return p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise PddlFileError(f"PDDL {what} file {path!r} is not UTF-8 text", path=path) from None
    except OSError as exc:
        raise PddlFileError(f"cannot read PDDL {what} file {path!r}: {exc.strerror or exc}", path=path) from None


def strip_comments(text: str) -> str:
    """``text`` with ``;`` comments blanked (same length and lines, so positions still hold)."""
    return re.sub(r";[^\n]*", lambda m: " " * len(m.group(0)), text)


def line_of(text: str, pos: int) -> tuple[int, int]:
    """1-based (line, column) of character ``pos``."""
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def find_line(text: str, token: str) -> int | None:
    """The line of the first whole-word occurrence of ``token`` outside comments, or None."""
    m = re.search(rf"(?<![\w\-?]){re.escape(token)}(?![\w\-])", strip_comments(text), re.IGNORECASE)
    return line_of(text, m.start())[0] if m else None


def _balance(text: str, path: str) -> None:
    code = strip_comments(text)
    stack: list[int] = []
    for i, c in enumerate(code):
        if c == "(":
            stack.append(i)
        elif c == ")":
            if not stack:
                ln, col = line_of(text, i)
                raise PddlSyntaxError(f"{path}:{ln}:{col}: this ')' closes nothing; remove it", path, ln, col)
            stack.pop()
    if stack:
        ln, col = line_of(text, stack[-1])
        raise PddlSyntaxError(f"{path}:{ln}:{col}: the '(' opened here is never closed; add the missing ')'",
                              path, ln, col)


def _header(text: str, path: str, want: str) -> str:
    code = strip_comments(text)
    if not code.strip():
        raise PddlSyntaxError(f"{path}: the file is empty; a PDDL {want} starts with '(define ({want} NAME)'", path)
    _balance(text, path)
    m = re.match(r"\s*\(\s*define\s*\(\s*(domain|problem)\s+([^\s()]+)\s*\)", code, re.IGNORECASE)
    if not m:
        ln = line_of(text, len(code) - len(code.lstrip()))[0]
        raise PddlSyntaxError(f"{path}:{ln}: expected '(define ({want} NAME)' at the start of the {want} file", path, ln)
    if m.group(1).lower() != want:
        other = m.group(1).lower()
        raise PddlSyntaxError(f"{path}: this is a PDDL {other} ('(define ({other} {m.group(2)})'), given as the "
                              f"{want}; pass the {want} file there (and the {other} file as the {other})", path, 1)
    return m.group(2).lower()


def check_domain_text(text: str, path: str) -> tuple[str, tuple[str, ...]]:
    """``(domain name, requirements)`` of a domain text, after the checks of the module doc."""
    name = _header(text, path, "domain")
    code = strip_comments(text)
    reqs: list[str] = []
    m = re.search(r"\(\s*:requirements\b([^()]*)\)", code, re.IGNORECASE)
    if m:
        reqs = [r.lower() for r in m.group(1).split()]
        for r in reqs:
            if r not in SUPPORTED:
                ln = line_of(text, m.start())[0]
                what = UNSUPPORTED.get(r, "a requirement unified-planning does not know")
                raise PddlUnsupportedError(
                    f"{path}:{ln}: requirement {r} ({what}) is not supported: unified-planning's sequential "
                    f"simulator runs {', '.join(sorted(SUPPORTED))}", path, ln)
    for construct, req in _CONSTRUCTS.items():
        c = re.search(rf"\(\s*{re.escape(construct)}\b", code, re.IGNORECASE)
        if c:
            ln = line_of(text, c.start())[0]
            raise PddlUnsupportedError(f"{path}:{ln}: '({construct}' needs requirement {req} ({UNSUPPORTED[req]}), "
                                       "which unified-planning's sequential simulator does not run", path, ln)
    return name, tuple(reqs)


def check_problem_text(text: str, path: str, domain_name: str, domain_path: str) -> str:
    """The problem's name, after the checks of the module doc (its ``(:domain X)`` must be
    ``domain_name``)."""
    name = _header(text, path, "problem")
    code = strip_comments(text)
    m = re.search(r"\(\s*:domain\s+([^\s()]+)\s*\)", code, re.IGNORECASE)
    if not m:
        raise PddlSyntaxError(f"{path}: the problem names no domain; add '(:domain {domain_name})'", path)
    if m.group(1).lower() != domain_name:
        ln = line_of(text, m.start())[0]
        raise PddlMismatchError(
            f"{path}:{ln}: problem {name!r} is for domain {m.group(1).lower()!r}, but {domain_path} defines domain "
            f"{domain_name!r}; give the domain file of {m.group(1).lower()!r}", path, ln)
    return name


def undefined_numeric(problem, path: str, text: str) -> PddlMismatchError:
    """The error for numeric fluents the problem gives no initial value (UP's simulator refuses them:
    ``UNDEFINED_INITIAL_NUMERIC``; ALFRED's ``(total-cost)`` is one)."""
    given = {fe.fluent().name for fe in problem.explicit_initial_values}
    names = sorted(f.name for f in problem.fluents if not f.type.is_bool_type() and f.name not in given)
    line = find_line(text, ":init")
    first = names[0] if names else "f"
    return PddlMismatchError(f"{path}{f':{line}' if line else ''}: numeric fluent(s) {', '.join(names) or '?'} have "
                             f"no initial value; add e.g. '(= ({first}) 0)' to the problem's :init", path, line)


_POS = re.compile(r"line:?\s*(\d+),\s*col:?\s*(\d+)", re.IGNORECASE)


def from_up_error(exc: Exception, path: str, text: str, stage: str, domain_text: str = ""):
    """UP's parse error as a :class:`PddlSyntaxError` / :class:`PddlMismatchError` naming ``path`` and
    the line (from the exception, else found in the text)."""
    msg = str(exc).strip()
    line = getattr(exc, "lineno", None)
    col = getattr(exc, "col", None)
    m = _POS.search(msg)
    if line is None and m:
        line, col = int(m.group(1)), int(m.group(2))
    mismatch = stage == "problem"
    if isinstance(exc, KeyError):  # UP's reader: a type no declaration names
        name = str(exc.args[0]) if exc.args else msg
        line = find_line(text, name)
        what = f"unknown type {name!r}: the domain declares no such type"
    elif "Not able to handle" in msg:
        expr = msg.split("Not able to handle:", 1)[1].split(" found at", 1)[0].strip()
        head = expr.strip("() ").split()[0] if expr.strip("() ") else expr
        what = (f"{expr}: {head!r} is no predicate, function or keyword the domain declares"
                if head and not head.startswith(":") else f"cannot read {expr}")
    elif "Found invalid expression" in msg:
        tok = msg.split("Found invalid expression:", 1)[1].split(".", 1)[0].strip()
        what = f"unknown object, constant or parameter {tok!r}: the {'problem' if mismatch else 'domain'} declares none"
    elif "arity" in msg:
        a = re.search(r"fluent: (\S+) has arity (\d+) but (\d+) parameters", msg)
        what = (f"{a.group(1)!r} takes {a.group(2)} argument(s), given {a.group(3)}" if a else
                re.sub(r"^.*?\('(.*)'\).*$", r"\1", msg.splitlines()[0]).strip())
    elif "not well-formed" in msg:
        expr = re.search(r"'([^']*)'", msg)
        what = (f"{expr.group(1) if expr else 'an expression'} is not well-formed: an argument has the wrong type "
                "for the predicate")
    elif type(exc).__module__.startswith("pyparsing"):
        mismatch = False
        what = re.sub(r"\s*\(at char \d+\).*$", "", msg.splitlines()[0])
    else:
        what = msg.splitlines()[0][:300] if msg else type(exc).__name__
    where = f"{path}:{line}:{col}" if line and col else f"{path}:{line}" if line else path
    cls = PddlMismatchError if mismatch else PddlSyntaxError
    hint = " (is the problem written for this domain?)" if mismatch else ""
    return cls(f"{where}: {what}{hint}", path, line, col)


__all__ = ["read_pddl", "check_domain_text", "check_problem_text", "from_up_error", "strip_comments",
           "find_line", "requirements_for", "undefined_numeric", "SUPPORTED", "UNSUPPORTED"]
