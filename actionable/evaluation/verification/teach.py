"""TEACh demonstrations as a plan-verification benchmark (the data of arXiv 2509.02761, Sec. 4).

The demonstrations and their labels are the THOR world's data
(:mod:`actionable.worlds.thor.teach_demos`, reached through the world's ``dataset`` capability:
``verification_demos()``); this module runs judges on them and scores per action. :func:`score_teach`
scores the rule and LLM judges on a user's own labelled TEACh-style file (``actionable eval verify
--teach FILE``; read by :mod:`actionable.verify.teach`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from actionable.core.errors import InputError
from actionable.core.program import Program

#: the world whose dataset holds the TEACh demonstrations
WORLD = "thor"


def load_demos() -> tuple:
    """The 100 converted episodes (:func:`actionable.worlds.thor.teach_demos.load_demos`, through the
    world's ``dataset`` capability)."""
    from actionable.core.registry import capability

    return capability(WORLD, "dataset").verification_demos()


def split_of(demo_id: str) -> str:
    """``"tune"`` / ``"report"`` half of a demonstration (even / odd source position)."""
    from actionable.core.registry import capability

    return capability(WORLD, "dataset").split_of(demo_id)


# ---------------------------------------------------------------------------- benchmark
def thor_scene_of(demo) -> str | None:
    """``teach:<id>`` when the THOR world has this episode's initial state, else None (21 of 100)."""
    scenes = _thor_scenes()
    sc = f"teach:{demo.id}"
    return sc if sc in scenes else None


@lru_cache(maxsize=1)
def _thor_scenes() -> frozenset[str]:
    from actionable.core.registry import make

    return frozenset(make(WORLD).scenes())


def _score(plan: Program, lab: list[bool], removed_idx: list[int], missing_keys: list,
           deleted_keys: list) -> dict[str, int]:
    """Per-action counts; identical action lines of one plan are interchangeable (a REMOVE on any
    copy of an inserted line counts), so alignment ties cannot change a score."""
    from collections import Counter

    txt = [s.to_script() for s in plan.steps]
    ins = Counter(t for t, l in zip(txt, lab) if l)
    rem = Counter(txt[i] for i in set(removed_idx) if 0 <= i < len(txt))
    tp = sum(min(rem[t], ins[t]) for t in rem)
    strict = sum(1 for i in set(removed_idx) if 0 <= i < len(lab) and lab[i])
    dl = Counter(deleted_keys)
    ms = Counter(missing_keys)
    mtp = sum(min(ms[k], dl[k]) for k in ms)
    return {"tp": tp + mtp, "fp": sum(rem.values()) - tp + sum(ms.values()) - mtp,
            "fn": sum(ins.values()) - tp + sum(dl.values()) - mtp, "tp_strict": strict + mtp,
            "removed": sum(rem.values()), "missing": sum(ms.values())}


def run_demo(demo, judge_name: str, *, which: str = "noised", lm=None, max_rounds: int = 5,
             planner=None) -> dict:
    """Run one judge through the loop on one demonstration (``planner``: a
    :class:`~actionable.verify.loop.Planner`; default the deterministic ``apply`` planner).

    Returns a JSON-able record: ``id``, ``judge``, ``which``, ``scene`` (or None), ``n_steps``,
    ``n_inserted``, round-1 counts ``r1`` and loop counts ``loop`` (``tp/fp/fn/tp_strict``),
    ``revisions``, ``rejected`` (revisions the guard rejected), ``converged``, ``rounds``, ``exec_before/after`` and ``goals_before/after``
    (``[met, total]``; None where the world cannot replay the episode), the round-1 critiques and
    the final plan.

    Raises:
        ConfigError: ``sim``/``hybrid`` on an episode the THOR world does not have.
    """
    from collections import Counter

    from actionable.core.errors import ConfigError
    from actionable.verify.critique import CritiqueKind
    from actionable.verify.judge import VerifyTask, make_judge
    from actionable.verify.loop import VerificationLoop
    from actionable.verify.worldsim import make_adapter

    plan, _, lab = demo.plan(which)
    scene = thor_scene_of(demo)
    adapter = make_adapter(WORLD, scene, demo.task) if scene else None
    if judge_name in ("sim", "hybrid") and adapter is None:
        raise ConfigError(f"episode {demo.id} has no THOR initial state; use the rule or llm judge")
    judge = make_judge(judge_name, lm=lm, world=adapter)
    task = VerifyTask(goal=demo.goal)
    from actionable.verify.guard import referee_for

    # the revision guard replays an LM planner's rewrites in the episode's THOR scene
    res = VerificationLoop(judge, planner, max_rounds=max_rounds,
                           referee=referee_for(judge, adapter) if adapter is not None else None).run(plan, task)
    deleted = []
    if which == "noised":
        held = None
        from actionable.core.teach_lines import is_object_action, parse_teach_action, teach_text

        for k, ln in enumerate(demo.shortest):
            if is_object_action(ln):
                st = parse_teach_action(teach_text(ln), held)
                held = st.args[0].name if st.action == "GRAB" else (None if st.action in ("PUTBACK", "PUTIN") else held)
                if k in demo.deleted:
                    deleted.append(st.unresolved().to_script())
    first = res.first_critiques
    r1 = _score(plan, lab, [c.index for c in first if c.kind is CritiqueKind.REMOVE],
                [c.step.unresolved().to_script() for c in first if c.kind is CritiqueKind.MISSING and c.step],
                deleted)
    # loop: net edits, by multiset difference of the initial and final plan
    a = Counter(s.unresolved().to_script() for s in plan.steps)
    b = Counter(s.unresolved().to_script() for s in res.final.steps)
    gone, added = a - b, b - a
    removed_idx, used = [], Counter()
    for i, s in enumerate(plan.steps):
        t = s.unresolved().to_script()
        if used[t] < gone[t] and lab[i]:
            removed_idx.append(i)
            used[t] += 1
    for i, s in enumerate(plan.steps):
        t = s.unresolved().to_script()
        if used[t] < gone[t] and i not in removed_idx:
            removed_idx.append(i)
            used[t] += 1
    loop = _score(plan, lab, removed_idx, list(added.elements()), deleted)
    rec = {"id": demo.id, "task": demo.task, "judge": judge_name, "which": which, "scene": scene,
           "n_steps": len(plan), "n_inserted": sum(lab), "r1": r1, "loop": loop, "revisions": res.revisions, "rejected": res.rejected, "critiques_rejected": res.critiques_rejected,
           "converged": res.converged, "rounds": len(res.rounds),
           "critiques": [c.describe() for c in first], "final": [s.to_script() for s in res.final.steps],
           "model_notes": [n for r in res.rounds for n in r.model_notes]}
    if adapter is not None:
        goals, _ = adapter.goals(demo.goal)
        r0, r2 = adapter.replay(plan.steps, goals), adapter.replay(res.final.steps, goals)
        rec.update(exec_before=r0.executable, exec_after=r2.executable,
                   goals_before=[r0.goals_met, r0.goals_total], goals_after=[r2.goals_met, r2.goals_total])
    return rec


def summarize(recs: list[dict], by_split: bool = False) -> list[dict]:
    """One row per (which, judge[, split]): P/R/F1 of round 1 and of the loop (identical lines
    interchangeable; ``F1 strict`` by position), revisions, executability before/after.
    ``by_split``: one row per half of :func:`split_of` as well (``which`` gets ``/tune``,
    ``/report``)."""
    rows = []
    if by_split:
        recs = list(recs) + [{**r, "which": f"{r['which']}/{split_of(r['id'])}"} for r in recs]
    keys = sorted({(r["which"], r["judge"]) for r in recs})
    for which, j in keys:
        rs = [r for r in recs if r["which"] == which and r["judge"] == j]
        row = {"which": which, "judge": j, "episodes": len(rs)}
        for part in ("r1", "loop"):
            tp, fp, fn = (sum(r[part][x] for r in rs) for x in ("tp", "fp", "fn"))
            p = tp / (tp + fp) if tp + fp else 0.0
            rc = tp / (tp + fn) if tp + fn else 0.0
            row[f"{part}_P"], row[f"{part}_R"] = 100 * p, 100 * rc
            row[f"{part}_F1"] = 100 * (2 * p * rc / (p + rc) if p + rc else 0.0)
            ts = sum(r[part]["tp_strict"] for r in rs)
            ps, rcs = (ts / (tp + fp) if tp + fp else 0.0), (ts / (tp + fn) if tp + fn else 0.0)
            row[f"{part}_F1_strict"] = 100 * (2 * ps * rcs / (ps + rcs) if ps + rcs else 0.0)
            row[f"{part}_flagged"] = sum(r[part]["removed"] + r[part]["missing"] for r in rs)
        row["unchanged_r1"] = 100 * sum(r["revisions"] == 0 for r in rs) / len(rs)
        for k in (1, 2, 3):
            row[f"conv_le{k}"] = 100 * sum(r["converged"] and r["revisions"] <= k for r in rs) / len(rs)
        rep = [r for r in rs if "exec_before" in r]
        row["replayed"] = len(rep)
        if rep:
            row["exec_before"] = 100 * sum(r["exec_before"] for r in rep) / len(rep)
            row["exec_after"] = 100 * sum(r["exec_after"] for r in rep) / len(rep)
            g = [r for r in rep if r["goals_before"][1]]
            row["goal_eps"] = len(g)
            row["success_before"] = 100 * sum(r["goals_before"][0] == r["goals_before"][1] for r in g) / max(1, len(g))
            row["success_after"] = 100 * sum(r["goals_after"][0] == r["goals_after"][1] for r in g) / max(1, len(g))
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    """The summary rows as a markdown table."""
    head = ("| set | judge | eps | P r1 | R r1 | F1 r1 | F1 r1 strict | P loop | R loop | F1 loop | unchanged | "
            "conv<=1 | conv<=3 | replayed | exec before | exec after | goal eps | success before | success after |")
    out = [head, "|" + "---|" * head.count("|")[:-1] if False else "|" + "---|" * (head.count("|") - 1)]
    f = lambda r, k: "-" if k not in r else f"{r[k]:.1f}"  # noqa: E731
    for r in rows:
        out.append(f"| {r['which']} | {r['judge']} | {r['episodes']} | {f(r, 'r1_P')} | {f(r, 'r1_R')} | "
                   f"{f(r, 'r1_F1')} | {f(r, 'r1_F1_strict')} | {f(r, 'loop_P')} | {f(r, 'loop_R')} | "
                   f"{f(r, 'loop_F1')} | {f(r, 'unchanged_r1')} | {f(r, 'conv_le1')} | {f(r, 'conv_le3')} | "
                   f"{r['replayed']} | {f(r, 'exec_before')} | {f(r, 'exec_after')} | {r.get('goal_eps', '-')} | "
                   f"{f(r, 'success_before')} | {f(r, 'success_after')} |")
    return "\n".join(out)


def run_bench(judges, *, which=("noised",), lm=None, n: int | None = None, llm_n: int | None = None,
              max_rounds: int = 5, out: str | Path | None = None, progress=None,
              split: str | None = None) -> list[dict]:
    """Run ``judges`` on the converted demonstrations; ``sim``/``hybrid`` only where the THOR world
    replays the episode. ``n`` limits episodes (source order); ``llm_n`` limits those of the
    LM-based judges (``llm``, ``hybrid``); ``split`` (``tune``/``report``) keeps one half of
    :func:`split_of`. Writes ``out/run.jsonl`` (resumable) and
    ``out/summary.md`` when ``out`` is given. Returns the records."""
    demos = load_demos()[: n or None]
    if split is not None:
        if split not in ("tune", "report"):
            raise InputError(f"--split: {split!r}; choose tune or report")
        demos = tuple(d for d in demos if split_of(d.id) == split)
    done: dict[tuple, dict] = {}
    path = None
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        path = Path(out) / "run.jsonl"
        if path.is_file():
            for ln in path.read_text(encoding="utf-8").splitlines():
                if ln.strip():
                    r = json.loads(ln)
                    done[(r["which"], r["judge"], r["id"])] = r
    recs = []
    for w in which:
        for j in judges:
            lim = llm_n if j in ("llm", "hybrid") and llm_n else None
            pool = [d for d in demos if j not in ("sim", "hybrid") or thor_scene_of(d)]
            for d in pool[: lim or None]:
                key = (w, j, d.id)
                if key not in done:
                    done[key] = run_demo(d, j, which=w, lm=lm, max_rounds=max_rounds)
                    if path is not None:
                        with path.open("a", encoding="utf-8") as fh:
                            fh.write(json.dumps(done[key]) + "\n")
                    if progress:
                        progress(done[key])
                recs.append(done[key])
    if out is not None:
        Path(out, "summary.md").write_text(markdown(summarize(recs)) + "\n", encoding="utf-8")
    return recs


def score_teach(path: str | Path, judges, model: str = "embedded", out: str | Path | None = None) -> str:
    """Score judges on labelled TEACh-style episodes (round-1 critiques,
    per-action P/R/F1 as in arXiv 2509.02761). Writes ``out/summary.md`` when
    ``out`` is given and returns the markdown table.

    Raises:
        ConfigError: a judge that needs the VirtualHome simulator (sim, hybrid).
        InputError: unreadable file or no labelled episode.
    """
    from actionable.core.errors import ConfigError
    from actionable.verify.teach import load_teach, to_labelled
    from actionable.verify.judge import VerifyTask, make_judge
    from actionable.evaluation.verification.metrics import Counts, score_critiques

    bad = [j for j in judges if j in ("sim", "hybrid")]
    if bad:
        names = ", ".join(bad)
        raise ConfigError(f"--judges: {'judges' if len(bad) > 1 else 'judge'} {names} need"
                          f"{'' if len(bad) > 1 else 's'} a VirtualHome scene; TEACh episodes can be scored "
                          "with --judges rule,llm")
    eps = [e for e in load_teach(path) if e.labelled]
    if not eps:
        raise InputError(f"{path} holds no labelled episode; add 'labels' (see docs/verify.md)")
    lm = None
    if "llm" in judges:
        from actionable.lm.registry import load_lm

        lm = load_lm(model)
    lines = ["| judge | episodes | P | R | F1 |", "|---|---|---|---|---|"]
    for name in judges:
        judge = make_judge(name, lm=lm)
        tot = Counts()
        for e in eps:
            res = judge.judge(e.plan, VerifyTask(goal=e.goal or e.name))
            tot += score_critiques(to_labelled(e), res.critiques)
        p, r, f = tot.prf()
        lines.append(f"| {name} | {len(eps)} | {100 * p:.1f} | {100 * r:.1f} | {100 * f:.1f} |")
    table = "\n".join(lines)
    if out is not None:
        Path(out).mkdir(parents=True, exist_ok=True)
        Path(out, "summary.md").write_text(f"# TEACh-style scoring of {path}\n\n{table}\n", encoding="utf-8")
    return table
