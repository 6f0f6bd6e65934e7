"""Reports of a run directory: the paper-layout markdown table and the scatter figure.

Rendering reads ``run.jsonl`` only (no model is loaded), so ``actionable eval
report runs/NAME`` can be repeated at will. Layout follows Huang et al. 2022,
Table 1/2: one row per variant (and model), columns executability, LCS,
goal-condition success, task success, mean plan length and seconds per plan;
Figure 1 of the paper is the executability (x) / correctness (y) scatter, here
with goal-condition success on y.

Aggregation: every metric is the mean over episodes of the row (executability
and task success as percentages; LCS and goal-condition success as
percentages of the [0, 1] scores). Episodes that ended in an error are counted
in ``errors`` and left out of the means.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Mapping

from actionable.core.errors import RunFileError
from actionable.evaluation.metrics import failure_counts, mean

#: Huang et al. 2022, Codex 12B, executability % (Table 1 and the ablation Table 2).
PAPER_CODEX_EXECUTABILITY = {
    "vanilla": 18.07, "full": 78.57, "no-translation": 31.49, "no-dynamic-example": 50.86,
    "no-correction": 55.19, "full-bow": 46.92,
}
_PAPER_NOTE = ("Paper (Huang et al. 2022, Codex 12B) executability: vanilla 18.07, translated (full) "
               "78.57; ablations w/o translation 31.49, w/o dynamic example 50.86, w/o trajectory "
               "correction 55.19; averaged GloVe as translation LM 46.92 (our `full-bow` row uses a "
               "bag-of-words embedder as the stand-in).")


@dataclass
class Row:
    """Aggregated metrics of one (model, variant, query mode) group."""

    model: str
    variant: str
    mode: str
    n: int = 0
    errors: int = 0
    executability: float | None = None
    lcs: float | None = None
    goal_condition_success: float | None = None
    task_success: float | None = None
    goal_condition_success_id: float | None = None
    task_success_id: float | None = None
    plan_length: float | None = None
    seconds_per_plan: float | None = None
    failures: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        return dict(vars(self))


def _pct(x: float | None) -> float | None:
    return None if x is None else 100.0 * x


def summarize(records: Mapping[str, Mapping] | Iterable[Mapping]) -> list[Row]:
    """Aggregate plan-evaluation records (``run.jsonl`` lines) into rows, sorted by
    (mode, model, variant order of appearance in ``VARIANT_TABLE``)."""
    from actionable.evaluation.plan_eval import VARIANT_TABLE

    recs = list(records.values()) if isinstance(records, Mapping) else list(records)
    groups: dict[tuple, list[Mapping]] = {}
    errors: dict[tuple, int] = {}
    for r in recs:
        p = r.get("payload", {})
        key = (p.get("model", "?"), p.get("variant", "?"), p.get("query", {}).get("mode", "?"))
        if r.get("status") != "ok":
            errors[key] = errors.get(key, 0) + 1
            groups.setdefault(key, [])
            continue
        groups.setdefault(key, []).append(r["result"]["metrics"])
    order = {v: i for i, v in enumerate(VARIANT_TABLE)}
    rows = []
    for (model, variant, mode), ms in groups.items():
        rows.append(Row(
            model=model, variant=variant, mode=mode, n=len(ms), errors=errors.get((model, variant, mode), 0),
            executability=_pct(mean(m.get("executability") for m in ms)),
            lcs=_pct(mean(m.get("lcs") for m in ms)),
            goal_condition_success=_pct(mean(m.get("goal_condition_success") for m in ms)),
            task_success=_pct(mean(m.get("task_success") for m in ms)),
            goal_condition_success_id=_pct(mean(m.get("goal_condition_success_id") for m in ms)),
            task_success_id=_pct(mean(m.get("task_success_id") for m in ms)),
            plan_length=mean(m.get("plan_length") for m in ms),
            seconds_per_plan=mean(m.get("seconds_per_plan") for m in ms),
            failures=failure_counts(ms)))
    rows.sort(key=lambda r: (r.mode, r.model, order.get(r.variant, 99), r.variant))
    return rows


def _f(x: float | None, digits: int = 1) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


def render_markdown(rows: list[Row], title: str = "Plan evaluation", manifest: Mapping | None = None) -> str:
    """The paper-layout table(s), one per query mode, plus failure kinds and the paper's numbers."""
    out = [f"# {title}", ""]
    if manifest:
        cmd = manifest.get("command")
        if cmd:
            out += [f"Command: `{cmd}`", ""]
        info = manifest.get("split_summary") or {}
        if info:
            out += [f"Split {info['split']['version']} (seed {info['split']['seed']}): "
                    f"{info['n_heldout_tasks']} held-out tasks, {info['n_bank_tasks']} example-bank "
                    f"tasks; {info['n_queries']} queries over {info['n_goal_programs']} goal programs.", ""]
    for mode in sorted({r.mode for r in rows}):
        out += [f"## Query: {mode}", "",
                "| model | variant | n | executability % | LCS % | goal-cond. success % "
                "| task success % | (strict ids) GCS % / SR % | mean plan length | s/plan | errors |",
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in (r for r in rows if r.mode == mode):
            out.append(f"| {r.model} | {r.variant} | {r.n} | {_f(r.executability)} | {_f(r.lcs)} | "
                       f"{_f(r.goal_condition_success)} | {_f(r.task_success)} | "
                       f"{_f(r.goal_condition_success_id)} / {_f(r.task_success_id)} | "
                       f"{_f(r.plan_length)} | {_f(r.seconds_per_plan, 2)} | {r.errors} |")
        out += ["", "Failure kinds of non-executable plans (count):", ""]
        for r in (r for r in rows if r.mode == mode):
            kinds = ", ".join(f"{k} {v}" for k, v in r.failures.items()) or "none"
            out.append(f"- {r.model} / {r.variant}: {kinds}")
        out.append("")
    out += ["## Paper reference", "", _PAPER_NOTE, "",
            "Goal-condition success counts any instance of an annotated object class (`match=class`); "
            "the strict column requires the annotated node ids. LCS is normalised by the longer "
            "program's length, against the best-matching gold program of the task.", ""]
    return "\n".join(out)


def scatter_png(rows: list[Row], path: str | Path) -> Path:
    """Executability (x) vs goal-condition success (y), one point per (model, variant, mode),
    as in Fig. 1 of Huang et al. 2022. Uses the Agg backend (no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pts = [r for r in rows if r.executability is not None and r.goal_condition_success is not None]
    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=120)
    markers = {"name": "o", "name+description": "s", "custom": "^"}
    placed: list[tuple[float, float]] = []
    for r in pts:
        ax.scatter(r.executability, r.goal_condition_success, marker=markers.get(r.mode, "x"), s=40,
                   color="C0" if r.mode == "name" else "C1" if r.mode == "name+description" else "C2")
        # points that (nearly) coincide get their labels stacked, not printed over each other
        x, y = r.executability, r.goal_condition_success
        k = sum(1 for px, py in placed if abs(px - x) < 4 and abs(py - y) < 4)
        placed.append((x, y))
        ax.annotate(r.variant if len({p.model for p in pts}) == 1 else f"{r.model}/{r.variant}",
                    (r.executability, r.goal_condition_success), fontsize=7,
                    xytext=(4, 3 - 9 * k), textcoords="offset points")
    from matplotlib.lines import Line2D

    modes = sorted({r.mode for r in pts})
    if modes:  # the legend names the markers: one per query form
        ax.legend(handles=[Line2D([], [], linestyle="", marker=markers.get(m, "x"),
                                  color="C0" if m == "name" else "C1" if m == "name+description" else "C2",
                                  label=f"query: {m}") for m in modes],
                  loc="lower right", fontsize=7, frameon=True)
    ax.set_xlim(-2, 102)
    ax.set_ylim(-2, 102)
    ax.set_xlabel("executability (%)")
    ax.set_ylabel("goal-condition success (%)")
    ax.set_title("Executability vs goal-condition success")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p)
    plt.close(fig)
    return p


def write_report(run_dir: str | Path) -> dict[str, Path]:
    """Render ``summary.md`` and ``scatter.png`` (and ``summary.json``) into ``run_dir``.

    Raises:
        RunFileError: no run directory, or no finished episode in it.
    """
    import json

    from actionable.evaluation.runner import RunStore

    store = RunStore(run_dir)
    records = store.read()
    if not records:
        raise RunFileError(f"{store.path} holds no finished episodes; run `actionable eval plan "
                           f"--out {run_dir}` first")
    manifest = store.read_manifest()
    ok = [r for r in records.values() if r.get("status") == "ok"]
    if ok and not all(isinstance(r.get("result"), Mapping) and "metrics" in r["result"] for r in ok):
        raise RunFileError(f"{store.path} is not an `actionable eval plan` run (its records have no plan "
                           "metrics); `eval verify` and `eval continual` write their own summary.md")
    rows = summarize(records)
    md = render_markdown(rows, manifest=manifest)
    d = Path(run_dir)
    (d / "summary.md").write_text(md, encoding="utf-8")
    (d / "summary.json").write_text(json.dumps([r.to_dict() for r in rows], indent=2), encoding="utf-8")
    png = scatter_png(rows, d / "scatter.png")
    return {"summary": d / "summary.md", "json": d / "summary.json", "figure": png}
