"""Replay documents, the HTML writer and `actionable show` without a browser (issue 28);
tests/viz/test_browser.py opens the same files in headless Chromium."""

from __future__ import annotations

import json
import re

import pytest

from actionable.cli import main
from actionable.viz.document import follow_document, plan_document, verify_document
from actionable.viz.html import render_html

EVIL = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> Turn on TV & </script>'
WALK_TV = 'scripted:["walk to television\\nswitch on television"]'


_CACHE: dict = {}


def plan_json(tmp_path, task="Turn on TV", model=WALK_TV, extra=()):
    """`actionable plan --json` with a scripted model (no LM), as a dict and its file (run once
    per session: the planner is the slow part, not what is tested here)."""
    out = tmp_path / "plan.json"
    key = (task, model, tuple(extra))
    if key in _CACHE:
        out.write_text(_CACHE[key], encoding="utf-8")
        return json.loads(_CACHE[key]), out
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = main(["plan", task, "--model", model, "--json", "-q", *extra])
    assert rc in (0, 1)
    out.write_text(buf.getvalue(), encoding="utf-8")
    _CACHE[key] = buf.getvalue()
    return json.loads(buf.getvalue()), out


def test_plan_document_state_changes_path_and_goals(tmp_path):
    plan, _ = plan_json(tmp_path)
    doc = plan_document(plan)
    assert doc["kind"] == "plan" and doc["world"] == "virtualhome"
    steps = doc["steps"]
    assert [s["text"] for s in steps][-1].startswith("switch on television")
    on = steps[-1]
    assert on["executed"] and any(re.search(r"television \(\d+\): OFF -> ON", c) for c in on["changes"]), on
    assert steps[0]["at"] is not None and steps[0]["room"] is not None  # the walk's place and room
    ids = {i["id"] for i in doc["map"]["items"]} | {r["id"] for r in doc["map"]["rooms"]}
    assert all(s["at"] in ids for s in steps if s["at"])  # every place walked to is on the map
    assert any(i["name"] == "television" for i in doc["map"]["items"])
    assert doc["map"]["rooms"] and all(r["w"] > 0 for r in doc["map"]["rooms"])
    on_goal = [g for g in doc["goals"] if "television" in g["text"] and g["text"].endswith(" is ON")]
    assert on_goal and on_goal[0]["met"] is True and on_goal[0]["step"] == on["n"], doc["goals"]
    assert plan_document(plan)["map"] == doc["map"]  # deterministic layout


def test_failed_step_has_unmet_preconditions(tmp_path):
    plan = {"task": "Turn on TV", "world": "virtualhome", "scene": "default", "steps": [],
            "resolved_program": None, "executability": None, "goal_check": None}
    from actionable.worlds.virtualhome.scene import load_scene

    g = load_scene("default")
    tv = next(t for t in g.nodes_of_class("television") if "OFF" in g.states_of(t))
    plan["resolved_program"] = {"steps": [{"action": "SWITCHON", "args": [["television", tv]]}]}
    doc = plan_document(plan)
    s = doc["steps"][0]
    assert not s["executed"] and s["error"] and s["unmet"], s


def test_html_escapes_task_text_and_is_self_contained(tmp_path):
    plan, _ = plan_json(tmp_path)
    plan["task"] = EVIL
    page = render_html(plan_document(plan))
    assert page.count("<script") == 2  # the data element and the one inline script
    assert "window.__pwned=1" in page  # the text is kept ...
    assert "<script>window.__pwned" not in page and "<img src=x" not in page  # ... but never as markup
    data = page.split('id="replay-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data)["title"] == EVIL
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "") and "https://" not in page
    assert "default-src 'none'" in page  # the page may load nothing


def test_verify_document_critiques_before_after(tmp_path):
    rec = {"goal": "Turn on TV", "initial": "[WALK] <television> (1)\n[GRAB] <television> (1)",
           "final": "[WALK] <television> (1)", "converged": True, "revisions": 1,
           "rounds": [{"round": 1, "critiques": [{"kind": "REMOVE", "index": 1, "action": "[GRAB] <television> (1)",
                                                   "reason": "a television cannot be grabbed"}],
                       "goal_conditions": ["ON(television)"]},
                      {"round": 2, "critiques": [{"kind": "MISSING", "index": None, "action": "switch on television",
                                                   "reason": "the goal needs the TV on"}]}]}
    doc = verify_document(rec)
    assert doc["before"] == ["[WALK] <television> (1)", "[GRAB] <television> (1)"]
    assert doc["after"] == ["[WALK] <television> (1)"]
    assert [(c["round"], c["kind"], c["step"]) for c in doc["critiques"]] == [(1, "REMOVE", 2), (2, "MISSING", None)]
    assert doc["critiques"][0]["reason"] == "a television cannot be grabbed"
    assert doc["goals"] == [{"text": "ON(television)", "met": None, "step": None}]


