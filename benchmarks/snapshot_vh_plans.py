"""Before/after check that a planner change leaves VirtualHome's grounded plans as they were.

Plans every 22nd packaged program's task (leave-one-program-out) in the default scene and writes
steps, repair flags, stop reasons, step scores, score parts and executability as JSON; ``--compare``
reports how many of two snapshots are identical. Run the "before" on a copy of the previous commit:

    git archive HEAD~1 actionable | tar -x -C /tmp/before
    PYTHONPATH=/tmp/before python benchmarks/snapshot_vh_plans.py --out /tmp/vh-before.json
    python benchmarks/snapshot_vh_plans.py --out /tmp/vh-after.json
    python benchmarks/snapshot_vh_plans.py --compare /tmp/vh-before.json /tmp/vh-after.json
    # the same with --lm --n 3 (the embedded model, no response cache)
"""

from __future__ import annotations

import argparse
import json
import sys


def snapshot(n: int, use_lm: bool) -> list[dict]:
    """``n`` plans as comparable dicts (an error is recorded as ``{"task", "error"}``)."""
    from actionable.core.config import GroundedConfig, LMConfig
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.grounding.embedder import load_embedder
    from actionable.planning.examples import ExampleBank
    from actionable.planning.grounded import GroundedPlanner
    from actionable.planning.retrieval import ProgramRetriever

    emb = load_embedder("minilm")
    lm = None
    if use_lm:
        from actionable.lm.registry import load_lm

        lm = load_lm("embedded", LMConfig(cache=False))
    bank = ExampleBank.of_world()
    ret, scene, out = ProgramRetriever(bank, emb), load_scene("default"), []
    for ex in bank.examples[::22][:n]:
        planner = GroundedPlanner(lm, emb, ret, GroundedConfig(use_lm=use_lm))
        try:
            r = planner.plan(ex.task, scene, description=ex.description or None, exclude_sources=(ex.source,))
            out.append({"task": ex.task, "steps": [s.resolved.to_script() for s in r.steps],
                        "repaired": [s.repaired for s in r.steps], "stop": r.stop_reason,
                        "totals": [s.total for s in r.steps], "parts": [s.score_parts for s in r.steps],
                        "exec": r.executability, "stopped_at": r.stopped_at})
        except Exception as exc:  # noqa: BLE001 - a refusal is part of the behaviour compared
            out.append({"task": ex.task, "error": repr(exc)})
        print(ex.task, out[-1].get("stop"), len(out[-1].get("steps", [])), flush=True)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--n", type=int, default=15)
    ap.add_argument("--lm", action="store_true", help="plan with the embedded LM")
    ap.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"))
    args = ap.parse_args(argv)
    if args.compare:
        a, b = (json.load(open(p, encoding="utf-8")) for p in args.compare)
        same = sum(x == y for x, y in zip(a, b))
        for x, y in zip(a, b):
            if x != y:
                print("differs:", x.get("task"), sorted(k for k in x if x.get(k) != y.get(k)))
        print(f"{same}/{len(a)} identical" + ("" if len(a) == len(b) else f" (lengths {len(a)} vs {len(b)})"))
        return 0 if same == len(a) == len(b) else 1
    if not args.out:
        ap.error("--out is required without --compare")
    rows = snapshot(args.n, args.lm)
    with open(args.out, "w", encoding="utf-8") as fh:
        json.dump(rows, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    sys.exit(main())
