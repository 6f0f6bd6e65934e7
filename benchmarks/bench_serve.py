"""``actionable serve`` under load (issue 27), on loopback, LM cache off, embedded model:

1. p50 / p90 latency of POST /plan, one client, sequential requests (the models are loaded before
   the first request; the first request is a warm-up and not counted);
2. C concurrent clients for a bounded time (each sends requests in a loop until the time is up,
   then the test stops by itself): every response must be HTTP 200 and carry the task it was
   sent for; requests sent, answered, errors, lost and duplicated are counted;
3. the server's resident memory (VmRSS) sampled every 20 requests over R requests.

    python benchmarks/bench_serve.py [--requests 40] [--clients 20] [--seconds 60] [--memory 200]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

TASKS = ["Watch TV", "Turn on light", "Go to sleep", "Brush teeth", "Wash hands", "Read book", "Listen to music",
         "Pick up phone", "Work", "Relax on sofa"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(port, body, timeout=600):
    req = urllib.request.Request(f"http://127.0.0.1:{port}/plan", data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def _rss_mb(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def run(requests: int = 40, clients: int = 20, seconds: float = 60.0, memory: int = 200, model: str = "embedded"):
    port = _port()
    proc = subprocess.Popen([sys.executable, "-c", "from actionable.cli import run; run()", "serve", "--port",
                             str(port), "--model", model, "--no-cache", "--timeout", "600"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t0 = time.time()
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2)
            break
        except OSError:
            if proc.poll() is not None or time.time() - t0 > 300:
                raise SystemExit("serve did not start: " + proc.stderr.read().decode()[-2000:])
            time.sleep(0.5)
    out = {"startup_s": round(time.time() - t0, 1)}
    try:
        _post(port, {"task": "Watch TV"})  # warm-up
        lat = []
        for i in range(requests):
            t = time.perf_counter()
            code, body = _post(port, {"task": TASKS[i % len(TASKS)]})
            lat.append(time.perf_counter() - t)
            assert code == 200, body
        q = statistics.quantiles(lat, n=10)
        out["sequential"] = {"requests": requests, "p50_s": round(statistics.median(lat), 2),
                             "p90_s": round(q[8], 2), "max_s": round(max(lat), 2)}
        sent, got, errors, wrong = [0], [], [], [0]
        lock = threading.Lock()
        stop = time.time() + seconds

        def client(c):
            k = 0
            while time.time() < stop:
                rid = f"c{c}-{k}"
                task = TASKS[(c + k) % len(TASKS)]
                with lock:
                    sent[0] += 1
                code, body = _post(port, {"task": task, "seed": k})
                with lock:
                    if code != 200:
                        errors.append((code, str(body)[:200]))
                    elif body.get("task") != task:
                        wrong[0] += 1
                    got.append(rid)
                k += 1

        th = [threading.Thread(target=client, args=(c,)) for c in range(clients)]
        t = time.perf_counter()
        [x.start() for x in th]
        [x.join() for x in th]
        out["concurrent"] = {"clients": clients, "seconds": round(time.perf_counter() - t, 1), "sent": sent[0],
                             "answered": len(got), "errors": len(errors), "wrong_task": wrong[0],
                             "duplicated": len(got) - len(set(got)), "lost": sent[0] - len(got),
                             "first_errors": errors[:3]}
        rss = [_rss_mb(proc.pid)]
        for i in range(memory):
            code, _ = _post(port, {"task": TASKS[i % len(TASKS)], "seed": i})
            assert code == 200
            if (i + 1) % 20 == 0:
                rss.append(_rss_mb(proc.pid))
        out["memory"] = {"requests": memory, "rss_mb": [round(x, 1) for x in rss],
                         "growth_mb": round(rss[-1] - rss[0], 1)}
    finally:
        proc.terminate()
        proc.wait(30)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=40)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--memory", type=int, default=200)
    ap.add_argument("--model", default="embedded")
    a = ap.parse_args()
    print(json.dumps(run(a.requests, a.clients, a.seconds, a.memory, a.model), indent=2))
