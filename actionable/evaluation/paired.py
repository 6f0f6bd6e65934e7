"""Paired comparisons of two continual agents (issue 25: "seeds paired across agents, intervals
shown").

Every episode of the continual benchmark is keyed by ``(level, set size, seed)``; the seed fixes the
instruction set, the house's dynamics and, in driving, the traffic, so two agents with the same key
met the same world (:func:`actionable.evaluation.continual.episodes_for`). The per-agent intervals
of :func:`~actionable.evaluation.continual.summarize` ignore that pairing and stay wide (most of an
episode's SR is set by how hard its instructions are, which both agents share). Here each episode
of the reference agent is set against the other agent's episode with the same key, and the
interval is taken over the per-episode differences:

- SR difference in percentage points (episodes where both agents had at least one activation).
  The two agents' activations need not be the same ones: a condition can depend on what the agent
  did (a goal kept true is not activated again) or, in driving, on where the ego is; the pairing
  fixes the instructions, the dynamics and the traffic, not the activations;
- PS difference in steps (lower is better, so a negative difference favours the reference);
- a 95% t-interval of the mean difference (:func:`actionable.continual.metrics.mean_ci`), and an
  exact two-sided sign test over the episodes that differ (no assumption on the shape of the
  differences; ties are left out, as the test prescribes).

"Apart" means the paired interval excludes 0 and the sign test agrees (p < 0.05). Source of the layout: the paired-seed protocol of
ExRAP (arXiv 2509.08222, Table 1 reports means over seeds; the paper shows no intervals).
"""

from __future__ import annotations

import math

from actionable.continual.metrics import mean_ci

LEVELS = ("low", "medium", "high")


