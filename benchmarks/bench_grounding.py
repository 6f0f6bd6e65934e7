"""Grounding benchmark (issue 7): top-1 cosine lookup of a free-text step against the
scene's admissible actions (Huang et al. 2022, Sec. 3.2).

Three ways, same query and action matrices (unit rows, MiniLM), side by side:

* ours: ``ActionIndex.search`` (one ``(q, d) @ (d, n)`` product + argmax);
* naive: a per-action Python loop (``float(np.dot(q, a))`` for every action);
* ``sentence_transformers.util.semantic_search`` (torch, chunked top-k).

Queries come in batches of 10 (the planner's k=10 samples per step). Also
measured: the one-off cost of embedding the action space (cold, empty cache)
and loading it back from the on-disk cache (warm).

    python benchmarks/bench_grounding.py [--queries 200] [--naive-queries 20]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time


def _timeit(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def run(queries: int = 200, naive_queries: int = 20, batch: int = 10, max_actions: int | None = None) -> dict:
    import numpy as np

    from actionable.worlds.virtualhome.admissible import admissible_actions
    from actionable.worlds.virtualhome.scene import list_program_ids, load_program, load_scene
    from actionable.grounding.embedder import load_embedder
    from actionable.grounding.index import ActionIndex

    scene = load_scene(None)
    steps = admissible_actions(scene)
    if max_actions:  # smoke runs: a prefix of the action space
        steps = steps[:max_actions]
    emb = load_embedder("minilm")
    with tempfile.TemporaryDirectory() as tmp:
        t = time.perf_counter()
        cold = ActionIndex.from_steps(emb, steps, cache_dir=tmp)
        cold_s = time.perf_counter() - t
        t = time.perf_counter()
        warm = ActionIndex.from_steps(emb, steps, cache_dir=tmp)
        warm_s = time.perf_counter() - t
        assert warm.cache_hit and not cold.cache_hit
    index = warm
    # queries: free-text renderings of gold steps ("walk to the bathroom"), de-duplicated
    texts: list[str] = []
    for pid in list_program_ids():
        for s in load_program(pid).steps:
            t = "I " + s.to_text().replace(" to ", " over to the ", 1)
            if t not in texts:
                texts.append(t)
        if len(texts) >= queries:
            break
    texts = texts[:queries]
    Q = emb.encode(texts)
    M = index.matrix
    n_batches = len(texts) // batch

    def ours():
        return [index.search(Q[i * batch:(i + 1) * batch], k=1)[1][:, 0] for i in range(n_batches)]

    def naive(nq=naive_queries):
        out = []
        for q in Q[:nq]:
            best, arg = -2.0, -1
            for j in range(M.shape[0]):
                s = float(np.dot(q, M[j]))
                if s > best:
                    best, arg = s, j
            out.append(arg)
        return out

    import torch
    from sentence_transformers import util

    Mt = torch.from_numpy(M)

    def st():
        out = []
        for i in range(n_batches):
            hits = util.semantic_search(torch.from_numpy(Q[i * batch:(i + 1) * batch]), Mt, top_k=1)
            out.append([h[0]["corpus_id"] for h in hits])
        return out

    ours_s = _timeit(ours)
    st_s = _timeit(st)
    naive_s = _timeit(naive, repeat=1)
    a = np.concatenate(ours())
    b = np.array([x for row in st() for x in row])
    c = np.array(naive())
    nq = n_batches * batch
    us = lambda sec, n: 1e6 * sec / n  # noqa: E731
    return {
        "actions": len(index), "dim": int(M.shape[1]), "queries": nq, "batch": batch,
        "ours_us_per_query": us(ours_s, nq), "semantic_search_us_per_query": us(st_s, nq),
        "naive_loop_us_per_query": us(naive_s, naive_queries),
        "ratio_naive_over_ours": us(naive_s, naive_queries) / us(ours_s, nq),
        "ratio_semantic_search_over_ours": us(st_s, nq) / us(ours_s, nq),
        "top1_agree_ours_vs_semantic_search": float(np.mean(a == b)),
        "top1_agree_ours_vs_naive": float(np.mean(a[:naive_queries] == c)),
        "embed_action_space_cold_s": cold_s, "load_action_space_cached_s": warm_s,
        "cache_speedup": cold_s / warm_s if warm_s else None,
        "embedder": emb.model_id,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--naive-queries", type=int, default=20)
    a = ap.parse_args()
    print(json.dumps(run(a.queries, a.naive_queries), indent=2))


if __name__ == "__main__":
    main()
