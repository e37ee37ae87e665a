"""cardkit's Datasette plugin: the hooks that give every table a search box, links and flags, and cardkit's pages.

The searches themselves (the query language on tables of cards, words in columns on the others,
`order:` as a table's sort) are `cardkit.web.tablesearch`; this module wires them into Datasette,
links card ids to card pages, reads yes/no flags, marks Russian names `lang="ru"`, and serves the
`/-/search`, `/-/syntax` and `/-/deck` pages. Registered by `cardkit.web.server`, not through an
entry point.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote

from datasette import hookimpl
from datasette.filters import FilterArguments
from datasette.utils import tilde_encode
from markupsafe import Markup, escape

from cardkit.errors import CardkitError
from cardkit.visible import visible
from cardkit.web.tablesearch import (
    ALL_GAMES,
    FOLD_FUNCTION,
    checked_search_filter,
    column_search_filter,
    fold_cell,
    order_columns,
    order_note,
    order_sort,
    plugin_config,
    query_text,
    search_columns,
    search_game,
    searched_table,
)


@hookimpl
def prepare_connection(conn: Any) -> None:
    conn.create_function(FOLD_FUNCTION, 1, fold_cell, deterministic=True)


# Last, so its `supports_search` wins over Datasette's own search filter, which finds no FTS table.
@hookimpl(trylast=True)
def filters_from_request(request: Any, database: str, table: str, datasette: Any) -> FilterArguments | None:
    text = request.args.get("_search", "").strip()
    game = search_game(datasette, database, table)
    if game is None:
        columns = search_columns(datasette, database, table)
        return column_search_filter(text, columns) if columns else None
    if not text:
        return FilterArguments([], {}, [], {"supports_search": True, "search": ""})

    async def checked() -> FilterArguments:
        found = await checked_search_filter(datasette, database, text, game)
        columns = order_columns(datasette, database, table)
        if note := order_note(text, columns):
            found.extra_context["cardkit_order_note"] = note
        # The column the search's `order:` sorts by, which the form does not send on as a chosen sort.
        found.extra_context["cardkit_order_sort"] = sort[1] if (sort := order_sort(text, columns)) else None
        return found

    return checked


# Yes/no columns of the catalogue (stored as 0/1) and of a tournament database.
FLAGS = frozenset({"elite", "is_unique", "unique", "mercenary", "quick", "horde", "flying", "ranged", "unlimited",
                   "loner", "destroys_user", "fires_through_ships", "legal", "ok"})
# Columns holding a card's (or a set's) printed name, marked lang="ru" when Russian.
NAME_COLUMNS = frozenset({"name"})
# Columns of an attached database that hold a catalogue card id.
CARD_COLUMNS = frozenset({"card"})


def is_catalogue(datasette: Any, database: str) -> bool:
    return bool(plugin_config(datasette, database).get("catalogue"))


def catalogue_name(datasette: Any) -> str | None:
    """The name the catalogue is served under, for links from other databases."""
    return next((name for name in datasette.databases if is_catalogue(datasette, name)), None)


def card_url(datasette: Any, database: str, game: str, card_id: str) -> str:
    """The card's page: its row of `cards`, shown by the card template."""
    return str(datasette.urls.row(database, "cards", f"{tilde_encode(game)},{tilde_encode(card_id)}"))


def _link(url: str, text: str) -> Markup:
    return Markup(f'<a href="{escape(url)}">{escape(text)}</a>')


