"""The benchmark scored as EAI scores it (issue 24, item 5, and its benchmarks).

* :mod:`~actionable.evaluation.eai.goal_interpretation`: EAI's goal-interpretation inputs and its
  own evaluator (``goal_interpretation_inputs``, ``evaluate_goal_interpretation``);
* :mod:`~actionable.evaluation.eai.protocol`: column (a), action sequencing under EAI's protocol
  (``sequencing_inputs``, ``plan_output``, ``evaluate_action_sequencing``) and its rules;
* :mod:`~actionable.evaluation.eai.columns`: columns (b) exact nodes and (c) class, the hard subset
  (``min_steps``), a run of all three columns (``run``) and its summary;
* :mod:`~actionable.evaluation.eai.folds`: step-for-step twins and twin-aware leave-title-out folds;
* :mod:`~actionable.evaluation.eai.planners`: the planner registry (``PLANNERS``,
  ``register_planner``; a planner is ``(PlanTask, domain) -> Program``); planner
  ``goal-predicted`` registers from :mod:`~actionable.evaluation.eai.predicted`.

EAI: Li et al. 2024, "Embodied Agent Interface"; the installed ``virtualhome-eval`` 0.1.1.
"""

from actionable.evaluation.eai.goal_interpretation import (EAI_PUBLISHED_F1, evaluate_goal_interpretation,
                                                           goal_interpretation_inputs, gold_prediction)
from actionable.evaluation.eai.planners import PLANNERS, PlanTask, make_planner, register_planner
from actionable.evaluation.eai import predicted  # noqa: F401 - registers planner goal-predicted
from actionable.evaluation.eai.protocol import (EAI_PUBLISHED_SEQUENCING, evaluate_action_sequencing, plan_output,
                                                sequencing_inputs)

__all__ = ["EAI_PUBLISHED_F1", "EAI_PUBLISHED_SEQUENCING", "PLANNERS", "PlanTask", "evaluate_action_sequencing",
           "evaluate_goal_interpretation", "goal_interpretation_inputs", "gold_prediction", "make_planner",
           "plan_output", "register_planner", "sequencing_inputs"]
