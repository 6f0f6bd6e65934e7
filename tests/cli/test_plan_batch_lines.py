"""`actionable plan --tasks FILE`: a bad line is an error record of its own, the rest is planned.

A clean-clone tester (7 Dec, ninth session): one empty `task` or one repeated `id` aborted the whole
file (exit 2, no output). Now each bad line gets `{"error": {"type", "message"}, "done": null,
"exit": 2}` naming the line and the fix, the other tasks are planned, the batch exits 1; a file
that cannot be read (missing, not UTF-8, empty, every line bad) still fails fast with exit 2.
"""

from __future__ import annotations

import json

import pytest

from actionable.core.errors import InputError
from actionable.planning.batch import BadLine, BatchTask, read_lines, run_batch

FAST = ["--model", "scripted:[]", "--translation-model", "bow", "--no-cache"]

#: one line of each bad kind between good tasks: (line text, the type its record gets)
LINES = [
    ('{"id": "a", "task": "Turn on the TV"}', None),
    ('{"id": "b", "task": ""}', "EmptyTask"),
    ('{"id": "c", "task": " \\t "}', "EmptyTask"),
    ('{"id": "a", "task": "Open the fridge"}', "DuplicateId"),
    ('{"id": "d", "task": "' + "wash the dishes " * 25 + '"}', "TaskTooLong"),
    ('{"id": "e", "task": "Open the fridge"', "NotJSON"),
    ('["Open the fridge"]', "NotAnObject"),
    ('"Open the fridge"', None),  # not starting with { or [: a plain-text task (its id: line 8)
    ('{"id": "f", "description": "no task here"}', "MissingTask"),
    ('{"id": "g", "task": "Open the fridge", "env": "thor"}', "UnknownKey"),
    ('{"id": "h", "task": 42}', "BadField"),
    ('{"id": "i", "task": "Open the fridge", "scene": "no_such_scene"}', "UnknownScene"),
    ('Turn off the TV', None),
]


def _file(tmp_path, lines=LINES, name="t.jsonl"):
    f = tmp_path / name
    f.write_text("# my tasks\n" + "\n".join(x for x, _ in lines) + "\n")  # line 1 is a comment
    return f


def _recs(path):
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_each_bad_line_kind_is_typed_and_names_its_line_and_the_fix(tmp_path):
    items = read_lines(_file(tmp_path))
    # read_lines leaves scenes to the command (it knows the world): the unknown scene is a task here
    want = [k if k != "UnknownScene" else None for _, k in LINES]
    assert [it.type if isinstance(it, BadLine) else None for it in items] == want
    for n, it in enumerate(items, 2):
        assert it.line == n
        if isinstance(it, BadLine):
            assert f"line {n}" in it.message and it.digest
    bad = {it.type: it for it in items if isinstance(it, BadLine)}
    assert "repeats id 'a' of line 2" in bad["DuplicateId"].message and bad["DuplicateId"].id is None
    assert "give this line another \"id\"" in bad["DuplicateId"].message
    assert "give the task text" in bad["EmptyTask"].message and bad["EmptyTask"].id == "c"  # the last of the two
    assert "the limit is 300" in bad["TaskTooLong"].message and "shorten it" in bad["TaskTooLong"].message
    assert "remove the others" in bad["UnknownKey"].message and "'env'" in bad["UnknownKey"].message
    assert "'task' is not text" in bad["BadField"].message
    # the first line with an id wins; a bad line claims its id too (the later good line is the repeat)
    f = tmp_path / "dup.jsonl"
    f.write_text('{"id": "x", "task": ""}\n{"id": "x", "task": "Turn on the TV"}\n{"task": "Turn on the TV"}\n')
    got = read_lines(f)
    assert [getattr(g, "type", None) for g in got] == ["EmptyTask", "DuplicateId", None]
    assert got[2] == BatchTask("3", "Turn on the TV")
    # a JSON line's id that equals a later plain line's number: the later line is the repeat
    f.write_text('{"id": "2", "task": "Turn on the TV"}\nOpen the fridge\n')
    got = read_lines(f)
    assert isinstance(got[1], BadLine) and got[1].type == "DuplicateId" and "its line number" in got[1].message


