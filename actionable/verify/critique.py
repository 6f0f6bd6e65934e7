"""Critiques of a plan and a robust parser for a judge LM's free text.

A :class:`Critique` is one verdict of a judge on a plan (arXiv 2509.02761,
Sec. 3 "Judge"): ``REMOVE`` tags an action of the plan as redundant or
contradictory, ``MISSING`` names an action the plan lacks. Indices are
0-based positions in the judged plan; a ``MISSING`` critique's index is the
insertion point (the step goes *before* ``plan[index]``; ``len(plan)`` or
``None`` appends).

:func:`parse_judge_output` turns LM text into critiques. Judge LMs, small ones
especially, write odd formats (``3. [GRAB] <mug> (12) #REMOVE: reason``,
``#REMOVE step 3 - reason``, ``**#MISSING**: walk to sink``), cite indices out
of range, name actions that are not in the plan, answer nothing, or run on for
100 kB. The parser never crashes on such text: it keeps what it can resolve
against the plan and reports the rest as warnings. Only non-text input (a
caller bug) or over-long output in ``strict`` mode raises
:class:`~actionable.core.errors.CritiqueParseError`.

:func:`apply_critiques` is the deterministic planner revision: drop the
REMOVE steps, insert the MISSING steps, keep every other step unchanged (same
surface format, same node ids).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from actionable.core.program import Argument, Program, Step, parse_step
from actionable.core.errors import CritiqueParseError, ProgramParseError

#: Judge output longer than this (characters) is not parsed (see ``parse_judge_output``).
MAX_JUDGE_CHARS = 32_000


class CritiqueKind(str, enum.Enum):
    """The two critique kinds of the Judge (arXiv 2509.02761, Sec. 3)."""

    REMOVE = "REMOVE"
    MISSING = "MISSING"


@dataclass(frozen=True)
class Critique:
    """One judge verdict.

    Attributes:
        kind: ``REMOVE`` (the step at ``index`` is redundant/contradictory) or
            ``MISSING`` (``step`` should be inserted before ``plan[index]``).
        index: 0-based step index in the judged plan (insertion point for
            MISSING; ``None`` = append at the end).
        action: the action as text (script form, e.g. ``[GRAB] <mug> (12)``).
        reason: the judge's justification (may be empty).
        step: the parsed :class:`Step` (the plan's step for REMOVE, the proposed
            step for MISSING).
        source: name of the judge that produced it (``llm``, ``rule``, ``sim``).
    """

    kind: CritiqueKind
    index: int | None
    action: str
    reason: str = ""
    step: Step | None = None
    source: str = ""

    @property
    def key(self) -> tuple:
        """Identity used to decide whether a critique is *new* in a later round:
        kind plus the action's class-level text (ids ignored)."""
        text = self.step.unresolved().to_script() if self.step is not None else self.action.lower()
        return (self.kind.value, text)

    def to_dict(self) -> dict:
        return {"kind": self.kind.value, "index": self.index, "action": self.action,
                "reason": self.reason, "source": self.source,
                "step": self.step.to_dict() if self.step is not None else None}

    @classmethod
    def from_dict(cls, d: dict) -> "Critique":
        step = Step.from_dict(d["step"]) if d.get("step") else None
        return cls(CritiqueKind(d["kind"]), d.get("index"), d.get("action", ""),
                   d.get("reason", ""), step, d.get("source", ""))

    def describe(self) -> str:
        """One human line, 1-based like the judge prompt: ``#REMOVE 3 [GRAB] <mug> (12): reason``."""
        pos = "end" if self.index is None else str(self.index + 1)
        why = f": {self.reason}" if self.reason else ""
        if self.kind is CritiqueKind.REMOVE:
            return f"#REMOVE {pos} {self.action}{why}"
        return f"#MISSING before {pos} {self.action}{why}"


@dataclass(frozen=True)
class ParsedCritiques:
    """Result of :func:`parse_judge_output`: critiques plus parser warnings."""

    critiques: tuple[Critique, ...] = ()
    warnings: tuple[str, ...] = ()


_REMOVE_RE = re.compile(r"#+\s*remove\b|\bREMOVE\b|\bREDUNDANT\b|#+\s*redundant\b")
_MISSING_RE = re.compile(r"#+\s*missing\b|\bMISSING\b|#+\s*add\b")
_LEAD_INDEX_RE = re.compile(r"^\s*(?:[*>]|-(?!\d))*\s*(?:\*\*)?\s*(?:step|action|line)?\s*#?\s*(\d{1,4})\s*(?:[.:)\]\-]|\s)",
                            re.IGNORECASE)
