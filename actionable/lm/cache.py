"""A persistent SQLite response cache around any :class:`LanguageModel`.

One entry per *sample* (as in DSPy's cache): a request for ``n`` samples is
``n`` entries keyed by ``sha256(model_id, prompt, sampling parameters except n,
sample index, rollout id, backend numerics_id)`` (the last only for backends
that define it: the runtime, compute path and CPU of a local model). Asking
later for more samples reuses the first ones and only computes the rest; asking
for fewer is a pure hit. Scores are cached per (prompt, continuation). Hits
return exactly the stored completion (text, token log-probs, finish reason), so
rerunning an evaluation is free and deterministic.

The key never contains an API key or any other secret: only the backend's
``model_id`` (which by contract carries none), the prompt and the parameters.

Concurrency: the database runs in WAL mode with a busy timeout, so several
processes (e.g. Ray workers) may read and write one cache file at once; writes
are ``INSERT OR IGNORE`` (first writer wins, all readers then agree).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Sequence

from actionable.core.errors import ConfigError, LMError
from actionable.lm.base import Completion, GenerationParams, LanguageModel, LMStats

CACHE_FILENAME = "lm-cache.sqlite"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS completions (
    key TEXT PRIMARY KEY, model_id TEXT NOT NULL, value TEXT NOT NULL, created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS scores (
    key TEXT PRIMARY KEY, model_id TEXT NOT NULL, value REAL NOT NULL, created REAL NOT NULL);
"""


