"""Translation time of the paper's step-wise planner (issue 27), without the planning LM: replays
the sample batches that ``ZeroShotPlanner`` (``full``) sent to ``ActionIndex.search`` while
planning the first N packaged task names, through (a) the index as it was before issue 27 (query
vectors memoised, every sample multiplied as ``(q, d) @ (d, n)``) and (b) ``ActionIndex.search``
(a ``(text, k)`` memo, only new texts embedded and multiplied, as ``(n, d) @ (d, q)``), each
repetition on fresh memos, (a) and (b) interleaved. Also checks that both give the same
neighbours.

    python benchmarks/bench_translation_step.py [--tasks 6] [--max-steps 6] [--cutoff 0.4] [--repeats 5]
        [--calls FILE]   # reuse recorded batches (written to FILE when it does not exist)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import OrderedDict
from pathlib import Path

import numpy as np


def record_calls(tasks: int, max_steps: int, cutoff: float) -> list[list[str]]:
    """The text batches the planner searched, in order (embedded model, LM cache off)."""
    from actionable.core.config import LMConfig, PlannerConfig, make_config
    from actionable.core.registry import planning_domain
    from actionable.evaluation.splits import packaged_programs
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm
    from actionable.planning.examples import ExampleBank
    from actionable.planning.zero_shot import ZeroShotPlanner, build_action_index

    lm = load_lm("embedded", LMConfig(cache=False))
    emb = load_embedder("minilm")
    domain = planning_domain("virtualhome", "default")
    index = build_action_index(domain, emb, cache_dir=LMConfig().cache_dir)
    calls: list[list[str]] = []
    real = index.search

    def spy(queries, k=1):
        calls.append([list(queries), k])
        return real(queries, k)

    index.search = spy
    planner = ZeroShotPlanner(lm, index, ExampleBank.of_world(),
                              make_config(PlannerConfig, variant="full", max_steps=max_steps, cutoff=cutoff))
    for name in sorted({t for t, _ in packaged_programs().values()})[:tasks]:
        planner.plan(name, scene=domain)
    return calls


def reference_search(index, memo: OrderedDict, texts: list[str], k: int):
    """``ActionIndex.search`` before issue 27 (its query-vector memo included)."""
    todo = [t for t in dict.fromkeys(texts) if t not in memo]
    if todo:
        for t, v in zip(todo, index.embedder.encode(todo)):
            memo[t] = np.asarray(v, dtype=np.float32)
    q = np.stack([memo[t] for t in texts])
    sims = q @ index.matrix.T
    k = min(k, len(index))
    if k == 1:
        idx = np.argmax(sims, axis=1)[:, None]
    else:
        part = np.argpartition(-sims, k - 1, axis=1)[:, :k]
        order = np.argsort(-np.take_along_axis(sims, part, axis=1), axis=1, kind="stable")
        idx = np.take_along_axis(part, order, axis=1)
    return np.take_along_axis(sims, idx, axis=1).astype(np.float32), idx.astype(np.int64)


def run(tasks: int = 6, max_steps: int = 6, cutoff: float = 0.4, repeats: int = 5,
        calls_file: str | None = None) -> dict:
    from actionable.core.config import LMConfig
    from actionable.core.registry import planning_domain
    from actionable.grounding.embedder import load_embedder
    from actionable.planning.zero_shot import build_action_index

    if calls_file and Path(calls_file).exists():
        calls = json.loads(Path(calls_file).read_text())
    else:
        calls = record_calls(tasks, max_steps, cutoff)
        if calls_file:
            Path(calls_file).write_text(json.dumps(calls))
    emb = load_embedder("minilm")
    index = build_action_index(planning_domain("virtualhome", "default"), emb, cache_dir=LMConfig().cache_dir)
    emb.encode(["warm up"])
    ref_s, new_s, same, near = [], [], True, 0
    for _ in range(repeats):
        memo: OrderedDict = OrderedDict()
        fresh = index.restrict(range(len(index)))  # same rows, fresh memos
        fresh._query_memo = OrderedDict()
        t = time.perf_counter()
        ref = [reference_search(index, memo, texts, k) for texts, k in calls]
        ref_s.append(time.perf_counter() - t)
        t = time.perf_counter()
        new = [fresh.search(texts, k) for texts, k in calls]
        new_s.append(time.perf_counter() - t)
        for (rs, ri), (ns, ni) in zip(ref, new):
            same &= bool(np.array_equal(ri, ni))
            near = max(near, float(np.abs(rs - ns).max()))
    n_texts = sum(len(t) for t, _ in calls)
    r, n = statistics.median(ref_s), statistics.median(new_s)
    return {"calls": len(calls), "texts": n_texts, "distinct_texts": len({t for ts, _ in calls for t in ts}),
            "repeats": repeats, "reference_s": r, "ours_s": n, "reference_ms_per_call": 1e3 * r / len(calls),
            "ours_ms_per_call": 1e3 * n / len(calls), "ratio": r / n if n else None,
            "same_neighbours": same, "max_cosine_diff": near}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tasks", type=int, default=6)
    ap.add_argument("--max-steps", type=int, default=6)
    ap.add_argument("--cutoff", type=float, default=0.4)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--calls", default=None, help="JSON file of recorded batches (read, or written)")
    a = ap.parse_args()
    print(json.dumps(run(a.tasks, a.max_steps, a.cutoff, a.repeats, a.calls), indent=2))


if __name__ == "__main__":
    main()
