"""A PDDL domain + problem, parsed and executed by ``unified-planning`` (UP 1.3.0).

:class:`PddlTask` reads the two files, checks them (bad input gets a typed error naming the file
and the line: :mod:`.checks`), parses them with UP's ``PDDLReader``, grounds the problem with UP's
own grounder (``up_grounder``: statically impossible actions, such as ``go`` between places that
are not connected, are dropped) and runs it with UP's ``SequentialSimulator`` on the grounded
problem (``is_applicable`` / ``apply`` / ``get_unsatisfied_conditions``). Nothing here
re-implements PDDL semantics; :meth:`PddlTask.effects_hold` and :meth:`PddlTask.inverse` only
*read* the grounded actions' effects (the "nothing to do" test and undo pairs).

Speed (``benchmarks/bench_pddl.py``): quantified conditions are expanded first (UP's
``QuantifiersRemover``), then grounded: in the household problems ``is_applicable`` takes 0.03 ms
and ``get_unsatisfied_conditions`` 0.18 ms on that problem, against 0.27 / 1.1 ms grounded without
the expansion and 0.35-0.55 ms ``is_applicable`` on the lifted problem.

UP keeps its expressions in one process-wide environment: a private ``Environment`` breaks its
grounder in 1.3.0 (``AssertionError: Expression has a different environment``), so UP's global
one is used; nothing of ours is stored in it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Iterable

from actionable.core.errors import BackendUnavailableError, PddlUnsupportedError
from actionable.worlds.pddl import checks


def _up():
    """Import unified-planning (lazily: it is a heavy library) or say how to install it."""
    try:
        import unified_planning  # noqa: F401
        from unified_planning.io import PDDLReader  # noqa: F401
    except ImportError:
        raise BackendUnavailableError(
            "the pddl world needs unified-planning: pip install unified-planning==1.3.0") from None
    import unified_planning

    return unified_planning


def pddl_text(node) -> str:
    """A UP expression as PDDL text: ``(on a b)``, ``(not (lit kitchen-light))``,
    ``(exists (?p - place) (and (agent-at ?p) (switch-at kitchen-light ?p)))``."""
    n = node
    if n.is_fluent_exp():
        return "(" + " ".join([n.fluent().name, *map(pddl_text, n.args)]) + ")"
    if n.is_object_exp():
        return n.object().name
    if n.is_parameter_exp():
        return "?" + n.parameter().name
    if n.is_variable_exp():
        return "?" + n.variable().name
    if n.is_bool_constant():
        return "true" if n.bool_constant_value() else "false"
    if n.is_int_constant() or n.is_real_constant():
        return str(n.constant_value())
    ops = {"is_not": "not", "is_and": "and", "is_or": "or", "is_implies": "imply", "is_equals": "=",
           "is_le": "<=", "is_lt": "<", "is_plus": "+", "is_minus": "-", "is_times": "*", "is_div": "/"}
    for test, op in ops.items():
        if getattr(n, test)():
            return "(" + " ".join([op, *map(pddl_text, n.args)]) + ")"
    if n.is_exists() or n.is_forall():
        vs = " ".join(f"?{v.name} - {v.type}" for v in n.variables())
        return f"({'exists' if n.is_exists() else 'forall'} ({vs}) {pddl_text(n.args[0])})"
    return str(n)


#: UP problem-kind features of quantified conditions and effects (expanded before grounding)
_QUANTIFIED = frozenset({"EXISTENTIAL_CONDITIONS", "UNIVERSAL_CONDITIONS", "FORALL_EFFECTS"})


def _product_size(pools) -> int:
    n = 1
    for p in pools:
        n *= len(p)
    return n


def objects_of(node) -> list[str]:
    """Object names in a UP expression, in order (``(on a b)`` -> ``["a", "b"]``)."""
    if node.is_object_exp():
        return [node.object().name]
    return [o for a in node.args for o in objects_of(a)]


def conjuncts(node) -> list:
    """The top-level conjuncts of an expression (``(and x (and y z))`` -> ``[x, y, z]``)."""
    if node.is_and():
        return [c for a in node.args for c in conjuncts(a)]
    return [node]


class PddlState:
    """A state of a PDDL problem: unified-planning's state (``up``, immutable) and the values of the
    fluents actions can change (``values``; :attr:`key` is their tuple in the problem's fixed order,
    hashable and canonical). Built by :class:`PddlTask` only."""

    __slots__ = ("up", "values", "_key", "__weakref__")

    def __init__(self, up_state, values: dict, order):
        self.up, self.values = up_state, values
        self._key = tuple(values[fe] for fe in order)

    @property
    def key(self) -> tuple:
        return self._key

    def __eq__(self, other) -> bool:
        return isinstance(other, PddlState) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)


class PddlTask:
    """One domain + problem, parsed, grounded and ready to run (module doc).

    Args:
        domain_path / problem_path: the PDDL files.
        name: the scene name it is known by (``blocksworld:p01``, ``dom.pddl::prob.pddl``).

    Attributes:
        domain_name / problem_name: the names the files declare. requirements: the domain's.
        objects: ``{object: type}``. schemas: ``{action: ((parameter, type), ...)}``, domain order.
        actions: every statically possible grounded action ``(name, args)``, in a fixed order.
        goals: the problem's goal conjuncts (UP expressions); goal_texts: their PDDL text.
        initial: the initial :class:`PddlState` (states are immutable; ``apply`` returns a new one).

    Raises:
        PddlFileError / PddlSyntaxError / PddlMismatchError / PddlUnsupportedError (see :mod:`.checks`);
        BackendUnavailableError: unified-planning is not installed.
    """

    def __init__(self, domain_path: str | Path, problem_path: str | Path, name: str | None = None):
        up = _up()
        from unified_planning.engines import CompilationKind
        from unified_planning.engines.compilers import Grounder
        from unified_planning.engines.sequential_simulator import UPSequentialSimulator
        from unified_planning.io import PDDLReader
        from unified_planning.model.walkers import StateEvaluator
        from unified_planning.plans import ActionInstance

        self.domain_path, self.problem_path = str(domain_path), str(problem_path)
        self.name = name or f"{domain_path}::{problem_path}"
        dtext = checks.read_pddl(self.domain_path, "domain")
        ptext = checks.read_pddl(self.problem_path, "problem")
        self.domain_name, self.requirements = checks.check_domain_text(dtext, self.domain_path)
        self.problem_name = checks.check_problem_text(ptext, self.problem_path, self.domain_name, self.domain_path)
        try:
            PDDLReader().parse_problem_string(dtext)  # the domain alone: its errors name the domain file
        except Exception as exc:  # noqa: BLE001 - UP raises pyparsing, SyntaxError, KeyError, UP*Error
            raise checks.from_up_error(exc, self.domain_path, dtext, "domain") from None
        try:
            self.lifted = PDDLReader().parse_problem_string(dtext, ptext)
        except Exception as exc:  # noqa: BLE001
            raise checks.from_up_error(exc, self.problem_path, ptext, "problem", dtext) from None
        kind = self.lifted.kind
        if not UPSequentialSimulator.supports(kind):
            sup = UPSequentialSimulator.supported_kind()
            missing = sorted(set(kind.features) - set(sup.features))
            if "UNDEFINED_INITIAL_NUMERIC" in missing:  # a problem defect, not a missing feature
                raise checks.undefined_numeric(self.lifted, self.problem_path, ptext)
            raise PddlUnsupportedError(
                f"{self.domain_path}: unified-planning's sequential simulator cannot run this problem: it needs "
                f"{', '.join(missing) or 'features'} ({checks.requirements_for(missing)}); drop them from the domain",
                path=self.domain_path)
        # quantifiers expanded over the objects first, so grounding turns "a lit light in this room"
        # into (lit kitchen-light): 6x faster get_unsatisfied_conditions, 9x faster is_applicable
        chain = []
        problem = self.lifted
        if set(kind.features) & _QUANTIFIED:
            from unified_planning.engines.compilers import QuantifiersRemover

            q = QuantifiersRemover().compile(problem, CompilationKind.QUANTIFIERS_REMOVING)
            chain.append(q)
            problem = q.problem
        res = Grounder().compile(problem, CompilationKind.GROUNDING)
        chain.insert(0, res)
        self.grounded = res.problem
        self.sim = UPSequentialSimulator(self.grounded, error_on_failed_checks=False)
        self.evaluator = StateEvaluator(self.grounded)
        self._ai = ActionInstance
        self.objects = {o.name: o.type.name for o in self.lifted.all_objects}
        self.types = {t.name: (t.father.name if t.father is not None else None) for t in self.lifted.user_types}
        self.schemas = {a.name: tuple((p.name, p.type.name) for p in a.parameters) for a in self.lifted.actions}
        self._ground: dict[tuple[str, tuple[str, ...]], Any] = {}
        for ga in self.grounded.actions:
            ai = ActionInstance(ga)
            for r in chain:
                ai = r.map_back_action_instance(ai)
            self._ground[(ai.action.name, tuple(p.object().name for p in ai.actual_parameters))] = ga
        order = {a: i for i, a in enumerate(self.schemas)}
        self.actions = sorted(self._ground, key=lambda k: (order[k[0]], k[1]))
        changed = {e.fluent.fluent().name for a in self.lifted.actions for e in a.effects}
        self.static = frozenset(f.name for f in self.lifted.fluents) - changed
        self._dynamic = sorted((fe for fe in self.grounded.initial_values if fe.fluent().name in changed), key=str)
        self.goals = [c for g in self.lifted.goals for c in conjuncts(g)]
        self.goal_texts = [pddl_text(g) for g in self.goals]
        up0 = self.sim.get_initial_state()
        self.initial = PddlState(up0, {fe: up0.get_value(fe) for fe in self._dynamic}, self._dynamic)
        # per grounded action: the changeable fluents its effects assign (read back after apply)
        dyn = set(self._dynamic)
        self._touches = {k: ([e.fluent for e in ga.effects if e.fluent in dyn]
                             if not any(e.is_forall() or e.fluent not in dyn and e.fluent.fluent().name not in self.static
                                        for e in ga.effects)
                             else list(self._dynamic))  # a quantified effect: read every value back
                         for k, ga in self._ground.items()}
        self._unmet_cache: dict = {}
        self._lifted_sim = None
        self._up = up

    # --- states ---
    def key(self, state: PddlState) -> tuple:
        """Hashable, canonical key of ``state``: the values of every fluent an action can change
        (static facts never do), in a fixed order."""
        return state.key

    def atoms(self, state) -> list[str]:
        """The state as PDDL text: the true changeable atoms (``(on a b)``) and numeric values
        (``(= (level) 1)``), sorted; static facts left out."""
        out = []
        for fe in self._dynamic:
            v = state.values[fe]
            if v.is_bool_constant():
                if v.bool_constant_value():
                    out.append(pddl_text(fe))
            else:
                out.append(f"(= {pddl_text(fe)} {pddl_text(v)})")
        return sorted(out)

    def holds(self, expr, state) -> bool:
        """Whether the expression (a goal conjunct, a condition) is true in ``state``."""
        return bool(self.evaluator.evaluate(expr, state.up).bool_constant_value())

    def goal_status(self, state) -> list[bool]:
        """Per goal conjunct, whether it holds in ``state``."""
        return [self.holds(g, state) for g in self.goals]

    # --- actions ---
    def grounded_action(self, name: str, args: tuple[str, ...]):
        """UP's grounded action for ``(name, args)``, or ``None`` when it is statically impossible
        (a static precondition never holds in this problem)."""
        return self._ground.get((name, tuple(args)))

    def applicable(self, state, name: str, args: tuple[str, ...]) -> bool:
        ga = self.grounded_action(name, args)
        return ga is not None and self.sim.is_applicable(state.up, ga, ())

    def apply(self, state: PddlState, name: str, args: tuple[str, ...]) -> PddlState:
        """The state after the action (it must be applicable): UP's ``apply``; the changed values are
        read back from UP's new state for the fluents the action's effects assign."""
        key = (name, tuple(args))
        new = self.sim.apply_unsafe(state.up, self._ground[key], ())
        values = dict(state.values)
        for fe in self._touches[key]:
            values[fe] = new.get_value(fe)
        return PddlState(new, values, self._dynamic)

    def unmet(self, state, name: str, args: tuple[str, ...]) -> list:
        """The action's false preconditions in ``state`` (UP expressions; ``[]`` when applicable).
        For a statically impossible action: its static preconditions that never hold."""
        ga = self.grounded_action(name, args)
        if ga is not None:
            ck = (state.key, name, args)
            if ck not in self._unmet_cache:
                if len(self._unmet_cache) > 300_000:
                    self._unmet_cache.clear()
                self._unmet_cache[ck] = tuple(self.sim.get_unsatisfied_conditions(state.up, ga, ())[0])
            return list(self._unmet_cache[ck])
        return self._static_unmet(name, args)

    def unmet_text(self, state, name: str, args: tuple[str, ...]) -> list[str]:
        """:meth:`unmet` as readable PDDL text (static facts marked ``never true here``)."""
        if self.grounded_action(name, args) is None:
            return [f"{pddl_text(c)} (a static fact: never true in this problem)"
                    for c in self._static_unmet(name, args)] or ["statically impossible in this problem"]
        return [self.explain(c, state) for c in self.unmet(state, name, args)]

    def explain(self, cond, state) -> str:
        """A false condition as PDDL text, a quantified one instantiated over the problem's objects
        with static facts applied: ``(exists (?r - room ?l - light) (and (place-in counter ?r)
        (light-in ?l ?r) (lit ?l)))`` -> ``(lit kitchen-light)``; a ``forall`` -> its false instances."""
        if not (cond.is_exists() or cond.is_forall()):
            return pddl_text(cond)
        em = self.lifted.environment.expression_manager
        pools = [[o for o in self.lifted.all_objects if v.type.is_compatible(o.type)] for v in cond.variables()]
        if any(not p for p in pools) or _product_size(pools) > 2000:
            return pddl_text(cond)
        parts = []
        for combo in itertools.product(*pools):
            body = cond.args[0].substitute({em.VariableExp(v): em.ObjectExp(o) for v, o in zip(cond.variables(), combo)})
            body = self._static_simplify(body)
            if body.is_bool_constant():
                if body.bool_constant_value() == cond.is_forall():
                    continue  # a static truth (forall) or falsehood (exists) says nothing
                if cond.is_forall():
                    return pddl_text(cond)
            if cond.is_forall() and self.holds(body, state):
                continue
            parts.append(pddl_text(body))
        if not parts:
            return pddl_text(cond)
        parts = list(dict.fromkeys(parts))
        op = "and" if cond.is_forall() else "or"
        return parts[0] if len(parts) == 1 else f"({op} {' '.join(parts)})"

    def _static_simplify(self, node):
        fve = self.lifted.environment.free_vars_extractor
        em = self.lifted.environment.expression_manager
        subst = {fe: em.Bool(bool(self.lifted.initial_value(fe).bool_constant_value()))
                 for fe in fve.get(node) if fe.fluent().name in self.static and fe.type.is_bool_type()}
        return node.substitute(subst).simplify() if subst else node.simplify()

    def _static_unmet(self, name: str, args: tuple[str, ...]) -> list:
        """The preconditions of a statically impossible grounding that are false in the initial
        state and mention static facts only (so never hold)."""
        from unified_planning.model.walkers import StateEvaluator
        from unified_planning.engines.sequential_simulator import UPSequentialSimulator

        if self._lifted_sim is None:
            self._lifted_sim = (UPSequentialSimulator(self.lifted, error_on_failed_checks=False), StateEvaluator(self.lifted))
        sim, ev = self._lifted_sim
        em = self.lifted.environment.expression_manager
        fve = self.lifted.environment.free_vars_extractor
        a = self.lifted.action(name)
        subst = {em.ParameterExp(p): em.ObjectExp(self.lifted.object(x)) for p, x in zip(a.parameters, args)}
        s0 = sim.get_initial_state()
        out = []
        for pre in a.preconditions:
            for c in conjuncts(pre.substitute(subst)):
                if all(f.fluent().name in self.static for f in fve.get(c)) and \
                        not ev.evaluate(c, s0).bool_constant_value():
                    out.append(c)
        return out

    def applicable_actions(self, state) -> list[tuple[str, tuple[str, ...]]]:
        """Every grounded action applicable in ``state``, in :attr:`actions` order."""
        return [k for k in self.actions if self.sim.is_applicable(state.up, self._ground[k], ())]

    def plain_effects(self, name: str, args) -> list[tuple[Any, Any]] | None:
        """``[(atom, value)]`` of an action with only plain true/false effects, else None
        (conditional, quantified or numeric effects, or a statically impossible action)."""
        ga = self.grounded_action(name, args)
        if ga is None:
            return None
        out = []
        for e in ga.effects:
            if e.is_conditional() or e.is_forall() or not e.is_assignment() or not e.value.is_bool_constant():
                return None  # conditional, quantified or numeric: not read here
            out.append((e.fluent, e.value.bool_constant_value()))
        return out

    def effects_hold(self, state, name: str, args: tuple[str, ...]) -> bool:
        """What the action does already holds in ``state``: it has only plain true/false effects
        and each one's atom already has that value (``switch-on`` of a lit light). ``False`` for
        an action with conditional, quantified or numeric effects."""
        eff = self.plain_effects(name, args)
        return bool(eff) and all(state.values.get(f, self.grounded.initial_value(f)).bool_constant_value() == v
                                 for f, v in eff)

    def inverse(self, later: tuple[str, tuple], earlier: tuple[str, tuple]) -> bool:
        """``later`` exactly undoes ``earlier``: both have only plain true/false effects, on the same
        atoms, with opposite values (``put-down a`` after ``pick-up a``, ``go k h`` after ``go h k``)."""
        a, b = self.plain_effects(*earlier), self.plain_effects(*later)
        if not a or not b:
            return False
        da, db = dict(a), dict(b)
        return da.keys() == db.keys() and all(da[k] != db[k] for k in da)

    def all_groundings(self) -> Iterable[tuple[str, tuple[str, ...]]]:
        """Every type-correct grounding of every action (statically impossible ones included)."""
        by_type: dict[str, list[str]] = {}
        for o in sorted(self.objects):
            for t in self.type_chain(self.objects[o]):
                by_type.setdefault(t, []).append(o)
        for name, params in self.schemas.items():
            pools = [by_type.get(t, []) for _, t in params]
            for combo in itertools.product(*pools):
                yield name, combo

    def type_chain(self, t: str) -> list[str]:
        """``t`` and its ancestors (``surface`` -> ``[surface, place, object]``)."""
        out = []
        while t is not None and t not in out:
            out.append(t)
            t = self.types.get(t)
        if "object" not in out:
            out.append("object")
        return out

    def is_a(self, obj: str, t: str) -> bool:
        """Whether object ``obj`` is of type ``t`` (or a subtype)."""
        return t in self.type_chain(self.objects[obj])

    def describe(self) -> dict:
        """Counts for ``actionable scenes --env pddl <scene>``."""
        return {"source": f"PDDL domain {self.domain_name!r} and problem {self.problem_name!r}",
                "domain": self.domain_name, "problem": self.problem_name, "requirements": list(self.requirements),
                "objects": len(self.objects), "types": len(set(self.objects.values())),
                "type_names": sorted(set(self.objects.values())),
                "actions": list(self.schemas), "grounded_actions": len(self.actions), "goal": list(self.goal_texts),
                "files": [self.domain_path, self.problem_path]}


def load_task(scene: str | None) -> PddlTask:
    """The :class:`PddlTask` of a scene name (:mod:`.scenes`), parsed and grounded (0.1-0.7 s).
    Raises the errors of :func:`.scenes.resolve` and of :class:`PddlTask`."""
    from actionable.worlds.pddl.scenes import resolve

    ref = resolve(scene)
    return PddlTask(ref.domain, ref.problem, ref.name)


def goal_task_text(task: PddlTask) -> str:
    """``Reach the goal of <problem>: (on a b) (on b c)`` (cut to fit a task line)."""
    head = f"Reach the goal of {task.problem_name}: "
    body = " ".join(task.goal_texts)
    return head + (body if len(head) + len(body) <= 400 else body[: 396 - len(head)] + " ...")


__all__ = ["PddlTask", "PddlState", "pddl_text", "conjuncts", "load_task", "goal_task_text"]