_AFTER_MARK_INDEX_RE = re.compile(r"^\W*(?:step|action|line)?\s*#?\s*(\d{1,4})\b", re.IGNORECASE)
_POS_RE = re.compile(r"\b(before|after|at)\s+(?:step|action|line)?\s*#?\s*(\d{1,4})\b", re.IGNORECASE)
_SCRIPT_IN_TEXT_RE = re.compile(r"\[\s*[A-Za-z_]+\s*\](?:\s*<[^<>]+>\s*(?:\(\s*[0-9.]+\s*\))?)*")
_OK_RE = re.compile(r"\b(OK|KEEP|CORRECT|FINE)\b")


def _clean(s: str) -> str:
    return s.strip().strip("*`\"' ").strip()


def _split_reason(rest: str) -> tuple[str, str]:
    """``'[GRAB] <mug> - reason'`` -> (head, reason); a reason-only rest -> ("", reason)."""
    rest = re.sub(r"^[\s:*#\-\u2013\u2014]*", "", rest)
    lead = re.match(r"^(\[[^\]]*\](?:\s*<[^<>]*>\s*(?:\([0-9.\s]*\))?)*)(.*)$", rest)
    if lead:  # a script-form action first: everything after it is the reason
        return lead.group(1).strip(), _clean(re.sub(r"^[\s:\-\u2013\u2014]*", "", lead.group(2)))
    m = re.search(r"(?:^|\s)(?:[:\-\u2013\u2014]|because|reason:)\s*", rest)
    if m and m.start() == 0:
        return "", _clean(rest[m.end():])
    if m:
        return _clean(rest[:m.start()]), _clean(rest[m.end():])
    return "", _clean(rest)


def _try_step(text: str) -> Step | None:
    text = _clean(text)
    if not text:
        return None
    m = _SCRIPT_IN_TEXT_RE.search(text)
    candidates = [m.group(0)] if m else []
    candidates += [text, re.split(r"[,;(]|\s-\s|:", text)[0]]
    for c in candidates:
        try:
            return parse_step(c.strip().rstrip("."))
        except ProgramParseError:
            continue
    return None


def _same(a: Step, b: Step) -> bool:
    return a.action == b.action and a.names == b.names and all(
        x is None or y is None or x == y for x, y in zip(a.ids, b.ids))


def _match_in_plan(step: Step, plan: Program, near: int | None) -> int | None:
    hits = [i for i, s in enumerate(plan.steps) if _same(s, step)]
    if not hits:
        return None
    if near is None:
        return hits[0]
    return min(hits, key=lambda i: (abs(i - near), i))


def _bind_ids(step: Step, plan: Program) -> Step:
    """Give a class-level MISSING step the node ids the plan already uses for
    the same class names (so the deterministic revision stays resolved)."""
    if step.is_resolved:
        return step
    ids: dict[str, int] = {}
    for s in plan.steps:
        for a in s.args:
            if a.id is not None:
                ids.setdefault(a.name, a.id)
    if not ids:
        return step
    args = tuple(Argument(a.name, a.id if a.id is not None else ids.get(a.name)) for a in step.args)
    return Step(step.action, args)


def parse_judge_output(text: str, plan: Program, *, source: str = "llm",
                       max_chars: int = MAX_JUDGE_CHARS, strict: bool = False) -> ParsedCritiques:
    """Parse a judge LM's answer into critiques of ``plan``.

    Accepted line forms (case-insensitive markers, 1-based step numbers as in
    the judge prompt): ``3. [GRAB] <mug> (12) #REMOVE: reason``, ``#REMOVE 3: reason``,
    ``#REMOVE: [GRAB] <mug> - reason``, ``Step 3 - REMOVE (reason)``,
    ``#MISSING: walk to sink``, ``#MISSING before 4: [WALK] <sink> (5)``.

    Args:
        text: the raw judge output.
        plan: the judged plan (indices and actions are resolved against it).
        source: recorded in :attr:`Critique.source`.
        max_chars: longer output is not parsed (returns no critiques and a warning).
        strict: raise instead of warning on over-long output.

    Returns:
        ParsedCritiques with deduplicated critiques in line order and warnings
        for every line that looked like a critique but could not be used
        (index out of range, action absent from the plan, unparseable action).

    Raises:
        CritiqueParseError: ``text`` is not a str; or it is longer than
            ``max_chars`` and ``strict`` is true.
    """
    if not isinstance(text, str):
        raise CritiqueParseError(f"judge output must be text, got {type(text).__name__}")
    warnings: list[str] = []
    if len(text) > max_chars:
        msg = (f"judge output is {len(text)} characters (limit {max_chars}); not parsed - "
               "lower the judge's max_tokens or raise max_chars")
        if strict:
            raise CritiqueParseError(msg)
        return ParsedCritiques((), (msg,))
    n = len(plan)
    out: list[Critique] = []
    seen: set[tuple] = set()

    def add(c: Critique) -> None:
        k = (c.kind, c.index, c.key)
        if k not in seen:
            seen.add(k)
            out.append(c)

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        rm, ms = _REMOVE_RE.search(line), _MISSING_RE.search(line)
        if ms and (not rm or ms.start() < rm.start()):
            _parse_missing(line, ms, plan, source, add, warnings)
        elif rm:
            _parse_remove(line, rm, plan, n, source, add, warnings)
    return ParsedCritiques(tuple(out), tuple(warnings))


