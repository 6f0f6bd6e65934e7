"""Reading user-supplied JSONL files of task records (example banks, task lists).

One place for the checks every such file needs, so each caller only validates
its own fields.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

from actionable.core.errors import InputError


def iter_task_records(path: str | Path, what: str) -> Iterator[tuple[str, dict]]:
    """Yield ``(where, record)`` for each non-blank line of a UTF-8 JSONL file.

    ``where`` is ``"<file name>:<line number>"`` for error messages. Every record
    is a JSON object with a non-empty string ``task``.

    Raises:
        InputError: unreadable or non-UTF-8 file (naming ``what``), a line that is
            not JSON, or a record without a non-empty ``task``.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {what} {str(p)!r}: {exc}; give a UTF-8 JSONL file") from None
    for ln, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{p.name}:{ln}"
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{where}: invalid JSON ({exc.msg})") from None
        if not isinstance(rec, dict) or not isinstance(rec.get("task"), str) or not rec["task"].strip():
            raise InputError(f"{where}: each line needs a non-empty string 'task'")
        yield where, rec
