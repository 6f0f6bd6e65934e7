"""Fault injection for the OpenAI-compatible backend: a real HTTP server on
127.0.0.1 that answers with garbage, errors, or reduced capabilities."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from actionable.core.errors import BackendUnavailableError, CapabilityError, LMResponseError, ModelNotFoundError
from actionable.lm.base import GenerationParams
from actionable.lm.openai_compat import MAX_TEXT_CHARS, OpenAICompatLM
from actionable.lm.retry import RetryPolicy


def _choice(i, text, lps=True):
    toks = list(text) if text else []
    c = {"index": i, "text": text, "finish_reason": "stop"}
    c["logprobs"] = {"tokens": toks, "token_logprobs": [-0.5] * len(toks), "text_offset": list(range(len(toks)))} \
        if lps else None
    return c


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        srv = self.server
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        srv.requests.append({"body": body, "auth": self.headers.get("Authorization", "")})
        mode = srv.mode
        n = body.get("n", 1)
        status, payload, raw = 200, None, None
        if mode == "ok":
            payload = {"choices": [_choice(i, f"walk to room {i}") for i in range(n)]}
        elif mode == "empty":
            payload = {"choices": [_choice(i, "") for i in range(n)]}
        elif mode == "long":
            payload = {"choices": [_choice(i, "x" * (MAX_TEXT_CHARS * 3)) for i in range(n)]}
        elif mode == "ignores_stop":
            payload = {"choices": [_choice(i, "grab cup\nwalk to kitchen\n") for i in range(n)]}
        elif mode == "bad_utf8":
            raw = b'{"choices": [{"index": 0, "text": "caf\xff\xfe", "finish_reason": "stop", "logprobs": null}]}'
        elif mode == "surrogate":
            raw = b'{"choices": [{"index": 0, "text": "ab\\udcff", "finish_reason": "stop",' \
                  b' "logprobs": {"tokens": ["a", "b", "\\udcff"], "token_logprobs": [-1, -1, -1]}}]}'
        elif mode == "not_json":
            raw = b"<html>502 bad gateway</html>"
        elif mode == "no_choices":
            payload = {"result": "hello"}
        elif mode == "nan_lp":
            payload = {"choices": [{"index": 0, "text": "ab", "finish_reason": "stop",
                                    "logprobs": {"tokens": ["a", "b"], "token_logprobs": [None, -1.0]}}]}
        elif mode == "no_logprobs":
            payload = {"choices": [_choice(i, "walk", lps=False) for i in range(n)]}
        elif mode == "n1_only":
            payload = {"choices": [_choice(0, f"sample seed={body.get('seed')}")]}
        elif mode == "flaky":
            srv.count += 1
            if srv.count <= 2:
                status, payload = 503, {"error": {"message": "overloaded"}}
            else:
                payload = {"choices": [_choice(i, "ok") for i in range(n)]}
        elif mode == "always_429":
            status, payload = 429, {"error": {"message": "slow down"}}
        elif mode == "404":
            status, payload = 404, {"error": {"message": "model not found"}}
        if raw is None:
            raw = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


@pytest.fixture()
def fake():
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    srv.mode, srv.requests, srv.count = "ok", [], 0
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield srv
    srv.shutdown()
    srv.server_close()


def _lm(srv, **kw):
    kw.setdefault("retry", RetryPolicy(max_retries=2, base_delay_s=0.01))
    return OpenAICompatLM("m", f"http://127.0.0.1:{srv.server_address[1]}/v1", timeout_s=5, **kw)


def test_ok_and_key_sent_only_as_header(fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-abc")
    lm = _lm(fake)
    out = lm.generate("Task: x", GenerationParams(n=3, seed=5))
    assert [c.text for c in out] == ["walk to room 0", "walk to room 1", "walk to room 2"]
    assert out[0].token_logprobs == tuple([-0.5] * len("walk to room 0"))
    assert fake.requests[0]["auth"] == "Bearer sk-secret-abc"
    body = fake.requests[0]["body"]
    assert body["n"] == 3 and body["seed"] == 5 and body["logprobs"] == 1 and body["stop"] == ["\n"]
    assert "sk-secret" not in lm.model_id


def test_empty_completions_are_empty_not_errors(fake):
    fake.mode = "empty"
    out = _lm(fake).generate("p", GenerationParams(n=2))
    assert [c.text for c in out] == ["", ""] and out[0].token_logprobs == ()


def test_very_long_is_capped(fake):
    fake.mode = "long"
    c = _lm(fake).generate("p", GenerationParams(n=1, stop=()))[0]
    assert len(c.text) == MAX_TEXT_CHARS and c.finish_reason == "length"
    assert len(c.token_logprobs) == MAX_TEXT_CHARS  # log-probs cut with the text


def test_stop_enforced_client_side(fake):
    fake.mode = "ignores_stop"
    c = _lm(fake).generate("p", GenerationParams(n=1))[0]
    assert c.text == "grab cup" and len(c.token_logprobs) == len("grab cup")


@pytest.mark.parametrize("mode", ["bad_utf8", "not_json", "no_choices", "nan_lp"])
def test_garbage_is_typed_error(fake, mode):
    fake.mode = mode
    with pytest.raises(LMResponseError):
        _lm(fake).generate("p", GenerationParams(n=1))


def test_lone_surrogate_replaced(fake):
    fake.mode = "surrogate"
    c = _lm(fake).generate("p", GenerationParams(n=1))[0]
    c.text.encode("utf-8")  # storable
    assert c.text.startswith("ab") and len(c.token_logprobs) == 3


def test_missing_logprobs_is_capability_error_or_explicit_none(fake):
    fake.mode = "no_logprobs"
    with pytest.raises(CapabilityError, match="log-probs"):
        _lm(fake).generate("p", GenerationParams(n=1))
    lm = _lm(fake, require_logprobs=False)
    c = lm.generate("p", GenerationParams(n=1))[0]
    assert c.token_logprobs is None and c.mean_logprob is None  # never a silent 0
    assert lm.supports_logprobs is False and lm.degraded


def test_n_gt_1_degrades_to_repeated_calls(fake):
    fake.mode = "n1_only"
    lm = _lm(fake)
    out = lm.generate("p", GenerationParams(n=3, seed=10))
    assert len(out) == 3 and lm.supports_batch is False and lm.degraded
    assert [c.text for c in out] == ["sample seed=10", "sample seed=11", "sample seed=12"]
    fake.requests.clear()
    lm.generate("p", GenerationParams(n=2, seed=0))
    assert [r["body"]["n"] for r in fake.requests] == [1, 1]  # remembers the capability


def test_retries_then_success(fake):
    fake.mode = "flaky"
    lm = _lm(fake)
    assert lm.generate("p", GenerationParams(n=1))[0].text == "ok"
    assert lm.stats.extra["retries"] == 2


def test_429_exhausts_retries(fake):
    fake.mode = "always_429"
    with pytest.raises(BackendUnavailableError, match="HTTP 429"):
        _lm(fake).generate("p", GenerationParams(n=1))
    assert len(fake.requests) == 3  # 1 + 2 retries, bounded


def test_404_names_model(fake):
    fake.mode = "404"
    with pytest.raises(ModelNotFoundError, match="'m'"):
        _lm(fake).generate("p", GenerationParams(n=1))


def test_server_down_names_url():
    lm = OpenAICompatLM("m", "http://127.0.0.1:9/v1", timeout_s=2,
                        retry=RetryPolicy(max_retries=1, base_delay_s=0.01))
    with pytest.raises(BackendUnavailableError, match=r"http://127.0.0.1:9/v1.*server is running"):
        lm.generate("p", GenerationParams())


@pytest.mark.parametrize("url", ["http://user:sk-123@127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1?api_key=sk-1"])
def test_credentials_in_url_refused(url):
    from actionable.core.errors import ConfigError

    with pytest.raises(ConfigError) as ei:
        OpenAICompatLM("m", url)
    assert "sk-1" not in str(ei.value)


def test_retries_are_logged_at_info_not_as_warnings(caplog):
    """A retry is routine: it must not print a warning before the one-line error (issue 16)."""
    import logging

    lm = OpenAICompatLM("m", "http://127.0.0.1:9/v1", timeout_s=2,
                        retry=RetryPolicy(max_retries=2, base_delay_s=0.01))
    with caplog.at_level(logging.DEBUG, logger="actionable"):
        with pytest.raises(BackendUnavailableError, match="after 3 attempts"):
            lm.generate("p", GenerationParams())
    retries = [r for r in caplog.records if "retry" in r.getMessage()]
    assert len(retries) == 2 and all(r.levelno == logging.INFO for r in retries)
    assert lm.stats.extra["retries"] == 2


def _unreachable_plan(tmp_path):
    p = tmp_path / "p.txt"
    p.write_text("walk to kitchen\ngrab mug\n")
    return ["verify", str(p), "--goal", "Get a mug", "--judge", "llm", "--no-cache",
            "--model", "openai:m@http://127.0.0.1:9/v1"]


def test_unreachable_server_is_one_error_line(tmp_path):
    """`actionable verify ... --model openai:...` against a closed port: exit 2, and stderr is the
    one `error:` line (no retry warnings before it); `--debug` shows the retries."""
    from tests.cli.test_plan_cli import run_cli

    code, out, err = run_cli(*_unreachable_plan(tmp_path), timeout=120)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "127.0.0.1:9" in lines[0], err
    assert "could not connect after 4 attempts" in lines[0]
    code, out, err = run_cli("--debug", *_unreachable_plan(tmp_path), timeout=120, progress=True)
    assert code == 2
    assert err.count("retry ") == 3 and "Traceback" in err
    assert err.strip().splitlines()[-1].startswith("error: ")
