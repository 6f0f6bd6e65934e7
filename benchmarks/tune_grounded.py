"""Choose the grounded planner's weights on the TUNING split only.

The tuning split is the 176 packaged programs without goal annotations
(:func:`actionable.evaluation.sequencing.tuning_program_ids`); the 342
goal-annotated tasks that docs/results.md reports are never planned here.
Objective: mean normalised LCS against each program's own human steps
(leave-one-program-out retrieval), ties broken by mean length error.

    python benchmarks/tune_grounded.py --stride 4 [--use-lm] [--grid NAME] [--lm-mode MODE]

``--lm-mode`` (``score`` | ``choice-logprobs`` | ``choice-name``, actionable.lm.choice) tunes the
weights of one scoring mode (issue 27: ``--grid choice --lm-mode choice-logprobs``).

Prints one line per setting, best first.
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

GRIDS = {
    "nolm": {"w_object": [0.25, 0.5, 1.0], "done_bias": [-0.2, 0.0, 0.2], "use_lm": [False]},
    "lm": {"w_lm": [0.5, 1.0, 2.0]},
    "choice": {"w_choice": [0.1, 0.25, 0.5]},
    "choice-low": {"w_choice": [0.05]},
    "samples": {"samples": [0, 4], "w_translation": [0.5, 1.0]},
    "nolm-only": {"use_lm": [False]},
    "taskdone": {"w_task_done": [0.0, 2.0, 5.0, 20.0]},
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stride", type=int, default=4)
    ap.add_argument("--grid", default="nolm", choices=sorted(GRIDS))
    ap.add_argument("--base", default="{}", help="GroundedConfig fields fixed for every setting (JSON)")
    ap.add_argument("--lm-mode", default="auto", help="scoring mode of the LM (actionable.lm.choice)")
    args = ap.parse_args()
    from actionable.evaluation.sequencing import SequencingSettings, SequencingWorker, tuning_program_ids

    pids = tuning_program_ids()[:: args.stride]
    grid = GRIDS[args.grid]
    base = json.loads(args.base)
    rows = []
    worker = None
    for values in itertools.product(*grid.values()):
        over = {**base, **dict(zip(grid, values))}
        settings = SequencingSettings(grounded=over, lm_mode=args.lm_mode)
        if worker is None:
            worker = SequencingWorker(settings)
        worker.s = settings
        t = time.perf_counter()
        res = [worker({"program_id": p, "row": "grounded", "split": "lopo"}) for p in pids]
        from actionable.worlds.virtualhome.scene import load_program

        lcs = sum(r["lcs"] for r in res) / len(res)
        lerr = sum(abs(r["length"] - len(load_program(r["program_id"]).steps)) for r in res) / len(res)
        rows.append((lcs, -lerr, over, time.perf_counter() - t))
        print(f"LCS {lcs:.3f}  |len err| {lerr:.2f}  {over}  ({rows[-1][3]:.0f} s)", flush=True)
    print("\nbest first (tuning split, n=%d programs):" % len(pids))
    for lcs, nl, over, s in sorted(rows, key=lambda r: (-r[0], -r[1])):
        print(f"LCS {lcs:.3f}  |len err| {-nl:.2f}  {over}")


if __name__ == "__main__":
    main()
