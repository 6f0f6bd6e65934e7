"""Command-line interface: ``actionable plan|scenes|verify|follow|eval``.

Each concern registers its commands from its own module. Heavy libraries are
imported inside the command functions so ``actionable --help`` stays fast.
Every :class:`~actionable.core.errors.ActionableError` becomes one clear line on
stderr and exit code 2 (``--debug`` adds the traceback, same code); see
:data:`EXIT_CODES` for the whole table and docs/cli.md.
"""

from __future__ import annotations

import importlib
import re
import sys

import typer

from actionable.core.errors import ActionableError

#: The exit-code table, shown by ``actionable --help`` and every command's ``--help``
#: (docs/cli.md). ``--debug`` adds the traceback and keeps the code.
EXIT_CODES = ("Exit codes: 0 ok; 1 the job ran and failed (e.g. a plan that does not execute, or whose goal does not hold); 2 bad input (one 'error:' line that names the flag or file); "
              "3 plan: it executes but no goal could be checked; 130 interrupted. The same with --debug, which adds the traceback.")

_CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    name="actionable",
    help="Turn household instructions into executable plans, verify plans, and follow standing "
         "instructions in a changing world: VirtualHome's house (default), an AI2-THOR kitchen "
         "(--env thor), any PDDL domain (--env pddl) and a SUMO town (--env driving).",
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
    from actionable.cli import doctor, evaluate, follow, plan, scenes, sequencing, serve, show, verify

    for mod in (plan, scenes, verify, follow, evaluate, sequencing, doctor, show, serve):
        mod.register(app, eval_app)


#: Readable metavars by option name; other options get one from their type (N, NUMBER, FILE,
#: or the option's own name in capitals), flags get none.
_METAVARS = {"--out": "DIR", "--grounded": "JSON", "--program": "ID", "--address": "ADDRESS",
             "--bank": "FILE", "--tasks": "FILE", "--example-bank": "FILE", "--teach": "FILE",
             "--instructions": "FILE", "--save-instructions": "FILE", "--trace": "FILE",
             "--set-sizes": "N,N,...", "--translation-model": "MODEL", "--env": "WORLD",
             "--html": "FILE", "--png": "FILE", "--id": "KEY"}


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


def _note_interrupts(cmd) -> None:
    """Wrap every command's callback so that the message of a Ctrl-C that carries one
    (:class:`~actionable.evaluation.runner.RunInterrupted`: ``5 of 15 saved; rerun the same command
    to resume``) reaches :func:`main`; typer turns the exception itself into a bare exit code 130."""
    import functools

    cb = getattr(cmd, "callback", None)
    if cb is not None and not getattr(cb, "_notes_interrupts", False):
        @functools.wraps(cb)
        def wrapped(*a, **kw):
            try:
                return cb(*a, **kw)
            except KeyboardInterrupt as exc:
                _STATE["interrupt"] = str(exc)
                raise

        wrapped._notes_interrupts = True
        cmd.callback = wrapped
    for sub in (getattr(cmd, "commands", None) or {}).values():
        _note_interrupts(sub)


def _interrupted() -> str:
    """The stderr line of exit code 130: ``interrupted``, and what was saved when the job says."""
    msg = _STATE.get("interrupt") or ""
    return f"interrupted: {msg}" if msg else "interrupted"


def _command():
    """The click command tree of the app, with :func:`_polish` applied."""
    from typer.main import get_command

    _register()
    cmd = get_command(app)
    _polish(cmd)
    _note_interrupts(cmd)
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
    from actionable.core.errors import ConfigError

    if isinstance(exc, ConfigError) and getattr(exc, "fields", None):
        from actionable.core.config import flag_message

        return flag_message(exc)
    return str(exc)


def _typed_options(cmd, args: list[str]) -> list[tuple[str, str]]:
    """``(long flag, value)`` for every option with a value that the user typed, resolved
    against the click command the arguments select (short names and ``--x=v`` included)."""
    sub, i = cmd, 0
    while i < len(args) and getattr(sub, "commands", None):  # descend to the subcommand
        a = args[i]
        if a in sub.commands:
            sub = sub.commands[a]
        elif not a.startswith("-"):
            break
        i += 1
    takes: dict[str, str] = {}
    for p in getattr(sub, "params", []):
        if p.param_type_name != "option" or getattr(p, "is_flag", False):
            continue
        names = list(p.opts) + list(getattr(p, "secondary_opts", []))
        long = next((o for o in names if o.startswith("--")), names[0] if names else None)
        for o in names:
            takes[o] = long
    out = []
    rest = args[i:]
    j = 0
    while j < len(rest):
        a = rest[j]
        if a == "--":
            break
        if a.startswith("--") and "=" in a and a.split("=", 1)[0] in takes:
            out.append((takes[a.split("=", 1)[0]], a.split("=", 1)[1]))
        elif a in takes and j + 1 < len(rest):
            out.append((takes[a], rest[j + 1]))
            j += 1
        j += 1
    return out


