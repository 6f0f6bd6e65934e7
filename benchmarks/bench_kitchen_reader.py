"""World or agent? ExRAP vs instruction-wise in the kitchen with a perfect memory reader (issue 13 item 4).

The kitchen table (docs/results.md) runs every agent with SmolLM2-135M. When instruction-wise beats
ExRAP there, two explanations compete:

* **the agent** - the 135M model reads ExRAP's TEKG badly (its query answers, Eq. 5-7), so ExRAP
  acts on wrong beliefs; a better reader would close the gap;
* **the world** - with every area one step from every other and three instructions, visiting the
  instructions' areas in turn (instruction-wise) is already near the best policy, so ExRAP's
  memory and exploration have little to add whatever the reader.

This probe replaces the LM by :class:`MemoryReaderLM`, which answers each cloze query exactly from
the quadruples in the prompt (the newest one about the asked object and relation whose value is one
of the alternatives wins; none: no preference) and, for Eq. 9, scores the pending executions 0 and every other skill -8. Both agents
then read memory perfectly; the remaining difference is their policy in this world. No model is
loaded; the grid is the table's (FloorPlan1, set size 3, 20 steps, low / medium / high), seeds
0..N-1.

    python benchmarks/bench_kitchen_reader.py --seeds 8
    python benchmarks/bench_kitchen_reader.py --seeds 30 --w-t 0.1,1     # + ExRAP with heavier v_T (Eq. 12)
    python benchmarks/bench_kitchen_reader.py --seeds 30 --json out.json
"""

from __future__ import annotations

import argparse
import json
import re

_LINE = re.compile(r"^\((?P<s>[^,]+), (?P<r>[^,]+), (?P<v>[^,]+), t=(?P<t>\d+)\)$")


class MemoryReaderLM:
    """A scoring LM that reads the TEKG quadruples of the prompt exactly (see the module docstring)."""

    supports_logprobs = supports_batch = supports_score = True
    model_id = "memory-reader"

    def score(self, prompt: str, continuations: list[str]) -> list[float]:
        if "Pending tasks:" in prompt and prompt.rstrip().endswith("Next skill:"):
            todo = prompt.split("Pending tasks:")[1]
            return [0.0 if f"- {c.strip()} (because" in todo else -8.0 for c in continuations]
        if "Current state at step" in prompt:
            src, rel = [x.strip() for x in prompt.rstrip().rsplit("(", 1)[1].split(",")[:2]]
            alts = {c.strip() for c in continuations}
            seen = [m for m in map(_LINE.match, prompt.splitlines())
                    if m and m["s"] == src and m["r"] == rel and m["v"].strip() in alts]
            if not seen:
                return [0.0] * len(continuations)
            value = max(seen, key=lambda m: int(m["t"]))["v"].strip()
            return [0.0 if c.strip() == value else -6.0 for c in continuations]
        return [0.0] * len(continuations)

    def generate(self, prompt, params):  # pragma: no cover - the probe's agents only score
        raise NotImplementedError("MemoryReaderLM only scores")


def run(seeds: int, steps: int = 20, n: int = 3, agents=("exrap", "instruction-wise", "oracle"),
        scene: str = "FloorPlan1", w_ts=()) -> dict:
    """The probe grid; returns ``{"rows": summarize(...), "markdown": ...}`` (SR %, PS steps, 95% intervals).

    ``w_ts``: extra ExRAP rows ``exrap w_T=<w>`` with that weight of v_T in Eq. 12 (default 0.01)."""
    from actionable.continual.agent import ExRAPConfig
    from actionable.continual.episode import make_agent, run_episode
    from actionable.evaluation.continual import render_markdown, summarize
    from actionable.continual.worlds import get_world

    w = get_world("thor")
    records = {}
    for s in range(seeds):
        for lv in ("low", "medium", "high"):
            house = w.make_house(scene, lv)
            house.reset(0)
            ins = w.sample(house, n, s)
            for a in list(agents) + [f"exrap w_T={x:g}" for x in w_ts]:
                cfg = ExRAPConfig(w_t=float(a.split("=")[1])) if "=" in a else None
                agent = make_agent(a.split()[0], None if a == "oracle" else MemoryReaderLM(), ins, cfg)
                res = run_episode(agent, house, ins, steps, s, world=w, keep_trace=False)
                records[f"{a}|{lv}|{n}|{s}"] = {"status": "ok", "payload": {"agent": a, "level": lv, "n": n,
                                                                              "seed": s}, "result": res.to_dict()}
    rows = summarize(records)
    return {"rows": rows, "markdown": render_markdown(rows)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=8)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--w-t", default="", help="extra ExRAP rows with these v_T weights, e.g. 0.1,1")
    ap.add_argument("--json", default=None, help="also write the rows here")
    a = ap.parse_args()
    out = run(a.seeds, a.steps, w_ts=[float(x) for x in a.w_t.split(",") if x.strip()])
    print(out["markdown"])
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(out["rows"], f, indent=1)


if __name__ == "__main__":
    main()
