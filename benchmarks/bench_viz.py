"""HTML replays (issue 28): file size, render time in headless Chromium, slider step time, and
what writing the HTML adds to a command.

    PYTHONPATH=. python benchmarks/bench_viz.py [--out runs/bench_viz] [--follow-steps 2000] [--repeats 3]

1. A 30-step plan: the first packaged VirtualHome program with >= 30 resolved steps, replayed in
   its own scene (``plan_document`` + ``write_html``): bytes, seconds to build and write, and
   Chromium's load time (navigation start to the load event, the replay drawn; median of 5 loads).
2. A ``follow`` episode of ``--follow-steps`` steps (oracle agent, no LM; scene 1003_2, high
   non-stationarity, 5 instructions): bytes, and the time one slider change takes in the page
   (``window.__replay.go(i)`` for 200 random steps, median and 95th percentile, ms).
3. Overhead (:func:`overhead`): the command's own work (``plan`` with the embedded model, the
   grounded planner, the default house, model loading excluded; an oracle ``follow`` episode of
   ``--follow-steps`` steps) against what ``--html`` adds after it, in one process, median of
   ``--repeats``. The oracle agent calls no LM, so its episode is the cheapest there is: the
   ExRAP agent's episodes are several times longer and its overhead smaller.

Needs chromium + chromium-driver and selenium for 1-2 (otherwise those numbers are skipped).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _browser():
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.options import Options
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not (chromium and driver):
        return None
    os.environ.setdefault("SE_OFFLINE", "true")
    o = Options()
    o.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        o.add_argument(a)
    return webdriver.Chrome(service=Service(executable_path=driver), options=o)


def long_plan(min_steps: int = 30) -> dict:
    """A plan record (as ``plan --json``) of the first packaged program with >= min_steps steps."""
    from actionable.worlds.virtualhome.scene import list_program_ids, load_program

    for pid in sorted(list_program_ids()):
        prog = load_program(pid)
        if len(prog.steps) >= min_steps:
            steps = list(prog.steps)[:min_steps]
            return {"task": prog.task or pid, "world": "virtualhome", "scene": pid, "steps": [],
                    "resolved_program": {"steps": [s.to_dict() for s in steps]},
                    "executability": {"executable": True}, "goal_check": None, "stop_reason": "benchmark"}
    raise SystemExit(f"no packaged program has {min_steps} steps")


def timed_cli(args: list[str], repeats: int) -> float:
    ts = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        p = subprocess.run([sys.executable, "-c", "from actionable.cli import run; run()", *args], cwd=ROOT,
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        ts.append(time.perf_counter() - t0)
        if p.returncode not in (0, 1):
            raise SystemExit(f"{args}: exit {p.returncode}: {p.stderr[-500:]}")
    return statistics.median(ts)


def overhead(out: Path, repeats: int, follow_steps: int) -> dict:
    """In one process, as the CLI runs them: the command's own work (planning with the embedded
    model and the grounded planner in the default house; a ``follow`` episode) against what
    ``--html`` adds after it (``plan_document`` / ``follow_document`` from the computed result,
    then ``write_html``). Median of ``repeats``; the first plan (model loading) is not counted."""
    import actionable
    from actionable.core.registry import planning_domain
    from actionable.viz.document import follow_document, plan_document
    from actionable.viz.html import write_html

    ov = {}
    domain = planning_domain("virtualhome", "default")
    actionable.plan("Turn on TV", progress=False)  # warm: model load, caches
    plan_s, html_s = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        r = actionable.plan("Turn on TV", progress=False)
        t1 = time.perf_counter()
        doc = plan_document(r.to_dict(), world="virtualhome", scene=domain.graph)
        write_html(doc, out / "ov-plan.html")
        t2 = time.perf_counter()
        plan_s.append(t1 - t0)
        html_s.append(t2 - t1)
    ov["plan_embedded"] = {"command_s": round(statistics.median(plan_s), 3), "html_s": round(statistics.median(html_s), 4),
                           "overhead_pct": round(100 * statistics.median(html_s) / statistics.median(plan_s), 2)}
    from actionable.continual.episode import make_agent, run_episode
    from actionable.continual.worlds import get_world

    world = get_world("virtualhome")
    ep_s, fh_s = [], []
    for _ in range(repeats):
        house = world.make_house("1003_2", "high")
        house.reset(0)
        ins = world.sample(house, 5, 0)
        t0 = time.perf_counter()
        res = run_episode(make_agent("oracle", None, ins), house, ins, follow_steps, 0, world=world)
        t1 = time.perf_counter()
        summ = {"metrics": res.metrics, "interpretation": res.interpretation, "activations": res.activations,
                "instructions": [x.text for x in ins]}
        write_html(follow_document(res.trace, summ, world="virtualhome", scene="1003_2"), out / "ov-follow.html")
        t2 = time.perf_counter()
        ep_s.append(t1 - t0)
        fh_s.append(t2 - t1)
    ov["follow_oracle"] = {"steps": follow_steps, "command_s": round(statistics.median(ep_s), 3),
                           "html_s": round(statistics.median(fh_s), 4),
                           "overhead_pct": round(100 * statistics.median(fh_s) / statistics.median(ep_s), 2)}
    return ov


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="runs/bench_viz")
    ap.add_argument("--follow-steps", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-overhead", action="store_true")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    from actionable.viz.document import plan_document
    from actionable.viz.html import write_html

    res: dict = {}
    rec = long_plan()
    t0 = time.perf_counter()
    doc = plan_document(rec)
    t1 = time.perf_counter()
    p30 = write_html(doc, out / "plan30.html")
    t2 = time.perf_counter()
    res["plan30"] = {"scene": rec["scene"], "steps": len(doc["steps"]),
                     "executed": sum(s["executed"] for s in doc["steps"]), "bytes": p30.stat().st_size,
                     "document_s": round(t1 - t0, 4), "write_s": round(t2 - t1, 4)}

    trace, fhtml = out / "follow.jsonl", out / "follow.html"
    fargs = ["follow", "--agent", "oracle", "--steps", str(a.follow_steps), "--nonstationarity", "high",
             "--count", "5", "--seed", "0", "-q"]
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from actionable.cli import run; run()", *fargs, "--trace", str(trace),
                    "--html", str(fhtml)], cwd=ROOT, check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=str(ROOT)))
    res["follow"] = {"steps": a.follow_steps, "bytes": fhtml.stat().st_size, "trace_bytes": trace.stat().st_size,
                     "command_s": round(time.perf_counter() - t0, 2)}

    drv = _browser()
    if drv is not None:
        try:
            loads = []
            for _ in range(5):
                drv.get(p30.resolve().as_uri())
                loads.append(drv.execute_script(
                    "var t=performance.timing;return t.loadEventEnd-t.navigationStart;"))
            res["plan30"]["render_ms_median"] = statistics.median(loads)
            drv.get(fhtml.resolve().as_uri())
            res["follow"]["render_ms"] = drv.execute_script("var t=performance.timing;return t.loadEventEnd-t.navigationStart;")
            ms = drv.execute_script("""
                var n=window.__replay.n, out=[], s=12345;
                for(var k=0;k<200;k++){s=(s*1103515245+12345)%2147483648;var i=s%n;
                  var t0=performance.now();window.__replay.go(i);document.body.offsetHeight;out.push(performance.now()-t0);}
                out.sort(function(a,b){return a-b;});return [out[100], out[190]];""")
            res["follow"]["slider_ms_median"], res["follow"]["slider_ms_p95"] = round(ms[0], 2), round(ms[1], 2)
        finally:
            drv.quit()
    else:
        res["browser"] = "skipped: install chromium chromium-driver and selenium"

    if not a.skip_overhead:
        res["overhead"] = overhead(out, a.repeats, a.follow_steps)
    print(json.dumps(res, indent=2))
    (out / "bench_viz.json").write_text(json.dumps(res, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
