"""`actionable verify --env thor` end to end on a real TEACh episode, `scenes --env thor`, bad input,
and `--verbose` model notes."""

import json

from actionable.cli import main


class _R:
    def __init__(self, code, out, err):
        self.exit_code, self.output, self.err = code, out, err


class _Runner:
    """``main(argv)`` with stdout/stderr captured (the CLI registers its commands in ``main``)."""

    def __init__(self):
        self.capsys = None

    def invoke(self, _app, argv):
        code = main(list(argv))
        cap = self.capsys.readouterr()
        return _R(code, cap.out, cap.err)


runner = _Runner()
app = None


import pytest


@pytest.fixture(autouse=True)
def _capture(capsys):
    runner.capsys = capsys


def _noised(tmp_path, gid="a53339c1decca356_4b31"):
    from actionable.evaluation.verification.teach import load_demos

    d = next(d for d in load_demos() if d.id == gid)
    f = tmp_path / "episode.txt"
    f.write_text("\n".join(d.noised) + "\n", encoding="utf-8")
    return f


def test_verify_thor_teach_episode_end_to_end(tmp_path):
    f = _noised(tmp_path)
    r = runner.invoke(app, ["verify", str(f), "--env", "thor", "--scene", "a53339c1decca356_4b31", "--judge", "sim"])
    assert r.exit_code == 0, r.output
    assert "#REMOVE 2 [PUTBACK] <mug> <chair>" in r.output
    assert "1. PickUp(Mug)" in r.output and "2. Place(Sink)" in r.output
    assert "before no, after yes; goals met 0/1 -> 1/1" in r.output


def test_verify_thor_json_and_teach_prefix(tmp_path):
    f = tmp_path / "plan.txt"
    f.write_text("PickUp(Mug)\nPlace(Chair)\nPickUp(Mug)\nPlace(Sink)\n", encoding="utf-8")
    r = runner.invoke(app, ["verify", str(f), "--env", "thor", "--scene", "teach:a53339c1decca356_4b31",
                            "--judge", "rule", "--json"])
    assert r.exit_code == 1, r.output  # the rule judge's revision still does not execute: exit 1
    d = json.loads(r.output)
    assert d["env"] == "thor" and d["executable_before"] is False and d["executable_after"] is False
    assert "rounds" in d


def test_scenes_env_thor():
    r = runner.invoke(app, ["scenes", "--env", "thor", "--task", "coffee", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["count"] >= 12 and all("coffee" in f"{s['task']} {s['desc']}".lower() for s in d["scenes"])
    assert sum(s["task"] == "Coffee" for s in d["scenes"]) == 12


def _err(r):
    lines = [ln for ln in r.err.splitlines() if ln.strip()]
    return r.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error:")


def test_bad_inputs_give_one_error_line(tmp_path):
    ok = tmp_path / "ok.txt"
    ok.write_text("PickUp(Mug)\n", encoding="utf-8")
    bad = tmp_path / "bad.txt"
    bad.write_text("PickUp(Mug)\nDance wildly\n", encoding="utf-8")
    assert _err(runner.invoke(app, ["verify", str(ok), "--env", "mars", "--scene", "FloorPlan1"]))
    assert _err(runner.invoke(app, ["verify", str(ok), "--env", "thor", "--scene", "FloorPlan999", "--goal", "x"]))
    assert _err(runner.invoke(app, ["verify", str(ok), "--env", "thor", "--goal", "x"]))  # no scene
    r = runner.invoke(app, ["verify", str(bad), "--env", "thor", "--scene", "FloorPlan1", "--goal", "x",
                            "--judge", "rule"])
    assert _err(r) and "line 2" in r.err
    assert _err(runner.invoke(app, ["scenes", "--env", "nope"]))


class _Garbage:
    model_id = "stub:garbage"
    chat = False

    def generate(self, prompt, params):
        from actionable.lm.base import Completion

        return [Completion(" OK\n2. #MISSING: undone by step 3\n")]


def test_verbose_prints_model_notes(tmp_path, monkeypatch):
    import actionable.lm.registry as reg

    monkeypatch.setattr(reg, "load_lm", lambda *a, **k: _Garbage())
    f = tmp_path / "plan.txt"
    f.write_text("PickUp(Mug)\nPlace(Sink)\n", encoding="utf-8")
    args = ["verify", str(f), "--env", "thor", "--scene", "a53339c1decca356_4b31", "--judge", "llm"]
    quiet = runner.invoke(app, args)
    loud = runner.invoke(app, args + ["--verbose"])
    assert quiet.exit_code == 0 and loud.exit_code == 0, loud.output
    assert "model note" not in quiet.output
    assert "model note (the LLM's output, not your input): ignored MISSING" in loud.output


def test_kitchen_verify_reads_the_goal_as_plan_does_and_exits_1_when_it_fails(tmp_path, capsys):
    """The third session's new-user check: the kitchen's verify checked no goal for texts `plan`
    reads ("Put the apple in the fridge"), and exited 0 when the revised plan did not execute."""
    f = tmp_path / "k.txt"
    f.write_text("PickUp(Apple)\nPlace(Fridge)\n", encoding="utf-8")
    base = ["verify", str(f), "--env", "thor", "--scene", "FloorPlan1", "--goal", "Put the apple in the fridge"]
    assert main(base + ["--judge", "rule"]) == 1  # the rule judge adds no Open: still fails at step 2
    out = capsys.readouterr().out
    assert "after no" in out and "goals met 0/1 -> 0/1" in out
    assert main(base + ["--judge", "sim"]) == 0  # the sim judge inserts Open(Fridge): executes, goal met
    out = capsys.readouterr().out
    assert "read from the goal text by the goal interpreter" in out and "goals met 0/1 -> 1/1" in out
    assert main(base + ["--judge", "rule", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["executable_after"] is False