def sign_test(wins: int, losses: int) -> float | None:
    """Exact two-sided sign-test p-value for ``wins`` against ``losses`` (ties excluded);
    ``None`` when there is no untied pair. Source: the binomial test with p = 1/2."""
    n = wins + losses
    if n == 0:
        return None
    k = min(wins, losses)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def is_number(v) -> bool:
    """A metric value that can be averaged (a hand-edited run.jsonl may hold text or a boolean)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _by_key(records: dict) -> dict[str, dict[tuple, dict]]:
    """``{agent: {(level, n, seed): result}}`` of the finished episodes."""
    out: dict[str, dict[tuple, dict]] = {}
    for rec in records.values():
        p = rec.get("payload") if isinstance(rec, dict) else None
        if rec.get("status") != "ok" or not isinstance(p, dict) or not {"agent", "level", "n", "seed"} <= set(p):
            continue  # a failed or malformed record pairs with nothing
        m = (rec.get("result") or {}).get("metrics") if isinstance(rec.get("result"), dict) else None
        if not isinstance(m, dict):
            continue
        clean = {k: (v if is_number(v) else None) for k, v in m.items() if k in ("sr", "ps")}
        out.setdefault(p["agent"], {})[(p["level"], p["n"], p["seed"])] = {"metrics": {"sr": None, "ps": None, **clean}}
    return out


def compare(ref: dict, other: dict, keys, metric: str, scale: float = 1.0) -> dict:
    """One paired comparison: ``ref[k]["metrics"][metric] - other[k]["metrics"][metric]`` (times
    ``scale``) over ``keys`` where both values exist. Returns ``{pairs, diff, interval, apart,
    wins, losses, ties, sign_p}`` (see :func:`paired_differences`); a win is a higher value for
    ``metric == "sr"`` and a lower one otherwise (PS: fewer steps)."""
    diffs, wins, losses, ties = [], 0, 0, 0
    for k in keys:
        a, b = ref[k]["metrics"][metric], other[k]["metrics"][metric]
        if a is None or b is None:
            continue
        d = scale * (a - b)
        diffs.append(d)
        better = d > 1e-9 if metric == "sr" else d < -1e-9
        worse = d < -1e-9 if metric == "sr" else d > 1e-9
        wins, losses, ties = wins + better, losses + worse, ties + (not better and not worse)
    m, half = mean_ci(diffs)
    interval = None if half is None else [m - half, m + half]
    p = sign_test(wins, losses)
    # apart: the t-interval excludes 0 and the sign test agrees (p < 0.05); the t-interval alone
    # collapses to a point when every difference is the same (four +100 pairs), which proves nothing
    return {"pairs": len(diffs), "diff": m, "interval": interval,
            "apart": bool(interval and (interval[0] > 0 or interval[1] < 0) and p is not None and p < 0.05),
            "wins": wins, "losses": losses, "ties": ties, "sign_p": p}


def paired_differences(records: dict, reference: str = "exrap") -> list[dict]:
    """Rows ``{agent, level, episodes, sr: {...}, ps: {...}}`` comparing ``reference`` with every
    other agent of ``records`` (a run's ``run.jsonl`` as read by
    :class:`~actionable.evaluation.runner.RunStore`), per level and pooled over levels
    (``level="all"``); set sizes are always pooled.

    ``sr`` / ``ps`` hold ``pairs`` (episodes where both values exist), ``diff`` (mean of reference
    minus other: SR in percentage points, PS in steps), ``interval`` (95% t-interval of the mean
    difference, ``None`` under 2 pairs), ``apart`` (the interval excludes 0 and the sign test gives
    p < 0.05), ``wins`` / ``losses``
    / ``ties`` (from the reference's side: a higher SR, a lower PS) and ``sign_p`` (exact two-sided
    sign test). Empty when ``reference`` ran no episode; an agent sharing no key with it is left out.
    """
    agents = _by_key(records)
    ref = agents.get(reference)
    if not ref:
        return []
    rows = []
    for other in sorted(a for a in agents if a != reference):
        shared = sorted(set(ref) & set(agents[other]), key=lambda k: (LEVELS.index(k[0]), k[1], k[2]))
        if not shared:
            continue
        for level in [lv for lv in LEVELS if any(k[0] == lv for k in shared)] + ["all"]:
            keys = [k for k in shared if level in ("all", k[0])]
            rows.append({"reference": reference, "agent": other, "level": level, "episodes": len(keys),
                         "sr": compare(ref, agents[other], keys, "sr", 100.0),
                         "ps": compare(ref, agents[other], keys, "ps", 1.0)})
    return rows


def _cell(c: dict, digits: int = 1) -> str:
    if c["diff"] is None:
        return "-"
    iv = c["interval"]
    text = f"{c['diff']:+.{digits}f}" + ("" if iv is None else f" [{iv[0]:+.{digits}f}, {iv[1]:+.{digits}f}]")
    return f"**{text}**" if c["apart"] else text


def render_paired(rows: list[dict], reference: str = "exrap") -> str:
    """Markdown table of :func:`paired_differences`; a bold difference has a paired interval that
    excludes 0. For no rows, one line saying why there is no table."""
    if not rows:
        return (f"No paired differences: the table sets {reference} against each other agent on the same episodes, "
                f"and this run has no {reference} episode paired with another agent's (add --agents {reference},...).\n")
    ref = rows[0]["reference"]
    out = [f"Paired differences, {ref} minus each agent, over episodes with the same level, set size and seed "
           "(the same instructions and dynamics). SR in percentage points (higher favours "
           f"{ref}), PS in steps (lower favours {ref}); [lo, hi] = 95% t-interval of the mean paired "
           "difference, **bold** where it excludes 0 and the sign test gives p < 0.05; W/L/T = episodes where "
           f"{ref} is better / worse / level; p = exact two-sided sign test over the untied episodes.", "",
           "| agent | level | pairs (SR) | SR diff | W/L/T (SR) | p (SR) | pairs (PS) | PS diff | W/L/T (PS) | p (PS) |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s, p = r["sr"], r["ps"]

        def pv(c):
            return "-" if c["sign_p"] is None else f"{c['sign_p']:.3f}"
        out.append(f"| {r['agent']} | {r['level']} | {s['pairs']} | {_cell(s)} | {s['wins']}/{s['losses']}/{s['ties']} | "
                   f"{pv(s)} | {p['pairs']} | {_cell(p)} | {p['wins']}/{p['losses']}/{p['ties']} | {pv(p)} |")
    return "\n".join(out) + "\n"


__all__ = ["compare", "is_number", "paired_differences", "render_paired", "sign_test"]
