"""The choice prompt of modes (b) and (c) (actionable.lm.choice): parser against hostile answers,
renormalisation, mode selection and the fallback to the prior."""

import math

import pytest

from actionable.core.errors import ConfigError
from actionable.lm.choice import (MAX_SHOWN, ChoiceScorer, as_scorer, choice_prompt, parse_answer, renormalise,
                                  scoring_mode)

OPTS = ["walk to kitchen", "walk to kitchen table", "grab cup", "Done"]


@pytest.mark.parametrize("answer,want", [
    ("1", 0), ("2.", 1), (" 3) grab cup", 2), ("Option 4", 3), ("(2)", 1), ("Answer: 3", 2),
    ("I choose 3 because the cup is there", 2),
    ("grab cup", 2), ("Grab Cup.", 2), ("walk to kitchen table", 1), ("done", 3),
    ("I would walk to kitchen table now", 1),   # the longer option wins over its prefix
])
def test_parser_reads_numbers_and_names(answer, want):
    assert parse_answer(answer, OPTS) == want


@pytest.mark.parametrize("answer", [
    "", "   ", "\n\n", None, "0", "5", "99", "-1", "1000000000000000000000",  # empty, out of range
    "3 or 4", "between 1 and 2",                                            # several numbers
    "I don't know", "open the fridge", "ÿ\x00\udcff", "Step",                # names no option
    "grab cup or Done",                                                      # names two options
    "1.5",
])
def test_parser_refuses_hostile_answers(answer):
    assert parse_answer(answer, OPTS) is None


def test_choice_prompt_numbers_options_and_caps_them():
    p = choice_prompt("Task: Drink\nStep 1: walk to kitchen", [" grab cup\n", "Done"])
    assert "1. grab cup\n2. Done" in p and p.strip().endswith("number of one option only.")
    with pytest.raises(ConfigError):
        choice_prompt("x", ["a"] * (MAX_SHOWN + 1))
    with pytest.raises(ConfigError):
        choice_prompt("x", [])


def test_renormalise_over_shown_candidates():
    lps = renormalise([(" 2", math.log(0.5)), ("1", math.log(0.2)), ("The", math.log(0.1))], 3)
    p = [math.exp(x) for x in lps]
    assert abs(sum(p) - 1) < 1e-9
    assert p[1] > p[0] > p[2]
    # 3 is missing: it gets the residual mass 0.2, capped at the smallest shown probability 0.1
    assert abs(p[1] / p[0] - 2.5) < 1e-9 and abs(p[2] / p[0] - 0.5) < 1e-9
    # tokens that are not a shown number ("0", "12", "01") do not count
    lps = renormalise({"0": -0.1, "12": -0.2, "01": -0.3, "2": -3.0}, 2)
    assert lps[1] > lps[0]


class _ChatOnly:
    """A chat backend without scoring: answers are queued; optional top log-probs."""

    model_id = "fake-chat"
    supports_score = False
    supports_logprobs = True
    supports_batch = False

    def __init__(self, answers=(), top=None):
        self.answers = list(answers)
        self.top = top
        self.prompts = []

    def generate(self, prompt, params=None):
        raise AssertionError("not used")

    def choice_answer(self, prompt, max_tokens=12):
        self.prompts.append(prompt)
        return self.answers.pop(0)

    def choice_logprobs(self, prompt, k=20):
        self.prompts.append(prompt)
        return None if self.top is None else ("x", list(self.top))


def test_auto_picks_choice_logprobs_when_top_logprobs_come_back():
    lm = _ChatOnly(top=[("2", -0.1), ("1", -2.5)])
    s = as_scorer(lm, calibrate=False)
    assert scoring_mode(s) == "choice-logprobs"
    out = s.score("Task: x\nStep 1:", [" a\n", " b\n"])
    assert out[1] > out[0] and abs(sum(math.exp(v) for v in out) - 1) < 1e-9


