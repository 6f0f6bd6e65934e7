"""TEACh-style demonstrations: JSON action lists with optional error labels.

Plan-verification work on TEACh (arXiv 2509.02761, Sec. 4) flattens each
episode to lines such as ``PickUp(Mug)``, ``PutAOnB(Mug, CounterTop)``,
``ToggleOn(Faucet)``. This module reads such files so that users can score the
rule and LLM judges on their own annotated data
(:func:`actionable.evaluation.verification.teach.score_teach`; the simulator-grounded and
hybrid judges need a VirtualHome scene and do not apply).

Accepted inputs (UTF-8 JSON; or JSONL, one episode object a line):

* a list of action strings: ``["PickUp(Mug)", "ToggleOn(Faucet)"]``;
* a list of ``{"action": "PickUp(Mug)", "label": "REMOVE"}`` objects;
* an episode object ``{"goal": "Make coffee", "actions": [...],
  "labels": ["valid", "redundant", ...], "missing": ["Open(Fridge)"]}``,
  ``labels`` and ``missing`` optional; or a list of such objects.

Labels (case-insensitive): ``valid``/``ok``/``keep`` (not an error),
``redundant``, ``contradictory``, ``remove`` (an error of either kind).

Action names map to VirtualHome actions: PickUp -> GRAB, Place/PutAOnB/Put ->
PUTBACK (one-argument ``Place(X)`` puts the held object on X), Open, Close,
ToggleOn -> SWITCHON, ToggleOff -> SWITCHOFF, Slice -> CUT, Pour -> POUR,
Navigate/GoTo -> WALK, Clean -> WIPE, and any VirtualHome action name.
Object names become snake case (``CounterTop`` -> ``counter_top``). Motion
primitives (Forward, Turn Left, Pan Left, Look Up, ...) carry no object and
are skipped with a warning (their labels with them).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from actionable.core.program import ACTION_ARITY, Argument, Program, Step
from actionable.core.teach_lines import MOTION, TEACH_ACTIONS, parse_teach_action, snake  # noqa: F401
from actionable.core.errors import InputError, ProgramParseError

_LABELS = {"valid": "valid", "ok": "valid", "keep": "valid", "redundant": "redundant",
           "contradictory": "contradictory", "remove": "redundant", "error": "redundant"}
MAX_BYTES = 20_000_000


@dataclass(frozen=True)
class TeachEpisode:
    """One demonstration: the plan, per-action labels and missing steps (if annotated)."""

    name: str
    goal: str
    plan: Program
    labels: tuple[str, ...] | None
    missing: tuple[Step, ...]
    warnings: tuple[str, ...] = ()

    @property
    def labelled(self) -> bool:
        return self.labels is not None


def _episode(obj, name: str) -> TeachEpisode:
    goal = ""
    labels_in = None
    missing_in: list = []
    if isinstance(obj, dict):
        goal = str(obj.get("goal", obj.get("task", "")))
        actions = obj.get("actions", obj.get("plan"))
        labels_in = obj.get("labels")
        missing_in = obj.get("missing") or []
        name = str(obj.get("name", obj.get("id", name)))
    else:
        actions = obj
    if not isinstance(actions, list):
        raise InputError(f"episode {name}: 'actions' must be a list of strings like \"PickUp(Mug)\"")
    items = []
    for a in actions:
        if isinstance(a, dict):
            items.append((a.get("action"), a.get("label")))
        else:
            items.append((a, None))
    if labels_in is not None:
        if not isinstance(labels_in, list) or len(labels_in) != len(items):
            raise InputError(f"episode {name}: 'labels' must be a list with one label per action "
                             f"({len(items)} actions)")
        items = [(a, lab) for (a, _), lab in zip(items, labels_in)]
    labelled = any(lab is not None for _, lab in items) or bool(missing_in)
    steps, labels, warns = [], [], []
    held = None
    for k, (a, lab) in enumerate(items, 1):
        try:
            st = parse_teach_action(a, held)
        except ProgramParseError as exc:
            raise InputError(f"episode {name}, action {k}: {exc}") from None
        if st is None:
            warns.append(f"action {k} ({a}) is a motion primitive; skipped")
            continue
        if st.action == "GRAB":
            held = st.args[0].name
        elif st.action in ("PUTBACK", "PUTIN"):
            held = None
        lab_n = _LABELS.get(str(lab).strip().lower()) if lab is not None else "valid"
        if lab_n is None:
            raise InputError(f"episode {name}, action {k}: unknown label {lab!r}; use valid, redundant, "
                             "contradictory or remove")
        steps.append(st)
        labels.append(lab_n)
    try:
        missing = tuple(s for s in (parse_teach_action(m) for m in missing_in) if s is not None)
    except ProgramParseError as exc:
        raise InputError(f"episode {name}, missing: {exc}") from None
    return TeachEpisode(name, goal, Program(tuple(steps), goal), tuple(labels) if labelled else None,
                        missing, tuple(warns))


def load_teach(path: str | Path) -> list[TeachEpisode]:
    """Read TEACh-style episodes from a JSON or JSONL file (see module doc).

    Raises:
        InputError: unreadable file, invalid JSON, unknown actions or labels.
    """
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise InputError(f"{p} is larger than {MAX_BYTES // 1_000_000} MB; split it into smaller files")
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {p}: {exc}") from None
    return parse_teach(text, p.stem)


def parse_teach(text: str, name: str = "episode") -> list[TeachEpisode]:
    """Parse TEACh-style JSON / JSONL text (see module doc)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        try:
            data = [json.loads(ln) for ln in text.splitlines() if ln.strip()]
        except json.JSONDecodeError as exc:
            raise InputError(f"not JSON or JSONL ({exc.msg} at line {exc.lineno}); see docs/verify.md "
                             "for the TEACh format") from None
    if isinstance(data, dict):
        return [_episode(data, name)]
    if isinstance(data, list) and data and all(isinstance(x, dict) and ("actions" in x or "plan" in x)
                                               for x in data):
        return [_episode(x, f"{name}-{i}") for i, x in enumerate(data)]
    if isinstance(data, list) and len(data) > 1 and all(isinstance(x, list) for x in data):
        # one bare action list a line (JSONL), or a JSON list of them: one episode each
        return [_episode(x, f"{name}-{i}") for i, x in enumerate(data)]
    if isinstance(data, list):
        return [_episode(data[0] if len(data) == 1 and isinstance(data[0], list) else data, name)]
    raise InputError("TEACh input must be a list of actions, an episode object or a list of episodes")


def to_labelled(ep: TeachEpisode):
    """A :class:`~actionable.verify.labels.CorruptedPlan` view of a labelled
    episode, for :func:`~actionable.evaluation.verification.metrics.score_critiques`; ``None``
    when the episode has no labels."""
    if ep.labels is None:
        return None
    from actionable.verify.labels import CorruptedPlan

    gold = ep.plan.replace_steps(s for s, lab in zip(ep.plan.steps, ep.labels) if lab == "valid")
    n = len(ep.plan)
    return CorruptedPlan(ep.name, gold, ep.plan, ep.labels, tuple((n, s) for s in ep.missing), ())
