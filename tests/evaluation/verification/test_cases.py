"""The hand-labelled case corpus (tests/corpora/verify_cases.txt, issue 14) with the
simulator judge: per-class results on every case (both the tune and the report half).

Classes and what the judge must do (arXiv 2509.02761 critique format):
contradiction -> REMOVE the contradicting step, propose no compensating MISSING;
missing_grab -> MISSING GRAB of the object, remove no valid step;
undo_pair / detour / unused_pickup -> REMOVE every labelled step and no valid one;
gold / preparation -> no critique at all.
Issue 26 (cases from the tune half of benchmarks/data/verify_new, tune ids only): side_effect /
posture_again / far_twin / repeated_block -> REMOVE every labelled step and no valid one;
prep_needed -> no critique; missing_one -> exactly the missing step, nothing else.
Issue 26, second round (cases written for the classes fixed then, tune ids only): swap -> the
later of two adjacent steps moved before the earlier one (its REMOVE and its MISSING);
wrong_instance -> every step on the wrong node REMOVEd and re-bound (MISSING),
plus a goal step still missing; facing_room -> REMOVE the turn towards a room.
"""

import pytest

from actionable.evaluation.verification.cases import CLASSES, load_cases
from actionable.verify.critique import CritiqueKind
from actionable.verify.grounded import SimulatorJudge

CASES = load_cases()
CLEAN = ("gold", "preparation", "prep_needed")
#: Known misses, kept visible (strict xfail: the test fails once they are fixed).
#: c04 (SIT, STANDUP against a SITTING goal) fixed in issue 14. c17 and c31 (8 Dec): the two label
#: conventions disagree, and the judge follows the labelled sets' written procedure
#: (benchmarks/data/verify_new/README.md, section 2: every step of the reference is valid, "the
#: reference is not minimised", as the paper's labels are relative to the demonstration). c17 labels
#: gold program 850_1's own CLOSE ... OPEN around fetching the detergent contradictory; c31 labels
#: FIND remote, GRAB remote before switching the TV on redundant, the shape of gold programs 345_1
#: and 363_2. The data are not relabelled; see docs/results.md, "Demonstration habits".
KNOWN: dict[str, str] = {
    "c17": "label convention: a demonstration's own close-after-load / reopen-for-the-next (850_1) is valid "
           "in the labelled sets",
    "c31": "label convention: an instrument found and taken along (the remote), never used, is a "
           "demonstration habit the labelled sets keep valid",
}


def _params():
    for c in CASES:
        marks = [pytest.mark.xfail(reason=KNOWN[c.id], strict=True)] if c.id in KNOWN else []
        yield pytest.param(c, id=f"{c.id}-{c.cls}-{c.split}", marks=marks)


@pytest.fixture(scope="module")
def judge():
    return SimulatorJudge()


def test_corpus_shape():
    assert len(CASES) >= 40 and {c.cls for c in CASES} == set(CLASSES)
    for split in ("tune", "report"):
        assert {c.cls for c in CASES if c.split == split} >= set(CLASSES[:7])
    assert {c.cls for c in CASES if c.split == "tune"} == set(CLASSES)
    for c in CASES:
        assert len(c.labels) == len(c.plan)
        assert (c.cls in CLEAN) == (set(c.labels) == {"valid"} and not c.missing)


@pytest.mark.parametrize("case", list(_params()))
def test_sim_judge_per_class(case, judge, annotations):
    res = judge.judge(case.plan, case.task(annotations))
    removed = {c.index for c in res.critiques if c.kind is CritiqueKind.REMOVE}
    missing = [c.step for c in res.critiques if c.kind is CritiqueKind.MISSING]
    wrong = sorted(i for i in removed if case.labels[i] == "valid")
    assert not wrong, f"valid steps removed: {[case.plan.steps[i].to_script() for i in wrong]}"
    labelled = {i for i, lab in enumerate(case.labels) if lab != "valid"}
    if case.cls in CLEAN:
        assert res.critiques == ()
    elif case.cls == "missing_one":
        assert not removed
        assert sorted(s.to_script() for s in missing) == sorted(s.to_script() for _, s in case.missing)
    elif case.cls == "missing_grab":
        want = {(s.action, s.args[0].id) for _, s in case.missing}
        assert want <= {(s.action, s.args[0].id) for s in missing}
    elif case.cls in ("swap", "wrong_instance"):  # REMOVE + MISSING: moved or re-bound steps
        assert removed == labelled
        assert sorted(s.to_script() for s in missing) == sorted(s.to_script() for _, s in case.missing)
    else:
        assert removed == labelled
        assert not missing, f"compensated instead of removed: {[s.to_script() for s in missing]}"
    assert res.goal_conditions or not case.use_program_goals
    assert all(c.reason for c in res.critiques)  # every critique says why