@hookimpl(tryfirst=True)
def render_cell(row: Any, value: Any, column: str, table: str | None, database: str, datasette: Any) -> Markup | None:
    if column in FLAGS and value in (0, 1) and not isinstance(value, float):
        return Markup("yes" if value else "no")
    if column == "elements" and value in ("", "[]") and is_catalogue(datasette, database):
        return Markup("neutral")
    if not isinstance(value, str) or not value:
        return None
    # Every text a page shows is first made visible, as a published page's is (`cardkit.visible`): a
    # player's name can't hide or reverse what follows with ESC or bidi characters. JSON is render.py's.
    shown = value if value.isprintable() or value[:1] in ("[", "{") else visible(value)
    if column in NAME_COLUMNS and lang_of(value):
        return Markup(f'<span lang="ru">{escape(shown)}</span>')
    keys = row.keys() if hasattr(row, "keys") else []
    if column == "id" and is_catalogue(datasette, database) and table not in ("sets", "formats", "berserker_ships", "meta"):
        game = row["game"] if "game" in keys and table in (None, "cards") else (
            search_game(datasette, database, table) if table else None)
        if game and game != ALL_GAMES:
            return _link(card_url(datasette, database, game, value), shown)
        # A query's id without its game: every card of any game with that id.
        return _link(str(datasette.urls.table(database, "cards")) + "?id=" + quote(value), shown)
    if not is_catalogue(datasette, database) and (column in CARD_COLUMNS or (table == "cards" and column == "id")) and (
            catalogue := catalogue_name(datasette)):
        # A tournament database's decklists name the game beside the card: the link goes to that one card.
        game = row["game"] if "game" in keys else None
        if isinstance(game, str) and game:
            return _link(card_url(datasette, catalogue, game, value), shown)
        return _link(str(datasette.urls.table(catalogue, "cards")) + "?id=" + quote(value), shown)
    return Markup(escape(shown)) if shown is not value else None


_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def lang_of(text: Any) -> str | None:
    """The language to mark a name with where it differs from the page's English: "ru" for Cyrillic letters."""
    return "ru" if isinstance(text, str) and _CYRILLIC.search(text) else None


def lang_attribute(text: Any) -> Markup:
    """` lang="ru"` for a Russian name (so screen readers and hyphenation read it as Russian), else nothing."""
    lang = lang_of(text)
    return Markup(f' lang="{lang}"') if lang else Markup("")


def relabel(link: Any, label: str) -> Markup:
    """A row link (`<a href=...>key</a>`) reading `label` instead of the key (marked Russian when it is)."""
    shown = re.sub(r">[^<]*</a>", lambda _: f">{escape(visible(label))}</a>", str(link), count=1)
    return Markup(shown.replace("<a ", f"<a{lang_attribute(label)} ", 1))


_NOT_LAYOUT = re.compile(r"[^\r\n\t]+")


def shown_text(value: Any) -> Any:
    """`value` as a page prints it: a plain string with its control and bidi characters made visible."""
    if value.__class__ is str and not value.isprintable():
        return _NOT_LAYOUT.sub(lambda m: visible(m.group()), value)
    return value


@hookimpl
def prepare_jinja2_environment(env: Any) -> None:
    env.filters["cardkit_relabel"] = relabel
    env.filters["cardkit_lang"] = lang_attribute
    # Every plain string a page prints is made visible, as a published page's values are: a player's name in
    # a page's title or heading (a filter's description) can't hide or reverse text. Markup is the
    # templates' own HTML and stays; line breaks and tabs stay, for the SQL box and preformatted text.
    env.finalize = shown_text


async def _card_page(datasette: Any, database: str, request: Any) -> dict[str, Any]:
    """What the card template shows: the card's facts in words and its other printings."""
    from datasette.utils import urlsafe_components

    from cardkit.web.cardpage import read_card_page

    parts = urlsafe_components(request.url_vars.get("pks", ""))
    if len(parts) != 2:
        return {}
    game, card_id = parts

    def link(other_game: str, other_id: str) -> Markup:
        return _link(card_url(datasette, database, other_game, other_id), other_id)

    card = await datasette.get_database(database).execute_fn(lambda conn: read_card_page(conn, game, card_id, link))
    return {"cardkit_card": card} if card else {}


# Facet values that read as nothing, labelled in words; the link still filters by the stored value.
FACET_LABELS = {"elements": {"": "neutral"}}

# Columns of `cards` left off its HTML page unless asked for with `?_col=`: the row link reads the
# name, and the rest are for search and order. JSON, CSV and filters still have them all.
HIDDEN_COLUMNS = ("name", "data", "position", "name_key", "latin_key", "loose_key", "search_key")


def _suggester(datasette: Any, database: str, text: str, game: str) -> Any:
    """An async function the table template calls only when a search found nothing: (name, link) pairs."""

    async def suggestions() -> list[tuple[str, str]]:
        from cardkit.db.search import close_names
        from cardkit.web.querylimits import time_limited

        try:
            names = await datasette.get_database(database).execute_fn(time_limited(
                datasette, lambda conn: close_names(conn, text, None if game == ALL_GAMES else game)))
        except CardkitError:
            return []
        return [(n, "?_search=" + quote(f'"{n}"')) for n in names]

    return suggestions


