"""Instruction templates, seeded sets, the rule reader and instruction files."""

from __future__ import annotations

import json

import pytest

from actionable.worlds.virtualhome.instructions import TEMPLATES, load_instructions, parse_instruction, sample_instructions
from actionable.core.continual import Predicate, save_instructions
from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
from actionable.core.errors import InputError


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.scene import load_scene
    h = NonStationaryHouse(load_scene("1003_2"))
    h.reset(0)
    return h


def test_at_least_twenty_distinct_templates():
    assert len(TEMPLATES) >= 20
    assert len({t[0] for t in TEMPLATES}) == len(TEMPLATES)
    assert len({t[1] for t in TEMPLATES}) == len(TEMPLATES)


@pytest.mark.parametrize("n", [3, 5, 7])
def test_sets_are_seeded_distinct_and_grounded(house, n):
    a = sample_instructions(house, n, seed=11)
    b = sample_instructions(house, n, seed=11)
    c = sample_instructions(house, n, seed=12)
    assert [i.text for i in a] == [i.text for i in b]
    assert [i.text for i in a] != [i.text for i in c]
    assert len(a) == n and len({i.template for i in a}) == n
    objs = [i.nodes - set(house.rooms) for i in a]
    for x in range(n):
        for y in range(x + 1, n):
            assert not objs[x] & objs[y]  # no object shared by two instructions
    for ins in a:
        assert all(node in house.class_of for node in ins.nodes)


def test_every_template_round_trips_through_the_rule_reader(house):
    seen = set()
    for seed in range(40):
        for ins in sample_instructions(house, 7, seed):
            seen.add(ins.template)
            back = parse_instruction(ins.text, house)
            assert (back.query, back.goal, back.execution) == (ins.query, ins.goal, ins.execution)
    assert len(seen) >= 20


def test_reader_examples_and_errors(house):
    ins = parse_instruction("Whenever the cup is on the table in the dining room, put it on the desk in the bedroom.", house)
    assert ins.query == (Predicate("on", 2009, 226),)
    assert ins.goal == (Predicate("on", 2009, 104),)
    # an everyday name is the house's class (a new user's "fridge" was refused though the error listed "freezer")
    fridge = parse_instruction("If the fridge is open, close it.", house)
    assert fridge.query == parse_instruction("If the freezer is open, close it.", house).query
    with pytest.raises(InputError, match="no 'spaceship' in this house"):
        parse_instruction("If the spaceship is open, close it.", house)
    with pytest.raises(InputError, match="If <condition>"):
        parse_instruction("please tidy up", house)
    with pytest.raises(InputError, match="no switch"):
        parse_instruction("If the cup is on the table in the dining room, switch on the desk in the bedroom.", house)


def test_instruction_files(tmp_path, house):
    txt = tmp_path / "ins.txt"
    txt.write_text("# standing orders\nIf the television in the dining room is on, switch it off.\n\n"
                   "When the door in the bathroom is open, close it.\n")
    got = load_instructions(txt, house)
    assert [i.execution[0].kind for i in got] == ["switch_off", "close"]
    js = tmp_path / "ins.json"
    save_instructions(got, js)
    assert [i.to_dict() for i in load_instructions(js, house)] == [i.to_dict() for i in got]
    bad = tmp_path / "bad.txt"
    bad.write_text("If the television in the dining room is on, switch it off.\nIf the spaceship is on, land it.\n")
    with pytest.raises(InputError, match="line 2"):
        load_instructions(bad, house)
    with pytest.raises(InputError, match="does not exist"):
        load_instructions(tmp_path / "missing.txt", house)
    (tmp_path / "broken.json").write_text("[{")
    with pytest.raises(InputError, match="invalid JSON"):
        load_instructions(tmp_path / "broken.json", house)
    (tmp_path / "empty.txt").write_text("# nothing\n")
    with pytest.raises(InputError, match="no instructions"):
        load_instructions(tmp_path / "empty.txt", house)
    (tmp_path / "rec.json").write_text(json.dumps([{"text": "x"}]))
    with pytest.raises(InputError, match="record 1: cannot read instruction"):
        load_instructions(tmp_path / "rec.json", house)


@pytest.mark.parametrize("n", [3, 7, 12])
def test_saved_sets_are_re_read_not_trusted(tmp_path, house, n):
    """A saved set reloads to the same instructions (every template's clause texts read back), and
    an edited record is checked as a text line is: an unknown object or a tampered ground truth is
    not taken from the file."""
    for seed in range(6):
        got = sample_instructions(house, n, seed=seed)
        js = tmp_path / f"set{n}-{seed}.json"
        save_instructions(got, js)
        assert [i.to_dict() for i in load_instructions(js, house)] == [i.to_dict() for i in got]
    recs = json.loads(js.read_text())
    forged = dict(recs[0], query=[["state", 999999, "on"]], goal=[["state", 999999, "off"]])
    (tmp_path / "forged.json").write_text(json.dumps([forged] + recs[1:]))
    again = load_instructions(tmp_path / "forged.json", house)
    assert again[0].to_dict() == got[0].to_dict()  # the ids come from the clause texts, not the file
    broken = dict(recs[1], query_text="the spaceship is on")
    (tmp_path / "broken-rec.json").write_text(json.dumps([recs[0], broken]))
    with pytest.raises(InputError, match="record 2:.*spaceship"):
        load_instructions(tmp_path / "broken-rec.json", house)
    unreadable = dict(recs[0], text="If the spaceship in the garage is on, turn it off.")
    (tmp_path / "text-edited.json").write_text(json.dumps([unreadable] + recs[1:]))
    with pytest.raises(InputError, match="record 1:.*spaceship"):  # the text the agent reads is checked too
        load_instructions(tmp_path / "text-edited.json", house)
    (tmp_path / "none.json").write_text("[]")
    with pytest.raises(InputError, match="empty JSON list"):
        load_instructions(tmp_path / "none.json", house)