def _name_the_flag(msg: str, typed: list[tuple[str, str]]) -> str:
    """Prefix ``--flag: `` to an error message that quotes the value of exactly one option the
    user typed and names no flag yet (``unknown scene 'nope'`` -> ``--scene: unknown ...``).
    One place for every command: the layers below raise SceneError, ModelNotFoundError...
    without knowing which flag carried the value."""
    if msg.startswith("-") or not typed:
        return msg
    hits = set()
    for flag, value in typed:
        items = {value.strip()} | {x.strip() for x in value.split(",")}
        items |= {x.partition(":")[2] for x in list(items) if ":" in x}  # st:/dir -> '/dir' in the message
        if any(x and (f"'{x}'" in msg or f'"{x}"' in msg) for x in items):
            hits.add(flag)
    if len(hits) != 1:
        return msg
    flag = hits.pop()
    if re.search(re.escape(flag) + r"(?![\w-])", msg):
        return msg
    return f"{flag}: {msg}"


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


def _stdout_closed() -> int:
    """The reader of stdout went away (``actionable scenes | head -1``): point stdout at
    /dev/null so the interpreter's final flush does not complain, and exit quietly with the code
    the command had decided (:mod:`actionable.cli.exitcode`; 0 when none: ``plan ... | head -1``
    on a "Not done" plan still exits 1)."""
    import os

    from actionable.cli.exitcode import decided

    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):  # no real stdout (pytest capture, notebooks)
        pass
    return decided()


def _stdout_is_devnull() -> bool:
    import os

    try:
        a, b = os.fstat(sys.stdout.fileno()), os.stat(os.devnull)
        return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)
    except (OSError, ValueError, AttributeError):
        return False


def _unwrap_pacified() -> bool:
    """Undo click's/typer's EPIPE handling (it wraps stdout/stderr in ``PacifyFlushWrapper``
    and exits 1); true when it had happened."""
    hit = False
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if type(stream).__name__ == "PacifyFlushWrapper":
            setattr(sys, name, getattr(stream, "wrapped", stream))
            hit = True
    return hit


def _wants_json(args: list[str]) -> bool:
    """``--json``, ``--format json``, ``-f json`` or ``--format=json`` on the command line."""
    if "--json" in args or "--format=json" in args:
        return True
    return any(a in ("--format", "-f") and i + 1 < len(args) and args[i + 1] == "json" for i, a in enumerate(args))


def main(argv: list[str] | None = None) -> int:
    """Console-script entry point; returns the process exit code (see :data:`EXIT_CODES`)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in args
    from actionable.cli.progress import set_quiet

    set_quiet(False)  # per invocation (main() may run many times in one process)
    from actionable.cli.exitcode import clear

    clear()
    _STATE["interrupt"] = ""
    _log_to_stderr(debug)
    cmd = _command()
    was_devnull = _stdout_is_devnull()
    try:
        rv = cmd.main(args=args, prog_name="actionable", standalone_mode=False)
        # typer turns Ctrl-C into Exit(130) and, outside standalone mode, *returns*
        # the exit code of an Exit instead of raising it.
        if isinstance(rv, int) and rv != 0:
            if rv == 130:
                typer.echo(_interrupted(), err=True)
            return rv
    except ActionableError as exc:
        if debug:
            _traceback()
        text = _error_text(exc)
        try:
            text = _name_the_flag(text, _typed_options(cmd, args))
        except Exception:  # cosmetic: never hide the error itself
            pass
        typer.echo(f"error: {_one_line(text)}", err=True)
        if _wants_json(args):  # a script reading stdout gets JSON for a refusal too
            import json

            typer.echo(json.dumps({"error": _one_line(text), "error_type": type(exc).__name__, "exit_code": 2}))
        return 2
    except KeyboardInterrupt as exc:
        _STATE["interrupt"] = _STATE.get("interrupt") or str(exc)
        typer.echo(_interrupted(), err=True)
        return 130
    except BrokenPipeError:  # stdout closed by its reader (`| head -1`): not an error
        return _stdout_closed()
    except SystemExit as exc:  # click's own exit
        if _unwrap_pacified() or (exc.code == 1 and not was_devnull and _stdout_is_devnull()):
            # typer (PacifyFlushWrapper) or rich (stdout moved to /dev/null) met a closed
            # stdout and exit 1: not an error
            return _stdout_closed()
        return int(exc.code or 0)
    except Exception as exc:  # click usage errors and friends
        click_exc, abort_exc = _click_exception_types()
        if type(exc).__name__ == "NoArgsIsHelpError":  # help was already printed
            return 0
        if isinstance(exc, typer.Exit):  # typer >= 0.29: not a SystemExit
            return int(getattr(exc, "exit_code", 0) or 0)
        if isinstance(exc, typer.Abort) or isinstance(exc, abort_exc):
            # click turns Ctrl-C (and EOF at a prompt) into Abort
            typer.echo(_interrupted(), err=True)
            return 130
        if isinstance(exc, click_exc):
            # one line, like every other error: "error: No such option: --x (see ... --help)"
            msg = _one_line(exc.format_message())
            ctx = getattr(exc, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            typer.echo(f"error: {msg}{hint}", err=True)
            if _wants_json(args):
                import json

                typer.echo(json.dumps({"error": msg + hint, "error_type": "UsageError", "exit_code": exc.exit_code}))
            return exc.exit_code
        if debug:
            _traceback()
        hint = "" if debug else " (rerun with --debug for the traceback)"  # with --debug it is printed above
        typer.echo(f"internal error: {type(exc).__name__}: {_one_line(str(exc))}{hint}", err=True)
        return 1
    return 0


def run() -> None:
    code = main()
    try:
        sys.stdout.flush()  # buffered output may meet the closed pipe only now
    except BrokenPipeError:
        code = _stdout_closed() or code
    except (OSError, ValueError):
        pass
    sys.exit(code)
