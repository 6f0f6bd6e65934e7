"""The kitchen continual world (``--env thor``): KitchenHouse, kitchen instructions, the world spec,
ExRAP and the baselines with scripted LMs, bad input. No language model is loaded here."""

from __future__ import annotations

import json
import math

import pytest

from actionable.continual.episode import make_agent, run_episode
from actionable.continual.worlds import ContinualWorld, get_world
from actionable.core.continual import DynamicsConfig, Skill
from actionable.core.errors import ConfigError, InputError, SceneError, SimulatorError, UnknownSceneError
from actionable.worlds.thor.continual import (CONTINUAL_WORLD, TEMPLATES, interpret_kitchen,
                                              load_kitchen_instructions, parse_kitchen,
                                              sample_kitchen_instructions)
from actionable.worlds.thor.kitchen import AGENT_ID, KitchenHouse


@pytest.fixture()
def still():
    """A kitchen that never changes by itself (period 1000), reset."""
    h = KitchenHouse("FloorPlan1", DynamicsConfig(period=1000))
    h.reset(0)
    return h


def node(h, name):
    return next(n for n in list(h.surfaces) + list(h.movables) + list(h.switchables) if h.name(n) == name)


def test_spec_is_registered_and_house_offers_the_agent_interface():
    w = get_world("thor")
    assert w is CONTINUAL_WORLD and isinstance(w, ContinualWorld) and w.name == "thor"
    assert w.scene == "FloorPlan1" and not w.lm_interpreter and w.max_instructions == 8
    assert ("dirty", "clean") in w.exclusive and ("empty", "occupied") in w.exclusive
    assert w.run_fields() == {"env": "thor"} and w.describe("high") == "changes every 4 steps"
    h = w.make_house("FloorPlan5", "low")
    assert isinstance(h, KitchenHouse) and h.config.steps_between_changes == 8
    assert sorted(h.rooms.values()) == ["coffee_machine", "counter", "fridge", "microwave", "sink", "stove"]
    assert all(h.room_hops[a][b] == (a != b) for a in h.rooms for b in h.rooms)
    assert [z.text for z in h.navigation_skills()][:2] == ["go to the counter", "go to the sink"]
    obs = h.reset(0)
    assert obs.room == "counter" and ("agent", "in_room", "counter") in obs.facts
    assert AGENT_ID not in h.oid and h.room_of(AGENT_ID) == h.room_id("counter")


def test_step_before_reset_and_malformed_skills_raise_typed_errors():
    h = KitchenHouse("FloorPlan1")
    with pytest.raises(SimulatorError, match="before reset"):
        h.step(Skill("wait"))
    h.reset(0)
    with pytest.raises(SimulatorError, match="unknown kitchen skill 'fly'"):
        h.step(Skill("fly", (100,)))
    with pytest.raises(SimulatorError, match="takes 2 node"):
        h.step(Skill("move_onto", (107,)))


def test_partial_observability_closed_fridge_hides_its_contents(still):
    h = still
    apple, fridge = node(h, "apple"), node(h, "fridge")
    res = h.step(Skill("move_onto", (apple, fridge), "put the apple in the fridge"))
    assert res.executed and res.actions[-2].startswith("PutObject(") and res.actions[-1].startswith("Close(")
    assert h.placement(apple) == ("on", fridge) and h.states_of(fridge) == {"closed"}
    ent = h.entity(apple)
    # the agent saw what it put away (touched), but a fresh look at the closed fridge hides it
    assert (ent, "on", h.entity(fridge)) in res.observation.facts
    assert not any(f[0] == ent for f in h.observe().facts)
    assert h.step(Skill("open", (fridge,))).executed
    assert (ent, "on", h.entity(fridge)) in h.observe().facts
    h.step(Skill("go", (h.room_id("counter"),)))
    assert not any(f[0] == ent for f in h.observe().facts)  # not visible from another area
    assert any(f[0] == ent for f in h.observe(full=True).facts)


