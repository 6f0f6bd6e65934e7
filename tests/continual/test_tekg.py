"""TEKG update (Eq. 2-3, App. C.2 of ExRAP) and BM25 retrieval."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from actionable.continual.tekg import EXCLUSIVE, TEKG
from actionable.core.errors import ContinualError


def test_opposite_state_replaces_old_fact():
    g = TEKG()
    g.update([("tv_1", "is", "on"), ("tv_1", "in_room", "bedroom")], 0)
    g.update([("tv_1", "is", "off")], 3)
    triples = {q.triple: q.t for q in g}
    assert ("tv_1", "is", "on") not in triples
    assert triples[("tv_1", "is", "off")] == 3
    assert ("tv_1", "in_room", "bedroom") in triples  # not contradicted: kept


def test_one_object_one_place():
    g = TEKG()
    g.update([("cup_9", "on", "table_1"), ("cup_9", "in_room", "bedroom")], 0)
    g.update([("cup_9", "inside", "cupboard_2"), ("cup_9", "in_room", "dining_room")], 2)
    assert {q.triple for q in g.about("cup_9")} == {("cup_9", "inside", "cupboard_2"),
                                                   ("cup_9", "in_room", "dining_room")}


def test_agent_keeps_only_newest_facts():
    g = TEKG()
    g.update([("agent", "in_room", "bedroom"), ("agent", "holds", "cup_9")], 0)
    g.update([("agent", "in_room", "bathroom")], 1)
    assert [q.triple for q in g.about("agent")] == [("agent", "in_room", "bathroom")]


def test_negative_evidence_drops_objects_missing_from_their_room():
    g = TEKG()
    g.update([("cup_9", "on", "table_1"), ("cup_9", "in_room", "bedroom"),
              ("tv_1", "is", "on"), ("tv_1", "in_room", "bedroom")], 0)
    # back in the bedroom: the tv is seen, the cup is not -> the cup moved
    g.update([("tv_1", "is", "on"), ("tv_1", "in_room", "bedroom")], 5, room="bedroom")
    assert g.about("cup_9") == []
    assert {q.t for q in g.about("tv_1")} == {5}  # re-observed facts carry the new time


def test_time_cannot_go_back():
    g = TEKG()
    g.update([("tv_1", "is", "on")], 4)
    with pytest.raises(ContinualError, match="older"):
        g.update([("tv_1", "is", "off")], 2)


def test_retrieval_ranks_relevant_and_caps_k():
    g = TEKG()
    facts = [(f"lamp_{i}", "is", "on") for i in range(30)]
    facts += [(f"chair_{i}", "in_room", "bedroom") for i in range(30)]  # 'room' alone matches nothing
    facts += [("television_248", "is", "on"), ("television_248", "in_room", "dining_room")]
    g.update(facts, 7)
    got = g.retrieve("the television in the dining room is on", k=12)
    assert len(got) == 12
    assert {q.triple for q in got[:2]} == {("television_248", "is", "on"),
                                          ("television_248", "in_room", "dining_room")}
    assert all(q.t == 7 for q in got)
    assert not any(q.source.startswith("chair") for q in got)
    assert g.retrieve("zebra", k=12) == []
    with pytest.raises(ContinualError):
        g.retrieve("tv", k=0)


def test_compaction_keeps_content():
    g = TEKG()
    for t in range(400):  # flips one object 400 times: 399 tombstones, compaction kicks in
        g.update([("tv_1", "is", "on" if t % 2 else "off"), (f"cup_{t}", "in_room", "bedroom")], t)
    assert len(g) == 401
    assert [q.triple for q in g.about("tv_1")] == [("tv_1", "is", "on")]
    assert g.retrieve("tv 1 on", k=1)[0].triple == ("tv_1", "is", "on")


ENTS = [f"obj_{i}" for i in range(6)]
FACT = st.one_of(
    st.tuples(st.sampled_from(ENTS), st.just("is"), st.sampled_from(sorted(EXCLUSIVE))),
    st.tuples(st.sampled_from(ENTS), st.sampled_from(["on", "inside"]), st.sampled_from(["table_1", "box_2", "desk_3"])),
    st.tuples(st.sampled_from(ENTS + ["agent"]), st.just("in_room"), st.sampled_from(["bedroom", "bathroom"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.lists(FACT, max_size=6), st.sampled_from([None, "bedroom", "bathroom"])),
                max_size=12))
def test_no_contradictory_facts_survive(steps):
    g = TEKG()
    for t, (facts, room) in enumerate(steps):
        # a single observation is self-consistent: keep the last fact per (source, kind)
        clean = {}
        for s, r, o in facts:
            kind = "state:" + ("onoff" if o in ("on", "off") else "openclosed") if r == "is" else (
                "room" if r == "in_room" else "place")
            clean[(s, kind)] = (s, r, o)
        g.update(list(clean.values()), t, room=room)
        live = list(g)
        for q in live:
            for p in live:
                if q is p or q.source != p.source:
                    continue
                assert not (q.relation == p.relation == "is" and EXCLUSIVE[q.target] == p.target)
                if q.relation == p.relation == "in_room":
                    assert q.target == p.target
                if q.relation in ("on", "inside") and p.relation in ("on", "inside"):
                    assert q.triple == p.triple
        assert len({q.triple for q in live}) == len(live)
        assert len([q for q in live if q.source == "agent"]) <= 1


def test_retrieve_relevance_cutoff_drops_generic_matches():
    """With min_ratio, facts that share only a common token ('on') with the query
    are not retrieved; the plain top-k keeps them (the Eq. 5 reuse fix)."""
    from actionable.continual.tekg import TEKG
    from actionable.core.errors import ContinualError
    g = TEKG()
    g.update([("television_248", "is", "on"), ("television_248", "in_room", "dining_room"),
              ("lamp_1", "is", "on"), ("lamp_2", "is", "on"), ("lamp_3", "is", "off"),
              ("cup_5", "on", "table_7")], t=0)
    plain = {q.source for q in g.retrieve("television in the dining room is on", k=12)}
    cut = {q.source for q in g.retrieve("television in the dining room is on", k=12, min_ratio=0.5)}
    assert {"lamp_1", "lamp_2"} <= plain
    assert cut == {"television_248"}
    assert g.retrieve("television is on", k=12, min_ratio=1.0)[0].triple == ("television_248", "is", "on")
    with pytest.raises(ContinualError, match="min_ratio"):
        g.retrieve("television", k=3, min_ratio=1.5)


def test_compaction_never_runs_inside_an_update():
    """Regression (issue 25): compaction inside ``_remove`` renumbered the slots while ``update``
    still looped over indices taken before (a 300-step driving episode died with IndexError).
    Here one update removes 200 of 300 quadruples, crossing the half-dead threshold mid-loop."""
    g = TEKG()
    g.update([("agent", "sees", f"x_{i}") for i in range(200)] + [(f"cup_{i}", "is", "on") for i in range(100)], 0)
    g.update([("agent", "in_room", "bedroom")], 1)
    assert len(g) == 101 and [q.triple for q in g.about("agent")] == [("agent", "in_room", "bedroom")]
    assert all([q.triple for q in g.about(f"cup_{i}")] == [(f"cup_{i}", "is", "on")] for i in range(100))
    g.update([("cup_0", "is", "off")], 2)  # storage still consistent after the deferred compaction
    assert [q.triple for q in g.about("cup_0")] == [("cup_0", "is", "off")] and len(g) == 101
