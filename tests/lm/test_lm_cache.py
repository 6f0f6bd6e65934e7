import json
import multiprocessing as mp
import sqlite3

import pytest

from actionable.core.errors import ConfigError, LMError
from actionable.lm.base import GenerationParams
from actionable.lm.cache import CachedLM, request_key
from actionable.lm.scripted import ScriptedLM


def test_miss_then_hit_identical(tmp_path):
    inner = ScriptedLM([["walk to bedroom", "grab cup"]], logprob=-0.25)
    lm = CachedLM(inner, tmp_path)
    p = GenerationParams(n=2, seed=1)
    a = lm.generate("Task: make coffee", p)
    assert (lm.hits, lm.misses) == (0, 2)
    b = lm.generate("Task: make coffee", p)  # inner queue is empty: must come from the cache
    assert a == b
    assert (lm.hits, lm.misses) == (2, 2)
    assert inner.remaining == 0 and len(inner.prompts) == 1
    # a fresh process-level object on the same file also hits
    lm2 = CachedLM(ScriptedLM([]), tmp_path / "lm-cache.sqlite")
    assert lm2.generate("Task: make coffee", p) == a


def test_key_depends_on_every_param_but_not_n():
    p = GenerationParams(n=3, seed=0)
    base = request_key("m", "x", p, 0)
    assert request_key("m", "x", GenerationParams(n=7, seed=0), 0) == base
    for other in [request_key("m2", "x", p, 0), request_key("m", "y", p, 0), request_key("m", "x", p, 1),
                  request_key("m", "x", p, 0, rollout_id=1),
                  request_key("m", "x", GenerationParams(n=3, seed=1), 0),
                  request_key("m", "x", GenerationParams(n=3, seed=0, temperature=0.7), 0),
                  request_key("m", "x", GenerationParams(n=3, seed=0, stop=(".",)), 0)]:
        assert other != base


def test_more_samples_reuse_first_ones(tmp_path):
    inner = ScriptedLM([["a", "b"], ["X", "Y", "c", "d"]])
    lm = CachedLM(inner, tmp_path)
    first = lm.generate("p", GenerationParams(n=2, seed=0))
    more = lm.generate("p", GenerationParams(n=4, seed=0))
    assert [c.text for c in more] == ["a", "b", "c", "d"]  # stored samples never change
    assert more[:2] == first
    assert (lm.hits, lm.misses) == (2, 4)
    fewer = lm.generate("p", GenerationParams(n=1, seed=0))
    assert fewer == first[:1]


def test_score_cached(tmp_path):
    inner = ScriptedLM([])
    lm = CachedLM(inner, tmp_path)
    s = lm.score("p", ["a b", "c"])
    assert lm.score("p", ["c", "a b"]) == [s[1], s[0]]
    assert lm.hits == 2 and lm.misses == 2


def test_no_secret_in_db(tmp_path, monkeypatch):
    secret = "sk-test-DO-NOT-STORE-123"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    lm = CachedLM(ScriptedLM(["x"]), tmp_path)
    lm.generate("p", GenerationParams())
    lm.close()
    raw = (tmp_path / "lm-cache.sqlite").read_bytes()
    assert secret.encode() not in raw


def test_unusable_path_is_config_error(tmp_path):
    bad = tmp_path / "notadb.sqlite"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(ConfigError, match="--no-cache"):
        CachedLM(ScriptedLM([]), bad)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(ConfigError):
        CachedLM(ScriptedLM([]), blocker / "sub" / "c.sqlite")


def test_inner_error_propagates_and_keeps_earlier_entries(tmp_path):
    lm = CachedLM(ScriptedLM(["one"]), tmp_path)
    lm.generate("p1", GenerationParams())
    with pytest.raises(LMError):
        lm.generate("p2", GenerationParams())
    assert len(lm) == 1
    assert lm.generate("p1", GenerationParams())[0].text == "one"


def _worker(path, wid, q):
    outs = [[f"w{wid}-{i}-{j}" for j in range(3)] for i in range(40)]
    lm = CachedLM(ScriptedLM(outs), path)
    got = []
    for i in range(40):
        # half the prompts are shared between the two processes
        prompt = f"shared-{i}" if i % 2 == 0 else f"own-{wid}-{i}"
        got.append((prompt, [c.text for c in lm.generate(prompt, GenerationParams(n=3, seed=0))]))
    q.put(got)


def test_two_processes_share_one_cache(tmp_path):
    path = tmp_path / "c.sqlite"
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(str(path), w, q)) for w in (0, 1)]
    for p in procs:
        p.start()
    results = [q.get(timeout=120) for _ in procs]
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    db = sqlite3.connect(str(path))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    n = db.execute("SELECT COUNT(*) FROM completions").fetchone()[0]
    assert n == (20 + 2 * 20) * 3  # shared prompts stored once
    # after both finished, every stored entry is what a fresh reader sees
    lm = CachedLM(ScriptedLM([]), path)
    for got in results:
        for prompt, texts in got:
            if prompt.startswith("own"):
                assert [c.text for c in lm.generate(prompt, GenerationParams(n=3, seed=0))] == texts
    for i in range(0, 40, 2):
        stored = [c.text for c in lm.generate(f"shared-{i}", GenerationParams(n=3, seed=0))]
        assert len({s.split("-")[0] for s in stored}) == 1  # one writer's samples, never a mix
        for got in results:  # both processes returned what is stored
            assert dict(got)[f"shared-{i}"] == stored
    for row in db.execute("SELECT value FROM completions"):
        json.loads(row[0])


def test_backend_numerics_id_is_part_of_the_key(tmp_path):
    """A cache written by another runtime build / engine version / CPU is not reused (issue 12)."""
    p = GenerationParams(n=1, seed=0)
    assert request_key("m", "x", p, 0, numerics_id=None) == request_key("m", "x", p, 0)
    assert request_key("m", "x", p, 0, numerics_id="a") != request_key("m", "x", p, 0, numerics_id="b")
    old = ScriptedLM([["old"]])
    old.numerics_id = "engine 1"
    assert CachedLM(old, tmp_path).generate("p", p)[0].text == "old"
    new = ScriptedLM([["new"]])
    new.numerics_id = "engine 2"
    lm = CachedLM(new, tmp_path)
    assert lm.numerics_id == "engine 2"
    assert lm.generate("p", p)[0].text == "new" and lm.misses == 1
