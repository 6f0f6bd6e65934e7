"""Tests of the translation LMs and the admissible-action index."""

from __future__ import annotations

import numpy as np
import pytest

from actionable.core.errors import GroundingError, InputError, ModelNotFoundError
from actionable.grounding.embedder import BagOfWordsEmbedder, load_embedder
from actionable.grounding.index import ActionIndex, phrases_key

PHRASES = ["walk to bathroom", "grab toothbrush", "switch on tv", "open fridge",
           "put mug in sink", "sit on chair", "turn to computer", "walk to bedroom"]


class CountingEmbedder(BagOfWordsEmbedder):
    """The real bag-of-words embedder, counting how many texts it embedded."""

    def __init__(self):
        super().__init__(256)
        self.calls = 0

    def encode(self, texts, batch_size=256):
        self.calls += len(texts)
        return super().encode(texts, batch_size)


def test_bow_vectors_are_unit_float32_and_deterministic():
    e = load_embedder("bow")
    v = e.encode(["walk to bathroom", "Walk  to BATHROOM", "grab coffee_maker", ""])
    assert v.dtype == np.float32 and v.shape == (4, 1024)
    np.testing.assert_allclose(np.linalg.norm(v[:3], axis=1), 1.0, rtol=1e-6)
    assert np.all(v[3] == 0)  # empty text stays a zero vector
    np.testing.assert_array_equal(v[0], v[1])  # case/whitespace-insensitive
    # underscores split words: "coffee maker" equals "coffee_maker"
    np.testing.assert_array_equal(e.encode(["grab coffee maker"])[0], v[2])
    assert BagOfWordsEmbedder().encode(["walk to bathroom"]).tobytes() == v[:1].tobytes()


def test_load_embedder_rejects_unknown_specs(tmp_path):
    with pytest.raises(ModelNotFoundError, match="unknown translation model"):
        load_embedder("glove")
    with pytest.raises(ModelNotFoundError, match="empty"):
        load_embedder("  ")
    with pytest.raises(ModelNotFoundError, match="no sentence-transformers model"):
        load_embedder(f"st:{tmp_path}")
    with pytest.raises(InputError):
        load_embedder("bow").encode("a single string")


def test_search_returns_sorted_topk_with_correct_neighbour():
    idx = ActionIndex(BagOfWordsEmbedder(256), PHRASES)
    scores, ind = idx.search(["please walk to the bathroom", "grab the toothbrush now"], k=3)
    assert scores.shape == (2, 3) and ind.shape == (2, 3) and ind.dtype == np.int64
    assert PHRASES[ind[0, 0]] == "walk to bathroom"
    assert PHRASES[ind[1, 0]] == "grab toothbrush"
    assert np.all(np.diff(scores, axis=1) <= 1e-7)
    # brute force agrees
    q = idx.embedder.encode(["please walk to the bathroom"])
    assert ind[0, 0] == int(np.argmax(idx.matrix @ q[0]))
    # k is clipped to the number of actions
    s, i = idx.search(["x"], k=100)
    assert s.shape == (1, len(PHRASES))
    with pytest.raises(GroundingError):
        idx.search(["x"], k=0)
    assert idx.translate("switch the tv on") == ("switch on tv", pytest.approx(idx.search(["switch the tv on"])[0][0, 0]))


def test_cache_is_used_and_keyed_by_phrases_and_model(tmp_path):
    e = CountingEmbedder()
    a = ActionIndex(e, PHRASES, cache_dir=tmp_path)
    assert not a.cache_hit and e.calls == len(PHRASES) and a.cache_path.exists()
    b = ActionIndex(e, PHRASES, cache_dir=tmp_path)
    assert b.cache_hit and e.calls == len(PHRASES)  # nothing re-embedded
    np.testing.assert_array_equal(a.matrix, b.matrix)
    c = ActionIndex(e, PHRASES[:-1], cache_dir=tmp_path)
    assert not c.cache_hit
    assert phrases_key("m1", PHRASES) != phrases_key("m2", PHRASES)
    assert phrases_key("m1", PHRASES) != phrases_key("m1", list(reversed(PHRASES)))


def test_corrupt_cache_file_is_rebuilt(tmp_path):
    e = CountingEmbedder()
    a = ActionIndex(e, PHRASES, cache_dir=tmp_path)
    a.cache_path.write_bytes(b"not a numpy file")
    b = ActionIndex(e, PHRASES, cache_dir=tmp_path)
    assert not b.cache_hit and b.matrix.shape == (len(PHRASES), 256)
    assert ActionIndex(e, PHRASES, cache_dir=tmp_path).cache_hit


