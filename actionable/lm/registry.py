"""Model selection: turn a model spec string into a :class:`LanguageModel`.

Specs (the ``--model`` flag of the CLI and ``LMConfig.model``):

===========================================  ===============================================
``embedded``                                 SmolLM2-135M-Instruct Q4_1 on llama.cpp (offline)
``embedded:chat``                            same, prompts wrapped in the chat template
``gguf:<file.gguf>``                         any local GGUF on llama.cpp (``gguf-chat:`` too)
``openai:<name>@<base_url>``                 OpenAI-compatible ``/v1/completions``
``openai-chat:<name>@<base_url>``            OpenAI-compatible ``/v1/chat/completions``
``hf:<path-or-id>[?device=cpu|cuda|auto]``   local transformers model (``gguf_file=`` too)
``scripted:<json list>``                     :class:`ScriptedLM` with those outputs (tests)
===========================================  ===============================================

Every backend but ``scripted`` is wrapped in the SQLite cache
(:class:`CachedLM`, file ``<cache_dir>/lm-cache.sqlite``) when ``config.cache``.
"""

from __future__ import annotations

import json
from urllib.parse import parse_qs

from actionable.core.config import LMConfig
from actionable.core.errors import ConfigError, ModelNotFoundError
from actionable.lm.base import LanguageModel

#: The user-facing spec forms (error messages, help). ``scripted:<json list>`` is for tests only
#: and is not advertised.
SPEC_FORMS = ("embedded", "embedded:chat", "gguf:<file.gguf>", "openai:<name>@<base_url>",
              "openai-chat:<name>@<base_url>", "hf:<path>[?device=cpu|cuda|auto]")
_HF_OPTIONS = ("device", "gguf_file", "dtype")


def _unknown(spec: str, why: str = "") -> ModelNotFoundError:
    return ModelNotFoundError(
        f"unknown model spec {spec!r}{': ' + why if why else ''}; valid forms: " + ", ".join(SPEC_FORMS))


def check_spec(spec: str) -> str:
    """Validate a model spec without loading anything (no model files read, no server contacted,
    no heavy imports): the form, the embedded model's name, a ``gguf:`` file that exists, the
    ``openai:<name>@<base_url>`` split and the ``hf:`` options.

    Returns:
        the stripped spec.

    Raises:
        ModelNotFoundError: unknown form, or no file at a ``gguf:`` path.
        ConfigError: unknown ``hf:`` option, a bad ``scripted:`` list, or an ``openai:`` base_url
            that is not http(s) or carries credentials.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise _unknown(str(spec), "empty")
    spec = spec.strip()
    kind, sep, rest = spec.partition(":")
    if kind == "embedded":
        from actionable.lm.embedded import EMBEDDED_NAME

        if rest in ("", EMBEDDED_NAME, "chat", f"{EMBEDDED_NAME}+chat"):
            return spec
        raise _unknown(spec, f"the embedded model is {EMBEDDED_NAME}; use 'embedded' or 'embedded:chat'")
    if kind in ("gguf", "gguf-chat") and rest:
        from pathlib import Path

        if not Path(rest).expanduser().is_file():
            raise ModelNotFoundError(f"no GGUF file at {rest!r} (model spec {spec!r}); give an existing "
                                     "<file.gguf>")
        return spec
    if kind in ("openai", "openai-chat"):
        from actionable.lm.openai_compat import check_base_url, parse_openai_spec

        check_base_url(parse_openai_spec(spec)[2])
        return spec
    if kind == "hf" and rest:
        _hf_options(rest)
        return spec
    if kind == "scripted" and sep:
        _scripted_outputs(rest)
        return spec
    raise _unknown(spec)


def _hf_options(rest: str) -> tuple[str, dict]:
    path, _, query = rest.partition("?")
    opts = {k: v[-1] for k, v in parse_qs(query).items()}
    bad = sorted(set(opts) - set(_HF_OPTIONS))
    if bad:
        raise ConfigError(f"unknown hf: option {', '.join(repr(b) for b in bad)}; allowed: "
                          + ", ".join(_HF_OPTIONS))
    return path, opts


def _scripted_outputs(rest: str) -> list:
    try:
        outputs = json.loads(rest)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"scripted:<json list> needs a JSON list of outputs ({exc.msg})") from None
    if not isinstance(outputs, list):
        raise ConfigError("scripted:<json list> needs a JSON list of outputs, e.g. "
                          "scripted:[\"walk to bedroom\", \"\"]")
    return outputs


def build_lm(spec: str, config: LMConfig | None = None) -> LanguageModel:
    """Construct the backend named by ``spec`` without the cache wrapper.

    Raises:
        ModelNotFoundError: unknown form, or nothing loadable at the path.
        ConfigError / BackendUnavailableError: from the backend constructors.
    """
    config = config or LMConfig()
    if not isinstance(spec, str) or not spec.strip():
        raise _unknown(str(spec), "empty")
    spec = spec.strip()
    kind, sep, rest = spec.partition(":")
    if kind == "embedded":
        from actionable.lm.embedded import EMBEDDED_NAME, EmbeddedLM

        if rest in ("", EMBEDDED_NAME):
            return EmbeddedLM()
        if rest in ("chat", f"{EMBEDDED_NAME}+chat"):
            return EmbeddedLM(chat=True)
        raise _unknown(spec, f"the embedded model is {EMBEDDED_NAME}; use 'embedded' or 'embedded:chat'")
    if kind in ("gguf", "gguf-chat") and rest:
        from actionable.lm.embedded import EmbeddedLM

        return EmbeddedLM(model_path=rest, chat=kind == "gguf-chat")
    if kind in ("openai", "openai-chat"):
        from actionable.lm.openai_compat import OpenAICompatLM, parse_openai_spec
        from actionable.lm.retry import RetryPolicy

        style, name, url = parse_openai_spec(spec)
        return OpenAICompatLM(name, url, style=style, timeout_s=config.timeout_s,
                              retry=RetryPolicy(max_retries=config.max_retries))
    if kind == "hf" and rest:
        from actionable.lm.transformers_backend import TransformersLM

        path, opts = _hf_options(rest)
        return TransformersLM(path, device=opts.get("device", "auto"), gguf_file=opts.get("gguf_file"),
                              dtype=opts.get("dtype", "auto"),
                              convert_cache=config.cache_dir if config.cache else None)
    if kind == "scripted" and sep:
        from actionable.lm.scripted import ScriptedLM

        return ScriptedLM(_scripted_outputs(rest))
    raise _unknown(spec)


def load_lm(spec: str | None = None, config: LMConfig | None = None) -> LanguageModel:
    """The backend for ``spec`` (default ``config.model``), wrapped in the SQLite
    response cache at ``config.cache_dir`` when ``config.cache`` is true.

    Args:
        spec: a model spec (see the module doc); ``None`` uses ``config.model``.
        config: :class:`LMConfig` (cache on/off, cache_dir, timeout_s, max_retries).

    Returns:
        an object implementing :class:`~actionable.lm.base.LanguageModel`.

    Raises:
        ModelNotFoundError: unknown spec (the message lists the valid forms).
    """
    config = config or LMConfig()
    spec = spec if spec is not None else config.model
    lm = build_lm(spec, config)
    if config.cache and not spec.strip().startswith("scripted:"):
        from actionable.lm.cache import CachedLM

        lm = CachedLM(lm, config.cache_dir)
    return lm