def test_skills_run_thor_actions_with_effects_and_failures(still):
    h = still
    burner, mug, sink = node(h, "stove burner"), node(h, "mug"), node(h, "sink")
    r = h.step(Skill("switch_on", (burner,)))
    assert r.executed and "ToggleOn(StoveKnob" in r.actions[-1] and h.states_of(burner) == {"on", "empty"}
    h.state.objects[h.oid[mug]].dirty = True
    r = h.step(Skill("clean", (mug,)))
    assert r.executed and h.states_of(mug) == {"clean"} and h.placement(mug) == ("on", sink)
    r = h.step(Skill("clean", (mug,)))  # already clean: THOR's Clean precondition fails, no raise
    assert not r.executed and "isDirty" in r.error
    r = h.step(Skill("switch_off", (node(h, "coffee machine"),)))
    assert not r.executed and "isToggled" in r.error


def test_dynamics_depend_only_on_seed_and_event_index():
    def changes(seed, level="high"):
        h = KitchenHouse("FloorPlan1", DynamicsConfig(level=level))
        h.reset(seed, focus={node(h, "apple"), node(h, "fridge")})
        return [c for _ in range(24) for c in h.step(Skill("wait")).changed]

    a = changes(3)
    assert a == changes(3) and a != changes(4) and len(a) >= 6
    assert changes(3, "low")[:3] == a[:3]  # same events, later (every 8 steps instead of 4)
    kinds = " ".join(changes(1) + changes(2) + changes(3))
    assert "moved onto" in kinds and "became" in kinds


def test_templates_parse_to_query_and_execution_naming_an_area(still):
    h = still
    for tid, surface, types in TEMPLATES:
        ins = parse_kitchen(surface.format(X=(types[0].lower() if types else "")), h)
        assert ins.query and ins.goal and len(ins.execution) == 1, tid
        assert any(a.replace("_", " ") in ins.query_text for a in h.rooms.values()), (tid, ins.query_text)
    ins = parse_kitchen("Whenever the tap at the sink is running, turn it off.", h)
    assert ins.query_text == "faucet at the sink is on" and ins.execution_text == "switch off the faucet"
    ins = parse_kitchen("If the stove burner is on and nothing is on it, switch it off.", h)
    assert [p.value for p in ins.query] == ["on", "empty"] and ins.goal[0].value == "off"
    ins = parse_kitchen("If there is an apple on the counter, put it in the refrigerator.", h)
    assert ins.nodes >= {node(h, "apple"), node(h, "counter"), node(h, "fridge")}


@pytest.mark.parametrize("text,msg", [
    ("If the tv is on, switch it off.", "no 'tv' in this kitchen"),
    ("If the apple on the counter is dirty, clean it.", "apple is never dirty"),
    ("If the fridge is open, clean it.", "cannot be cleaned"),
    ("If the mug is dirty, put it on the coffee machine and dance.", "no .coffee machine and dance."),
    ("If there is a pan on the counter, put it in the coffee machine.", "canContain"),
    ("Close the fridge.", "If <condition>, <action>"),
])
def test_bad_instruction_text_is_a_typed_error(still, text, msg):
    with pytest.raises(InputError, match=msg):
        parse_kitchen(text, still)


def test_sampling_is_seeded_with_distinct_subjects_and_sizes_checked(still):
    h = still
    a = sample_kitchen_instructions(h, 5, 2)
    assert [i.text for i in a] == [i.text for i in sample_kitchen_instructions(h, 5, 2)]
    assert [i.text for i in a] != [i.text for i in sample_kitchen_instructions(h, 5, 3)]
    subjects = [i.execution[0].args[0] for i in a]
    assert len(set(subjects)) == 5 and len({i.template for i in a}) == 5
    for n in (0, 9):
        with pytest.raises(InputError, match="1..8"):
            sample_kitchen_instructions(h, n, 0)
    tasks, log = interpret_kitchen(a, h)
    assert [t.query for t in tasks] == [i.query_text for i in a] and all(r["source"] == "rule" for r in log)
    assert all(len(t.facts) == len(i.query) for t, i in zip(tasks, a))


