"""Command-line interface: ``actionable plan|scenes|verify|follow|eval``.

Each concern registers its commands from its own module. Heavy libraries are
imported inside the command functions so ``actionable --help`` stays fast.
Every :class:`~actionable.errors.ActionableError` becomes one clear line on
stderr and exit code 2 (no traceback unless ``--debug``).
"""

from __future__ import annotations

import importlib
import sys

import typer

from actionable.errors import ActionableError

app = typer.Typer(
    name="actionable",
    help="Turn household instructions into executable VirtualHome plans, verify plans, "
         "and follow standing instructions in a changing house.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
eval_app = typer.Typer(help="Evaluation harness: plan, verify and continual benchmarks; reports.",
                       no_args_is_help=True)
app.add_typer(eval_app, name="eval")

_STATE = {"debug": False}


@app.callback()
def _root(debug: bool = typer.Option(False, "--debug", help="Show full tracebacks on errors.")):
    _STATE["debug"] = debug


def _register() -> None:
    from actionable.cli import evaluate, follow, plan, scenes, sequencing, verify

    for mod in (plan, scenes, verify, follow, evaluate, sequencing):
        mod.register(app, eval_app)


def _one_line(text: str, limit: int = 2000) -> str:
    """Collapse whitespace (newlines included) so an error is one stderr line; cap its length."""
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


def _click_exception_types() -> tuple[tuple[type, ...], tuple[type, ...]]:
    """``(ClickException types, Abort types)`` of click and of typer's vendored copy.

    typer >= 0.29 ships its own click (``typer._click``) whose exceptions do not
    subclass ``click.exceptions.ClickException``; usage errors from either must be
    reported as one line.
    """
    click_exc: list[type] = []
    abort_exc: list[type] = []
    for mod_name in ("click.exceptions", "typer._click.exceptions"):
        try:
            mod = importlib.import_module(mod_name)
        except ImportError:
            continue
        click_exc.append(mod.ClickException)
        if hasattr(mod, "Abort"):
            abort_exc.append(mod.Abort)
    return tuple(click_exc), tuple(abort_exc)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the process exit code."""
    _register()
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        rv = app(args=argv, standalone_mode=False)
        # typer turns Ctrl-C into Exit(130) and, outside standalone mode, *returns*
        # the exit code of an Exit instead of raising it.
        if isinstance(rv, int) and rv != 0:
            if rv == 130:
                typer.echo("interrupted", err=True)
            return rv
    except ActionableError as exc:
        if debug:
            raise
        typer.echo(f"error: {_one_line(str(exc))}", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    except SystemExit as exc:  # click's own exit
        return int(exc.code or 0)
    except Exception as exc:  # click usage errors and friends
        click_exc, abort_exc = _click_exception_types()
        if type(exc).__name__ == "NoArgsIsHelpError":  # help was already printed
            return 0
        if isinstance(exc, typer.Exit):  # typer >= 0.29: not a SystemExit
            return int(getattr(exc, "exit_code", 0) or 0)
        if isinstance(exc, typer.Abort):
            typer.echo("aborted", err=True)
            return 1
        if isinstance(exc, click_exc):
            # one line, like every other error: "error: No such option: --x (see ... --help)"
            msg = _one_line(exc.format_message())
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"error: {msg}{hint}", err=True)
            return exc.exit_code
        if isinstance(exc, abort_exc):
            typer.echo("aborted", err=True)
            return 1
        if debug:
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {_one_line(str(exc))} (rerun with --debug for the traceback)",
                   err=True)
        return 1
    return 0


def run() -> None:
    sys.exit(main())
