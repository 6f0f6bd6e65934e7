"""Misread generated continual instructions (every sentence of sample_instructions, seeds 0-9, sizes 3/7, all levels,
scenes 1003_2 and 1003_2:rooms=3..6): python benchmarks/bench_reader_misreadings.py {rule|lm} [scene]"""
import sys, json, time
from actionable.worlds.virtualhome.continual import _house
from actionable.worlds.virtualhome.instructions import VirtualHomeVocabulary, sample_instructions, cloze_facts
from actionable.continual import interpreter as ip
from actionable.core.errors import InputError

mode = sys.argv[1] if len(sys.argv) > 1 else "rule"
scenes = ["1003_2"] + [f"1003_2:rooms={k}" for k in range(3, 7)]
levels = ["low", "medium", "high"]
sets = {}
for sc in scenes:
    for lv in levels:
        h = _house(sc, lv); h.reset(0)
        for seed in range(10):
            for n in (3, 7):
                try:
                    ins = sample_instructions(h, n, seed)
                except InputError as e:
                    print("skip", sc, lv, seed, n, e); continue
                for i in ins:
                    sets.setdefault((sc, i.text), (h, i))
print("distinct (scene,text):", len(sets))
bad = 0; by_tmpl = {}
lm = emb = None
if mode == "lm":
    from actionable.core.config import LMConfig
    from actionable.lm.registry import load_lm
    from actionable.grounding.embedder import load_embedder
    lm = load_lm("embedded", LMConfig(cache=False)); emb = load_embedder("minilm")
only = sys.argv[2] if len(sys.argv) > 2 else None
t0 = time.time(); tot = 0; src = {}
for (sc, text), (h, i) in sets.items():
    if only and sc != only: continue
    tot += 1
    tasks, log = ip.interpret([i], VirtualHomeVocabulary(h), lm, embedder=emb)
    rec = log[0]; src[rec["source"]] = src.get(rec["source"], 0) + 1
    ok = bool(tasks) and set(tasks[0].facts) == set(cloze_facts(i.query, h)) and tuple(tasks[0].execution) == tuple(i.execution)
    if not ok:
        bad += 1; by_tmpl[i.template] = by_tmpl.get(i.template, 0) + 1
        print("MISREAD", sc, i.template, repr(text), "->", rec.get("query"), "|", rec.get("execution"), "| src", rec["source"], rec.get("error"))
print(f"mode={mode} sentences={tot} misread={bad} sources={src} by_template={by_tmpl} s={time.time()-t0:.0f}")
