"""Coverage-guided fuzzing of the judge-output (critique) parser with atheris (issue 8).

The judge of the Judge/Planner loop (arXiv 2509.02761, Sec. 3) is an LM; its
text is untrusted. Run for a bounded time (not part of CI's pytest run):

    python benchmarks/fuzz_critique.py -dict=benchmarks/fuzz_critique.dict -max_total_time=60

Properties, for any input text:

* ``parse_judge_output(text, plan)`` returns; every REMOVE index lies inside
  the plan, every MISSING carries a step with a valid VirtualHome action and an
  insertion point in ``0..len(plan)`` (or ``None`` = append);
* ``apply_critiques(plan, critiques)`` returns a plan that keeps every step not
  REMOVEd, in order, and whose script form parses back to the same steps.

Any exception is a crash and a bug (``CritiqueParseError`` is only allowed for
over-long text, which the first check avoids by keeping the default limit).
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from actionable.core.program import ACTION_ARITY, Program
    from actionable.verify.critique import CritiqueKind, apply_critiques, parse_judge_output

PLANS = (
    Program.parse("[WALK] <sink> (5)\n[GRAB] <mug> (12)\n[SWITCHON] <tv> (3)\n"
                  "[SWITCHOFF] <tv> (3)\n[PUTBACK] <mug> (12) <sink> (5)"),
    Program.parse("walk to bathroom\ngrab towel\n[STANDUP]\nput towel on bed"),   # class-level
    Program.parse("[WALK] <kitchen> (1)"),
)


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    plan = PLANS[fdp.ConsumeIntInRange(0, len(PLANS) - 1)]
    text = fdp.ConsumeUnicode(fdp.remaining_bytes())          # surrogates included
    parsed = parse_judge_output(text, plan)
    n = len(plan)
    removed = set()
    for c in parsed.critiques:
        if c.kind is CritiqueKind.REMOVE:
            assert c.index is not None and 0 <= c.index < n, (text, c)
            removed.add(c.index)
        else:
            assert c.index is None or 0 <= c.index <= n, (text, c)
            assert c.step is not None and c.step.action in ACTION_ARITY, (text, c)
    revised = apply_critiques(plan, parsed.critiques)
    kept = iter(revised.steps)
    assert all(any(k == r for r in kept) for i, k in enumerate(plan.steps) if i not in removed), text
    if revised.steps:
        assert Program.parse(revised.to_script()).steps == revised.steps, (text, revised)


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
