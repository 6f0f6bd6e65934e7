"""Configuration objects (pydantic). No module-level mutable state: every
component receives the config it needs.

Defaults of :class:`PlannerConfig` follow the reference demo of Huang et al.
2022 ("Language Models as Zero-Shot Planners", Sec. 3 and the released demo):
k=10 samples, beta=0.3, cutoff epsilon=0.8 (``cutoff=None``, the default, resolves per
model in :func:`actionable.core.defaults.plan_cutoff`: 0.4 for the embedded model), max 20 steps, temperature 0.6,
top_p 0.9, presence penalty 0.5, frequency penalty 0.3, repeated previous
action penalised by -0.5.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from actionable.core.errors import ConfigError

Variant = Literal["vanilla", "translated", "corrected", "full"]
#: Planner variants of Huang et al. 2022: ``vanilla`` (no translation),
#: ``translated`` (post-hoc translation of every step), ``corrected``
#: (+ autoregressive trajectory correction, fixed example), ``full``
#: (+ dynamic example selection).
VARIANTS: tuple[str, ...] = ("vanilla", "translated", "corrected", "full")


def default_cache_dir() -> Path:
    """``$ACTIONABLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/actionable``, else
    ``~/.cache/actionable``."""
    env = os.environ.get("ACTIONABLE_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "actionable"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PlannerConfig(_Frozen):
    """Decoding and scoring parameters of the zero-shot planner."""

    variant: Variant = "full"
    samples: int = Field(10, ge=1, le=64, description="k candidate steps per position")
    beta: float = Field(0.3, ge=0.0, le=10.0, description="weight of mean token log-prob")
    cutoff: float | None = Field(None, ge=-10.0, le=1.0,
                                 description="early-stop threshold epsilon (a step score is at most 1); "
                                             "None: the model's default, actionable.core.defaults.plan_cutoff "
                                             "(0.4 for the embedded SmolLM2-135M, else the paper's 0.8)")
    max_steps: int = Field(20, ge=1, le=200)
    temperature: float = Field(0.6, ge=0.0, le=2.0)
    top_p: float = Field(0.9, gt=0.0, le=1.0)
    presence_penalty: float = Field(0.5, ge=-2.0, le=2.0)
    frequency_penalty: float = Field(0.3, ge=-2.0, le=2.0)
    repeat_penalty: float = Field(0.5, ge=0.0, le=10.0,
                                  description="subtracted when a candidate repeats the previous action")
    empty_stop_fraction: float = Field(0.5, ge=0.0, le=1.0)
    max_tokens: int = Field(32, ge=1, le=512, description="tokens per sampled step")
    seed: int = 0
    repair: bool = Field(False, description="insert rule-based corrective steps for unmet preconditions "
                                            "when executing (CAPE-style; off = the paper's method)")


class GroundedConfig(_Frozen):
    """Settings of the state-grounded planner (:mod:`actionable.planning.grounded`).

    Weights were chosen on the training split (the 176 packaged programs
    without goal annotations; docs/results.md, "grounded planner: weights"),
    never on the 342 goal-annotated tasks that are reported.
    """

    max_steps: int = Field(30, ge=1, le=200, description="most steps (repairs included)")
    prompt_examples: int = Field(3, ge=0, le=20, description="nearest programs in the prompt")
    pool_programs: int = Field(5, ge=0, le=50,
                               description="nearest programs whose objects and steps shape candidates and prior")
    max_prompt_chars: int = Field(3000, ge=200, le=200_000, description="examples are added while they fit")
    min_task_similarity: float = Field(0.3, ge=-1.0, le=1.0,
                                       description="below this (and no task-word class) the task is refused")
    missing_object_similarity: float = Field(
        0.7, ge=-1.0, le=1.01,
        description="a task naming an object the scene lacks is refused unless a program this similar exists")
    samples: int = Field(0, ge=0, le=64, description="free-text samples per step for the translation score")
    temperature: float = Field(0.6, ge=0.0, le=2.0)
    top_p: float = Field(0.9, gt=0.0, le=1.0)
    max_tokens: int = Field(16, ge=1, le=128)
    shortlist: int = Field(12, ge=1, le=500, description="afforded candidates scored by the LM per step")
    max_tried: int = Field(80, ge=1, le=5000, description="candidates tried in the simulator per step")
    w_lm: float = Field(0.5, ge=0.0, le=100.0, description="weight of the LM's per-word log-prob (scoring mode a)")
    w_choice: float = Field(
        0.05, ge=0.0, le=100.0,
        description="weight of the LM's calibrated choice log-prob (modes b and c, actionable.lm.choice); "
                    "chosen on the tuning split, 22 programs: LCS 0.390 at 0.05, 0.377 at 0.1, 0.379 at 0.25, "
                    "0.341 at 0.5; no LM 0.392 (the 135M model's choices carry little)")
    w_translation: float = Field(0.5, ge=0.0, le=100.0)
    w_retrieval: float = Field(2.0, ge=0.0, le=100.0)
    w_task: float = Field(0.5, ge=0.0, le=100.0)
    w_object: float = Field(0.25, ge=0.0, le=100.0, description="bonus for acting on objects the task names")
    done_bias: float = Field(0.0, ge=-100.0, le=100.0, description="subtracted from Done's score")
    task_step_similarity: float = Field(
        0.8, ge=-1.0, le=1.01,
        description="a candidate at least this close (cosine) to the task's own words, and the closest, "
                    "is the task's step (\"Switch on the computer\" -> switch on computer)")
    task_verb_similarity: float = Field(
        0.5, ge=-1.0, le=1.01,
        description="and its action part (the words left without the objects' names) at least this close "
                    "to the task's (\"make\" is not \"drink\": Make coffee has no one-step form)")
    w_task_done: float = Field(5.0, ge=0.0, le=100.0,
                               description="added to Done's score once the plan has done the task's step; 0 turns the "
                                           "task-step rules off (grounded module doc). The tuning split "
                                           "cannot choose it (LCS 0.398 at 0, 0.397 at 2-20)")
    retrieval_temperature: float = Field(0.05, gt=0.0, le=10.0,
                                         description="softmax temperature over retrieved similarities")
    repair: bool = True
    repair_budget: int = Field(3, ge=0, le=10, description="corrective steps per step at most")
    use_lm: bool = True
    use_retrieval: bool = True
    seed: int = 0
    goal_search: bool = Field(True, description="where the world knows the task's goal predicates: never undo a "
                                                "met goal, and do not stop while a short search finds progress")
    goal_search_depth: int = Field(4, ge=1, le=8, description="candidate steps in one goal search at most")
    goal_search_nodes: int = Field(300, ge=1, le=100_000, description="states expanded by one goal search at most")


class LMConfig(_Frozen):
    """Which models to use and how to cache them."""

    model: str = Field("embedded", description="embedded | openai:<name>@<base_url> | hf:<path>")
    translation_model: str = Field("minilm", description="minilm | bow | st:<path>")
    lm_mode: str = Field("auto", description="how methods score candidates with the LM: auto | score | "
                                             "choice-logprobs | choice-name (actionable.lm.choice)")
    cache: bool = True
    cache_dir: Path = Field(default_factory=default_cache_dir)
    timeout_s: float = Field(120.0, gt=0)
    max_retries: int = Field(3, ge=0, le=20)

    @field_validator("model", "translation_model")
    @classmethod
    def _nonempty(cls, v: str) -> str:
        if not v or not v.strip():
            raise ValueError("must not be empty")
        return v.strip()


#: Config field -> the command-line flag that sets it, where the two differ by more than
#: ``_`` -> ``-`` (``max_steps`` -> ``--max-steps``). The CLI names the flag in errors
#: (:func:`flag_message`); Python callers see the field (their keyword argument).
FLAG_NAMES: dict[str, str] = {
    "level": "--nonstationarity",
    "n_programs": "--n",
    "n_errors": "--errors",
    "llm_programs": "--llm-n",
    "model": "--model",
    "translation_model": "--translation-model",
    "cache": "--no-cache",
}


def flag_name(field: str) -> str:
    """The CLI flag of a config field: :data:`FLAG_NAMES`, else ``--`` + the field with dashes."""
    return FLAG_NAMES.get(field, "--" + field.replace("_", "-"))


def flag_message(exc: ConfigError) -> str:
    """The message of a :class:`ConfigError` from :func:`make_config` with flags in place of
    field names (``--nonstationarity: ...`` rather than ``level: ...``); other errors unchanged."""
    fields = getattr(exc, "fields", None)
    if not fields:
        return str(exc)
    return "invalid setting: " + "; ".join(f"{flag_name(f) if f else '(settings)'}: {m} (got {v!r})"
                                           for f, m, v in fields)


def make_config(cls: type[BaseModel], **kwargs):
    """Build a config, turning pydantic's ValidationError into a one-line
    :class:`ConfigError` that names the field and the allowed range.

    The error's ``fields`` attribute holds ``(field, message, value)`` triples, so the CLI
    can name the flag instead (:func:`flag_message`)."""
    try:
        return cls(**{k: v for k, v in kwargs.items() if v is not None})
    except ValidationError as exc:
        parts, fields = [], []
        for e in exc.errors():
            loc = ".".join(str(x) for x in e["loc"])
            parts.append(f"{loc}: {e['msg']} (got {e.get('input')!r})")
            fields.append((loc, e["msg"], e.get("input")))
        err = ConfigError("invalid setting: " + "; ".join(parts))
        err.fields = fields
        raise err from None


def worker_lm_config(model: str, lm_cache: bool, cache_dir: str | None) -> tuple[str, "LMConfig"]:
    """``(cache dir, LMConfig)`` of an evaluation worker: the run's cache dir (or
    the default one) holds the LM cache, the index embeddings and the merged scene."""
    kw = {"model": model, "cache": lm_cache}
    if cache_dir:
        kw["cache_dir"] = cache_dir
    return (cache_dir or str(default_cache_dir())), make_config(LMConfig, **kw)
