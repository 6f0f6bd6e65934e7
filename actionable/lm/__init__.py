"""Language-model backends (the planning LM and judge LMs).

Light imports only: backends load their heavy runtimes (llama_cpp, torch,
transformers, openai) inside their constructors.

* :mod:`~actionable.lm.base` -- the :class:`LanguageModel` protocol.
* :mod:`~actionable.lm.embedded` -- SmolLM2-135M-Instruct on llama.cpp (default).
* :mod:`~actionable.lm.openai_compat` -- vLLM / llama.cpp server / Ollama / APIs.
* :mod:`~actionable.lm.transformers_backend` -- local HF models.
* :mod:`~actionable.lm.cache` -- SQLite response cache (one entry per sample).
* :mod:`~actionable.lm.scripted` -- queued outputs for tests.
* :mod:`~actionable.lm.registry` -- ``load_lm(spec, config)``.
"""

from actionable.lm.base import Completion, GenerationParams, LanguageModel, LMStats
from actionable.lm.registry import load_lm
from actionable.lm.scripted import ScriptedLM

__all__ = ["Completion", "GenerationParams", "LanguageModel", "LMStats", "ScriptedLM", "load_lm"]
