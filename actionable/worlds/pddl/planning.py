"""The ``pddl`` world's planning domain for the grounded planner (:mod:`actionable.core.planning`).

``actionable plan "Stack the blocks" --env pddl --scene blocksworld:p01`` plans here with the same
planner as VirtualHome and THOR. What the world gives it:

* **Steps**: :class:`~actionable.worlds.pddl.steps.PddlStep`, a PDDL action over the problem's
  objects (``stack a b``). A PDDL object is an individual, so the planner's object *classes* are
  the object names and binding a step is trivial (each name is its own id).
* **Candidates**: every statically possible grounded action (UP's grounder), whatever the task
  names: the planner scores them, the affordance keeps those that execute. The planner tries the
  ``GroundedConfig.max_tried`` (80) best-scored candidates a step, so in a problem with more
  grounded actions some are never tried (:meth:`PddlPlanning.goal_check` notes it).
* **Affordance**: a step is tried with UP's simulator from the plan's state (states are
  immutable: nothing to copy). **Repair** (CAPE's corrective steps, from the unmet preconditions,
  :mod:`.repair`): an achiever of the first false precondition (an action whose effects make it
  true), itself established first when it is not applicable, within ``repair_budget`` inserted
  steps. A step whose effects already hold fails as ``satisfied`` ("nothing to do").
* **Objects the task names**: object names in the task text, and every object of the problem's
  goal (the task *is* the problem's goal; a task word naming no object is not reported missing).
* **Goals**: ``goal_progress(task)`` gives the problem's goal conjuncts (met, total), so the
  planner never undoes a met conjunct and searches a few steps for progress instead of stopping
  (:mod:`actionable.planning.goalsearch`); ``goal_is_task`` ends the plan once they all hold;
  ``goal_check`` checks them on the replayed final state.
* **Example bank**: none (a user's problem has no demonstrations): ``[]``.
"""

from __future__ import annotations

from actionable.core.program import Argument
from actionable.core.errors import ResolutionError
from actionable.core.planning import Attempt, Committing
from actionable.worlds.pddl.model import objects_of
from actionable.worlds.pddl.repair import Repairer
from actionable.worlds.pddl.steps import PddlStep, split_action, split_phrase


