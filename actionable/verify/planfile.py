"""Plan files for ``actionable verify``: output is input (issue 16).

:func:`read_plan_text` reads, besides the plain formats of :meth:`Program.parse` (one action a
line, script ``[GRAB] <mug> (12)`` or text ``grab mug``; a VirtualHome dataset file):

* the human output of ``actionable plan`` as it is printed (``actionable plan "Watch TV" >
  p.txt``): the numbered lines ``  3. walk to couch   [WALK] <couch> (352)  (score 0.40)`` are
  the plan (their script part, with node ids, when there is one, else their text); the
  ``Task:`` line gives the goal; every other line (executability, goal check, warnings, stop
  reason) is skipped, and so are the paper variants' steps marked ``(not an admissible
  action ...)``, which the planner did not keep either;
* ``actionable verify``'s own "revised plan" listing (``  1. [WALK] <sink> (3)``), so a
  revised plan can be verified again;
* ``actionable plan --format script|text`` (one action a line after a ``# task: ...`` line);
* the ``--json`` object of ``actionable plan`` (:func:`read_plan_json`).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from actionable.core.program import Program, parse_script_step, parse_step
from actionable.core.errors import InputError, ProgramParseError

#: A numbered listing line: ``  3. walk to couch ...`` (``plan``'s and ``verify``'s output).
_NUMBERED = re.compile(r"^\s*(\d+)\.\s+(\S.*?)\s*$")
#: The script part of a line: ``[WALK] <couch> (352)`` (ids optional).
_SCRIPT_PART = re.compile(r"\[\s*[A-Za-z_]+\s*\](?:\s*<[^<>()]+>\s*(?:\(\s*[0-9]+(?:\.[0-9]+)?\s*\))?)*")
#: ``Task: Watch TV   (variant grounded, scene default)`` -> ``Watch TV``.
_TASK_LINE = re.compile(r"^\s*Task:\s*(.*?)(?:\s{2,}\(variant [^)]*\))?\s*$")
#: ``# task: Watch TV`` (``plan --format script|text``).
_TASK_COMMENT = re.compile(r"^\s*#\s*task:\s*(.*?)\s*$", re.IGNORECASE)
#: Trailing annotations of ``plan``'s numbered lines: ``  (score 0.40)``, ``  (repair ...)``.
_NOTE = re.compile(r"\s{2,}\(.*$")


def is_listing(text: str) -> bool:
    """Whether ``text`` is a numbered listing (``actionable plan``/``verify`` output)."""
    return any(_NUMBERED.match(ln) for ln in text.splitlines())


def _task_of(lines: list[str]) -> str:
    for ln in lines:
        m = _TASK_LINE.match(ln) or _TASK_COMMENT.match(ln)
        if m and m.group(1):
            return m.group(1).strip()
    return ""


def read_listing(text: str) -> Program:
    """The plan in a numbered listing; see the module docstring.

    Raises:
        ProgramParseError: a numbered line that holds no action (names the line).
    """
    lines = text.splitlines()
    steps = []
    for n, ln in enumerate(lines, 1):
        m = _NUMBERED.match(ln)
        if not m:
            continue  # header, verdicts, goal check, warnings, stop line: not the plan
        body = m.group(2)
        if "(not an admissible action" in body:
            continue  # a paper variant's sample the planner could not translate: not in its plan
        sm = _SCRIPT_PART.search(body)
        try:
            steps.append(parse_script_step(sm.group(0)) if sm else parse_step(_NOTE.sub("", body)))
        except ProgramParseError as exc:
            raise ProgramParseError(f"step {m.group(1)}: {exc}", line=ln, lineno=n) from None
    return Program(tuple(steps), _task_of(lines))


def read_plan_text(text: str) -> Program:
    """A plan from text: a numbered listing (``actionable plan``'s output), else the formats of
    :meth:`Program.parse`; the task comes from a ``Task:`` or ``# task:`` line when present.

    Raises:
        ProgramParseError: with the line number of the first bad line.
    """
    if is_listing(text):
        return read_listing(text)
    lines = text.splitlines()
    # leading blank and ``#`` lines (``# task: ...``) are dropped first: Program.parse takes a
    # first line that is not a step for a dataset file's task name
    skip = 0
    while skip < len(lines) and (not lines[skip].strip() or lines[skip].lstrip().startswith("#")):
        skip += 1
    task_line = None
    if skip < len(lines) and re.match(r"(?i)^\s*(?:task|goal)\s*:", lines[skip]):
        # "Task: Turn off the light" then the steps: the task, not a dataset file's title (whose next
        # line, the first step here, would be taken as the description)
        task_line = lines[skip].split(":", 1)[1].strip()
        lines = lines[:skip] + [""] + lines[skip + 1:]
        while skip < len(lines) and (not lines[skip].strip() or lines[skip].lstrip().startswith("#")):
            skip += 1
    try:
        prog = Program.parse("\n".join(lines[skip:]))
    except ProgramParseError as exc:
        if exc.lineno is None or not skip:
            raise
        msg = str(exc).split(": ", 1)[1] if str(exc).startswith("line ") else str(exc)
        raise ProgramParseError(msg, line=exc.line, lineno=exc.lineno + skip) from None
    if task_line:
        return Program(prog.steps, task_line, prog.description)
    if not prog.task:
        task = _task_of(lines)
        if task:
            prog = Program(prog.steps, task, prog.description)
    return prog


def read_plan_json(obj) -> Program | None:
    """The plan in ``actionable plan --json`` output (the resolved program when there is one,
    with ids and repairs, else the program), or ``None`` when ``obj`` is not such an object."""
    if not isinstance(obj, dict) or "variant" not in obj or not ("program" in obj or "resolved_program" in obj):
        return None
    d = obj.get("resolved_program") or obj.get("program")
    if not d:
        raise InputError("the plan JSON holds no program (the planner produced no steps)")
    prog = Program.from_dict(d)
    return Program(prog.steps, prog.task or str(obj.get("task", "")), prog.description)


def loads_plan_json(text: str) -> Program | None:
    """:func:`read_plan_json` of a JSON text; ``None`` when it is not ``plan --json`` output."""
    try:
        return read_plan_json(json.loads(text))
    except json.JSONDecodeError:
        return None


def loads_world_plan_json(text: str, step_from_dict=None) -> Program | None:
    """:func:`loads_plan_json` for a world whose object ids are strings (``actionable plan --env
    thor --json``: ``"Mug|alfred|2"``): the resolved program (else the program) with its ids kept
    as they are; ``None`` when ``text`` is not ``plan --json`` output. ``step_from_dict``: the
    world's reader of a step record, for a world whose steps are its own type (a PDDL action's
    name is no VirtualHome action); it raises ``ProgramParseError`` on a bad record.

    Raises:
        InputError: the object holds no program, or a step record is malformed (names it).
    """
    from actionable.core.program import Argument, Step

    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        return None
    if not isinstance(obj, dict) or "variant" not in obj or not ("program" in obj or "resolved_program" in obj):
        return None
    d = obj.get("resolved_program") or obj.get("program")
    if not isinstance(d, dict) or not d.get("steps"):
        raise InputError("the plan JSON holds no program (the planner produced no steps)")
    steps = []
    for n, rec in enumerate(d["steps"], 1):
        if step_from_dict is not None:
            try:
                steps.append(step_from_dict(rec))
            except ProgramParseError as exc:
                raise InputError(f"step {n} of the plan JSON: bad step record {rec!r:.120} ({exc})") from None
            continue
        try:
            names = [(str(a), None if i is None else str(i)) for a, i in rec["args"]]
            bare = parse_script_step(f"[{rec['action']}] " + " ".join(f"<{a}>" for a, _ in names))
        except (KeyError, TypeError, ValueError, ProgramParseError) as exc:
            raise InputError(f"step {n} of the plan JSON: bad step record {rec!r:.120} ({exc})") from None
        steps.append(Step(bare.action, tuple(Argument(a.name, i) for a, (_, i) in zip(bare.args, names))))
    return Program(tuple(steps), str(d.get("task") or obj.get("task") or ""))


class _ShapeError(InputError):
    """The plan file's shape is wrong (several episodes, no action), whatever its world."""


