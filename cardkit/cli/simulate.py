"""`cardkit simulate DECK`: simulated games of a deck, for any game with a simulator."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardkit.cli._errors import guarded
from cardkit.cli._options import FormatOption, JsonOption, SeedOption, print_json, stdin_once
from cardkit.cli._progress import progress_bar, show_progress
from cardkit.visible import visible


@guarded
def simulate_command(
    deck: Annotated[Path, typer.Argument(help="Deck file (.deck text or .json) of any game; - reads standard input.", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", help="Number of simulated games.")] = 10_000,
    turns: Annotated[int, typer.Option("--turns", "-t", help="Turns per game (the player's own turns); "
                                                             "squad games deal once and ignore it.")] = 6,
    seed: SeedOption = 1,
    second: Annotated[bool, typer.Option("--second", help=(
        "Take the second seat. Berserk TCG: the simulated player goes second (and draws on its first turn); "
        "squad games: the second seat's bonus; fleet game: the Berserker moves first."))] = False,
    cities: Annotated[str | None, typer.Option(
        "--cities", help="Berserk TCG: revealed cities per turn as a comma list, e.g. 0,1,1,2,3,4: "
                         "0 to 5, never falling, the last value repeats, and no more than the attacks so far "
                         "could reveal; default min(turn-1, 5).")] = None,
    takes: Annotated[str | None, typer.Option(
        "--takes", help="Berserk TCG: the player's own turns on which it takes a city and draws 2 cards, "
                        "e.g. 2,4; default none (no city draws).")] = None,
    gold: Annotated[int | None, typer.Option("--gold", help="Squad games: gold budget instead of the format's, 0 to 1,000.")] = None,
    silver: Annotated[int | None, typer.Option("--silver", help="Squad games: silver budget instead of the format's, 0 to 1,000.")] = None,
    format_name: FormatOption = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", help="Processes playing the games, this one among them (default: one per core). The result for a --seed is the same "
                             "whatever the number.", show_default=False)] = None,
    as_json: JsonOption = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Also draw the result to this .png or .svg file, in a folder that exists.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing --plot file even if cardkit did not "
                                                        "draw it (never the deck or a special file).")] = False,
) -> None:
    """Simulate many games of DECK and report how it plays; the deck's game picks the simulator.

    Berserk TCG: per turn, how often some card can be opened (95% interval,
    exact value where the maths allows), the mean number of openable cards and
    of cards in hand, each card's chance of having been openable, and the
    chance of decking out; the assumed cities, takes and discard policy head it.

    Berserker fleet game: per turn, side and ship type, how often the hand holds
    a Move, Attack and Defense card the ship can use (exact for the first hand).

    Berserk CCG and Berserk Online: deals of 15 cards, the best squad of each
    and the crystals, gold and silver it leaves unspent.

    The same seed gives the same output. An illegal deck is simulated with a
    warning if every card line resolved.
    """
    from cardkit.outputs import Output
    from cardkit.simulation import SimulationOptions, parse_cities, parse_takes, simulate_file

    target: Output | None = None
    if plot is not None:
        from cardkit.plotting import PLOT, check_plot_target

        target = Output(plot, PLOT, (deck,), force)
        check_plot_target(target)
    stdin_once(deck)
    options = SimulationOptions(games=games, turns=turns, seed=seed, seat="second" if second else "first",
                                cities=parse_cities(cities) if cities is not None else None,
                                takes=parse_takes(takes) if takes is not None else None,
                                gold=gold, silver=silver, format=format_name, jobs=jobs)
    with progress_bar("simulating", show_progress(as_json), total=games) as bar:
        run = simulate_file(deck, options, bar.advance if bar else None)
    for line in run.warnings:
        typer.echo(f"warning: {visible(line)}", err=True)
    if target is not None:
        run.result.plot(target)
    if as_json:
        print_json(run.to_dict())
    else:
        typer.echo(run.result.render_text())
        if plot is not None:
            typer.echo(f"plot written to {plot}")


def register(app: typer.Typer) -> None:
    app.command("simulate")(simulate_command)
