"""ExRAP's LM interpreter in the SUMO town (issue 25, "an LM instruction interpreter like the other
worlds'"): the driving vocabulary's clauses and parsers agree with the rule reader on every
template, bad clauses are typed errors, and the embedded LM reads a sampled set for real (rules as
the fallback, and the record says which reader read each instruction). Skipped without SUMO."""

from __future__ import annotations

import pytest

from actionable.core.errors import InputError
from actionable.worlds.driving.sumo import sumo_available

pytestmark = pytest.mark.skipif(not sumo_available(),
                                reason='Eclipse SUMO not installed: pip install -e ".[dev,driving]" torch==2.13.0')


@pytest.fixture(scope="module")
def house():
    from actionable.continual.worlds import get_world

    h = get_world("driving").make_house("town", "medium")
    h.reset(0)
    yield h
    h.world.close()


@pytest.fixture(scope="module")
def vocab(house):
    from actionable.continual.worlds import get_world

    return get_world("driving").vocabulary(house)


def _sets(house, world):
    return [ins for seed in range(8) for ins in world.sample(house, 12, seed)]


def test_clauses_and_parsers_agree_with_the_rule_reader(house, vocab):
    """For 96 sampled instructions (every template, every street kind): the canonical clauses are
    among the candidates built from the sentence, and parsing them gives the rule reader's
    predicates, skills and goal exactly."""
    from actionable.continual.worlds import get_world

    seen = set()
    for ins in _sets(house, get_world("driving")):
        seen.add(ins.template)
        qs, es = vocab.clauses(ins.text)
        assert ins.query_text in qs and ins.execution_text in es, (ins.text, qs, es)
        assert vocab.parse_condition(ins.query_text) == ins.query
        skills, goal = vocab.parse_execution(ins.execution_text)
        assert skills == ins.execution and goal == ins.goal, ins.text
        assert dict(vocab.parse_instruction(ins.text).to_dict(), template=ins.template) == ins.to_dict()
        assert len(vocab.cloze(ins.query)) == 1
    from actionable.worlds.driving.continual import TEMPLATES
    assert seen == {t[0] for t in TEMPLATES}


@pytest.mark.parametrize("clause, kind, needle", [
    ("light on Moon Street towards the sea is red", "condition", "no street"),
    ("pedestrian is waiting at the crossing at the moon", "condition", "no place"),
    ("the sky is green", "condition", "conditions:"),
    ("stop on Nowhere Lane", "execution", "no street"),
    ("yield at the volcano", "execution", "no place"),
    ("turn left", "execution", "actions:"),
])
def test_unreadable_clauses_are_typed_errors(vocab, clause, kind, needle):
    parse = vocab.parse_condition if kind == "condition" else vocab.parse_execution
    with pytest.raises(InputError, match=needle):
        parse(clause)


def test_a_sentence_that_names_nothing_still_has_the_car_clauses(vocab):
    qs, es = vocab.clauses("If the car ahead stops for more than 10 s, overtake it.")
    assert qs == ["car ahead is stalled"] and es == ["overtake the car ahead"]


def test_garbage_lm_output_falls_back_to_the_rule_reader(house, vocab):
    """A hostile or off-topic LM answer is not a reading: the rule reader reads the sentence, and
    the record says so (with the LM's text and why it was refused)."""
    from actionable.continual.interpreter import interpret
    from actionable.continual.worlds import get_world
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.scripted import ScriptedLM

    ins = get_world("driving").sample(house, 3, 1)
    lm = ScriptedLM([" import os; os.system('rm -rf /')\nexecution: fly to the moon",
                     " the sky is green\nexecution: sing", ""])
    tasks, log = interpret(ins, vocab, lm, load_embedder("minilm"))
    assert [r["source"] for r in log] == ["rule"] * 3, log
    assert all("LM interpretation unusable" in r["error"] for r in log)
    assert [(t.query, t.execution) for t in tasks] == [(i.query_text, i.execution) for i in ins]


def test_an_action_said_without_its_street_is_read_on_the_condition_street(vocab):
    qs, _ = vocab.clauses("If the light on High Street towards the station is red, stop.")
    q = next(c for c in qs if c.startswith("light on"))
    assert vocab.complete_execution("stop before the line", q) == "stop before the line on High Street towards the station"
    assert vocab.complete_execution("overtake it", "car ahead is stalled") == "overtake it"
    assert vocab.complete_execution("yield", "pedestrian is waiting at the crossing at the park") == "yield at the park"


@pytest.mark.slow  # about 1 min: the embedded SmolLM2 and MiniLM read 12 instructions
def test_the_embedded_lm_reads_driving_instructions(house, vocab):
    """The real model reads a sampled set through the driving prompt and the translation LM; every
    task it produces is the rule reader's (the candidate clauses are those of the sentence's own
    street or place, so a misreading can only pick another kind on that street). Measured: 12 of 12
    read by the LM, all equal to the rule reading (6 of 12 before the execution was read with its
    condition's street: SmolLM2 copies "stop before the line", which names no street)."""
    from actionable.continual.interpreter import interpret
    from actionable.continual.worlds import get_world
    from actionable.core.config import LMConfig
    from actionable.grounding.embedder import load_embedder
    from actionable.lm.registry import load_lm

    world = get_world("driving")
    ins = world.sample(house, 12, 3)
    lm = load_lm("embedded", LMConfig(cache=False))
    tasks, log = interpret(ins, vocab, lm, load_embedder("minilm"))
    assert len(tasks) == 12 and all(r["lm_output"] is not None for r in log)
    by_lm = [r for r in log if r["source"] == "lm"]
    assert len(by_lm) >= 11, [(r["text"], r["lm_output"], r["error"]) for r in log]
    for t, i, r in zip(tasks, ins, log):
        if r["source"] == "lm":
            assert (t.query, t.execution) == (i.query_text, i.execution), (r["text"], r["lm_output"])
