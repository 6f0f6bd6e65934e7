"""The ``pddl`` world's adapter of the world judge (:mod:`actionable.verify.worldsim`).

``actionable verify plan.txt --env pddl --scene blocksworld:p01 --judge sim`` replays a plan of
PDDL actions (one a line: ``(unstack c a)``, ``unstack(c, a)``, ``0: (unstack c a) [1]``; ``;``
comments; any output of ``actionable plan --env pddl``) from the problem's initial state with
unified-planning's simulator, and proposes the minimal edits of the judge (arXiv 2509.02761's
``#REMOVE`` / ``#MISSING``, the cost model of :mod:`actionable.verify.grounded`):

* a failing step's **missing preconditions**: the corrective steps of the planner's repair
  (:mod:`.repair`: an achiever of the first false precondition, itself established first), or one
  applicable action after which fewer of its preconditions are false;
* a failing step whose effects **already hold** (``switch-on`` of a lit light) is redundant;
* **undo pairs**: a later step that exactly undoes an earlier one (their plain effects are opposite:
  ``pick-up a`` / ``put-down a``, ``go k h`` / ``go h k``), removed when the plan without both
  still executes, meets as many goal conjuncts and ends in the same state;
* any single step whose removal leaves the same final state (and goals) is redundant.

Goals: the problem's goal conjuncts, for any goal text (:meth:`PddlWorld.goals`).
"""

from __future__ import annotations

from typing import Sequence

from actionable.core.errors import ProgramParseError, UnknownObjectError, WorldActionError
from actionable.core.replay import WorldReplay
from actionable.worlds.pddl.repair import Repairer
from actionable.worlds.pddl.steps import PddlStep

__all__ = ["PddlAdapter"]