def _sorts(datasette: Any, database: str, table: str, request: Any) -> dict[str, Any]:
    """The sort the form's menu offers as chosen, and the one the page has (the column headings show it).

    The menu sends its sort on with the next search, so it holds only a sort someone asked for, and not
    the one the search's `order:` gave nor the table's default: a new `order:` still sorts."""
    asked = next(((key, value) for key in ("_sort", "_sort_desc") if (value := request.args.get(key))), None)
    default = next(((key, value) for key in ("_sort", "_sort_desc")
                    if isinstance(value := datasette.metadata(key[1:], database=database, table=table), str)), None)
    by_search = order_sort(request.args.get("_search", ""), order_columns(datasette, database, table))
    chosen = asked if asked != by_search else None
    return {"sort": chosen[1] if chosen and chosen[0] == "_sort" else None,
            "sort_desc": chosen[1] if chosen and chosen[0] == "_sort_desc" else None,
            "cardkit_sorted_by": asked or default}


@hookimpl
def extra_template_vars(view_name: str, table: str | None, database: str | None, request: Any, datasette: Any) -> Any:
    if not database or request is None:
        return None
    if view_name == "table":
        # No CREATE TABLE under the rows: "What the columns mean" says what each holds.
        extra: dict[str, Any] = {"table_definition": None, "view_definition": None}
        if table and is_catalogue(datasette, database) and (game := search_game(datasette, database, table)):
            extra.update({
                "cardkit_hidden": () if "_col" in request.args or table != "cards" else HIDDEN_COLUMNS,
                "cardkit_suggestions": _suggester(datasette, database, request.args.get("_search", ""), game),
                "cardkit_facet_labels": FACET_LABELS,
                # A game's own table is keyed by id alone: its id links to the card's page, not the bare row.
                "cardkit_card_href": None if game == ALL_GAMES else (
                    lambda card_id: card_url(datasette, database, game, str(card_id)))})
            extra.update(_sorts(datasette, database, table, request))
        return extra
    if view_name != "row" or table != "cards" or not is_catalogue(datasette, database):
        return None

    async def inner() -> dict[str, Any]:
        return await _card_page(datasette, database, request)

    return inner


def _script_data(value: Any) -> str:
    """`value` as JSON that can stand inside a <script> element."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


# A table's search box says what it takes, has a button of its own and the focus; a canned query's parameter with a fixed set of
# values offers them (empty: any). Without JavaScript the box and the fields work as Datasette made them.
SEARCH_BOX_SCRIPT = """const box = document.getElementById("_search");
if (box) {
  box.placeholder = %s;
  box.insertAdjacentHTML("afterend", ' <input type="submit" value="Search">');
  if (!location.hash) box.focus();
}"""
CHOICES_SCRIPT = """for (const [name, values] of Object.entries(%s)) {
  const field = document.querySelector(`form.sql input[name="${CSS.escape(name)}"]`);
  if (!field) continue;
  const menu = document.createElement("select");
  menu.id = field.id; menu.name = field.name;
  for (const value of ["", ...values]) {
    const option = new Option(value || "any", value, false, value === field.value);
    menu.add(option);
  }
  field.replaceWith(menu);
}"""


@hookimpl
def extra_body_script(template: str, database: str | None, request: Any, datasette: Any) -> str | None:
    if not database or request is None:
        return None
    name = request.url_vars.get("table")
    if template.startswith("query") and isinstance(name, str):
        query = (datasette.metadata("queries", database=database) or {}).get(name)
        choices = query.get("choices") if isinstance(query, dict) else None
        return CHOICES_SCRIPT % _script_data(choices) if isinstance(choices, dict) and choices else None
    if template.startswith("table") and isinstance(name, str):
        columns = search_columns(datasette, database, name)
        if columns:
            return SEARCH_BOX_SCRIPT % _script_data("words in " + ", ".join(columns))
        if is_catalogue(datasette, database) and search_game(datasette, database, name):
            return SEARCH_BOX_SCRIPT % _script_data("Koch, c:red lv<=2, e:forest elite:yes")
    return None


async def _checked_deck(request: Any, page: bool = False) -> Any:
    """The `CheckedDeck` of a posted form, pasted or uploaded, checked in a deck-check worker."""
    from cardkit.decks.report import DeckReport
    from cardkit.jsonio import MAX_INPUT_BYTES
    from cardkit.web.deckpage import DEFAULT_NAME, MAX_FORM_BYTES, CheckedDeck, check_posted
    from cardkit.web.deckworkers import deck_check_slot, off_the_loop, read_body

    # The body first, bounded in size and time: a check's place is taken only by a deck that has arrived.
    body = await read_body(request, MAX_FORM_BYTES)
    if body is None:
        return CheckedDeck(DeckReport(path=DEFAULT_NAME, failure=f"the form is over {MAX_FORM_BYTES} bytes; "
                                                                 f"a deck may be at most {MAX_INPUT_BYTES}"),
                           "", None, [])
    with deck_check_slot():
        return await off_the_loop(check_posted, request.headers.get("content-type", ""), body, page)


def _card_href(datasette: Any, game: str | None) -> Any:
    """id -> the card's page in the served catalogue, or None when no catalogue is served."""
    catalogue = catalogue_name(datasette)
    if catalogue is None or game is None:
        return lambda card_id: None
    return lambda card_id: card_url(datasette, catalogue, game, card_id)


