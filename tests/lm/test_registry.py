import pytest

from actionable.core.config import LMConfig
from actionable.core.errors import ConfigError, ModelNotFoundError
from actionable.lm.base import GenerationParams, LanguageModel
from actionable.lm.cache import CachedLM
from actionable.lm.registry import SPEC_FORMS, build_lm, load_lm
from actionable.lm.scripted import ScriptedLM


@pytest.mark.parametrize("spec", ["gpt4", "hf:", "embedded:llama-70b", "", "   ", "gguf:"])
def test_unknown_spec_lists_valid_forms(spec, tmp_path):
    with pytest.raises(ModelNotFoundError) as ei:
        load_lm(spec, LMConfig(cache_dir=tmp_path))
    assert "valid forms" in str(ei.value)
    assert all(f in str(ei.value) for f in SPEC_FORMS)


@pytest.mark.parametrize("spec", ["openai:foo", "openai:@http://x", "openai:m@ftp://x"])
def test_bad_openai_spec_shows_example(spec, tmp_path):
    with pytest.raises(ModelNotFoundError, match="openai:<name>@<base_url>"):
        load_lm(spec, LMConfig(cache_dir=tmp_path))


def test_scripted_spec_not_cached(tmp_path):
    lm = load_lm('scripted:["walk to bedroom", ""]', LMConfig(cache_dir=tmp_path))
    assert isinstance(lm, ScriptedLM) and isinstance(lm, LanguageModel)
    assert lm.generate("p", GenerationParams())[0].text == "walk to bedroom"
    with pytest.raises(ConfigError):
        build_lm("scripted:{not json")
    with pytest.raises(ConfigError):
        build_lm('scripted:{"a": 1}')


def test_openai_spec_parsing_and_cache_wrap(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-xyz")
    lm = load_lm("openai:org/model@v2@http://127.0.0.1:9/v1", LMConfig(cache_dir=tmp_path))
    assert isinstance(lm, CachedLM)
    assert lm.model_id == "openai:org/model@v2@http://127.0.0.1:9/v1"
    assert "sk-secret" not in lm.model_id
    chat = load_lm("openai-chat:m@http://127.0.0.1:9/v1", LMConfig(cache=False))
    assert chat.model_id.startswith("openai-chat:") and not isinstance(chat, CachedLM)
    assert chat.supports_score is False


def test_hf_spec_bad_option(tmp_path):
    with pytest.raises(ConfigError, match="device"):
        build_lm("hf:/nonexistent?colour=red")
