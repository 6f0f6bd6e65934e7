"""`actionable serve`: schemas (the JSON of plan --json), the token rule, concurrency on one model,
timeouts, and a client that disconnects while queued. A real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from actionable.cli.serve import Engine, check_bind, create_app, is_loopback  # noqa: E402
from actionable.core.errors import ConfigError  # noqa: E402


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    def __init__(self, engine, token=None, timeout_s=60.0):
        import uvicorn

        self.port = _free_port()
        cfg = uvicorn.Config(create_app(engine, token=token, timeout_s=timeout_s), host="127.0.0.1",
                             port=self.port, log_level="error")
        self.server = uvicorn.Server(cfg)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        t0 = time.time()
        while not self.server.started and time.time() - t0 < 20:
            time.sleep(0.02)
        assert self.server.started

    def call(self, path, body=None, token=None, timeout=60):
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}",
                                     data=None if body is None else json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              **({"Authorization": f"Bearer {token}"} if token else {})})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def engine():
    e = Engine(model="scripted:[]", translation_model="bow", cache=False)
    e.load()
    return e


@pytest.fixture(scope="module")
def server(engine):
    s = _Server(engine)
    yield s
    s.stop()


def test_plan_answers_the_json_of_plan_json(server):
    code, out = server.call("/plan", {"task": "Watch TV", "variant": "grounded"})
    assert code == 200, out
    assert out["task"] == "Watch TV" and out["lm_mode"] == "score" and out["variant"] == "grounded"
    for key in ("program_text", "program_script", "program_script_lines", "executability", "session", "models",
                "steps", "warnings", "goal_check"):
        assert key in out, key
    assert out["executability"]["executable"] is True
    code, h = server.call("/health")
    assert code == 200 and h["lm_mode"] == "score" and h["model"] == "scripted"


def test_plan_defaults_to_the_goal_planner_as_the_cli_does(server, engine):
    """``POST /plan`` without a variant plans as ``actionable plan`` does (the goal planner) and
    answers the same JSON as the batch mode for the same task (it was the grounded planner)."""
    from actionable.cli.plan import plan_task_json

    for task in ("Turn off the light in the bedroom", "Put the milk in the fridge"):
        code, out = server.call("/plan", {"task": task})
        assert code == 200, out
        assert out["variant"] == "goal", out["variant"]
        direct = plan_task_json(engine._session, engine._session.grounded_planner(), engine._session.scene, task)
        assert out["program_script_lines"] == direct["program_script_lines"]
        assert out["goal_check"] == direct["goal_check"]
        assert out["goal_check"]["met"] == out["goal_check"]["total"], out["goal_check"]
    code, out = server.call("/plan", {"task": "Watch TV", "variant": "paper"})
    assert code == 422
    # a kitchen task through the same service ("world", as `plan --env`; a new user could not)
    code, out = server.call("/plan", {"task": "Put the apple in the fridge", "world": "thor"})
    assert code == 200 and out["world"] == "thor" and out["variant"] == "goal", out
    assert out["goal_check"]["met"] == out["goal_check"]["total"] >= 1


def test_bad_requests_say_what_is_wrong(server):
    code, out = server.call("/plan", {"task": "Watch TV", "bogus": 1})
    assert code == 422
    code, out = server.call("/plan", {"task": "Watch TV", "scene": "no_such_scene"})
    assert code == 422 and "no_such_scene" in out["error"]
    # an unknown kitchen scene: the message, never the internal error class (a new user's check)
    code, out = server.call("/plan", {"task": "Put the apple in the fridge", "world": "thor", "scene": "FloorPlan999"})
    assert code == 422 and "FloorPlan999" in out["error"] and "Error" not in out["error"], out
    code, out = server.call("/plan", {"task": ""})
    assert code == 422 and "empty" in out["error"]


def test_openapi_documents_the_endpoints(server):
    code, spec = server.call("/openapi.json")
    assert code == 200
    assert {"/plan", "/verify", "/continual/step", "/health"} <= set(spec["paths"])
    props = spec["components"]["schemas"]["PlanResponse"]["properties"]
    assert "lm_mode" in props and "program_script" in props
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/docs", timeout=10) as r:
        assert r.status == 200 and b"swagger" in r.read().lower()


def test_verify_and_continual_step(server):
    code, planned = server.call("/plan", {"task": "Watch TV"})
    assert code == 200
    code, out = server.call("/verify", {"plan": planned["program_script"], "goal": "Watch TV", "judge": "sim"})
    assert code == 200, out
    assert out["judge"] == "sim" and "rounds" in out and "final" in out
    code, out = server.call("/continual/step", {"steps": 2, "seed": 0, "agent": "oracle"})
    assert code == 200, out
    assert len(out["trace"]) == 2 and "metrics" in out["summary"]


def test_token_rule():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    check_bind("127.0.0.1", None)
    with pytest.raises(ConfigError, match="--token") as e:
        check_bind("0.0.0.0", None)
    assert "ACTIONABLE_SERVE_TOKEN" in str(e.value)
    check_bind("0.0.0.0", "s3cret")


def test_cli_refuses_non_loopback_without_token(capsys, monkeypatch):
    from actionable.cli import main

    monkeypatch.delenv("ACTIONABLE_SERVE_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0"]) == 2
    assert "needs a token" in capsys.readouterr().err


def test_token_is_required_when_given(engine):
    s = _Server(engine, token="s3cret")
    try:
        assert s.call("/plan", {"task": "Watch TV"})[0] == 401
        assert s.call("/plan", {"task": "Watch TV"}, token="wrong")[0] == 401
        assert s.call("/plan", {"task": "Watch TV"}, token="s3cret")[0] == 200
        assert s.call("/health")[0] == 200
    finally:
        s.stop()


def test_concurrent_requests_queue_on_one_model(server, engine):
    tasks = ["Watch TV", "Turn on light", "Go to sleep", "Brush teeth"] * 3
    inside, peak = [0], [0]
    real = engine.plan

    def counting(req):
        inside[0] += 1
        peak[0] = max(peak[0], inside[0])
        try:
            return real(req)
        finally:
            inside[0] -= 1

    engine.plan = counting
    try:
        results = [None] * len(tasks)

        def go(i):
            results[i] = server.call("/plan", {"task": tasks[i]})

        th = [threading.Thread(target=go, args=(i,)) for i in range(len(tasks))]
        [t.start() for t in th]
        [t.join(120) for t in th]
    finally:
        engine.plan = real
    assert all(r is not None and r[0] == 200 for r in results), results
    assert [r[1]["task"] for r in results] == tasks  # no lost or swapped response
    assert peak[0] == 1  # one request on the model at a time


def test_timeout_says_so_and_disconnected_client_leaves_the_queue(server, engine):
    real = engine.plan
    engine.plan = lambda req: (time.sleep(1.5), real(req))[1]
    try:
        t = threading.Thread(target=lambda: server.call("/plan", {"task": "Watch TV"}))
        t.start()
        time.sleep(0.2)
        code, out = server.call("/plan", {"task": "Watch TV", "timeout_s": 0.3})
        assert code == 504 and "timed out" in out["error"] and "waiting for the model" in out["error"]
        # a client that gives up while queued
        with pytest.raises(Exception):
            server.call("/plan", {"task": "Turn on light"}, timeout=0.3)
        t.join(30)
    finally:
        engine.plan = real
    time.sleep(0.3)
    code, h = server.call("/health")
    assert h["queued"] == 0 and not h["busy"]
    assert server.call("/plan", {"task": "Turn on light"})[0] == 200
