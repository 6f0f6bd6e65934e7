"""``actionable plan --variant goal`` (the default): read the goal, plan to it, check it; verdicts
and exit codes.

Exit codes of ``plan`` (every variant):

* 0 — "Done" (the plan executes and every goal condition read from the task holds on the
  instances it names) or "Nothing to do" (they already hold; the plan is empty);
* 1 — "Not done: ..." (a condition does not hold, the plan does not execute, or it stopped at
  ``--max-steps``);
* 2 — bad input, or the goal is refused ("scene 'default' has no fireplace switch") or cannot be
  read ("I can't tell what end state this asks for"): one ``error:`` line, no plan;
* 3 — "Executes; goal not checked" (no goal could be read for the check: a world without a
  ``goals`` capability, or a paper variant whose task the interpreter cannot read).

A question ("Is the TV on?", "Is the plate dirty?") is answered from the scene's state, never
planned: the first line is "Yes: <the instances it holds for>" (exit 0) or "No: it is not so now that <the
conditions that do not hold, instances named>" (exit 1); ``--json`` has ``question: true``,
``answer`` (``"yes"`` / ``"no"``), ``answer_detail`` (``holds``, ``unmet``, ``hint``) and ``done``
(true for Yes, false for No).
"""

from __future__ import annotations

import typer

from actionable.core.defaults import EXIT_GOAL_NOT_CHECKED


class GoalSessionInfo:
    """``session.info()`` for output when no planning LM was loaded."""

    def __init__(self, domain, embedder):
        self.domain, self.embedder = domain, embedder

    def info(self) -> dict:
        return {"scene": self.domain.name, "planning_model": "none (goal-directed search)",
                "translation_model": self.embedder.model_id, "admissible_actions": None,
                "index_cache_hit": None, "index_build_s": None, "example_bank": None, "load_timings": {}}


def exit_code(result) -> int:
    """The exit code of ``plan`` for ``result`` (see the module doc)."""
    if result.done is None:
        if not result.steps and result.stop_reason != "already_done":
            return 1
        return EXIT_GOAL_NOT_CHECKED if result.executable else 1
    return 0 if result.done else 1


def plan_goal(task, domain, translation_model, max_steps, no_cache, fmt, output, model, fallback,
              after=None) -> None:
    """Run the goal-directed planner and exit with :func:`exit_code`; ``fallback()`` (the imitation
    planner, which loads the planning LM) runs when the world has no ``goals`` capability or the
    task reads as no goal. ``model``: the ``--model`` given (``None``: not given); the goal planner
    does not use it, and the result's ``notes`` say so
    (:func:`~actionable.planning.pipeline.unused_model_note`)."""
    from actionable.core.config import LMConfig, make_config
    from actionable.planning.goaldirected import GoalSearchConfig
    from actionable.planning.pipeline import LazyEmbedder, interpreter_for, plan_task, read_goal, unused_model_note

    lcfg = make_config(LMConfig, translation_model=translation_model, cache=not no_cache)
    emb = LazyEmbedder(lcfg.translation_model, lcfg.cache_dir)
    interp = interpreter_for(domain, emb)
    if interp is None:
        return fallback()
    reading = read_goal(interp, task)
    if not reading.is_goal:
        return fallback()
    cfg = GoalSearchConfig.for_reading(reading, max_steps=max_steps)
    result = plan_task(domain, task, interp, cfg, reading)
    if model is not None:
        result.notes.append(unused_model_note(model, translation_model))
    from actionable.cli.exitcode import decide

    code = decide(exit_code(result))  # before printing: a reader that closes stdout early keeps the verdict
    output(result, GoalSessionInfo(domain, emb), fmt, domain.executes_in, getattr(domain, "world_text", None))
    if after is not None:  # --html / --png
        after(result)
    if code:
        raise typer.Exit(code)


#: the notes of a reading the human output shows (they say how the words were read)
_SHOWN_NOTES = (" is read as ", " that fit are bound (", " so there is nothing to ", " names nothing to do",
                " so nothing is kept ", "said without a verb I know", " has no action for the activity itself", "' means one: ",
                " so VirtualHome cannot make them ", " is undone by a later part of the task", " named before",
                " is replaced by a later posture", " is not checked: the washing is checked with the ", " the task goes to")


def print_reading(con, result) -> None:
    """The verdict's first line and the conditions read (human output)."""
    v = result.verdict()
    colour = ("green" if v in ("Done", "Nothing to do") or v.startswith("Yes:")
              else ("yellow" if "not checked" in v else "red"))
    con.print(f"[bold {colour}]{v}[/bold {colour}]")
    r = result.reading or {}
    if r.get("clauses"):
        con.print("Goal conditions read from the task:")
        gc = result.goal_check or {}
        unmet = set(gc.get("unmet") or [])
        for c in r["clauses"]:
            mark = "[green]met[/green]" if c["text"] not in unmet else "[red]unmet[/red]"
            src = c.get("source", "rule")
            con.print(f"  - {c['text']}  ({mark}; {'grammar' if src == 'rule' else src})")
        for note in r.get("notes") or []:
            # a word read by another name ("apple" -> food_food), the instances a count bound, an
            # adjective no instance fits, a feeling before the command
            if any(m in note for m in _SHOWN_NOTES):
                con.print(f"  [yellow]note:[/yellow] {note}")
    st = result.stopped_at or {}
    for text, why in (st.get("blockers") or {}).items():
        con.print(f"  [yellow]blocked:[/yellow] {text}: {why}")
    for note in result.notes:  # "--model X was not used: ..."
        con.print(f"[yellow]note:[/yellow] {note}")


__all__ = ["GoalSessionInfo", "exit_code", "plan_goal", "print_reading"]
