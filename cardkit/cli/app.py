"""The typer app of the `cardkit` console script. Each command module registers itself here."""

from __future__ import annotations

import importlib
import sys

import typer

try:  # newer typer carries its own copy of click; its exceptions are not click's
    from typer._click.exceptions import NoArgsIsHelpError, UsageError
except ImportError:  # pragma: no cover - older typer on the real click
    # mypy reads both branches against the installed typer and sees the names rebound to other classes,
    # though only one of the two imports ever runs.
    from click.exceptions import NoArgsIsHelpError, UsageError  # type: ignore[assignment]

from cardkit.cli._errors import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE

app = typer.Typer(
    name="cardkit",
    help="Card catalogue and deck-legality toolkit for the Berserk card games and the Berserker fleet game.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# Order is the order of `cardkit --help`.
COMMAND_MODULES: tuple[str, ...] = ("catalogue", "build", "cards", "fleet", "tcg", "validate", "deck", "simulate", "squad", "battle", "combat",
                                     "tournament", "serve",
                                     # last: it joins the `combat` group that `combat` made
                                     "combat_tcg")

for _name in COMMAND_MODULES:
    importlib.import_module(f"cardkit.cli.{_name}").register(app)


def run() -> None:
    """Run the console script: a usage error is one `error:` line and exit 2, like every other error."""
    try:
        code = app(standalone_mode=False)
    except NoArgsIsHelpError as exc:
        typer.echo(exc.ctx.get_help() if exc.ctx else str(exc))
        code = EXIT_USAGE
    except UsageError as exc:
        command = exc.ctx.command_path if exc.ctx else "cardkit"
        typer.echo(f"error: {exc.format_message()} (see `{command} --help`)", err=True)
        code = EXIT_USAGE
    except (typer.Abort, KeyboardInterrupt):
        # Ctrl-C before a command's own guard runs (while typer parses, or a command module loads).
        typer.echo("error: interrupted", err=True)
        code = EXIT_INTERRUPTED
    sys.exit(code if isinstance(code, int) else EXIT_OK)
