"""Before/after proof that a refactor leaves every world's behaviour as it was.

Runs a fixed battery through the public CLI only (stable across moves of modules): grounded
plans in VirtualHome and the THOR kitchen (``plan --json``, with and without the LM), the
paper's translated variant, the judges on the hand corpus, the TEACh set and injected errors
(``eval verify``), continual traces in VirtualHome, the kitchen and the SUMO town
(``follow --trace``), the sequencing benchmark on a stride (``eval sequencing``), and the
continual benchmark (``eval continual``). Timings, absolute paths and model-load figures are
dropped; everything else must agree.

    python benchmarks/snapshot_worlds.py --out /tmp/before.json          # on the old tree
    python benchmarks/snapshot_worlds.py --out /tmp/after.json           # on the new tree
    python benchmarks/snapshot_worlds.py --compare /tmp/before.json /tmp/after.json

Each battery item is one command; ``--only NAME,...`` runs a subset. About 15 minutes on 2 cores
with warm caches.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: keys whose values are timings, paths or machine facts (dropped before comparing)
VOLATILE = re.compile(r"(^|_)(s|sec|secs|seconds|time|elapsed|wall|ms|duration|started|finished|path|"
                      r"run_dir|cache|cache_dir|load_s|per_plan_s|plan_s|timestamp|host|pid|version|"
                      r"lm_calls_s|threads|worker)$|seconds|_s$|^t_|timing")
#: a markdown table row whose last cell is seconds (``| ... | 0.23 |``)
_SECONDS_CELL = re.compile(r"\| \d+\.\d+ \|$")


def _clean(x):
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in sorted(x.items()) if not VOLATILE.search(str(k))}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    if isinstance(x, float):
        return round(x, 6)
    if isinstance(x, str):
        x = _SECONDS_CELL.sub("| <s> |", x)
        return re.sub(r"/tmp/[^\s'\"]+", "<tmp>", re.sub(r"\d+(\.\d+)? ?s\b", "<s>", x))
    return x


def _run(args: list[str], tmp: Path) -> dict:
    env = {**os.environ, "ACTIONABLE_LM_THREADS": "1", "PYTHONHASHSEED": "0"}
    p = subprocess.run([sys.executable, "-c", "from actionable.cli import run; run()", *args], cwd=tmp, env=env,
                       capture_output=True, text=True, timeout=3600)
    out = {"rc": p.returncode}
    try:
        out["json"] = _clean(json.loads(p.stdout))
    except ValueError:
        out["stdout"] = _clean(p.stdout.splitlines())
    if p.returncode not in (0, 1):
        out["stderr_tail"] = p.stderr.splitlines()[-3:]
    return out


def _jsonl(path: Path) -> list:
    if not path.is_file():
        return ["<missing>"]
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [_clean(r) for r in rows]
    return sorted(rows, key=lambda r: json.dumps(r.get("key", r), sort_keys=True, default=str))


def battery(tmp: Path) -> dict[str, callable]:
    vh_tasks = ["Watch TV", "Make coffee", "Turn on light", "Put the plate in the sink",
                "Switch on the TV and the computer", "Go to sleep", "Brush teeth", "Close the dishwasher"]
    thor = [("Make coffee", "FloorPlan1"), ("Boil water", "FloorPlan2"), ("Close the fridge", "FloorPlan1"),
            ("Water the plant", "teach:af49e2061b576182_7eeb")]
    items: dict = {}
    for t in vh_tasks:
        items[f"plan-vh:{t}"] = lambda t=t: _run(["plan", t, "--json", "-q"], tmp)
    items["plan-vh-scene:Go to sleep@1003_2"] = lambda: _run(["plan", "Go to sleep", "--scene", "1003_2", "--json", "-q"], tmp)
    items["plan-vh-translated:Watch TV"] = lambda: _run(["plan", "Watch TV", "--variant", "translated", "--json", "-q"], tmp)
    for t, s in thor:
        items[f"plan-thor:{t}@{s}"] = lambda t=t, s=s: _run(["plan", t, "--env", "thor", "--scene", s, "--json", "-q"], tmp)

    def verify_file():
        f = tmp / "plan.txt"
        f.write_text("walk to television\nswitch on television\nswitch off television\nswitch on television\n")
        return {j: _run(["verify", str(f), "--goal", "Turn on the TV", "--judge", j, "--json"], tmp)
                for j in ("rule", "sim")}
    items["verify-file"] = verify_file

    def eval_verify():
        out = tmp / "ev"
        r = _run(["eval", "verify", "--out", str(out), "--judges", "rule,sim", "--n", "25", "--no-progress"], tmp)
        return {"rc": r["rc"], "records": _jsonl(out / "run.jsonl")}
    items["eval-verify"] = eval_verify

    def bench(script, *args):
        p = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args], cwd=tmp,
                           capture_output=True, text=True, timeout=3600, env={**os.environ, "ACTIONABLE_LM_THREADS": "1"})
        return {"rc": p.returncode, "stdout": _clean(p.stdout.splitlines())}
    items["bench-verify-cases"] = lambda: bench("bench_verify_cases.py", "--split", "tune", "--judges", "rule,sim")
    items["bench-verify-teach"] = lambda: bench("bench_verify_teach.py", "--judges", "rule,sim")

    def follow(name, *args):
        tr = tmp / f"{name}.jsonl"
        r = _run(["follow", *args, "--trace", str(tr), "-q"], tmp)
        return {"rc": r["rc"], "out": r, "trace": _jsonl(tr)}
    items["follow-vh"] = lambda: follow("vh", "--nonstationarity", "high", "--steps", "40", "--seed", "1")
    items["follow-vh-rule"] = lambda: follow("vhr", "--interpreter", "rule", "--steps", "30", "--seed", "2",
                                             "--agent", "instruction-wise")
    items["follow-thor"] = lambda: follow("thor", "--env", "thor", "--scene", "FloorPlan1", "--steps", "30")
    items["follow-driving"] = lambda: follow("drv", "--env", "driving", "--steps", "12", "--seed", "1")

    def seq():
        out = tmp / "seq"
        r = _run(["eval", "sequencing", "--out", str(out), "--rows", "grounded-no-lm,retrieval+repair,grounded",
                  "--splits", "lopo,lto", "--stride", "24"], tmp)
        return {"rc": r["rc"], "records": _jsonl(out / "run.jsonl")}
    items["eval-sequencing"] = seq

    def cont():
        out = tmp / "cont"
        r = _run(["eval", "continual", "--agents", "exrap,instruction-wise,oracle", "--nonstationarity", "high",
                  "--instructions", "3", "--seeds", "2", "--steps", "15", "--out", str(out)], tmp)
        return {"rc": r["rc"], "records": _jsonl(out / "run.jsonl")}
    items["eval-continual"] = cont

    def cont_thor():
        out = tmp / "contk"
        r = _run(["eval", "continual", "--env", "thor", "--agents", "exrap,oracle", "--set-sizes", "3", "--seeds", "2",
                  "--steps", "15", "--out", str(out)], tmp)
        return {"rc": r["rc"], "records": _jsonl(out / "run.jsonl")}
    items["eval-continual-thor"] = cont_thor
    return items


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out")
    ap.add_argument("--only", default="")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        a, b = (_clean(json.load(open(p, encoding="utf-8"))) for p in args.compare)
        bad = 0
        for k in sorted(set(a) | set(b)):
            same = a.get(k) == b.get(k)
            bad += not same
            print(("same    " if same else "DIFFERS ") + k)
        print(f"{len(set(a) | set(b)) - bad}/{len(set(a) | set(b))} identical")
        return 1 if bad else 0
    if not args.out:
        ap.error("--out is required without --compare")
    only = {x for x in args.only.split(",") if x}
    res = {}
    with tempfile.TemporaryDirectory() as d:
        for name, fn in battery(Path(d)).items():
            if only and not any(name.startswith(o) for o in only):
                continue
            print(name, flush=True)
            try:
                res[name] = fn()
            except subprocess.TimeoutExpired:
                res[name] = "timeout"
    Path(args.out).write_text(json.dumps(res, indent=1, sort_keys=True, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
