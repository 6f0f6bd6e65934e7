"""The package's architecture, checked from its source: no import circles between modules of
``actionable`` (function-level imports included: a lazy import still makes two modules depend on
each other), and the library never imports the CLI (``actionable.cli`` sits on top)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "actionable"


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _exists(mod: str) -> bool:
    p = ROOT.joinpath(*mod.split("."))
    return p.with_suffix(".py").is_file() or (p / "__init__.py").is_file()


def import_graph() -> dict[str, set[str]]:
    """``{module: {modules it imports}}`` over every ``import``/``from`` in the package (at any
    depth); ``from pkg import name`` points at ``pkg.name`` when that is a module, else ``pkg``."""
    graph: dict[str, set[str]] = defaultdict(set)
    for path in PKG.rglob("*.py"):
        mod = _module(path)
        pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] == "actionable":
                    for alias in node.names:
                        sub = f"{target}.{alias.name}"
                        graph[mod].add(sub if _exists(sub) else target)
            elif isinstance(node, ast.Import):
                graph[mod].update(a.name for a in node.names if a.name.split(".")[0] == "actionable")
    for mod in graph:
        graph[mod].discard(mod)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in list(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_the_cycle_finder_finds_a_circle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_in_the_package():
    graph = import_graph()
    assert len(graph) > 100  # the walk saw the package
    assert cycles(graph) == []


def test_the_library_never_imports_the_cli():
    offenders = sorted(m for m, deps in import_graph().items()
                       if not m.startswith("actionable.cli") and any(d.startswith("actionable.cli") for d in deps))
    assert offenders == []
