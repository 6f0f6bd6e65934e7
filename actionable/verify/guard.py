"""The revision guard of the verification loop: an LM planner's rewrite is kept only when the
world's replay shows it loses nothing (issue 26, "no plan loses task success after cleaning").

The paper's Planner LLM (arXiv 2509.02761, Sec. 3) rewrites the plan however it likes; a 135M
model drops goal steps and repeats others (a 4-step plan came back as 30 lines, most of them
``SIT couch``). The deterministic ``apply`` revision of a simulator judge's critiques cannot lose
a goal condition (each edit is kept by the judge only when the replay shows it does not), so the
loop checks every revision that differs from ``apply``'s against the plan it revises, by replaying
both in the task's world (:class:`Referee`):

**Acceptance rule.** With ``before`` the plan the round revised, ``after`` the planner's revision,
``fallback`` the deterministic revision of the same critiques (``apply``'s) and ``m`` the number of
steps the critiques asked to insert (MISSING critiques with a step), ``after`` is accepted only when

1. every step of ``after`` names an object the scene has and ``after`` **executes**;
2. ``after`` meets **at least as many goal conditions** as ``before`` *and* as ``fallback``
   (``before`` counted on the state its replay reaches, up to a failing step: the stricter
   count). Against ``before`` alone a rewrite could be kept that the fallback beats: on a plan
   that switches the TV on and off again, an LM that drops both steps, where the critique asked
   to drop the switch-off, meets as many conditions as the input (the TV is off in both) and one
   fewer than ``apply``; and
3. when it meets **exactly as many** as the better of the two, it is **not longer than**
   ``fallback``: a rewrite that gains nothing has no reason to be longer than the critiques
   applied as written, neither by repeating steps (the 30-line ``SIT couch`` rewrite) nor by
   keeping steps a critique asked to remove (the simulator judges raise a REMOVE only where the
   plan without the step keeps its goal conditions). This is stricter than ``len(before) + m``
   (the plan plus the insertions asked for), which lets a rewrite ignore every REMOVE: in the
   first Table 2 run with that bound, SmolLM2 kept a sit-down-and-stand-up detour the judge had
   asked to remove. A rewrite that meets more is not bounded: the next round's judge removes
   the steps that serve nothing. Without a replayable ``fallback`` the bound is
   ``len(before) + m``.

Goal conditions are the task's (annotated, or the ones the judge derived in round 1 and the loop
fixed for later rounds), both plans matched to them the same way (the judge's matching for
``before``). A rejected revision is replaced by ``apply_critiques(before, critiques)``, the
deterministic revision, and the round records ``"revision rejected: <why>"``
(:attr:`~actionable.verify.loop.Round.rejected`; counted by
:attr:`~actionable.verify.loop.LoopResult.rejected`).

**The judge's critiques** (:func:`check_critiques`). A judge that does not replay its own
critiques (``llm``, ``rule``) can ask for edits that lose a goal condition (SmolLM2 as judge asked
to remove the faucet a plan needed). With such a judge, every round's revision, whichever planner
made it, is replayed against the plan it revises, and refused when it loses executability or a
goal condition: the round keeps the plan and records ``"critiques rejected: <why>; the plan is
kept"``. The ``sim`` and ``hybrid`` judges keep an edit only when the replay shows it loses
nothing, so the check is skipped for them (no cost).

What holds by construction: with a referee, no round of the loop lowers the goal conditions met
or makes an executing plan fail, whatever the judge and planner write; and an accepted rewrite
executes. The guard protects goal conditions, not the labels: an LLM judge's needless edit that
loses nothing is kept. The guard needs a world to replay in: the judge's own simulator (``sim``, ``hybrid``:
their ``outcomes``), or a ``sim`` judge of the loop's world (:func:`referee_for`); a loop without
one leaves revisions unchecked and says so in the round's model notes. Nothing here depends on a
world: the referee is any object with ``outcomes(plans, task)``
(:class:`~actionable.verify.grounded.SimulatorJudge` for scene-graph worlds,
:class:`~actionable.verify.worldsim.WorldJudge` for the adapter worlds, THOR's kitchen).
Cost: four replays a round of an LM planner (about 10 ms each); none for ``apply``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence, runtime_checkable

from actionable.core.errors import EnvError
from actionable.core.program import Program
from actionable.verify.base import PlanOutcome, VerifyTask
from actionable.verify.critique import Critique, CritiqueKind

__all__ = ["PlanOutcome", "Referee", "GuardVerdict", "check_critiques", "check_revision", "referee_for", "requested_inserts"]


@runtime_checkable
class Referee(Protocol):
    """Replays plans for the guard: ``outcomes(plans, task) -> [PlanOutcome]``, one per plan, all
    scored against the same goal conditions with the same matching (the first plan's).

    Raises:
        EnvError: a plan names an object the scene lacks (ResolutionError) or cannot be replayed.
    """

    def outcomes(self, plans: Sequence[Program], task: VerifyTask) -> list[PlanOutcome]: ...


@dataclass(frozen=True)
class GuardVerdict:
    """The guard's answer: ``accepted``; ``reason`` (why not, empty when accepted); ``plan``: the
    revision as replayed (use it when accepted); ``before`` / ``after``: the outcomes (None when
    the revision could not be replayed)."""

    accepted: bool
    reason: str = ""
    plan: Program | None = None
    before: PlanOutcome | None = None
    after: PlanOutcome | None = None


def _where_it_fails(o: PlanOutcome) -> str:
    """`` (step N: <error>)`` of a replay that stopped at a step, else ``""``."""
    if o.failed_index is None:
        return ""
    return f" (step {o.failed_index + 1}" + (f": {o.error})" if o.error else ")")


def requested_inserts(critiques: Sequence[Critique]) -> int:
    """Steps the critiques ask to insert: the MISSING critiques that carry a step."""
    return sum(1 for c in critiques if c.kind is CritiqueKind.MISSING and c.step is not None)


def check_revision(referee: Referee, before: Program, after: Program, critiques: Sequence[Critique],
                   task: VerifyTask, fallback: Program | None = None) -> GuardVerdict:
    """Whether revision ``after`` of ``before`` (made for ``critiques``; ``fallback``: the
    deterministic revision, or None to compare with ``before`` only) may be kept, by the acceptance
    rule of the module doc. Never raises for the revision's own faults (an object the scene lacks,
    a step the world cannot run): those reject it, with the reason. A ``fallback`` that cannot be
    replayed itself (an LLM judge's MISSING step naming an absent object) is not compared with.

    Raises:
        EnvError: ``before`` cannot be replayed (it was judged this round, so it can)."""
    of = None
    if fallback is not None:
        try:
            of = referee.outcomes([before, fallback], task)[1]
        except EnvError:
            of = None
    try:
        ob, oa = referee.outcomes([before, after], task)
    except EnvError as exc:
        name = getattr(exc, "class_name", None)
        why = (f"it names {name!r}, which the scene lacks" if name else
               f"it cannot be replayed ({str(exc).splitlines()[0][:160] if str(exc) else type(exc).__name__})")
        return GuardVerdict(False, why)
    if not oa.executable:
        return GuardVerdict(False, f"it does not execute{_where_it_fails(oa)}", None, ob, oa)
    if oa.goals_met < ob.goals_met:
        return GuardVerdict(False, f"it meets fewer goal conditions ({oa.goals_met} of {oa.goals_total}; the plan "
                                   f"it revises meets {ob.goals_met})", None, ob, oa)
    if of is not None and oa.goals_met < of.goals_met:
        return GuardVerdict(False, f"it meets fewer goal conditions ({oa.goals_met} of {oa.goals_total}) than the "
                                   f"critiques applied as written ({of.goals_met})", None, ob, oa)
    best = max(ob.goals_met, of.goals_met) if of is not None else ob.goals_met
    if of is not None:
        cap, what = len(fallback), f"the critiques applied as written ({len(fallback)})"
    else:
        cap = len(before) + requested_inserts(critiques)
        what = f"the plan's {len(before)} plus the {cap - len(before)} the critiques asked to insert"
    if oa.goals_met == best and len(after) > cap:
        return GuardVerdict(False, f"it has {len(after)} steps, more than {what}, and meets no more goal "
                                   f"conditions ({oa.goals_met} of {oa.goals_total})", None, ob, oa)
    return GuardVerdict(True, "", oa.plan, ob, oa)


def check_critiques(referee: Referee, before: Program, after: Program, task: VerifyTask) -> str:
    """Why ``after`` (a round's revision, whatever judge and planner made it) may not replace
    ``before``, or ``""`` when it may: it must not lose what ``before`` had. It is refused when it
    names an object the scene lacks or cannot be replayed, when ``before`` executes and ``after``
    does not, or when it meets fewer goal conditions (issue 26: "no plan loses task success after
    cleaning"; an LLM judge asked to remove the faucet a plan needs, and ``apply`` did). A
    ``before`` that cannot be replayed itself gives ``""`` (nothing to compare with). One replay of
    both plans; never raises for either plan's faults."""
    try:
        ob, oa = referee.outcomes([before, after], task)
    except EnvError as exc:
        try:
            referee.outcomes([before], task)
        except EnvError:
            return ""  # the plan itself cannot be replayed here: nothing to compare with
        name = getattr(exc, "class_name", None)
        return f"the revision names {name!r}, which the scene lacks" if name else "the revision cannot be replayed"
    if ob.executable and not oa.executable:
        return f"the plan executes and its revision does not{_where_it_fails(oa)}"
    if oa.goals_met < ob.goals_met:
        return (f"the revision meets fewer goal conditions ({oa.goals_met} of {oa.goals_total}; the plan meets "
                f"{ob.goals_met})")
    return ""


def referee_for(judge, world=None):
    """The referee of a loop with ``judge``: the judge itself when it replays plans (``sim``,
    ``hybrid``: an ``outcomes`` method), else a ``sim`` judge of ``world`` (a world's
    :class:`~actionable.core.replay.WorldAdapter` or scene-graph replay; ``None``: the default
    world's), as :func:`~actionable.verify.judge.make_judge` builds it."""
    sim = getattr(judge, "sim", judge)  # the hybrid judge replays with its simulator judge
    if isinstance(sim, Referee):
        return sim
    from actionable.verify.judge import make_judge

    return make_judge("sim", world=world)
