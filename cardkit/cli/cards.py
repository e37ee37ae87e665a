"""`cardkit cards search|show`."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from cardkit.cli._errors import EXIT_FINDING, guarded
from cardkit.cli._options import GameOption, JsonOption, print_json
from cardkit.visible import visible

SEARCH_HELP = """Search cards by name and field filters.

QUERY is words and filters, e.g. 'Guts level<=2 colour:black unique:yes',
'element:forest elite:yes cost>=5', 'game:berserk-ccg type:flyer',
'Koch', '(c:red or c:black) -t:city lv<=2 order:cost'. Each word must
begin a word of the name, its transliteration or the id (case, ё/е and
Latin/Cyrillic spelling ignored; Dikiy, Dikij and Dikii all find Дикий);
a quoted phrase ('"Moonlight Raiders"') matches those words side by side,
in that order. Several arguments are joined into one query, so the words
need no quotes: cardkit cards search colour:black level=2. Filters are
FIELD:VALUE or FIELD<op>NUMBER with <, <=, >, >=, =, !=. Fields: game
(g), id, name, set (s), kind (t, type), colour (c, color), element (e:
steppe, mountains, forest, swamps, darkness, neutral), rarity (r), level
(lv, lvl), cost, elite, unique, mercenary (yes/no). A field a card's
game lacks never matches. 'or' and brackets give alternatives, '-'
negates a term, 'order:FIELD' (and 'direction:desc') sorts; otherwise
exact names come first, then names that begin with the words, then
catalogue order. With no match, close names are suggested. Exit 0 with
matches, 1 with none, 2 on a bad query.
"""

cards_app = typer.Typer(help="Search the cards of every game and show one card.", no_args_is_help=True)

LimitOption = Annotated[int | None, typer.Option("--limit", "-n", min=1, help="Show at most N cards (default: all).")]


def _place(colour: str | None, elements: str | None) -> str:
    if colour:
        return colour
    if elements is None:
        return ""
    return elements.replace(",", "+") or "neutral"


def _table(rows: list[list[str]]) -> list[str]:
    rows = [[visible(cell) for cell in row] for row in rows]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]


@cards_app.command("search", help=SEARCH_HELP)
@guarded
def search_command(
    query: Annotated[list[str], typer.Argument(
        help="Words and FIELD:VALUE / FIELD<op>NUMBER filters; several arguments are one query.", show_default=False)],
    game: GameOption = None,
    limit: LimitOption = None,
    as_json: JsonOption = False,
) -> None:
    from cardkit.cli._progress import announce_first_build
    from cardkit.db.search import search_cards

    announce_first_build()
    # The shell has already split the words; quotes it kept (a '"quoted phrase"') still reach the parser.
    result = search_cards(" ".join(query), game=game, limit=limit)
    if as_json:
        print_json(result.to_dict())
    elif result.hits:
        rows = [["GAME", "ID", "NAME", "LATIN", "KIND", "COST", "COLOUR/ELEMENT", "LEVEL"]]
        for h in result.hits:
            rows.append([
                h.game, h.id, h.name, h.latin if h.latin != h.name else "", h.kind or "",
                "" if h.cost is None else str(h.cost), _place(h.colour, h.elements),
                "" if h.level is None else str(h.level),
            ])
        for line in _table(rows):
            typer.echo(line)
        shown = f"{len(result.hits)} of {result.total}" if len(result.hits) < result.total else str(result.total)
        typer.echo(f"{shown} card(s)")
    else:
        typer.echo("no cards match" + (f"; did you mean {', '.join(result.suggestions)}?" if result.suggestions else ""))
    if not result.total:
        raise typer.Exit(EXIT_FINDING)


def _readable(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(_readable(v) for v in value) if value else "-"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_readable(v)}" for k, v in value.items()) if value else "-"
    return str(value)


@cards_app.command("show")
@guarded
def show_command(
    card: Annotated[str, typer.Argument(help="A card id (BK1-9 works), a name in any case or script, or NAME (ID).")],
    game: GameOption = None,
    as_json: JsonOption = False,
) -> None:
    """Show every field of one card. An ambiguous name lists the candidates (exit 1)."""
    from cardkit.db.search import find_card

    found = find_card(card, game=game)
    if as_json:
        print_json(found.to_dict())
        return
    fields = found.to_dict()
    width = max(len(k) for k in fields)
    for key, value in fields.items():
        typer.echo(f"{key:{width}}  {visible(_readable(value))}")


def register(app: typer.Typer) -> None:
    app.add_typer(cards_app, name="cards")
