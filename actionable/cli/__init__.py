"""Command-line interface: ``actionable plan|scenes|verify|follow|eval``.

Each concern registers its commands from its own module. Heavy libraries are
imported inside the command functions so ``actionable --help`` stays fast.
Every :class:`~actionable.errors.ActionableError` becomes one clear line on
stderr and exit code 2 (no traceback unless ``--debug``).
"""

from __future__ import annotations

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
    from actionable.cli import evaluate, follow, plan, scenes, verify

    for mod in (plan, scenes, verify, follow, evaluate):
        mod.register(app, eval_app)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the process exit code."""
    _register()
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        app(args=argv, standalone_mode=False)
    except ActionableError as exc:
        if debug:
            raise
        typer.echo(f"error: {exc}", err=True)
        return 2
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        return 130
    except SystemExit as exc:  # click's own exit
        return int(exc.code or 0)
    except Exception as exc:  # click usage errors and friends
        import click
        if isinstance(exc, click.exceptions.ClickException):
            exc.show()
            return exc.exit_code
        if isinstance(exc, click.exceptions.Abort):
            typer.echo("aborted", err=True)
            return 1
        if debug:
            raise
        typer.echo(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug for the traceback)",
                   err=True)
        return 1
    return 0


def run() -> None:
    sys.exit(main())
