"""Batch planning: many tasks on one loaded session, JSONL out, resumable.

``actionable plan --tasks FILE --out OUT.jsonl`` reads tasks, plans each with one planning session
(the models load once), and appends one JSON line per task to ``OUT``. A rerun with the same ``OUT``
skips every id that already has a line, so a run killed at any point (``kill -9`` included) resumes
where it stopped: each line is written with one ``write`` on a file opened ``O_APPEND``, then
``fsync``; a torn last line (the process died inside the write) is cut off before resuming.

Task file: JSONL, one object a line, ``{"task": "Make coffee"}`` with optional ``"id"`` (default:
the 1-based line number as a string), ``"description"`` and ``"scene"`` (default: the ``--scene``
of the command); or plain text, one task a line (the two may be mixed: a line that does not start
with ``{`` is a task's text). Blank lines and lines starting with ``#`` are skipped.

A bad line (an empty or blank task, a task over 300 characters, a line that is not a JSON object or
has no ``task``, an unknown key, a field of the wrong type, an unknown scene, an id an earlier line
already gave: the first line wins) is no task: it gets an error record of its own, in its place, and
the other lines are planned (:class:`BadLine`). A file that cannot be read (missing, not UTF-8) or
holds no task to plan (empty, only comments, every line bad) is an :class:`InputError`.

Output line: ``{"id", "line", "task", "ok": true, "exit", "done", "result": <the plan's --json
object>}``; for a task that cannot be planned ``{"id", "line", "task", "ok": false, "exit", "done":
null, "error": {"type", "message"}, "error_type"}`` (the message ``plan`` prints; ``error_type``
repeats ``error.type``); for a bad line the same with ``"exit": 2`` and ``"line_sha1"`` (the key
a resume skips it by while the line is unchanged; ``id`` is null for a repeated id). ``exit`` is
the exit code the single ``plan`` command would give the task: 0 Done, Nothing to do or a question
answered "Yes", 1 Not done or a question answered "No", 2 refused or unreadable (a
:class:`~actionable.core.errors.GoalReadingError`) or bad input (a bad line), 3 executes with no
goal checked. A refusal is an answer, not a failure: it is counted as ``refused``. ``done`` is the
plan's ``done`` (true, false, or null when no goal was checked or nothing was planned).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from actionable.core.errors import ActionableError, BackendUnavailableError, EmptyTaskError, InputError, TaskTooLongError


@dataclass(frozen=True)
class BatchTask:
    """One task of a batch file: ``id`` (unique), ``task`` text, optional description and scene;
    ``line`` is its 1-based line number in the file (not compared)."""

    id: str
    task: str
    description: str | None = None
    scene: str | None = None
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class BadLine:
    """A line of a batch file that is no task: it becomes an error record of its own (the other
    lines are planned). ``type``: ``EmptyTask``, ``TaskTooLong``, ``NotJSON``, ``NotAnObject``,
    ``MissingTask``, ``UnknownKey``, ``BadField``, ``DuplicateId`` (the line repeats the id of an
    earlier line: the first wins), ``UnknownScene``. ``message`` names the line and how to fix it;
    ``id`` is the id the line gave (``None`` for a repeated id: the id belongs to the first line);
    ``digest`` identifies the line's text, so that a resume skips it while it is unchanged."""

    line: int
    type: str
    message: str
    id: str | None = None
    task: str | None = None
    digest: str = ""