class PddlAffordance(Committing):
    """Exact affordance and rule repair over one PDDL problem (the planner's
    :class:`~actionable.core.planning.Affordance`). Attempts never change :attr:`state`.

    Args:
        task: a :class:`~actionable.worlds.pddl.model.PddlTask`.
        repair_budget: most corrective steps inserted before one step (0: no repair).
    """

    def __init__(self, task, repair_budget: int = 3):
        self.task = task
        self.initial = task.initial
        self.state = task.initial
        self.repair_budget = max(0, int(repair_budget))
        self.memory: dict[str, str] = {}
        self.seen: set = {self.fingerprint(self.state)}
        self._attempts: dict = {}     # (state key, step, repair) -> Attempt: the goal search asks again
        self.repairer = Repairer(task)

    # --- scene queries ---
    def fingerprint(self, state) -> int:
        return hash(self.task.key(state))

    def class_names(self) -> list[str]:
        return sorted(self.task.objects)

    def equivalents(self, name: str):
        return (name,)

    def step_classes(self, text: str) -> list[str]:
        parts = split_action(text) or split_phrase(text, list(self.task.schemas))
        if parts is None:
            raise ResolutionError(f"{text!r} is not an action of domain {self.task.domain_name!r}")
        return [a for a in parts[1] if a in self.task.objects]

    def match_objects(self, task: str, embedder):
        """Objects named in the task text (their names, hyphens as spaces: ``kitchen light``), then
        the objects of the problem's goal not named (``how="goal"``)."""
        from actionable.grounding.objects import match_task_objects, words

        names = self.class_names()
        spaced = {n: (n.replace("-", " "),) for n in names if "-" in n}
        vocab = {" ".join(words(n)) for n in names} | {" ".join(words(t)) for t in self.task.objects.values()}
        match = match_task_objects(task, names, embedder, equivalence=spaced, vocabulary=vocab)
        self._check_task_names_domain(task)
        # the problem's goal, not the text, is the task: a word naming no object is just a word
        match.missing, match.unknown = [], set()
        have = set(match.classes)
        for g in self.task.goals:
            for obj in objects_of(g):
                if obj in self.task.objects and obj not in have:
                    match.matched.append((obj, obj, "goal", 1.0))
                    have.add(obj)
        return match

    def _check_task_names_domain(self, task: str) -> None:
        """Refuse a task that does not state the problem's goal, by the rule of the ``goals``
        capability (:meth:`~actionable.worlds.pddl.goals.PddlGoals.read`): every object of every
        goal conjunct named, a conjunct's objects in order, or the goal asked for as such ("reach
        the goal"); a text that names nothing of the domain ("Turn on the TV") is refused too. The
        problem's ``:goal`` is what gets planned and checked, and a "Done" on it would otherwise not
        be the task.

        Raises:
            GoalReadingError: the reader's refusal, word for word, ``status == "refuse"`` (the same
                as ``--variant goal``'s).
        """
        from actionable.core.errors import GoalReadingError
        from actionable.worlds.pddl.goals import PddlGoals

        reading = PddlGoals(self.task).read(task)
        if reading.status == "refuse":
            raise GoalReadingError(reading.why)  # status "refuse": the error's default

    def candidates(self, classes) -> list[PddlStep]:
        """Every statically possible grounded action as a class-level step (module doc); those over
        ``classes`` only come first (the planner sorts by its score anyway)."""
        want = set(classes)
        steps = [PddlStep(n, tuple(Argument(a) for a in args)) for n, args in self.task.actions]
        return sorted(steps, key=lambda s: not any(a.name in want for a in s.args))

    # --- affordance ---
    def _resolve(self, step: PddlStep) -> PddlStep:
        if not isinstance(step, PddlStep):
            raise ResolutionError(f"{step.to_text()!r} is not an action of domain {self.task.domain_name!r}")
        bad = [a.name for a in step.args if a.name not in self.task.objects]
        if bad or step.action not in self.task.schemas:
            what = f"object {bad[0]!r}" if bad else f"action {step.action!r}"
            raise ResolutionError(f"no {what} in PDDL problem {self.task.problem_name!r}")
        return step.resolved()

    @staticmethod
    def _key(step: PddlStep) -> tuple[str, tuple[str, ...]]:
        return step.action, tuple(a.name for a in step.args)

    def run(self, step: PddlStep, state):
        """``(ok, new state or None, unmet preconditions as text)`` of a resolved step."""
        name, args = self._key(step)
        if self.task.applicable(state, name, args):
            return True, self.task.apply(state, name, args), []
        return False, None, self.task.unmet_text(state, name, args)

    def attempt(self, step: PddlStep, repair: bool = True) -> Attempt:
        """Try ``step`` from :attr:`state` (unchanged); the algorithm of the module doc.

        Raises:
            ResolutionError: the step names an action or object the problem lacks.
        """
        b = self._resolve(step)
        ck = (self.task.key(self.state), b, bool(repair))
        if ck not in self._attempts:
            if len(self._attempts) > 200_000:
                self._attempts.clear()
            att = self._attempt(b, repair)
            att.step = step
            self._attempts[ck] = att
        a = self._attempts[ck]
        return Attempt(step, a.ok, list(a.steps), list(a.repaired), a.info, a.state, a.fingerprint, list(a.path),
                       a.satisfied)

    def _attempt(self, b: PddlStep, repair: bool) -> Attempt:
        t, s = self.task, self.state
        name, args = self._key(b)
        if t.applicable(s, name, args):
            new = t.apply(s, name, args)
            fp = self.fingerprint(new)
            return Attempt(b, True, [b], [False], None, new, fp, [fp])
        if t.grounded_action(name, args) is not None and t.effects_hold(s, name, args):
            return Attempt(b, False, [b], [False], {"unmet_preconditions": t.unmet_text(s, name, args)},
                           satisfied=True)
        if repair and self.repair_budget > 0 and t.grounded_action(name, args) is not None:
            fix = self.repairer.establish((name, args), s, self.repair_budget)
            if fix is not None:
                chain, s2 = fix
                states, x = [], s
                for key in chain:
                    x = t.apply(x, *key)
                    states.append(x)
                new = t.apply(s2, name, args)
                fp = self.fingerprint(new)
                return Attempt(b, True, [PddlStep.of(k[0], *k[1]) for k in chain] + [b],
                               [True] * len(chain) + [False], None, new, fp,
                               [self.fingerprint(y) for y in states] + [fp])
        return Attempt(b, False, [b], [False], {"unmet_preconditions": t.unmet_text(s, name, args)})

    def execute(self, resolved_steps) -> tuple[dict, object]:
        """Replay from the initial state: ``(executability dict, final state)``."""
        s = self.initial
        steps = list(resolved_steps)
        for i, st in enumerate(steps):
            try:
                b = self._resolve(st)
            except ResolutionError as exc:
                return self._failed(i, st, [str(exc)], s)
            ok, new, unmet = self.run(b, s)
            if not ok:
                return self._failed(i, st, unmet, s)
            s = new
        return ({"executable": True, "failed_index": None, "failed_step": None, "error_type": None, "error": None,
                 "unmet_preconditions": [], "steps_executed": len(steps)}, s)

    @staticmethod
    def _failed(i: int, st, unmet: list[str], s):
        return ({"executable": False, "failed_index": i, "failed_step": st.to_script(), "error_type": "precondition",
                 "unmet_preconditions": unmet, "steps_executed": i,
                 "error": f"{st.to_script()} is not executable: unmet {', '.join(unmet)}"}, s)