def test_follow_html_and_show_trace(tmp_path, capsys):
    trace, html, png = tmp_path / "t.jsonl", tmp_path / "f.html", tmp_path / "f.png"
    rc = main(["follow", "--agent", "oracle", "--steps", "20", "--nonstationarity", "high", "--count", "3",
               "--trace", str(trace), "--html", str(html), "--png", str(png), "-q"])
    assert rc == 0, capsys.readouterr()
    page = html.read_text(encoding="utf-8")
    doc = json.loads(page.split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    assert doc["kind"] == "follow" and len(doc["timeline"]) == 20 and len(doc["instructions"]) == 3
    assert all(isinstance(x, bool) for x in doc["timeline"][0]["truth"])
    assert png.stat().st_size > 2000
    out = tmp_path / "again.html"
    assert main(["show", str(trace), "--html", str(out)]) == 0
    doc2 = json.loads(out.read_text().split('id="replay-data">', 1)[1].split("</script>", 1)[0])
    assert doc2["timeline"] == doc["timeline"]


def test_show_plan_json_and_png(tmp_path, capsys):
    _, f = plan_json(tmp_path)
    png = tmp_path / "p.png"
    assert main(["show", str(f), "--png", str(png)]) == 0
    assert f.with_suffix(".html").is_file() and png.stat().st_size > 2000


@pytest.mark.parametrize("content,what", [
    ("hello world\n", "not a saved run"),
    ('{"t": 0, "skill": "go", "room": "kitchen"}\n{"t": 1, "sk', "line 2 is not JSON"),
    ('{"t": 0, "skill": "go", "room": "kitchen"}\n', "without its closing summary"),
    ('[1, 2]', "not a saved run"),
    ('{"a": 1}', "not a saved run"),
    ('{"task": "x", "ste', "truncated"),
])
def test_show_bad_input_one_error_line(tmp_path, capsys, content, what):
    f = tmp_path / "run.jsonl"
    f.write_text(content, encoding="utf-8")
    assert main(["show", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:") and str(f) in err and what in err, err


def test_show_eval_run_unknown_id(tmp_path, capsys):
    d = tmp_path / "run"
    d.mkdir()
    plan, _ = plan_json(tmp_path)
    (d / "run.jsonl").write_text(json.dumps({"key": "a1", "status": "ok", "payload": {}, "result": {"plan": plan}})
                                 + "\n" + json.dumps({"key": "b2", "status": "ok", "payload": {}, "result": {"plan": plan}})
                                 + "\n", encoding="utf-8")
    assert main(["show", str(d), "--id", "zz"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no record with id 'zz'" in err and "run.jsonl" in err and "a1" in err
    assert main(["show", str(d)]) == 2
    assert "choose one with --id" in capsys.readouterr().err
    assert main(["show", str(d), "--id", "b2"]) == 0
    assert (d / "replay.html").is_file()


def test_thor_map_and_replay():
    from actionable.core.registry import capability

    m = capability("thor", "scene_map")("FloorPlan1")
    lay = m.layout(())
    assert lay["kind"] == "kitchen" and lay["items"] and lay == m.layout(())
    assert m.replay([]) == []


def test_world_checker_checks_scene_map():
    from actionable.worlds.checker import check_capabilities

    assert "scene_map" in check_capabilities("virtualhome")
    assert "scene_map" in check_capabilities("thor")


def _page_doc(path):
    return json.loads(path.read_text(encoding="utf-8").split('id="replay-data">', 1)[1].split("</script>", 1)[0])


def test_verify_html_virtualhome_cli(tmp_path, capsys):
    from actionable.worlds.virtualhome.scene import load_scene

    tv = next(t for t in load_scene("default").nodes_of_class("television") if "OFF" in load_scene("default").states_of(t))
    f = tmp_path / "plan.txt"
    f.write_text(f"# task: Turn on TV\n[WALK] <television> ({tv})\n[GRAB] <television> ({tv})\n"
                 f"[SWITCHON] <television> ({tv})\n", encoding="utf-8")
    html = tmp_path / "v.html"
    assert main(["verify", str(f), "--judge", "sim", "--html", str(html), "-q"]) == 0, capsys.readouterr()
    doc = _page_doc(html)
    assert doc["kind"] == "verify" and len(doc["before"]) == 3
    assert doc["critiques"] and all(c["kind"] in ("REMOVE", "MISSING") and c["reason"] for c in doc["critiques"])
    assert doc["map"] is not None and doc["steps"]


def test_thor_plan_and_verify_html(tmp_path, capsys):
    f = tmp_path / "detour.txt"
    f.write_text("walk to sink\nwalk to mug\ngrab mug\nwalk to coffee machine\nput mug in coffee machine\n"
                 "switch on coffee machine\n", encoding="utf-8")
    html = tmp_path / "tv.html"
    assert main(["verify", str(f), "--env", "thor", "--scene", "FloorPlan1", "--goal", "Make coffee",
                 "--judge", "sim", "--html", str(html), "-q"]) == 0, capsys.readouterr()
    doc = _page_doc(html)
    assert [c["kind"] for c in doc["critiques"]] == ["REMOVE"] and doc["critiques"][0]["step"] == 1
    assert len(doc["before"]) == 6 and len(doc["after"]) == 5
    assert doc["map"]["kind"] == "kitchen", doc["map"]
    assert any("CoffeeMachine" in c and "isToggled" in c for s in doc["steps"] for c in s["changes"]), doc["steps"]
