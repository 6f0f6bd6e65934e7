"""Twin programs and leave-title-out folds that keep twins together (issue 24).

Two packaged programs are *twins* when their class-level steps are identical step for step
(node ids dropped) and their titles differ ("Work" / "Browse internet"). Titles joined by a twin
(transitively) form one *title group*; a group is held out as a whole, so leave-title-out never
keeps a step-for-step copy of the held-out program in the bank under another name. The fold of a
group is the fold :func:`~actionable.evaluation.sequencing.title_folds` deals to its first title in
``sha256`` order, so groups of one title keep today's fold.
"""

from __future__ import annotations

import functools

from actionable.core.dataset import normalize_task


def twins(world: str | None = None) -> dict[str, list[str]]:
    """``{program id: [ids of its twins under other titles]}`` over the world's packaged programs
    (only programs that have one)."""
    from actionable.evaluation.datasets import dataset

    ds = dataset(world)
    by_steps: dict[tuple, list[tuple[str, str]]] = {}
    for pid in ds.program_ids():
        p = ds.program(pid)
        key = tuple(s.unresolved().to_text() for s in p.steps)
        by_steps.setdefault(key, []).append((pid, normalize_task(p.task)))
    out: dict[str, list[str]] = {}
    for members in by_steps.values():
        for pid, title in members:
            other = sorted(q for q, t in members if t != title)
            if other:
                out[pid] = other
    return out


@functools.lru_cache(maxsize=4)
def title_groups(world: str | None = None) -> dict[str, str]:
    """Normalised title -> its group's key (the group's titles joined by ``" / "``, sorted)."""
    from actionable.evaluation.datasets import dataset

    ds = dataset(world)
    titles = {normalize_task(ds.program(p).task) for p in ds.program_ids()}
    parent = {t: t for t in titles}

    def find(t):
        while parent[t] != t:
            parent[t] = parent[parent[t]]
            t = parent[t]
        return t

    title_of = {p: normalize_task(ds.program(p).task) for p in ds.program_ids()}
    for pid, others in twins(world).items():
        for q in others:
            a, b = find(title_of[pid]), find(title_of[q])
            if a != b:
                parent[a] = b
    members: dict[str, list[str]] = {}
    for t in titles:
        members.setdefault(find(t), []).append(t)
    return {t: " / ".join(sorted(members[find(t)])) for t in titles}


@functools.lru_cache(maxsize=4)
def twin_folds(world: str | None = None) -> dict[str, int]:
    """Normalised title -> leave-title-out fold, twins' titles sharing one fold (module doc)."""
    from actionable.evaluation.sequencing import title_folds

    groups = title_groups(world)
    base = title_folds(list(groups))
    group_fold: dict[str, int] = {}
    import hashlib

    for g in {g for g in groups.values()}:
        first = min(g.split(" / "), key=lambda t: hashlib.sha256(f"lto:v1:{t}".encode()).hexdigest())
        group_fold[g] = base[first]
    return {t: group_fold[g] for t, g in groups.items()}


def exclusions(pid: str, task: str, split: str, world: str | None = None) -> tuple[frozenset, frozenset]:
    """``(excluded program ids, excluded normalised titles)`` of a query: LOPO its own program; LTO
    also every title of its twin-aware fold.

    Raises:
        ConfigError: unknown split (names ``--split``).
    """
    from actionable.core.errors import ConfigError

    if split == "lopo":
        return frozenset({pid}), frozenset()
    if split == "lto":
        folds = twin_folds(world)
        f = folds.get(normalize_task(task))
        return frozenset({pid}), frozenset(t for t, x in folds.items() if x == f)
    raise ConfigError(f"--split: unknown split {split!r}; choose from lopo, lto")


__all__ = ["exclusions", "title_groups", "twin_folds", "twins"]