def test_instruction_files_text_and_saved_json(still, tmp_path):
    from actionable.core.continual import save_instructions

    h = still
    txt = tmp_path / "k.txt"
    txt.write_text("# kitchen\nIf the fridge is open, close it.\n\nIf the mug in the sink is dirty, wash it.\n")
    ins = load_kitchen_instructions(txt, h)
    assert [i.execution_text for i in ins] == ["close the fridge", "clean the mug"]
    js = tmp_path / "k.json"
    save_instructions(ins, js)
    back = load_kitchen_instructions(js, h)
    assert [(i.text, i.query, i.goal, i.execution) for i in back] == [(i.text, i.query, i.goal, i.execution) for i in ins]
    bad = tmp_path / "bad.txt"
    bad.write_text("If the fridge is open, close it.\nIf the tv is on, switch it off.\n")
    with pytest.raises(InputError, match="line 2"):
        load_kitchen_instructions(bad, h)
    (tmp_path / "e.json").write_text(json.dumps([{"no": "text"}]))
    with pytest.raises(InputError, match="'text' field"):
        load_kitchen_instructions(tmp_path / "e.json", h)
    with pytest.raises(InputError, match="does not exist"):
        load_kitchen_instructions(tmp_path / "none.txt", h)
    (tmp_path / "empty.json").write_text("[]")
    with pytest.raises(InputError, match="empty JSON list"):
        load_kitchen_instructions(tmp_path / "empty.json", h)
    recs = json.loads(js.read_text())
    (tmp_path / "r2.json").write_text(json.dumps([recs[0], dict(recs[1], text="If the tv is on, switch it off.")]))
    with pytest.raises(InputError, match="record 2"):
        load_kitchen_instructions(tmp_path / "r2.json", h)


def test_unknown_floor_plan_and_level_are_typed_errors():
    w = get_world("thor")
    with pytest.raises(UnknownSceneError, match="FloorPlan99"):
        w.make_house("FloorPlan99", "low")
    with pytest.raises(SceneError, match="not an ALFRED kitchen"):
        w.make_house("FloorPlan201", "low")
    with pytest.raises(ConfigError, match="extreme"):
        w.make_house("FloorPlan1", "extreme")
    with pytest.raises(UnknownSceneError):
        w.check_scene("teach:nope")
    assert w.check_scene("FloorPlan30") is None


def ReaderLM():  # noqa: N802 - the shared memory reader (actionable.lm.scripted), as these tests named it
    from actionable.lm.scripted import MemoryReaderLM

    return MemoryReaderLM(generated=" close the fridge")


def test_exrap_control_flow_in_the_kitchen_with_a_scripted_lm(still):
    h = still
    fridge = node(h, "fridge")
    ins = [parse_kitchen("If the fridge is open, close it.", h)]
    tasks, _ = interpret_kitchen(ins, h)
    lm = ReaderLM()
    agent = make_agent("exrap", lm, ins)
    agent.reset(tasks, h, CONTINUAL_WORLD.exclusive)
    h.state.objects[h.oid[fridge]].open = True  # someone left it open
    obs, ds = h.observe(), []
    for t in range(3):
        ds.append(agent.act(obs, t))
        obs = h.step(ds[-1].skill).observation
    # unseen fridge: Eq. 11 sends the agent there; seen open: P > theta, the execution is pending,
    # v_T (the LM's score) picks it; seen closed, the belief drops
    assert [d.skill.text for d in ds[:2]] == ["go to the fridge", "close the fridge"], [d.why for d in ds]
    assert ds[0].beliefs["fridge is open"] == 0.5 and ds[1].beliefs["fridge is open"] > 0.9
    assert h.states_of(fridge) == {"closed"} and ds[2].beliefs["fridge is open"] < 0.1
    assert any("(fridge_103, is, open" in p for p in lm.prompts)


@pytest.mark.parametrize("name", ["llm-planner", "saycan", "zsp", "progprompt", "instruction-wise", "exrap",
                                  "oracle"])
def test_every_agent_runs_a_kitchen_episode_through_the_world(name):
    h = CONTINUAL_WORLD.make_house("FloorPlan1", "high")
    h.reset(0)
    ins = CONTINUAL_WORLD.sample(h, 3, 1)
    res = run_episode(make_agent(name, None if name == "oracle" else ReaderLM(), ins), h, ins, 12, 1,
                      world="thor")
    assert len(res.trace) == 12 and res.stats["steps"] == 12
    assert {r["room"] for r in res.trace} <= set(h.rooms.values())
    m = res.metrics
    assert m["sr"] is None or (0.0 <= m["sr"] <= 1.0 and m["ps"] >= 1.0)
    if name == "oracle":
        assert m["n_success"] >= 1 and m["n_failure"] == 0 and res.stats["failed_skills"] == 0
        assert all(not math.isnan(v) for r in res.trace for v in r["beliefs"].values())
