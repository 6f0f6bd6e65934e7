"""``actionable scenes`` end to end through the root CLI (real packaged data)."""

from __future__ import annotations

import json

from actionable.cli import main


def test_scenes_lists_default_and_518_programs(capsys):
    assert main(["scenes", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["program_count"] == 518 and out["task_count"] == 26
    assert out["default"]["nodes"] > 500 and out["default"]["classes"] > 200
    assert {"id": "1003_2", "task": "Write an email", "steps": 22} in out["programs"]


def test_scenes_table_and_task_filter(capsys):
    assert main(["scenes", "--task", "coffee"]) == 0
    out = capsys.readouterr().out
    assert "default" in out and "Make coffee" in out and "Write an email" not in out


def test_scene_details(capsys):
    assert main(["scenes", "1003_2", "--admissible", "--classes", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["nodes"] == 288 and info["task"] == "Write an email"
    assert info["admissible_actions"] == sum(info["admissible_by_action"].values()) > 1000
    assert info["class_counts"]["light"] == 4
    assert set(info["objects_per_room"]) == {"bathroom", "bedroom", "dining_room", "home_office"}


def test_bad_input_is_one_line_exit_2(capsys):
    assert main(["scenes", "kitchen_99"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "unknown scene/program id 'kitchen_99'" in err and err.count("\n") == 1
    assert main(["scenes", "--classes"]) == 2
    assert "name it" in capsys.readouterr().err
