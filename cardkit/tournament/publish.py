"""The published page of an event: the metagame, then every legal deck's list, in one self-contained HTML file.

The tables and statistics are pandas DataFrames (pandas is imported here and nowhere
else, so other commands don't pay for it); the charts are SVG drawn into the page. Every
text a player wrote is escaped. Illegal, unreadable and missing submissions are listed
by name only: their lists are not what will be played.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

from cardkit import __version__
from cardkit.catalogue.store import load_game
from cardkit.decks.model import SECTIONS
from cardkit.errors import BadArgument
from cardkit.outputs import Kind, Output, file_head
from cardkit.tournament.check import EventCheck, Submission, Verdict
from cardkit.tournament.metagame import card_kind, mix
from cardkit.visible import visible

if TYPE_CHECKING:
    import pandas as pd

GENERATOR = '<meta name="generator" content="cardkit tournament publish">'
"""Marks the page as cardkit's own."""
TOP_CARDS_CHARTED = 20


def _html(value: object) -> str:
    """User text for the page: made visible (controls and bidi overrides shown as escapes), then HTML-escaped,
    quotes included (it also goes into attributes)."""
    return escape(visible(value), quote=True)


@dataclass
class Metagame:
    """The event's field as DataFrames: `decks` (one row per legal deck), `lists` (one row per card, section
    and deck), `mixes` (decks per colour or element mix), `cards` (each card: decks, copies, fewest, most),
    `sizes` (decks per main-deck size); `unlisted` names the submissions that are not published."""

    decks: pd.DataFrame
    lists: pd.DataFrame
    mixes: pd.DataFrame
    cards: pd.DataFrame
    sizes: pd.DataFrame
    unlisted: list[tuple[str, str]]


def _label(s: Submission) -> str:
    return s.player or (os.path.basename(s.path) if s.path else "(no name)")


def metagame(result: EventCheck) -> Metagame:
    """The DataFrames of `result`'s legal decks; the rest by name and verdict only."""
    import pandas as pd

    legal = sorted((s for s in result.submissions if s.verdict is Verdict.LEGAL),
                   key=lambda s: ((s.player or "").casefold(), s.path))
    deck_rows: list[dict[str, Any]] = []
    list_rows: list[dict[str, Any]] = []
    for i, s in enumerate(legal):
        game = s.report.game or ""
        catalogue = load_game(game).cards
        deck_rows.append({"deck": i, "player": s.player or "", "name": s.name or "", "file": s.path, "game": game,
                          "mix": mix(game, (c.card for c in s.cards if c.section == "main")) or "",
                          "main": s.report.counts["main"], "side": s.report.counts["side"]})
        for c in s.cards:
            card = catalogue[c.card]
            list_rows.append({"deck": i, "game": game, "section": c.section, "card": c.card, "name": card["name"],
                              "kind": card_kind(card), "copies": c.copies, "line": c.line})
    decks = pd.DataFrame(deck_rows, columns=["deck", "player", "name", "file", "game", "mix", "main", "side"])
    lists = pd.DataFrame(list_rows, columns=["deck", "game", "section", "card", "name", "kind", "copies", "line"])
    per_game = decks.groupby("game")["deck"].count().rename("field")

    mixes = decks.groupby(["game", "mix"], as_index=False).agg(decks=("deck", "count"))
    mixes = mixes.join(per_game, on="game")
    mixes["percent"] = (100 * mixes["decks"] / mixes["field"]).round(1)
    mixes = mixes.drop(columns="field").sort_values(["game", "decks", "mix"], ascending=[True, False, True])

    per_deck = lists.groupby(["deck", "game", "card", "name", "kind"], as_index=False)["copies"].sum()
    cards = per_deck.groupby(["game", "card", "name", "kind"], as_index=False).agg(
        decks=("deck", "nunique"), copies=("copies", "sum"), fewest=("copies", "min"), most=("copies", "max"))
    cards = cards.join(per_game, on="game")
    cards["percent"] = (100 * cards["decks"] / cards["field"]).round(1)
    cards["average"] = (cards["copies"] / cards["decks"]).round(2)
    cards = cards.drop(columns="field").sort_values(["decks", "copies", "name"], ascending=[False, False, True])

    sizes = decks.groupby(["game", "main"], as_index=False).agg(decks=("deck", "count")).sort_values(["game", "main"])
    unlisted = sorted(((_label(s), s.verdict.value) for s in result.submissions if s.verdict is not Verdict.LEGAL),
                      key=lambda x: (x[0].casefold(), x[1]))
    return Metagame(decks.reset_index(drop=True), lists, mixes.reset_index(drop=True), cards.reset_index(drop=True),
                    sizes.reset_index(drop=True), unlisted)


