"""The published page of an event: the metagame, then every legal deck's list, in one self-contained HTML file.

The statistics come from the event's one table of deck cards (`cardkit.tournament.metagame`);
the page is the Jinja2 template `tournament/publish.html`, in the web UI's style, readable on
a phone. Every text a player wrote is escaped. Illegal, unreadable and missing submissions
are listed by name only: their lists are not what will be played.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from cardkit import __version__
from cardkit.decks.model import SECTIONS
from cardkit.outputs import Kind, Output, file_head
from cardkit.tournament.check import EventCheck
from cardkit.tournament.errors import PageNotHtml, TablesNotInAFolder
from cardkit.tournament.metagame import CARD_COLUMNS, COLUMNS, DECK_COLUMNS, TABLES, Metagame, Row, metagame
from cardkit.tournament.pages import CardUrl, card_labels, card_links, mix_fill, render
from cardkit.visible import visible

__all__ = ["GENERATOR", "Metagame", "metagame", "render_page", "render_decklists", "write_page", "write_tables", "check_page_target", "check_tables_target"]

GENERATOR = '<meta name="generator" content="cardkit tournament publish">'
"""Marks the page as cardkit's own."""
TOP_CARDS_CHARTED = 20

@lru_cache(maxsize=4096)
def _header_line(key: str, value: str) -> str:
    """`key: value` when the deck format reads it back as exactly that header; else the same as a `#` comment.

    A value such as `Hawks x3` reads as a card line and `Team #1` loses its comment, so either
    would make the copied list another deck; the reader still sees the name, the parser skips it.
    """
    from cardkit.decks.parse import parse_text

    line = f"{key}: {visible(value)}"
    parsed = parse_text(line)
    if parsed.entries or parsed.problems or parsed.header != {key: visible(value)}:
        return f"# {line}"
    return line


def deck_text(deck: dict[str, Any], cards: list[dict[str, Any]], fmt: str | None) -> list[str]:
    """The deck as lines of the text deck format cardkit reads (as `deck convert --to text` writes it):
    header lines, `Main`, `Side` (only when it has cards), each card as `COUNT Name (ID)`.

    Values are shown as the page shows them (`visible`); a header the format can't hold is a comment."""
    header = [("game", deck["game"]), ("format", fmt), ("name", deck["name"]), ("player", deck["player"])]
    lines = [_header_line(key, str(value)) for key, value in header if value and str(value).strip()]
    for section, title in (("main", "Main"), ("side", "Side")):
        entries = [c for c in cards if c["section"] == section]
        if entries or section == "main":
            lines += ["", title] + [f"{int(c['count'])} {c['name']} ({c['card']})" for c in entries]
    return lines


def _decklist(deck: dict[str, Any], cards: list[dict[str, Any]], fmt: str | None, links: CardUrl,
              macros: Any, items: dict[Any, str]) -> dict[str, Any]:
    """One legal deck for the template: main then side, grouped by kind with the count of each group,
    each group's cards as its list items (the template's `card_item`), and the deck's text (`deck_text`)
    as its box's lines (`text_line`), from `macros` (`_macros`); `items` keeps each item and line rendered.
    """
    from markupsafe import Markup

    game = deck["game"]
    sections = []
    for section in SECTIONS:
        kinds: dict[str, list[dict[str, Any]]] = {}
        for r in cards:
            if r["section"] == section:
                kinds.setdefault(r["kind"] or "other", []).append(r)
        if not kinds:
            continue
        totals = {kind: sum(int(r["count"]) for r in kinds[kind]) for kind in kinds}
        groups = []
        for kind in sorted(kinds):
            made = []
            for r in kinds[kind]:
                key = (game, r["card"], r["name"], int(r["count"]))
                item = items.get(key)
                if item is None:
                    item = items[key] = macros.card_item(key[3], key[2], links(game, key[1]), key[1])
                made.append(item)
            # Each item is the macro's escaped Markup already: joined as text and marked once, not escaped again.
            groups.append({"kind": kind, "total": totals[kind], "listed": Markup("".join(made))})
        sections.append({"title": section.title(), "total": sum(totals.values()), "groups": groups})
    text = []
    for line in deck_text(deck, cards, fmt):
        made_line = items.get(line)
        if made_line is None:
            made_line = items[line] = macros.text_line(line)
        text.append(made_line)
    return {**deck, "sections": sections, "text": Markup("".join(text))}


