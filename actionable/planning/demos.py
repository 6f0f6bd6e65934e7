"""Demonstrations from a world's goal predicates: programs found by a bounded search.

Where a planning domain knows a task's goal predicates (``goal_progress``; the THOR kitchen's Make
coffee, Boil water, Water the plant), :func:`search_demo` writes a demonstration of the task by a
search over the world's exact affordance. Used to build the THOR world's goal demonstrations
(``benchmarks/build_thor_goal_demos.py``, data in ``actionable/worlds/thor/data/goal_demos.json``):
TEACh has no demonstration of boiling water.

Search, per task and scene: the candidate steps are those the grounded planner would consider for
the task (the classes of the 5 nearest bank programs and of the task's words,
:meth:`GroundedPlanner.relevant_classes`), each tried with the domain's affordance and its repairs.
From the current state, a breadth-first search of ``depth`` (2) steps keeps the sequence that meets
the most goal predicates (the shortest on ties); it is committed if it meets more than before;
repeated until every goal holds, nothing improves, or ``rounds`` (6). The program is the committed
steps without walks (as in TEACh demonstrations). The search sees the goal predicates: it is a
demonstrator, not the planner under test. Leakage: bank programs the domain holds out
(``held_out_sources()``) are not retrieved.
"""

from __future__ import annotations


def search_demo(domain, task: str, embedder, bank, depth: int = 2, rounds: int = 6) -> dict:
    """Search a program meeting ``task``'s goal predicates in ``domain``'s scene (module doc).

    Args:
        domain: a :class:`~actionable.core.planning.PlanningDomain` with ``goal_progress``.
        bank: the example bank whose 5 nearest programs give the candidate classes.

    Returns:
        ``{"scene", "task", "steps": [phrase, ...], "success": bool, "goals_met": int,
        "goals_total": int, "attempts": int}``.

    Raises:
        WorldGoalError: the domain has no goal predicates for ``task``.
    """
    from actionable.core.config import GroundedConfig
    from actionable.core.errors import WorldGoalError
    from actionable.planning.grounded import GroundedPlanner
    from actionable.planning.retrieval import ProgramRetriever

    progress = getattr(domain, "goal_progress", lambda t: None)(task)
    if progress is None:
        raise WorldGoalError(f"world {domain.world!r} has no goal predicates for {task!r}")
    dom = domain
    oracle = dom.start()
    planner = GroundedPlanner(None, embedder, ProgramRetriever(bank, embedder), GroundedConfig(use_lm=False),
                              world=dom.world)
    held_out = getattr(dom, "held_out_sources", lambda: ())()
    retrieved = planner.retriever.nearest(task, None, k=5, exclude_sources=held_out)
    classes, _ = planner.relevant_classes(oracle, task, None, retrieved)
    cands = oracle.candidates(classes)
    n_met = lambda st: progress(st)[0]  # noqa: E731
    total = progress(oracle.state)[1]
    committed: list = []
    attempts = 0
    best_met = n_met(oracle.state)
    for _ in range(rounds):
        if best_met == total:
            break
        cur, cur_mem = oracle.state, dict(oracle.memory)
        frontier = [(cur, [], cur_mem)]
        seen = {oracle.fingerprint(cur)}
        best = None
        for _d in range(depth):
            nxt = []
            for state, seq, mem in frontier:
                oracle.state, oracle.memory = state, mem
                for c in cands:
                    attempts += 1
                    att = oracle.attempt(c)
                    if not att.ok or att.fingerprint in seen:
                        continue
                    seen.add(att.fingerprint)
                    m = n_met(att.state)
                    if m > best_met and (best is None or m > best[0]):
                        best = (m, seq + [att])
                    new_mem = {**mem, **{a.name: a.id for st in att.steps for a in st.args}}
                    nxt.append((att.state, seq + [att], new_mem))
            frontier = nxt
            if best is not None:
                break
        oracle.state, oracle.memory = cur, cur_mem
        if best is None:
            break
        for att in best[1]:
            oracle.commit(att)
            committed.append(att)
        best_met = best[0]
    steps = [s.unresolved().to_text() for a in committed for s in a.steps if s.action != "WALK"]
    return {"scene": dom.name, "task": task, "steps": steps, "success": best_met == total,
            "goals_met": best_met, "goals_total": total, "attempts": attempts}


__all__ = ["search_demo"]
