"""Secrets never leak (issue 8, item 5).

API keys come from ``ACTIONABLE_API_KEY`` / ``OPENAI_API_KEY`` only. With both
set to sentinels we drive the real OpenAI-compatible backend (the ``openai``
client) against (a) a closed loopback port (error path) and (b) a loopback HTTP
server that answers like an OpenAI completions endpoint, through the real
evaluation runner with the SQLite LM cache on. The sentinels must reach the
server's ``Authorization`` header (so the test is not vacuous) and must appear
nowhere else: stdout, stderr, exception text, log records, cache DB bytes,
``run.jsonl``, ``manifest.json``, ``summary.*``.
"""

from __future__ import annotations

import json
import logging
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from actionable.core.errors import ActionableError
from tests.reliability.conftest import SENTINEL_ACTIONABLE, SENTINEL_OPENAI, assert_one_line_error

SENTINELS = (SENTINEL_OPENAI, SENTINEL_ACTIONABLE)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]          # closed again when the socket is released


def _assert_clean(*texts: str) -> None:
    for t in texts:
        for s in SENTINELS:
            assert s not in t


def _assert_tree_clean(root: Path) -> int:
    n = 0
    for f in Path(root).rglob("*"):
        if f.is_file():
            data = f.read_bytes()
            n += 1
            for s in SENTINELS:
                assert s.encode() not in data, f
    return n


@pytest.fixture
def keys(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", SENTINEL_OPENAI)
    monkeypatch.setenv("ACTIONABLE_API_KEY", SENTINEL_ACTIONABLE)


def test_closed_port_error_path_in_process(keys, tmp_path, caplog):
    from actionable.core.config import LMConfig
    from actionable.lm.base import GenerationParams
    from actionable.lm.registry import load_lm

    caplog.set_level(logging.DEBUG)
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    cfg = LMConfig(model=f"openai:gpt-test@{url}", cache=True, cache_dir=tmp_path / "cache", max_retries=1,
                   timeout_s=5)
    with pytest.raises(ActionableError) as info:
        lm = load_lm(cfg.model, cfg)
        _assert_clean(lm.model_id, repr(lm))
        lm.generate("Task: Watch TV\nStep 1:", GenerationParams(n=1, max_tokens=8))
    exc = info.value
    assert "127.0.0.1" in str(exc)             # the message says where it failed
    _assert_clean(str(exc), repr(exc), repr(exc.args), str(exc.__cause__ or ""), caplog.text)
    _assert_tree_clean(tmp_path)


def test_closed_port_error_path_cli(cli_subprocess, tmp_path, cache_dir):
    env = {"OPENAI_API_KEY": SENTINEL_OPENAI, "ACTIONABLE_API_KEY": SENTINEL_ACTIONABLE}
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    res = cli_subprocess("plan", "Watch TV", "--variant", "translated", "--translation-model", "bow",
                         "--model", f"openai:gpt-test@{url}", env=env)
    # retry warnings may precede it; the error itself is one last line, no traceback
    assert res.rc == 2 and "Traceback" not in res.err, res.err
    errors = [ln for ln in res.err_lines if ln.startswith("error: ")]
    assert len(errors) == 1 and res.err_lines[-1] == errors[0] and "127.0.0.1" in errors[0]
    _assert_clean(res.out, res.err)
    _assert_tree_clean(cache_dir)


def test_credentials_in_base_url_are_refused_without_echo(cli):
    res = cli("plan", "Watch TV", "--translation-model", "bow",
              "--model", f"openai:gpt-test@http://user:{SENTINEL_OPENAI}@127.0.0.1:9/v1")
    assert_one_line_error(res, "credentials")
    _assert_clean(res.out, res.err)


class _OpenAIHandler(BaseHTTPRequestHandler):
    """Minimal OpenAI /v1/completions endpoint: 'walk to bedroom' with token log-probs."""

    def log_message(self, *a):
        pass

    def _send(self, status: int, payload: dict) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.server.auth.append(self.headers.get("Authorization", ""))
        self._send(200, {"object": "list", "data": [{"id": "gpt-test", "object": "model"}]})

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.auth.append(self.headers.get("Authorization", ""))
        text = "walk to bedroom\nswitch on television\n"
        toks = ["walk", " to", " bedroom", "\n", "switch", " on", " television", "\n"]
        choices = [{"index": i, "text": text, "finish_reason": "stop",
                    "logprobs": {"tokens": toks, "token_logprobs": [-0.4] * len(toks),
                                 "text_offset": list(range(len(toks))), "top_logprobs": None}}
                   for i in range(int(body.get("n", 1)))]
        self._send(200, {"id": "cmpl-1", "object": "text_completion", "model": body.get("model"),
                         "choices": choices, "usage": {"prompt_tokens": 1, "completion_tokens": 8,
                                                       "total_tokens": 9}})


@pytest.fixture
def openai_server():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _OpenAIHandler)
    srv.auth = []
    th = threading.Thread(target=srv.serve_forever, daemon=True)
    th.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_runner_and_cache_never_store_keys(keys, openai_server, cli, tmp_path, cache_dir, caplog):
    caplog.set_level(logging.DEBUG)
    url = f"http://127.0.0.1:{openai_server.server_address[1]}/v1"
    out = tmp_path / "run"
    args = ("eval", "plan", "--out", out, "--variants", "translated", "--limit", "1",
            "--model", f"openai:gpt-test@{url}", "--translation-model", "bow", "--no-progress")
    first = cli(*args)
    assert first.rc == 0, first.err
    # the key really was sent, and ACTIONABLE_API_KEY wins over OPENAI_API_KEY
    assert openai_server.auth and all(a == f"Bearer {SENTINEL_ACTIONABLE}" for a in openai_server.auth)
    n_calls = len(openai_server.auth)
    records = [json.loads(ln) for ln in (out / "run.jsonl").read_text().splitlines() if ln.strip()]
    assert records and all("error" not in r or not r["error"] for r in records), records[:1]
    # rerun with a fresh run dir: answers come from the SQLite cache, no new request
    second = cli(*args[:3], tmp_path / "run2", *args[4:])
    assert second.rc == 0, second.err
    assert len(openai_server.auth) == n_calls
    _assert_clean(first.out, first.err, second.out, second.err, caplog.text)
    dbs = [f for f in Path(cache_dir).rglob("*") if f.is_file() and f.suffix in (".db", ".sqlite", ".sqlite3")]
    assert dbs, "the LM cache DB was not written"
    assert _assert_tree_clean(cache_dir) >= 1
    assert _assert_tree_clean(tmp_path) >= 4       # run.jsonl, manifest.json, summary.md, summary.json
