"""VirtualHome PUTBACK keeps GRAB's old ``INSIDE <room>`` edge (issue 25 item 2): an object carried
to another room must be in that room in the continual truth (room_of, observations, the oracle's
distances), and in exactly one room."""

from __future__ import annotations

import pytest

from actionable.core.continual import DynamicsConfig, Skill
from actionable.worlds.virtualhome.nonstationary import CHARACTER_ID, NonStationaryHouse


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.scene import load_scene
    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(period=1000))


def _rooms_of(house, node):
    from virtualhome_eval.simulation.evolving_graph.environment import Relation
    return [r for r in house._state.get_node_ids_from(node, Relation.INSIDE) if r in house.rooms]


def _a_move_to_another_room(house):
    """A (movable, surface in another room) pair whose move the simulator executes."""
    for m in house.movables:
        for s in house.surfaces:
            if house.room_of(s) == house.room_of(m):
                continue
            house.reset(seed=0)
            if house.step(Skill("move_onto", (m, s), "move")).executed:
                house.reset(seed=0)
                return m, s
    raise AssertionError("no executable move to another room")


def test_moved_object_is_in_the_destination_room(house):
    house.reset(seed=0)
    node, dest = _a_move_to_another_room(house)
    src_room, dest_room = house.room_of(node), house.room_of(dest)
    res = house.step(Skill("move_onto", (node, dest), "move"))  # WALK, GRAB, WALK, PUTBACK
    assert res.executed, res.error
    assert house.placement(node) == ("on", dest)
    assert house.room_of(node) == dest_room != src_room
    assert _rooms_of(house, node) == [dest_room]  # the stale room edge is gone
    obs = house.observe()  # the agent stands at the destination: it sees the object there
    assert obs.room == house.rooms[dest_room]
    ent = house.entity(node)
    assert (ent, "in_room", house.rooms[dest_room]) in obs.facts
    assert house.distance(CHARACTER_ID, node) == 0


def test_held_object_travels_with_the_agent_and_put_on_rehomes_it(house):
    house.reset(seed=0)
    node, dest = _a_move_to_another_room(house)
    ok = house._run_atomic(f"[WALK] <{house.class_of[node]}> ({node})") is None
    ok = ok and house._run_atomic(f"[GRAB] <{house.class_of[node]}> ({node})") is None
    assert ok
    other = next(r for r in house.rooms if r != house.room_of(CHARACTER_ID))
    assert house._run_atomic(f"[WALK] <{house.class_of[other]}> ({other})") is None
    assert house.room_of(CHARACTER_ID) == other
    assert house.room_of(node) == other  # carried: where the agent is, not where it was grabbed
    res = house.step(Skill("put_on", (node, dest), "put"))
    assert res.executed, res.error
    assert house.room_of(node) == house.room_of(dest) and _rooms_of(house, node) == [house.room_of(dest)]
