"""LM backend benchmark: load time, memory, decode speed, k-sample cost, cache hits.

Usage:
    python benchmarks/bench_lm.py [--hf] [--builtin] [--threads-ab] [--skip-embedded] [--repeats 3]

Prints one table row per measurement (seconds are wall-clock medians). Numbers
depend on the machine; docs/results.md records the ones measured there.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time

PROMPT = ("Task: Watch TV\nStep 1: Walk to home office\nStep 2: Walk to couch\nStep 3: Find couch\n"
          "Step 4: Sit on couch\nStep 5: Find remote control\nStep 6: Grab remote control\n"
          "Step 7: Find television\nStep 8: Switch on television\nStep 9: Turn to television\n"
          "Step 10: Look at television\n\nTask: Brush teeth\nStep 1:")


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(fn, repeats):
    ts, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), out


def row(name, value, unit, note=""):
    print(f"| {name} | {value} | {unit} | {note} |", flush=True)


def bench_embedded(repeats: int) -> None:
    from actionable.lm.base import GenerationParams
    from actionable.lm.embedded import EmbeddedLM

    r0 = rss_mb()
    lm = EmbeddedLM()
    row("embedded load", f"{lm.load_seconds:.2f}", "s", lm.model_id)
    row("embedded RSS increase after load", f"{rss_mb() - r0:.0f}", "MB", f"process RSS {rss_mb():.0f} MB")
    ptoks = len(lm.tokenize(PROMPT))
    # forced-length decode: no stop, 48 tokens, 1 sample -> tokens/s
    p1 = GenerationParams(n=1, max_tokens=48, stop=(), seed=0)
    lm.generate(PROMPT, p1)  # warm + prompt cached
    t, out = timed(lambda: lm.generate(PROMPT, p1), repeats)
    ntok = len(out[0].token_logprobs)
    row("embedded decode, 1 sample", f"{ntok / t:.0f}", "tokens/s", f"{ntok} tokens, prompt {ptoks} tokens cached")
    # the planner's request: 10 samples x up to 48 tokens, stop at newline
    for label, params in [("10 samples x <=48 tokens (stop \\n)", GenerationParams(n=10, max_tokens=48, seed=0)),
                          ("10 samples x 48 tokens (no stop)", GenerationParams(n=10, max_tokens=48, stop=(),
                                                                                seed=0))]:
        lm.generate(PROMPT, params)
        t, out = timed(lambda: lm.generate(PROMPT, params), repeats)
        ntok = sum(len(c.token_logprobs) for c in out)
        row(f"embedded {label}, parallel KV (n_seq_max=16)", f"{t:.2f}", "s", f"{ntok} tokens, {ntok / t:.0f} tok/s")
    seq = EmbeddedLM(n_seq_max=1)
    params = GenerationParams(n=10, max_tokens=48, stop=(), seed=0)
    seq.generate(PROMPT, params)
    t, out = timed(lambda: seq.generate(PROMPT, params), repeats)
    ntok = sum(len(c.token_logprobs) for c in out)
    row("embedded 10 samples x 48 tokens (no stop), sequential KV reuse (n_seq_max=1)", f"{t:.2f}", "s",
        f"{ntok} tokens, {ntok / t:.0f} tok/s")
    seq.close()
    # cold prompt: prompt evaluation included
    def cold():
        lm._engine.prefill([lm._llm.token_bos()])
        return lm.generate(PROMPT, GenerationParams(n=10, max_tokens=48, seed=0))
    t, _ = timed(cold, repeats)
    row("embedded 10 samples x <=48 tokens incl. prompt eval", f"{t:.2f}", "s", f"prompt {ptoks} tokens")
    t, _ = timed(lambda: lm.score(PROMPT, [" Walk to bathroom", " Grab toothbrush", " Find toothpaste"]), repeats)
    row("embedded score 3 continuations", f"{t * 1000:.0f}", "ms", "")
    # cache
    from actionable.lm.cache import CachedLM
    with tempfile.TemporaryDirectory() as d:
        c = CachedLM(lm, d)
        params = GenerationParams(n=10, max_tokens=48, seed=0)
        t_miss, _ = timed(lambda: c.generate(PROMPT + " ", params), 1)
        t_hit, _ = timed(lambda: c.generate(PROMPT + " ", params), max(repeats, 20))
        row("cache miss (10 samples, embedded)", f"{t_miss * 1000:.0f}", "ms", "")
        row("cache hit (10 samples)", f"{t_hit * 1000:.2f}", "ms", "SQLite WAL, median")
    lm.close()


def bench_threads_ab() -> None:
    """10 x 48 tokens with 1 or 2 llama.cpp threads, parallel or sequential samples."""
    from actionable.lm.base import GenerationParams
    from actionable.lm.embedded import EmbeddedLM

    for nt, seq in ((1, 16), (1, 1), (2, 16), (2, 1)):
        lm = EmbeddedLM(n_threads=nt, n_seq_max=seq)
        lm.generate(PROMPT, GenerationParams(n=1, max_tokens=2, seed=0))
        t0 = time.perf_counter()
        out = lm.generate(PROMPT, GenerationParams(n=10, max_tokens=48, stop=(), seed=0))
        t = time.perf_counter() - t0
        ntok = sum(len(c.token_logprobs) for c in out)
        row(f"embedded 10 x 48 tokens, threads={nt}, n_seq_max={seq}", f"{t:.2f}", "s",
            f"{ntok} tokens, load average {os.getloadavg()[0]:.1f}")
        lm.close()


def bench_builtin(repeats: int) -> None:
    """llama.cpp's own logprobs path (logits_all=True), for comparison."""
    import llama_cpp
    from actionable.lm.embedded import auto_threads, find_embedded_gguf

    llm = llama_cpp.Llama(model_path=str(find_embedded_gguf()), n_ctx=2048, n_threads=auto_threads(),
                          n_threads_batch=auto_threads(), logits_all=True, verbose=False)

    def ten():
        return [llm.create_completion(PROMPT, max_tokens=48, temperature=0.6, top_p=0.9, presence_penalty=0.5,
                                      frequency_penalty=0.3, logprobs=1, seed=i) for i in range(10)]
    ten()
    t, out = timed(ten, repeats)
    ntok = sum(len(o["choices"][0]["logprobs"]["token_logprobs"]) for o in out)
    row("llama.cpp built-in logprobs (logits_all=True), 10 x <=48 tokens, stop none", f"{t:.2f}", "s",
        f"{ntok} tokens, {ntok / t:.0f} tok/s")


