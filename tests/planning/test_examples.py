"""Example bank, dynamic example selection and task splits."""

from __future__ import annotations

import json

import pytest

from actionable.core.errors import InputError, PlanningError
from actionable.grounding.embedder import BagOfWordsEmbedder
from actionable.planning.examples import (Example, ExampleBank, make_task_split, normalize_task)
from actionable.planning.prompts import clean_task, split_generated_steps

BANK = ExampleBank([
    Example("Watch TV", "Sit and watch", ("walk to home office", "switch on tv", "sit on sofa"), "w1"),
    Example("Watch TV", "Quick look at tv", ("switch on tv",), "w2"),
    Example("Watch TV", "Long evening", ("walk to home office", "switch on tv", "sit on sofa", "watch tv"), "w3"),
    Example("Brush teeth", "", ("walk to bathroom", "grab toothbrush"), "b1"),
    Example("Read book", "", ("grab book", "read book"), "r1"),
])


def test_select_most_similar_task_and_exclusion():
    emb = BagOfWordsEmbedder(512)
    ex, sim = BANK.select("Brush the teeth", emb)
    assert ex.task == "Brush teeth" and 0 < sim <= 1.0001
    ex, _ = BANK.select("Brush teeth", emb, exclude_task="brush  TEETH.")
    assert ex.task != "Brush teeth"
    with pytest.raises(PlanningError, match="excluded"):
        BANK.select("x", emb, exclude_task=["watch tv", "brush teeth", "read book"])


def test_select_uses_description_within_the_chosen_task():
    emb = BagOfWordsEmbedder(512)
    ex, _ = BANK.select("Watch TV", emb, description="a long evening")
    assert ex.source == "w3"
    ex, _ = BANK.select("Watch TV", emb)
    assert ex.source == "w1"  # median-length program


def test_fixed_example_is_deterministic_and_respects_exclusion():
    assert BANK.fixed().source == "w1"
    assert BANK.fixed(exclude_task="Watch TV").task in {"Brush teeth", "Read book"}
    assert BANK.fixed().to_prompt() == ("Task: Watch TV\nStep 1: Walk to home office\n"
                                        "Step 2: Switch on tv\nStep 3: Sit on sofa")


def test_task_split_disjoint_reproducible_versioned():
    tasks = [f"Task {c}" for c in "abcdefghijklmnopqrst"] + ["task A"]
    s1 = make_task_split(tasks, seed=3, heldout_fraction=0.25)
    s2 = make_task_split(list(reversed(tasks)), seed=3, heldout_fraction=0.25)
    assert s1 == s2
    assert not set(s1.heldout_tasks) & set(s1.bank_tasks)
    assert set(s1.heldout_tasks) | set(s1.bank_tasks) == {normalize_task(t) for t in tasks}
    assert len(s1.heldout_tasks) == 5  # 20 distinct names ("task A" == "Task a")
    assert make_task_split(tasks, seed=4, heldout_fraction=0.25) != s1
    assert make_task_split(tasks, seed=3, heldout_fraction=0.25, version="v2").heldout_tasks != s1.heldout_tasks
    assert json.loads(json.dumps(s1.to_dict()))["seed"] == 3
    with pytest.raises(InputError):
        make_task_split(["only one"], seed=0)
    with pytest.raises(InputError):
        make_task_split(tasks, heldout_fraction=1.0)


def test_restrict_keeps_only_bank_tasks():
    b = BANK.restrict(["watch tv"])
    assert {e.task for e in b.examples} == {"Watch TV"} and len(b) == 3
    with pytest.raises(PlanningError):
        BANK.restrict(["nothing"])


