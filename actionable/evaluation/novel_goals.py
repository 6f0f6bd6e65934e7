"""Novel everyday tasks with expected goals (issue 24): load, check, score.

The data is ``benchmarks/data/novel_goals.jsonl``; its README (``novel_goals.md``) gives the
schema, the labelling procedure and the fixed tune/report split. This module is independent of
every planner and goal interpreter (it imports neither ``actionable.planning`` nor
``actionable.verify``) and of the world packages (states are read through
:mod:`actionable.evaluation.goal_states`).

    load_novel_goals(path=None, split=None) -> list[NovelTask]
    check(task, final_state) -> CheckResult            # per-condition met / unmet
    verdict(task, PlanOutcome(kind, final_state)) -> Verdict
    score(verdicts) -> dict                            # counts and the share of claims that are right
    scene_problems(task, initial_state) -> list[str]   # data validation against the real scene

Quantifiers: ``all`` (every object of the set; an empty set is unmet), ``any`` (at least one),
the instance (``{"id": ...}``). Verdicts: a plan that claims done (it ran, or said "nothing to do")
is right when the conditions hold in its final state and the task is a ``goal`` or
``nothing_to_do``; a refusal is right for ``refuse``; "cannot tell" is right for
``unclear_intent``. Any other claim of done is ``wrong_done`` (counted separately).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from actionable.core.errors import InputError
from actionable.evaluation.goal_states import AGENT, VOCABULARIES, view_of, vocabulary

DATA_FILE = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "novel_goals.jsonl"
#: the held-out set B (``novel_goals_b.md``): same schema and split rule, written without running a planner
DATA_FILE_B = DATA_FILE.with_name("novel_goals_b.jsonl")
#: the held-out set C (``novel_goals_c.md``): same schema and split rule, written without running a planner
DATA_FILE_C = DATA_FILE.with_name("novel_goals_c.jsonl")
#: the held-out set D (``novel_goals_d.md``): same schema and split rule, written without running a planner
DATA_FILE_D = DATA_FILE.with_name("novel_goals_d.jsonl")
#: the held-out set E (``novel_goals_e.md``): same schema and split rule, written without running a planner
DATA_FILE_E = DATA_FILE.with_name("novel_goals_e.jsonl")
#: the held-out set F (``novel_goals_f.md``): same schema and split rule, written without running a planner
DATA_FILE_F = DATA_FILE.with_name("novel_goals_f.jsonl")
#: the held-out set G (``novel_goals_g.md``): same schema and split rule, written without running a planner
DATA_FILE_G = DATA_FILE.with_name("novel_goals_g.jsonl")
#: the held-out set H (``novel_goals_h.md``): same schema and split rule, written without running a planner
DATA_FILE_H = DATA_FILE.with_name("novel_goals_h.jsonl")
WORLDS = tuple(VOCABULARIES)
EXPECTED = ("goal", "nothing_to_do", "refuse", "unclear_intent")
CATEGORIES = ("quantifier", "in_vs_on", "named_instance", "conjunction", "posture_holding", "already_true",
              "impossible", "intent", "modifier")
OutcomeKind = Literal["done", "nothing_to_do", "refused", "cannot_tell", "failed"]
OUTCOMES = ("done", "nothing_to_do", "refused", "cannot_tell", "failed")
_KEYS = {"id", "world", "scene", "instruction", "category", "expected", "conditions", "reason", "note",
         "reference_plan"}


class NovelGoalsError(InputError):
    """A malformed task file or task record (the message names the line and the field)."""


def split_of(task_id: str) -> str:
    """``"tune"`` when ``int(sha256(id), 16)`` is even, else ``"report"`` (the README's fixed rule)."""
    return "tune" if int(hashlib.sha256(task_id.encode("utf-8")).hexdigest(), 16) % 2 == 0 else "report"


@dataclass(frozen=True)
class NovelTask:
    """One task of the file (fields as in the README's schema; ``line`` is 1-based)."""

    id: str
    world: str
    scene: str
    instruction: str
    category: str
    expected: str
    conditions: tuple = ()
    reason: str = ""
    note: str = ""
    reference_plan: tuple = ()
    line: int = 0

    @property
    def split(self) -> str:
        return split_of(self.id)


# ------------------------------------------------------------------ validation
def _fail(where: str, msg: str):
    raise NovelGoalsError(f"{where}: {msg}")


def _selector(sel: Any, world: str, where: str, subject: bool) -> None:
    if not isinstance(sel, dict):
        _fail(where, f"a selector is an object ({{'id': ...}}, {{'ids': [...], 'quantifier': ...}}, "
                     f"{{'class': ..., 'quantifier': ...}} or {{'character': true}}), got {sel!r}")
    kinds = [k for k in ("id", "ids", "class", "character") if k in sel]
    if len(kinds) != 1:
        _fail(where, f"a selector has exactly one of id / ids / class / character, got keys {sorted(sel)}")
    k = kinds[0]
    allowed = {"id": {"id"}, "ids": {"ids", "quantifier"}, "character": {"character"},
               "class": {"class", "quantifier", "room", "where"}}[k]
    if set(sel) - allowed:
        _fail(where, f"unknown selector keys {sorted(set(sel) - allowed)} for a {k!r} selector")
    voc = vocabulary(world)
    idtype = voc.id_type
    if k == "id" and (not isinstance(sel["id"], idtype) or isinstance(sel["id"], bool)):
        _fail(where, f"'id' must be a {idtype.__name__} in world {world!r}, got {sel['id']!r}")
    if k == "ids" and (not isinstance(sel["ids"], list) or not sel["ids"]
                       or not all(isinstance(x, idtype) and not isinstance(x, bool) for x in sel["ids"])):
        _fail(where, f"'ids' must be a non-empty list of {idtype.__name__} ids, got {sel['ids']!r}")
    if k in ("ids", "class") and sel.get("quantifier") not in ("all", "any"):
        _fail(where, f"'quantifier' must be 'all' or 'any', got {sel.get('quantifier')!r}")
    if k == "class" and (not isinstance(sel["class"], str) or not sel["class"]):
        _fail(where, f"'class' must be a class name, got {sel['class']!r}")
    if k == "character" and (sel["character"] is not True or not subject):
        _fail(where, "{'character': true} may only be a subject")
    if "room" in sel and (not voc.rooms or not isinstance(sel["room"], str)):
        _fail(where, "'room' is a VirtualHome room name (bathroom, bedroom, dining_room, home_office)")
    if not isinstance(sel.get("where", []), list):
        _fail(where, "'where' is a list of conditions without 'subject'")
    for j, c in enumerate(sel.get("where", ())):
        if not isinstance(c, dict) or "subject" in c:
            _fail(where, "'where' is a list of conditions without 'subject'")
        _condition({**c, "subject": {"id": voc.example_id}}, world, f"{where}.where[{j}]")


def _condition(c: Any, world: str, where: str) -> None:
    if not isinstance(c, dict):
        _fail(where, f"a condition is an object, got {c!r}")
    for key in ("any_of", "all_of"):
        if key in c:
            if set(c) != {key} or not isinstance(c[key], list) or not c[key]:
                _fail(where, f"'{key}' is the only key and holds a non-empty list of conditions")
            for j, sub in enumerate(c[key]):
                _condition(sub, world, f"{where}.{key}[{j}]")
            return
    voc = vocabulary(world)
    states, rels = voc.states, voc.relations
    if "subject" not in c:
        _fail(where, "a condition needs 'subject' (or is an any_of / all_of)")
    _selector(c["subject"], world, f"{where}.subject", subject=True)
    if "negate" in c and not isinstance(c["negate"], bool):
        _fail(where, "'negate' must be true or false")
    if "state" in c:
        if set(c) - {"subject", "state", "negate"}:
            _fail(where, f"unknown keys {sorted(set(c) - {'subject', 'state', 'negate'})} in a state condition")
        if c["state"] not in states:
            _fail(where, f"unknown {world} state {c['state']!r}; use one of {', '.join(sorted(states))}")
    elif "relation" in c:
        if set(c) - {"subject", "relation", "target", "negate"} or "target" not in c:
            _fail(where, "a relation condition has subject, relation, target (and optional negate)")
        if c["relation"] not in rels:
            _fail(where, f"unknown {world} relation {c['relation']!r}; use one of {', '.join(sorted(rels))}")
        _selector(c["target"], world, f"{where}.target", subject=False)
    else:
        _fail(where, "a condition has 'state' or 'relation'")


def parse_task(obj: Any, line: int = 0, source: str = "<record>") -> NovelTask:
    """Validate one record and build a :class:`NovelTask`.

    Raises:
        NovelGoalsError: naming ``source:line`` and the field that is wrong.
    """
    where = f"{source}:{line}"
    if not isinstance(obj, dict):
        _fail(where, f"a task is a JSON object, got {type(obj).__name__}")
    if set(obj) - _KEYS:
        _fail(where, f"unknown fields {sorted(set(obj) - _KEYS)}; allowed: {', '.join(sorted(_KEYS))}")
    for k in ("id", "world", "scene", "instruction", "category", "expected"):
        if not isinstance(obj.get(k), str) or not obj[k].strip():
            _fail(where, f"field {k!r} is required and must be a non-empty string")
    where = f"{where} ({obj['id']})"
    if obj["world"] not in WORLDS:
        _fail(where, f"world must be one of {WORLDS}, got {obj['world']!r}")
    if obj["expected"] not in EXPECTED:
        _fail(where, f"expected must be one of {EXPECTED}, got {obj['expected']!r}")
    if obj["category"] not in CATEGORIES:
        _fail(where, f"category must be one of {CATEGORIES}, got {obj['category']!r}")
    conds = obj.get("conditions", [])
    if not isinstance(conds, list):
        _fail(where, "'conditions' must be a list")
    if obj["expected"] in ("goal", "nothing_to_do") and not conds:
        _fail(where, f"an {obj['expected']!r} task needs at least one condition")
    if obj["expected"] in ("refuse", "unclear_intent") and conds:
        _fail(where, f"a {obj['expected']!r} task has no conditions (nothing is to be checked)")
    if obj["expected"] == "refuse" and not str(obj.get("reason", "")).strip():
        _fail(where, "a 'refuse' task needs a 'reason'")
    for j, c in enumerate(conds):
        _condition(c, obj["world"], f"{where} conditions[{j}]")
    plan = obj.get("reference_plan", [])
    if not isinstance(plan, list) or not all(isinstance(s, str) and s.strip() for s in plan):
        _fail(where, "'reference_plan' must be a list of non-empty action lines")
    for k in ("reason", "note"):
        if k in obj and not isinstance(obj[k], str):
            _fail(where, f"{k!r} must be a string")
    return NovelTask(obj["id"], obj["world"], obj["scene"], obj["instruction"], obj["category"], obj["expected"],
                     tuple(conds), obj.get("reason", ""), obj.get("note", ""), tuple(plan), line)


def load_novel_goals(path: str | Path | None = None, split: str | None = None) -> list[NovelTask]:
    """Load and validate the task file (``None``: the packaged ``benchmarks/data/novel_goals.jsonl``).

    Args:
        split: ``None`` (all), ``"tune"`` or ``"report"``.

    Raises:
        NovelGoalsError: missing file, a line that is not JSON, a malformed record, a repeated id
            (each message names the line), or an unknown split.
    """
    if split not in (None, "tune", "report"):
        raise NovelGoalsError(f"split must be None, 'tune' or 'report', got {split!r}")
    p = Path(path) if path is not None else DATA_FILE
    try:
        text = p.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        raise NovelGoalsError(f"{p}: no such task file; pass the path of a novel_goals JSONL file") from None
    out, seen = [], {}
    for n, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise NovelGoalsError(f"{p}:{n}: not JSON ({exc.msg} at column {exc.colno})") from None
        t = parse_task(obj, n, str(p))
        if t.id in seen:
            raise NovelGoalsError(f"{p}:{n}: id {t.id!r} repeats line {seen[t.id]}")
        seen[t.id] = n
        out.append(t)
    return [t for t in out if split is None or t.split == split]


# ------------------------------------------------------------------ checking
@dataclass(frozen=True)
class ConditionResult:
    """One top-level condition: its text, whether it holds and, when not, why."""

    condition: str
    met: bool
    detail: str = ""


@dataclass(frozen=True)
class CheckResult:
    """``results`` per condition; ``success`` when every one is met (False for a task with none)."""

    task_id: str
    results: tuple = ()

    @property
    def met(self) -> int:
        return sum(r.met for r in self.results)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def success(self) -> bool:
        return bool(self.results) and self.met == self.total

    def unmet(self) -> list[str]:
        return [f"{r.condition}: {r.detail}" for r in self.results if not r.met]

    def to_dict(self) -> dict:
        return {"task_id": self.task_id, "met": self.met, "total": self.total, "success": self.success,
                "conditions": [{"condition": r.condition, "met": r.met, "detail": r.detail} for r in self.results]}


def describe(c: dict) -> str:
    """A condition as text: ``all light: OFF``, ``any novel INSIDE any bookshelf``."""
    if "any_of" in c or "all_of" in c:
        k = "any_of" if "any_of" in c else "all_of"
        return f"{k}(" + "; ".join(describe(x) for x in c[k]) + ")"
    neg = "not " if c.get("negate") else ""
    if "state" in c:
        return f"{_sel_text(c['subject'])}: {neg}{c['state']}"
    return f"{_sel_text(c['subject'])} {neg}{c['relation']} {_sel_text(c['target'])}"


def _sel_text(s: dict) -> str:
    if "character" in s:
        return "character"
    if "id" in s:
        return str(s["id"])
    base = f"{s['quantifier']} {s['class']}" if "class" in s else f"{s['quantifier']} of {s['ids']}"
    if s.get("room"):
        base += f" in {s['room']}"
    if s.get("where"):
        base += " where " + ", ".join(describe({**w, "subject": {"character": True}}).replace("character", "it", 1)
                                       for w in s["where"])
    return base


def _members(sel: dict, v) -> tuple[list, str]:
    """(ids, quantifier) of a selector in view ``v`` (absent ids are kept: they fail)."""
    if "character" in sel:
        return [v.character()], "the"
    if "id" in sel:
        return [sel["id"]], "the"
    if "ids" in sel:
        return list(sel["ids"]), sel["quantifier"]
    ids = v.ids_of_class(sel["class"])
    if sel.get("room"):
        ids = [i for i in ids if v.room_of(i) == sel["room"]]
    for w in sel.get("where", ()):
        ids = [i for i in ids if _holds({**w, "subject": {"id": i}}, v)[0]]
    return ids, sel["quantifier"]


def _one(s, c: dict, v) -> bool:
    """The state / relation of ``c`` for one subject ``s`` (before negation)."""
    if "state" in c:
        return s != AGENT and c["state"] in v.states(s)
    targets, tq = _members(c["target"], v)
    targets = [t for t in targets if v.has(t)]
    if not targets:
        return False
    hits = [v.related(s, c["relation"], t) for t in targets]
    return all(hits) if tq == "all" else any(hits)


def _holds(c: dict, v) -> tuple[bool, str]:
    if "any_of" in c:
        res = [_holds(x, v) for x in c["any_of"]]
        return any(r for r, _ in res), "none of the alternatives holds: " + "; ".join(d for _, d in res)
    if "all_of" in c:
        res = [_holds(x, v) for x in c["all_of"]]
        return all(r for r, _ in res), "; ".join(d for r, d in res if not r)
    subs, q = _members(c["subject"], v)
    if not subs:
        what = c["subject"].get("class", _sel_text(c["subject"]))
        return False, f"no {what}{' in ' + c['subject']['room'] if c['subject'].get('room') else ''} in the state"
    missing = [s for s in subs if s is None or (s != AGENT and not v.has(s))]
    if missing:
        return False, f"no object {missing[0]!r} in the state"
    neg = bool(c.get("negate"))
    ok = [_one(s, c, v) != neg for s in subs]
    good = all(ok) if q in ("all", "the") else any(ok)
    if good:
        return True, ""
    bad = [s for s, o in zip(subs, ok) if not o]

    def why(s) -> str:
        if "state" in c:
            return f"{v.name(s) if s != AGENT else 'the agent'} has states {sorted(v.states(s)) if s != AGENT else []}"
        return f"{v.name(s) if s != AGENT else 'the agent'} is {'' if neg else 'not '}{c['relation']} {_sel_text(c['target'])}"

    return False, ("none holds: " if q == "any" else "") + "; ".join(why(s) for s in bad[:3]) + \
        (f" (+{len(bad) - 3} more)" if len(bad) > 3 else "")


def check(task: NovelTask, final_state: Any) -> CheckResult:
    """Check every condition of ``task`` on ``final_state`` (VirtualHome: a graph dict or an object
    with ``to_dict()``; THOR: a ``ThorState``). Cost: O(conditions x objects).

    Raises:
        InputError: a state of the wrong shape for the task's world.
    """
    v = view_of(task.world, final_state)
    return CheckResult(task.id, tuple(ConditionResult(describe(c), *_holds(c, v)) for c in task.conditions))


# ------------------------------------------------------------------ verdicts
@dataclass(frozen=True)
class PlanOutcome:
    """What a planner said: ``kind`` is ``done`` (a plan that ran; ``final_state`` after it),
    ``nothing_to_do`` (an empty plan claimed as done; ``final_state`` = the initial state),
    ``refused``, ``cannot_tell`` (it cannot tell what end state is meant) or ``failed`` (no
    executable plan and no claim)."""

    kind: str
    final_state: Any = field(default=None, repr=False, compare=False)
    reason: str = ""

    def __post_init__(self):
        if self.kind not in OUTCOMES:
            raise InputError(f"PlanOutcome kind must be one of {OUTCOMES}, got {self.kind!r}")
        if self.kind in ("done", "nothing_to_do") and self.final_state is None:
            raise InputError(f"a {self.kind!r} outcome needs the final_state to check")


@dataclass(frozen=True)
class Verdict:
    """``label``: right ones ``met``, ``nothing_to_do``, ``refused``, ``cannot_tell``; wrong ones
    ``wrong_done`` (claimed done, not right), ``wrong_refused``, ``wrong_cannot_tell``, ``failed``."""

    task_id: str
    expected: str
    outcome: str
    label: str
    right: bool
    claims_done: bool
    check: CheckResult | None = None
    detail: str = ""

    def to_dict(self) -> dict:
        return {"task_id": self.task_id, "expected": self.expected, "outcome": self.outcome, "label": self.label,
                "right": self.right, "claims_done": self.claims_done, "detail": self.detail,
                "check": self.check.to_dict() if self.check else None}


def verdict(task: NovelTask, outcome: PlanOutcome) -> Verdict:
    """Score a planner's outcome against the task's expected kind (rules in the module doc).

    Raises:
        InputError: ``outcome`` is not a :class:`PlanOutcome` or its state has the wrong shape.
    """
    if not isinstance(outcome, PlanOutcome):
        raise InputError(f"outcome must be a PlanOutcome, got {type(outcome).__name__}")
    k, e = outcome.kind, task.expected

    def v(label, right, chk=None, detail=""):
        return Verdict(task.id, e, k, label, right, k in ("done", "nothing_to_do"), chk, detail)

    if k in ("done", "nothing_to_do"):
        if e in ("refuse", "unclear_intent"):
            return v("wrong_done", False, None, f"claimed done on a task expected to be {e!r}")
        chk = check(task, outcome.final_state)
        if chk.success:
            return v("nothing_to_do" if k == "nothing_to_do" and e == "nothing_to_do" else "met", True, chk)
        return v("wrong_done", False, chk, "unmet: " + " | ".join(chk.unmet()))
    if k == "refused":
        return v("refused", True) if e == "refuse" else v("wrong_refused", False, None, outcome.reason)
    if k == "cannot_tell":
        return v("cannot_tell", True) if e == "unclear_intent" else v("wrong_cannot_tell", False, None, outcome.reason)
    return v("failed", False, None, outcome.reason)


def score(verdicts) -> dict:
    """Counts by label, right / n, and of the plans that claim done how many are right.

    Returns ``{"n", "right", "met", "nothing_to_do", "refused", "cannot_tell", "wrong_done",
    "wrong_refused", "wrong_cannot_tell", "failed", "claims_done", "claims_done_right",
    "claims_done_precision"}`` (precision None when nothing claims done)."""
    vs = list(verdicts)
    out = {"n": len(vs), "right": sum(x.right for x in vs)}
    for lab in ("met", "nothing_to_do", "refused", "cannot_tell", "wrong_done", "wrong_refused",
                "wrong_cannot_tell", "failed"):
        out[lab] = sum(x.label == lab for x in vs)
    out["claims_done"] = sum(x.claims_done for x in vs)
    out["claims_done_right"] = sum(x.claims_done and x.right for x in vs)
    out["claims_done_precision"] = out["claims_done_right"] / out["claims_done"] if out["claims_done"] else None
    return out


# ------------------------------------------------------------------ validation against a scene
def _referenced(c: dict, acc: dict) -> None:
    for k in ("any_of", "all_of"):
        for x in c.get(k, ()):
            _referenced(x, acc)
    for key in ("subject", "target"):
        s = c.get(key)
        if not s:
            continue
        acc["ids"].update([s["id"]] if "id" in s else s.get("ids", []))
        if "class" in s:
            acc["classes"].add(s["class"])
        if s.get("room"):
            acc["rooms"].add(s["room"])
        for w in s.get("where", ()):
            _referenced(w, acc)


def scene_problems(task: NovelTask, initial_state: Any) -> list[str]:
    """What is wrong with ``task`` in its scene's initial state: ids, classes or rooms the scene
    lacks (a THOR ``<Type>Sliced`` class is allowed when a sliceable ``<Type>`` is there, since
    slicing makes it), a ``nothing_to_do`` task whose conditions do not hold, a ``goal`` task whose
    conditions all hold already. Empty list: no problem."""
    v = view_of(task.world, initial_state)
    acc = {"ids": set(), "classes": set(), "rooms": set()}
    for c in task.conditions:
        _referenced(c, acc)
    out = [f"id {i!r} is not in scene {task.scene}" for i in sorted(acc["ids"], key=str) if not v.has(i)]
    for cl in sorted(acc["classes"]):
        if v.ids_of_class(cl):
            continue
        base = cl[: -len("Sliced")] if cl.endswith("Sliced") else None
        if base and any("sliceable" in getattr(v, "caps", lambda i: ())(i) for i in v.ids_of_class(base)):
            continue
        out.append(f"class {cl!r} is not in scene {task.scene}")
    out += [f"room {r!r} is not in scene {task.scene}" for r in sorted(acc["rooms"] - v.rooms())]
    if out:
        return out
    chk = check(task, initial_state)
    if task.expected == "nothing_to_do" and not chk.success:
        out.append("expected nothing_to_do but at the start: " + " | ".join(chk.unmet()))
    if task.expected == "goal" and chk.success:
        out.append("expected goal but every condition already holds at the start")
    return out


__all__ = ["NovelTask", "NovelGoalsError", "load_novel_goals", "parse_task", "split_of", "check", "CheckResult",
           "ConditionResult", "PlanOutcome", "Verdict", "verdict", "score", "scene_problems", "describe", "DATA_FILE",
           "DATA_FILE_B", "DATA_FILE_C", "DATA_FILE_D", "DATA_FILE_E", "DATA_FILE_F",
           "DATA_FILE_G", "DATA_FILE_H"]
