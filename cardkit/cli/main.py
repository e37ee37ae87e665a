"""`cardkit`: the console script. Each command module registers itself here."""

from __future__ import annotations

import importlib

import typer

app = typer.Typer(
    name="cardkit",
    help="Card catalogue and deck-legality toolkit for the Berserk card games and the Berserker fleet game.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

# Order is the order of `cardkit --help`.
COMMAND_MODULES: tuple[str, ...] = ("catalogue", "build", "cards", "fleet", "validate", "deck", "simulate", "squad", "tournament", "serve")

for _name in COMMAND_MODULES:
    importlib.import_module(f"cardkit.cli.{_name}").register(app)


def main() -> None:
    app()