def _macros() -> Any:
    """The template `_decklist.html`'s macros: `decklist(deck)` for one deck's section of the page, `card_item(count,
    name, link or None, id)` for one card of it, `text_line(line)` for one line of its text box, each giving
    autoescaped Markup. A big event lists tens of thousands of cards, mostly the same few thousand items and
    lines: each distinct one is rendered once and reused, where a loop in the page rendered every one."""
    from cardkit.tournament.pages import environment

    return environment().get_template("_decklist.html").module


def render_decklists(cards: list[Row], decks: list[Row], formats: dict[str, str | None],
                     card_url: str | None = None) -> str:
    """The sections of the page for `decks` (`DECK_COLUMNS` rows, in their order), their cards from `cards`
    (`CARD_COLUMNS` rows), each deck's copied list in its format by file (`formats`), as autoescaped Markup.
    """
    from markupsafe import Markup

    links: CardUrl = card_links(card_url)
    macros = _macros()
    items: dict[Any, str] = {}
    by_deck: dict[int, list[dict[str, Any]]] = {}
    for row in cards:
        by_deck.setdefault(row[0], []).append(dict(zip(CARD_COLUMNS, row)))
    made = []
    for row in decks:
        deck = dict(zip(DECK_COLUMNS, row))
        made.append(macros.decklist(_decklist(deck, by_deck.get(int(deck["deck"]), []), formats.get(deck["file"]),
                                              links, macros, items)))
    return Markup("".join(made))


def deck_formats(result: EventCheck) -> dict[str, str | None]:
    """Each submission's format as its copied list states it, by file: the event's, else (without an event
    format each deck was checked in its own, which its list must keep) the deck's own."""
    return {s.path: result.format or s.report.format for s in result.submissions}


def render_page(result: EventCheck, meta: Metagame | None = None, card_url: str | None = None,
                decklists: str | None = None) -> str:
    """The published page of `result` as HTML text; cards link to their pages under `card_url` (see `card_links`).
    `decklists`: the decks' sections already rendered (`render_decklists`)."""
    meta = meta or metagame(result)
    links: CardUrl = card_links(card_url)
    decks = meta.records("decks")
    mixes = meta.records("mixes")
    cards = meta.records("cards")
    sizes = meta.records("sizes")
    if decklists is None:
        decklists = render_decklists(meta.rows("deck_cards"), meta.rows("decks"), deck_formats(result), card_url)
    many_games = len({d["game"] for d in decks}) > 1
    top = cards[:TOP_CARDS_CHARTED]
    summary = [("legal decks published", len(decks)), ("mixes", len(mixes)), ("different cards", len(cards)),
               ("not published", len(meta.unlisted))]
    return render(
        "publish.html", generator="cardkit tournament publish", title=f"{result.event}: decklists and metagame",
        format=result.format, version=__version__, summary=summary, many_games=many_games, card_url=links,
        decks=decks, mixes=mixes, cards=cards, sizes=sizes, unlisted=meta.unlisted,
        mix_bars=[{"label": f"{m['game']}: {m['mix']}" if many_games else str(m["mix"]), "value": int(m["decks"]),
                   "fill": mix_fill(str(m["mix"]))} for m in mixes],
        card_bars=[{"label": label, "value": int(c["decks"]), "fill": None} for label, c in zip(card_labels(top), top)],
        size_bars=[{"label": f"{r['game']}: {r['main']}" if many_games else f"{r['main']} cards", "value": int(r["decks"]),
                    "fill": None} for r in sizes],
        decklists=decklists)


def is_published_page(path: Path) -> bool:
    """True for a page `write_page` wrote: cardkit's generator tag near its top."""
    head = file_head(path)
    return head is not None and head.startswith(b"<!DOCTYPE html>") and GENERATOR.encode() in head


# An earlier published page is replaced freely; any other file only with `force`.
PUBLISHED_PAGE = Kind("published page", is_published_page, forceable=True)


