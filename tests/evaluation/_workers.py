"""Deterministic episode workers for runner tests (picklable, module level)."""

from __future__ import annotations

import hashlib
import os
import signal
import time
from pathlib import Path


class EchoFactory:
    """Builds a worker whose result is a pure function of the payload.

    ``sleep``: seconds per episode. ``die_key``/``marker``: the first time episode
    ``die_key`` runs (marker file absent), the worker process SIGKILLs itself.
    """

    def __init__(self, sleep: float = 0.0, die_key: str | None = None, marker: str | None = None,
                 fail_key: str | None = None):
        self.sleep, self.die_key, self.marker, self.fail_key = sleep, die_key, marker, fail_key

    def __call__(self):
        built_pid = os.getpid()

        def work(payload: dict) -> dict:
            if self.sleep:
                time.sleep(self.sleep)
            if payload["name"] == self.die_key and self.marker and not Path(self.marker).exists():
                Path(self.marker).write_text(str(os.getpid()))
                os.kill(os.getpid(), signal.SIGKILL)
            if payload["name"] == self.fail_key:
                raise ValueError("scripted failure")
            h = hashlib.sha256(f"{payload['name']}:{payload['seed']}".encode()).hexdigest()
            return {"score": int(h[:6], 16) % 1000 / 1000.0, "built_pid": built_pid}

        return work


class BrokenFactory:
    """A worker that cannot be built (e.g. a model that does not load)."""

    def __call__(self):
        from actionable.core.errors import ModelNotFoundError

        raise ModelNotFoundError("no model at /nowhere; pass an existing model path")
