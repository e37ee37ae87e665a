"""The web pages answer first, without a browser: the deck page's order and choices, searches that say
why they found nothing, `order:` on the table, the home and syntax pages, and marked-up language."""

from __future__ import annotations

import asyncio
import re
from html import unescape
from pathlib import Path
from urllib.parse import quote

import pytest
from datasette_client import get_json

from cardkit.web.metadata import CATALOGUE_DB


@pytest.fixture(scope="module")
def db(catalogue_db: Path) -> Path:
    return catalogue_db


@pytest.fixture(scope="module")
def ds(db: Path) -> object:
    from cardkit.web.server import make_datasette

    return make_datasette({CATALOGUE_DB: db})


def _request(ds: object, path: str, data: dict[str, str] | None = None) -> str:
    async def fetch() -> str:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        client = ds.client  # type: ignore[attr-defined]
        response = await (client.post(path, data=data) if data is not None else client.get(path))
        assert response.status_code == 200, response.text
        return str(response.text)

    return asyncio.run(fetch())


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def _title_and_headings(html: str) -> str:
    return " ".join(re.findall(r"<title>(.*?)</title>|<h[1-6][^>]*>(.*?)</h[1-6]>", html, re.S).__str__())


@pytest.mark.parametrize(("search", "why"), [
    ("colour:purple", "no card has colour 'purple'; known values: black, green, red, white"),
    ("e:fire", "no card has element 'fire'; known values: darkness, forest, mountains, neutral, steppe, swamps"),
    ("foo:bar", "unknown field 'foo' in 'foo:bar'; known fields: game, id, name"),
    ("(c:red", "a bracket is not closed"),
], ids=["unknown-colour", "unknown-element", "unknown-field", "unreadable"])
def test_a_table_search_with_no_rows_says_why_in_the_body_never_in_the_heading_or_title(ds: object, search: str,
                                                                                       why: str) -> None:
    html = _request(ds, f"/cardkit/cards?_search={quote(search)}")
    body = _text(html[html.index("<main"):])
    assert why in body and "0 rows" in body
    assert why.split(";")[0] not in unescape(_title_and_headings(html))
    assert "CREATE TABLE" not in html


def test_a_game_table_says_why_as_the_cards_table_does(ds: object) -> None:
    assert "no card has element 'fire'" in _text(_request(ds, "/cardkit/ccg_cards?_search=e%3Afire"))


def test_a_valid_search_that_finds_nothing_says_so_offers_close_names_and_the_syntax_page(ds: object) -> None:
    html = _request(ds, "/cardkit/cards?_search=" + quote("Guts c:red"))
    why = _text(re.search(r'<p class="cardkit-search-why">(.*?)</p>', html, re.S).group(1))  # type: ignore[union-attr]
    assert "No card matches Guts c:red" in why and "Did you mean Guts" in why and 'href="/-/syntax"' in html


@pytest.mark.parametrize("query", ["e:fire", "c:purple lv<=2", "foo:bar"])
def test_the_ranked_search_says_why_in_its_body_and_keeps_the_error_out_of_the_title(ds: object, query: str) -> None:
    from cardkit.db.search import search_cards
    from cardkit.errors import CardkitError

    with pytest.raises(CardkitError) as cli:
        search_cards(query)
    html = _request(ds, "/-/search?q=" + quote(query))
    assert cli.value.message in _text(html[html.index("<main"):])
    assert cli.value.message not in unescape(_title_and_headings(html))


@pytest.mark.parametrize(("table", "game", "query", "column"), [
    ("cards", None, "c:red order:-cost", "cost"), ("cards", None, "g:berserk-tcg order:level", "level"),
    ("cards", None, "g:berserk-tcg order:-level", "level"), ("ccg_cards", "berserk-ccg", "e:forest order:cost", "cost")])
def test_order_sorts_the_table_page_as_the_command_line_sorts(ds: object, db: Path, table: str, game: str | None,
                                                               query: str, column: str) -> None:
    from cardkit.db.search import search_cards

    # `_sort=` as the search form sends it when no column was chosen ("Sort...").
    rows = get_json(ds, f"/cardkit/{table}.json?_search={quote(query)}&_shape=array&_size=max&_sort=")
    shown = [r[column] for r in rows]  # type: ignore[union-attr]
    expected = [getattr(h, column) for h in search_cards(query, game=game, db=db).hits]
    # As docs/serve.md says: the table sorts a card without the value (a city's Level) first when sorting upwards.
    missing = expected.count(None)
    if not query.endswith(f":-{column}"):
        expected = [None] * missing + expected[:len(expected) - missing]
    assert shown == expected and len(set(expected)) > 2