def read_plan_file(path: Path) -> tuple[Program, str]:
    """A plan file (``-``: standard input): VirtualHome script/natural-text lines, a dataset
    file, the output of ``actionable plan`` as printed (or its ``--json``, or ``--format
    script|text``), ``verify``'s revised-plan listing, or TEACh JSON
    (:mod:`actionable.verify.planfile`).

    Raises:
        InputError: the file cannot be read as a plan; a kitchen plan (AI2-THOR ids, or the kitchen's
            action language) given without ``--env thor`` says so."""
    text, where = read_text(path)
    try:
        return _parse_plan(path, text, where)
    except _ShapeError as exc:  # the file's shape (two episodes): said after the kitchen hint
        not_a_kitchen_plan(text, where, exc)
        raise
    except (InputError, ProgramParseError):  # VirtualHome's reader on kitchen lines: only the hint helps
        not_a_kitchen_plan(text, where)
        raise


def one_teach_episode(text: str, name: str, where: str):
    """The one TEACh-style episode of a plan file (:func:`~actionable.verify.teach.parse_teach`).

    Raises:
        InputError: not TEACh JSON, several episodes, or an empty action list (the message starts
            with ``where``).
    """
    from actionable.verify.teach import parse_teach

    try:
        eps = parse_teach(text, name)
    except InputError as exc:  # name the file the user gave
        raise InputError(f"{where}: {exc}") from None
    if len(eps) != 1:
        raise _ShapeError(f"{where} holds {len(eps)} episodes; `verify` takes one plan "
                          "(use `actionable eval verify --teach FILE` to score many)")
    if not len(eps[0].plan):
        raise _ShapeError(f"{where} holds no action (an empty action list); give e.g. "
                          '["PickUp(Mug)", "ToggleOn(Faucet)"]')
    return eps[0]


