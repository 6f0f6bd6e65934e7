"""`actionable plan` end to end against a real OpenAI-compatible server
(llama_cpp.server serving the embedded GGUF on 127.0.0.1)."""

import json

import pytest

from actionable.cli import main

pytestmark = pytest.mark.slow


def test_plan_cli_with_openai_backend(llama_server, capsys):
    spec = f"openai:smollm@{llama_server.url}"
    rc = main(["plan", "Brush teeth", "--model", spec, "--variant", "vanilla", "--json", "--seed", "0"])
    out = capsys.readouterr().out
    assert rc in (0, 1), out
    res = json.loads(out)
    assert rc == (0 if res["executability"]["executable"] else 1)  # the exit-code table
    print(sorted(res), {k: res[k] for k in res if "exec" in k})
    assert isinstance(res["executability"]["executable"], bool)
    assert res["lm_calls"] >= 1
    text = json.dumps(res)
    assert spec in text  # the model id is recorded with the plan
    llama_server.log.flush()
    log = open(llama_server.log.name, "rb").read().decode("utf-8", "replace")
    assert "POST /v1/completions" in log  # the plan really came from the server


def test_plan_cli_server_down_is_one_clear_line(capsys):
    rc = main(["plan", "Brush teeth", "--model", "openai:smollm@http://127.0.0.1:9/v1", "--variant", "vanilla"])
    err = capsys.readouterr().err
    assert rc == 2
    last = err.strip().splitlines()[-1]
    assert last.startswith("error:") and "127.0.0.1:9" in last and "server is running" in last
    assert "Traceback" not in err
