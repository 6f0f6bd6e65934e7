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

Output line: ``{"id", "task", "ok": true, "exit", "result": <the plan's --json object>}``, or for a
task that cannot be planned ``{"id", "task", "ok": false, "exit", "error_type", "error"}`` (the
same message the single ``plan`` command prints). ``exit`` is the exit code the single ``plan``
command would give the task: 0 Done, Nothing to do or a question answered "Yes", 1 Not done or a
question answered "No", 2 refused or unreadable (a :class:`~actionable.core.errors.GoalReadingError`)
or bad input, 3 executes with no goal checked. A refusal is an answer, not a failure: it is counted as ``refused``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from actionable.core.errors import ActionableError, BackendUnavailableError, InputError


@dataclass(frozen=True)
class BatchTask:
    """One task of a batch file: ``id`` (unique), ``task`` text, optional description and scene."""

    id: str
    task: str
    description: str | None = None
    scene: str | None = None


def read_tasks(path: str | Path) -> list[BatchTask]:
    """The tasks of a batch file (module doc).

    Raises:
        InputError: the file is missing, a JSON line is malformed, lacks ``task`` or has a key
            other than ``id``/``task``/``description``/``scene``, or two tasks share an id (the
            message names the line).
    """
    p = Path(path)
    if not p.is_file():
        raise InputError(f"--tasks {str(path)!r} is not a file; give a JSONL file of {{\"task\": ...}} lines "
                         "or a text file with one task a line")
    out: list[BatchTask] = []
    seen: dict[str, int] = {}
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        line_no = p.read_bytes()[: exc.start].count(b"\n") + 1
        raise InputError(f"--tasks {p}: line {line_no} is not UTF-8 text; save the file as UTF-8") from None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            raise InputError(f"--tasks {p}: line {n} is a JSON array; write one {{\"task\": \"...\"}} object a line")
        if line.startswith("{"):
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"--tasks {p}: line {n} is not valid JSON ({exc.msg}); write one "
                                 "{\"task\": \"...\"} object a line") from None
            task = obj.get("task") if isinstance(obj, dict) else None
            if not isinstance(task, str) or not task.strip():
                raise InputError(f"--tasks {p}: line {n} has no \"task\" text; write {{\"task\": \"Make coffee\"}}")
            extra = sorted(set(obj) - {"id", "task", "description", "scene"})
            if extra:  # "env": one batch runs in one world (--env); a key it would ignore is an error
                raise InputError(f"--tasks {p}: line {n} has unknown key(s) {', '.join(map(repr, extra))}; a line "
                                 "takes \"id\", \"task\", \"description\" and \"scene\" (the world is --env, for "
                                 "the whole batch)")
            for key, kinds in (("id", (str, int)), ("description", (str,)), ("scene", (str,))):
                val = obj.get(key)
                if val is not None and (not isinstance(val, kinds) or isinstance(val, bool)):
                    what = "text or a number" if key == "id" else "text"
                    raise InputError(f"--tasks {p}: line {n}: {key!r} is not {what}: {val!r}")
            tid = str(obj.get("id", n))
            desc = obj.get("description")
            scene = obj.get("scene")
            bt = BatchTask(tid, task.strip(), desc if isinstance(desc, str) and desc.strip() else None,
                           str(scene) if scene else None)
        else:
            bt = BatchTask(str(n), line)
        if bt.id in seen:
            raise InputError(f"--tasks {p}: line {n} repeats id {bt.id!r} of line {seen[bt.id]}; ids must be unique")
        seen[bt.id] = n
        out.append(bt)
    if not out:
        raise InputError(f"--tasks {p} holds no task; write one task a line")
    return out


def done_ids(path: str | Path) -> set[str]:
    """Ids that already have a complete line in the output ``path``; a torn last line (no newline or
    not JSON) is cut off the file first, so appends after it start on a fresh line."""
    return set(done_tasks(path))


