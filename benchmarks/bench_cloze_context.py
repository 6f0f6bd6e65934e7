"""The continual table with the query cloze's context switched (issue 25: separating the two changes
of the ninth session, the anchored reader and the object-only cloze prompt).

Every agent that asks the LM whether a condition holds builds a
:class:`~actionable.continual.query.QueryEvaluator`; its ``context`` is ``"object"`` (the default
since 7 Dec: only the asked object's retrieved facts in the prompt) or ``"retrieved"`` (the earlier
prompt: every retrieved fact). ExRAP reads it from ``ExRAPConfig.cloze_context``; the baselines use
the evaluator's default. This script runs ``actionable eval continual`` with that default set to
``--context`` for every agent, so one agent's rows can be compared under both prompts::

    ACTIONABLE_LM_THREADS=1 python3 benchmarks/bench_cloze_context.py --context retrieved \\
        --agents instruction-wise --out runs/continual-s10-iw-retrieved
    actionable eval continual --agents instruction-wise ... --out runs/...   # the default ("object")

The other options are ``eval continual``'s (levels low/medium/high, set sizes 3/5/7, 10 seeds, 30
steps by default here, as in docs/results.md's 10-seed table).
"""

from __future__ import annotations

import argparse
import sys


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--context", choices=("object", "retrieved"), required=True)
    ap.add_argument("--agents", default="exrap,instruction-wise")
    ap.add_argument("--levels", default="low,medium,high")
    ap.add_argument("--set-sizes", default="3,5,7")
    ap.add_argument("--seeds", default="10")
    ap.add_argument("--steps", default="30")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    import actionable.continual.query as query
    from actionable.cli import main as cli

    init = query.QueryEvaluator.__init__

    def with_context(self, *args, **kw):  # ExRAP passes its config's context: overridden too
        kw["context"] = a.context
        init(self, *args, **kw)
    query.QueryEvaluator.__init__ = with_context
    return cli(["eval", "continual", "--agents", a.agents, "--nonstationarity", a.levels, "--set-sizes",
                a.set_sizes, "--seeds", a.seeds, "--steps", a.steps, "--no-progress", "--out", a.out])


if __name__ == "__main__":
    sys.exit(main())