def test_an_order_the_table_cannot_follow_is_said_with_a_link_to_the_ranked_page(ds: object) -> None:
    html = _request(ds, "/cardkit/tcg_cards?_search=" + quote("c:red order:cost"))
    note = re.search(r'<p class="cardkit-order-note">(.*?)</p>', html, re.S)
    assert note and "order:cost does not sort this table" in note.group(1) and "/-/search?q=" in note.group(1)


def test_a_column_heading_still_sorts_a_search_with_order(ds: object) -> None:
    rows = get_json(ds, "/cardkit/cards.json?_search=" + quote("c:red order:-cost") + "&_sort=level&_shape=array&_size=max")
    levels = [r["level"] for r in rows]  # type: ignore[union-attr]
    assert levels == sorted(levels)


def test_the_home_page_has_a_search_box_and_links_the_ranked_search_deck_and_syntax_pages(ds: object) -> None:
    html = _request(ds, "/")
    assert re.search(r'<form[^>]*action="/-/search"[^>]*>.*?<input id="q" type="search" name="q"', html, re.S)
    for href in ("/-/search", "/-/deck", "/-/syntax", "/cardkit/cards"):
        assert f'href="{href}"' in html


def test_every_filter_of_the_language_has_an_example_on_the_syntax_page_and_each_example_finds_cards(
        ds: object, db: Path) -> None:
    from cardkit.db.query import FIELDS
    from cardkit.db.search import search_cards
    from cardkit.web.syntax import FIELD_EXAMPLES, all_examples

    assert set(FIELD_EXAMPLES) == set(FIELDS)
    html = unescape(_request(ds, "/-/syntax"))
    for example in all_examples():
        assert search_cards(example, db=db).total > 0, example
        assert f'href="/-/search?q={quote(example)}"' in html, example
        assert f'href="/cardkit/cards?_search={quote(example)}"' in html, example
    for name in FIELDS:
        assert f'id="field-{name}"' in html


@pytest.mark.parametrize("path", ["/", "/cardkit", "/cardkit/cards", "/cardkit/cards/berserk-ccg,10001", "/-/search?q=Koch",
                                  "/-/syntax", "/-/deck"])
def test_every_page_says_its_language_has_one_main_and_headings_in_order(ds: object, path: str) -> None:
    html = _request(ds, path)
    assert re.search(r'<html lang="en">', html) and html.count("<main") == 1
    levels = [int(n) for n in re.findall(r"<h([1-6])\b", html)]
    assert levels[0] == 1 and levels.count(1) == 1
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), levels


def test_only_the_content_section_of_a_page_becomes_its_main_landmark() -> None:
    from cardkit.web.landmarks import marked

    page = (b'<html>\n<body><section class="content"><section class="inner">x</section>\n</section>\n'
            b'<footer class="ft">f</footer></body></html>')
    assert marked(page) == (b'<html lang="en">\n<body><main class="content"><section class="inner">x</section>\n</main>\n'
                            b'<footer class="ft">f</footer></body></html>')
    assert marked(b"<html><p>no content section</p></html>") == b'<html lang="en"><p>no content section</p></html>'


def test_a_russian_card_name_is_marked_russian_on_its_page_in_searches_and_in_tables(ds: object) -> None:
    assert '<span lang="ru">Кочевник</span>' in _request(ds, "/cardkit/cards/berserk-ccg,10001")
    assert re.search(r'<a href="[^"]*10001"[^>]* lang="ru">Кочевник</a>', _request(ds, "/-/search?q=Koch"))
    assert re.search(r'<a lang="ru" href="[^"]*10001">Кочевник</a>', _request(ds, "/cardkit/cards?_search=Koch"))
    assert '<span lang="ru">Кочевник</span>' in _request(ds, "/cardkit/ccg_cards?_search=Koch")


def test_sorted_column_headings_say_how_they_sort(ds: object) -> None:
    html = _request(ds, "/cardkit/cards?_sort_desc=cost")
    assert re.search(r'<th [^>]*data-column="cost"[^>]*aria-sort="descending"', html)
    assert len(re.findall(r"aria-sort=", html)) == 1


