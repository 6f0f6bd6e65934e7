"""The continual benchmark: agents x non-stationarity x instruction-set size x seeds.

Episodes run through :func:`actionable.evaluation.runner.run_episodes`
(resumable ``run.jsonl``, local or Ray executor). Each episode draws its
instruction set with ``sample_instructions(house, n, seed)`` and its dynamics
with ``seed``, so every agent meets the same instructions and the same house.
:func:`summarize` aggregates SR / PS with 95% CIs over seeds (ExRAP Table 1
layout: one row per agent, SR and PS per level); :func:`write_continual_report`
writes ``summary.md`` and ``continual.png`` into the run directory.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from actionable.continual.metrics import mean_ci
from actionable.continual.worlds import DEFAULT_WORLD, get_world
from actionable.core.errors import ConfigError
from actionable.evaluation.paired import is_number

LEVELS = ("low", "medium", "high")


def episodes_for(agents, levels, sizes, seeds, steps: int, scene: str, model: str,
                 query_mode: str = "logprob", w_t: float = 0.01, interpreter: str = "lm",
                 relevance: float = 0.5, env: str = DEFAULT_WORLD):
    """The (key, payload) grid, as :class:`~actionable.evaluation.runner.Episode` objects.

    ``env``: the continual world (:mod:`.worlds`); payloads name it only when it is not
    VirtualHome, so VirtualHome run directories resume as before."""
    from actionable.evaluation.runner import Episode

    world_fields = get_world(env).run_fields()
    for lv in levels:
        if lv not in LEVELS:
            raise ConfigError(f"unknown non-stationarity {lv!r}; use low, medium, high")
    out = []
    for s in seeds:  # seed-major: a partial run covers every setting
        for lv in levels:
            for n in sizes:
                for a in agents:
                    out.append(Episode(f"{a}|{lv}|{n}|{s}", {
                        "agent": a, "level": lv, "n": n, "seed": s, "steps": steps, "scene": scene,
                        "model": model, "query_mode": query_mode, "w_t": w_t,
                        "interpreter": interpreter, "relevance": relevance,
                        **world_fields}))
    return out


class ContinualWorker:
    """Picklable worker factory: builds the LM and houses once per worker; the house, the
    instruction sampler and the interpreter come from the payload's ``env``
    (:func:`actionable.continual.worlds.get_world`, default VirtualHome)."""

    def __init__(self, cache: bool = True):
        self.cache = cache

    def __call__(self):
        state: dict = {}

        def work(p: dict) -> dict:
            from actionable.core.config import LMConfig
            from actionable.continual.agent import ExRAPConfig
            from actionable.continual.episode import make_agent, run_episode

            world = get_world(p.get("env", DEFAULT_WORLD))
            if "lm" not in state and p["agent"] != "oracle":
                from actionable.lm.registry import load_lm
                state["lm"] = load_lm(p["model"], LMConfig(model=p["model"], cache=self.cache))
            key = (world.name, p["scene"], p["level"])
            if key not in state:
                state[key] = world.make_house(p["scene"], p["level"])
            house = state[key]
            house.reset(0)
            instructions = world.sample(house, p["n"], p["seed"])
            cfg = ExRAPConfig(query_mode=p.get("query_mode", "logprob"), w_t=p.get("w_t", 0.01),
                              relevance=p.get("relevance", 0.5))
            lm = state.get("lm")
            agent = make_agent(p["agent"], lm, instructions, cfg)
            interp_lm = (lm if p.get("interpreter", "lm") == "lm" and p["agent"] != "oracle"
                         and world.lm_interpreter else None)
            if interp_lm is not None and "embedder" not in state:
                from actionable.grounding.embedder import load_embedder
                state["embedder"] = load_embedder("minilm")
            res = run_episode(agent, house, instructions, p["steps"], p["seed"], lm=interp_lm, keep_trace=False,
                              embedder=state.get("embedder") if interp_lm is not None else None, world=world)
            d = res.to_dict()
            d["instructions"] = [i.text for i in instructions]
            d["truth"] = [[z.text for z in i.execution] for i in instructions]
            return d

        return work


def summarize(records: dict) -> list[dict]:
    """Rows ``{agent, level, n, sr, sr_ci, sr_interval, ps, ps_ci, ps_interval, episodes, activations, completed,
    inconsistent, lm_calls_per_step, reuse_rate, interpretation_ok, seconds}``;
    ``n="all"`` rows pool the set sizes. SR in % (mean of per-episode SR);
    ``inconsistent`` counts Eq. 6-7 corrections (ExRAP agents only)."""
    groups: dict[tuple, list[dict]] = {}
    for rec in records.values():
        if rec.get("status") != "ok":
            continue
        p = rec["payload"]
        for key in ((p["agent"], p["level"], p["n"]), (p["agent"], p["level"], "all")):
            groups.setdefault(key, []).append(rec["result"])
    rows = []
    for (agent, level, n), res in sorted(groups.items(), key=lambda kv: (kv[0][0], LEVELS.index(kv[0][1]), str(kv[0][2]))):
        sr = [r["metrics"]["sr"] * 100 if is_number(r["metrics"].get("sr")) else None for r in res]
        ps = [r["metrics"]["ps"] if is_number(r["metrics"].get("ps")) else None for r in res]
        m_sr, _ = mean_ci(sr)
        n_sr = sum(v is not None for v in sr)
        sr_iv = None if m_sr is None or n_sr < 2 else [100 * x for x in wilson_interval(m_sr / 100, n_sr)]
        ci_sr = None if sr_iv is None else (sr_iv[1] - sr_iv[0]) / 2
        m_ps, ci_ps = mean_ci(ps)
        ps_iv = None if ci_ps is None else [max(0.0, m_ps - ci_ps), m_ps + ci_ps]
        # sr_interval: Wilson (within 0-100); sr_ci: its half-width (kept for old readers);
        # ps_interval: the t-interval cut at 0 (pending steps are never negative)
        st = [r["stats"] for r in res]
        interp = [(log.get("execution") == truth) for r in res if "truth" in r and agent != "oracle"
                  for log, truth in zip(r["interpretation"], r["truth"])]
        reuse = [s["reuse_rate"] for s in st if "reuse_rate" in s]
        rows.append({"agent": agent, "level": level, "n": n, "episodes": len(res),
                     "sr": m_sr, "sr_ci": ci_sr, "sr_interval": sr_iv, "ps": m_ps, "ps_ci": ci_ps,
                     "ps_interval": ps_iv,
                     "activations": sum(r["metrics"]["n_success"] + r["metrics"]["n_failure"] for r in res),
                     "completed": sum(r["metrics"]["n_success"] for r in res),
                     "inconsistent": (sum(s["inconsistent"] for s in st) if all("inconsistent" in s for s in st)
                                      else None),
                     "lm_calls_per_step": sum(s["lm_calls_per_step"] for s in st) / len(st),
                     "reuse_rate": sum(reuse) / len(reuse) if reuse else None,
                     "interpretation_ok": sum(interp) / len(interp) if interp else None,
                     "seconds": sum(s["seconds"] for s in st) / len(st)})
    return rows


def wilson_interval(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval (95% for ``z=1.96``) of a proportion ``p`` in [0, 1] over ``n`` trials;
    it never leaves [0, 1] and stays sensible for small ``n`` and ``p`` near 0 or 1.

    Used for SR, a mean over ``n`` episodes of per-episode success rates in [0, 1]: such a mean has
    variance at most p(1-p)/n, so the interval is conservative (never narrower than the truth)."""
    p = min(1.0, max(0.0, p))
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _fmt(m, interval, digits=1) -> str:
    """``83.3 [41.2, 97.0]``: the estimate and its 95% interval (``-`` for none)."""
    if m is None:
        return "-"
    if not interval:
        return f"{m:.{digits}f}"
    return f"{m:.{digits}f} [{interval[0]:.{digits}f}, {interval[1]:.{digits}f}]"


