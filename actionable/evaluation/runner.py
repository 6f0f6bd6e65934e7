"""Resumable, crash-safe episode runner with a local or a Ray executor.

Stable API (used by plan evaluation, verify and continual):

    Episode(key: str, payload: dict)            # key unique in a run; payload JSON-able
    run_episodes(episodes, factory, run_dir, *, executor="local"|"ray", workers=1,
                 address=None, manifest=None, progress=True, retry_errors=False)
        -> RunResult(records: dict[key, record], new: int, skipped: int, errors: int)
    RunStore(run_dir).read() -> dict[key, record]     # re-read a run without models

``factory`` is a picklable zero-argument callable (a module-level function, or an
instance of a module-level class) returning ``work(payload: dict) -> dict``. It is
called once per worker, so models and the simulator are built once per worker
and shared by that worker's episodes. ``work`` must be deterministic given the
payload (seeds travel in the payload) so that a retried episode gives the same
line.

``run_dir/run.jsonl`` holds one JSON line per finished episode::

    {"key", "status": "ok"|"error", "payload", "result", "error", "seconds", "worker", "finished"}

Crash safety (issue 8): each line is written with a single ``write`` of the full
line followed by ``flush`` and ``fsync``, by the driver process only. After a
``kill -9`` the file holds whole lines plus at most one partial trailing line;
:meth:`RunStore.read` skips corrupt lines with a warning and
:meth:`RunStore.repair` truncates a partial trailing line before new lines are
appended. On resume, episodes whose key already has a line are skipped, so no
episode is lost or duplicated. A lock file (``fcntl.flock``) stops two runners
from writing one run directory at once.

Ray executor: one actor per worker (``max_restarts=-1, max_task_retries=-1``);
when a worker process dies, Ray restarts the actor (rebuilding its models) and
retries its unfinished episodes; the driver keeps at most one line per key.
``address=None`` starts a local Ray cluster with ``workers`` CPUs.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Mapping

from actionable.core.errors import ActionableError, ConfigError, EvaluationError, RunFileError

log = logging.getLogger(__name__)

Executor = Literal["local", "ray"]
RUN_FILE = "run.jsonl"
MANIFEST_FILE = "manifest.json"
Work = Callable[[dict], dict]
WorkerFactory = Callable[[], Work]


@dataclass(frozen=True)
class Episode:
    """One unit of work: a unique ``key`` and a JSON-serialisable ``payload``."""

    key: str
    payload: dict = field(default_factory=dict)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_episodes`: what was finished is in ``run.jsonl``.

    Attributes:
        saved: episodes of the run with a line in ``run.jsonl`` (old and new); total: all episodes.
        The message says both and how to go on: ``5 of 15 saved; rerun the same command to resume``.
    """

    def __init__(self, saved: int, total: int):
        self.saved, self.total = saved, total
        super().__init__(f"{saved} of {total} saved; rerun the same command to resume")


@dataclass
class RunResult:
    """Outcome of :func:`run_episodes`.

    Attributes:
        records: every record of the run by key (old and new), last line wins.
        new: episodes run by this call; skipped: episodes already in run.jsonl;
        errors: records of this run (old and new) with ``status == "error"``.
    """

    records: dict[str, dict]
    new: int = 0
    skipped: int = 0
    errors: int = 0