def bench_hf(repeats: int) -> None:
    from actionable.lm.base import GenerationParams
    from actionable.lm.transformers_backend import TransformersLM

    r0 = rss_mb()
    lm = TransformersLM("embedded", device="cpu")
    row("transformers load (GGUF dequantised)", f"{lm.load_seconds:.1f}", "s", lm.model_id)
    row("transformers RSS increase after load", f"{rss_mb() - r0:.0f}", "MB", "")
    params = GenerationParams(n=10, max_tokens=48, stop=(), seed=0)
    lm.generate(PROMPT, GenerationParams(n=1, max_tokens=4, seed=0))
    t, out = timed(lambda: lm.generate(PROMPT, params), repeats)
    ntok = sum(len(c.token_logprobs) for c in out)
    row("transformers 10 samples x 48 tokens (no stop), one batched generate", f"{t:.2f}", "s",
        f"{ntok} tokens, {ntok / t:.0f} tok/s")
    p1 = GenerationParams(n=1, max_tokens=48, stop=(), seed=0)
    t, out = timed(lambda: lm.generate(PROMPT, p1), repeats)
    ntok = len(out[0].token_logprobs)
    row("transformers decode, 1 sample", f"{ntok / t:.0f}", "tokens/s", f"{ntok} tokens")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hf", action="store_true", help="also benchmark the transformers backend (~20 s load)")
    ap.add_argument("--builtin", action="store_true", help="also time llama.cpp's built-in logprobs")
    ap.add_argument("--skip-embedded", action="store_true", help="skip the embedded-model rows")
    ap.add_argument("--threads-ab", action="store_true", help="A/B of 1 vs 2 threads, parallel vs sequential")
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args(argv)
    from actionable.lm.embedded import auto_threads

    print(f"machine: {os.cpu_count()} CPUs, python {sys.version.split()[0]}, load average "
          f"{os.getloadavg()[0]:.1f}, llama.cpp/torch threads {auto_threads()}")
    print("| measurement | value | unit | note |\n|---|---|---|---|")
    if not a.skip_embedded:
        bench_embedded(a.repeats)
    if a.threads_ab:
        bench_threads_ab()
    if a.builtin:
        bench_builtin(a.repeats)
    if a.hf:
        bench_hf(a.repeats)
    return 0


if __name__ == "__main__":
    sys.exit(main())