async def deck_page(datasette: Any, request: Any) -> Any:
    """GET: the form; POST (field `deck`): the verdict, the problems, the form again, the summary, the list."""
    from datasette.utils.asgi import Response

    context: dict[str, Any] = {"deck_text": "", "report": None, "lines": []}
    if request.method == "POST":
        checked = await _checked_deck(request, page=True)
        report, text, notes = checked.report, checked.text, checked.notes
        by_line: dict[int, list[Any]] = {}
        for p in report.all_problems:
            by_line.setdefault(p.line or 0, []).append(p)
        lines = [(n, line, by_line.get(n, [])) for n, line in enumerate(text.split("\n"), start=1)]
        if len(lines) > MAX_PAGE_LINES:
            # A 1 MiB paste is 140,000 lines: the page lists the first ones; the problems name every line.
            notes = [*notes, f"The list has {len(lines):,} lines; the first {MAX_PAGE_LINES:,} are shown below."]
            lines = lines[:MAX_PAGE_LINES]
        context = {"deck_text": text, "report": report, "notes": notes,
                   "problems": sorted(report.all_problems, key=lambda p: (not p.is_error, p.line or 0))[:MAX_REPLY_PROBLEMS],
                   "lines": lines, "fixes": checked.fixes,
                   "errors": sum(p.is_error for p in report.all_problems),
                   "summary": checked.summary,
                   "card_href": _card_href(datasette, report.game)}
    html = await datasette.render_template("cardkit_deck.html", context, request=request)
    return Response.html(html)


async def deck_json(datasette: Any, request: Any) -> Any:
    """POST (field `deck`, or a file): exactly the object `cardkit validate --json` prints for that deck."""
    from datasette.utils.asgi import Response

    if request.method != "POST":
        return Response.json({"error": "POST the deck list in the form field `deck`"}, status=405)
    checked = await _checked_deck(request)
    return Response.json(bounded(checked.report.to_dict()))


# A reply names at most this many problems (alike ones are already folded into one, `count` lines each),
# and the deck page lists at most this many of the deck's lines.
MAX_REPLY_PROBLEMS = 1000
MAX_PAGE_LINES = 2000


def bounded(reply: dict[str, Any]) -> dict[str, Any]:
    """`reply` (a deck report) with at most `MAX_REPLY_PROBLEMS` problems; `problems_omitted` says how many more."""
    problems = reply["problems"]
    if len(problems) <= MAX_REPLY_PROBLEMS:
        return reply
    return {**reply, "problems": problems[:MAX_REPLY_PROBLEMS], "problems_omitted": len(problems) - MAX_REPLY_PROBLEMS}


# The ranked page shows this many cards; the table page (`?_search=`) pages through them all.
SEARCH_PAGE_LIMIT = 100


