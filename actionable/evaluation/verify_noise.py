"""The new labelled plan-verification set (issue 26): cases, loader, simulator facts, label checks.

Written apart from the judges: nothing here (nor in :mod:`verify_noise_kinds`,
:mod:`verify_noise_sources`) imports a judge module; the one import from
:mod:`actionable.verify` is the LCS alignment that labels the TEACh set (rule T1). Labels follow the
procedure in ``benchmarks/data/verify_new/README.md`` (per action, arXiv 2509.02761,
Sec. 4): a step of the case plan is ``valid`` or ``remove``; a step the plan lacks is a
MISSING positive with the index of the plan step it belongs before. Facts come from
VirtualHome's evolving-graph simulator and the annotated goal conditions, checked on the
exact annotated node ids (``check_goals(..., match="id")``).

Every case records its **edits** (``edits``: ``[{"id", "kind"}]``); each positive step
(``edit_ids``) and each missing step (``missing[k]["edit"]``) belongs to one edit, so the
reference plan R and "R with only edit e" can be rebuilt from the case alone
(:func:`plan_with`). :func:`check_case` re-derives every label rule from the simulator.

File ``benchmarks/data/verify_new/cases.jsonl``, one JSON object a line (fields of
:class:`NoiseCase`). Loader: :func:`load_cases`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from actionable.core.errors import InputError

SOURCES = ("gold", "grounded", "translated", "full")
#: edits that insert steps (their steps are REMOVE positives, R + them must stay correct)
INSERT_KINDS = ("side_effect", "posture", "far_twin", "detour", "lm_insert")
#: edits that delete needed steps (MISSING positives)
DELETE_KINDS = ("missing", "missing_prep")
#: edits that make R wrong without inserting or deleting (T3, T4 of the procedure)
CHANGE_KINDS = ("swap", "wrong_instance")
ERROR_KINDS = INSERT_KINDS + DELETE_KINDS + CHANGE_KINDS
CLEAN_KINDS = ("clean_gold", "clean_planner", "prep_needed", "early_pickup", "harmless_swap")
KINDS = ERROR_KINDS + CLEAN_KINDS
SPLIT_SALT = "verify_new:v1:"
#: actions that only move or orient the agent (never "looks-unneeded preparation")
NAVIGATION = frozenset({"WALK", "RUN", "FIND", "TURNTO", "LOOKAT", "LOOKAT_SHORT", "LOOKAT_LONG", "POINTAT"})


class NoiseSetError(InputError):
    """A malformed case file or case record (the message names the file and line)."""


def split_of(program_id: str) -> str:
    """The fixed split of the README, section 8: by program, sha256 parity.

    ``"tune"`` when ``int(sha256("verify_new:v1:" + program_id), 16)`` is even, else ``"report"``."""
    h = int(hashlib.sha256((SPLIT_SALT + program_id).encode()).hexdigest(), 16)
    return "tune" if h % 2 == 0 else "report"


@dataclass(frozen=True)
class NoiseCase:
    """One labelled plan of the set.

    Attributes:
        id: unique, ``<source>-<program id>-<kinds>-<n>``.
        source: one of :data:`SOURCES`; ``program_id`` / ``scene``: the packaged program
            whose initial graph the plan runs in and whose annotated goals hold for R.
        goal: task name and description (what a judge is told).
        plan: script lines with node ids (``[GRAB] <mug> (1001)``).
        labels: one per plan line, ``valid`` or ``remove``; ``reasons``: the edit kind of
            a positive, else ``""``; ``edit_ids``: the edit of a positive, else ``None``.
        missing: ``({"position": i, "step": line, "reason": kind, "edit": id}, ...)``;
            ``position`` is the plan index the step belongs before (``len(plan)``: the end).
        edits: ``({"id", "kind"}, ...)``; ``kinds``: the distinct kinds, in edit order.
        split: ``tune`` | ``report`` (:func:`split_of`).
        reference: R's script lines. ``facts``: what the simulator confirmed (per kind).
        lm: the LM noiser's record (prompt, raw text, rejected lines) or ``None``.
    """

    id: str
    source: str
    program_id: str
    scene: str
    goal: str
    plan: tuple[str, ...]
    labels: tuple[str, ...]
    reasons: tuple[str, ...]
    edit_ids: tuple[int | None, ...]
    missing: tuple[dict, ...]
    edits: tuple[dict, ...]
    kinds: tuple[str, ...]
    split: str
    reference: tuple[str, ...]
    facts: dict = field(default_factory=dict)
    lm: dict | None = None

    @property
    def remove_positives(self) -> set[int]:
        return {i for i, lab in enumerate(self.labels) if lab == "remove"}

    @property
    def is_clean(self) -> bool:
        return not self.remove_positives and not self.missing

    def steps(self):
        """The plan as :class:`~actionable.core.program.Step` objects (with node ids)."""
        return _parse_lines(self.plan)

    def missing_steps(self) -> list[tuple[int, object]]:
        """``[(position, Step)]`` of the missing steps."""
        from actionable.core.program import parse_script_step

        return [(int(m["position"]), parse_script_step(m["step"])) for m in self.missing]

    def to_dict(self) -> dict:
        return {"id": self.id, "source": self.source, "program_id": self.program_id, "scene": self.scene,
                "goal": self.goal, "split": self.split, "kinds": list(self.kinds), "plan": list(self.plan),
                "labels": list(self.labels), "reasons": list(self.reasons), "edit_ids": list(self.edit_ids),
                "missing": [dict(m) for m in self.missing], "edits": [dict(e) for e in self.edits],
                "reference": list(self.reference), "facts": self.facts, "lm": self.lm}

    @classmethod
    def from_dict(cls, d: dict, where: str = "case") -> "NoiseCase":
        """Build from a JSON record; raises :class:`NoiseSetError` naming ``where``."""
        if not isinstance(d, dict):
            raise NoiseSetError(f"{where}: expected a JSON object, got {type(d).__name__}")
        need = ("id", "source", "program_id", "scene", "goal", "plan", "labels", "reasons", "edit_ids",
                "missing", "edits", "kinds", "split", "reference")
        lacking = [k for k in need if k not in d]
        if lacking:
            raise NoiseSetError(f"{where}: missing field(s) {', '.join(lacking)}")
        try:
            case = cls(str(d["id"]), str(d["source"]), str(d["program_id"]), str(d["scene"]), str(d["goal"]),
                       tuple(str(x) for x in d["plan"]), tuple(str(x) for x in d["labels"]),
                       tuple(str(x) for x in d["reasons"]),
                       tuple(None if x is None else int(x) for x in d["edit_ids"]),
                       tuple(dict(m) for m in d["missing"]), tuple(dict(e) for e in d["edits"]),
                       tuple(str(k) for k in d["kinds"]), str(d["split"]), tuple(str(x) for x in d["reference"]),
                       dict(d.get("facts") or {}), d.get("lm"))
        except (TypeError, ValueError) as exc:
            raise NoiseSetError(f"{where}: bad field type ({exc})") from None
        _validate(case, where)
        return case


def _validate(c: NoiseCase, where: str) -> None:
    n = len(c.plan)
    if c.source not in SOURCES:
        raise NoiseSetError(f"{where}: source {c.source!r} is not one of {', '.join(SOURCES)}")
    if not (len(c.labels) == len(c.reasons) == len(c.edit_ids) == n):
        raise NoiseSetError(f"{where}: plan, labels, reasons and edit_ids need one entry per step "
                            f"({n}, {len(c.labels)}, {len(c.reasons)}, {len(c.edit_ids)})")
    if any(lab not in ("valid", "remove") for lab in c.labels):
        raise NoiseSetError(f"{where}: a label is not 'valid' or 'remove'")
    bad = [k for k in c.kinds if k not in KINDS]
    if bad:
        raise NoiseSetError(f"{where}: unknown noise kind(s) {bad}; known: {', '.join(KINDS)}")
    if c.split != split_of(c.program_id):
        raise NoiseSetError(f"{where}: split {c.split!r} disagrees with the fixed rule "
                            f"(split_of({c.program_id!r}) = {split_of(c.program_id)!r})")
    edit_ids = {int(e["id"]) for e in c.edits}
    for i, (lab, eid) in enumerate(zip(c.labels, c.edit_ids)):
        if (lab == "remove") != (eid is not None) or (eid is not None and eid not in edit_ids):
            raise NoiseSetError(f"{where}: step {i} has label {lab!r} but edit id {eid!r}")
    for m in c.missing:
        if not {"position", "step", "reason", "edit"} <= set(m) or not 0 <= int(m["position"]) <= n:
            raise NoiseSetError(f"{where}: bad missing entry {m!r} (need position 0..{n}, step, reason, edit)")
    try:
        _parse_lines(c.plan)
        _parse_lines(c.reference)
        _parse_lines([m["step"] for m in c.missing])
    except InputError as exc:
        raise NoiseSetError(f"{where}: {exc}") from None


def _parse_lines(lines: Iterable[str]):
    from actionable.core.program import parse_script_step
    from actionable.core.errors import ProgramParseError

    out = []
    for k, line in enumerate(lines):
        try:
            s = parse_script_step(line)
        except ProgramParseError as exc:
            raise InputError(f"plan line {k} {line!r} is not a script step ({exc})") from None
        if not s.is_resolved:
            raise InputError(f"plan line {k} {line!r} has no node id")
        out.append(s)
    return out


def default_path() -> Path:
    """``benchmarks/data/verify_new/cases.jsonl`` of the source checkout."""
    return Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "verify_new" / "cases.jsonl"


def load_cases(path: str | Path | None = None, split: str | None = None) -> list[NoiseCase]:
    """Read the set (``split``: ``tune``, ``report`` or ``None`` for all).

    Raises:
        NoiseSetError: a missing file, a line that is not JSON or not a valid case
            (the message names ``file:line``), a duplicate id, or a bad ``split``.
    """
    if split not in (None, "tune", "report"):
        raise NoiseSetError(f"split must be 'tune' or 'report' (got {split!r})")
    p = Path(path) if path is not None else default_path()
    if not p.is_file():
        raise NoiseSetError(f"case file {p} does not exist; build it with "
                            "`python -m actionable.evaluation.verify_noise_sources build`")
    out: list[NoiseCase] = []
    seen: set[str] = set()
    for n, raw in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip():
            continue
        try:
            d = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise NoiseSetError(f"{p}:{n}: not JSON ({exc.msg})") from None
        c = NoiseCase.from_dict(d, f"{p}:{n}")
        if c.id in seen:
            raise NoiseSetError(f"{p}:{n}: duplicate case id {c.id!r}")
        seen.add(c.id)
        out.append(c)
    return [c for c in out if split is None or c.split == split]


def write_cases(cases: Sequence[NoiseCase], path: str | Path) -> None:
    """One JSON object a line (sorted keys, so regenerating gives the same bytes)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text("".join(json.dumps(c.to_dict(), sort_keys=True) + "\n" for c in cases),
                          encoding="utf-8")


