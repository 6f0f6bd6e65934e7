"""Fixtures for LM backend tests: a real OpenAI-compatible server
(``python -m llama_cpp.server`` serving the embedded SmolLM2 GGUF) on 127.0.0.1."""

import os
import socket
import subprocess
import sys
import time
import urllib.request

import pytest


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LlamaServer:
    """A llama_cpp.server subprocess; ``url`` ends in /v1; ``kill()`` stops it."""

    def __init__(self, log_path, extra=()):
        from actionable.lm.embedded import find_embedded_gguf

        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self.log = open(log_path, "wb")
        cmd = [sys.executable, "-m", "llama_cpp.server", "--model", str(find_embedded_gguf()),
               "--model_alias", "smollm", "--host", "127.0.0.1", "--port", str(self.port),
               "--n_ctx", "2048", "--n_threads", "1", "--logits_all", "True", *extra]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT,
                                     env={**os.environ, "OPENAI_API_KEY": ""})
        deadline = time.time() + 90
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited with {self.proc.returncode}; see {log_path}")
            try:
                with urllib.request.urlopen(self.url + "/models", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.5)
        self.kill()
        raise RuntimeError(f"llama_cpp.server did not come up within 90 s; see {log_path}")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=30)
        self.log.close()


@pytest.fixture()
def llama_server(tmp_path):
    srv = LlamaServer(tmp_path / "server.log")
    yield srv
    srv.kill()
