"""Plan metrics: executability with failure kinds, normalised LCS, per-action P/R/F1.

Sources:

* Executability and LCS follow Huang et al. 2022 ("Language Models as Zero-Shot
  Planners"), Sec. 4 "Metrics": a plan is *executable* when it parses and every
  step satisfies the simulator's pre-/post-conditions; *LCS* is the longest
  common subsequence of the generated and a human-written program,
  **normalised by the length of the longer of the two** (so 1.0 only for equal
  programs, 0.0 when nothing is shared). The paper compares against the
  human program of the same task; we take the best match over all gold
  programs of the task (:func:`best_lcs`). Steps are compared at class level
  (action + object class names, node ids ignored), so a plan is not penalised
  for binding a different instance.
* Per-action precision / recall / F1 follow the plan-verification evaluation of
  arXiv 2509.02761 (Sec. 4): each flagged action index is a positive.

Failure kinds (:func:`classify_failure`): ``parse`` (a step is not an action),
``empty_plan``, ``unknown_object`` (a class absent from the scene, or an unknown
node id), ``affordance`` (the object cannot undergo the action, e.g. grab a
sofa), ``precondition`` (with a sub-kind: ``not_close``, ``not_holding``,
``not_facing``, ``no_free_hand``, ``sitting``, ``inside_closed``, ``no_path``,
``already_satisfied``, ``other``), and ``other``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from actionable.core.errors import InputError

FAILURE_KINDS = ("parse", "empty_plan", "unknown_object", "affordance", "precondition", "other")

# (regex on the simulator's message, precondition sub-kind)
_PRECOND_PATTERNS: tuple[tuple[re.Pattern, str], ...] = tuple(
    (re.compile(p, re.I), k) for p, k in (
        (r"not close|close to|\bCLOSE\b", "not_close"),
        (r"not facing|\bFACING\b", "not_facing"),
        (r"does not have a free hand|free hand", "no_free_hand"),
        (r"not holding|not grabbed|\bHOLDS", "not_holding"),
        (r"is sitting|is lying|not sitting|SITTING|LYING", "sitting"),
        (r"inside other closed|closed thing|\bOPEN\b", "inside_closed"),
        (r"no path", "no_path"),
        (r"already", "already_satisfied"),
    ))
_AFFORDANCE_RE = re.compile(
    r"is not (grabbable|sittable|person|lieable|drinkable|readable|movable|pourable|eatable|cuttable)"
    r"|can not be|cannot be opened|not (switchable|openable)|has no switch|afford", re.I)
_UNKNOWN_RE = re.compile(r"could not find|cannot be found|unknown (node|object|class)|not in the scene|"
                         r"absent", re.I)
# numeric error types of virtualhome_eval's ExecutionInfo(eval_mode=True)
_NUMERIC_TYPES = {0: "time", 1: "missing", 2: "afford", 3: "unseen", 4: "satisfied", 5: "other"}


@dataclass(frozen=True)
class Failure:
    """Why a plan is not executable: ``kind`` in :data:`FAILURE_KINDS`, and a
    ``subkind`` for preconditions (else ``None``)."""

    kind: str
    subkind: str | None = None

    @property
    def label(self) -> str:
        return self.kind if self.subkind is None else f"{self.kind}:{self.subkind}"


def classify_failure(error_type: object = None, error: str | None = None,
                     unmet_preconditions: Sequence[str] | None = None) -> Failure:
    """Map a simulator / resolver / parser verdict to a :class:`Failure`.

    Args:
        error_type: ``"parse"``, ``"empty_plan"``, ``"resolution"``, ``"unknown_node"``,
            virtualhome_eval's names (``"missing"``, ``"afford"``, ``"unseen"``,
            ``"satisfied"``, ...) or their numeric codes 0-5, or ``None``.
        error: the message (used to refine the kind).
        unmet_preconditions: the simulator's unmet preconditions, as text.

    Returns:
        A :class:`Failure`. Never raises.
    """
    et = _NUMERIC_TYPES.get(error_type, error_type) if isinstance(error_type, int) else error_type
    et = (str(et).lower() if et is not None else "")
    text = " ".join([error or "", *(str(u) for u in (unmet_preconditions or []))])
    if et in ("parse", "parse_error"):
        return Failure("parse")
    if et in ("empty_plan", "empty"):
        return Failure("empty_plan")
    if et in ("resolution", "unknown_node", "unknown_object", "unseen_object") or (
            et in ("unseen", "") and _UNKNOWN_RE.search(text)):
        return Failure("unknown_object")
    if et in ("afford", "affordance") or _AFFORDANCE_RE.search(text):
        return Failure("affordance")
    if et in ("missing", "precondition", "time", "satisfied") or text.strip():
        if et == "satisfied":
            return Failure("precondition", "already_satisfied")
        for rx, sub in _PRECOND_PATTERNS:
            if rx.search(text):
                return Failure("precondition", sub)
        return Failure("precondition", "other") if et in ("missing", "precondition", "time") \
            else Failure("other")
    return Failure("other")


def _step_key(step) -> tuple:
    """Class-level identity of a step: (ACTION, name, ...) from a Step, a dict or a string."""
    if isinstance(step, str):
        return (step.strip().lower(),)
    if isinstance(step, Mapping):
        return (str(step["action"]).upper(), *(str(a[0]).lower() for a in step.get("args", [])))
    action = getattr(step, "action", None)
    if action is None:
        raise InputError(f"cannot compare {type(step).__name__} as a plan step; pass Steps, "
                         "step dicts or action strings")
    return (action.upper(), *(a.name.lower() for a in step.args))


def lcs_length(a: Sequence, b: Sequence) -> int:
    """Length of the longest common subsequence of two sequences of hashable items.
    O(len(a) * len(b)) time, O(len(b)) memory."""
    if not a or not b:
        return 0
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b, 1):
            cur.append(prev[j - 1] + 1 if x == y else max(prev[j], cur[j - 1]))
        prev = cur
    return prev[-1]


def normalized_lcs(pred: Sequence, gold: Sequence) -> float:
    """LCS of two plans divided by the longer plan's length (Huang et al. 2022, Sec. 4).

    Items may be :class:`~actionable.core.program.Step` objects, step dicts
    (``Step.to_dict``) or admissible-action strings; steps compare at class level.
    Returns a float in [0, 1]; 0.0 when both are empty.

    Raises:
        InputError: an item is none of the above.
    """
    pa = [_step_key(s) for s in pred]
    ga = [_step_key(s) for s in gold]
    longest = max(len(pa), len(ga))
    return lcs_length(pa, ga) / longest if longest else 0.0


def best_lcs(pred: Sequence, golds: Iterable[tuple[str, Sequence]]) -> tuple[float, str | None]:
    """Best :func:`normalized_lcs` of ``pred`` over ``(gold_id, gold_steps)`` pairs.

    Returns:
        ``(score, gold_id)``; ``(0.0, None)`` when there are no gold programs.
    """
    best, best_id = 0.0, None
    for gid, g in golds:
        s = normalized_lcs(pred, g)
        if best_id is None or s > best:
            best, best_id = s, gid
    return best, best_id


def prf(tp: int, fp: int, fn: int) -> tuple[float, float, float]:
    """Precision, recall, F1 from confusion counts (arXiv 2509.02761, Sec. 4:
    flagged actions against annotated errors).

    Conventions: with no predictions precision is 0 (1 if there were also no
    positives); with no positives recall is 1; F1 is 0 when both are 0.
    """
    p = tp / (tp + fp) if tp + fp else (1.0 if fn == 0 else 0.0)
    r = tp / (tp + fn) if tp + fn else 1.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f


def precision_recall_f1(predicted: Iterable, actual: Iterable) -> dict:
    """Set-based :func:`prf`; each element is e.g. ``(index, kind)``.

    Returns:
        ``{"precision", "recall", "f1", "tp", "fp", "fn"}``.
    """
    p, a = set(predicted), set(actual)
    tp, fp, fn = len(p & a), len(p - a), len(a - p)
    precision, recall, f1 = prf(tp, fp, fn)
    return {"precision": precision, "recall": recall, "f1": f1, "tp": tp, "fp": fp, "fn": fn}


def mean(xs: Iterable[float | None]) -> float | None:
    """Mean of the non-``None`` values; ``None`` when there are none."""
    vals = [float(x) for x in xs if x is not None]
    return sum(vals) / len(vals) if vals else None


def failure_counts(records: Iterable[Mapping]) -> dict[str, int]:
    """Count ``failure`` labels (``kind`` or ``kind:subkind``) over episode metric dicts
    that have ``executable == False``; returns labels sorted by count."""
    counts: dict[str, int] = {}
    for m in records:
        if m.get("executable") is False:
            lab = m.get("failure") or "other"
            counts[lab] = counts.get(lab, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))
