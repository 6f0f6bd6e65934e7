"""One short real episode: embedded SmolLM2 (llama.cpp) on the real VirtualHome scene."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def lm():
    from actionable.core.config import LMConfig
    from actionable.lm.registry import load_lm
    return load_lm("embedded", LMConfig(cache=False))


@pytest.fixture(scope="module")
def house():
    from actionable.worlds.virtualhome.nonstationary import NonStationaryHouse
    from actionable.core.continual import DynamicsConfig
    from actionable.worlds.virtualhome.scene import load_scene
    return NonStationaryHouse(load_scene("1003_2"), DynamicsConfig(level="high"))


def test_exrap_real_episode(lm, house):
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=0)
    from actionable.grounding.embedder import load_embedder
    agent = make_agent("exrap", lm, ins)
    res = run_episode(agent, house, ins, steps=10, seed=0, lm=lm, embedder=load_embedder("minilm"))
    assert len(res.trace) == 10
    # the interpreter really ran the model, translated its clauses with MiniLM and
    # logged every stage (Eq. 4)
    assert all(isinstance(r["lm_output"], str) for r in res.interpretation)
    assert {r["source"] for r in res.interpretation} <= {"lm", "rule"}
    assert any("translated" in r for r in res.interpretation)
    right = sum(r["execution"] == [z.text for z in i.execution] for r, i in zip(res.interpretation, ins))
    assert right >= 2, res.interpretation  # 65/68 executions right on 10 seeds (docs/results.md)
    s = res.stats
    assert s["query_lm_calls"] >= 3 and s["lm_calls"] >= s["query_lm_calls"]
    assert 0.0 <= s["reuse_rate"] <= 1.0 and s["query_evaluations"] == 10 * len(ins)
    beliefs = [v for rec in res.trace for v in rec["beliefs"].values()]
    assert all(0.0 <= v <= 1.0 for v in beliefs)
    assert len({round(v, 3) for v in beliefs}) > 3  # real log-probs, not a constant
    rooms = {rec["room"] for rec in res.trace}
    assert len(rooms) >= 2  # the agent explored
    m = res.metrics
    if m["n_success"] + m["n_failure"]:
        assert 0.0 <= m["sr"] <= 1.0 and m["ps"] >= 0.0
    else:
        assert m["sr"] is None


def test_llm_planner_and_sample_mode_real(lm, house):
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=1)
    r1 = run_episode(make_agent("llm-planner", lm, ins), house, ins, steps=5, seed=1, lm=lm)
    assert r1.stats["lm_calls"] == 5
    # sample mode on an instruction about an object in the start room, so the query has
    # evidence from step 0 (without evidence no LM call is made: the uniform prior)
    from actionable.worlds.virtualhome.instructions import name_of, name_table, parse_instruction
    room = house.reset(1).room
    here = [n for n in name_table(house).values() if n in house.switchables
            and house.rooms.get(house.static_room.get(n)) == room]
    assert here, room
    seen = [parse_instruction(f"If the {name_of(house, here[0])} is on, switch it off.", house)]
    r2 = run_episode(make_agent("exrap-sample", lm, seen), house, seen, steps=4, seed=1, lm=None)
    assert r2.stats["query_evaluations"] == 4 and r2.stats["query_lm_calls"] >= 1
    assert all(rec["skill"] for rec in r2.trace)


def test_zsp_writes_a_step_with_the_real_model(lm, house):
    """Regression: with a prompt ending 'Next step:' SmolLM2 continued the numbered
    instruction list and ZSP got an empty step every time."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=2)
    r = run_episode(make_agent("zsp", lm, ins), house, ins, steps=3, seed=2, lm=None)
    assert any("LM wrote ''" not in rec["why"] for rec in r.trace), [rec["why"] for rec in r.trace]


SPREAD = ("If the faucet in the bathroom is on, turn it off.",
          "If the computer in the bedroom is on, switch it off.",
          "If the toaster in the dining room is on, turn it off.",
          "If the television in the home office is on, switch it off.")


def test_exrap_visits_every_room_a_condition_points_at(lm, house, tmp_path):
    """Issue 25's target "every room visited within 40 steps when conditions are spread over the
    house": one condition in each of the four rooms of 1003_2, ExRAP with the embedded LM, rule
    reading (the `follow -i` path). Measured: every room by t=4 on seeds 1-3 (docs/results.md);
    before the Eq. 11-12 value scales the agent shuttled between two rooms for whole episodes."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import load_instructions

    f = tmp_path / "spread.txt"
    f.write_text("\n".join(SPREAD) + "\n", encoding="utf-8")
    ins = load_instructions(f, house)
    res = run_episode(make_agent("exrap", lm, ins), house, ins, steps=40, seed=1, lm=None)
    first: dict[str, int] = {}
    for rec in res.trace:
        first.setdefault(rec["room"], rec["t"])
    assert set(first) == {"bathroom", "bedroom", "dining_room", "home_office"}, first
    assert max(first.values()) < 40
    assert res.metrics["n_success"] >= 4, res.metrics


def test_progprompt_real_episode(lm, house):
    """The ProgPrompt-style baseline with the embedded model: real line scores, admissible skills."""
    from actionable.continual.episode import make_agent, run_episode
    from actionable.worlds.virtualhome.instructions import sample_instructions

    house.reset(0)
    ins = sample_instructions(house, 3, seed=0)
    res = run_episode(make_agent("progprompt", lm, ins), house, ins, steps=8, seed=0)
    assert len(res.trace) == 8 and res.stats["lm_calls"] == 8
    assert all(r["why"].startswith(("line ", "assert(", "every line")) for r in res.trace), res.trace
    scores = {r["why"].split("(LM ")[1].split(")")[0] for r in res.trace if "(LM " in r["why"]}
    assert len(scores) >= 2  # real, varying log-probs
    assert sum(r["executed"] for r in res.trace) >= 6


def test_exrap_visits_every_room_when_conditions_are_spread(tmp_path, capsys):
    """Issue 25: with one standing instruction about each room of 1003_2, ExRAP (real SmolLM2, high
    non-stationarity) reaches every room within 40 steps and does not settle in two of them."""
    import collections
    import json

    from actionable.cli import main

    ins = tmp_path / "spread.txt"
    ins.write_text("If the light in the bathroom is on, switch it off.\n"
                   "Once the computer in the bedroom is off, switch it back on.\n"
                   "Whenever the light in the home office is on, close the cupboard in the dining room.\n"
                   "When the door in the dining room is closed, open it.\n", encoding="utf-8")
    trace = tmp_path / "t.jsonl"
    assert main(["follow", "--instructions", str(ins), "--nonstationarity", "high", "--steps", "40", "--seed", "1",
                 "--trace", str(trace), "-q"]) == 0
    capsys.readouterr()
    rooms = [r["room"] for r in map(json.loads, trace.read_text().splitlines()) if "summary" not in r]
    assert len(rooms) == 40
    visits = collections.Counter(rooms)
    assert set(visits) == {"bathroom", "bedroom", "dining_room", "home_office"}, visits
    assert min(visits.values()) >= 3, visits  # each room again and again, not one look
