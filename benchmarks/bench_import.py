"""Start-up cost of the package and the CLI (issue 16 target: `import actionable` and
`actionable --help` as fast as before the top-level API), side by side with `python -c pass`.

    python benchmarks/bench_import.py [--repeat 15]

Each command runs in a fresh interpreter; prints the median and the minimum wall time and the
difference to `python -c pass`. Nothing is loaded beyond what each command imports.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

CASES = [
    ("python -c pass", [sys.executable, "-c", "pass"]),
    ("import actionable", [sys.executable, "-c", "import actionable"]),
    ("import actionable; actionable.plan (API module)", [sys.executable, "-c", "import actionable; actionable.plan"]),
    ("actionable --help", [sys.executable, "-c", "from actionable.cli import run; run()", "--help"]),
    ("actionable --version", [sys.executable, "-c", "from actionable.cli import run; run()", "--version"]),
]


def measure(cmd: list[str], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        out.append(time.perf_counter() - t)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=15)
    args = ap.parse_args()
    script = shutil.which("actionable")
    cases = CASES + ([("actionable --help (console script)", [script, "--help"])] if script else [])
    base = None
    print(f"{'command':<52} {'median s':>9} {'min s':>7} {'vs pass':>8}")
    for name, cmd in cases:
        ts = measure(cmd, args.repeat)
        med, lo = statistics.median(ts), min(ts)
        base = med if base is None else base
        print(f"{name:<52} {med:9.3f} {lo:7.3f} {med - base:+8.3f}")


if __name__ == "__main__":
    main()