# --- charts: horizontal bars drawn as SVG, so the page needs no script or file to show them

_BAR = "#4a6fa5"
_COLOURS = {"white": "#d9d4c5", "green": "#5c9b52", "black": "#3b3b3b", "red": "#b8483e", "steppe": "#c9a55a",
            "forest": "#4f8a3c", "mountains": "#8a8f99", "swamps": "#5f7a5a", "darkness": "#5b4a78"}


def _fill(label: str) -> str:
    parts = [_COLOURS.get(p) for p in label.split("+")]
    return parts[0] if len(parts) == 1 and parts[0] else _BAR


def bar_chart(title: str, labels: list[str], values: list[float], fills: list[str] | None = None) -> str:
    """An SVG bar chart, one bar per label (coloured by `fills`, else all alike); labels are escaped, and the
    chart is labelled for screen readers."""
    height_per_bar, label_width, bar_width = 22, 260, 360
    height = 30 + height_per_bar * len(labels)
    top = max(values) if values else 1
    top = top or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{_html(title)}" width="{label_width + bar_width + 70}" '
             f'height="{height}" viewBox="0 0 {label_width + bar_width + 70} {height}" class="chart">',
             f'<title>{_html(title)}</title>',
             f'<text x="0" y="16" font-weight="bold" font-size="14">{_html(title)}</text>']
    for i, (label, value) in enumerate(zip(labels, values)):
        y = 26 + i * height_per_bar
        width = max(1.0, bar_width * value / top)
        shown = label if len(label) <= 38 else label[:37] + "…"
        fill = fills[i] if fills else _BAR
        parts.append(f'<text x="{label_width - 6}" y="{y + 14}" text-anchor="end" font-size="12">{_html(shown)}</text>'
                     f'<rect x="{label_width}" y="{y + 2}" width="{width:.1f}" height="{height_per_bar - 6}" fill="{fill}" '
                     f'stroke="#333" stroke-width="0.5"><title>{_html(label)}: {value:g}</title></rect>'
                     f'<text x="{label_width + width + 4:.1f}" y="{y + 14}" font-size="12">{value:g}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --- the page

_CSS = """
body{font-family:system-ui,sans-serif;margin:2rem;color:#222;max-width:70rem}
h1{margin-bottom:.2rem} .meta{color:#555;margin-top:0}
.summary span{display:inline-block;margin:.2rem .6rem .2rem 0;padding:.3rem .7rem;border-radius:.4rem;background:#eee}
table{border-collapse:collapse;margin:.6rem 0 1.2rem} th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#f3f3f3} td.n{text-align:right;font-variant-numeric:tabular-nums}
th.sortable{cursor:pointer;text-decoration:underline dotted}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem;margin:1rem 0} .chart{max-width:100%;height:auto}
.decklist{border-top:1px solid #ddd;padding-top:.4rem;margin-top:.8rem;break-inside:avoid}
.decklist h3{margin:.2rem 0} .decklist .who{color:#555}
.sections{display:flex;flex-wrap:wrap;gap:2rem} .sections h4{margin:.4rem 0 .2rem} .sections ul{margin:.1rem 0 .4rem;padding-left:1.2rem}
.kind{font-style:italic;color:#555}
"""

# Sorting the deck index by a column, in the page itself: no file or network is needed.
_SCRIPT = """
document.querySelectorAll('table.sortable-table').forEach(function(table){
  table.querySelectorAll('th.sortable').forEach(function(th, col){
    th.addEventListener('click', function(){
      var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
      var dir = th.dataset.dir === 'asc' ? -1 : 1; th.dataset.dir = dir === 1 ? 'asc' : 'desc';
      var numeric = th.classList.contains('num');
      rows.sort(function(a, b){
        var x = a.cells[col].textContent, y = b.cells[col].textContent;
        return dir * (numeric ? (parseFloat(x) - parseFloat(y)) : x.localeCompare(y, undefined, {sensitivity: 'base'}));
      });
      rows.forEach(function(r){ body.appendChild(r); });
    });
  });
});
"""


def _table(frame: pd.DataFrame, columns: list[tuple[str, str]], numeric: Iterable[str] = (), sortable: bool = False,
           links: str | None = None) -> str:
    """An HTML table of `frame`'s `columns` ((column, heading) pairs), every cell escaped."""
    numeric = set(numeric)
    # The rows come sorted by the first column, so a click on it sorts the other way first.
    first = ' data-dir="asc"' if sortable else ""
    head = "".join(f'<th class="{"sortable" if sortable else ""}{" num" if c in numeric else ""}"'
                   f'{first if i == 0 else ""}>{_html(h)}</th>'
                   for i, (c, h) in enumerate(columns))
    rows = []
    for record in frame.to_dict("records"):
        cells = []
        for c, _ in columns:
            text = _html(record[c])
            if links and c == links:
                text = f'<a href="#deck-{int(record["deck"])}">{text or "(no name)"}</a>'
            cells.append(f'<td class="n">{text}</td>' if c in numeric else f"<td>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    table_class = ' class="sortable-table"' if sortable else ""
    return f"<table{table_class}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _decklist(deck: dict[str, Any], cards: list[dict[str, Any]]) -> str:
    """One legal deck's list: main then side, grouped by kind with the count of each group.

    Plain records, not DataFrame filters: a big event has thousands of lists, and a
    DataFrame operation per list cost seconds.
    """
    sections = []
    for section in SECTIONS:
        kinds: dict[str, list[dict[str, Any]]] = {}
        for r in cards:
            if r["section"] == section:
                kinds.setdefault(r["kind"] or "other", []).append(r)
        if not kinds:
            continue
        groups = []
        for kind in sorted(kinds):
            items = "".join(f"<li>{int(r['copies'])} {_html(r['name'])} <small>({_html(r['card'])})</small></li>"
                            for r in kinds[kind])
            groups.append(f'<div class="kind">{_html(kind)} ({sum(int(r["copies"]) for r in kinds[kind])})</div>'
                          f"<ul>{items}</ul>")
        total = sum(int(r["copies"]) for group in kinds.values() for r in group)
        sections.append(f'<div><h4>{section.title()} ({total})</h4>{"".join(groups)}</div>')
    title = deck["name"] or "(no name)"
    mix_text = f" · {_html(deck['mix'])}" if deck["mix"] else ""
    return (f'<section class="decklist" id="deck-{int(deck["deck"])}">'
            f'<h3>{_html(deck["player"])}</h3><p class="who">{_html(title)}{mix_text} · {_html(deck["game"])}</p>'
            f'<div class="sections">{"".join(sections)}</div></section>')


def _card_labels(cards: pd.DataFrame) -> list[str]:
    """Card names, with the id where two cards of the list share a name (three TCG cards are called Mercenary)."""
    names = [str(n) for n in cards["name"]]
    return [f"{n} ({c})" if names.count(n) > 1 else n for n, c in zip(names, cards["card"])]


def render_page(result: EventCheck, meta: Metagame | None = None) -> str:
    """The published page of `result` as HTML text."""
    meta = meta or metagame(result)
    many_games = meta.decks["game"].nunique() > 1
    title = f"{result.event}: decklists and metagame"
    summary = {"legal decks published": len(meta.decks), "mixes": len(meta.mixes), "different cards": len(meta.cards),
               "not published": len(meta.unlisted)}
    counts = "".join(f"<span>{_html(k)}: <b>{v}</b></span>" for k, v in summary.items())
    parts = [f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">{GENERATOR}'
             '<meta name="viewport" content="width=device-width, initial-scale=1">'
             f"<title>{_html(title)}</title><style>{_CSS}</style></head><body>",
             f"<h1>{_html(title)}</h1>",
             f'<p class="meta">format {_html(result.format or "each deck its own")} · published by cardkit {_html(__version__)}</p>',
             f'<p class="summary">{counts}</p>']
    if not meta.decks.empty:
        game_label = (lambda r: f"{r['game']}: {r['mix']}") if many_games else (lambda r: str(r["mix"]))
        mix_labels = [game_label(r) for r in meta.mixes.to_dict("records")]
        top = meta.cards.head(TOP_CARDS_CHARTED)
        sizes = meta.sizes
        parts += ["<h2>Metagame</h2>", '<div class="charts">',
                  bar_chart("Decks per colour or element mix", mix_labels, meta.mixes["decks"].tolist(),
                            [_fill(str(m)) for m in meta.mixes["mix"]]),
                  bar_chart(f"Most played cards (decks playing them, top {len(top)})",
                            _card_labels(top), top["decks"].tolist()),
                  bar_chart("Main deck sizes (decks)", [f"{r['game']}: {r['main']}" if many_games else f"{r['main']} cards"
                                                       for r in sizes.to_dict("records")], sizes["decks"].tolist()),
                  "</div>", "<h3>Colour and element mixes</h3>",
                  _table(meta.mixes, [("game", "game"), ("mix", "mix"), ("decks", "decks"), ("percent", "% of the field")],
                         numeric=("decks", "percent")),
                  "<h3>Cards played</h3>",
                  _table(meta.cards, [("name", "card"), ("card", "id"), ("kind", "kind"), ("decks", "decks"),
                                      ("percent", "% of decks"), ("copies", "copies"), ("average", "per deck"),
                                      ("fewest", "fewest"), ("most", "most")] + ([("game", "game")] if many_games else []),
                         numeric=("decks", "percent", "copies", "average", "fewest", "most")),
                  "<h3>Deck sizes</h3>",
                  _table(meta.sizes, [("game", "game"), ("main", "main deck cards"), ("decks", "decks")],
                         numeric=("main", "decks")),
                  "<h2>Decks</h2><p>Click a heading to sort.</p>",
                  _table(meta.decks, [("player", "player"), ("name", "deck"), ("mix", "mix"), ("main", "main"),
                                      ("side", "side")] + ([("game", "game")] if many_games else []),
                         numeric=("main", "side"), sortable=True, links="player"),
                  "<h2>Decklists</h2>"]
        by_deck: dict[int, list[dict[str, Any]]] = {}
        for r in meta.lists.to_dict("records"):
            by_deck.setdefault(int(r["deck"]), []).append(r)
        parts += [_decklist(d, by_deck.get(int(d["deck"]), [])) for d in meta.decks.to_dict("records")]
    else:
        parts.append("<p>No legal deck to publish.</p>")
    if meta.unlisted:
        names = "".join(f"<li>{_html(name)} <small>({_html(verdict)})</small></li>" for name, verdict in meta.unlisted)
        parts.append(f"<h2>Not published</h2><p>Submissions that are illegal, unreadable or missing, by name only.</p>"
                     f"<ul>{names}</ul>")
    parts.append(f"<script>{_SCRIPT}</script></body></html>\n")
    return "\n".join(parts)


def is_published_page(path: Path) -> bool:
    """True for a page `write_page` wrote: cardkit's generator tag near its top."""
    head = file_head(path)
    return head is not None and head.startswith(b"<!DOCTYPE html>") and GENERATOR.encode() in head


# An earlier published page is replaced freely; any other file only with --force.
PUBLISHED_PAGE = Kind("published page", is_published_page, forceable=True)


def check_page_target(out: str | os.PathLike[str], force: bool = False,
                      inputs: Iterable[str | os.PathLike[str]] = ()) -> None:
    """Refuse, before any work, an `--out` that is not an .html file or that the guarded writer would refuse."""
    if Path(out).suffix.lower() not in (".html", ".htm"):
        raise BadArgument(f"--out {out}: the page is HTML; give a file ending in .html")
    Output(Path(out), PUBLISHED_PAGE, tuple(Path(p) for p in inputs), force).check()


def write_page(result: EventCheck, out: str | os.PathLike[str], force: bool = False,
               inputs: Iterable[str | os.PathLike[str]] = ()) -> Metagame:
    """Write the published page of `result` to `out` through the guarded writer; the metagame it shows.

    Never over one of the event's files or `inputs`, a special file, or a file that is not
    an earlier published page unless `force`.
    """
    from cardkit.tournament.reports import result_inputs

    meta = metagame(result)
    output = Output(Path(out), PUBLISHED_PAGE, tuple(Path(p) for p in inputs), force).with_inputs(result_inputs(result))
    output.write(render_page(result, meta))
    return meta
