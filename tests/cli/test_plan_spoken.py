"""``actionable plan`` end to end (the real CLI, the default house, the goal planner) on this
session's readings: a question is answered and never acted on, a definite command presupposes a change,
a self-correction is applied or refused (7 Dec, twelfth session)."""

from __future__ import annotations

import json

from actionable.cli import main


def _run(capsys, *args):
    code = main(["plan", *args, "--quiet"])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_a_question_is_answered_and_never_acted_on(capsys):
    code, out, _ = _run(capsys, "Have I left the oven on?", "--json")
    d = json.loads(out)
    assert code == 1 and d["verdict"].startswith("No: ") and not d["steps"]  # it had switched the oven on, Done


def test_a_question_no_one_can_answer_is_cant_tell(capsys):
    code, _, err = _run(capsys, "Has the dog been fed?")
    assert code == 2 and "error:" in err


def test_the_definite_command_moves_the_toothpaste_not_yet_there(capsys):
    code, out, _ = _run(capsys, "Whoever brushed their teeth last abandoned the toothpaste. Pop it back inside the "
                                "bathroom cabinet.")
    assert code == 0 and out.splitlines()[0] == "Done" and "put tooth paste in bathroom cabinet" in out


def test_a_self_correction_is_applied_and_an_unclear_one_refused(capsys):
    code, out, _ = _run(capsys, "Put a cup in the sink, sorry, I mean the dishwasher", "--json")
    d = json.loads(out)
    assert code == 0 and d["done"] is True
    assert {o["target"] for c in d["reading"]["clauses"] for o in c["options"]} <= {1277, 2691, 2396}
    code, _, err = _run(capsys, "Put the dirty fork in the dishwasher. No wait, the other one.")
    assert code == 2 and "corrects itself" in err
