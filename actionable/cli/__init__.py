"""Command-line interface: ``actionable plan|scenes|verify|follow|eval``.

Each concern registers its commands from its own module. Heavy libraries are
imported inside the command functions so ``actionable --help`` stays fast.
Every :class:`~actionable.errors.ActionableError` becomes one clear line on
stderr and exit code 2 (``--debug`` adds the traceback, same code); see
:data:`EXIT_CODES` for the whole table and docs/cli.md.
"""

from __future__ import annotations

import importlib
import sys

import typer

from actionable.errors import ActionableError

#: The exit-code table, shown by ``actionable --help`` and every command's ``--help``
#: (docs/cli.md). ``--debug`` adds the traceback and keeps the code.
EXIT_CODES = ("Exit codes: 0 ok; 1 the job ran and failed (e.g. a plan that does not execute); 2 bad input (one 'error:' line that names the flag or file); "
              "130 interrupted. The same with --debug, which adds the traceback.")

_CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="actionable",
    help="Turn household instructions into executable VirtualHome plans, verify plans, "
         "and follow standing instructions in a changing house.",
    epilog=EXIT_CODES,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings=_CONTEXT,
)
eval_app = typer.Typer(help="Evaluation harness: plan, verify and continual benchmarks; reports.",
                       no_args_is_help=True, context_settings=_CONTEXT)
app.add_typer(eval_app, name="eval")

_STATE = {"debug": False}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("actionable")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"actionable {_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(debug: bool = typer.Option(False, "--debug", help="Show full tracebacks on errors (exit codes "
                                                             "stay the same)."),
          quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress output on stderr (spinner "
                                                                   "or timestamped lines)."),
          version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                       help="Print the version and exit.")):
    from actionable.cli.progress import set_quiet

    _STATE["debug"] = debug
    if quiet:
        set_quiet(True)


def _register() -> None:
    from actionable.cli import doctor, evaluate, follow, plan, scenes, sequencing, verify

    for mod in (plan, scenes, verify, follow, evaluate, sequencing, doctor):
        mod.register(app, eval_app)


#: Readable metavars by option name; other options get one from their type (N, NUMBER, FILE,
#: or the option's own name in capitals), flags get none.
_METAVARS = {"--out": "DIR", "--grounded": "JSON", "--program": "ID", "--address": "ADDRESS",
             "--bank": "FILE", "--tasks": "FILE", "--example-bank": "FILE", "--teach": "FILE",
             "--instructions": "FILE", "--save-instructions": "FILE", "--trace": "FILE",
             "--set-sizes": "N,N,...", "--translation-model": "MODEL", "--env": "WORLD"}


def _metavar(param) -> str:
    opts = list(param.opts)
    for o in opts:
        if o in _METAVARS:
            return _METAVARS[o]
    ann = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    name = str(getattr(ann, "__name__", ann))
    if "int" in name:
        return "N"
    if "float" in name:
        return "NUMBER"
    if "Path" in name:
        return "FILE"
    long = next((o for o in opts if o.startswith("--")), opts[0] if opts else "VALUE")
    return long.lstrip("-").replace("-", "_").upper()


def _polish(cmd) -> None:
    """Readable help for every command: metavars (``--seed N``, ``TASK``; none for flags, never
    ``<bool>`` or ``{task}``), ``-h``, and the exit-code table as the epilog."""
    from typer import _click

    if getattr(cmd, "epilog", None) is None:
        cmd.epilog = EXIT_CODES
    for param in list(cmd.params):
        if param.param_type_name == "argument":
            label = (param.metavar or param.name).strip("[]{}").upper()
            param.metavar = label
            shown = label if param.required else f"[{label}]"
            param._usage_display_name = (lambda shown=shown: shown)
            param.display_type_rich = (lambda ctx=None: None)  # the name says it: no "<str>" column
        elif getattr(param, "is_flag", False) or getattr(param, "is_bool_flag", False):
            param.metavar = ""
        elif param.metavar is None:
            param.metavar = _metavar(param)
    try:
        ctx = _click.Context(cmd, info_name=cmd.name, help_option_names=_CONTEXT["help_option_names"])
        help_opt = cmd.get_help_option(ctx)
        if help_opt is not None:
            help_opt.metavar = ""
    except Exception:  # cosmetic only
        pass
    for sub in (getattr(cmd, "commands", None) or {}).values():
        _polish(sub)


def _command():
    """The click command tree of the app, with :func:`_polish` applied."""
    from typer.main import get_command

    _register()
    cmd = get_command(app)
    _polish(cmd)
    return cmd


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


def _error_text(exc: BaseException) -> str:
    from actionable.errors import ConfigError

    if isinstance(exc, ConfigError) and getattr(exc, "fields", None):
        from actionable.config import flag_message

        return flag_message(exc)
    return str(exc)


def _traceback() -> None:
    import traceback

    traceback.print_exc(file=sys.stderr)


_LOG_HANDLER: list = []


def _log_to_stderr(debug: bool) -> None:
    """``--debug``: log records of ``actionable.*`` from INFO up (LM retries, capability
    fallbacks) go to stderr as timestamped lines. Without it, nothing is configured: Python
    shows only warnings, and a failure is the one ``error:`` line (no retry chatter first)."""
    import logging

    logger = logging.getLogger("actionable")
    for h in _LOG_HANDLER:  # per invocation (main() may run many times in one process)
        logger.removeHandler(h)
    _LOG_HANDLER.clear()
    if debug:
        h = logging.StreamHandler()  # sys.stderr at the time of each record
        h.setFormatter(logging.Formatter("[%(asctime)s] %(name)s: %(message)s", "%H:%M:%S"))
        logger.addHandler(h)
        logger.setLevel(logging.DEBUG)
        _LOG_HANDLER.append(h)
    else:
        logger.setLevel(logging.NOTSET)


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the process exit code (see :data:`EXIT_CODES`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    from actionable.cli.progress import set_quiet

    set_quiet(False)  # per invocation (main() may run many times in one process)
    _log_to_stderr(debug)
    cmd = _command()
    try:
        rv = cmd.main(args=args, prog_name="actionable", standalone_mode=False)
        # typer turns Ctrl-C into Exit(130) and, outside standalone mode, *returns*
        # the exit code of an Exit instead of raising it.
        if isinstance(rv, int) and rv != 0:
            if rv == 130:
                typer.echo("interrupted", err=True)
            return rv
    except ActionableError as exc:
        if debug:
            _traceback()
        typer.echo(f"error: {_one_line(_error_text(exc))}", err=True)
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
        if isinstance(exc, typer.Abort) or isinstance(exc, abort_exc):
            # click turns Ctrl-C (and EOF at a prompt) into Abort
            typer.echo("interrupted", err=True)
            return 130
        if isinstance(exc, click_exc):
            # one line, like every other error: "error: No such option: --x (see ... --help)"
            msg = _one_line(exc.format_message())
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"error: {msg}{hint}", err=True)
            return exc.exit_code
        if debug:
            _traceback()
        typer.echo(f"internal error: {type(exc).__name__}: {_one_line(str(exc))} (rerun with --debug for the traceback)",
                   err=True)
        return 1
    return 0


def run() -> None:
    sys.exit(main())