class RunStore:
    """The run directory: ``run.jsonl`` (records), ``manifest.json`` (config)."""

    def __init__(self, run_dir: str | Path):
        self.dir = Path(run_dir)
        self.path = self.dir / RUN_FILE
        self._lock_fd: int | None = None

    # -- reading ---------------------------------------------------------------------
    def _scan(self) -> tuple[dict[str, dict], int]:
        """(records by key, corrupt line count)."""
        records: dict[str, dict] = {}
        corrupt = 0
        if not self.path.exists():
            return records, 0
        data = self.path.read_bytes()
        pos = 0
        lineno = 0
        while pos < len(data):
            nl = data.find(b"\n", pos)
            end = len(data) if nl < 0 else nl + 1
            raw = data[pos:end]
            lineno += 1
            rec = None
            if nl >= 0:
                try:
                    rec = json.loads(raw.decode("utf-8"))
                except (UnicodeDecodeError, json.JSONDecodeError):
                    rec = None
            if isinstance(rec, dict) and isinstance(rec.get("key"), str):
                records[rec["key"]] = rec
            elif raw.strip():
                corrupt += 1
                what = "partial trailing line (interrupted write)" if nl < 0 else "corrupt line"
                log.warning("%s: skipping %s %d", self.path, what, lineno)
            pos = end
        return records, corrupt

    def read(self) -> dict[str, dict]:
        """All records by episode key (a later line for a key replaces an earlier one).

        Corrupt lines are skipped with a ``logging`` warning.

        Raises:
            RunFileError: the run directory does not exist.
        """
        if not self.dir.is_dir():
            raise RunFileError(f"run directory {self.dir} does not exist; pass the --out "
                               "directory of an earlier `actionable eval` run")
        return self._scan()[0]

    def read_manifest(self) -> dict | None:
        p = self.dir / MANIFEST_FILE
        if not p.exists():
            return None
        try:
            return json.loads(p.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RunFileError(f"{p} is not valid JSON ({exc}); delete it to start the run afresh") from None

    # -- writing ---------------------------------------------------------------------
    def open(self) -> None:
        """Create the directory, take the writer lock, truncate a partial trailing line.

        Raises:
            RunFileError: another process holds the lock, or the directory is unwritable.
        """
        import fcntl

        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.dir / ".lock", os.O_CREAT | os.O_RDWR, 0o644)
        except OSError as exc:
            raise RunFileError(f"cannot create run directory {self.dir}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RunFileError(f"run directory {self.dir} is in use by another runner; wait for it "
                               "to finish or use a different --out") from None
        self._lock_fd = fd
        self.repair()

    def close(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # releases the flock
            self._lock_fd = None

    def repair(self) -> int:
        """Truncate a partial trailing line (a write cut by a crash: the file does not
        end with a newline). Corrupt *complete* lines are left and skipped on read.
        Returns the number of bytes removed."""
        if not self.path.exists():
            return 0
        data = self.path.read_bytes()
        if not data or data.endswith(b"\n"):
            return 0
        keep = data.rfind(b"\n") + 1
        log.warning("%s: removing %d bytes of a partial trailing line", self.path, len(data) - keep)
        with open(self.path, "r+b") as f:
            f.truncate(keep)
            f.flush()
            os.fsync(f.fileno())
        return len(data) - keep

    def append(self, record: Mapping[str, Any]) -> None:
        """Append one record as one line: single write, flush, fsync.

        Raises:
            RunFileError: the record is not JSON-serialisable or the disk write failed.
        """
        try:
            line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=True) + "\n"
        except (TypeError, ValueError) as exc:
            raise RunFileError(f"episode {record.get('key')!r} returned a result that is not "
                               f"JSON-serialisable ({exc}); return plain dicts/lists/numbers") from None
        data = line.encode("utf-8")
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            try:
                written = os.write(fd, data)
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as exc:
            raise RunFileError(f"cannot append to {self.path}: {exc.strerror}") from None

    def write_manifest(self, manifest: Mapping) -> None:
        """Write ``manifest.json`` atomically (temp file + rename)."""
        tmp = self.dir / (MANIFEST_FILE + ".tmp")
        tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True, default=str), encoding="utf-8")
        os.replace(tmp, self.dir / MANIFEST_FILE)