def done_tasks(path: str | Path) -> dict[str, str | None]:
    """``{id: task text}`` of the complete lines of the output ``path`` (a torn last line is cut off
    the file first, as :func:`done_ids`)."""
    p = Path(path)
    if not p.exists():
        return {}
    data = p.read_bytes()
    keep = data.rfind(b"\n") + 1
    ids: dict[str, str | None] = {}
    good = 0
    for line in data[:keep].split(b"\n")[:-1]:  # complete lines only (each ends with a newline)
        if not line.strip():
            good += len(line) + 1
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            break  # a corrupt line (never written by us): stop; rewrite from here
        ids[str(rec.get("id"))] = rec.get("task")
        good += len(line) + 1
    if good < len(data):
        with open(p, "r+b") as f:
            f.truncate(good)
            f.flush()
            os.fsync(f.fileno())
    return ids


def append_line(path: str | Path, record: dict) -> None:
    """Append ``record`` as one JSON line: one ``write`` on an ``O_APPEND`` descriptor, then ``fsync``."""
    data = (json.dumps(record, allow_nan=False) + "\n").encode("utf-8")
    fd = os.open(str(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


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
        return ({"id": t.id, "task": t.task, "ok": False, "exit": 2 if kind == "refused" else 1,
                 "error_type": type(exc).__name__, "error": str(exc)}, kind)
    done = result.get("done") if isinstance(result, dict) else None
    executes = bool((result.get("executability") or {}).get("executable")) if isinstance(result, dict) else False
    code = 0 if done is True else 1 if done is False or not executes else 3
    return {"id": t.id, "task": t.task, "ok": True, "exit": code, "result": result}, "planned"


def run_batch(tasks: Iterable[BatchTask], out: str | Path, plan_one: Callable[[BatchTask], dict],
              progress: Callable[[str], None] | None = None) -> dict:
    """Plan every task of ``tasks`` whose id ``out`` lacks; append one line each (module doc).

    Args:
        plan_one: the task -> the plan's JSON object; an :class:`ActionableError` it raises is
            recorded as an ``ok: false`` line; :class:`BackendUnavailableError` and other exceptions
            stop the run (rerun to resume).
        progress: receives one line per task (``[3/20] 1003_2 Make coffee: executable (4.1 s)``).

    Returns:
        counts: ``total``, ``skipped`` (already in ``out``), ``planned`` (of which ``done``: exit
        0, ``not_done``: exit 1), ``refused`` (exit 2: refused, unreadable or bad input), ``failed``
        (another error).

    Raises:
        InputError: a task's id is already in ``out`` with another task text (the task file
            changed since that run: a plain-text file's ids are its line numbers).
    """
    import time

    tasks = list(tasks)
    have = done_tasks(out)
    changed = next((t for t in tasks if t.id in have and have[t.id] is not None and have[t.id] != t.task), None)
    if changed is not None:  # ids are line numbers in a text file: a line added above shifts them
        raise InputError(f"--out {out}: task id {changed.id!r} is {have[changed.id]!r} there but {changed.task!r} "
                         "in the task file now (the file changed since that run); give each task an \"id\", "
                         "or write to a new --out")
    todo = [t for t in tasks if t.id not in have]
    counts = {"total": len(tasks), "skipped": len(tasks) - len(todo), "planned": 0, "refused": 0, "failed": 0,
              "done": 0, "not_done": 0}
    if progress is not None and counts["skipped"]:
        progress(f"resuming: {counts['skipped']} of {len(tasks)} tasks already in {out}")
    for i, t in enumerate(todo, counts["skipped"] + 1):
        t0 = time.perf_counter()
        rec, kind = record(t, plan_one)
        counts[kind] += 1
        if kind == "planned":
            counts["done" if rec["exit"] == 0 else "not_done"] += rec["exit"] in (0, 1)
            res = rec["result"] if isinstance(rec["result"], dict) else {}
            verdict = res.get("verdict") or ("executable" if (res.get("executability") or {}).get("executable")
                                             else "not executable")
        else:
            verdict = f"{kind}: {rec['error'][:120] or rec['error_type']}"
        verdict = f"{str(verdict).splitlines()[0][:120]} (exit {rec['exit']})"
        append_line(out, rec)
        if progress is not None:
            progress(f"[{i}/{len(tasks)}] {t.id} {t.task[:50]}: {verdict} ({time.perf_counter() - t0:.1f} s)")
    return counts


__all__ = ["BatchTask", "read_tasks", "done_ids", "done_tasks", "append_line", "record", "run_batch"]
