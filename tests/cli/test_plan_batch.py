"""`actionable plan --tasks FILE --out OUT`: one model load, JSONL out, resumable after kill -9
(bad lines: test_plan_batch_lines.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from actionable.core.errors import InputError
from actionable.planning.batch import BatchTask, append_line, done_ids, read_tasks, run_batch

TASKS = ["Watch TV", "Turn on light", "Go to sleep", "Brush teeth", "Wash hands", "Read book"]
FAST = ["--model", "scripted:[]", "--translation-model", "bow", "--no-cache"]


def _cli(*args):
    return [sys.executable, "-c", "from actionable.cli import run; run()", *args]


def test_read_tasks_formats_and_errors(tmp_path):
    f = tmp_path / "t.jsonl"
    f.write_text('{"id": "a", "task": "Watch TV", "scene": "default"}\n\n# note\nTurn on light\n')
    got = read_tasks(f)
    assert got == [BatchTask("a", "Watch TV", None, "default"), BatchTask("4", "Turn on light")]
    f.write_text('{"task": "x"}\n{"task": ')
    with pytest.raises(InputError, match="line 2 is not valid JSON"):
        read_tasks(f)
    f.write_text('{"id": 1, "task": "x"}\n{"id": 1, "task": "y"}\n')
    with pytest.raises(InputError, match="line 2 repeats id '1'"):
        read_tasks(f)
    f.write_text('{"id": 1}\n')
    with pytest.raises(InputError, match="no \"task\""):
        read_tasks(f)
    f.write_text('{"task": "Make coffee"}\n{"task": "Make coffee", "env": "thor", "scene": "FloorPlan1"}\n')
    with pytest.raises(InputError, match="line 2 has unknown key.*'env'.*--env"):  # not silently the default world
        read_tasks(f)
    with pytest.raises(InputError, match="--tasks"):
        read_tasks(tmp_path / "missing.jsonl")
    # a new user's malformed lines (6 Dec): a JSON array, a list as an id, bytes that are not UTF-8
    f.write_text('[{"id": "a", "task": "Watch TV"}]\n')
    with pytest.raises(InputError, match="line 1 is a JSON array"):
        read_tasks(f)
    f.write_text('{"id": ["x"], "task": "Watch TV"}\n')
    with pytest.raises(InputError, match="line 1: 'id' is not text or a number"):
        read_tasks(f)
    f.write_bytes(b"Turn on the TV\n\xff\xfe bad\n")
    with pytest.raises(InputError, match="line 2 is not UTF-8"):
        read_tasks(f)


def test_torn_last_line_is_cut_and_replanned(tmp_path):
    out = tmp_path / "o.jsonl"
    append_line(out, {"id": "1", "ok": True})
    with open(out, "ab") as f:
        f.write(b'{"id": "2", "ok": tr')  # died inside the write
    assert done_ids(out) == {"1"}
    assert out.read_bytes().endswith(b"}\n")
    seen = []
    counts = run_batch([BatchTask("1", "a"), BatchTask("2", "b")], out, lambda t: seen.append(t.id) or {})
    assert seen == ["2"] and counts["skipped"] == 1
    assert [json.loads(ln)["id"] for ln in out.read_text().splitlines()] == ["1", "2"]


def test_batch_resumes_after_kill_9(tmp_path):
    tasks = tmp_path / "tasks.jsonl"
    lines = [json.dumps({"id": f"t{i}", "task": t}) for i, t in enumerate(TASKS)]
    lines.insert(1, '{"id": "bad", "task": ""}')  # a bad line: its own error record, skipped on resume
    tasks.write_text("\n".join(lines) + "\n")
    n = len(lines)
    out = tmp_path / "plans.jsonl"
    p = subprocess.Popen(_cli("plan", "--tasks", str(tasks), "--out", str(out), *FAST),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    t0 = time.time()
    while time.time() - t0 < 120:
        if out.exists() and len(out.read_bytes().splitlines()) >= 2:
            break
        if p.poll() is not None:
            pytest.fail("the batch ended before it could be killed: " + p.stderr.read().decode()[-2000:])
        time.sleep(0.05)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    first = [json.loads(ln)["id"] for ln in out.read_text().splitlines() if ln.strip()]
    assert 2 <= len(first) < n
    r = subprocess.run(_cli("plan", "--tasks", str(tasks), "--out", str(out), *FAST), capture_output=True,
                       text=True, timeout=180)
    assert r.returncode == 1, r.stderr  # the bad line (exit 1 on every run while it is there)
    assert f"resuming: {len(first)} of {n} tasks already in" in r.stderr
    recs = [json.loads(ln) for ln in out.read_text().splitlines()]
    ids = [x["id"] for x in recs]
    assert sorted(ids) == sorted(["bad"] + [f"t{i}" for i in range(len(TASKS))]) and len(set(ids)) == len(ids)
    assert ids[: len(first)] == first
    assert "[%d/%d]" % (n, n) in r.stderr  # progress lines
    ok = [x for x in recs if x["ok"]]
    assert ok and all(x["result"]["task"] == x["task"] for x in ok)
    assert all(x["exit"] in ((0, 1, 3) if x["ok"] else (1, 2)) for x in recs), recs
    # the goal planner (the default) uses no LM; a task it cannot read falls back to the LM planner
    assert all(x["result"]["variant"] == "goal" or x["result"]["lm_mode"] == "score" for x in ok)
    # a third run plans nothing
    r = subprocess.run(_cli("plan", "--tasks", str(tasks), "--out", str(out), *FAST), capture_output=True,
                       text=True, timeout=180)
    assert len(out.read_text().splitlines()) == n and "0 planned" in r.stderr and r.returncode == 1
    assert [x["error"]["type"] for x in recs if x["id"] == "bad"] == ["EmptyTask"]


def test_task_and_tasks_together_is_refused(tmp_path, capsys):
    from actionable.cli import main

    f = tmp_path / "t.txt"
    f.write_text("Watch TV\n")
    assert main(["plan", "Watch TV", "--tasks", str(f)]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["plan", "Watch TV", "--out", str(tmp_path / "o.jsonl")]) == 2
    assert "--out needs --tasks" in capsys.readouterr().err
    assert main(["plan", "Watch TV", "--lm-mode", "magic"]) == 2
    assert "--lm-mode" in capsys.readouterr().err


def test_lm_mode_with_the_goal_planner_says_it_has_no_effect_there(capsys):
    """Clean-clone check (7 Dec): `plan "Turn on the TV" --lm-mode choice-logprobs` ran the goal
    planner (no LM) and never said the flag did nothing."""
    from actionable.cli import main

    assert main(["plan", "Turn on the TV", "--lm-mode", "choice-logprobs", "--translation-model", "bow"]) == 0
    err = capsys.readouterr().err
    assert "--lm-mode choice-logprobs applies when the grounded planner runs" in err
    main(["plan", "Turn on the TV", "--translation-model", "bow"])
    assert "--lm-mode" not in capsys.readouterr().err


def test_each_line_carries_the_exit_code_plan_would_give_and_refusals_are_counted_apart(tmp_path):
    """A refusal (GoalReadingError) is an answer: exit 2 on its line, counted as refused, and the
    batch does not fail for it; Done / Not done / goal not checked give 0 / 1 / 3; another error
    is a failure (exit 1)."""
    from actionable.core.errors import GoalReadingError, PlanningError
    from actionable.planning.batch import BatchTask, run_batch

    answers = {
        "done": {"done": True, "executability": {"executable": True}, "verdict": "Done"},
        "not": {"done": False, "executability": {"executable": True}, "verdict": "Not done: x"},
        "unchecked": {"done": None, "executability": {"executable": True}},
    }

    def plan_one(t):
        if t.id == "refused":
            raise GoalReadingError("I can't tell what end state this asks for")
        if t.id == "broken":
            raise PlanningError("the planner failed")
        return answers[t.id]

    tasks = [BatchTask(i, f"task {i}") for i in ("done", "not", "unchecked", "refused", "broken")]
    out = tmp_path / "o.jsonl"
    counts = run_batch(tasks, out, plan_one)
    recs = {r["id"]: r for r in map(json.loads, out.read_text().splitlines())}
    assert {k: r["exit"] for k, r in recs.items()} == {"done": 0, "not": 1, "unchecked": 3, "refused": 2,
                                                        "broken": 1}
    assert counts["planned"] == 3 and counts["refused"] == 1 and counts["failed"] == 1
    assert recs["refused"]["ok"] is False and recs["refused"]["error_type"] == "GoalReadingError"


def test_a_changed_task_file_is_refused_on_resume_rather_than_skipping_the_wrong_tasks(tmp_path):
    """A plain-text task file's ids are its line numbers: a line added on top shifted every id, and
    the resume skipped the new first task and planned the last one twice. Now the changed text of
    an id already in --out is bad input naming it."""
    f = tmp_path / "t.txt"
    out = tmp_path / "o.jsonl"
    f.write_text("Turn on the TV\nOpen the fridge\n")
    counts = run_batch(read_tasks(f), out, lambda t: {"done": True, "executability": {"executable": True}})
    assert counts["planned"] == 2 and counts["done"] == 2 and counts["not_done"] == 0
    f.write_text("Close the microwave\nTurn on the TV\nOpen the fridge\n")
    with pytest.raises(InputError, match="task id '1' is 'Turn on the TV' there but 'Close the microwave'"):
        run_batch(read_tasks(f), out, lambda t: {"done": True})
    assert len(out.read_text().splitlines()) == 2


def test_a_batch_the_goal_planner_reads_loads_no_planning_lm(tmp_path):
    """A new user's probe (7 Dec, eighth session): the planning LM was loaded for a batch whose
    tasks the goal planner reads (it uses none). It is loaded on the first task that falls back to
    the grounded planner; here none does: the progress never says "loading planning LM"."""
    f = tmp_path / "t.jsonl"
    f.write_text('{"id": "a", "task": "Close the door"}\n{"id": "b", "task": "Is the TV on?"}\n')
    out = tmp_path / "o.jsonl"
    r = subprocess.run(_cli("plan", "--tasks", str(f), "--out", str(out)), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "loading planning LM" not in r.stderr and "no task needed the planning LM" in r.stderr
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["exit"] for x in lines] == [0, 0] and lines[1]["result"]["answer"] == "yes"
    assert lines[0]["result"]["session"]["planning_model"] == "embedded (not loaded)"
