"""The task's own step (grounded planner, turn 5): a candidate step that says the whole task.

"Switch on the computer" -> ``switch on computer``; "Make coffee" has none. Used by
:class:`~actionable.planning.grounded.GroundedPlanner` (module doc there, and docs/plan.md item 6):
*nothing to do* when its effect already holds (:func:`already_holds`), *never undone*
(:func:`undoes`), ``Done`` favoured once it is done. Everything here talks to the planning
domain's :class:`~actionable.core.planning.Affordance` (``attempt``; the optional ``satisfied``
flag of an attempt and ``instances()``), never to a world by name.
"""

from __future__ import annotations

import dataclasses
import re

import numpy as np

from actionable.core.program import Argument
from actionable.core.errors import ResolutionError
from actionable.core.planning import Affordance
from actionable.grounding.objects import words as _words


def find_task_steps(embedder, cfg, pool: list, phrases: list[str], vec: np.ndarray, task: str, match) -> set[str]:
    """The task's own step: the candidate phrases closest to the task's words (the name, without
    the description), if the closest reaches ``task_step_similarity`` (within 0.02 of it, for
    ties) **and** its action part says what the task's does: the words left after removing the
    objects' names, cosine >= ``task_verb_similarity``. "Switch on the computer" ->
    {"switch on computer"} (0.97; "switch on the" ~ "switch on" 0.85); "Make coffee" -> {} ("drink
    coffee" is 0.8 close, but "make" ~ "drink" is 0.39). Once one is done, ``Done`` gets
    ``w_task_done``.

    Args:
        embedder: the translation LM (``encode(texts) -> (n, d)`` unit vectors).
        cfg: :class:`~actionable.core.config.GroundedConfig` (``task_step_similarity``,
            ``task_verb_similarity``; ``w_task_done`` <= 0 returns an empty set).
        pool / phrases / vec: the candidate steps, their phrases and their embeddings ``(n, d)``.
        task: the task name (not the description). match: its
            :class:`~actionable.grounding.objects.ObjectMatch` (object words -> scene classes).

    Returns:
        the phrases of the task's own step(s); empty when the task has no one-step form.
    """
    if not phrases or cfg.w_task_done <= 0:
        return set()
    task = _in_step_vocabulary(" ".join(_words(task)))
    for words, cls, _, _ in match.matched:  # the scene's names for the objects ("fridge" -> freezer)
        task = re.sub(rf"\b{re.escape(words.lower())}\b", cls.replace("_", " "), task)
    cos = vec @ np.asarray(embedder.encode([task])[0], dtype=np.float32)
    top = float(cos.max())
    if top < cfg.task_step_similarity:
        return set()
    named_words = {w for words, _, _, _ in match.matched for w in _words(words)}
    out = set()
    for i in np.flatnonzero(cos >= top - 0.02):
        objs = {w for a in pool[i].args for w in _words(a.name)}
        step_verb = " ".join(w for w in _words(phrases[i]) if w not in objs)
        task_verb = " ".join(w for w in _words(task) if w not in objs and w not in named_words)
        if task_verb and step_verb:
            a, b = embedder.encode([task_verb, step_verb])
            if float(np.dot(a, b)) < cfg.task_verb_similarity:
                continue
        out.add(phrases[i])
    return out


class TaskSteps:
    """The task's own steps, one group per clause of a conjunctive task
    (:func:`actionable.grounding.clauses.clauses`): "Switch on the TV and the computer" ->
    ``[{switch on television}, {switch on computer}]``; a task of one clause has one group (or
    none). A group whose effect already holds at the start counts as done (``held``).

    Args:
        groups: the phrases of each clause's task step (clauses with none left out).
        pool / phrases: the candidate steps and their phrases (the groups' steps are taken from them).
        oracle: the start state's :class:`~actionable.core.planning.Affordance` (for ``held``).
    """

    def __init__(self, groups: list[set[str]], pool: list, phrases: list[str], oracle: Affordance):
        self.groups = groups
        self.phrases = set().union(*groups) if groups else set()
        self.pools = [[st for st, p in zip(pool, phrases) if p in g] for g in groups]
        self.pool = [st for st, p in zip(pool, phrases) if p in self.phrases]
        objs = [{a.name for st in gp for a in st.args[:1]} for gp in self.pools]
        # clauses on one object ("open the fridge ... close the fridge") are a sequence: none counts
        # as held at the start, none is protected from being undone, and they are done in order
        self.after = [[j for j in range(i) if objs[j] & objs[i]] for i in range(len(groups))]
        shared = {i for i, a in enumerate(self.after) if a} | {j for a in self.after for j in a}
        self.held = [i not in shared and bool(gp) and already_holds(oracle, gp) for i, gp in enumerate(self.pools)]
        self.protect = [st for i, gp in enumerate(self.pools) if i not in shared for st in gp]

    @property
    def already(self) -> bool:
        """Nothing to do: every clause's effect already holds."""
        return bool(self.pool) and all(self.held)

    def undone(self, done_text) -> list[int]:
        """Indices of the groups neither held nor done by a step of ``done_text`` (for clauses on
        one object: done after the earlier clauses on it)."""
        last = [max((k for k, t in enumerate(done_text) if t in g), default=-1) for g in self.groups]
        return [i for i in range(len(self.groups)) if not self.held[i]
                and (last[i] < 0 or any(last[j] >= last[i] for j in self.after[i]))]

    def done(self, done_text) -> bool:
        """Every clause's task step is done (or held)."""
        return bool(self.pool) and not self.undone(done_text)

    def undone_phrases(self, done_text) -> list[str]:
        """The phrases of the groups still to do, sorted (for the warning)."""
        return sorted(set().union(*(self.groups[i] for i in self.undone(done_text))))