def summary_markdown(cases: Sequence[NoiseCase]) -> str:
    """Counts of a set by noise kind, source and split (README tables); positives summed."""
    def row(name, cs):
        t = [c for c in cs if c.split == "tune"]
        pos = sum(len(c.remove_positives) + len(c.missing) for c in cs)
        return f"| {name} | {len(cs)} | {len(t)} | {len(cs) - len(t)} | {pos} |"

    head = "| {} | cases | tune | report | positives (REMOVE + MISSING) |\n|---|---|---|---|---|"
    out = [head.format("noise kind (a two-kind case counts under both)")]
    for k in KINDS:
        cs = [c for c in cases if k in c.kinds]
        if cs:
            out.append(row(k, cs))
    out.append(row("cases with two kinds", [c for c in cases if len(c.kinds) > 1]))
    out += ["", head.format("source")]
    for s in SOURCES:
        out.append(row(s, [c for c in cases if c.source == s]))
    out.append(row("**all**", list(cases)))
    rm = sum(len(c.remove_positives) for c in cases)
    mi = sum(len(c.missing) for c in cases)
    steps = sum(len(c.plan) for c in cases)
    out += ["", f"{steps} plan steps, {rm} REMOVE positives, {mi} MISSING positives, "
                f"{sum(c.is_clean for c in cases)} clean cases, {len({c.program_id for c in cases})} programs."]
    return "\n".join(out) + "\n"


