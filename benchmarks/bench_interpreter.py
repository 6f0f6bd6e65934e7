"""Instruction interpreter (ExRAP Eq. 4) accuracy, four variants side by side.

Every distinct template sentence of ``sample_instructions(house, 7, seed)`` for
seeds 0..N-1 (scene 1003_2) is read by the embedded LM with and without the
translation stage (MiniLM nearest admissible clause) and with raw or
PMI-calibrated polarity re-ranking; each reading is compared with the
sentence's ground truth (query predicates, execution skills).

    python benchmarks/bench_interpreter.py [--seeds 10] [--verbose]
"""

from __future__ import annotations

import argparse
import json
import time


def run(seeds: int = 10, verbose: bool = False) -> dict:
    from actionable.core.config import LMConfig
    from actionable.continual import interpreter as ip
    from actionable.worlds.virtualhome.instructions import VirtualHomeVocabulary, cloze_facts, sample_instructions
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.core.continual import DynamicsConfig
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm

    house = NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(level="high"))
    house.reset(0)
    lm = load_lm("embedded", LMConfig(cache=False))
    emb = load_embedder("minilm")
    seen: dict = {}
    for seed in range(seeds):
        for ins in sample_instructions(house, 7, seed=seed):
            seen.setdefault(ins.text, ins)
    sentences = list(seen.values())
    out = {"sentences": len(sentences), "variants": {}}
    variants = [("lm only, raw polarity", None, False), ("lm only, PMI polarity", None, True),
                ("lm + translation, raw polarity", emb, False),
                ("lm + translation, PMI polarity (default)", emb, True)]
    for name, embedder, calibrated in variants:
        t0 = time.perf_counter()
        tasks, log = ip.interpret(sentences, VirtualHomeVocabulary(house), lm, embedder=embedder, calibrated=calibrated)
        by_text = {t.text: t for t in tasks}
        usable = q_ok = e_ok = both = 0
        for ins, rec in zip(sentences, log):
            if rec["source"] != "lm":
                continue
            usable += 1
            task = by_text[ins.text]
            a = set(task.facts) == set(cloze_facts(ins.query, house))
            b = tuple(task.execution) == tuple(ins.execution)
            q_ok, e_ok, both = q_ok + a, e_ok + b, both + (a and b)
            if verbose and not (a and b):
                print(json.dumps({"variant": name, "text": ins.text, "checked": rec.get("checked")}))
        out["variants"][name] = {"lm_usable": usable, "query_right": q_ok, "execution_right": e_ok,
                                 "both_right": both, "seconds": round(time.perf_counter() - t0, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    res = run(a.seeds, a.verbose)
    n = res["sentences"]
    print(f"{n} distinct sentences")
    print(f"{'variant':44s} {'LM usable':>10s} {'query ok':>9s} {'exec ok':>8s} {'both ok':>8s} {'s':>6s}")
    for name, v in res["variants"].items():
        print(f"{name:44s} {v['lm_usable']:>10d} {v['query_right']:>9d} {v['execution_right']:>8d} "
              f"{v['both_right']:>8d} {v['seconds']:>6.1f}")


if __name__ == "__main__":
    main()