def find_task_groups(embedder, cfg, pool: list, phrases: list[str], vec: np.ndarray, task: str, match,
                     oracle: Affordance) -> TaskSteps:
    """:func:`find_task_steps` for each clause of ``task`` (one clause: the task as given), as a
    :class:`TaskSteps`."""
    from actionable.grounding.clauses import clauses

    parts = clauses(task, {w for words, _, _, _ in match.matched for w in _words(words)})
    groups: list[set[str]] = []
    for part in parts if len(parts) > 1 else [task]:
        g = find_task_steps(embedder, cfg, pool, phrases, vec, part, match)
        if g and g not in groups:
            groups.append(g)
    return TaskSteps(groups, pool, phrases, oracle)


# everyday verbs -> the step vocabulary's (every world's steps say "switch on", "grab"); MiniLM
# otherwise puts "Turn on light" nearer "turn to light" than "switch on light"
_VERB_FORMS = ((re.compile(r"\bturn(s|ed|ing)? on\b"), "switch on"), (re.compile(r"\bturn(s|ed|ing)? off\b"), "switch off"),
               (re.compile(r"\bturn(?:s|ed|ing)? ((?:\w+ ){0,2}\w+) on\b"), r"switch on \1"),
               (re.compile(r"\bturn(?:s|ed|ing)? ((?:\w+ ){0,2}\w+) off\b"), r"switch off \1"),
               (re.compile(r"\bpick(s|ed|ing)? up\b"), "grab"),
               (re.compile(r"\bshut(s|ting)? (down|off)\b"), "switch off"), (re.compile(r"\bshut(s|ting)?\b"), "close"))


def _in_step_vocabulary(task: str) -> str:
    text = task.lower()
    for pat, rep in _VERB_FORMS:
        text = pat.sub(rep, text)
    return text


def already_holds(oracle: Affordance, task_pool: list) -> bool:
    """Nothing to do: no instance can do the task's step now, and on one of them its effect already
    holds. With the optional ``instances(step)`` of the affordance (VirtualHome: one resolved step a
    node of the class) every instance is tried; otherwise the class-level attempt decides."""
    per = getattr(oracle, "instances", None)
    held = False
    for st in task_pool:
        for one in (per(st) if per is not None else None) or [st]:
            try:
                att = oracle.attempt(one)
            except ResolutionError:
                continue
            if att.ok:
                return False
            held = held or bool(getattr(att, "satisfied", False))
    return held


def drop_undoing(oracle: Affordance, task_pool: list, cands: list) -> list:
    """``cands`` (objects with an ``attempt``) without those that take the object they act on out
    of the state the task's step makes (the task's step on that instance is ``satisfied`` before
    and not after: switching on the TV that is off, for "Turn off the TV"). The "before" of each
    instance is read once."""
    before: dict = {}
    out = []
    for c in cands:
        att = c.attempt
        target = att.steps[-1].args[0] if att is not None and att.steps and att.steps[-1].args else None
        undone = False
        for st in task_pool if target is not None and target.id is not None else ():
            if len(st.args) != 1 or st.args[0].name != target.name:
                continue
            # the step's own type: a world may extend the step vocabulary (a PDDL action's name)
            mine = [dataclasses.replace(st, args=(Argument(target.name, target.id),))]
            key = (st.action, target.id)
            if key not in before:
                before[key] = _effect_holds(oracle, mine, oracle.state)
            if before[key] and not _effect_holds(oracle, mine, att.state):
                undone = True
                break
        if not undone:
            out.append(c)
    return out


def _effect_holds(oracle: Affordance, steps: list, state) -> bool:
    """Whether what one of ``steps`` would do already holds in ``state`` (its attempt fails as
    ``satisfied``: the computer is on, the window open); the oracle's state is restored."""
    keep = oracle.state
    oracle.state = state
    try:
        for st in steps:
            try:
                if getattr(oracle.attempt(st), "satisfied", False):
                    return True
            except ResolutionError:
                continue
        return False
    finally:
        oracle.state = keep


__all__ = ["find_task_steps", "find_task_groups", "TaskSteps", "already_holds", "drop_undoing"]