def test_jsonl_bank(tmp_path):
    p = tmp_path / "bank.jsonl"
    p.write_text(json.dumps({"task": "Make tea", "steps": ["walk to kitchen", "[GRAB] <mug> (3)"]}) + "\n\n"
                 + json.dumps({"task": "Sleep", "description": "go to bed",
                               "program": "walk to bedroom\nlie on bed\n"}) + "\n")
    bank = ExampleBank.from_jsonl(p)
    assert [e.steps for e in bank.examples] == [("walk to kitchen", "grab mug"),
                                                ("walk to bedroom", "lie on bed")]
    assert bank.examples[1].source == "bank.jsonl:3"
    bad = tmp_path / "bad.jsonl"
    for content, msg in [("{not json", "invalid JSON"), (json.dumps({"steps": ["grab mug"]}), "task"),
                         (json.dumps({"task": "x", "steps": []}), "steps"),
                         (json.dumps({"task": "x", "steps": ["dance wildly"]}), "bad step"), ("", "no examples")]:
        bad.write_text(content)
        with pytest.raises(InputError, match=msg):
            ExampleBank.from_jsonl(bad)
    with pytest.raises(InputError, match="cannot read"):
        ExampleBank.from_jsonl(tmp_path / "missing.jsonl")


def test_clean_task_and_step_splitting():
    assert clean_task("  Make\tcoffee\x00 now \u200b") == "Make coffee now"
    assert clean_task(b"Make coffee") == "Make coffee"
    for bad in ["", "\x00\x01", "a" * 301, "1234567890 !!!", b"\xff\xfe", None]:
        with pytest.raises(InputError):
            clean_task(bad)
    assert split_generated_steps(" Walk to kitchen\nStep 2: grab mug\nstep 3. open fridge\n\nTask: x", 20) == [
        "Walk to kitchen", "grab mug", "open fridge"]
    assert split_generated_steps(" a\nStep 2: b\nNot a step\nStep 3: c", 20) == ["a", "b"]
    assert split_generated_steps(" a\nStep 2: b", 1) == ["a"]


def test_clean_task_never_fails_untyped():
    """Any text either cleans to a short printable task or raises InputError."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=300, deadline=None)
    @given(st.text(max_size=400))
    def check(text):
        try:
            out = clean_task(text)
        except InputError:
            return
        assert out and len(out) <= 300 and out == out.strip()
        assert all(c.isprintable() for c in out)

    check()


def test_clean_task_strips_whole_terminal_escape_sequences():
    from actionable.planning.prompts import clean_task

    assert clean_task("Make\x1b[31m coffee\x07\x01") == "Make coffee"
    assert clean_task("Watch\x1b]0;title\x07 TV") == "Watch TV"


def test_empty_bank_is_refused_unless_allowed_and_retrieves_nothing():
    from actionable.planning.retrieval import ProgramRetriever

    with pytest.raises(PlanningError):
        ExampleBank([])
    bank = ExampleBank.empty()
    assert len(bank) == 0 and bank.allow_empty
    assert ProgramRetriever(bank, BagOfWordsEmbedder()).nearest("Stack the blocks", k=3) == []


def test_select_reads_the_task_name_matrix_from_the_disk_cache(tmp_path):
    """Issue 27: with ``cache_dir`` the task names are embedded once per machine (the action
    index's .npy cache), and the selection is the one without a cache."""
    class Counting(BagOfWordsEmbedder):
        def __init__(self):
            super().__init__(512)
            self.n = 0

        def encode(self, texts, batch_size=256):
            self.n += len(texts)
            return super().encode(texts, batch_size)

    plain = ExampleBank(list(BANK.examples)).select("Brush the teeth", BagOfWordsEmbedder(512),
                                                     exclude_task="read book")
    first = Counting()
    got = ExampleBank(list(BANK.examples)).select("Brush the teeth", first, exclude_task="read book",
                                                  cache_dir=tmp_path)
    assert got == plain and first.n == 3 + 1 and list((tmp_path / "action_index").glob("*.npy"))
    second = Counting()
    again = ExampleBank(list(BANK.examples)).select("Brush the teeth", second, exclude_task="read book",
                                                    cache_dir=tmp_path)
    assert again == plain and second.n == 1  # only the query task
