"""Bad input (issue 25): an instruction file whose conditions the world cannot observe is one
`error:` line naming the file and the line, exit 2, before any episode runs (the driving world's
case is in tests/worlds/test_driving_continual.py)."""

from __future__ import annotations

import pytest

from actionable.cli import main


@pytest.mark.parametrize("env,line", [("virtualhome", 2), ("thor", 1)])
def test_condition_the_world_cannot_observe_names_the_line(tmp_path, capsys, env, line):
    f = tmp_path / "orders.txt"
    f.write_text("If the light in the bedroom is on, switch it off.\n"
                 "If the light on High Street towards the market is red, stop before the line.\n")
    assert main(["follow", "--env", env, "--agent", "oracle", "--steps", "2", "-q", "-i", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and f"line {line}" in err and err.count("\n") == 1, err


@pytest.mark.parametrize("body,needle", [("[1, 2]", "record 1 is a JSON number"), ("[]", "an empty JSON list"),
                                         ('[{"text": "x"}]', "record 1: cannot read instruction 'x'"),
                                         ("[null]", "record 1 is a JSON null"),
                                         ("{}", "a JSON object, not a list")])
def test_a_json_instructions_file_names_the_bad_record(tmp_path, capsys, body, needle):
    """A JSON list of non-objects leaked "'int' object is not subscriptable" and named no record."""
    f = tmp_path / "orders.json"
    f.write_text(body)
    assert main(["follow", "--agent", "oracle", "--steps", "2", "-q", "-i", str(f)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and needle in err and "subscriptable" not in err, err