def render_markdown(rows: list[dict], manifest: dict | None = None, paired: list[dict] | None = None) -> str:
    """Paper-style table (SR / PS per level, pooled over set sizes) plus details, and the paired
    differences of :func:`actionable.evaluation.paired.paired_differences` when ``paired`` is given."""
    levels = [lv for lv in LEVELS if any(r["level"] == lv for r in rows)]
    agents = sorted({r["agent"] for r in rows}, key=lambda a: (a != "exrap", a))
    pooled = {(r["agent"], r["level"]): r for r in rows if r["n"] == "all"}
    out = ["# Continual instruction following (ExRAP-style benchmark)", ""]
    if manifest and len(manifest.get("commands") or []) > 1:
        out += ["Commands (the run directory was extended; every finished episode is pooled):", ""]
        out += [f"- `{c}`" for c in manifest["commands"]] + [""]
    elif manifest:
        out += [f"Command: `{manifest.get('command', '')}`", ""]
    head = "| agent | " + " | ".join(f"SR {lv} (%) | PS {lv} (steps)" for lv in levels) + " |"
    out += [head, "|" + "---|" * (1 + 2 * len(levels))]
    for a in agents:
        cells = []
        for lv in levels:
            r = pooled.get((a, lv))
            cells += [_fmt(r["sr"], r.get("sr_interval")) if r else "-", _fmt(r["ps"], r.get("ps_interval")) if r else "-"]
        out.append(f"| {a} | " + " | ".join(cells) + " |")
    out += ["", "SR: share of activations (condition true, goal not yet) completed while the condition held, "
            "averaged over episodes (episodes without an activation are left out); the pooled count is in the "
            "'completed / activations' column below. "
            "PS: mean steps from activation to completion (missed activations count their full duration). "
            "[lo, hi] = 95% interval over episodes (seeds x set sizes): Wilson score interval for SR (a proportion; "
            "it stays within 0-100% and is conservative for a mean of per-episode rates), t-interval for PS "
            "cut at 0; with few episodes both are wide. "
            "s/episode: wall time of the episode, model loading excluded, LM response cache on.", "",
            "| agent | level | set size | episodes | completed / activations | SR (%) | PS | LM calls/step | "
            "Eq. 5 reuse | Eq. 6-7 corrections | executions read right | s/episode |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        reuse = "-" if r["reuse_rate"] is None else f"{100 * r['reuse_rate']:.0f}%"
        ok = "-" if r.get("interpretation_ok") is None else f"{100 * r['interpretation_ok']:.0f}%"
        tc = "-" if r.get("inconsistent") is None else str(r["inconsistent"])
        out.append(f"| {r['agent']} | {r['level']} | {r['n']} | {r['episodes']} | "
                   f"{r.get('completed', '-')} / {r['activations']} | "
                   f"{_fmt(r['sr'], r.get('sr_interval'))} | {_fmt(r['ps'], r.get('ps_interval'))} | {r['lm_calls_per_step']:.2f} | "
                   f"{reuse} | {tc} | {ok} | {r['seconds']:.1f} |")
    if paired is not None:
        from actionable.evaluation.paired import render_paired

        out += ["", render_paired(paired).rstrip("\n")]
    return "\n".join(out) + "\n"


def figure(rows: list[dict], path: Path) -> Path:
    """Grouped bars of SR and PS per level (pooled rows), with CI error bars."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pooled = [r for r in rows if r["n"] == "all"]
    levels = [lv for lv in LEVELS if any(r["level"] == lv for r in pooled)]
    agents = sorted({r["agent"] for r in pooled}, key=lambda a: (a != "exrap", a))
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.8 / max(1, len(agents))
    for ax, key, label in ((axes[0], "sr", "SR (%) - higher is better"), (axes[1], "ps", "PS (steps) - lower is better")):
        for j, a in enumerate(agents):
            vals, errs = [], []
            for lv in levels:
                r = next((r for r in pooled if r["agent"] == a and r["level"] == lv), None)
                v = r[key] if r and r[key] is not None else 0.0
                iv = r.get(key + "_interval") if r else None
                vals.append(v)
                # clipped at 0: a Wilson bound of SR 100% can come out 1e-14 below 100 (float rounding)
                errs.append((max(0.0, v - iv[0]), max(0.0, iv[1] - v)) if iv else (0.0, 0.0))
            yerr = [[e[0] for e in errs], [e[1] for e in errs]]  # asymmetric: the interval, not ± a width
            ax.bar([i + j * width for i in range(len(levels))], vals, width, yerr=yerr, label=a, capsize=2)
        ax.set_xticks([i + width * (len(agents) - 1) / 2 for i in range(len(levels))], levels)
        ax.set_title(label)
        ax.set_xlabel("non-stationarity (error bars: 95% interval; Wilson for SR)")
        # CIs over few episodes are wide; keep the axes on the metric's range
        ax.set_ylim(0, 105 if key == "sr" else max([1.0] + [r["ps"] * 1.6 for r in pooled if r["ps"]]
                                                   + [r["ps_interval"][1] * 1.05 for r in pooled
                                                      if r.get("ps_interval")]))
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(agents), 6), fontsize=8, frameon=False)
    fig.tight_layout(rect=(0, 0.08, 1, 1))  # legend below the plots, not over the bars
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def write_continual_report(run_dir: str | Path) -> dict[str, Path]:
    """Write ``summary.md``, ``summary.json``, ``paired.json`` (ExRAP against every other agent on
    the same episodes, :mod:`actionable.evaluation.paired`; an empty list without ExRAP episodes)
    and ``continual.png`` from ``run.jsonl``.

    Raises:
        ConfigError: the run directory holds no finished episode."""
    from actionable.evaluation.paired import paired_differences
    from actionable.evaluation.runner import RunStore

    store = RunStore(run_dir)
    records = store.read()
    rows = summarize(records)
    if not rows:
        raise ConfigError(f"{run_dir} holds no finished continual episodes")
    paired = paired_differences(records, "exrap")
    d = Path(run_dir)
    md = d / "summary.md"
    md.write_text(render_markdown(rows, store.read_manifest(), paired), encoding="utf-8")
    (d / "summary.json").write_text(json.dumps(rows, indent=1), encoding="utf-8")
    (d / "paired.json").write_text(json.dumps(paired, indent=1), encoding="utf-8")
    png = figure(rows, d / "continual.png")
    return {"markdown": md, "json": d / "summary.json", "paired": d / "paired.json", "figure": png}