def test_bad_lines_are_records_the_rest_is_planned_and_the_batch_exits_1(tmp_path, capsys):
    from actionable.cli import main

    f, out = _file(tmp_path), tmp_path / "o.jsonl"
    assert main(["plan", "--tasks", str(f), "--out", str(out), *FAST]) == 1
    err = capsys.readouterr().err
    recs = _recs(out)
    assert [r["line"] for r in recs] == list(range(2, 2 + len(LINES)))  # one record a line, in file order
    for r, (_, kind) in zip(recs, LINES):
        if kind is None:
            assert "error" not in r or r["error"]["type"] == "GoalReadingError", r
            continue
        assert r["ok"] is False and r["exit"] == 2 and r["done"] is None, r
        assert r["error"]["type"] == kind and f"line {r['line']}" in r["error"]["message"], r
        assert r["error_type"] == kind and r["line_sha1"]
    assert [r["id"] for r in recs if r["ok"]] == ["a", "9", "14"]
    assert all(r["done"] is True and r["exit"] == 0 for r in recs if r["ok"])
    assert "10 bad lines" in err and "fix them and rerun with the same --out" in err
    # the same file on stdout: the same records, the same exit code
    assert main(["plan", "--tasks", str(f), *FAST]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [(r["line"], r.get("error", {}).get("type")) for r in lines] == \
           [(r["line"], r.get("error", {}).get("type")) for r in recs]


def test_exit_codes_of_a_batch(tmp_path, capsys):
    from actionable.cli import main

    good = tmp_path / "good.txt"
    good.write_text("Turn on the TV\nIs the TV on?\n")
    assert main(["plan", "--tasks", str(good), "--out", str(tmp_path / "o1.jsonl"), *FAST]) == 0
    one_bad = tmp_path / "one_bad.jsonl"
    one_bad.write_text('{"task": "Turn on the TV"}\n{"task": ""}\n')
    assert main(["plan", "--tasks", str(one_bad), "--out", str(tmp_path / "o2.jsonl"), *FAST]) == 1
    capsys.readouterr()
    # cannot be read, or nothing to plan: exit 2 before any model loads, no output written
    all_bad = tmp_path / "all_bad.jsonl"
    all_bad.write_text('{"task": ""}\n{"id": 1}\n')
    not_utf8 = tmp_path / "latin1.txt"
    not_utf8.write_bytes(b"Turn on the TV\n\xe9teindre la lumi\xe8re\n")
    empty = tmp_path / "empty.txt"
    empty.write_text("\n# only a comment\n")
    for f, why in ((all_bad, "holds no task to plan: line 1 has an empty task"),
                   (not_utf8, "line 2 is not UTF-8"), (empty, "holds no task"),
                   (tmp_path / "missing.jsonl", "is not a file")):
        o = tmp_path / f"out_{f.stem}.jsonl"
        assert main(["plan", "--tasks", str(f), "--out", str(o), *FAST]) == 2, f
        err = capsys.readouterr().err
        assert why in err and not o.exists(), err


def test_resume_after_an_interrupted_run_with_bad_lines_duplicates_nothing(tmp_path):
    """A run stopped mid-file (an exception from the planner stands in for kill -9: each record is
    fsync'd before the next task starts) resumes: bad-line records and planned tasks already in
    --out are skipped, nothing is written twice; a bad line fixed in between is planned."""
    f, out = _file(tmp_path), tmp_path / "o.jsonl"
    calls = []

    def stops_at_the_second_task(t):
        calls.append(t.id)
        if len(calls) == 2:
            raise KeyboardInterrupt  # the run dies here
        return {"done": True, "executability": {"executable": True}}

    with pytest.raises(KeyboardInterrupt):
        run_batch(read_lines(f), out, stops_at_the_second_task)
    first = _recs(out)
    assert [r["line"] for r in first] == list(range(2, 9))  # a, the bad lines 3-7, not line 9 (killed)
    calls.clear()
    counts = run_batch(read_lines(f), out, lambda t: calls.append(t.id) or {"done": True,
                                                                         "executability": {"executable": True}})
    recs = _recs(out)
    assert recs[: len(first)] == first and calls == ["9", "i", "14"]
    assert [r["line"] for r in recs] == list(range(2, 2 + len(LINES)))  # each line once
    assert counts["skipped"] == len(first) and counts["bad_lines"] == 9  # the scene is checked by the CLI
    # a third run writes nothing
    assert run_batch(read_lines(f), out, lambda t: pytest.fail("planned twice"))["skipped"] == len(LINES)
    assert _recs(out) == recs
    # the empty task of line 3 fixed: planned on the next run; its old error record stays before it
    text = f.read_text().replace('{"id": "b", "task": ""}', '{"id": "b", "task": "Open the fridge"}')
    f.write_text(text)
    calls.clear()
    run_batch(read_lines(f), out, lambda t: calls.append(t.id) or {"done": True})
    assert calls == ["b"] and _recs(out)[-1]["id"] == "b" and _recs(out)[-1]["ok"] is True


def test_resume_of_the_command_with_a_bad_line_exits_1_each_time_and_writes_nothing_twice(tmp_path, capsys):
    from actionable.cli import main

    f, out = tmp_path / "t.txt", tmp_path / "o.jsonl"
    f.write_text("Turn on the TV\n" + "x" * 400 + "\n")
    assert main(["plan", "--tasks", str(f), "--out", str(out), *FAST]) == 1
    before = out.read_text()
    assert main(["plan", "--tasks", str(f), "--out", str(out), *FAST]) == 1  # the file still has the bad line
    assert out.read_text() == before and "resuming: 2 of 2" in capsys.readouterr().err
    assert [r.get("error", {}).get("type") for r in _recs(out)] == [None, "TaskTooLong"]


def test_read_tasks_stays_strict_for_the_python_api(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text('{"task": "Turn on the TV"}\n{"task": ""}\n')
    with pytest.raises(InputError, match="line 2 has an empty task"):
        from actionable.planning.batch import read_tasks

        read_tasks(f)


def test_a_batch_line_is_empty_or_too_long_by_plans_own_rule():
    """The batch's EmptyTask / TaskTooLong are `clean_task`'s typed errors (one rule, not a copy of
    it): a task that is only a terminal escape sequence is empty there too (it went to the planner
    as text before)."""
    from actionable.core.errors import EmptyTaskError, TaskTooLongError
    from actionable.planning.batch import _task_problem
    from actionable.planning.prompts import MAX_TASK_CHARS, clean_task

    for empty in ("", " \t ", "\x1b[31m\x1b[0m", "\u200b"):
        with pytest.raises(EmptyTaskError):
            clean_task(empty)
        assert _task_problem(empty)[0] == "EmptyTask"
    with pytest.raises(TaskTooLongError) as exc:
        clean_task("wash the dishes " * 40)
    assert exc.value.limit == MAX_TASK_CHARS and exc.value.length > MAX_TASK_CHARS
    assert _task_problem("wash the dishes " * 40)[0] == "TaskTooLong"
    assert _task_problem("Turn on the TV") is None and _task_problem("%%%% ####") is None  # not text: the planner's answer
