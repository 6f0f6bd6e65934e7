"""Coverage-guided fuzzing of the program parser with atheris (issue 8).

Run for a bounded time (not part of CI's pytest run):

    python benchmarks/fuzz_parser.py -dict=benchmarks/fuzz_parser.dict -max_total_time=60

The property: for any input text, ``parse_step`` and ``Program.parse`` either
return a value that round-trips through the script form, or raise
``ProgramParseError``. Any other exception is a crash and a bug.
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from actionable.core.program import Program, parse_step
    from actionable.core.errors import ProgramParseError


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    try:
        step = parse_step(text)
    except ProgramParseError:
        pass
    else:
        again = parse_step(step.to_script())
        assert again == step, (text, step, again)
    try:
        prog = Program.parse(text)
    except ProgramParseError:
        return
    assert Program.parse(prog.to_script()).steps == prog.steps


def main() -> None:
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