def test_a_card_page_lists_its_other_printings_with_what_differs(ds: object) -> None:
    html = _request(ds, "/cardkit/cards/berserk-tcg,BK1-011")
    printings = _text(re.search(r'<ul class="cardkit-printings">(.*?)</ul>', html, re.S).group(1))  # type: ignore[union-attr]
    assert "BK1-012 Berserk TCG: set BK1, white, cost 1 white, level 2, power 3, hp 3 — differs in cost, level, power" in printings
    assert "This card: set BK1, white, cost 1 white + 1, level 1, power 2, hp 3." in _text(html)


DECK = "game: berserk-tcg\n3 Guts\n3 Gutz\nSB: 2 Casca\n40 BK1-001\n"


def test_the_deck_page_answers_first_verdict_problems_form_summary_then_the_list(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": DECK})
    marks = [html.index(m) for m in ('class="verdict', 'id="problems"', 'id="cardkit-deck-form"', "<h2>Summary</h2>",
                                      "<h2>The list, line by line</h2>")]
    assert marks == sorted(marks)
    problems = html[marks[1]:marks[2]]
    for line in (2, 3, 4):
        assert f'href="#line-{line}"' in problems and f'id="line-{line}"' in html


def test_the_summary_has_an_unresolved_group_so_its_groups_add_up_to_the_counts(ds: object) -> None:
    from cardkit.decks.read import parse_deck
    from cardkit.decks.summary import summarise_deck

    summary = summarise_deck(parse_deck(DECK))
    main = sum(n for cards in summary.kinds.values() for n, _, _ in cards) + sum(n for n, _, _ in summary.unresolved)
    assert main == 46 and summary.unresolved == [(3, "Guts", 2), (3, "Gutz", 3)]
    assert sum(n for n, _, _ in summary.side) == 2 and summary.side[0][2] == ""
    # Every Mercenary printing of a colour costs 1: an ambiguous `12 Mercenary` still counts in the cost curve.
    mercenaries = summarise_deck(parse_deck("game: berserk-tcg\n12 Mercenary\n"))
    assert mercenaries.curve == {1: 12} and mercenaries.split == {}
    assert "46 main + 2 side" in _text(_request(ds, "/-/deck", {"deck": DECK}))


def test_an_ambiguous_line_offers_its_candidates_and_choosing_one_rewrites_the_line_with_its_id(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": DECK})
    choices = re.findall(r'<input type="radio" form="cardkit-deck-form" name="card-2" value="([^"]+)">', html)
    assert "Guts (BK1-011)" in choices and len(choices) == 15
    assert "Guts BK1-011 — set BK1, white, cost 1 white + 1, level 1, power 2, hp 3" in _text(html)
    again = _request(ds, "/-/deck", {"deck": DECK, "card-2": "Guts (BK1-011)", "was-2": "Guts",
                                     "card-4": "Casca (BK1-010)", "was-4": "Casca"})
    text = unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", again, re.S).group(1))  # type: ignore[union-attr]
    assert text.split("\n")[1:4] == ["3 Guts (BK1-011)", "3 Gutz", "SB: 2 Casca (BK1-010)"]
    assert 'name="card-2"' not in again


def test_a_suggestion_is_a_button_that_puts_the_card_on_its_line(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": DECK.replace("Gutz", "Moonlite Raiders")})
    suggestion = re.search(r'<button type="submit" form="cardkit-deck-form" class="button-as-link cardkit-fix" '
                           r'name="card-3" value="([^"]+)"', html)
    assert suggestion and suggestion.group(1) == "Moonlight Raiders (BK1-003)"


def test_a_misspelling_of_a_name_several_cards_share_offers_the_same_choice_as_the_name(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": DECK})
    offered = {line: re.findall(rf'name="card-{line}" value="([^"]+)"', html) for line in (2, 3)}
    assert len(offered[3]) == 15 and offered[3] == offered[2]


def test_a_choice_for_a_line_edited_since_is_not_applied_and_says_so(ds: object) -> None:
    edited = DECK.replace("3 Guts\n", "3 Griffith\n")
    html = _request(ds, "/-/deck", {"deck": edited, "card-2": "Guts (BK1-011)", "was-2": "Guts"})
    assert "line 2 changed since it was checked" in _text(html) and "3 Griffith\n" in unescape(html)


def test_a_chosen_card_holding_a_line_break_is_not_written_into_the_deck(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": DECK, "card-2": "Guts (BK1-011)\n40 BK1-001", "was-2": "Guts"})
    text = unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", html, re.S).group(1))  # type: ignore[union-attr]
    assert text == DECK and "holds a line break" in _text(html)


FOLDED_DECK = "game: berserk-tcg\n3 Guts\n12 BK1-001\nSideboard\n2 Guts\n"


def test_a_name_ambiguous_on_several_lines_links_each_line_and_one_choice_rewrites_them_all(ds: object) -> None:
    html = _request(ds, "/-/deck", {"deck": FOLDED_DECK})
    problems = html[html.index('id="problems"'):html.index('id="cardkit-deck-form"')]
    said = re.sub(r" ([,)?])", r"\1", _text(problems))
    assert "found alike on 2 lines: 2, 5)" in said and "Which card is line 2 (and 5)?" in said
    assert 'href="#line-5"' in problems and 'id="line-5"' in html
    fields = dict(re.findall(r'<input type="hidden" form="cardkit-deck-form" name="([^"]+)" value="([^"]*)">', problems))
    again = _request(ds, "/-/deck", {"deck": FOLDED_DECK, **fields, "card-2": "Guts (BK1-012)"})
    text = unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", again, re.S).group(1))  # type: ignore[union-attr]
    assert text.split("\n")[1] == "3 Guts (BK1-012)" and text.split("\n")[4] == "2 Guts (BK1-012)"
    assert "AMBIGUOUS_CARD" not in _text(again)


def test_a_forged_form_cannot_stretch_one_choice_over_more_lines_than_a_problem_lists(ds: object) -> None:
    from cardkit.problems import FOLDED_LINES
    from cardkit.web.deckpage import posted_deck

    many = ",".join(str(n) for n in range(3, 10_000))
    posted = posted_deck("application/x-www-form-urlencoded",
                         f"deck=x&card-2=Guts+%28BK1-012%29&same-2={many},abc,-4".encode())
    assert sorted(posted.choices) == list(range(2, 3 + FOLDED_LINES))


@pytest.mark.parametrize(("deck", "said"), [
    (DECK, "'Guts' is 15 cards, which berserk-tcg tells apart (by id, colour, cost); write one id or `NAME (ID)`"),
    ("3 Nosuchcard\n", "add `game: GAME`"),
    ("game: berserk-tcg\n3 Gr\xfcn\n", "save it as UTF-8"),
], ids=["ambiguous-card", "game-unknown", "latin-1"])
def test_the_deck_page_words_its_problems_for_the_page_with_no_command_line_advice(ds: object, deck: str,
                                                                                   said: str) -> None:
    async def post() -> str:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        files = {"deck_file": ("mine.deck", deck.encode("latin-1"), "text/plain")}
        response = await ds.client.post("/-/deck", files=files)  # type: ignore[attr-defined]
        return str(response.text)

    html = asyncio.run(post())
    problems = _text(html[html.index('id="problems"'):html.index('id="cardkit-deck-form"')])
    assert said in problems
    for advice in ("cardkit ", "--format", "iconv"):
        assert advice not in problems


def test_the_terminal_still_gives_its_own_advice_after_the_same_messages(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    (tmp_path / "guts.deck").write_text(DECK, encoding="utf-8")
    (tmp_path / "nogame.deck").write_text("3 Nosuchcard\n", encoding="utf-8")
    (tmp_path / "latin.deck").write_bytes("game: berserk-tcg\n3 Gr\xfcn\n".encode("latin-1"))
    said = CliRunner().invoke(app, ["validate", str(tmp_path / "guts.deck")]).output
    assert "(by id, colour, cost); write one id or `NAME (ID)` (`cardkit deck resolve` asks which)" in said
    said = CliRunner().invoke(app, ["validate", str(tmp_path / "nogame.deck")]).output
    assert "add `game: GAME` (or pass --format)" in said
    said = CliRunner().invoke(app, ["deck", "convert", str(tmp_path / "latin.deck"), "--to", "text"]).output
    assert "save it as UTF-8 (convert it with `iconv -f LATIN1 -t UTF-8" in said
