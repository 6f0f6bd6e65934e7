"""Property (issue 26): the cleaned plan never has lower goal-condition success than the input.

Hypothesis draws edits of gold programs (drop, duplicate, move a step; insert a step of the same
plan elsewhere); the sim judge's loop (apply planner) cleans the plan; the cleaned plan must meet
at least as many annotated goal conditions (exact node ids) as the input, and execute when the
input did."""

from hypothesis import HealthCheck, given, settings, strategies as st

from actionable.core.goals import check_goals
from actionable.core.program import Program
from actionable.verify.base import VerifyTask
from actionable.verify.grounded import SimulatorJudge
from actionable.verify.loop import VerificationLoop
from actionable.worlds.virtualhome.dataset import load_program
from actionable.worlds.virtualhome.goals import load_goal_annotations
from actionable.worlds.virtualhome.replay import VirtualHomeReplay
from tests.verify.edits import apply_edits

PIDS = ("1057_1", "150_2", "152_2", "27_2", "710_2", "1027_2", "124_1", "153_2")
ANN = load_goal_annotations()
WORLD = VirtualHomeReplay()


def _outcome(steps, pid):
    res = WORLD.replay(steps, pid)
    return res.executable, check_goals(ANN[pid], res.final_graph, res.executed).met


edits = st.lists(st.tuples(st.sampled_from(("drop", "dup", "move", "copy")), st.integers(0, 50),
                           st.integers(0, 50)), min_size=0, max_size=3)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pid=st.sampled_from(PIDS), ops=edits)
def test_cleaning_never_loses_goal_conditions(pid, ops):
    steps = apply_edits(load_program(pid).steps, ops)
    ex0, met0 = _outcome(steps, pid)
    task = VerifyTask(goal=load_program(pid).task, scene=pid, goal_spec=ANN[pid], program_id=pid)
    final = VerificationLoop(SimulatorJudge()).run(Program(tuple(steps)), task).final
    ex1, met1 = _outcome(list(final.steps), pid)
    assert met1 >= met0, (pid, ops)
    assert ex1 or not ex0, (pid, ops)