# --- facts from the simulator -----------------------------------------------------------
@dataclass(frozen=True)
class Outcome:
    """``executes``; ``failed``: index of the first failing step; ``met``: descriptions of the
    annotated goals that hold after the executed steps (exact node ids); ``total`` goals."""

    executes: bool
    failed: int | None
    met: frozenset
    total: int

    @property
    def correct(self) -> bool:
        return self.executes and len(self.met) == self.total


class PlanFacts:
    """Executability and exact-id goal checks of plans in one program's scene (memoised).

    Args:
        program_id: a goal-annotated packaged program (its initial graph and goals).
        spec: its :class:`~actionable.core.goals.GoalSpec` (loaded when ``None``).

    Raises:
        NoiseSetError: the program has no goal annotation.
    """

    def __init__(self, program_id: str, spec=None):
        from actionable.evaluation.datasets import goal_annotations, scene_graph
        from actionable.verify.replay import graph_replay

        if spec is None:
            spec = goal_annotations().get(program_id)
        if spec is None:
            raise NoiseSetError(f"program {program_id!r} has no goal annotation; use one of the 342")
        self.program_id, self.spec = program_id, spec
        self.replay = graph_replay()
        self.scene = scene_graph(program_id)
        self.sim = self.replay.simulator()
        self._memo: dict[tuple[str, ...], Outcome] = {}
        self.goal_ids = {g.node_id for g in spec.states} | {x for g in spec.relations for x in (g.from_id, g.to_id)}
        self.goal_actions = {a for g in spec.actions for a in g.alternatives}

    def outcome(self, steps) -> Outcome:
        """Run ``steps`` (Steps with ids) from the initial scene. Cost: one replay (~10 ms)."""
        from actionable.core.errors import SimulatorError
        from actionable.core.goals import check_goals

        steps = list(steps)
        key = tuple(s.to_script() for s in steps)
        if key not in self._memo:
            try:
                r = self.replay.replay(steps, self.scene, sim=self.sim)
                if r.error_type == "unknown_node":
                    raise KeyError(r.error)
                ran = steps if r.executable else steps[: r.failed_index]
                g = check_goals(self.spec, r.final_graph, ran, match="id")
                met = frozenset(x.describe() for x in (*self.spec.states, *self.spec.relations, *self.spec.actions)
                                if x.describe() not in set(g.unmet))
                self._memo[key] = Outcome(r.executable, r.failed_index, met, g.total)
            except (SimulatorError, KeyError) as exc:  # unknown node id: the plan cannot run
                raise NoiseSetError(f"plan for {self.program_id} does not run: {exc}") from None
        return self._memo[key]

    def correct(self, steps) -> bool:
        return self.outcome(steps).correct

    def object_state(self, steps) -> frozenset:
        """Final node states and edges not touching the character, after ``steps``."""
        g = self.replay.replay(list(steps), self.scene, sim=self.sim).final_graph
        ch = self.scene.character_id
        return frozenset([(n["id"], tuple(sorted(n.get("states", [])))) for n in g["nodes"]]
                         + [(e["from_id"], e["relation_type"], e["to_id"]) for e in g["edges"]
                            if ch not in (e["from_id"], e["to_id"])])

    def own_redundancy(self, steps, max_block: int = 4) -> str | None:
        """A block of at most ``max_block`` consecutive steps, not all navigation, whose
        removal leaves the plan correct and its final object state unchanged (README
        section 1: such a planner plan is not used as a reference); ``None`` when none."""
        steps = list(steps)
        want = self.object_state(steps)
        for k in range(1, max_block + 1):
            for i in range(len(steps) - k + 1):
                block = steps[i:i + k]
                if all(s.action in NAVIGATION for s in block):
                    continue
                rest = steps[:i] + steps[i + k:]
                if self.correct(rest) and self.object_state(rest) == want:
                    return f"steps {i}..{i + k - 1} ({', '.join(s.to_script() for s in block)})"
        return None