def test_index_input_errors():
    e = BagOfWordsEmbedder(64)
    with pytest.raises(GroundingError, match="empty"):
        ActionIndex(e, [])
    with pytest.raises(InputError):
        ActionIndex(e, ["ok", ""])
    with pytest.raises(GroundingError, match="aligned"):
        ActionIndex(e, ["a b", "c d"], items=[1])


def test_repeated_query_texts_are_embedded_once_and_give_identical_results():
    class Counting(BagOfWordsEmbedder):
        def __init__(self):
            super().__init__(256)
            self.encoded: list[str] = []

        def encode(self, texts, batch_size=64):
            self.encoded.extend(texts)
            return super().encode(texts, batch_size=batch_size)

    emb = Counting()
    idx = ActionIndex(emb, PHRASES)
    emb.encoded.clear()
    queries = ["grab the mug", "grab the mug", "walk to the bathroom", "grab the mug"]
    s1, i1 = idx.search(queries, k=2)
    assert emb.encoded == ["grab the mug", "walk to the bathroom"]
    s2, i2 = idx.search(list(reversed(queries)), k=2)
    assert emb.encoded == ["grab the mug", "walk to the bathroom"]  # all memoised
    assert np.array_equal(i1, i2[::-1]) and np.allclose(s1, s2[::-1])
    fresh = ActionIndex(BagOfWordsEmbedder(256), PHRASES)
    s3, i3 = fresh.search(queries, k=2)
    assert np.array_equal(i1, i3) and np.allclose(s1, s3)


def test_neighbours_are_memoised_per_text_and_k_and_equal_a_fresh_search():
    """Issue 27: a text already searched with the same k is neither embedded nor multiplied again;
    the memo is keyed by k, bounded, and not shared with a restricted view (other rows)."""
    from actionable.grounding import index as index_mod

    emb = CountingEmbedder()
    idx = ActionIndex(emb, PHRASES)
    calls = []
    real = idx._top_k
    idx._top_k = lambda q, k: (calls.append(q.shape[0]), real(q, k))[1]
    emb.calls = 0
    a = idx.search(["grab the mug", "open the fridge", "grab the mug"], k=3)
    b = idx.search(["open the fridge", "sit down", "grab the mug"], k=3)
    assert calls == [2, 1] and emb.calls == 3  # only new texts, each once
    c = idx.search(["grab the mug"], k=1)
    assert calls == [2, 1, 1] and emb.calls == 3  # another k: multiplied again, not re-embedded
    ref = ActionIndex(BagOfWordsEmbedder(256), PHRASES)
    for got, q, k in ((a, ["grab the mug", "open the fridge", "grab the mug"], 3),
                      (b, ["open the fridge", "sit down", "grab the mug"], 3), (c, ["grab the mug"], 1)):
        want = ref.search(q, k=k)
        assert np.array_equal(got[1], want[1]) and np.allclose(got[0], want[0], atol=1e-6)
        assert got[0].dtype == np.float32 and got[1].dtype == np.int64 and got[0].shape == (len(q), k)
    del idx._top_k  # the spy would travel into the view's __dict__
    view = idx.restrict([4, 5, 6])
    s, i = view.search(["grab the mug"], k=3)
    assert sorted(i[0].tolist()) == [0, 1, 2]  # indices into the view's rows, not the memo's
    s0, i0 = idx.search([], k=2)
    assert s0.shape == (0, 2) and i0.shape == (0, 2)
    old = index_mod.QUERY_MEMO
    index_mod.QUERY_MEMO = 3
    try:
        idx.search([f"walk to room {n}" for n in range(6)], k=2)
        assert len(idx._topk_memo) <= 3
    finally:
        index_mod.QUERY_MEMO = old


def test_search_by_matrix_is_not_memoised_and_matches_texts():
    emb = BagOfWordsEmbedder(256)
    idx = ActionIndex(emb, PHRASES)
    q = emb.encode(["put the mug in the sink", "watch tv"])
    s1, i1 = idx.search(q, k=2)
    s2, i2 = idx.search(["put the mug in the sink", "watch tv"], k=2)
    assert np.array_equal(i1, i2) and np.allclose(s1, s2, atol=1e-6) and not idx._topk_memo.get(("x", 2))
