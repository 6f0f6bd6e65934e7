"""Novel-goal benchmark (issue 24): the data file against the real scenes, the reference plans in
the real simulators, quantifier / in-on / posture semantics, schema errors and verdicts."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from actionable.core.errors import ActionableError, InputError
from actionable.evaluation.novel_goals import (DATA_FILE_B, DATA_FILE_C, DATA_FILE_D, DATA_FILE_E, DATA_FILE_F, DATA_FILE_G, DATA_FILE_H, NovelGoalsError, PlanOutcome, check, load_novel_goals,
                                               parse_task, scene_problems, score, split_of, verdict)

TASKS = load_novel_goals()
BY_ID = {t.id: t for t in TASKS}
#: the held-out set B (benchmarks/data/novel_goals_b.md); its per-task checks run with set A's
TASKS_B = load_novel_goals(DATA_FILE_B)
#: the held-out set C (benchmarks/data/novel_goals_c.md); checked the same way as set B
TASKS_C = load_novel_goals(DATA_FILE_C)
#: the held-out set D (benchmarks/data/novel_goals_d.md); checked the same way as sets B and C
TASKS_D = load_novel_goals(DATA_FILE_D)
#: the held-out set E (benchmarks/data/novel_goals_e.md); checked the same way as sets B, C and D
TASKS_E = load_novel_goals(DATA_FILE_E)
#: the held-out set F (benchmarks/data/novel_goals_f.md); checked the same way as sets B to E
TASKS_F = load_novel_goals(DATA_FILE_F)
#: the held-out set G (benchmarks/data/novel_goals_g.md); checked the same way as sets B to F
TASKS_G = load_novel_goals(DATA_FILE_G)
#: the held-out set H (benchmarks/data/novel_goals_h.md); checked the same way as sets B to G
TASKS_H = load_novel_goals(DATA_FILE_H)


def _initial(task):
    """(env, initial state) of the task's scene in the real simulator / THOR world."""
    if task.world == "virtualhome":
        from actionable.worlds.virtualhome.simulator import Simulator

        sim = Simulator()
        obs, _ = sim.reset(options={"scene": task.scene})
        return sim, obs.to_dict()
    from actionable.worlds import make

    w = make("thor", scene=task.scene)
    w.reset()
    return w, w.state


def _run(task):
    env, _ = _initial(task)
    obs = None
    for line in task.reference_plan:
        obs, _, _, _, info = env.step(line)
        assert info["executed"], (task.id, line, info["error"])
    return obs.to_dict() if task.world == "virtualhome" else env.state


# ------------------------------------------------------------------ the data
def test_data_size_worlds_categories_and_split():
    assert len(TASKS) >= 80
    worlds = Counter(t.world for t in TASKS)
    assert worlds["virtualhome"] >= 55 and worlds["thor"] >= 25
    cats = Counter(t.category for t in TASKS)
    assert all(cats[c] >= 3 for c in ("quantifier", "in_vs_on", "named_instance", "conjunction", "posture_holding",
                                      "already_true", "impossible", "intent", "modifier")), cats
    assert {t.expected for t in TASKS} == {"goal", "nothing_to_do", "refuse", "unclear_intent"}
    # the README's fixed rule: sha256 parity of the id
    split = Counter(t.split for t in TASKS)
    assert (split["tune"], split["report"]) == (49, 52)
    assert {t.id for t in load_novel_goals(split="tune")} == {t.id for t in TASKS if split_of(t.id) == "tune"}
    titles = {"make coffee", "watch tv", "turn on light", "go to sleep", "wash clothes", "set up table"}
    assert not {t.instruction.lower() for t in TASKS} & titles


#: the 26 packaged VirtualHome program titles: no held-out task may be one of them
TITLES = {"relax on sofa", "work", "turn on light", "watch tv", "browse internet", "change tv channel", "drink",
          "read book", "pick up phone", "pet cat", "wash dishes with dishwasher", "put groceries in fridge",
          "listen to music", "wash hands", "wash clothes", "write an email", "wash dishes by hand", "go to toilet",
          "wash teeth", "make coffee", "go to sleep", "set up table", "cook some food", "brush teeth", "take shower",
          "get some water"}