def config_fingerprint(config) -> str:
    """16-hex-digit identity of a run's configuration (JSON with sorted keys).
    A resumed run must present the same ``manifest["fingerprint"]``."""
    return hashlib.sha256(json.dumps(config, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _run_one(work: Work, ep: Episode) -> dict:
    """Run one episode; an exception becomes an error record (the run goes on)."""
    t0 = time.perf_counter()
    status, result, error = "ok", None, None
    try:
        result = work(dict(ep.payload))
        if not isinstance(result, dict):
            raise EvaluationError(f"episode worker returned {type(result).__name__}, expected a dict")
    except ActionableError as exc:
        status, error = "error", f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # noqa: BLE001 - a buggy episode must not end a long run
        status, error = "error", f"internal {type(exc).__name__}: {exc}"
        log.exception("episode %s failed", ep.key)
    return {"key": ep.key, "status": status, "payload": ep.payload, "result": result,
            "error": error, "seconds": round(time.perf_counter() - t0, 6),
            "worker": f"{socket.gethostname()}:{os.getpid()}", "finished": time.time()}


class _RayWorker:
    """Ray actor body: builds the worker once, runs episodes."""

    def __init__(self, factory: WorkerFactory):
        self._work = factory()

    def run(self, key: str, payload: dict) -> dict:
        return _run_one(self._work, Episode(key, payload))


class _LineProgress:
    """Episode progress as plain timestamped lines on stderr, for when stderr is not a
    terminal (CI logs, notebooks, ``nohup``): ``[12:03:01] episode 12/270, ETA 14 min``.
    The same calls as the rich bar (``start``, ``add_task``, ``advance``, ``stop``); a line
    for the first and the last episode and at most one every ``every_s`` seconds between."""

    def __init__(self, total: int, every_s: float = 10.0, stream=None):
        self.total, self.every_s, self.stream = total, every_s, stream
        self.done = self.start_done = 0
        self._t0 = self._last = None

    def start(self) -> None:
        import time

        self._t0 = time.monotonic()

    def add_task(self, _name: str, total: int | None = None, completed: int = 0):
        self.done = self.start_done = completed
        if completed:
            self._line(f"{completed}/{self.total} episodes already done; running the rest")
        return 0

    def advance(self, _task, n: int = 1) -> None:
        import time

        self.done += n
        now = time.monotonic()
        first = self.done - self.start_done == 1
        if not (first or self.done >= self.total or self._last is None or now - self._last >= self.every_s):
            return
        self._last = now
        ran = self.done - self.start_done
        eta = ""
        if self._t0 is not None and ran > 0 and self.done < self.total:
            eta = ", ETA " + _minutes((now - self._t0) / ran * (self.total - self.done))
        self._line(f"episode {self.done}/{self.total}{eta}")

    def stop(self) -> None:
        pass

    def _line(self, msg: str) -> None:
        import sys
        import time

        print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=self.stream or sys.stderr, flush=True)


def _minutes(seconds: float) -> str:
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    return f"{round(seconds / 60)} min"


def _progress(total: int, enabled: bool):
    """A rich bar with ETA on a terminal, :class:`_LineProgress` otherwise, ``None`` when off."""
    if not enabled:
        return None
    import sys

    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        tty = False
    if not tty:
        return _LineProgress(total)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    return Progress(TextColumn("[bold]episodes"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(), transient=False,
                    console=Console(stderr=True))


def _iter_local(pending: list[Episode], factory: WorkerFactory):
    work = factory()
    for ep in pending:
        yield _run_one(work, ep)


def _iter_ray(pending: list[Episode], factory: WorkerFactory, workers: int, address: str | None):
    try:
        import ray
    except ModuleNotFoundError:
        raise ConfigError("--executor ray needs Ray: pip install 'actionable[ray]' (or pip install ray)") from None
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False,
                         object_store_memory=128 * 1024 * 1024)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ConfigError(f"cannot start/connect Ray (address={address or 'local'}): {exc}; check "
                              "`ray status` on the head node or drop --address for a local cluster") from None
        started = True
    actor_cls = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=-1)(_RayWorker)
    actors = [actor_cls.remote(factory) for _ in range(workers)]
    queue = deque(pending)
    inflight: dict[Any, int] = {}

    def submit(i: int) -> None:
        if queue:
            ep = queue.popleft()
            inflight[actors[i].run.remote(ep.key, ep.payload)] = i

    try:
        for i in range(len(actors)):
            for _ in range(2):  # two in flight per actor keeps it busy
                submit(i)
        while inflight:
            ready, _ = ray.wait(list(inflight), num_returns=1)
            for ref in ready:
                i = inflight.pop(ref)
                try:
                    rec = ray.get(ref)
                except ray.exceptions.RayError as exc:
                    lines = [ln for ln in str(exc).strip().splitlines() if ln.strip()]
                    why = lines[-1][:300] if lines else type(exc).__name__
                    raise EvaluationError(f"Ray worker failed for good ({why}); finished episodes "
                                          "are saved, rerun the same command to resume") from None
                yield rec
                submit(i)
    finally:
        for a in actors:
            try:
                ray.kill(a)
            except Exception:  # noqa: BLE001 - best-effort cleanup
                pass
        if started:
            ray.shutdown()


def _config_diff(old: Mapping, new: Mapping) -> str:
    """Which settings differ between two manifests (their ``config``), else the fingerprints."""
    a, b = old.get("config"), new.get("config")
    if isinstance(a, dict) and isinstance(b, dict):
        def v(d: dict, k: str) -> str:  # a setting a run leaves out is its default (not "None")
            return repr(d[k]) if d.get(k) is not None else "the default"

        diff = [f"{k}: {v(a, k)} then, {v(b, k)} now" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)]
        if diff:
            return "; ".join(diff)
    return f"fingerprint {old.get('fingerprint')} vs {new.get('fingerprint')}"


