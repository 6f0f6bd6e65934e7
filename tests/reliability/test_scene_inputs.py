"""Scene / graph JSON validation (issue 8, item 1): ``SceneGraph.from_dict`` turns
every malformed graph into a :class:`SceneError` that says what to fix."""

from __future__ import annotations

import copy

import pytest

from actionable.worlds.virtualhome.scene import SceneGraph
from actionable.core.errors import SceneError

GOOD = {
    "nodes": [
        {"id": 1, "class_name": "bedroom", "category": "Rooms", "properties": [], "states": []},
        {"id": 2, "class_name": "character", "category": "Characters", "properties": [], "states": []},
        {"id": 3, "class_name": "mug", "category": "Props", "properties": ["GRABBABLE"], "states": []},
    ],
    "edges": [
        {"from_id": 2, "relation_type": "INSIDE", "to_id": 1},
        {"from_id": 3, "relation_type": "INSIDE", "to_id": 1},
    ],
}


def _mut(fn):
    g = copy.deepcopy(GOOD)
    fn(g)
    return g


BAD = {
    "not a dict": (lambda: ["nodes"], "dict"),
    "missing nodes": (lambda: {"edges": []}, "nodes"),
    "missing edges": (lambda: {"nodes": GOOD["nodes"]}, "edges"),
    "nodes not a list": (lambda: _mut(lambda g: g.update(nodes={"1": {}})), "node"),
    "node missing id": (lambda: _mut(lambda g: g["nodes"][2].pop("id")), "id"),
    "node missing class_name": (lambda: _mut(lambda g: g["nodes"][2].pop("class_name")), "class_name"),
    "node id is text": (lambda: _mut(lambda g: g["nodes"][2].update(id="three")), "id"),
    "duplicate node id": (lambda: _mut(lambda g: g["nodes"][2].update(id=1)), "duplicate"),
    "dangling edge target": (lambda: _mut(lambda g: g["edges"].append(
        {"from_id": 3, "relation_type": "ON", "to_id": 999})), "999"),
    "dangling edge source": (lambda: _mut(lambda g: g["edges"].append(
        {"from_id": 777, "relation_type": "ON", "to_id": 1})), "777"),
    "edge missing relation": (lambda: _mut(lambda g: g["edges"][0].pop("relation_type")), "relation_type"),
    "edge not a dict": (lambda: _mut(lambda g: g["edges"].append([2, "ON", 1])), "edge"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_malformed_graph_raises_scene_error(name):
    make, expect = BAD[name]
    with pytest.raises(SceneError) as info:
        SceneGraph.from_dict(make())
    assert expect.lower() in str(info.value).lower(), str(info.value)


def test_good_graph_round_trips():
    g = SceneGraph.from_dict(GOOD)
    assert len(g) == 3 and g.nodes_of_class("mug") == [3]
    again = SceneGraph.from_dict(g.to_dict())
    assert again.node_ids == g.node_ids and sorted(again.edges) == sorted(g.edges)