@pytest.mark.parametrize("tasks, earlier, prefix, halves", [
    (TASKS_B, TASKS, "b", (24, 36)),
    (TASKS_C, TASKS + TASKS_B, "c", (30, 30)),
    (TASKS_D, TASKS + TASKS_B + TASKS_C, "d", (32, 28)),
    (TASKS_E, TASKS + TASKS_B + TASKS_C + TASKS_D, "e", (32, 28)),
    (TASKS_F, TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E, "f", (29, 31)),
    (TASKS_G, TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E + TASKS_F, "g", (34, 26)),
], ids=["set B", "set C", "set D", "set E", "set F", "set G"])
def test_held_out_set_size_worlds_categories_and_split(tasks, earlier, prefix, halves):
    """Sets B to G: 60 tasks each (38 VirtualHome, 22 THOR), every category, no id or
    instruction of an earlier set, no packaged title, the fixed sha256 split, and a reference plan
    only for goal tasks."""
    assert len(tasks) == 60
    worlds = Counter(t.world for t in tasks)
    assert (worlds["virtualhome"], worlds["thor"]) == (38, 22)
    assert all(t.id.startswith(f"vh{prefix}-" if t.world == "virtualhome" else f"thor{prefix}-") for t in tasks)
    cats = Counter(t.category for t in tasks)
    assert all(cats[c] >= 3 for c in ("quantifier", "in_vs_on", "named_instance", "conjunction", "posture_holding",
                                      "already_true", "impossible", "intent", "modifier")), cats
    assert {t.expected for t in tasks} == {"goal", "nothing_to_do", "refuse", "unclear_intent"}
    assert not {t.id for t in tasks} & {t.id for t in earlier}
    before = {t.instruction.lower().rstrip("?.! ") for t in earlier}
    assert not {t.instruction.lower().rstrip("?.! ") for t in tasks} & (before | TITLES)
    split = Counter(t.split for t in tasks)
    assert (split["tune"], split["report"]) == halves
    planned = [t for t in tasks if t.reference_plan]
    assert len(planned) >= 30 and all(t.expected == "goal" for t in planned)
    if prefix in ("c", "d", "e", "f", "g"):
        assert len(planned) == sum(t.expected == "goal" for t in tasks)


#: the categories every set since D has per world (novel_goals_d.md, novel_goals_e.md, novel_goals_f.md)
_VH_CATEGORIES = {"quantifier": 4, "in_vs_on": 4, "named_instance": 5, "conjunction": 5, "posture_holding": 3,
                  "already_true": 4, "impossible": 4, "intent": 4, "modifier": 5}
_THOR_CATEGORIES = {"quantifier": 2, "in_vs_on": 2, "named_instance": 3, "conjunction": 2, "posture_holding": 2,
                    "already_true": 3, "impossible": 3, "intent": 3, "modifier": 2}
_OUTCOMES = {("virtualhome", "goal"): 28, ("virtualhome", "nothing_to_do"): 4, ("virtualhome", "refuse"): 4,
             ("virtualhome", "unclear_intent"): 2, ("thor", "goal"): 15, ("thor", "nothing_to_do"): 3,
             ("thor", "refuse"): 3, ("thor", "unclear_intent"): 1}


