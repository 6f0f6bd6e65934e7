"""Goal-directed planning: reach the interpreted goal conditions through the world's exact affordance.

Given a :class:`~actionable.core.conditions.GoalReading` (a world's ``goals`` capability), the
planner searches over the world's planning affordance (:class:`~actionable.core.planning.Affordance`,
exact 0/1 with rule repair), never over free text:

1. from the current state, every *achiever* of every option of every unmet clause
   (``interpreter.achievers``: ``SWITCHOFF`` for ``OFF``, ``PUTIN`` for ``INSIDE``, ...) is tried
   with repair (the affordance inserts the walk, grab and open steps its preconditions need);
2. the attempt whose end state meets the most clauses wins (ties: fewer steps, then clause order);
   only attempts that meet strictly more clauses than the current state count, so a step that
   undoes a met condition without a net gain is never taken, and no detour that changes nothing the
   goal needs is taken: every committed step is an achiever or a precondition of one;
3. repeat until every clause holds, no attempt makes progress (``goal_unreachable``: the remaining
   clauses and the unmet preconditions that blocked their achievers are reported), or
   ``max_steps`` is reached;
4. once every clause holds, a device the plan switched on only to enable an effect (the faucet
   that filled the cup) is switched back off when the world says how (``interpreter.restore``,
   optional: the condition that puts an enabling condition back) and every clause still holds.

A world whose goal interpreter has a classical planner (``classical(reading, max_steps)``: the
``pddl`` world's unified-planning engines) is asked first; its plan is replayed through the
affordance without repair and kept when every step executes and every clause holds after it
(``GoalSearchConfig.planner == "auto"``, the default; ``"search"`` skips it).

With ``lookahead`` (the efficiency benchmark's "larger budget"), every order of the first
``lookahead`` unmet clauses is tried and the shortest complete plan kept. A reading whose task says
an order (``GoalReading.ordered``: "put the towel on the rack before you switch on the TV") is first
searched clause by clause in the reading's order; that plan is kept when it reaches every clause,
else the unordered search's (the verdict checks the end state either way). An action goal is done
last (step 2's order), and where that leaves it unmet (pouring into a coffee maker that is by then
switched on and shut), the search is run again with the unmet action goals first.

Plans are executable by construction: every committed step executed in the affordance.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any

from actionable.core.conditions import CHARACTER, VISIT, GoalReading, check_clauses
from actionable.core.errors import EnvError, ResolutionError


#: the default step budget per goal clause of a long goal (:meth:`GoalSearchConfig.for_reading`)
STEPS_PER_CLAUSE = 6
#: the default lookahead of a reading with two or more clauses (:meth:`GoalSearchConfig.for_reading`)
DEFAULT_LOOKAHEAD = 2


@dataclass(frozen=True)
class GoalSearchConfig:
    """Limits of the goal-directed search.

    Attributes:
        max_steps: most steps in a plan (repairs included).
        repair_budget: most corrective steps before one achiever.
        max_options: most options of a clause tried per round (instances, nearest first).
        lookahead: clauses whose orders are searched exhaustively (0: greedy only).
        planner: ``"auto"`` (a world's classical planner first when its goal interpreter has one,
            ``classical(reading, max_steps)``, its plan replayed; the goal search otherwise or when
            that finds nothing) or ``"search"`` (the goal search only).
    """

    max_steps: int = 40
    repair_budget: int = 10
    max_options: int = 12
    lookahead: int = 0
    planner: str = "auto"

    @classmethod
    def for_reading(cls, reading, **overrides) -> "GoalSearchConfig":
        """The default limits for ``reading``: ``max_steps`` 40, or :data:`STEPS_PER_CLAUSE` per goal
        clause when that is more ("put all the clothes in the washing machine": 20 clauses, each a
        walk, a grab, a walk and a put, with a door to open now and then), at most 200 (the CLI's
        ``--max-steps`` range); both orders of the first two unmet clauses tried
        (:data:`DEFAULT_LOOKAHEAD`: "put the keys in the purse and bring it to the bedroom" carries
        the purse first, 9 steps, not 13 with the keys put in twice). ``overrides`` (not ``None``)
        replace fields: ``for_reading(r, max_steps=60)``."""
        base = {"max_steps": min(200, max(cls.max_steps, STEPS_PER_CLAUSE * len(reading.clauses))),
                "lookahead": DEFAULT_LOOKAHEAD if len(reading.clauses) > 1 else 0}
        return cls(**{**base, **{k: v for k, v in overrides.items() if v is not None}})


@dataclass
class GoalPlan:
    """The search's outcome.

    Attributes:
        steps: resolved steps in order. repaired: one flag per step (inserted by repair).
        serves: per step, the clause text its achiever was chosen for.
        state: the affordance state at the end. reached: every clause holds.
        remaining: texts of the clauses that do not hold. blockers: for each remaining clause,
            why its achievers failed (unmet preconditions, or "no achiever").
        attempts: achievers tried. seconds: search time.
        planner: what made the plan (``"goal search"``, or the classical engine's name).
    """

    steps: list = field(default_factory=list)
    repaired: list = field(default_factory=list)
    serves: list = field(default_factory=list)
    state: Any = None
    reached: bool = False
    remaining: list = field(default_factory=list)
    blockers: dict = field(default_factory=dict)
    attempts: int = 0
    seconds: float = 0.0
    stop_reason: str = ""
    planner: str = "goal search"


def _why(att) -> str:
    info = att.info or {}
    unmet = info.get("unmet_preconditions") or []
    msg = info.get("error") or info.get("error_type") or "it does not execute"
    return f"{att.step.to_text()}: {msg}" + (f" (unmet: {'; '.join(map(str, unmet[:3]))})" if unmet else "")


def _refused(aff, att, chk, clauses, cur, blockers: dict, text: str) -> None:
    """The blocker of clause ``text`` when the world says why it refuses the step asked (its
    optional ``refusal(step)``: "VirtualHome refuses LIE on <couch> (352) while it holds 2 objects
    ..."), in place of "executes but does not make it hold": with ``chk`` (the check after the
    repaired step ran), the goal condition that making room undid; then what the user can do."""
    refusal = getattr(aff, "refusal", None)
    why = refusal(att.steps[-1] if att.steps else att.step) if refusal is not None else None
    if why is None:
        return
    undone = [] if chk is None else [c.text for c, a, b in zip(clauses, cur.flags, chk.flags) if a and not b]
    moved = [s.args[0] for s, r in zip(att.steps, att.repaired) if r and s.action == "GRAB" and s.args]
    if undone:
        what = f"taking {moved[0].name.replace('_', ' ')} {moved[0].id} off it" if moved else "making room"
        why += f"; {what} undoes '{undone[0]}'"
    blockers[text] = why + ": ask for fewer things on it, or for another place"


def _enabling(clauses) -> list:
    """``(clause, option)`` of every state option of an enabling clause (a standing condition the
    reading added for an effect: "rule (enabling: ...)")."""
    return [(c, o) for c in clauses if "(enabling" in c.source for o in c.options
            if o.kind == "state" and not o.negate]


def _tidy(aff, interp, clauses, cfg: GoalSearchConfig, out: GoalPlan, held_at_start: set) -> None:
    """Step 4 of the module doc: put back what the plan switched on only to enable an effect."""
    restore = getattr(interp, "restore", None)
    if restore is None:
        return
    for clause, o in _enabling(clauses):
        back = restore(o)
        view = interp.view(aff.state)
        if back is None or o in held_at_start or not view.holds(o):
            continue
        for st in interp.achievers(back, view):
            try:
                att = aff.attempt(st, repair=True)
            except (ResolutionError, EnvError):
                continue
            if (not att.ok or len(out.steps) + len(att.steps) > cfg.max_steps
                    or not check_clauses(clauses, interp.view(att.state), out.steps + list(att.steps)).done):
                continue
            aff.commit(att)
            out.steps.extend(att.steps)
            out.repaired.extend(att.repaired)
            out.serves.extend([f"put back: {o.subject} as it was (needed only on the way: {clause.text})"]
                              * len(att.steps))
            break


#: navigation actions: an action goal made only of them is a visit on the way
#: (:func:`~actionable.core.conditions.visits_on_the_way`)
_NAVIGATION = frozenset(VISIT.split("|"))


def _greedy(aff, interp, clauses, cfg: GoalSearchConfig, order=None, first=()) -> GoalPlan:
    """One greedy search (steps 1-4 of the module doc). ``order``: clause indices searched one at a
    time in that order, the others after; ``first``: clause indices searched (one at a time) before
    the others, which then follow the usual order."""
    out = GoalPlan()
    view = interp.view(aff.state)
    cur = check_clauses(clauses, view)
    held_at_start = {o for _, o in _enabling(clauses) if view.holds(o)}
    t0 = time.perf_counter()
    while not cur.done and len(out.steps) < cfg.max_steps:
        best = None
        over = False
        blockers: dict[str, str] = {}
        idx = [i for i, f in enumerate(cur.flags) if not f]
        # put things in before switching their container on ("toast bread": bread in, then toaster on)
        targets = {o.target for i in idx for o in clauses[i].options
                   if o.kind == "relation" and not o.negate and o.subject != CHARACTER}  # not where the agent faces
        late = [i for i in idx if all(o.kind == "state" and o.subject in targets and not o.negate
                                      for o in clauses[i].options)]
        # the agent's posture last: sitting down before picking something up would have to be undone
        # (and where it faces: walking to switch the TV on turns it away again)
        posture = [i for i in idx if all(o.subject == CHARACTER and (o.kind == "state" or o.value in ("ON", "FACING"))
                                         for o in clauses[i].options)]
        # an action goal ("did watch") once the states are there: watching the TV before it is on
        # would meet the goal's letter and not its point
        actions = [i for i in idx if all(o.kind == "action" for o in clauses[i].options)]
        # a visit on the way ("take a shower and go to sleep": went to the shower) first: it stays
        # done, and the part after it moves the agent on
        visits = [i for i in actions if all(set(o.value.split("|")) <= _NAVIGATION for o in clauses[i].options)]
        actions = [i for i in actions if i not in visits]
        # an action done with a tool in hand is not late: "wash your hands with soap and sit down"
        # washes standing, tool in hand, before the posture
        tooled = [i for i in actions if any(getattr(o, "holding", None) is not None for o in clauses[i].options)]
        late = list(dict.fromkeys(late + posture + [i for i in actions if i not in tooled]))
        if late and len(late) < len(idx):
            idx = [i for i in idx if i not in late] + late
            idx_first = [i for i in idx if i not in late]
        else:
            idx_first = idx
        idx = visits + [i for i in idx if i not in visits]
        idx_first = visits + [i for i in idx_first if i not in visits]
        ahead = [i for i in first if i in idx]
        if ahead:
            idx = idx_first = ahead[:1]
        if order is not None:
            idx = sorted(idx, key=lambda i: order.index(i) if i in order else len(order) + i)
            idx = idx[:1] if idx and idx[0] in order else idx
        for ci in idx:
            clause = clauses[ci]
            for opt in clause.options[: cfg.max_options]:
                achs = interp.achievers(opt, view)
                if not achs:
                    blockers.setdefault(clause.text, "no step of this world makes it hold")
                for st in achs:
                    out.attempts += 1
                    try:
                        att = aff.attempt(st, repair=True)
                    except (ResolutionError, EnvError) as exc:  # an achiever the world cannot run
                        blockers.setdefault(clause.text, str(exc))
                        continue
                    if not att.ok:
                        blockers.setdefault(clause.text, _why(att))
                        _refused(aff, att, None, clauses, cur, blockers, clause.text)
                        continue
                    chk = check_clauses(clauses, interp.view(att.state), out.steps + list(att.steps))
                    # a sideways move: as many clauses met, this one now among them, a state not seen
                    # before (put the tomato in the fridge, which the repair opened; then close it)
                    sideways = chk.met == cur.met and chk.flags[ci] and att.fingerprint not in aff.seen
                    if chk.met < cur.met or (chk.met == cur.met and not sideways):
                        blockers.setdefault(clause.text, f"{st.to_text()} executes but undoes another goal condition"
                                            if chk.flags[ci] else f"{st.to_text()} executes but does not make it hold")
                        _refused(aff, att, chk, clauses, cur, blockers, clause.text)
                        continue
                    if len(out.steps) + len(att.steps) > cfg.max_steps:
                        over = True
                        continue
                    key = (chk.met, not sideways, -len(att.steps))
                    if best is None or key > best[0]:
                        best = (key, att, chk, clause.text)
            if best is not None and (order is not None or (ci == idx_first[-1] and len(idx_first) < len(idx))):
                break
        if best is None and over:
            break
        if best is None:
            out.blockers = {c.text: blockers.get(c.text, "no achiever executes")
                            for c, f in zip(clauses, cur.flags) if not f}
            out.stop_reason = "goal_unreachable"
            break
        _, att, chk, text = best
        aff.commit(att)
        out.steps.extend(att.steps)
        out.repaired.extend(att.repaired)
        out.serves.extend([text] * len(att.steps))
        view = interp.view(aff.state)
        cur = chk
    if cur.done:
        _tidy(aff, interp, clauses, cfg, out, held_at_start)
    out.state = aff.state
    out.reached = cur.done
    out.remaining = list(cur.unmet)
    if out.reached:
        out.stop_reason = "goal_reached"
    elif not out.stop_reason:
        out.stop_reason = "max_steps"
        out.blockers = {t: "the plan reached --max-steps" for t in cur.unmet}
    out.seconds = time.perf_counter() - t0
    return out


def _classical(domain, interp, reading: GoalReading, cfg: GoalSearchConfig) -> GoalPlan | None:
    """The world's classical plan for ``reading``, replayed through the affordance without repair;
    ``None`` when there is none, a step does not execute, or the goal does not hold after it."""
    t0 = time.perf_counter()
    steps = interp.classical(reading, cfg.max_steps)
    if steps is None:
        return None
    aff = domain.start(repair_budget=0)
    out = GoalPlan(planner=getattr(interp, "engine", None) or "classical planner")
    for st in steps:
        out.attempts += 1
        att = aff.attempt(st, repair=False)
        if not att.ok:
            return None
        aff.commit(att)
        out.steps.extend(att.steps)
        out.repaired.extend([False] * len(att.steps))
        out.serves.extend([f"classical plan, {out.planner}"] * len(att.steps))
    chk = check_clauses(reading.clauses, interp.view(aff.state), out.steps)
    if not chk.done:
        return None
    out.state, out.reached, out.stop_reason = aff.state, True, "goal_reached"
    out.seconds = time.perf_counter() - t0
    return out


def plan_to_goal(domain, interp, reading: GoalReading, config: GoalSearchConfig | None = None) -> GoalPlan:
    """Search a plan that makes every clause of ``reading`` hold (see the module doc).

    Args:
        domain: the world's :class:`~actionable.core.planning.PlanningDomain` for the scene.
        interp: the world's goal interpreter for the same scene (``view``, ``achievers``).
        reading: an interpreted goal (``status == "goal"``).
        config: :class:`GoalSearchConfig`.

    Returns:
        :class:`GoalPlan`; ``reached`` False with ``remaining`` and ``blockers`` when no plan was
        found within the limits.
    """
    cfg = config or GoalSearchConfig.for_reading(reading)
    clauses = list(reading.clauses)
    if cfg.planner == "auto" and hasattr(interp, "classical"):
        plan = _classical(domain, interp, reading, cfg)
        if plan is not None:
            return plan
    best = _greedy(domain.start(repair_budget=cfg.repair_budget), interp, clauses, cfg)
    if reading.ordered and len(clauses) > 1:  # in the order the task says
        in_order = _greedy(domain.start(repair_budget=cfg.repair_budget), interp, clauses, cfg,
                           order=list(range(len(clauses))))
        if in_order.reached:
            in_order.attempts += best.attempts
            best = in_order
    if cfg.lookahead > 1 and not (reading.ordered and len(clauses) > 1 and best.reached):  # an order said is kept
        unmet0 = [i for i, f in enumerate(check_clauses(clauses, interp.view(domain.start().state)).flags) if not f]
        head = unmet0[: cfg.lookahead]
        for perm in itertools.permutations(head):
            alt = _greedy(domain.start(repair_budget=cfg.repair_budget), interp, clauses, cfg, order=list(perm))
            alt.attempts += best.attempts
            if alt.reached and (not best.reached or len(alt.steps) < len(best.steps)):
                best = alt
    if not best.reached:  # an action goal left to the end can be blocked there ("did pour" into a
        # coffee maker already switched on and shut, which opens only when off): done first instead
        acts = [i for i, c in enumerate(clauses) if c.text in best.remaining and c.options
                and all(o.kind == "action" for o in c.options)]
        if acts:
            alt = _greedy(domain.start(repair_budget=cfg.repair_budget), interp, clauses, cfg, first=acts)
            alt.attempts += best.attempts
            if alt.reached:
                best = alt
    return best


__all__ = ["GoalPlan", "GoalSearchConfig", "plan_to_goal"]