def check_page_target(out: str | os.PathLike[str], force: bool = False,
                      inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Refuse, before any work, a page `out` that is not an .html file or that the guarded writer would refuse."""
    if Path(out).suffix.lower() not in (".html", ".htm"):
        raise PageNotHtml(str(out))
    Output(Path(out), PUBLISHED_PAGE, tuple(inputs), force).check()


def write_page(result: EventCheck, out: str | os.PathLike[str], force: bool = False,
               inputs: Iterable[str | os.PathLike[str]] = (), card_url: str | None = None,
               csv_dir: str | os.PathLike[str] | None = None) -> Metagame:
    """Write the published page of `result` to `out` through the guarded writer; the metagame it shows.

    Never over one of the event's files or `inputs`, a special file, or a file that is not
    an earlier published page unless `force`. With `csv_dir`, the metagame tables too (as
    `write_tables` writes them), in one step with the page: every file or none is written.
    """
    from cardkit.outputs import write_together
    from cardkit.tournament.batch import collector_paused
    from cardkit.tournament.reports import new_inputs, result_inputs

    with collector_paused():
        meta = metagame(result)
        given = tuple(inputs)
        more = tuple(new_inputs(given, result_inputs(result)))
        files: list[tuple[Output, str | bytes]] = [
            (Output(Path(out), PUBLISHED_PAGE, given, force).with_inputs(more), render_page(result, meta, card_url))]
        if csv_dir is not None:
            files += [(table.with_inputs(more), text) for table, text in _table_files(meta, csv_dir, force, given)]
        write_together(files)
    return meta


def table_columns(name: str) -> tuple[str, ...] | None:
    """The header of the metagame table `name` as `write_tables` writes it; None for no such table."""
    return COLUMNS.get(name)


def is_metagame_table(path: Path) -> bool:
    """True for a CSV `write_tables` wrote: its first line is exactly the header of the table its name says."""
    columns = table_columns(path.name.removesuffix(".csv"))
    head = file_head(path, 1024)
    return columns is not None and head is not None and head.split(b"\n", 1)[0] == ",".join(columns).encode()


# An earlier table is replaced freely (the page's statistics change as decks arrive); any other file only with `force`.
METAGAME_TABLE = Kind("metagame table", is_metagame_table, forceable=True)


def _table_outputs(folder: str | os.PathLike[str], force: bool, inputs: Iterable[str | os.PathLike[str]]) -> list[Output]:
    return [Output(path, METAGAME_TABLE, tuple(inputs), force) for path in table_paths(folder)]


def table_paths(folder: str | os.PathLike[str]) -> list[Path]:
    """The files `write_tables` (and `write_page` with a `csv_dir`) writes in `folder`, in order."""
    return [Path(folder) / f"{name}.csv" for name in TABLES]


def check_tables_target(folder: str | os.PathLike[str], force: bool = False,
                        inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Refuse, before any work, a tables `folder` that is not a folder or holds a file the guarded writer would refuse."""
    target = Path(folder)
    if (target.exists() or target.is_symlink()) and not target.is_dir():
        raise TablesNotInAFolder(str(folder))
    for output in _table_outputs(target, force, inputs):
        output.check()


def render_table(columns: tuple[str, ...], rows: Iterable[Row]) -> str:
    """A metagame table as CSV: its columns, then each cell made visible and guarded against spreadsheet formulas."""
    from cardkit.visible import csv_cell

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(["" if v is None else csv_cell(v) for v in row] for row in rows)
    return out.getvalue()


def write_tables(meta: Metagame, folder: str | os.PathLike[str], force: bool = False,
                 inputs: Iterable[str | os.PathLike[str]] = ()) -> list[Path]:
    """Write each metagame table (`TABLES`) as `folder/NAME.csv` through the guarded writer, every one or none;
    the files written."""
    from cardkit.outputs import write_together

    files = _table_files(meta, folder, force, inputs)
    write_together(files)
    return [output.path for output, _ in files]


def _table_files(meta: Metagame, folder: str | os.PathLike[str], force: bool,
                 inputs: Iterable[str | os.PathLike[str]]) -> list[tuple[Output, str | bytes]]:
    """Each metagame table's output in `folder` and its CSV text."""
    return [(output, render_table(COLUMNS[output.path.stem], meta.rows(output.path.stem)))
            for output in _table_outputs(folder, force, inputs)]
