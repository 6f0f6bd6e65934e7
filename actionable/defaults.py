"""Defaults shared by the Python API (:mod:`actionable.api`) and the CLI, decided in one place.

The command-line options of ``actionable plan|verify|follow`` and the keyword arguments of
``actionable.plan|verify|follow`` read these constants, so the two cannot drift apart. Decoding
defaults of the planners live in :mod:`actionable.config` (``PlannerConfig``, ``GroundedConfig``);
the one default that depends on the model, the early-stop cutoff of the paper variants, is
:func:`plan_cutoff`.
"""

from __future__ import annotations

# --- plan -------------------------------------------------------------------------------
WORLD = "virtualhome"
PLAN_SCENE = "default"
MODEL = "embedded"
TRANSLATION_MODEL = "minilm"
VARIANT = "grounded"

# --- verify -----------------------------------------------------------------------------
JUDGE = "hybrid"
VERIFY_PLANNER = "apply"
VERIFY_SCENE = "default"
MAX_ROUNDS = 5

# --- follow (continual instruction following) -------------------------------------------
FOLLOW_SCENE = "1003_2"
AGENT = "exrap"
NONSTATIONARITY = "medium"
FOLLOW_STEPS = 100
INSTRUCTION_COUNT = 5
QUERY_MODE = "logprob"
W_T = 0.01
RELEVANCE = 0.5
INTERPRETER = "lm"
SEED = 0


def plan_cutoff(model: str, cutoff: float | None = None) -> float:
    """The early-stop cutoff of the paper variants: ``cutoff`` when given, else the calibrated
    0.4 for the embedded SmolLM2-135M and the paper's 0.8 for other models (the value
    ``actionable plan`` and ``actionable eval plan`` use)."""
    if cutoff is not None:
        return cutoff
    from actionable.config import PlannerConfig
    from actionable.planning.zero_shot import default_cutoff

    return default_cutoff(model, PlannerConfig().cutoff)
