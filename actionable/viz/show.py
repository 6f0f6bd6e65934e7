"""``actionable show RUN``: a replay document from a saved run.

RUN is one of:

* the JSON of ``actionable plan --json`` (a plan) or ``actionable verify --json`` (a verification);
* a ``follow --trace`` JSONL (one record a step, then a ``{"summary": ...}`` line);
* an eval run: its directory or its ``run.jsonl`` (``eval plan``, ``eval continual``, ...), with
  ``--id KEY`` choosing one task or episode (the record's ``key``; the message lists some keys);
* a replay document written before (``"format": "actionable-replay"``).

Every bad input raises :class:`~actionable.core.errors.InputError` with one line naming the file:
not a run, a truncated or corrupt JSONL line (with its number), an unknown id.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from actionable.viz.document import FORMAT, follow_document, plan_document, verify_document


def _err(path: Path, what: str):
    from actionable.core.errors import InputError

    return InputError(f"{path}: {what}")


def _read_jsonl(path: Path) -> list[dict]:
    out = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    if not out and not line.lstrip().startswith("{"):
                        raise _err(path, "not a saved run: expected `plan --json`, `verify --json`, a "
                                         "`follow --trace` JSONL or an eval run.jsonl") from None
                    raise _err(path, f"line {n} is not JSON (a truncated or corrupt line; rerun the command "
                                     f"that wrote the file, or delete the line)") from None
                if not isinstance(rec, dict):
                    raise _err(path, f"line {n} is not a JSON object")
                out.append(rec)
    except UnicodeDecodeError:
        raise _err(path, "not a text file (not a saved run)") from None
    return out


def load_document(run: str | Path, id: str | None = None) -> dict:
    """The replay document of ``run`` (see the module doc); ``id`` picks a record of an eval run.

    Raises:
        InputError: missing file, not a run, a truncated JSONL, an unknown ``id`` (all name the file).
    """
    path = Path(run)
    if path.is_dir():
        if not (path / "run.jsonl").is_file():
            raise _err(path, "a folder without run.jsonl: not an eval run directory")
        path = path / "run.jsonl"
    if not path.is_file():
        raise _err(path, "no such file; give a `plan --json` / `verify --json` file, a `follow --trace` "
                         "JSONL or an eval run directory")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise _err(path, "not a text file (not a saved run)") from None
    stripped = text.strip()
    if not stripped:
        raise _err(path, "the file is empty")
    whole: Any = None
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, dict):
        return _from_record(path, whole, id)
    if "\n" not in stripped and whole is None and stripped[:1] in "{[":
        raise _err(path, "the JSON is truncated or corrupt (not a saved run)")
    if whole is not None:
        raise _err(path, f"a JSON {type(whole).__name__}, not a saved run")
    recs = _read_jsonl(path)
    if not recs:
        raise _err(path, "no record in the file")
    if all("key" in r and ("result" in r or "status" in r) for r in recs):
        return _from_eval(path, recs, id)
    steps = [r for r in recs if "t" in r and "skill" in r]
    summ = [r["summary"] for r in recs if isinstance(r.get("summary"), dict)]
    if steps and len(steps) + len(summ) == len(recs):
        if not summ:
            raise _err(path, f"a follow trace of {len(steps)} steps without its closing summary line "
                             "(truncated; rerun `actionable follow --trace`)")
        sm = summ[-1]
        title = f"{sm.get('agent', 'follow')} in {sm['scene']}" if sm.get("scene") else f"follow trace {path.name}"
        return follow_document(steps, sm, title=title, world=str(sm.get("env") or ""), scene=str(sm.get("scene") or ""))
    raise _err(path, "not a saved run: expected `plan --json`, `verify --json`, a `follow --trace` JSONL "
                     "or an eval run.jsonl")


def _from_record(path: Path, rec: dict, id: str | None) -> dict:
    if "t" in rec and "skill" in rec:
        raise _err(path, "a follow trace of 1 step without its closing summary line (truncated; rerun "
                         "`actionable follow --trace`)")
    if rec.get("format") == FORMAT:
        return rec
    if "initial" in rec and "final" in rec and "rounds" in rec:
        return verify_document(rec, world=rec.get("env") or rec.get("world"))
    if "task" in rec and "steps" in rec and "executability" in rec:
        return plan_document(rec)
    if "key" in rec and "result" in rec:
        return _from_eval(path, [rec], id)
    raise _err(path, "not a saved run: a JSON object without the keys of `plan --json` (task, steps), "
                     "`verify --json` (initial, final, rounds) or an eval record (key, result)")


def _from_eval(path: Path, recs: list[dict], id: str | None) -> dict:
    by_key = {str(r["key"]): r for r in recs}
    if id is None:
        if len(by_key) != 1:
            some = ", ".join(list(by_key)[:5])
            raise _err(path, f"an eval run of {len(by_key)} records: choose one with --id (keys: {some}, ...)")
        id = next(iter(by_key))
    rec = by_key.get(str(id))
    if rec is None:
        some = ", ".join(list(by_key)[:5])
        raise _err(path, f"no record with id {id!r} in this run (keys: {some}{', ...' if len(by_key) > 5 else ''})")
    if rec.get("status") not in (None, "ok"):
        raise _err(path, f"record {id!r} ended in an error: {str(rec.get('error'))[:200]}")
    res = rec.get("result") or {}
    if isinstance(res.get("plan"), dict):
        payload = rec.get("payload") or {}
        return plan_document(res["plan"], world=payload.get("env") or res["plan"].get("world") or None)
    if "activations" in res:
        return follow_document(list(res.get("trace") or []), res, title=f"episode {id}",
                               world=(rec.get("payload") or {}).get("env", ""),
                               scene=(rec.get("payload") or {}).get("scene", ""),
                               instructions=res.get("instructions"))
    if "initial" in res and "final" in res:
        return verify_document(res)
    raise _err(path, f"record {id!r} holds neither a plan, a verification nor an episode")


__all__ = ["load_document"]
