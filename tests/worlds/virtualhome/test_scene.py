"""Scenes and programs loaded from the data of PyPI virtualhome-eval."""

from __future__ import annotations

import copy

import pytest

from actionable.core.program import Program
from actionable.worlds.virtualhome.scene import (
    ADDED_ID_START, SceneGraph, build_default_scene, list_program_ids, list_scenes,
    load_graphs, load_program, load_properties_data, load_scene,
)
from actionable.core.errors import ActionableError, SceneError


def test_518_program_ids(program_ids):
    assert len(program_ids) == 518
    assert "1003_2" in program_ids
    assert program_ids == sorted(program_ids, key=lambda p: tuple(map(int, p.split("_"))))
    assert list_scenes() == ["default", *program_ids]


def test_load_program_has_node_ids():
    prog = load_program("1003_2")
    assert isinstance(prog, Program)
    assert prog.task == "Write an email"
    assert prog.steps[0].action == "RUN" and prog.steps[0].args[0].id == 319
    assert all(s.is_resolved for s in prog.steps)
    assert len(prog) == 22


def test_unknown_program_suggests_close_ids():
    with pytest.raises(SceneError, match="1003_2"):
        load_program("1003_3")
    with pytest.raises(ActionableError, match="unknown scene/program id"):
        load_scene("kitchen_world")


def test_program_scene_is_house_plus_added_objects():
    init, final = load_graphs("1003_2")
    sc = load_scene("1003_2")
    assert len(sc) == len(init["nodes"])
    base = [i for i in sc.node_ids if i < ADDED_ID_START]
    assert len(base) == 275
    assert sc.rooms == [1, 67, 201, 319]
    assert sc.character_id == 65
    assert sc.class_of(1) == "bathroom"
    assert sc.room_of(413) == 319  # mouse in the home office
    assert sc.room_of(319) == 319
    assert "computer" in sc.class_names()
    assert sc.nodes_of_class("computer") == [170, 417]
    assert {"from_id", "to_id", "relation_type"} <= set(final["edges"][0])


def _tiny():
    return {"nodes": [
        {"id": 1, "class_name": "kitchen", "category": "Rooms", "properties": [], "states": []},
        {"id": 2, "class_name": "character", "category": "Characters", "properties": [], "states": []},
        {"id": 3, "class_name": "mug", "category": "Props", "properties": ["GRABBABLE"], "states": []},
    ], "edges": [{"from_id": 2, "relation_type": "INSIDE", "to_id": 1},
                 {"from_id": 3, "relation_type": "INSIDE", "to_id": 1}]}


def test_scene_graph_round_trip():
    g = _tiny()
    sc = SceneGraph.from_dict(g)
    d = sc.to_dict()
    assert d == g
    d["nodes"][0]["states"].append("DIRTY")  # copies: the scene is not changed
    assert sc.states_of(1) == frozenset()
    assert sc.targets(3, "INSIDE") == [1]


@pytest.mark.parametrize("mutate, message", [
    (lambda g: g["nodes"][2].pop("class_name"), "lacks key"),
    (lambda g: g["nodes"].append(dict(g["nodes"][2])), "duplicate node id 3"),
    (lambda g: g["edges"].append({"from_id": 3, "relation_type": "ON", "to_id": 99}), "dangling"),
    (lambda g: g["edges"].append({"from_id": 3, "relation_type": "NEAR", "to_id": 1}), "relation"),
    (lambda g: g["edges"].append({"from_id": 3, "to_id": 1}), "edge #2"),
    (lambda g: g["nodes"][1].update(id="2"), "integers"),
    (lambda g: g.pop("edges"), "'nodes' and 'edges'"),
])
def test_malformed_graph_raises_scene_error(mutate, message):
    g = copy.deepcopy(_tiny())
    mutate(g)
    with pytest.raises(SceneError, match=message):
        SceneGraph.from_dict(g)


def test_properties_data_affordances():
    props = load_properties_data()
    assert len(props) > 300
    assert "GRABBABLE" in props["mug"]
    assert "HAS_SWITCH" in props["computer"]
    assert "CAN_OPEN" in props["fridge"]


def test_default_scene_merges_all_programs(default_scene, program_ids):
    sc = default_scene
    assert sc.name == "default"
    assert sc.character_id == 65
    assert len(sc.targets(65, "INSIDE")) == 1
    # every class any program starts with is present, and every node has a room
    classes = set(sc.class_names())
    for pid in program_ids[::25]:
        init, _ = load_graphs(pid)
        assert {n["class_name"] for n in init["nodes"]} <= classes, pid
    assert all(sc.room_of(i) is not None for i in sc.node_ids)
    assert sc.nodes_of_class("coffe_maker")  # VirtualHome's spelling
    added = [i for i in sc.node_ids if i >= ADDED_ID_START]
    assert len(set(added)) == len(added)
    # duplicates merged and decluttered: far fewer objects than the 7,761 added over all programs
    assert 300 < len(added) < 7761


def test_default_house_is_one_a_person_could_live_in(default_scene, program_ids):
    """Issue 12: at most 3 added instances per class, furniture stays usable, and every
    class any packaged program acts on is still there."""
    from collections import Counter

    from actionable.worlds.virtualhome.default_scene import MAX_PER_CLASS, OCCUPANCY
    from actionable.core.program import Program
    from actionable.worlds.virtualhome.resolver import resolve_and_execute
    from actionable.worlds.virtualhome.scene import load_program

    sc = default_scene
    per_class = Counter(sc.class_of(i) for i in sc.node_ids if i >= ADDED_ID_START)
    assert max(per_class.values()) <= MAX_PER_CLASS
    for f in sc.node_ids:
        limit = OCCUPANCY.get(sc.class_of(f))
        if limit:
            on = [a for a in sc.node_ids if f in sc.targets(a, "ON")]
            assert len(on) < limit, (sc.class_of(f), f, [sc.class_of(a) for a in on])
    used = {a.name for pid in program_ids for st in load_program(pid).steps for a in st.args}
    assert used <= set(sc.class_names())
    sleep = resolve_and_execute(Program.parse("walk to bed\nlie on bed\nsleep"), sc)
    assert sleep.executable, sleep.error  # "Too many things on <bed>" before the declutter rule


def test_default_scene_deterministic_and_merges_duplicates():
    pids = list_program_ids()[:30]
    a = build_default_scene(pids)
    b = build_default_scene(list(reversed(pids)))
    assert a == b
    # one program merged with itself adds nothing new
    one = build_default_scene([pids[0]])
    twice = build_default_scene([pids[0], pids[0]])
    assert one == twice
    init, _ = load_graphs(pids[0])
    n_added = sum(1 for n in init["nodes"] if n["id"] >= ADDED_ID_START)
    assert sum(1 for n in one["nodes"] if n["id"] >= ADDED_ID_START) == n_added
    SceneGraph.from_dict(a)  # valid


def test_default_scene_disk_cache(default_scene):
    import json

    from actionable.core.config import default_cache_dir

    files = list(default_cache_dir().glob("default_scene_v*.json"))
    assert files, "the merged default scene is cached on disk"
    on_disk = SceneGraph.from_dict(json.loads(max(files, key=lambda p: p.stat().st_mtime).read_text()))
    assert on_disk.to_dict() == default_scene.to_dict()
    assert load_scene(None).to_dict() == default_scene.to_dict()
