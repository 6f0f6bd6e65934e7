"""Scene names of the ``pddl`` world: the shipped examples and a user's own file pair.

* ``blocksworld:p01``: a problem shipped in ``actionable/worlds/pddl/data/<domain>/`` (its
  ``domain.pddl`` and ``<problem>.pddl``); :func:`shipped_scenes` lists them. A bare domain name
  (``blocksworld``) is its first problem.
* ``path/to/domain.pddl::path/to/problem.pddl``: any domain and problem on disk (relative paths
  are taken from the working directory). ``make("pddl", domain=PATH, problem=PATH)`` and
  :func:`scene_of` build the same name. On the command line: ``--scene blocksworld:p01`` or
  ``--scene domain.pddl::problem.pddl``.

``"default"`` (and ``None``) is :data:`DEFAULT_SCENE`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from actionable.core.errors import PddlFileError, UnknownSceneError

DATA = Path(__file__).resolve().parent / "data"
DEFAULT_SCENE = "blocksworld:p01"
#: separates the domain and problem paths of a user's scene
SEP = "::"


@dataclass(frozen=True)
class SceneRef:
    """A resolved scene: its ``name`` and the two files."""

    name: str
    domain: Path
    problem: Path

    @property
    def shipped(self) -> bool:
        return SEP not in self.name


def shipped_scenes() -> list[str]:
    """``<domain>:<problem>`` for every problem shipped with the package, sorted."""
    out = []
    for d in sorted(p for p in DATA.iterdir() if (p / "domain.pddl").is_file()):
        out += [f"{d.name}:{p.stem}" for p in sorted(d.glob("*.pddl")) if p.name != "domain.pddl"]
    return out


def scene_of(domain: str | Path, problem: str | Path) -> str:
    """The scene name of a user's file pair: ``"<domain>::<problem>"``."""
    return f"{domain}{SEP}{problem}"


def resolve(name: str | None) -> SceneRef:
    """The files a scene name stands for (module doc).

    Raises:
        PddlFileError: a file of a ``domain::problem`` pair does not exist (names the path).
        UnknownSceneError: no shipped scene of that name (the message lists them), or a single
            ``.pddl`` path (a scene is two files).
    """
    if name is None or name == "default":
        name = DEFAULT_SCENE
    if not isinstance(name, str) or not name.strip():
        raise UnknownSceneError(f"a pddl scene is a name such as {DEFAULT_SCENE!r} or 'domain.pddl{SEP}problem.pddl'")
    name = name.strip()
    if SEP in name:
        dom, _, prob = name.partition(SEP)
        for what, p in (("domain", dom), ("problem", prob)):
            if not p.strip():
                raise UnknownSceneError(f"scene {name!r} has no {what} file; write 'domain.pddl{SEP}problem.pddl'")
            if not Path(p.strip()).is_file():
                raise PddlFileError(f"PDDL {what} file {p.strip()!r} (scene {name!r}) does not exist"
                                    + ("" if not Path(p.strip()).exists() else " as a file"), path=p.strip())
        return SceneRef(name, Path(dom.strip()), Path(prob.strip()))
    known = shipped_scenes()
    if name.lower().endswith(".pddl"):
        raise UnknownSceneError(f"scene {name!r} is one file; a pddl scene needs the domain and the problem: "
                                f"'domain.pddl{SEP}{name}' (or a shipped scene such as {known[0]})")
    dom, _, prob = name.partition(":")
    if not prob:
        firsts = [k for k in known if k.startswith(dom + ":")]
        if firsts:
            return resolve(firsts[0])
    if name not in known:
        raise UnknownSceneError(f"unknown pddl scene {name!r}; shipped scenes: {', '.join(known)}; or give your "
                                f"own files as 'domain.pddl{SEP}problem.pddl'")
    return SceneRef(name, DATA / dom / "domain.pddl", DATA / dom / f"{prob}.pddl")


__all__ = ["SceneRef", "resolve", "scene_of", "shipped_scenes", "DEFAULT_SCENE", "SEP", "DATA"]