async def search_page(datasette: Any, request: Any) -> Any:
    """The query language's own page: cards ranked as `cardkit cards search` ranks them, with did-you-mean."""
    from datasette.utils.asgi import Response

    from cardkit.db.search import search_connection
    from cardkit.web.querylimits import time_limited

    catalogue = catalogue_name(datasette)
    text = request.args.get("q", "").strip()
    context: dict[str, Any] = {"q": text, "result": None, "error": None, "hits": [], "catalogue": catalogue}
    if text and catalogue:
        try:
            result = await datasette.get_database(catalogue).execute_fn(time_limited(
                datasette, lambda conn: search_connection(conn, text, limit=SEARCH_PAGE_LIMIT)))
        except CardkitError as exc:
            context["error"] = exc.message
        else:
            context["result"] = result
            context["hits"] = [(h, card_url(datasette, catalogue, h.game, h.id)) for h in result.hits]
            context["table_url"] = str(datasette.urls.table(catalogue, "cards")) + "?_search=" + quote(text)
            context["suggestions"] = [(n, "?q=" + quote(f'"{n}"')) for n in result.suggestions]
    html = await datasette.render_template("cardkit_search.html", context, request=request)
    return Response.html(html)


async def syntax_page(datasette: Any, request: Any) -> Any:
    """Every filter of the query language, each with an example linked to the ranked page and the table."""
    from datasette.utils.asgi import Response

    from cardkit.web import syntax

    catalogue = catalogue_name(datasette)
    table = str(datasette.urls.table(catalogue, "cards")) if catalogue else None

    def links(example: str) -> dict[str, str | None]:
        return {"ranked": datasette.urls.path("/-/search") + "?q=" + quote(example),
                "table": f"{table}?_search={quote(example)}" if table else None}

    context = {"words": syntax.WORDS, "fields": syntax.field_examples(), "combining": syntax.COMBINING,
               "ordering": syntax.ORDERING, "links": links}
    html = await datasette.render_template("cardkit_syntax.html", context, request=request)
    return Response.html(html)


@hookimpl
def register_routes() -> list[tuple[str, Any]]:
    return [(r"^/-/deck$", deck_page), (r"^/-/deck\.json$", deck_json), (r"^/-/search$", search_page),
            (r"^/-/syntax$", syntax_page)]


@hookimpl
def skip_csrf(scope: Any) -> bool | None:
    # Scripts and other sites post decks to the JSON endpoint without a Datasette session. The page
    # changes and keeps nothing, so a forged post can only show its sender's own deck back; and
    # asgi-csrf cannot read the multipart form that uploads a file without JavaScript (its parser
    # fails on current python-multipart releases), so it would turn every upload into an error.
    return True if scope.get("path") in ("/-/deck", "/-/deck.json") else None


@hookimpl
def asgi_wrapper(datasette: Any) -> Any:
    """A search's `order:` sorts the table page (`_sort`/`_sort_desc`, unless a column heading chose one);
    search results skip the default facets, which would scan the whole table once each per request:
    the query language narrows results itself (c:red, e:forest, ...). An explicit `_facet=` still facets."""
    from urllib.parse import parse_qsl, urlencode

    def wrap(app: Any) -> Any:
        async def wrapped(scope: Any, receive: Any, send: Any) -> None:
            query = scope.get("query_string", b"") if scope.get("type") == "http" else b""
            searched = searched_table(datasette, scope.get("path", "")) if b"_search=" in query else None
            if searched is not None:
                extra: list[tuple[str, str]] = []
                if b"_facet" not in query and b"_nofacet" not in query:
                    extra.append(("_nofacet", "1"))
                pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True, errors="replace")
                # The form's "Sort..." choice sends an empty `_sort`, which means no column was chosen.
                if not any(value for key, value in pairs if key in ("_sort", "_sort_desc")):
                    sort = order_sort(query_text(query), order_columns(datasette, *searched))
                    if sort is not None:
                        kept = [(k, v) for k, v in pairs if k not in ("_sort", "_sort_desc")]
                        query = urlencode(kept).encode("ascii")
                        extra.append(sort)
                if extra:
                    scope = {**scope, "query_string": (query + b"&" if query else b"") + urlencode(extra).encode("ascii")}
            await app(scope, receive, send)

        return wrapped

    return wrap