class PddlPlanning:
    """A PDDL problem as a planning domain (:class:`~actionable.core.planning.PlanningDomain`).

    Args:
        scene: a scene name (:mod:`.scenes`: ``blocksworld:p01``, ``dom.pddl::prob.pddl``;
            ``"default"``: blocksworld:p01).

    Raises:
        UnknownSceneError, PddlFileError, PddlSyntaxError, PddlMismatchError, PddlUnsupportedError.
    """

    world = "pddl"
    #: the problem's goal is the whole task: the planner stops as soon as it holds
    goal_is_task = True
    executes_in = "unified-planning's sequential simulator (PDDL)"
    #: no whole-scene admissible-action index: the paper's variants do not plan here

    def __init__(self, scene: str | None = None):
        from actionable.worlds.pddl.model import load_task

        self.task = load_task(scene)
        self.name = self.task.name
        self.classes_hint = f"run 'actionable scenes --env pddl {self.name} --classes'"

    def start(self, repair_budget: int = 3) -> PddlAffordance:
        return PddlAffordance(self.task, repair_budget=repair_budget)

    def example_bank(self) -> list:
        """No demonstrations: an empty bank (the planner makes it an empty ``ExampleBank``)."""
        return []

    def task_text(self) -> str:
        """A task line for the problem (``Reach the goal of sussman: (on a b) (on b c)``)."""
        from actionable.worlds.pddl.model import goal_task_text

        return goal_task_text(self.task)

    @staticmethod
    def world_text(step) -> str:
        """A resolved step in PDDL plan syntax (``(stack a b)``), as ``verify --env pddl`` reads it."""
        return step.to_script()

    def goal_progress(self, task: str):
        """``state -> (goal conjuncts met, total)``: the problem's goal, for any task text."""
        t = self.task
        return lambda state: (sum(t.goal_status(state)), len(t.goals))

    def goal_check(self, result, session=None) -> dict:
        """The problem's goal conjuncts on the plan's final state (replayed); task success needs an
        executable plan."""
        t = self.task
        state = result.final_state if result.final_state is not None else t.initial
        status = t.goal_status(state)
        ok = bool((result.executability or {}).get("executable"))
        out = {"checked": True, "met": sum(status), "total": len(status),
               "unmet": [g for g, s in zip(t.goal_texts, status) if not s], "task_success": bool(all(status) and ok),
               "program_id": f"the goal of PDDL problem {t.problem_name}", "task": result.task,
               "origin": f"from the goal of PDDL problem {t.problem_name!r} ({t.name})"}
        tried = (result.config or {}).get("max_tried")
        if tried is not None and len(t.actions) > tried:
            out["note"] = (f"the problem has {len(t.actions)} grounded actions; the planner tried the {tried} "
                           f"best-scored each step (max_tried)")
        return out


__all__ = ["PddlPlanning", "PddlAffordance"]