def _parse_plan(path: Path, text: str, where: str):
    if path.suffix.lower() in (".json", ".jsonl") or text.lstrip().startswith("{"):
        plan = loads_plan_json(text)  # `actionable plan --json` output
        if plan is not None:
            return plan, plan.task
        ep = one_teach_episode(text, path.stem, where)
        return ep.plan, ep.goal
    try:
        plan = read_plan_text(text)
    except ProgramParseError as exc:
        raise InputError(f"{where}: {exc}") from None
    if not len(plan):
        raise _ShapeError(f"{where} holds no action; write one action a line, e.g. '[WALK] <sink>' "
                         "or 'walk to sink'")
    return plan, plan.task


#: the scene a plan names: ``plan``'s header ``(variant grounded, scene FloorPlan1)`` or its JSON
#: (``"scene": "FloorPlan1"``, top level or in ``session``)
_PLAN_SCENE = re.compile(r"\(variant [^,()]*, scene ([^()\s]+)\)|\"scene\":\s*\"([^\"]+)\"")


def plan_scene(text: str) -> str | None:
    """The scene named by ``actionable plan`` output (human header or ``--json``), else None."""
    m = _PLAN_SCENE.search(text)
    return (m.group(1) or m.group(2)) if m else None


def not_a_kitchen_plan(text: str, where: str, also: Exception | None = None) -> None:
    """A plan written for another world given to the default world's judge (no ``--env``): one clear
    error. Each world whose ``verify`` capability can ``recognize(text)`` its own plans is asked
    (THOR's: AI2-THOR object ids ``Cup|alfred|1``, or its action language ``PickUp(Mug)``).

    Raises:
        InputError: the plan is another world's; the message names the world's ``--env`` and scene.
    """
    from actionable.core.defaults import WORLD
    from actionable.core.registry import capability, list_worlds

    for w in list_worlds("verify"):
        if w == WORLD:
            continue
        try:
            recognize = getattr(capability(w, "verify"), "recognize", None)
        except ImportError:  # an optional world whose extra is not installed
            continue
        hit = recognize(text) if recognize is not None else None
        if hit is None:
            continue
        named = plan_scene(text)
        scene = named if named is not None and hit["scene_pattern"](named) else None
        shown_scene = scene or hit["scene_hint"]
        py = f"world='{w}', scene='{scene}'" if scene else f"world='{w}', scene=..."
        more = f"; also, the file {str(also).replace(where + ' ', '', 1)}" if also is not None else ""
        raise InputError(f"{where}: this looks like {hit['kind']} ({hit['what']} {hit['shown']!r}): add "
                         f"--env {w} --scene {shown_scene} (in Python: {py}); {WORLD}, the default world, "
                         f"cannot run it{more}")


def read_text(path: Path) -> tuple[str, str]:
    """``(text, where)`` of a plan file (``-``: standard input); ``where`` names it in errors
    (``plan file 'p.txt'`` or ``standard input``)."""
    import sys

    if str(path) == "-":
        where = "standard input"
        raw = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        try:  # bytes decoded here, so binary input gets the same message as a binary file
            text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
        except UnicodeDecodeError:
            raise InputError(f"{where} is not UTF-8 text") from None
    else:
        where = f"plan file {str(path)!r}"
        if not str(path).strip() or str(path) == ".":
            raise InputError("the plan file name is empty (or the directory '.'); give a text file with one "
                             "action a line, or '-' for standard input")
        if not path.is_file():
            what = "is a directory" if path.is_dir() else "is not a regular file" if path.exists() else "does not exist"
            raise InputError(f"{where} {what}; give a text file with one action a line")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(f"{where} is not UTF-8 text") from None
    if len(text) > 200_000:
        raise InputError(f"{where} is {len(text):,} characters; a plan file is at most 200,000")
    return text, where


def unknown_object_error(exc, plan: Program, scene, where: str = "plan") -> InputError:
    """An :class:`InputError` for a plan step naming an object class the scene lacks
    (``exc``: the resolver's :class:`~actionable.core.errors.ResolutionError`, with ``class_name`` and
    ``suggestions``): names the plan, the first step that names the class, the scene, and the
    closest classes or how to list the scene's objects."""
    name = getattr(exc, "class_name", None)
    k = next((i for i, s in enumerate(plan.steps) if any(a.name == name for a in s.args)), None)
    step = f"step {k + 1} ({plan.steps[k].to_text()})" if k is not None else "a step"
    scene_name = getattr(scene, "name", None) or scene or "default"
    close = getattr(exc, "suggestions", None)
    hint = (f"did you mean {', '.join(close)}?" if close
            else f"`actionable scenes {scene_name} --classes` lists the scene's objects")
    return InputError(f"{where}: {step} names {name!r}, and scene {scene_name!r} has no such object; {hint}")
