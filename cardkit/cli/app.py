"""The typer app of the `cardkit` console script, built with only the command a run names.

The entry point is `cardkit.cli.main.main`, which loads this module inside its own Ctrl-C guard."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any, Protocol, cast

import typer

from cardkit.cli._errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, INTERRUPTED, USAGE, fail, handled
from cardkit.cli._help import FullSummaryGroup, NoCommandGiven, use_full_summaries
from cardkit.cli._output import flush_stdout
from cardkit.cli._render import colour_forced
from cardkit.cli.main import wants_json


class _UsageError(Protocol):
    ctx: Any | None

    def format_message(self) -> str: ...


def _usage_error_class() -> type[Exception]:
    """The usage error of the click typer runs on, found through typer's public `BadParameter`, a kind of it.

    typer up to 0.2x ran on the click package; later ones carry a copy of click whose classes are
    not the package's. Neither module is imported here, so neither is a dependency of cardkit.
    """
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "UsageError" and issubclass(cls, Exception):
            return cls
    raise RuntimeError("typer.BadParameter is no longer a kind of UsageError; see cardkit/cli/app.py")


UsageError = _usage_error_class()

HELP = "Card catalogue and deck-legality toolkit for the Berserk card games and the Berserker fleet game."

# Order is the order of `cardkit --help` (typer lists single commands first, then groups). Name each
# module after the command or group it registers: a run of that command then imports only that module.
COMMAND_MODULES: tuple[str, ...] = ("catalogue", "build", "cards", "fleet", "tcg", "validate", "deck", "simulate", "squad", "battle",
                                     "combat", "tournament", "serve")


def _show_version(value: bool) -> None:
    if value:
        from cardkit.cli._version import version_lines

        typer.echo("\n".join(version_lines()))
        raise typer.Exit(EXIT_OK)


def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="Show the version and where the catalogue and the database are, then exit.",
    )] = False,
) -> None:
    # No docstring: the app's help stays HELP.
    pass


def make_app(modules: Sequence[str] = COMMAND_MODULES, completion: bool = True) -> typer.Typer:
    """The `cardkit` app with the commands of `modules`, every command by default."""
    new = typer.Typer(
        name="cardkit",
        help=HELP,
        add_completion=completion,
        no_args_is_help=True,
        pretty_exceptions_enable=False,
        # Plain help text: rich's formatter costs more to import than the rest of `--help` together.
        rich_markup_mode=None,
        # Forced colour must survive typer's echo, which otherwise strips colour from a pipe.
        context_settings={"help_option_names": ["-h", "--help"], **({"color": True} if colour_forced() else {})},
        cls=FullSummaryGroup,
    )
    new.callback()(_root)
    for name in modules:
        importlib.import_module(f"cardkit.cli.{name}").register(new)
    use_full_summaries(new)
    return new


@functools.cache
def full_app() -> typer.Typer:
    """The app with every command: what `cardkit.cli.main.app` is."""
    return make_app()


def __getattr__(name: str) -> typer.Typer:
    # `app` is built on first use, so that a run of one command imports and builds only that one.
    if name == "app":
        return full_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def app_for(args: Sequence[str]) -> typer.Typer:
    """An app with only the command `args` name, when they name one: typer builds every command's options before parsing.

    `cardkit`, `cardkit --help`, an unknown command and shell completion get the whole app.
    """
    words = [a for a in args if not a.startswith("-")]
    if not words or words[0] not in COMMAND_MODULES or any(k.endswith("_COMPLETE") for k in os.environ):
        return full_app()
    # Completion's options belong before a command, so an app for one command has no use for them.
    slim = make_app([words[0]], completion=False)
    names = {c.name for c in slim.registered_commands} | {g.name for g in slim.registered_groups}
    return slim if words[0] in names else full_app()


def help_command(args: Sequence[str], exc: _UsageError) -> str:
    """The command whose `--help` explains a usage error: its context's, else the deepest command `args` name."""
    if exc.ctx is not None:
        return exc.ctx.command_path
    # The parser reports a missing option value without a context; walk the words instead.
    path, command = ["cardkit"], typer.main.get_command(full_app())
    for arg in args:
        sub = getattr(command, "commands", {}).get(arg)
        if sub is None and not arg.startswith("-"):
            break
        if sub is not None:
            path.append(arg)
            command = sub
    return " ".join(path)


def run() -> None:
    """Run the console script: a usage error is one `error:` line (with --json, the error object) and exit 2, like every other error."""
    args = sys.argv[1:]
    try:
        code = exit_code(args)
        flush_stdout()
    except OSError as exc:
        # Help or a usage error that could not be printed (a command's own output is its guard's).
        handled_code = handled(exc, typer.echo, wants_json(args))
        if handled_code is None:
            raise
        code = handled_code
    sys.exit(code)


def exit_code(args: Sequence[str]) -> int:
    """Run the command `args` name; its exit code."""
    try:
        code = app_for(args)(standalone_mode=False)
    except NoCommandGiven as alone:
        # `cardkit` or `cardkit GROUP` alone: the help once, on stdout, and exit 2 as for any missing argument.
        typer.echo(alone.help_text)
        code = EXIT_USAGE
    except UsageError as caught:
        usage = cast(_UsageError, caught)
        from cardkit.visible import shortened_message

        message = f"{shortened_message(usage.format_message())} (see `{help_command(args, usage)} --help`)"
        code = fail(message, EXIT_USAGE, as_json=wants_json(args), error_code=USAGE).exit_code
    except (typer.Abort, KeyboardInterrupt):
        # Ctrl-C before a command's own guard runs (while typer parses, or a command module loads).
        code = fail("interrupted", EXIT_INTERRUPTED, as_json=wants_json(args), error_code=INTERRUPTED).exit_code
    return code if isinstance(code, int) else EXIT_OK