def test_auto_falls_back_to_naming_without_logprobs_and_retries_once():
    lm = _ChatOnly(answers=["banana", "2", "1"])
    s = as_scorer(lm)
    assert scoring_mode(s) == "choice-name"
    out = s.score("ctx", [" a", " b", " c"])
    # the probe, 2 asks, then the content-free ask (it answers 1, so the 2 is a choice)
    assert max(range(3), key=out.__getitem__) == 1 and len(lm.prompts) == 4
    assert "not one of the options" in lm.prompts[2] and "1. N/A" in lm.prompts[3] and s.fallbacks == 0


def test_naming_twice_wrong_lets_the_prior_decide_and_says_so():
    s = ChoiceScorer(_ChatOnly(answers=["", "7"]), "choice-name")
    out = s.score("ctx", [" a", " b", " c"])
    assert out == [math.log(1 / 3)] * 3 and s.fallbacks == 1 and "prior decided" in s.notes[0]


def test_many_candidates_are_shown_in_groups_of_at_most_nine():
    lm = _ChatOnly(answers=["1", "1"])
    s = ChoiceScorer(lm, "choice-name", calibrate=False)
    out = s.score("ctx", [f" option {i}" for i in range(12)])
    assert len(out) == 12 and len(lm.prompts) == 2 and all("10." not in p for p in lm.prompts)
    assert abs(sum(math.exp(v) for v in out) - 1) < 1e-9


def test_mode_errors_name_flags_not_attributes():
    with pytest.raises(ConfigError) as e:
        as_scorer(_ChatOnly(), "score")
    msg = str(e.value)
    assert "--lm-mode" in msg and "--model" in msg and "supports_score" not in msg
    with pytest.raises(ConfigError) as e:
        as_scorer(None)
    assert "--model" in str(e.value)
    with pytest.raises(ConfigError, match="--lm-mode"):
        as_scorer(_ChatOnly(), "bogus")


class _Positional(_ChatOnly):
    """A model that answers by position: top log-probs favour option 1 whatever the options are, plus
    a small preference for the option that says "cup"."""

    def choice_logprobs(self, prompt, k=20):
        self.prompts.append(prompt)
        opts = [ln.split(". ", 1)[1] for ln in prompt.splitlines() if ln[:1].isdigit() and ". " in ln]
        w = [4.0 if i == 0 else 1.0 for i in range(len(opts))]
        w = [x * (1.5 if "cup" in o else 1.0) for x, o in zip(w, opts)]
        z = sum(w)
        return "1", [(str(i + 1), math.log(x / z)) for i, x in enumerate(w)]


def test_calibration_removes_the_position_bias_of_option_one():
    """Content-free calibration (Zhao et al. 2021): option 1's share that the model gives any option 1
    is divided out; what is left is the preference for the candidate itself."""
    cands = [" walk to kitchen", " grab cup", " Done"]
    raw = ChoiceScorer(_Positional(), "choice-logprobs", calibrate=False).score("Task: drink", cands)
    assert max(range(3), key=raw.__getitem__) == 0  # position wins without calibration
    lm = _Positional()
    cal = ChoiceScorer(lm, "choice-logprobs").score("Task: drink", cands)
    assert max(range(3), key=cal.__getitem__) == 1 and abs(sum(math.exp(v) for v in cal) - 1) < 1e-9
    assert cal[0] == pytest.approx(cal[2])  # no preference left between the other two
    assert len(lm.prompts) == 2 and "1. N/A\n2. N/A\n3. N/A" in lm.prompts[1]


def test_a_named_option_that_is_also_the_content_free_answer_is_no_evidence():
    lm = _ChatOnly(answers=["1", "1"])
    s = ChoiceScorer(lm, "choice-name")
    out = s.score("ctx", [" a", " b", " c"])
    assert out == [math.log(1 / 3)] * 3 and s.position_answers == 1 and s.fallbacks == 0
    assert "content-free" in s.notes[0] and "prior decided" in s.notes[0]
    lm = _ChatOnly(answers=["3", "Not sure"])  # the content-free ask names no option: the 3 stands
    out = ChoiceScorer(lm, "choice-name").score("ctx", [" a", " b", " c"])
    assert max(range(3), key=out.__getitem__) == 2