def _check_set(tasks, data_file, earlier, scenes, split, outcomes=None, vh_categories=None, thor_categories=None):
    """A held-out set's README counts: 60 ids by world/scene (``scenes``), outcome and category (sets D to G
    share :data:`_OUTCOMES` and the category tables; a later set may pass its own), the fixed sha256 split
    (``split``), TEACh scenes no ``earlier`` set uses, and no instruction within 0.6 (difflib) of an earlier
    set's, a novel_tasks*.txt line or a packaged title."""
    import difflib
    from pathlib import Path

    assert len(tasks) == 60 and len({t.id for t in tasks}) == 60
    assert Counter((t.world, t.scene.split(":")[0] if t.scene.startswith("teach:") else t.scene)
                   for t in tasks) == scenes
    earlier_teach = {t.scene for t in earlier if t.scene.startswith("teach:")}
    teach = {t.scene for t in tasks if t.scene.startswith("teach:")}
    assert len(teach) == 4 and not teach & earlier_teach
    assert Counter((t.world, t.expected) for t in tasks) == (outcomes or _OUTCOMES)
    assert Counter(t.category for t in tasks if t.world == "virtualhome") == (vh_categories or _VH_CATEGORIES)
    assert Counter(t.category for t in tasks if t.world == "thor") == (thor_categories or _THOR_CATEGORIES)
    assert Counter((t.world, t.split) for t in tasks) == split
    assert {t.id for t in load_novel_goals(data_file, split="tune")} == {t.id for t in tasks if split_of(t.id) == "tune"}
    data = Path(data_file).parent
    lines = [ln.split("|")[0].strip() for f in sorted(data.glob("novel_tasks*.txt"))
             for ln in f.read_text(encoding="utf-8").splitlines() if ln.strip() and not ln.startswith("#")]
    norm = lambda s: s.lower().rstrip("?.! ")  # noqa: E731
    before = [norm(t.instruction) for t in earlier] + [norm(x) for x in lines] + sorted(TITLES)
    for t in tasks:
        mine = norm(t.instruction)
        close = max(before, key=lambda b: difflib.SequenceMatcher(None, mine, b).ratio())
        assert difflib.SequenceMatcher(None, mine, close).ratio() < 0.6, (t.id, close)


def test_d_file_size_worlds_categories_and_split():
    """Set D (novel_goals_d.md): TEACh scenes that sets A, B and C do not use."""
    _check_set(TASKS_D, DATA_FILE_D, TASKS + TASKS_B + TASKS_C,
               {("virtualhome", "default"): 35, ("virtualhome", "412_2"): 3, ("thor", "FloorPlan1"): 12,
                ("thor", "teach"): 10},
               {("virtualhome", "tune"): 22, ("virtualhome", "report"): 16, ("thor", "tune"): 10,
                ("thor", "report"): 12})


def test_e_file_size_worlds_categories_and_split():
    """Set E (novel_goals_e.md): a program scene (751_2) and TEACh scenes that sets A-D do not use."""
    earlier = TASKS + TASKS_B + TASKS_C + TASKS_D
    assert "751_2" not in {t.scene for t in earlier}
    _check_set(TASKS_E, DATA_FILE_E, earlier,
               {("virtualhome", "default"): 35, ("virtualhome", "751_2"): 3, ("thor", "FloorPlan1"): 10,
                ("thor", "teach"): 12},
               {("virtualhome", "tune"): 19, ("virtualhome", "report"): 19, ("thor", "tune"): 13,
                ("thor", "report"): 9})


def test_f_file_size_worlds_categories_and_split():
    """Set F (novel_goals_f.md): a program scene (473_1), ALFRED layouts and TEACh scenes that sets A-E do not use."""
    earlier = TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E
    assert not {"473_1", "FloorPlan15", "FloorPlan211", "FloorPlan313"} & {t.scene for t in earlier}
    _check_set(TASKS_F, DATA_FILE_F, earlier,
               {("virtualhome", "default"): 35, ("virtualhome", "473_1"): 3, ("thor", "FloorPlan15"): 4,
                ("thor", "FloorPlan211"): 3, ("thor", "FloorPlan313"): 3, ("thor", "teach"): 12},
               {("virtualhome", "tune"): 19, ("virtualhome", "report"): 19, ("thor", "tune"): 10,
                ("thor", "report"): 12})


