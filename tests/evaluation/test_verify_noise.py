"""The new labelled verification set (issue 26): generator, labels, loader.

The labels are re-derived here from the simulator with code of this test (not the
generator's own checks), on a fixed sample of the committed cases; the generator's
checker (``check_case``) runs on the same sample.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from actionable.evaluation.verify_noise import (KINDS, NoiseCase, NoiseSetError, PlanFacts, check_case,
                                                default_path, load_cases, plan_with, split_of)
from actionable.evaluation.verify_noise import _ref_index_of_missing
from actionable.evaluation.verify_noise_kinds import KIND_FUNCS, Draft, materialize

SMALL = {"gold": {"side_effect": 1, "posture": 1, "far_twin": 1, "detour": 1, "missing": 1, "missing_prep": 1,
                  "swap": 1, "wrong_instance": 1, "clean": 1, "early_pickup": 1, "harmless_swap": 1},
         "planner": {"missing": 1}}


@lru_cache(maxsize=1)
def committed() -> list[NoiseCase]:
    return load_cases()


@lru_cache(maxsize=None)
def annotations():
    from actionable.worlds.virtualhome.goals import load_goal_annotations

    return load_goal_annotations()


def correct(pid: str, lines) -> bool:
    """Independent re-derivation: executes from the program's scene and every annotated goal
    holds on the exact node ids."""
    from actionable.core.program import Program, parse_script_step
    from actionable.worlds.virtualhome.scene import load_scene
    from actionable.worlds.virtualhome.simulator import execute_program
    from actionable.core.goals import check_goals

    prog = Program(tuple(parse_script_step(x) for x in lines))
    r = execute_program(prog, load_scene(pid))
    ran = prog.steps if r.executable else prog.steps[: r.failed_index]
    return r.executable and check_goals(annotations()[pid], r.final_state.to_dict(), ran, match="id").task_success


def test_generator_is_deterministic_for_a_seed():
    from actionable.evaluation.verify_noise_sources import build_cases

    a, _ = build_cases(3, None, n_gold=6, lm=None, progress=None, targets=SMALL)
    b, _ = build_cases(3, None, n_gold=6, lm=None, progress=None, targets=SMALL)
    c, _ = build_cases(4, None, n_gold=6, lm=None, progress=None, targets=SMALL)
    assert a and [x.to_dict() for x in a] == [x.to_dict() for x in b]
    assert [x.to_dict() for x in a] != [x.to_dict() for x in c]
    assert all(check_case(x) == [] for x in a)


def test_committed_set_size_kinds_and_split():
    cases = committed()
    assert len(cases) >= 150
    assert len({c.id for c in cases}) == len(cases)
    kinds = {k for c in cases for k in c.kinds}
    assert {"side_effect", "posture", "far_twin", "missing", "missing_prep", "swap", "wrong_instance",
            "lm_insert", "prep_needed"} <= kinds <= set(KINDS)
    assert {c.source for c in cases} >= {"gold", "grounded"}
    assert all(c.split == split_of(c.program_id) for c in cases)
    tune = load_cases(split="tune")
    assert 0.3 < len(tune) / len(cases) < 0.7
    assert {c.program_id for c in tune}.isdisjoint({c.program_id for c in load_cases(split="report")})


def test_every_case_parses_and_its_scene_and_nodes_exist():
    from actionable.worlds.virtualhome.scene import load_scene

    scenes = {}
    for c in committed():
        sc = scenes.setdefault(c.scene, load_scene(c.scene))
        for s in c.steps() + [s for _, s in c.missing_steps()]:
            for a in s.args:
                assert sc.class_of(a.id) == a.name, (c.id, s.to_script())
        assert c.goal.startswith(annotations()[c.program_id].task)


def test_labels_follow_the_procedure_on_a_sample():
    cases = committed()
    sample = cases[::7]
    assert len(sample) >= 20
    for c in sample:
        assert correct(c.program_id, c.reference), c.id  # R is correct
        kinds = {int(e["id"]): e["kind"] for e in c.edits}
        if c.is_clean:
            assert correct(c.program_id, c.plan) and sorted(c.plan) == sorted(c.reference), c.id
        else:
            assert plan_with(c, ()) == list(c.reference), c.id
            assert not correct(c.program_id, c.plan) or all(
                kinds[e] in ("side_effect", "posture", "far_twin", "detour", "lm_insert") for e in kinds), c.id
        for e, k in kinds.items():
            alone = plan_with(c, [e])
            if k in ("side_effect", "posture", "far_twin", "detour", "lm_insert"):
                assert correct(c.program_id, alone), (c.id, k)  # not needed
            elif k in ("swap", "wrong_instance", "missing", "missing_prep"):
                assert not correct(c.program_id, alone), (c.id, k)  # makes R wrong
        for m in c.missing:
            if kinds[int(m["edit"])] in ("missing", "missing_prep"):
                ref = list(c.reference)
                k = _ref_index_of_missing(c, m)
                assert ref[k] == m["step"]
                assert not correct(c.program_id, ref[:k] + ref[k + 1:]), (c.id, m)  # needed on its own
        assert check_case(c) == [], c.id


def test_a_kind_edit_is_labelled_as_written():
    from actionable.worlds.virtualhome.scene import load_program
    import random

    f = PlanFacts("1057_1")
    ref = list(load_program("1057_1").steps)
    d = KIND_FUNCS["swap"](Draft.of(ref), f, random.Random(0))
    m = materialize(d)
    (i,) = [k for k, lab in enumerate(m["labels"]) if lab == "remove"]
    (miss,) = m["missing"]
    assert miss["step"] == m["plan"][i] and miss["position"] == i - 1  # T3: the prerequisite came too late
    d = KIND_FUNCS["missing"](Draft.of(ref), f, random.Random(0))
    (miss,) = materialize(d)["missing"]
    assert not correct("1057_1", [s.to_script() for s in ref if s.to_script() != miss["step"]])


def test_lm_noiser_parses_strictly_with_a_scripted_lm():
    from actionable.worlds.virtualhome.scene import load_program
    from actionable.lm.scripted import ScriptedLM
    from actionable.evaluation.verify_noise_sources import lm_noise

    f = PlanFacts("150_2")
    ref = list(load_program("150_2").steps)
    body = "\n".join(s.to_script() for s in ref[1:3])
    text = (body + "\n[TURNTO] [light] (411)\nBanana phone\n[FLY] <light> (411)\n[WALK] <spaceship> (1)\n"
            + "\n".join(s.to_script() for s in ref[3:]))
    d, rec = lm_noise(Draft.of(ref), f, ScriptedLM([text]), "Turn on light", seed=0, samples=1)
    why = [r["why"] for r in rec["samples"][0]["rejected"]]
    assert len(why) == 3 and any("no <spaceship>" in w for w in why) and sum("not a step" in w for w in why) == 2
    m = materialize(d)
    assert [p for p, lab in zip(m["plan"], m["labels"]) if lab == "remove"] == ["[TURNTO] <light> (411)"]


def test_loader_errors_name_the_line(tmp_path):
    good = committed()[0].to_dict()
    p = tmp_path / "c.jsonl"
    p.write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match=r"c\.jsonl:2: not JSON"):
        load_cases(p)
    bad = dict(good, labels=["keep"] * len(good["plan"]))
    p.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match=r"c\.jsonl:1: a label"):
        load_cases(p)
    bad = dict(good, split="report" if good["split"] == "tune" else "tune")
    p.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match="fixed rule"):
        load_cases(p)
    bad = {k: v for k, v in good.items() if k != "plan"}
    p.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match="missing field"):
        load_cases(p)
    bad = dict(good, plan=["[FLY] <x> (1)"] + good["plan"][1:])
    p.write_text(json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match="not a script step"):
        load_cases(p)
    p.write_text(json.dumps(good) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(NoiseSetError, match="duplicate"):
        load_cases(p)
    with pytest.raises(NoiseSetError, match="does not exist"):
        load_cases(tmp_path / "none.jsonl")
    with pytest.raises(NoiseSetError, match="split"):
        load_cases(default_path(), split="all")


@pytest.mark.slow
def test_lm_noiser_with_the_embedded_model():
    from actionable.core.config import LMConfig
    from actionable.core.program import ACTION_ARITY
    from actionable.worlds.virtualhome.scene import load_program
    from actionable.lm.registry import load_lm
    from actionable.evaluation.verify_noise_sources import lm_noise

    f = PlanFacts("1057_1")
    ref = list(load_program("1057_1").steps)
    d, rec = lm_noise(Draft.of(ref), f, load_lm("embedded", LMConfig(cache=False)), "Watch TV", seed=1, samples=1)
    (s,) = rec["samples"]
    assert s["raw"].startswith(ref[0].to_script())
    for line in s["parsed"]:  # everything kept is in the vocabulary and the scene
        act = line[1:line.index("]")]
        assert act in ACTION_ARITY
    if d is not None:  # every kept insertion leaves R correct (it is not needed)
        assert "remove" in materialize(d)["labels"]
        assert all(f.correct(d.with_only(e)) for e in range(len(d.edits)))
