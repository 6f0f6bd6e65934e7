"""``actionable show RUN``: a self-contained HTML replay (and ``--png``) of a saved run; and the
``--html`` / ``--png`` writers that ``plan``, ``verify`` and ``follow`` share (:mod:`actionable.viz`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def check_out(flag: str, path: Optional[Path]) -> None:
    """Fail before the work, not after it, when an output path cannot be written."""
    from actionable.core.errors import InputError

    if path is None:
        return
    if path.is_dir():
        raise InputError(f"{flag} {path} is a directory; give a file path such as replay.html")
    if not path.parent.is_dir():
        raise InputError(f"{flag} {path}: folder {path.parent} does not exist; create it first")


def write_outputs(doc: dict, html: Optional[Path], png: Optional[Path], err: bool = True) -> None:
    """Write ``doc`` as HTML and/or PNG and say where (on stderr when ``err``)."""
    if html is not None:
        from actionable.viz.html import write_html

        write_html(doc, html)
        typer.echo(f"wrote {html} (open it in a browser; self-contained, no network)", err=err)
    if png is not None:
        from actionable.viz.png import write_png

        write_png(doc, png)
        typer.echo(f"wrote {png}", err=err)


def show_command(
    run: Path = typer.Argument(..., help="A saved run: `plan --json` or `verify --json` output, a "
                                         "`follow --trace` JSONL, or an eval run (its folder or run.jsonl)."),
    id: Optional[str] = typer.Option(None, "--id", help="The task or episode of an eval run (a record's key)."),
    html: Optional[Path] = typer.Option(None, "--html", help="Write the HTML replay here (default: RUN with "
                                                             "the suffix .html)."),
    png: Optional[Path] = typer.Option(None, "--png", help="Also write a PNG figure (the map with the path, or "
                                                           "the episode's timeline)."),
) -> None:
    """Write a self-contained HTML replay of a saved plan, verification or episode: a slider and the
    arrow keys step through it; the map, the agent's room and path, what it holds, each step's state
    changes, repair steps, a failed step's unmet preconditions, the goal conditions; for verify the
    plan before and after with every critique; for follow the instructions over time and the
    belief P(q) against the truth.

    Exit code 0 when written, 2 on bad input (one 'error:' line naming the file).
    """
    from actionable.viz.show import load_document

    out = html if html is not None else (run.with_suffix(".html") if not run.is_dir() else run / "replay.html")
    if id is not None and html is None and not run.is_dir():
        out = run.with_name(f"{run.stem}-{id}.html")
    check_out("--html", out)
    check_out("--png", png)
    doc = load_document(run, id)
    write_outputs(doc, out, png, err=False)


def register(app, eval_app) -> None:
    """Add ``actionable show`` to the root app."""
    app.command("show", help=show_command.__doc__)(show_command)