# --- rebuilding plans from a case's edits -----------------------------------------------
def plan_with(case: NoiseCase, keep: Iterable[int]) -> list[str]:
    """The plan with the edits in ``keep`` applied and every other edit undone:
    ``plan_with(c, ())`` is R, ``plan_with(c, all edit ids)`` is the case plan."""
    keep = set(keep)
    out: list[str] = []
    for i in range(len(case.plan) + 1):
        out += [m["step"] for m in case.missing if int(m["position"]) == i and int(m["edit"]) not in keep]
        if i < len(case.plan) and (case.edit_ids[i] is None or case.edit_ids[i] in keep):
            out.append(case.plan[i])
    return out


def t1_alignment(ref: Sequence[str], plan: Sequence[str]) -> list[tuple[int, int]]:
    """Rule T1: longest common subsequence of lines as ``[(i_ref, j_plan)]``; among equally
    long alignments each ``ref[i]`` takes the earliest ``plan[j]`` that keeps it longest (the
    alignment that labels the TEACh set, :func:`actionable.evaluation.verification.teach.align`: a data
    helper, no judge)."""
    from actionable.core.teach_lines import align

    return align(list(ref), list(plan))


def _lines(xs) -> list:
    return _parse_lines(xs)


def looks_unneeded(step, facts: PlanFacts) -> bool:
    """README section 4: no goal condition names its objects, its action is no action goal,
    and it is not navigation."""
    return (step.action not in NAVIGATION and step.action not in facts.goal_actions
            and not any(a.id in facts.goal_ids for a in step.args))


