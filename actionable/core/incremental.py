"""Incremental plan replay: prefix caching and state convergence (issue 26, "long plans").

A judge replays many plans that differ from one another in a few steps: the plan without step
``j``, the plan with a step inserted at ``p``. Replaying each from the initial state costs
``O(len(plan))`` simulator steps a candidate edit, so judging a plan grows with the square of its
length (the sim judge took 46 s on a 300-step plan). :class:`IncrementalReplay` keeps the state
*trajectories* of the last few replays and, for a new request,

1. starts from the state after the longest prefix the request shares with a kept trajectory
   (**prefix caching**; a request whose next step is the one that failed there from the same state
   fails the same way, without a simulator call), and
2. once it is inside the suffix it shares with that trajectory, compares its state with the
   trajectory's state at the aligned step; when they are **equal** (the whole state,
   :meth:`IncrementalWorld.same_state`) the rest of the replay is the trajectory's
   rest, taken over without running it (**convergence**).

Both shortcuts are exact for a deterministic simulator whose next state depends only on the
state and the step (VirtualHome's evolving graph: :class:`actionable.worlds.virtualhome.replay.
VirtualHomeReplay`), so a result is the one a replay from the initial state gives, step for step
(tests/verify/test_incremental.py checks this against the plain replay). A removal or insertion
whose effect is undone a few steps later (a repeat, an undo pair, a detour) costs those few steps;
a plan of ``n`` steps is judged in about ``O(n)`` simulator steps instead of ``O(n^2)``.

``until``: a caller that only needs to know whether the plan runs past step ``until`` (the repair
phase's "does the insertion let the failing step run?") stops there; the result then says
``complete=False`` and is neither executable nor failed beyond ``until``.

The world supplies four hooks (:class:`IncrementalWorld`): the initial state of a scene, one step
from a state, whether two states are equal, and a view of a state for the judge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

from actionable.core.program import Step
from actionable.core.replay import ReplayResult

#: trajectories kept per scene (the judge's current plan, its last accepted edit, a few candidates)
KEEP = 8


@runtime_checkable
class IncrementalWorld(Protocol):
    """What a scene-graph world offers for :class:`IncrementalReplay` (tokens are its states;
    a token must never change once returned: copy-on-write states)."""

    def initial_state(self, sim: Any, scene: Any) -> Any:
        """Reset ``sim`` to ``scene`` and return the initial state token."""

    def advance(self, sim: Any, state: Any, step: Step, index: int) -> tuple[Any | None, dict]:
        """Run ``step`` (``index`` in its plan) from ``state`` (``sim`` is set to it):
        ``(new_state, info)`` when it executes, ``(None, info)`` when it fails; ``info`` has
        ``error``, ``error_type`` and ``unmet`` (a list of strings)."""

    def same_state(self, a: Any, b: Any) -> bool:
        """Whether two states are the same world state (exactly: the rest of a replay from them
        is the same)."""

    def view(self, sim: Any, state: Any) -> Any:
        """The observation of ``state`` (:attr:`ReplayResult.obs`), and ``sim`` set to it."""


@dataclass
class _Trajectory:
    steps: list            # the steps requested
    states: list           # states[i]: the state before steps[i] (len = executed + 1)
    failed: int | None     # index of the failing step, None when all ran (or not run: complete False)
    info: dict = field(default_factory=dict)
    complete: bool = True  # False: stopped early (``until``), nothing known after len(states) - 1


def _common_prefix(a: list, b: list) -> int:
    """Length of the common prefix of two lists (binary search over C-level slice compares)."""
    n = min(len(a), len(b))
    if a[:n] == b[:n]:
        return n
    lo, hi = 0, n  # a[:lo] == b[:lo], a[:hi] != b[:hi]
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid
    return lo


def _common_suffix(a: list, b: list, limit: int) -> int:
    """Length (at most ``limit``) of the common suffix of two lists."""
    n = min(len(a), len(b), limit)
    if n <= 0:
        return 0
    if a[len(a) - n:] == b[len(b) - n:]:
        return n
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[len(a) - mid:len(a) - lo] == b[len(b) - mid:len(b) - lo]:
            lo = mid
        else:
            hi = mid
    return lo


def _probe(k: int) -> bool:
    """Whether to compare states ``k`` steps into the shared suffix: the first 4 steps, then every
    8th (a replay that never converges pays a comparison every 8 steps, not every step)."""
    return k < 4 or k % 8 == 0


class IncrementalReplay:
    """Replays of one scene with prefix caching and convergence (module doc).

    Args:
        world: the :class:`IncrementalWorld` hooks.
        scene: the scene object every replay starts from.
        sim: the simulator to step (one is shared by all replays of this object).
        keep: trajectories kept (most recent first).

    ``stats`` counts simulator steps run (``stepped``) and taken over (``reused``)."""

    def __init__(self, world: IncrementalWorld, scene: Any, sim: Any, keep: int = KEEP):
        self.world = world
        self.scene = scene
        self.sim = sim
        self.keep = keep
        self._trajs: deque[_Trajectory] = deque(maxlen=keep)
        self._initial = None
        self.stats = {"stepped": 0, "reused": 0, "replays": 0}

    # ------------------------------------------------------------------ helpers
    def _start(self):
        if self._initial is None:
            self._initial = self.world.initial_state(self.sim, self.scene)
        return self._initial

    def _result(self, steps: list, t: _Trajectory) -> ReplayResult:
        n_exec = len(t.states) - 1
        obs = self.world.view(self.sim, t.states[-1])
        info = t.info or {}
        if t.failed is not None:
            return ReplayResult(False, t.failed, info.get("error"), info.get("error_type"),
                                list(info.get("unmet") or []), obs, list(steps[:n_exec]))
        return ReplayResult(t.complete, None, None, None, [], obs, list(steps[:n_exec]), complete=t.complete)

    def _best(self, steps: list) -> tuple[_Trajectory | None, int]:
        """The kept trajectory sharing the longest usable prefix with ``steps`` (ties: the one that
        also shares the longest suffix, then the most recent)."""
        best, best_key = None, (-1, -1)
        for t in self._trajs:
            p = min(_common_prefix(steps, t.steps), len(t.states) - 1)
            s = _common_suffix(steps, t.steps, len(steps) - p) if t.complete else 0
            if (p, s) > best_key:
                best, best_key = t, (p, s)
        return best, max(best_key[0], 0)

    # ------------------------------------------------------------------ API
    def replay(self, steps: Sequence[Step], observe: Callable | None = None,
               until: int | None = None) -> ReplayResult:
        """Replay ``steps`` from the scene's initial state (the result of a plain replay).

        Args:
            observe: ``observe(i, step, "before"|"after", sim)`` around each step; a replay with an
                observer runs every step (no shortcut), ``sim`` set to the state of the moment.
            until: stop once steps ``0..until`` executed (``complete=False`` on the result).
        """
        steps = list(steps)
        n = len(steps)
        self.stats["replays"] += 1
        ref, p = (None, 0) if observe is not None else self._best(steps)
        if ref is None:
            p = 0
            states = [self._start()]
        else:
            states = list(ref.states[: p + 1])
            self.stats["reused"] += p
            if ref.failed == p and p < n and steps[p] == ref.steps[p]:  # same state, same step: same failure
                t = _Trajectory(steps, states, p, ref.info)
                self._trajs.appendleft(t)
                return self._result(steps, t)
        # the suffix shared with the reference, where convergence is checked
        d = 0
        s_from = n + 1
        if ref is not None and ref.complete:
            s = _common_suffix(steps, ref.steps, n - p)
            if s:
                s_from, d = n - s, len(ref.steps) - n
        cur = states[-1]
        i = p
        while i < n:
            if (i >= s_from and 0 <= i + d < len(ref.states) and _probe(i - s_from)
                    and self.world.same_state(cur, ref.states[i + d])):
                # converged: the rest is the reference's rest (its failure, shifted, or its end)
                rest = ref.states[i + d + 1:]
                states.extend(rest)
                self.stats["reused"] += len(rest)
                failed = None if ref.failed is None else ref.failed - d
                info = {}
                if failed is not None:  # the same failure; its report is made again at its own index
                    info = self.world.advance(self.sim, states[-1], steps[failed], failed)[1] if d else ref.info
                t = _Trajectory(steps, states, failed, info)
                self._trajs.appendleft(t)
                return self._result(steps, t)
            if until is not None and i > until:
                t = _Trajectory(steps, states, None, {}, complete=False)
                self._trajs.appendleft(t)
                return self._result(steps, t)
            if observe is not None:
                self.world.view(self.sim, cur)
                observe(i, steps[i], "before", self.sim)
            nxt, info = self.world.advance(self.sim, cur, steps[i], i)
            self.stats["stepped"] += 1
            if nxt is None:
                t = _Trajectory(steps, states, i, info)
                self._trajs.appendleft(t)
                return self._result(steps, t)
            states.append(nxt)
            cur = nxt
            if observe is not None:
                observe(i, steps[i], "after", self.sim)
            i += 1
        t = _Trajectory(steps, states, None, {})
        self._trajs.appendleft(t)
        return self._result(steps, t)


def supports_incremental(world: Any) -> bool:
    """Whether ``world`` (a :class:`~actionable.core.replay.GraphReplay`) offers the hooks."""
    return all(callable(getattr(world, m, None)) for m in ("initial_state", "advance", "same_state", "view"))


__all__ = ["IncrementalReplay", "IncrementalWorld", "supports_incremental", "KEEP"]