def test_g_file_size_worlds_categories_and_split():
    """Set G (novel_goals_g.md): a program scene (780_1), ALFRED layouts and TEACh scenes that sets A-F do not use."""
    earlier = TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E + TASKS_F
    assert not {"780_1", "FloorPlan20", "FloorPlan203", "FloorPlan326"} & {t.scene for t in earlier}
    _check_set(TASKS_G, DATA_FILE_G, earlier,
               {("virtualhome", "default"): 35, ("virtualhome", "780_1"): 3, ("thor", "FloorPlan20"): 4,
                ("thor", "FloorPlan203"): 3, ("thor", "FloorPlan326"): 3, ("thor", "teach"): 12},
               {("virtualhome", "tune"): 24, ("virtualhome", "report"): 14, ("thor", "tune"): 10,
                ("thor", "report"): 12})


def test_h_file_size_worlds_categories_and_split():
    """Set H (novel_goals_h.md): 36 VirtualHome and 24 THOR tasks; a program scene (120_1), ALFRED layouts and
    TEACh scenes that sets A-G do not use; no id or instruction of an earlier set; a reference plan for every goal."""
    earlier = TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E + TASKS_F + TASKS_G
    assert not {"120_1", "FloorPlan6", "FloorPlan214", "FloorPlan402"} & {t.scene for t in earlier}
    _check_set(TASKS_H, DATA_FILE_H, earlier,
               {("virtualhome", "default"): 32, ("virtualhome", "120_1"): 4, ("thor", "FloorPlan6"): 4,
                ("thor", "FloorPlan214"): 4, ("thor", "FloorPlan402"): 4, ("thor", "teach"): 12},
               {("virtualhome", "tune"): 20, ("virtualhome", "report"): 16, ("thor", "tune"): 13,
                ("thor", "report"): 11},
               outcomes={("virtualhome", "goal"): 26, ("virtualhome", "nothing_to_do"): 4,
                         ("virtualhome", "refuse"): 4, ("virtualhome", "unclear_intent"): 2, ("thor", "goal"): 17,
                         ("thor", "nothing_to_do"): 3, ("thor", "refuse"): 3, ("thor", "unclear_intent"): 1},
               vh_categories={"quantifier": 4, "in_vs_on": 4, "named_instance": 5, "conjunction": 4,
                              "posture_holding": 3, "already_true": 4, "impossible": 4, "intent": 4, "modifier": 4},
               thor_categories={"quantifier": 3, "in_vs_on": 2, "named_instance": 3, "conjunction": 3,
                                "posture_holding": 2, "already_true": 3, "impossible": 3, "intent": 3, "modifier": 2})
    assert all(t.id.startswith("vhh-" if t.world == "virtualhome" else "thorh-") for t in TASKS_H)
    assert not {t.id for t in TASKS_H} & {t.id for t in earlier}
    before = {t.instruction.lower().rstrip("?.! ") for t in earlier}
    assert not {t.instruction.lower().rstrip("?.! ") for t in TASKS_H} & (before | TITLES)
    planned = [t for t in TASKS_H if t.reference_plan]
    assert all(t.expected == "goal" for t in planned)
    assert len(planned) == sum(t.expected == "goal" for t in TASKS_H) == 43


ALL_TASKS = TASKS + TASKS_B + TASKS_C + TASKS_D + TASKS_E + TASKS_F + TASKS_G + TASKS_H


@pytest.mark.parametrize("task", ALL_TASKS, ids=[t.id for t in ALL_TASKS])
def test_task_against_its_real_scene(task):
    """Every id, class and room exists; nothing_to_do holds at the start; a goal does not."""
    _, state = _initial(task)
    assert scene_problems(task, state) == []


PLANNED = [t for t in TASKS if t.reference_plan]


def test_enough_reference_plans():
    assert sum(t.world == "virtualhome" for t in PLANNED) >= 20
    assert sum(t.world == "thor" for t in PLANNED) >= 8
    assert all(t.expected == "goal" for t in PLANNED)