def check_case(case: NoiseCase, facts: PlanFacts | None = None) -> list[str]:
    """Re-derive the labels of ``case`` from the simulator (README sections 2-7).

    Returns the list of violations (empty: every rule holds). Checks: R is correct; the
    edits undone give R; each insertion on its own, and all together, keep R correct; each
    deleted step is needed on its own; each swap / wrong-instance edit on its own makes R
    wrong; a case with deletions or changes is wrong and no insertion stands in for them;
    insertion-and-deletion cases agree with the T1 alignment; clean cases are correct
    re-orderings of R; ``prep_needed`` steps are needed and look unneeded.
    """
    f = facts or PlanFacts(case.program_id)
    probs: list[str] = []
    ref = _lines(case.reference)
    if not f.correct(ref):
        probs.append("reference is not correct (does not execute or misses an annotated goal)")
    if not case.is_clean and plan_with(case, ()) != list(case.reference):
        probs.append("undoing every edit does not give the reference")
    kinds = {int(e["id"]): e["kind"] for e in case.edits}
    ins = [e for e, k in kinds.items() if k in INSERT_KINDS]
    dele = [e for e, k in kinds.items() if k in DELETE_KINDS]
    chg = [e for e, k in kinds.items() if k in CHANGE_KINDS]
    for e in ins:
        if not f.correct(_lines(plan_with(case, [e]))):
            probs.append(f"insertion {e} ({kinds[e]}) is needed or breaks the plan")
        if not any(eid == e for eid in case.edit_ids):
            probs.append(f"insertion {e} has no step")
    if len(ins) > 1 and not f.correct(_lines(plan_with(case, ins))):
        probs.append("the insertions together break the plan")
    for m in case.missing:
        if kinds.get(int(m["edit"])) in DELETE_KINDS:
            idx = _ref_index_of_missing(case, m)
            without = [s for k, s in enumerate(case.reference) if k != idx]
            if f.correct(_lines(without)):
                probs.append(f"deleted step {m['step']} is not needed")
    for e in chg:
        if f.correct(_lines(plan_with(case, [e]))):
            probs.append(f"edit {e} ({kinds[e]}) leaves the plan correct")
    if dele or chg:
        full = f.outcome(case.steps())
        base = f.outcome(_lines(plan_with(case, dele + chg)))
        if full.correct:
            probs.append("the case plan is correct although it has deletions or changes")
        if len(full.met) > len(base.met) or (full.executes and not base.executes):
            probs.append("an insertion stands in for a deleted or changed step")
    if not chg and (ins or dele):
        al = t1_alignment(case.reference, case.plan)
        if {j for _, j in al} != {j for j in range(len(case.plan)) if case.labels[j] == "valid"}:
            probs.append("labels disagree with the T1 alignment")
    if case.is_clean:
        if not f.correct(case.steps()):
            probs.append("clean plan is not correct")
        if sorted(case.plan) != sorted(case.reference):
            probs.append("clean plan is not a re-ordering of the reference")
    for i in case.facts.get("needed_prep", []):
        st = case.steps()
        if not looks_unneeded(st[i], f) or f.correct(st[:i] + st[i + 1:]):
            probs.append(f"prep step {i} is not a needed, unneeded-looking preparation")
    return probs


def _ref_index_of_missing(case: NoiseCase, m: dict) -> int:
    """Index in R of missing entry ``m`` (R = :func:`plan_with` with no edit)."""
    k = 0
    for i in range(len(case.plan) + 1):
        for mm in case.missing:
            if int(mm["position"]) == i:
                if mm is m:
                    return k
                k += 1
        if i < len(case.plan) and case.edit_ids[i] is None:
            k += 1
    raise NoiseSetError(f"case {case.id}: missing entry {m!r} not found")


__all__ = ["SOURCES", "KINDS", "ERROR_KINDS", "CLEAN_KINDS", "INSERT_KINDS", "DELETE_KINDS", "CHANGE_KINDS",
           "NoiseCase", "NoiseSetError", "Outcome", "PlanFacts", "check_case", "default_path", "load_cases",
           "looks_unneeded", "plan_with", "split_of", "summary_markdown", "t1_alignment", "write_cases"]
