"""TEKG retrieval speed at 10,000 quadruples (target < 2 ms per query; ExRAP
reports 21 ms). Compares the inverted-index BM25 of actionable.continual.tekg
with a brute-force BM25 that scores every quadruple in Python, side by side.

    python benchmarks/bench_tekg.py [--n 10000] [--queries 200]
"""

from __future__ import annotations

import argparse
import math
import random
import time

from actionable.continual.tekg import TEKG, tokenize

CLASSES = ["television", "light", "computer", "door", "cupboard", "cup", "knife", "table", "desk",
           "microwave", "oven", "pencil", "book", "faucet", "dresser", "curtain", "plate", "glass"]
ROOMS = ["bathroom", "bedroom", "dining_room", "home_office", "kitchen", "living_room"]


def build(n: int, seed: int = 0) -> TEKG:
    """A memory of exactly ``n`` distinct live quadruples (no contradictions)."""
    rng = random.Random(seed)
    g = TEKG()
    t = 0
    while len(g) < n:
        facts = []
        for _ in range(50):
            ent = f"{rng.choice(CLASSES)}_{rng.randrange(100000)}"
            facts.append((ent, rng.choice(["is", "on", "inside", "in_room"]),
                          rng.choice(["on", "off", "open", "closed"] + ROOMS + [f"table_{rng.randrange(50)}"])))
        g.update(facts[: n - len(g)], t)
        t += 1
    return g


def brute(g: TEKG, query: str, k: int = 12):
    quads = list(g)
    docs = [tokenize(f"{q.source} {q.relation} {q.target}") for q in quads]
    avg = sum(map(len, docs)) / len(docs)
    df: dict[str, int] = {}
    for d in docs:
        for w in set(d):
            df[w] = df.get(w, 0) + 1
    qs = set(tokenize(query))
    scores = []
    for q, d in zip(quads, docs):
        s = 0.0
        for w in qs & set(d):
            idf = math.log(1 + (len(docs) - df[w] + 0.5) / (df[w] + 0.5))
            s += idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * len(d) / avg))
        scores.append((s, q.t, q))
    scores.sort(key=lambda x: (-x[0], -x[1]))
    return [q for s, _, q in scores[:k] if s > 0]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=200)
    a = ap.parse_args()
    g = build(a.n)
    rng = random.Random(1)
    queries = [f"the {rng.choice(CLASSES)} in the {rng.choice(ROOMS).replace('_', ' ')} is "
               f"{rng.choice(['on', 'off', 'open'])}" for _ in range(a.queries)]
    g.retrieve(queries[0])  # build posting arrays once
    t0 = time.perf_counter()
    for q in queries:
        g.retrieve(q, 12)
    idx_ms = (time.perf_counter() - t0) * 1000 / len(queries)
    nb = min(20, len(queries))
    t0 = time.perf_counter()
    for q in queries[:nb]:
        brute(g, q)
    br_ms = (time.perf_counter() - t0) * 1000 / nb
    agree = sum({x.triple for x in g.retrieve(q)} == {x.triple for x in brute(g, q)} for q in queries[:nb])
    print(f"quadruples={len(g)} queries={len(queries)}")
    print(f"inverted-index BM25 : {idx_ms:8.3f} ms/query  (target < 2 ms)")
    print(f"brute-force BM25    : {br_ms:8.3f} ms/query  ({br_ms / idx_ms:.0f}x slower)")
    print(f"same top-12 sets    : {agree}/{nb}")


if __name__ == "__main__":
    main()
