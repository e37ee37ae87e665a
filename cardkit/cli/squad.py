"""`cardkit squad check|best|place`: squads of Berserk Online and the tabletop CCG."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import JsonOption, complete_format, print_json, stdin_once
from cardkit.cli._render import problem_lines, verdict
from cardkit.games.registry import BATTLE_GAMES, in_words
from cardkit.jsonio import input_name
from cardkit.visible import visible

if TYPE_CHECKING:
    from cardkit.games.squad_games.squads.check import SquadReport

squad_app = typer.Typer(
    help="Squads of Berserk Online and the tabletop CCG: crystal budgets, the best squad of a deal, placement.",
    no_args_is_help=True,
)

SquadFormatOption = Annotated[
    str | None, typer.Option("--format", "-f", autocompletion=complete_format, help=f"Squad format ({in_words(BATTLE_GAMES)}); default: the file's.")]
GoldOption = Annotated[
    int | None, typer.Option("--gold", min=0, max=1000, help="Base gold of the table, replacing the format's (default: file, else format).")]
SilverOption = Annotated[
    int | None, typer.Option("--silver", min=0, max=1000, help="Base silver of the table, replacing the format's (default: file, else format).")]


def _seat(value: str | None) -> str | None:
    if value is not None and value not in ("first", "second"):
        raise typer.BadParameter("must be 'first' or 'second'")
    return value


def _setting(report: SquadReport) -> str:
    """`(berserk-ccg, seat second, 1 re-deal(s))`: what the budget was derived for."""
    return f"({report.format}, seat {report.seat}, {report.redeals} re-deal(s))"


def render_ledger(report: SquadReport, title: str) -> str:
    """`title` as given, the ledger's text, and every problem of the report."""
    from cardkit.games.squad_games.squads.ledger import ledger_text

    lines = [title, ledger_text(report.ledger)]
    if report.problems:
        lines.append("  problems:")
        lines += problem_lines(report.problems)
    return "\n".join(lines)


@squad_app.command("check")
@guarded
def check_command(
    squad: Annotated[Path, typer.Argument(help="Squad file: JSON (schemas/squad.schema.json) or the text form; - reads standard input.")],
    format_name: SquadFormatOption = None,
    gold: GoldOption = None,
    silver: SilverOption = None,
    as_json: JsonOption = False,
) -> None:
    """Is SQUAD legal? Shows the crystal ledger and every problem. Exit 0 legal, 1 illegal, 2 unreadable."""
    from cardkit.games.squad_games.squads.budget import squad_rules
    from cardkit.games.squad_games.squads.check import check_squad
    from cardkit.games.squad_games.squads.read import read_squad_file

    stdin_once(squad)
    sq = read_squad_file(squad, format_name)
    report = check_squad(sq, squad_rules(sq.format or ""), gold, silver)
    if as_json:
        print_json(report.to_dict())
    else:
        verdict_text = verdict(report.legal, report.problems)
        typer.echo(render_ledger(report, f"{visible(input_name(squad))}: {verdict_text} {_setting(report)}"))
    if not report.legal:
        raise typer.Exit(EXIT_FINDING)


@squad_app.command("best")
@guarded
def best_command(
    deal: Annotated[Path, typer.Argument(help="Deal file: JSON {format, seat, dealt: [...]}, a squad file, or a text list; - reads standard input.")],
    format_name: SquadFormatOption = None,
    seat: Annotated[str | None, typer.Option("--seat", callback=_seat, help="first or second (default: the file's, else first).")] = None,
    redeals: Annotated[int | None, typer.Option("--redeals", min=0, max=100, help="Re-deals taken, 1 gold each (default: the file's, else 0).")] = None,
    gold: GoldOption = None,
    silver: SilverOption = None,
    as_json: JsonOption = False,
) -> None:
    """The legal squad of DEAL spending most crystals (ties: more cards, then more elite cards), with its ledger."""
    from cardkit.games.squad_games.squads.budget import squad_rules
    from cardkit.games.squad_games.squads.check import best_for_file
    from cardkit.games.squad_games.squads.read import read_squad_file

    stdin_once(deal)
    sq = read_squad_file(deal, format_name)
    result = best_for_file(sq, squad_rules(sq.format or ""), seat, redeals, gold, silver)
    report = result.report
    if as_json:
        print_json(result.to_dict())
    else:
        chosen = f"{len(result.chosen)} card{'' if len(result.chosen) == 1 else 's'}"
        typer.echo(render_ledger(report, f"{visible(input_name(deal))}: best squad of {len(result.deal)} dealt cards: {chosen}, "
                                         f"{result.spent} crystals {_setting(report)}"))
        rest = [visible(c.label) for i, c in enumerate(result.deal) if i not in result.chosen]
        typer.echo(f"  not chosen: {', '.join(rest) or 'none'}")
    if not report.legal:
        raise typer.Exit(EXIT_FINDING)


@squad_app.command("place")
@guarded
def place_command(
    placement: Annotated[Path, typer.Argument(help="Placement file (JSON, schemas/placement.schema.json); - reads standard input.")],
    as_json: JsonOption = False,
) -> None:
    """Check PLACEMENT, a squad arranged on its half of the 6x5 field. Exit 0 legal, 1 illegal, 2 unreadable.

    Squares are a1..e3 of the player's own half (row 1 at the front). The
    first player uses the centre 3x3 (b-d), the second also a1 and e1; past
    nine cards on squares a2, a3, e2, e3 open, and the first player's a1/e1
    last. Flyers and terrains go to the reserve; a symbiote lies on its host.
    """
    from cardkit.games.squad_games.squads.placement import check_placement, read_placement, render_half

    stdin_once(placement)
    report = check_placement(read_placement(placement), input_name(placement))
    if as_json:
        print_json(report.to_dict())
    else:
        verdict_text = verdict(report.legal, report.problems)
        typer.echo(f"{visible(input_name(placement))}: {verdict_text} ({report.format}, seat {report.seat})")
        typer.echo(render_half(report))
        if report.problems:
            typer.echo("  problems:")
            typer.echo("\n".join(problem_lines(report.problems)))
    if not report.legal:
        raise typer.Exit(EXIT_FINDING)


def register(app: typer.Typer) -> None:
    app.add_typer(squad_app, name="squad")
