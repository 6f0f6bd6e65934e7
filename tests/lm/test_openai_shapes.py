"""Modes (b) and (c) against the response shapes the OpenAI API reference documents (what vLLM
serves): chat ``logprobs.content[i].top_logprobs`` lists of ``{token, logprob, bytes}``, legacy
completions ``logprobs.top_logprobs`` dicts, and ``"logprobs": null`` when none are returned.
The shapes follow the reference's examples field for field; the tokens and values are ours (digits,
so that the choice prompt has something to read). A real HTTP server on 127.0.0.1."""

import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from actionable.lm.choice import as_scorer, scoring_mode
from actionable.lm.openai_compat import OpenAICompatLM
from actionable.lm.retry import RetryPolicy


def _tok(t, lp):
    return {"token": t, "logprob": lp, "bytes": list(t.encode())}


CHAT_LOGPROBS = {  # POST /v1/chat/completions with logprobs=true, top_logprobs=k
    "id": "chatcmpl-123", "object": "chat.completion", "created": 1702685778, "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "2"},
                 "logprobs": {"content": [{**_tok("2", -0.25), "top_logprobs": [
                     _tok("2", -0.25), _tok("1", -1.75), _tok(" 3", -3.0), _tok("The", -4.0)]}],
                     "refusal": None},
                 "finish_reason": "length"}],
    "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10},
}
CHAT_PLAIN = {  # the same without log-probs (a server that does not return them)
    "id": "chatcmpl-124", "object": "chat.completion", "created": 1702685778, "model": "m",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Option 3: Done"},
                 "logprobs": None, "finish_reason": "stop"}],
}
COMPLETION_LOGPROBS = {  # POST /v1/completions with logprobs=k
    "id": "cmpl-1", "object": "text_completion", "created": 1589478378, "model": "m",
    "choices": [{"text": " 1", "index": 0, "finish_reason": "length",
                 "logprobs": {"tokens": [" 1"], "token_logprobs": [-0.1], "text_offset": [120],
                              "top_logprobs": [{" 1": -0.1, " 2": -2.5, "\n": -4.0}]}}],
}


class _H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.bodies.append(body)
        chat = self.path.endswith("/chat/completions")
        if chat:
            out = CHAT_LOGPROBS if (body.get("logprobs") and self.server.logprobs) else CHAT_PLAIN
        else:
            out = COMPLETION_LOGPROBS
        data = json.dumps(out).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture()
def srv():
    s = ThreadingHTTPServer(("127.0.0.1", 0), _H)
    s.bodies, s.logprobs = [], True
    threading.Thread(target=s.serve_forever, daemon=True).start()
    yield s
    s.shutdown()


def _lm(srv, style):
    return OpenAICompatLM("m", f"http://127.0.0.1:{srv.server_address[1]}/v1", style=style, timeout_s=10,
                          retry=RetryPolicy(max_retries=0))


def test_chat_top_logprobs_shape(srv):
    s = as_scorer(_lm(srv, "chat"), calibrate=False)  # the fixture answers every prompt alike
    assert scoring_mode(s) == "choice-logprobs"
    got = s.score("Task: x\nStep 1: walk to kitchen", [" a", " b", " Done"])
    p = [math.exp(v) for v in got]
    assert abs(sum(p) - 1) < 1e-9 and p[1] > p[0] > p[2]
    assert p[1] / p[0] == pytest.approx(math.exp(1.5))  # the renormalised ratio of the two numbers
    body = srv.bodies[-1]
    assert body["logprobs"] is True and 1 <= body["top_logprobs"] <= 20 and body["max_tokens"] == 1
    assert "1. a\n2. b\n3. Done" in body["messages"][0]["content"]


def test_chat_without_logprobs_names_a_candidate(srv):
    srv.logprobs = False
    s = as_scorer(_lm(srv, "chat"), calibrate=False)
    assert scoring_mode(s) == "choice-name"
    got = s.score("ctx", [" a", " b", " Done"])
    assert max(range(3), key=got.__getitem__) == 2 and s.fallbacks == 0


def test_completions_top_logprobs_shape(srv):
    s = as_scorer(_lm(srv, "completions"), "choice-logprobs", calibrate=False)
    got = s.score("ctx", [" a", " b"])
    assert got[0] > got[1] and abs(sum(math.exp(v) for v in got) - 1) < 1e-9
    assert srv.bodies[-1]["prompt"].endswith("\nAnswer: ") and srv.bodies[-1]["logprobs"] >= 1


def test_calibration_asks_the_content_free_prompt_too(srv):
    """With calibration (the default) every choice prompt is asked again with the options replaced
    by N/A; this fixture answers both alike, so no candidate is preferred."""
    s = as_scorer(_lm(srv, "chat"))
    n = len(srv.bodies)
    got = s.score("Task: x", [" a", " b", " Done"])
    assert len(srv.bodies) == n + 2 and "1. N/A" in srv.bodies[-1]["messages"][0]["content"]
    assert got == pytest.approx([math.log(1 / 3)] * 3)