class PddlAdapter:
    """Plans of PDDL steps in one problem (see the module doc).

    Args:
        scene: a pddl scene name (``blocksworld:p01``, ``dom.pddl::prob.pddl``).
        task: unused (a PDDL problem has one goal); kept for the adapter factory's signature.

    Raises:
        UnknownSceneError, PddlFileError, PddlSyntaxError, PddlMismatchError, PddlUnsupportedError.
    """

    def __init__(self, scene: str, task: str | None = None):
        from actionable.worlds import make

        self.world = make("pddl", scene=scene)
        self.world.reset()
        self.task = self.world.task
        self.scene = self.task.name
        self.repairer = Repairer(self.task)

    @property
    def default_goal(self) -> str:
        """The goal text when none is given: the problem's goal (``(on a b) (on b c)``)."""
        return f"the goal of PDDL problem {self.task.problem_name}: " + " ".join(self.task.goal_texts)

    # --- language ---
    def format_step(self, step) -> str:
        """PDDL plan syntax: ``(stack a b)``."""
        return "(" + " ".join([step.action.lower(), *(a.name for a in step.args)]) + ")"

    def parse_line(self, text: str, held: str | None = None) -> PddlStep | None:
        """A plan line -> :class:`PddlStep` (resolved); ``None`` for a ``;`` comment.

        Raises:
            ProgramParseError (a :class:`WorldActionError`): not an action of the domain, or an
            object the problem lacks."""
        t = text.strip()
        if not t or t.startswith(";"):
            return None
        t = t.split(";", 1)[0].strip()
        try:
            act = self.world.parse(t)
        except UnknownObjectError as exc:
            raise WorldActionError(str(exc), line=text) from None
        return PddlStep.of(act.name, *act.args)

    @staticmethod
    def step_from_dict(rec: dict) -> PddlStep:
        """A step record of ``plan --json`` (``{"action": "stack", "args": [["a", "a"], ...]}``)."""
        return PddlStep.from_dict(rec)

    # --- replay ---
    def _key(self, step) -> tuple[str, tuple[str, ...]] | None:
        name = step.action.lower()
        args = tuple((a.id if isinstance(a.id, str) else a.name).lower() for a in step.args)
        t = self.task
        if name not in t.schemas or len(args) != len(t.schemas[name]) or any(a not in t.objects for a in args):
            return None
        return name, args

    def _states(self, steps: Sequence) -> tuple[list, int | None, list[str], str | None]:
        """States before each step and after the last executed one, the failing index, its unmet
        preconditions and error."""
        s = self.task.initial
        states = [s]
        for k, st in enumerate(steps):
            key = self._key(st)
            if key is None:
                return states, k, [f"{self.format_step(st)} is no action of domain {self.task.domain_name}"], \
                    f"{self.format_step(st)} is not an action of this problem"
            if not self.task.applicable(s, *key):
                unmet = self.task.unmet_text(s, *key)
                return states, k, unmet, f"{self.format_step(st)} is not executable: unmet {', '.join(unmet)}"
            s = self.task.apply(s, *key)
            states.append(s)
        return states, None, [], None

    def replay(self, steps: Sequence, goals: Sequence = (), tries: int = 4,
               bind: Sequence | None = None) -> WorldReplay:
        """Run ``steps`` from the initial state, stopping at the first failure (``bind`` and
        ``tries`` change nothing: a PDDL object is its own instance)."""
        states, k, unmet, err = self._states(steps)
        s = states[-1]
        n = len(states) - 1
        outcome = {a: True for a in self.task.atoms(s)}
        met = sum(1 for g in goals if g.test(s))
        bound = [self.format_step(st) for st in steps[:n]]
        return WorldReplay(k is None, k, err, unmet, outcome, met, len(goals), bound, None,
                           [tuple(a.name for a in st.args) for st in steps[:n]])

    def goals(self, goal_text: str, task: str | None = None) -> tuple[list, str]:
        gs = self.world.goals(goal_text)
        return gs, f"goal conditions checked ({len(gs)}, the goal of PDDL problem {self.task.problem_name}): " + \
            "; ".join(g.text for g in gs)

    def type_name(self, oid) -> str:
        return self.task.objects.get(str(oid), str(oid))

    # --- judge hooks ---
    def fixes(self, steps: Sequence, k: int, rep: WorldReplay) -> list[tuple[int, list, str]]:
        """Insertions before the failing ``steps[k]``: the corrective chain of :mod:`.repair` (an
        achiever of its first false precondition, established first when needed; at most 3
        steps), then single applicable actions after which fewer of its preconditions are false."""
        key = self._key(steps[k])
        if key is None or self.task.grounded_action(*key) is None:
            return []
        s = self._states(steps[:k])[0][-1]
        why = f"{self.format_step(steps[k])} needs {', '.join(rep.unmet) or 'its preconditions'}"
        out: list[tuple[int, list, str]] = []
        fix = self.repairer.establish(key, s, 3)
        if fix is not None and fix[0]:
            out.append((k, [PddlStep.of(a[0], *a[1]) for a in fix[0]], why))
        n = len(self.task.unmet(s, *key))
        scored = sorted((len(self.task.unmet(self.task.apply(s, *a), *key)), i, a)
                        for i, a in enumerate(self.repairer.applicable(s)) if a != key)
        for m, _, a in scored:
            if m < n and len(out) < 3 and not any(len(f[1]) == 1 and self._key(f[1][0]) == a for f in out):
                out.append((k, [PddlStep.of(a[0], *a[1])], why))
        return out

    def already(self, step, rep: WorldReplay) -> str | None:
        """A reason when the failing ``step``'s effects already hold in the state it fails in (the
        state after ``rep.bound``, the steps that executed)."""
        key = self._key(step)
        if key is None or rep.failed_index is None or self.task.grounded_action(*key) is None:
            return None
        prefix = [PddlStep.of(*b.strip("()").split()) for b in rep.bound]
        s = self._states(prefix)[0][-1]
        return f"what {self.format_step(step)} does already holds" if self.task.effects_hold(s, *key) else None

    def undoes(self, later, earlier) -> bool:
        """``later`` exactly undoes ``earlier`` (opposite plain effects on the same atoms)."""
        a, b = self._key(earlier), self._key(later)
        return a is not None and b is not None and self.task.inverse(b, a)
