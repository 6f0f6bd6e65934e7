"""The hand-labelled verification corpus (``tests/corpora/verify_cases.txt``).

Errors of shapes that our injector (:mod:`actionable.evaluation.verification.corrupt`) never
writes, labelled per action by hand from packaged programs: contradictions
that must be removed (not compensated), missing GRABs, undo pairs in both
orders, detours away and back, objects picked up early and never used, and
plans that need no fix (gold plans; preparation steps that look redundant but
are needed). Every judge test can iterate it, the way unified-planning shares
its example problems. Scored per action as in arXiv 2509.02761, Sec. 4.

File format (UTF-8 text; ``#`` starts a comment line)::

    === c01 | contradiction | 1057_1 | goal: program
      [WALK] <home_office> (319)
    C [SWITCHOFF] <television> (410)
    + [GRAB] <remote_control> (1000)

A header gives ``id | class | program id | goal``, where the goal is
``program`` (the program's title and annotated goal conditions) or
``text: <instruction>`` (free text, no annotated conditions). Each line after
it is a label code, a space and a script step: two spaces = valid, ``R`` =
redundant, ``C`` = contradictory (both must be REMOVEd), ``+`` = a missing step
(not in the plan; it belongs before the next plan line). The split is fixed by
id: odd numbers are ``tune`` (used while developing the judges), even numbers
``report`` (scored once, for the docs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from actionable.core.program import Program, Step, parse_script_step
from actionable.core.errors import InputError

#: Case classes of issue 14.
CLASSES = ("contradiction", "missing_grab", "undo_pair", "detour", "unused_pickup", "gold", "preparation",
           # issue 26
           "side_effect", "posture_again", "far_twin", "repeated_block", "prep_needed", "missing_one",
           # issue 26, second round: order slips, wrong instances, turning to a room
           "swap", "wrong_instance", "facing_room")
_CODES = {"  ": "valid", "R ": "redundant", "C ": "contradictory"}
_HEAD_RE = re.compile(r"^===\s*(c\d+)\s*\|\s*(\w+)\s*\|\s*(\d+_\d+)\s*\|\s*goal:\s*(.+?)\s*$")


@dataclass(frozen=True)
class VerifyCase:
    """One labelled plan.

    Attributes:
        id: ``c01`` ...; ``split`` is ``tune`` (odd) or ``report`` (even).
        cls: one of :data:`CLASSES`.
        program_id: the packaged program it was written from (scene and goals).
        goal_text: the instruction; ``use_program_goals`` says whether the
            program's annotated goal conditions are given to the judge.
        plan: the plan to judge; ``labels`` one per step (``valid`` |
            ``redundant`` | ``contradictory``); ``missing`` ``(index, step)``.
    """

    id: str
    cls: str
    program_id: str
    goal_text: str
    use_program_goals: bool
    plan: Program
    labels: tuple[str, ...]
    missing: tuple[tuple[int, Step], ...]

    @property
    def split(self) -> str:
        return "tune" if int(self.id[1:]) % 2 else "report"

    def labelled(self):
        """As a :class:`~actionable.evaluation.verification.corrupt.CorruptedPlan` for
        :func:`~actionable.evaluation.verification.metrics.score_critiques`."""
        from actionable.verify.labels import CorruptedPlan

        return CorruptedPlan(self.program_id, self.plan, self.plan, self.labels, self.missing, ())

    def task(self, annotations=None):
        """The :class:`~actionable.verify.base.VerifyTask` the judges get."""
        from actionable.verify.base import VerifyTask

        spec = None
        if self.use_program_goals:
            if annotations is None:
                from actionable.evaluation.datasets import goal_annotations as load_goal_annotations

                annotations = load_goal_annotations()
            spec = annotations.get(self.program_id)
        return VerifyTask(goal=self.goal_text, scene=self.program_id, goal_spec=spec, program_id=self.program_id)


def default_path() -> Path:
    """``tests/corpora/verify_cases.txt`` of the source checkout."""
    return Path(__file__).resolve().parents[3] / "tests" / "corpora" / "verify_cases.txt"


def load_cases(path: str | Path | None = None, split: str | None = None) -> list[VerifyCase]:
    """Parse the corpus (``split``: ``tune``, ``report`` or ``None`` for all).

    Raises:
        InputError: missing file, a malformed header or line, an unknown class,
            duplicate ids, or a split name other than tune/report.
    """
    if split not in (None, "tune", "report"):
        raise InputError(f"split must be 'tune' or 'report' (got {split!r})")
    p = Path(path) if path is not None else default_path()
    if not p.is_file():
        raise InputError(f"case corpus {p} does not exist")
    from actionable.evaluation.datasets import program as load_program

    cases: list[VerifyCase] = []
    cur: dict | None = None

    def close() -> None:
        if cur is None:
            return
        if not cur["steps"]:
            raise InputError(f"{p}: case {cur['id']} has no step")
        title = load_program(cur["pid"]).task
        goal = title if cur["goal"] == "program" else cur["goal"].removeprefix("text:").strip()
        cases.append(VerifyCase(cur["id"], cur["cls"], cur["pid"], goal, cur["goal"] == "program",
                                Program(tuple(cur["steps"]), task=goal), tuple(cur["labels"]),
                                tuple(cur["missing"])))

    for n, raw in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        if raw.startswith("==="):
            close()
            m = _HEAD_RE.match(raw)
            if not m or m.group(2) not in CLASSES:
                raise InputError(f"{p}:{n}: bad case header {raw!r}; expected "
                                 f"'=== cNN | <{'|'.join(CLASSES)}> | <program id> | goal: program|text: ...'")
            if any(c.id == m.group(1) for c in cases):
                raise InputError(f"{p}:{n}: duplicate case id {m.group(1)}")
            goal = m.group(4)
            if goal != "program" and not goal.startswith("text:"):
                raise InputError(f"{p}:{n}: goal must be 'program' or 'text: ...'")
            cur = {"id": m.group(1), "cls": m.group(2), "pid": m.group(3), "goal": goal, "steps": [],
                   "labels": [], "missing": []}
            continue
        if cur is None:
            raise InputError(f"{p}:{n}: a step before the first '===' header")
        code, text = raw[:2], raw[2:].strip()
        try:
            step = parse_script_step(text)
        except Exception as exc:  # noqa: BLE001 - reported with the line
            raise InputError(f"{p}:{n}: not a script step ({exc})") from None
        if code == "+ ":
            cur["missing"].append((len(cur["steps"]), step))
        elif code in _CODES:
            cur["steps"].append(step)
            cur["labels"].append(_CODES[code])
        else:
            raise InputError(f"{p}:{n}: unknown label code {code!r} (use '  ', 'R ', 'C ' or '+ ')")
    close()
    return [c for c in cases if split is None or c.split == split]


__all__ = ["CLASSES", "VerifyCase", "load_cases", "default_path"]