PLANNED_ALL = PLANNED + [t for t in TASKS_B + TASKS_C + TASKS_D + TASKS_E + TASKS_F + TASKS_G + TASKS_H
                         if t.reference_plan]


@pytest.mark.parametrize("task", PLANNED_ALL, ids=[t.id for t in PLANNED_ALL])
def test_reference_plan_meets_the_conditions(task):
    _, start = _initial(task)
    assert not check(task, start).success
    final = _run(task)
    res = check(task, final)
    assert res.success, res.unmet()
    assert verdict(task, PlanOutcome("done", final)).label == "met"


def test_reference_plan_cut_short_is_unmet():
    """The checker can fail on a plan that stops one step early (last step is the task's own)."""
    for tid in ("vh-all-lights-off", "vh-shirt-in-washer", "vh-lie-on-couch", "thor-make-toast", "thor-burners-off"):
        t = BY_ID[tid]
        env, _ = _initial(t)
        obs = None
        for line in t.reference_plan[:-1]:
            obs, *_ = env.step(line)
        final = obs.to_dict() if t.world == "virtualhome" else env.state
        assert not check(t, final).success, tid
        assert verdict(t, PlanOutcome("done", final)).label == "wrong_done"


# ------------------------------------------------------------------ semantics on small graphs
def _graph(nodes, edges):
    return {"nodes": [{"id": i, "class_name": c, "category": "Rooms" if c in ("bedroom", "kitchen") else "Props",
                       "states": list(s)} for i, c, s in nodes],
            "edges": [{"from_id": a, "relation_type": r, "to_id": b} for a, r, b in edges]}


def _task(conds, expected="goal", world="virtualhome"):
    return parse_task({"id": "t", "world": world, "scene": "default", "instruction": "x", "category": "quantifier",
                       "expected": expected, "conditions": conds})


LIGHTS = _graph([(1, "bedroom", ()), (2, "kitchen", ()), (10, "light", ("ON",)), (11, "light", ("OFF",)),
                 (65, "character", ())], [(10, "INSIDE", 1), (11, "INSIDE", 2), (65, "INSIDE", 1)])


def test_all_against_any_and_room():
    all_off = _task([{"subject": {"class": "light", "quantifier": "all"}, "state": "OFF"}])
    any_off = _task([{"subject": {"class": "light", "quantifier": "any"}, "state": "OFF"}])
    assert not check(all_off, LIGHTS).success and check(any_off, LIGHTS).success
    kitchen = _task([{"subject": {"class": "light", "quantifier": "all", "room": "kitchen"}, "state": "OFF"}])
    bedroom = _task([{"subject": {"class": "light", "quantifier": "all", "room": "bedroom"}, "state": "OFF"}])
    assert check(kitchen, LIGHTS).success and not check(bedroom, LIGHTS).success
    ids = _task([{"subject": {"ids": [10, 11], "quantifier": "all"}, "state": "ON", "negate": True}])
    assert not check(ids, LIGHTS).success
    empty = _task([{"subject": {"class": "lamp", "quantifier": "all"}, "state": "OFF"}])
    res = check(empty, LIGHTS)
    assert not res.success and "no lamp in the state" in res.results[0].detail
    absent = _task([{"subject": {"id": 99}, "state": "OFF"}])
    assert not check(absent, LIGHTS).success


SHIRT = [(3, "clothes_shirt", ()), (4, "washing_machine", ("CLOSED",)), (5, "bed", ()), (65, "character", ())]


def test_in_against_on():
    inside = _task([{"subject": {"class": "clothes_shirt", "quantifier": "any"}, "relation": "INSIDE",
                     "target": {"class": "washing_machine", "quantifier": "any"}}])
    on_top = _task([{"subject": {"id": 3}, "relation": "ON", "target": {"id": 4}}])
    g_on = _graph(SHIRT, [(3, "ON", 4)])
    g_in = _graph(SHIRT, [(3, "INSIDE", 4)])
    assert not check(inside, g_on).success and check(inside, g_in).success
    assert check(on_top, g_on).success and not check(on_top, g_in).success
    out = _task([{"subject": {"id": 3}, "relation": "INSIDE", "target": {"id": 4}, "negate": True}])
    assert check(out, g_on).success and not check(out, g_in).success