def _check_payloads(store: RunStore, eps: list[Episode], records: dict[str, dict]) -> None:
    """Refuse to resume when a stored episode was run with other settings than requested
    (the manifest may be missing or hand-edited; the records are the ground truth)."""
    def norm(x):
        return json.loads(json.dumps(x, sort_keys=True, default=str))

    for e in eps:
        rec = records.get(e.key)
        if rec is None or not isinstance(rec.get("payload"), dict):
            continue
        old, new = norm(rec["payload"]), norm(dict(e.payload))
        diff = [k for k in sorted(set(old) & set(new)) if old[k] != new[k]]
        if diff:
            shown = "; ".join(f"{k}: {old[k]!r} stored, {new[k]!r} now" for k in diff[:4])
            raise RunFileError(f"{store.path} holds episode {e.key!r} run with other settings ({shown}); "
                               "use a new --out directory")


def run_episodes(episodes: Iterable[Episode], factory: WorkerFactory, run_dir: str | Path, *,
                 executor: Executor = "local", workers: int = 1, address: str | None = None,
                 manifest: Mapping | None = None, progress: bool = True,
                 retry_errors: bool = False) -> RunResult:
    """Run every episode that ``run_dir/run.jsonl`` lacks; append one line each.

    Args:
        episodes: the full episode list of the run (finished ones are skipped).
        factory: builds one worker (see module docstring); called once per worker.
        run_dir: run directory, created if absent.
        executor: ``"local"`` (in-process, sequential) or ``"ray"``.
        workers: Ray workers (actors), >= 1; ignored by ``local``.
        address: Ray cluster address (``"auto"``, ``"ray://host:10001"``); ``None`` = local cluster.
        manifest: run configuration; stored on first use, and a resumed run must
            present the same ``manifest["fingerprint"]``.
        progress: show progress on stderr: a rich bar with ETA on a terminal, timestamped
            lines (``episode 12/270, ETA 14 min``) otherwise.
        retry_errors: rerun episodes whose line has ``status == "error"``.

    Returns:
        :class:`RunResult`.

    Raises:
        ConfigError: bad executor / workers, or duplicate episode keys.
        RunFileError: the run directory is locked or belongs to a different configuration.
        EvaluationError: a Ray worker could not be restarted.
        RunInterrupted: Ctrl-C (a ``KeyboardInterrupt``); its message counts the saved episodes.
    """
    if executor not in ("local", "ray"):
        raise ConfigError(f"--executor must be 'local' or 'ray', got {executor!r}")
    if not isinstance(workers, int) or workers < 1 or workers > 1024:
        raise ConfigError(f"--workers must be between 1 and 1024, got {workers!r}")
    eps = list(episodes)
    keys = [e.key for e in eps]
    if len(set(keys)) != len(keys):
        dup = sorted({k for k in keys if keys.count(k) > 1})[:5]
        raise ConfigError(f"episode keys must be unique; duplicated: {dup}")
    store = RunStore(run_dir)
    store.open()
    try:
        old_manifest = store.read_manifest()
        if manifest is not None:
            if old_manifest is not None and old_manifest.get("fingerprint") != manifest.get("fingerprint"):
                raise RunFileError(f"{store.dir} holds a run with a different configuration "
                                   f"({_config_diff(old_manifest, manifest)}); use a new --out directory")
            if old_manifest is None:
                store.write_manifest(manifest)
            elif manifest.get("command") and manifest["command"] not in old_manifest.get(
                    "commands", [old_manifest.get("command")]):
                # same configuration, extended (more seeds / agents): keep every command used
                history = old_manifest.get("commands") or [old_manifest.get("command")]
                store.write_manifest({**old_manifest, "commands": [c for c in history if c] + [manifest["command"]]})
        records = store._scan()[0]
        _check_payloads(store, eps, records)
        done = {k for k, r in records.items() if r.get("status") == "ok" or not retry_errors}
        pending = [e for e in eps if e.key not in done]
        skipped = len(eps) - len(pending)
        new = 0
        bar = _progress(len(eps), progress and bool(pending))
        stream = (_iter_ray(pending, factory, workers, address) if executor == "ray" and pending
                  else _iter_local(pending, factory) if pending else iter(()))
        task = None
        if bar is not None:
            bar.start()
            task = bar.add_task("run", total=len(eps), completed=skipped)
        try:
            for rec in stream:
                if rec["key"] in done:  # a retried Ray task finishing twice
                    continue
                store.append(rec)
                records[rec["key"]] = rec
                done.add(rec["key"])
                new += 1
                if bar is not None:
                    bar.advance(task)
        except KeyboardInterrupt as exc:
            if isinstance(exc, RunInterrupted):
                raise
            raise RunInterrupted(sum(1 for e in eps if e.key in records), len(eps)) from exc
        finally:
            if bar is not None:
                bar.stop()
        errors = sum(1 for r in records.values() if r.get("status") == "error")
        return RunResult(records=records, new=new, skipped=skipped, errors=errors)
    finally:
        store.close()
