"""The instruction interpreter (ExRAP Eq. 4): LM reading, translation to admissible
clauses, PMI polarity check, rule fallback - with scripted LMs."""

from __future__ import annotations

import pytest

from actionable.worlds.virtualhome.instructions import VirtualHomeVocabulary, parse_instruction
from actionable.continual.interpreter import interpret
from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
from actionable.core.continual import DynamicsConfig
from actionable.lm.scripted import ScriptedLM


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.scene import load_scene
    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(period=1000))


def test_interpreter_uses_lm_then_rule_and_logs(house):
    house.reset(0)
    good = parse_instruction("If the television in the dining room is on, switch it off.", house)
    lm = ScriptedLM([" television in the dining room is on\nexecution: switch off television in the dining room",
                     " the fridge is on\nexecution: switch off fridge"])
    lm.supports_score = False  # no polarity re-ranking here (tested below)
    tasks, log = interpret([good, good], VirtualHomeVocabulary(house), lm)
    assert [r["source"] for r in log] == ["lm", "rule"]
    assert "fridge" in log[1]["error"] and log[1]["lm_output"].startswith(" the fridge")
    assert tasks[0].execution == good.execution == tasks[1].execution


def test_interpreter_polarity_rerank_fixes_flipped_execution(house):
    house.reset(0)
    good = parse_instruction("If the television in the dining room is on, switch it off.", house)
    lm = ScriptedLM([" television in the dining room is on\nexecution: switch on television in the dining room"])
    # with the instruction in the prompt the scoring side prefers "off" (for the execution)
    # and "is on" (for the query); under the content-free instruction it has no preference
    def score(prompt, conts):
        if "Instruction: If the television" not in prompt:
            return [-3.0 for _ in conts]
        return [(-1.0 if " off" in c or c.endswith(" on") and "execution" not in prompt else -5.0) for c in conts]
    lm.score = score
    tasks, log = interpret([good], VirtualHomeVocabulary(house), lm)
    assert log[0]["source"] == "lm"
    assert log[0]["lm_output"].endswith("switch on television in the dining room")  # raw output kept
    assert tasks[0].execution == good.execution  # switch_off after re-ranking


def test_interpreter_pmi_calibration_ignores_a_global_preference(house):
    """A preference for 'switch on' that holds with or without the instruction is
    cancelled by the content-free calibration (Holtzman et al. 2021)."""
    house.reset(0)
    good = parse_instruction("If the television in the dining room is on, switch it off.", house)
    lm = ScriptedLM([" television in the dining room is on\nexecution: switch on television in the dining room"])

    def score(prompt, conts):
        if not prompt.endswith("execution:"):
            return [0.0 for _ in conts]  # query side: no preference, the LM's own reading stays
        table = ({"on": -1.0, "off": -1.5} if "Instruction: If the television" in prompt  # raw: "on" still wins
                 else {"on": -0.5, "off": -3.0})                          # content-free: strong "on" bias
        return [table["on" if "switch on" in c else "off"] for c in conts]
    lm.score = score
    tasks, log = interpret([good], VirtualHomeVocabulary(house), lm)
    assert log[0]["checked"]["query"] == "television in the dining room is on"
    assert log[0]["checked"]["execution"] == "switch off television in the dining room"  # PMI -1.5+3 > -1+0.5
    assert tasks[0].execution == good.execution


def test_translation_grounds_bare_and_near_names(house):
    """Eq. 4 output with a bare class name ('faucet': two in the house) and a
    near-name is mapped to the admissible clause over the objects the sentence names."""
    from actionable.continual.interpreter import translate
    from actionable.worlds.virtualhome.instructions import admissible_clauses, mentioned
    from actionable.grounding.embedder import BagOfWordsEmbedder

    house.reset(0)
    text = "If the faucet in the bathroom is on, close the door in the bathroom."
    names = [house.entity(n) for n in mentioned(text, house)]
    assert any(n.startswith("faucet") for n in names) and any(n.startswith("door") for n in names)
    qs, es = admissible_clauses(text, house)
    assert "faucet in the bathroom is on" in qs and "close door in the bathroom" in es
    assert not any("dining room" in q for q in qs if q.startswith("faucet"))  # the other faucet is not named
    got = translate(["faucet is on"], qs, BagOfWordsEmbedder())
    assert got[0][0] == "faucet in the bathroom is on"
    lm = ScriptedLM([" faucet is on\nexecution: close door"])
    lm.score = lambda prompt, conts: [0.0 for _ in conts]
    tasks, log = interpret([parse_instruction(text, house)], VirtualHomeVocabulary(house), lm, embedder=BagOfWordsEmbedder())
    assert log[0]["source"] == "lm", log[0]
    assert log[0]["translated"]["query"] == "faucet in the bathroom is on"
    assert [z.kind for z in tasks[0].execution] == ["close"]
    # without the translation stage the bare name is unusable and the rule reader takes over
    lm2 = ScriptedLM([" faucet is on\nexecution: close door"])
    lm2.score = lm.score
    _, log2 = interpret([parse_instruction(text, house)], VirtualHomeVocabulary(house), lm2)
    assert log2[0]["source"] == "rule" and "does not name one object" in log2[0]["error"]


def test_translation_with_no_named_object_falls_back(house):
    from actionable.continual.interpreter import translate  # noqa: F401
    from actionable.worlds.virtualhome.instructions import admissible_clauses
    house.reset(0)
    assert admissible_clauses("Please tidy up.", house) == ([], [])
    assert translate(["anything"], [], None) == []


def test_translation_below_min_similarity_is_rejected(house):
    """A clause far from every admissible clause is not a reading of the sentence:
    the interpreter falls back to the rule reader and says why."""
    import numpy as np

    from actionable.continual.interpreter import MIN_SIMILARITY

    class Orthogonal:  # every text its own direction: cosine 0 between distinct texts
        def encode(self, texts, batch_size=256):
            return np.eye(len(texts), dtype=np.float32)

    house.reset(0)
    text = "If the television in the dining room is on, switch it off."
    lm = ScriptedLM([" television is on\nexecution: switch off television"])
    lm.score = lambda prompt, conts: [0.0 for _ in conts]
    _, log = interpret([parse_instruction(text, house)], VirtualHomeVocabulary(house), lm, embedder=Orthogonal())
    assert MIN_SIMILARITY == 0.5
    assert log[0]["source"] == "rule" and "not close to any admissible clause" in log[0]["error"]