def test_posture_and_holding():
    sit = _task([{"subject": {"character": True}, "state": "SITTING"},
                 {"subject": {"character": True}, "relation": "ON", "target": {"id": 5}}])
    hold = _task([{"subject": {"character": True}, "relation": "HOLDS", "target": {"id": 3}}])
    standing = _graph(SHIRT, [(65, "HOLDS_LH", 3)])
    seated = _graph([(i, c, ("SITTING",) if c == "character" else s) for i, c, s in SHIRT], [(65, "ON", 5)])
    assert not check(sit, standing).success and check(sit, seated).success
    assert check(hold, standing).success and not check(hold, seated).success
    either = _task([{"any_of": [{"subject": {"character": True}, "state": "SITTING"},
                                {"subject": {"character": True}, "state": "LYING"}]}])
    assert check(either, seated).success and not check(either, standing).success


def test_thor_in_is_transitive_and_holds_is_the_agent():
    from actionable.worlds import make

    w = make("thor", scene="FloorPlan1")
    w.reset()
    apple_in_fridge = _task([{"subject": {"id": "Apple|alfred|1"}, "relation": "IN",
                              "target": {"class": "Fridge", "quantifier": "any"}}], world="thor")
    holding = _task([{"subject": {"character": True}, "relation": "HOLDS",
                      "target": {"class": "Plate", "quantifier": "any"}}], world="thor")
    for a in ("GotoLocation(Cabinet_6)", "Open(Cabinet_6)", "PickUp(Plate_1)", "GotoLocation(CounterTop_2)",
              "Place(CounterTop_2)", "PickUp(Apple_1)", "Place(Plate_1)", "PickUp(Plate_1)"):
        assert w.step(a)[4]["executed"], a
    assert check(holding, w.state).success and not check(apple_in_fridge, w.state).success
    for a in ("GotoLocation(Fridge_1)", "Open(Fridge_1)", "Place(Fridge_1)"):
        assert w.step(a)[4]["executed"], a
    # the apple is on the plate, the plate in the fridge: in the fridge through its parent
    assert check(apple_in_fridge, w.state).success and not check(holding, w.state).success


# ------------------------------------------------------------------ verdicts
def test_verdict_cases():
    goal, ntd = BY_ID["vh-bathroom-light-off"], BY_ID["vh-bathroom-computer-off"]
    ref, unclear = BY_ID["vh-light-fireplace"], BY_ID["vh-make-bed"]
    _, start = _initial(goal)
    final = _run(goal)
    cases = [
        (goal, PlanOutcome("done", final), "met", True),
        (goal, PlanOutcome("done", start), "wrong_done", False),
        (goal, PlanOutcome("nothing_to_do", start), "wrong_done", False),
        (goal, PlanOutcome("refused", reason="no"), "wrong_refused", False),
        (goal, PlanOutcome("failed"), "failed", False),
        (ntd, PlanOutcome("nothing_to_do", start), "nothing_to_do", True),
        (ntd, PlanOutcome("done", start), "met", True),
        (ref, PlanOutcome("refused"), "refused", True),
        (ref, PlanOutcome("done", start), "wrong_done", False),
        (ref, PlanOutcome("cannot_tell"), "wrong_cannot_tell", False),
        (unclear, PlanOutcome("cannot_tell"), "cannot_tell", True),
        (unclear, PlanOutcome("refused"), "wrong_refused", False),
        (unclear, PlanOutcome("done", start), "wrong_done", False),
    ]
    verdicts = []
    for task, outcome, label, right in cases:
        v = verdict(task, outcome)
        assert (v.label, v.right) == (label, right), (task.id, outcome.kind)
        assert v.claims_done == (outcome.kind in ("done", "nothing_to_do"))
        verdicts.append(v)
    s = score(verdicts)
    assert s["n"] == 13 and s["right"] == 5 and s["wrong_done"] == 4
    assert s["claims_done"] == 7 and s["claims_done_right"] == 3
    assert s["claims_done_precision"] == pytest.approx(3 / 7)
    assert score([])["claims_done_precision"] is None
    with pytest.raises(InputError, match="kind"):
        PlanOutcome("maybe")
    with pytest.raises(InputError, match="final_state"):
        PlanOutcome("done")
    with pytest.raises(InputError, match="graph dict"):
        check(goal, {"nodes": "x"})