def request_key(model_id: str, prompt: str, params: GenerationParams, sample_index: int,
                rollout_id: int | str = 0, numerics_id: str | None = None) -> str:
    """Cache key (hex sha256) of one sample of one request. ``params.n`` is
    excluded: sample ``i`` of an ``n=5`` request is sample ``i`` of ``n=10``
    (backends must make it so; the embedded one does, see
    :mod:`actionable.lm.llama_engine`). ``numerics_id`` (a backend's
    ``numerics_id`` attribute, when it has one) names the runtime and compute
    path, so entries written by another version or CPU are not reused."""
    p = params.to_dict()
    p.pop("n", None)
    d = {"model": model_id, "prompt": prompt, "params": p, "i": sample_index, "rollout": rollout_id}
    if numerics_id is not None:
        d["numerics"] = numerics_id
    blob = json.dumps(d, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


def _score_key(model_id: str, prompt: str, continuation: str, numerics_id: str | None = None) -> str:
    d = {"model": model_id, "prompt": prompt, "cont": continuation, "kind": "score"}
    if numerics_id is not None:
        d["numerics"] = numerics_id
    blob = json.dumps(d, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(blob.encode("utf-8", "surrogatepass")).hexdigest()


class CachedLM:
    """Wrap ``inner`` with the SQLite cache at ``path``.

    Args:
        inner: any backend implementing :class:`LanguageModel`.
        path: cache file, or a directory (then ``<dir>/lm-cache.sqlite``).
        rollout_id: part of every key; change it to draw fresh samples for an
            independent repetition of an experiment.

    Attributes:
        numerics_id: ``inner.numerics_id`` (runtime version, compute path and
            CPU features of a local backend) or ``None``; part of every key, so
            a cache written by another llama.cpp build, engine version or CPU
            is not mixed with fresh results.
        hits, misses: sample-level counters since construction (scores included).
        stats: :class:`LMStats` with ``cache_hits`` mirrored.

    Raises:
        ConfigError: the cache file cannot be created/opened (unwritable
            directory, not a SQLite file) -- fix the path or use ``--no-cache``.
    """

    def __init__(self, inner: LanguageModel, path: str | Path, rollout_id: int | str = 0):
        self.inner = inner
        self.model_id = inner.model_id
        self.supports_logprobs = inner.supports_logprobs
        self.supports_batch = inner.supports_batch
        self.supports_score = inner.supports_score
        self.rollout_id = rollout_id
        nid = getattr(inner, "numerics_id", None)
        self.numerics_id = nid if isinstance(nid, str) else None
        p = Path(path).expanduser()
        if p.is_dir() or (not p.suffix and not p.exists()):
            p = p / CACHE_FILENAME
        self.path = p
        self.hits = 0
        self.misses = 0
        self.stats = LMStats()
        self._lock = threading.Lock()
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(p), timeout=30.0, check_same_thread=False,
                                       isolation_level=None)
            self._db.execute("PRAGMA busy_timeout=30000")
            # Switching a new file to WAL takes an exclusive lock and SQLite may answer
            # SQLITE_BUSY at once (no busy handler) when another process opens it at the
            # same moment: retry for a bounded time.
            for attempt in range(60):
                try:
                    self._db.execute("PRAGMA journal_mode=WAL")
                    self._db.execute("PRAGMA synchronous=NORMAL")
                    self._db.executescript(_SCHEMA)
                    break
                except sqlite3.OperationalError as exc:
                    if "locked" not in str(exc) and "busy" not in str(exc) or attempt == 59:
                        raise
                    time.sleep(0.05 + 0.01 * attempt)
        except (sqlite3.Error, OSError) as exc:
            raise ConfigError(
                f"cannot use LM cache file {p}: {exc}; choose another location with "
                "ACTIONABLE_CACHE_DIR=<dir>, delete the file if it is corrupt, or pass --no-cache") from None

    # ------------------------------------------------------------------ storage
    def _get_many(self, table: str, keys: list[str]) -> dict[str, object]:
        if not keys:
            return {}
        q = f"SELECT key, value FROM {table} WHERE key IN ({','.join('?' * len(keys))})"
        try:
            with self._lock:
                rows = self._db.execute(q, keys).fetchall()
        except sqlite3.Error as exc:
            raise LMError(f"LM cache {self.path} could not be read: {exc}; pass --no-cache to bypass it") from None
        return dict(rows)

    def _put_many(self, table: str, rows: list[tuple[str, object]]) -> None:
        if not rows:
            return
        now = time.time()
        try:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    self._db.executemany(
                        f"INSERT OR IGNORE INTO {table}(key, model_id, value, created) VALUES (?,?,?,?)",
                        [(k, self.model_id, v, now) for k, v in rows])
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
        except sqlite3.Error as exc:
            raise LMError(f"LM cache {self.path} could not be written: {exc}; "
                          "pass --no-cache to bypass it") from None

    # ------------------------------------------------------------------ protocol
    def generate(self, prompt: str, params: GenerationParams | None = None) -> list[Completion]:
        """Cached :meth:`LanguageModel.generate`. On any miss the inner backend is
        asked for all ``n`` samples once; missing entries are stored, hits are
        returned as stored (so earlier samples never change)."""
        params = params or GenerationParams()
        t0 = time.perf_counter()
        keys = [request_key(self.model_id, prompt, params, i, self.rollout_id, self.numerics_id)
                for i in range(params.n)]
        found = self._get_many("completions", keys)
        n_hit = sum(1 for k in keys if k in found)
        if n_hit < len(keys):
            fresh = self.inner.generate(prompt, params)
            if len(fresh) != params.n:
                raise LMError(f"backend {self.model_id} returned {len(fresh)} samples for n={params.n}")
            new_rows = []
            for k, c in zip(keys, fresh):
                if k not in found:
                    v = json.dumps(c.to_dict())
                    found[k] = v
                    new_rows.append((k, v))
            self._put_many("completions", new_rows)
            # another process may have stored some of these first: return what is stored
            found.update(self._get_many("completions", [k for k, _ in new_rows]))
        self.hits += n_hit
        self.misses += len(keys) - n_hit
        self.stats.cache_hits = self.hits
        self.stats.calls += 1
        self.stats.samples += params.n
        self.stats.seconds += time.perf_counter() - t0
        return [Completion.from_dict(json.loads(found[k])) for k in keys]

    def score(self, prompt: str, continuations: Sequence[str]) -> list[float]:
        """Cached :meth:`LanguageModel.score`, one entry per continuation."""
        keys = [_score_key(self.model_id, prompt, c, self.numerics_id) for c in continuations]
        found = self._get_many("scores", list(dict.fromkeys(keys)))
        missing = [i for i, k in enumerate(keys) if k not in found]
        if missing:
            vals = self.inner.score(prompt, [continuations[i] for i in missing])
            rows = []
            for i, v in zip(missing, vals):
                found[keys[i]] = float(v)
                rows.append((keys[i], float(v)))
            self._put_many("scores", rows)
        self.hits += len(keys) - len(missing)
        self.misses += len(missing)
        self.stats.cache_hits = self.hits
        return [float(found[k]) for k in keys]

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM completions").fetchone()[0])

    def close(self) -> None:
        """Close the database (the inner backend is left open)."""
        with self._lock:
            self._db.close()

    def __getattr__(self, name: str):  # expose inner extras (load_seconds, chat, ...)
        if name in {"inner", "_db", "_lock", "numerics_id"}:
            raise AttributeError(name)
        return getattr(self.inner, name)