def line_digest(raw: str) -> str:
    return hashlib.sha1(raw.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _task_problem(task: str) -> tuple[str, str] | None:
    """``(type, why)`` when ``task`` is empty or over the length limit (what ``plan`` refuses as bad
    input before reading it), else ``None`` (text the planner refuses otherwise is its answer)."""
    from actionable.planning.prompts import clean_task

    try:
        clean_task(task)  # the rule of `plan` itself
    except EmptyTaskError:
        return "EmptyTask", "has an empty task"
    except TaskTooLongError as exc:
        return "TaskTooLong", f"has a task of {exc.length} characters; the limit is {exc.limit}"
    except InputError:
        return None  # not text: the planner refuses it as it refuses the same text given to `plan`
    return None


def read_lines(path: str | Path) -> list[BatchTask | BadLine]:
    """Every line of a batch file that is not blank or a ``#`` comment, in order: a
    :class:`BatchTask`, or a :class:`BadLine` for a line that is no task (module doc). Ids are
    claimed in file order by every line that names one (a bad line too): a later line with the
    same id is a ``DuplicateId`` bad line.

    Raises:
        InputError: the file cannot be read (missing, not a file, not UTF-8) or holds no line
            (empty, or only blank and ``#`` lines).
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--tasks {str(path)!r} is not a file; give a JSONL file of {{\"task\": ...}} lines "
                         "or a text file with one task a line")
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line_no = p.read_bytes()[: exc.start].count(b"\n") + 1
        raise InputError(f"--tasks {p}: line {line_no} is not UTF-8 text; save the file as UTF-8") from None
    except OSError as exc:
        raise InputError(f"--tasks {p} cannot be read ({exc.strerror or exc}); check its permissions") from None
    out: list[BatchTask | BadLine] = []
    seen: dict[str, int] = {}
    example = "write one {\"task\": \"Make coffee\"} object a line"
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue

        def bad(kind: str, why: str, tid: str | None = None, task: str | None = None) -> BadLine:
            sep = "" if why.startswith(":") else " "
            return BadLine(n, kind, f"--tasks {p}: line {n}{sep}{why}", tid, task, line_digest(line))

        if line.startswith("["):
            out.append(bad("NotAnObject", f"is a JSON array; {example}"))
            continue
        if not line.startswith("{"):
            tid, task = str(n), line
            desc = scene = None
        else:
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                out.append(bad("NotJSON", f"is not valid JSON ({exc.msg}); {example}"))
                continue
            if not isinstance(obj, dict):
                out.append(bad("NotAnObject", f"is not a JSON object; {example}"))
                continue
            val = obj.get("id")
            tid = str(val) if isinstance(val, (str, int)) and not isinstance(val, bool) else None
            if tid is not None:
                if tid in seen:
                    out.append(bad("DuplicateId", f"repeats id {tid!r} of line {seen[tid]}; ids must be unique "
                                                  "(the first line with an id keeps it): give this line "
                                                  "another \"id\""))
                    continue
                seen[tid] = n
            task = obj.get("task")
            if task is None:
                out.append(bad("MissingTask", "has no \"task\"; write {\"task\": \"Make coffee\"}", tid))
                continue
            extra = sorted(set(obj) - {"id", "task", "description", "scene"})
            if extra:  # "env": one batch runs in one world (--env); a key it would ignore is an error
                out.append(bad("UnknownKey", f"has unknown key(s) {', '.join(map(repr, extra))}; a line takes "
                                             "\"id\", \"task\", \"description\" and \"scene\" (the world "
                                             "is --env, for the whole batch): remove the others", tid,
                               task if isinstance(task, str) else None))
                continue
            wrong = None
            for key, kinds in (("id", (str, int)), ("task", (str,)), ("description", (str,)), ("scene", (str,))):
                val = obj.get(key)
                if val is not None and (not isinstance(val, kinds) or isinstance(val, bool)):
                    what = "text or a number" if key == "id" else "text"
                    wrong = bad("BadField", f": {key!r} is not {what}: {val!r}; write it as {what}", tid,
                                task if isinstance(task, str) else None)
                    break
            if wrong is not None:
                out.append(wrong)
                continue
            if tid is None:
                tid = str(n)
            desc, scene = obj.get("description"), obj.get("scene")
        if tid in seen and seen[tid] != n:  # a plain line's id (its number) named by a JSON line before it
            out.append(bad("DuplicateId", f"has id {tid!r} (its line number), the id line {seen[tid]} gave; "
                                          "ids must be unique (the first line keeps it): change that "
                                          "line's \"id\" or write this one as {\"id\": ..., \"task\": ...}"))
            continue
        seen[tid] = n
        problem = _task_problem(task)
        if problem is not None:
            fix = ("give the task text, e.g. {\"task\": \"Make coffee\"}, or delete the line"
                   if problem[0] == "EmptyTask" else "shorten it to an instruction such as \"Make coffee\" "
                   "(put details in \"description\")")
            short = task.strip()[:120] + ("..." if len(task.strip()) > 120 else "")
            out.append(bad(problem[0], f"{problem[1]}; {fix}", tid, short or None))
            continue
        out.append(BatchTask(tid, task.strip(), desc if isinstance(desc, str) and desc.strip() else None,
                             str(scene) if scene else None, n))
    if not out:
        raise InputError(f"--tasks {p} holds no task; write one task a line")
    check_some_task(p, out)
    return out


def check_some_task(path: str | Path, items: list[BatchTask | BadLine]) -> None:
    """Raise :class:`InputError` when ``items`` holds bad lines only (nothing to plan: the wrong
    file, or every line malformed), naming the first three."""
    if any(isinstance(t, BatchTask) for t in items):
        return
    more = f" (and {len(items) - 3} more bad lines)" if len(items) > 3 else ""
    raise InputError(f"--tasks {path} holds no task to plan: " + "; ".join(
        t.message.split(": ", 1)[-1] for t in items[:3]) + more)


def read_tasks(path: str | Path) -> list[BatchTask]:
    """The tasks of a batch file (module doc), strictly: the first bad line is an error.

    Raises:
        InputError: the file cannot be read or holds no task (:func:`read_lines`), or a line is no
            task (a :class:`BadLine`: its message, naming the line).
    """
    items = read_lines(path)
    for it in items:
        if isinstance(it, BadLine):
            raise InputError(it.message)
    return items  # type: ignore[return-value]


def done_ids(path: str | Path) -> set[str]:
    """Ids that already have a complete task line in the output ``path``; a torn last line (no
    newline or not JSON) is cut off the file first, so appends after it start on a fresh line."""
    return set(done_tasks(path))


def done_tasks(path: str | Path) -> dict[str, str | None]:
    """``{id: task text}`` of the complete task lines of the output ``path`` (a torn last line is
    cut off the file first, as :func:`done_ids`); bad-line records are not tasks
    (:func:`done_bad_lines`)."""
    return _read_done(path)[0]


def done_bad_lines(path: str | Path) -> set[tuple[int, str]]:
    """``(line, digest)`` of the bad-line records already in the output ``path``: a resume skips a
    bad line that is unchanged, and reports a fixed one (new digest) as the task it now is."""
    return _read_done(path)[1]


def _read_done(path: str | Path) -> tuple[dict[str, str | None], set[tuple[int, str]]]:
    p = Path(path)
    if not p.exists():
        return {}, set()
    data = p.read_bytes()
    keep = data.rfind(b"\n") + 1
    ids: dict[str, str | None] = {}
    bad: set[tuple[int, str]] = set()
    good = 0
    for line in data[:keep].split(b"\n")[:-1]:  # complete lines only (each ends with a newline)
        if not line.strip():
            good += len(line) + 1
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            break  # a corrupt line (never written by us): stop; rewrite from here
        if not isinstance(rec, dict):
            break
        if rec.get("line_sha1"):
            bad.add((int(rec.get("line") or 0), str(rec["line_sha1"])))
        else:
            ids[str(rec.get("id"))] = rec.get("task")
        good += len(line) + 1
    if good < len(data):
        with open(p, "r+b") as f:
            f.truncate(good)
            f.flush()
            os.fsync(f.fileno())
    return ids, bad


def append_line(path: str | Path, record: dict) -> None:
    """Append ``record`` as one JSON line: one ``write`` on an ``O_APPEND`` descriptor, then ``fsync``."""
    data = (json.dumps(record, allow_nan=False) + "\n").encode("utf-8")
    fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _error(exc_type: str, message: str) -> dict:
    return {"type": exc_type, "message": message}


def bad_line_record(b: BadLine) -> dict:
    """The output line of a :class:`BadLine`: ``ok`` false, ``exit`` 2 (what ``plan`` gives bad
    input), ``done`` null, ``error`` ``{"type", "message"}``, ``line`` and ``line_sha1`` (the key a
    resume skips it by)."""
    return {"id": b.id, "line": b.line, "task": b.task, "ok": False, "exit": 2, "done": None,
            "error": _error(b.type, b.message), "error_type": b.type, "line_sha1": b.digest}


def record(t: BatchTask, plan_one: Callable) -> tuple[dict, str]:
    """``(output line, kind)`` of one task: ``kind`` is ``planned``, ``refused`` (the goal is refused
    or cannot be read: exit 2) or ``failed`` (another :class:`ActionableError`).
    :class:`BackendUnavailableError` and other exceptions propagate."""
    from actionable.core.errors import GoalReadingError

    try:
        result = plan_one(t)
    except BackendUnavailableError:
        raise  # the server is down: stop, so that a rerun plans these tasks (not a task's failure)
    except ActionableError as exc:
        kind = "refused" if isinstance(exc, (GoalReadingError, InputError)) else "failed"
        return ({"id": t.id, "line": t.line or None, "task": t.task, "ok": False,
                 "exit": 2 if kind == "refused" else 1, "done": None,
                 "error": _error(type(exc).__name__, str(exc)), "error_type": type(exc).__name__}, kind)
    done = result.get("done") if isinstance(result, dict) else None
    executes = bool((result.get("executability") or {}).get("executable")) if isinstance(result, dict) else False
    code = 0 if done is True else 1 if done is False or not executes else 3
    return ({"id": t.id, "line": t.line or None, "task": t.task, "ok": True, "exit": code,
             "done": done if isinstance(done, bool) else None, "result": result}, "planned")


def run_batch(tasks: Iterable[BatchTask | BadLine], out: str | Path, plan_one: Callable[[BatchTask], dict],
              progress: Callable[[str], None] | None = None) -> dict:
    """Plan every task of ``tasks`` whose id ``out`` lacks, and record every bad line ``out`` lacks;
    append one line each, in file order (module doc).

    Args:
        tasks: what :func:`read_lines` returns (tasks and bad lines), or tasks alone.
        plan_one: the task -> the plan's JSON object; an :class:`ActionableError` it raises is
            recorded as an ``ok: false`` line; :class:`BackendUnavailableError` and other exceptions
            stop the run (rerun to resume).
        progress: receives one line per task (``[3/20] 1003_2 Make coffee: executable (4.1 s)``).

    Returns:
        counts: ``total`` (tasks and bad lines), ``skipped`` (already in ``out``), ``planned`` (of
        which ``done``: exit 0, ``not_done``: exit 1), ``refused`` (exit 2: refused, unreadable or
        bad input), ``failed`` (another error), ``bad_lines`` (bad lines of the file, recorded now
        or by an earlier run).

    Raises:
        InputError: a task's id is already in ``out`` with another task text (the task file
            changed since that run: a plain-text file's ids are its line numbers).
    """
    import time

    tasks = list(tasks)
    have, have_bad = _read_done(out)
    real = [t for t in tasks if isinstance(t, BatchTask)]
    changed = next((t for t in real if t.id in have and have[t.id] is not None and have[t.id] != t.task), None)
    if changed is not None:  # ids are line numbers in a text file: a line added above shifts them
        raise InputError(f"--out {out}: task id {changed.id!r} is {have[changed.id]!r} there but {changed.task!r} "
                         "in the task file now (the file changed since that run); give each task an \"id\", "
                         "or write to a new --out")

    def is_done(t) -> bool:
        return (t.line, t.digest) in have_bad if isinstance(t, BadLine) else t.id in have

    todo = [t for t in tasks if not is_done(t)]
    counts = {"total": len(tasks), "skipped": len(tasks) - len(todo), "planned": 0, "refused": 0, "failed": 0,
              "done": 0, "not_done": 0, "bad_lines": len(tasks) - len(real)}
    if progress is not None and counts["skipped"]:
        progress(f"resuming: {counts['skipped']} of {len(tasks)} tasks already in {out}")
    for i, t in enumerate(todo, counts["skipped"] + 1):
        t0 = time.perf_counter()
        if isinstance(t, BadLine):
            rec = bad_line_record(t)
            append_line(out, rec)
            if progress is not None:
                progress(f"[{i}/{len(tasks)}] line {t.line}: bad line ({t.type}): {t.message} (exit 2)")
            continue
        rec, kind = record(t, plan_one)
        counts[kind] += 1
        if kind == "planned":
            counts["done" if rec["exit"] == 0 else "not_done"] += rec["exit"] in (0, 1)
            res = rec["result"] if isinstance(rec["result"], dict) else {}
            verdict = res.get("verdict") or ("executable" if (res.get("executability") or {}).get("executable")
                                             else "not executable")
        else:
            verdict = f"{kind}: {rec['error']['message'][:120] or rec['error_type']}"
        verdict = f"{str(verdict).splitlines()[0][:120]} (exit {rec['exit']})"
        append_line(out, rec)
        if progress is not None:
            progress(f"[{i}/{len(tasks)}] {t.id} {t.task[:50]}: {verdict} ({time.perf_counter() - t0:.1f} s)")
    return counts


__all__ = ["BatchTask", "BadLine", "read_lines", "read_tasks", "done_ids", "done_tasks", "done_bad_lines",
           "append_line", "record", "bad_line_record", "check_some_task", "line_digest", "run_batch"]