# ------------------------------------------------------------------ schema errors
GOOD = {"id": "x1", "world": "virtualhome", "scene": "default", "instruction": "Turn off the light",
        "category": "named_instance", "expected": "goal",
        "conditions": [{"subject": {"id": 64}, "state": "OFF"}]}


@pytest.mark.parametrize("change, message", [
    ({"world": "mars"}, "world must be"),
    ({"expected": "maybe"}, "expected must be"),
    ({"category": "misc"}, "category must be"),
    ({"colour": "red"}, "unknown fields"),
    ({"instruction": ""}, "'instruction' is required"),
    ({"conditions": []}, "needs at least one condition"),
    ({"expected": "refuse", "conditions": []}, "needs a 'reason'"),
    ({"expected": "unclear_intent"}, "has no conditions"),
    ({"conditions": [{"subject": {"id": "64"}, "state": "OFF"}]}, "'id' must be a int"),
    ({"conditions": [{"subject": {"class": "light"}, "state": "OFF"}]}, "'quantifier' must be"),
    ({"conditions": [{"subject": {"id": 64}, "state": "SHINY"}]}, "unknown virtualhome state 'SHINY'"),
    ({"conditions": [{"subject": {"id": 64}, "relation": "NEAR", "target": {"id": 1}}]}, "unknown virtualhome relation"),
    ({"conditions": [{"subject": {"id": 64}, "relation": "ON"}]}, "subject, relation, target"),
    ({"conditions": [{"subject": {"id": 64, "class": "light"}, "state": "OFF"}]}, "exactly one of"),
    ({"conditions": [{"subject": {"id": 64}, "relation": "ON", "target": {"character": True}}]}, "only be a subject"),
    ({"conditions": [{"any_of": []}]}, "non-empty list"),
    ({"reference_plan": "walk"}, "'reference_plan' must be a list"),
])
def test_schema_errors_name_the_field(change, message):
    with pytest.raises(NovelGoalsError, match=message):
        parse_task({**GOOD, **change}, 7, "f.jsonl")


def test_file_errors_name_the_line(tmp_path):
    p = tmp_path / "g.jsonl"
    p.write_text(json.dumps(GOOD) + "\n\n{not json\n", encoding="utf-8")
    with pytest.raises(NovelGoalsError, match=r"g\.jsonl:3: not JSON"):
        load_novel_goals(p)
    p.write_text(json.dumps(GOOD) + "\n" + json.dumps({**GOOD, "world": "thor"}) + "\n", encoding="utf-8")
    with pytest.raises(NovelGoalsError, match=r"g\.jsonl:2 \(x1\).*'id' must be a str"):
        load_novel_goals(p)
    p.write_text(json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n", encoding="utf-8")
    with pytest.raises(NovelGoalsError, match=r":2: id 'x1' repeats line 1"):
        load_novel_goals(p)
    with pytest.raises(NovelGoalsError, match="no such task file"):
        load_novel_goals(tmp_path / "missing.jsonl")
    with pytest.raises(NovelGoalsError, match="split"):
        load_novel_goals(split="both")
    assert issubclass(NovelGoalsError, ActionableError)