def _parse_remove(line, m, plan, n, source, add, warnings) -> None:
    before, after = line[:m.start()], line[m.end():]
    idx = None
    lead = _LEAD_INDEX_RE.match(before)
    if lead:
        idx = int(lead.group(1)) - 1
    else:
        am = _AFTER_MARK_INDEX_RE.match(after)
        if am:
            idx = int(am.group(1)) - 1
            after = after[am.end():]
    head, reason = _split_reason(after)
    named = _try_step(before) or _try_step(head)
    if named is not None:
        hit = _match_in_plan(named, plan, idx)
        if hit is None:
            warnings.append(f"ignored REMOVE of {named.to_script()}: no such action in the plan "
                            f"({line[:80]!r})")
            return
        idx = hit
    if idx is None:
        warnings.append(f"ignored REMOVE without a step number or action: {line[:80]!r}")
        return
    if not 0 <= idx < n:
        warnings.append(f"ignored REMOVE of step {idx + 1}: the plan has {n} steps ({line[:80]!r})")
        return
    step = plan.steps[idx]
    add(Critique(CritiqueKind.REMOVE, idx, step.to_script(), reason, step, source))


def _parse_missing(line, m, plan, source, add, warnings) -> None:
    after = line[m.end():]
    idx: int | None = None
    pm = _POS_RE.search(after)
    if pm:
        k = int(pm.group(2)) - 1
        idx = k + 1 if pm.group(1).lower() == "after" else k
        after = after[:pm.start()] + " " + after[pm.end():]
    after = re.sub(r"^[\s:*#\-]*(?:step|action)?\s*:?", "", after, flags=re.IGNORECASE)
    head, reason = _split_reason(after)
    step = _try_step(head) or _try_step(after)
    if step is None:
        warnings.append(f"ignored MISSING: could not read an action in {line[:80]!r}; "
                        "write e.g. '#MISSING: [WALK] <sink>' or '#MISSING: walk to sink'")
        return
    if idx is not None and not 0 <= idx <= len(plan):
        warnings.append(f"MISSING position {idx + 1} is outside the plan of {len(plan)} steps; "
                        "appending at the end")
        idx = None
    step = _bind_ids(step, plan)
    add(Critique(CritiqueKind.MISSING, idx, step.to_script(), reason if head else "", step, source))


def apply_critiques(plan: Program, critiques: Iterable[Critique]) -> Program:
    """Deterministic planner revision: remove REMOVE steps, insert MISSING steps.

    Indices refer to ``plan``. MISSING steps with the same insertion point keep
    their critique order; ``index=None`` appends. Steps not critiqued are kept
    unchanged (same format, same ids), as the paper's Planner is asked to do;
    in a class-level plan (no node ids) inserted steps are class-level too, except re-grounded
    ones, which keep the instance they were re-bound to.

    Raises:
        VerifyError subclass CritiqueParseError: a REMOVE index outside the plan.
    """
    crits = list(critiques)
    n = len(plan)
    # a plan of steps without objects ("[SLEEP]") says nothing about ids: inserted steps keep theirs
    class_level = (any(st.args for st in plan.steps)
                   and not any(a.id is not None for st in plan.steps for a in st.args))
    drop: set[int] = set()
    inserts: dict[int, list[Step]] = {}
    for c in crits:
        if c.kind is CritiqueKind.REMOVE:
            if c.index is None or not 0 <= c.index < n:
                raise CritiqueParseError(f"REMOVE critique index {c.index} is outside the plan of "
                                         f"{n} steps")
            drop.add(c.index)
        elif c.step is not None:
            pos = n if c.index is None else max(0, min(n, c.index))
            # a re-grounded step keeps its instance even in a class-level plan: without the id the
            # plan's "milk" resolves to the milk in the trash again (a new user's check, 6 Dec)
            keep = not class_level or (c.reason or "").startswith("re-grounded")
            inserts.setdefault(pos, []).append(c.step if keep else c.step.unresolved())
    steps: list[Step] = []
    for i in range(n + 1):
        for s in inserts.get(i, ()):
            if not steps or steps[-1] != s:
                steps.append(s)
        if i < n and i not in drop:
            steps.append(plan.steps[i])
    return plan.replace_steps(steps)


def critique_keys(critiques: Sequence[Critique]) -> set[tuple]:
    """The set of :attr:`Critique.key` of ``critiques`` (for new-critique tests)."""
    return {c.key for c in critiques}
