"""`cardkit serve` without a browser: generated metadata, canned queries, the Datasette app, the command."""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from datasette_client import get_json

from cardkit.catalogue.store import load_game
from cardkit.cli.main import app
from cardkit.web.metadata import (
    CATALOGUE_DB,
    instance_metadata,
    read_schema,
    undocumented_columns,
)
from cardkit.web.queries import QUERIES
from cardkit.web.render import render_json_text

# A value for every named parameter a canned query may use.
SAMPLE_PARAMS = {"level": "2", "colour": "red", "element": "forest", "max_cost": "8", "game": "berserk-ccg"}
CLI = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]


@pytest.fixture(scope="module")
def db(catalogue_db: Path) -> Path:
    return catalogue_db


@pytest.fixture(scope="module")
def meta(db: Path) -> dict:
    return instance_metadata({CATALOGUE_DB: db})["databases"][CATALOGUE_DB]


def run_query(db: Path, name: str, **params: str) -> list[sqlite3.Row]:
    sql = QUERIES[name].sql
    values = {p: params.get(p, SAMPLE_PARAMS[p]) for p in re.findall(r":(\w+)", sql)}
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return conn.execute(sql, values).fetchall()
    finally:
        conn.close()


def test_every_table_and_column_of_the_built_database_has_a_description(db: Path, meta: dict) -> None:
    assert undocumented_columns(db) == []
    for table, columns in read_schema(db).items():
        assert meta["tables"][table]["description"]
        assert set(meta["tables"][table]["columns"]) == set(columns)


def test_instance_metadata_says_where_the_data_comes_from_without_naming_outside_paths(db: Path) -> None:
    top = instance_metadata({CATALOGUE_DB: db})
    assert top["title"] and "data/cards/" in top["description"]
    # Only repository-relative paths: nothing absolute, not even the served file's folder.
    assert not re.search(r"(?<![\w.])/\w", str(top)) and str(db.parent) not in str(top)


def test_cards_table_has_the_default_facets_search_and_sort(meta: dict) -> None:
    cards = meta["tables"]["cards"]
    assert cards["facets"] == ["game", "colour", "elements", "level", "kind", "set_label", "elite", "is_unique"]
    assert cards["plugins"]["cardkit"]["search_game"] == "*" and "fts_table" not in cards
    assert cards["sort"] == "position"


@pytest.mark.parametrize("table", ["tcg_cards", "ccg_cards", "online_cards", "berserker_cards", "berserker_ships"])
def test_each_game_table_has_facets_on_its_own_columns(meta: dict, db: Path, table: str) -> None:
    facets = meta["tables"][table]["facets"]
    columns = read_schema(db)[table]
    assert facets
    assert all((f if isinstance(f, str) else f["array"]) in columns for f in facets)


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_canned_query_runs_on_the_built_database_and_returns_rows(db: Path, meta: dict, name: str) -> None:
    assert meta["queries"][name]["sql"] == QUERIES[name].sql
    assert len(run_query(db, name)) > 0


def test_mercenaries_query_lists_exactly_the_catalogue_mercenaries(db: Path) -> None:
    expected = {cid for cid, card in load_game("berserk-tcg").cards.items() if card["mercenary"]}
    assert {r["id"] for r in run_query(db, "mercenaries")} == expected


@pytest.mark.parametrize("level,colour", [("0", "white"), ("2", "red"), ("5", "green")])
def test_openable_cards_are_those_whose_level_and_colours_allow_them(db: Path, level: str, colour: str) -> None:
    def openable(card: dict) -> bool:
        cost = card["cost"] or {}
        other = sum(v for k, v in cost.items() if k not in (colour, "colourless"))
        return card["kind"] != "city" and card["level"] <= int(level) and other == 0

    expected = {cid for cid, card in load_game("berserk-tcg").cards.items() if openable(card)}
    assert {r["id"] for r in run_query(db, "openable_cards", level=level, colour=colour)} == expected


def test_elite_query_keeps_only_elite_cards_of_the_element_within_the_cost(db: Path) -> None:
    rows = run_query(db, "elite_cards", element="darkness", max_cost="6")
    expected = sum(
        1 for game in ("berserk-ccg", "berserk-online") for card in load_game(game).cards.values()
        if card["elite"] and "darkness" in card["elements"] and card["cost"] <= 6
    )
    assert len(rows) == expected
    neutral = run_query(db, "elite_cards", element="neutral", max_cost="")
    assert neutral and all(r["elements"] == "" for r in neutral)


def test_berserker_deck_total_is_the_sum_of_the_card_counts(db: Path) -> None:
    rows = run_query(db, "berserker_deck")
    cards = load_game("berserker").cards
    assert rows[-1]["name"] == "Total"
    assert rows[-1]["count"] == sum(c["count"] for c in cards.values())
    assert len(rows) == len(cards) + 1


def test_cost_curve_counts_every_priced_card_of_the_game_once(db: Path) -> None:
    for game in ("berserk-tcg", "berserk-ccg", "berserk-online"):
        rows = run_query(db, "cost_curve", game=game)
        assert sum(r["cards"] for r in rows) == sum(1 for c in load_game(game).cards.values() if c["cost"] is not None)
        assert round(sum(r["percent"] for r in rows)) == 100
        assert max(len(r["bar"]) for r in rows) == 40


@pytest.mark.parametrize(
    "text,shown",
    [
        ('["steppe","forest"]', "steppe, forest"),
        ('{"weak":1,"medium":2,"strong":3}', "weak 1 · medium 2 · strong 3"),
        ('{"text":"Ramships only","ships":["ramship"],"side":null}', "text Ramships only · ships ramship · side —"),
        ("Guts", None),
        ("[not json", None),
        (7, None),
    ],
    ids=["word-list", "small-object", "object-with-list-and-null", "plain-text", "broken-json", "number"],
)
def test_json_cells_render_readably(text: object, shown: str | None) -> None:
    out = render_json_text(text)
    assert (None if out is None else str(out)) == shown


def test_a_large_json_record_folds_into_details() -> None:
    out = str(render_json_text('{"id": "BK1-001", "name": "Mercenary", "cost": {"white": 1}, "subtypes": ["Mercenary"]}'))
    assert out.startswith("<details>") and "&#34;name&#34;: &#34;Mercenary&#34;" in out


@pytest.mark.smoke
def test_datasette_serves_the_catalogue_as_cardkit_and_searches_names(db: Path) -> None:
    from cardkit.web.server import make_datasette

    ds = make_datasette({CATALOGUE_DB: db})
    assert [d["name"] for d in get_json(ds, "/-/databases.json")] == ["cardkit"]
    assert all(not d["is_mutable"] for d in get_json(ds, "/-/databases.json"))
    found = get_json(ds, "/cardkit/cards.json?_search=Guts&_shape=array&_size=max")
    with sqlite3.connect(db) as conn:
        expected = conn.execute("select count(*) from cards where name like '%guts%'").fetchone()[0]
    assert len(found) == expected > 0
    assert all("guts" in r["name"].lower() for r in found)


@pytest.fixture(scope="module")
def ds(db: Path) -> object:
    from cardkit.web.server import make_datasette

    return make_datasette({CATALOGUE_DB: db})


@pytest.mark.parametrize("query", ["Koch", "Кочев", "Griffit", "Гатс", "Zolotoy", "(c:red or c:black) -t:city lv<=1",
                                   "e:forest elite:yes -cost>=5", "Guts or Griffith", '"Moonlight Raiders"',
                                   '"of the swordsman" c:green'])
def test_the_search_box_finds_exactly_what_the_command_line_finds(ds: object, db: Path, query: str) -> None:
    from urllib.parse import quote

    from cardkit.db.search import search_cards

    found = get_json(ds, f"/cardkit/cards.json?_search={quote(query)}&_shape=array&_size=max&_col=game")
    assert {(r["game"], r["id"]) for r in found} == {(h.game, h.id) for h in search_cards(query, db=db).hits}


def test_each_game_table_searches_its_own_cards_with_the_same_language(ds: object, db: Path) -> None:
    from cardkit.db.search import search_cards

    found = get_json(ds, "/cardkit/online_cards.json?_search=Zolotoy&_shape=array&_size=max")
    assert {r["id"] for r in found} == {h.id for h in search_cards("Zolotoy", game="berserk-online", db=db).hits}
    assert {r["id"] for r in found} == {"f_zolotoy_drakon", "m_zolotoy_tron"}


def test_a_query_the_language_cannot_read_shows_no_rows_and_says_why(ds: object) -> None:
    page = get_json(ds, "/cardkit/cards.json?_search=%28c%3Ared&_size=1")
    assert page["rows"] == [] and "bracket is not closed" in page["human_description_en"]


def test_a_second_database_can_be_served_beside_the_catalogue(db: Path, tmp_path: Path) -> None:
    from cardkit.web.server import make_datasette

    other = tmp_path / "events.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table events (id integer primary key, name text)")
        conn.execute("insert into events (name) values ('Spring open')")
    conn.close()
    ds = make_datasette({CATALOGUE_DB: db, "tournaments": other})
    assert {d["name"] for d in get_json(ds, "/-/databases.json")} == {"cardkit", "tournaments"}
    assert get_json(ds, "/tournaments/events.json?_shape=array") == [{"id": 1, "name": "Spring open"}]
    assert get_json(ds, "/cardkit/cards.json?_shape=array&game=berserker&_size=1")


def test_serve_help_explains_every_option(runner) -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--port", "--host", "--db", "--open"):
        assert option in result.output


def test_serve_on_a_busy_port_is_a_usage_error(runner, db: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = runner.invoke(app, ["serve", "--db", str(db), "--port", str(port)])
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_serve_with_open_points_the_browser_at_the_catalogue(runner, db: Path, monkeypatch) -> None:
    import uvicorn

    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", opened.append)

    def interrupted(self: object, sockets: object = None) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn.Server, "run", interrupted)
    result = runner.invoke(app, ["serve", "--db", str(db), "--port", "0", "--open"])
    assert result.exit_code == 0, result.output
    assert len(opened) == 1 and re.fullmatch(r"http://127\.0\.0\.1:\d+/cardkit", opened[0])
    assert "Traceback" not in result.output


@pytest.mark.smoke
def test_serve_builds_a_missing_database_and_stops_cleanly_on_ctrl_c(tmp_path: Path) -> None:
    target = tmp_path / "fresh.db"
    proc = subprocess.Popen([*CLI, "serve", "--db", str(target), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The first build says so ("building the card database, once…") only to a terminal, never to this pipe.
        seen = ""
        for _ in range(5):
            line = proc.stderr.readline()  # type: ignore[union-attr]
            seen += line
            if announced := re.search(r"at (http://127\.0\.0\.1:\d+/cardkit)", line):
                break
        assert announced, seen
        assert "building the card database" not in seen
        assert target.is_file()
        # Ctrl-C once the server answers, not after a guessed delay: by then uvicorn handles the signal.
        with urllib.request.urlopen(f"{announced.group(1)}.json", timeout=20) as response:
            assert response.status == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0
    assert "Traceback" not in err and "stopped" in err


def _html(ds: object, path: str) -> str:
    import asyncio

    async def fetch() -> str:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        response = await ds.client.get(path)  # type: ignore[attr-defined]
        assert response.status_code == 200, response.text
        return response.text

    return asyncio.run(fetch())


def test_a_tcg_card_page_shows_its_cost_by_colour_its_level_and_its_other_printings(ds: object) -> None:
    page = _html(ds, "/cardkit/cards/berserk-tcg,BK1-011")
    card = load_game("berserk-tcg").cards["BK1-011"]
    assert "<title>Guts (BK1-011)</title>" in page
    assert 'class="ball white"' in page and f"{card['cost']['white']} white" in page
    assert f"Level {card['level']}" in page and "BK1: Volume 1" in page
    assert "/cardkit/cards/berserk-tcg,BK1-012" in page


def test_an_online_card_page_words_its_abilities_from_the_glossary(ds: object) -> None:
    from cardkit.web.cardpage import glossary

    card = next(c for c in load_game("berserk-online").cards.values() if "kick.aim.1" in c["abilities"])
    page = _html(ds, f"/cardkit/cards/berserk-online,{card['id']}")
    assert glossary()["kick.aim.1"]["german"] == "Gezielter Schlag" and "Gezielter Schlag" in page
    assert "does not say what its rarity letters mean" in page


def test_every_glossary_entry_is_an_ability_some_online_card_has() -> None:
    from cardkit.web.cardpage import glossary

    used = {a for c in load_game("berserk-online").cards.values() for a in c["abilities"]}
    assert set(glossary()) <= used


def test_the_deck_json_endpoint_returns_exactly_what_cardkit_validate_json_prints(ds: object, tmp_path: Path) -> None:
    import asyncio
    import json
    import shutil

    deck = Path(__file__).resolve().parent.parent / "events" / "spring-open" / "decks" / "dmitri.deck"
    shutil.copy(deck, tmp_path / "dmitri.deck")
    cli = subprocess.run([*CLI, "validate", "dmitri.deck", "--json"], cwd=tmp_path, capture_output=True, text=True)

    async def post() -> object:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        response = await ds.client.post("/-/deck.json", data={"deck": deck.read_text(encoding="utf-8"),  # type: ignore[attr-defined]
                                                               "filename": "dmitri.deck"})
        assert response.status_code == 200, response.text
        return response.json()

    assert [asyncio.run(post())] == json.loads(cli.stdout)
    assert list(tmp_path.iterdir()) == [tmp_path / "dmitri.deck"]


def test_the_deck_summary_counts_every_main_copy_once_by_kind_by_colour_and_by_cost() -> None:
    from cardkit.decks.read import read_deck
    from cardkit.decks.summary import summarise_deck
    from cardkit.web.deckpage import summarise_text

    path = Path(__file__).resolve().parent.parent / "decks" / "berserk-online" / "forest-elves.deck"
    deck = read_deck(path)
    summary = summarise_deck(deck)
    main = deck.size("main")
    assert sum(n for cards in summary.kinds.values() for n, _, _ in cards) == main
    assert sum(summary.split.values()) == sum(summary.curve.values()) == main
    assert summarise_text(path.read_text(encoding="utf-8"), "forest-elves.deck") == summary
    assert summarise_text("not a deck at all {", "broken.json") is None


def test_internal_columns_are_left_off_the_cards_page_but_stay_in_json_and_on_request(ds: object) -> None:
    page = _html(ds, "/cardkit/cards?_size=2")
    assert "col-search_key" not in page and "col-data" not in page and "col-game" in page
    assert "search_key" in get_json(ds, "/cardkit/cards.json?_size=1&_shape=array")[0]  # type: ignore[index]
    assert "col-data" in _html(ds, "/cardkit/cards?_size=2&_col=data")


def test_search_results_skip_the_default_facets_unless_a_facet_is_asked_for(ds: object) -> None:
    assert get_json(ds, "/cardkit/cards.json?_search=Guts")["facet_results"] == {}  # type: ignore[index]
    assert set(get_json(ds, "/cardkit/cards.json")["facet_results"]) >= {"game", "colour"}  # type: ignore[index]
    assert "game" in get_json(ds, "/cardkit/cards.json?_search=Guts&_facet=game")["facet_results"]  # type: ignore[index]


def test_the_search_page_ranks_exact_names_first_and_the_table_page_suggests_close_names(ds: object, db: Path) -> None:
    from cardkit.db.search import search_cards

    page = _html(ds, "/-/search?q=Zodd")
    assert page.index(">Zodd<") < page.index(">Zodd&#39;s Entrance<")
    assert f"{search_cards('Zodd', db=db).total} cards" in page
    assert "/cardkit/cards/berserk-tcg,BK1-131" in page
    assert "Did you mean" in _html(ds, "/-/search?q=%D0%93%D0%B0%D1%82%D1%81")
    table = _html(ds, "/cardkit/cards?_search=%D0%93%D0%B0%D1%82%D1%81")
    assert "Did you mean" in table and ">Guts</a>" in table
    assert "bracket is not closed" in _html(ds, "/-/search?q=%28c%3Ared")


def test_a_fleet_card_page_says_who_may_play_it_and_a_neutral_card_reads_neutral(ds: object) -> None:
    from cardkit.catalogue.store import load_game as load

    card = next(c for c in load("berserker").cards.values() if c.get("restriction"))
    page = _html(ds, f"/cardkit/cards/berserker,{card['id']}")
    assert "who may play it" in page and card["restriction"]["text"] in page
    neutral = next(c for c in load("berserk-ccg").cards.values() if c["elements"] == [])
    assert "neutral (no element)" in _html(ds, f"/cardkit/cards/berserk-ccg,{neutral['id']}")
    assert ">neutral<" in _html(ds, f"/cardkit/cards?_search=id:{neutral['id']}&_col=elements")


def test_the_catalogue_page_searches_the_cards_and_links_the_deck_page(ds: object) -> None:
    page = _html(ds, "/cardkit")
    assert 'action="/-/search"' in page and 'href="/-/deck"' in page


def test_every_table_has_a_search_the_query_language_for_cards_and_words_in_columns_for_the_rest(meta: dict, db: Path) -> None:
    for table, columns in read_schema(db).items():
        plugin = meta["tables"][table]["plugins"]["cardkit"]
        searched = plugin.get("search_columns")
        assert ("search_game" in plugin) != bool(searched), table
        assert set(searched or ()) <= set(columns)
    assert meta["tables"]["sets"]["plugins"]["cardkit"]["search_columns"] == ["game", "id", "name", "latin"]


@pytest.mark.parametrize(("path", "search", "column", "expected"), [
    ("sets", "Война", "name", ["Война стихий"]),
    ("sets", "VOINA stikh", "name", ["Война стихий"]),
    ("sets", "tcg voina", "name", []),
    ("berserker_ships", "ram", "name", ["Ramship"]),
    ("formats", '"berserk-online"', "name", ["berserk-online"]),
], ids=["cyrillic", "latin-words", "every-word", "part-of-a-word", "quoted"])
def test_a_table_without_cards_finds_rows_where_every_word_appears_in_a_searched_column(
        ds: object, path: str, search: str, column: str, expected: list[str]) -> None:
    from urllib.parse import quote

    rows = get_json(ds, f"/cardkit/{path}.json?_search={quote(search)}&_shape=array&_size=max")
    assert [r[column] for r in rows] == expected  # type: ignore[index, union-attr]


def test_a_search_of_only_punctuation_finds_every_row(ds: object, db: Path) -> None:
    rows = get_json(ds, "/cardkit/sets.json?_search=%20-%20&_shape=array&_size=max")
    with sqlite3.connect(db) as conn:
        assert len(rows) == conn.execute("select count(*) from sets").fetchone()[0]  # type: ignore[arg-type]
    conn.close()


@pytest.mark.parametrize(("table", "game"), [("tcg_cards", "berserk-tcg"), ("ccg_cards", "berserk-ccg"),
                                             ("online_cards", "berserk-online"), ("berserker_cards", "berserker")])
def test_an_id_in_a_game_table_links_to_the_card_page_not_the_bare_row(ds: object, db: Path, table: str, game: str) -> None:
    page = _html(ds, f"/cardkit/{table}?_size=3&_sort=id")
    with sqlite3.connect(db) as conn:
        first = conn.execute(f"select id from {table} order by id limit 1").fetchone()[0]
    conn.close()
    links = re.findall(r'<td class="col-id type-pk"><a href="([^"]+)">([^<]+)</a>', page)
    assert links and all(href.startswith(f"/cardkit/cards/{game},") for href, _ in links)
    assert (f"/cardkit/cards/{game},{first}", first) in links
    assert f'href="/cardkit/{table}/' not in page


def test_the_elements_facet_reads_neutral_and_still_filters_the_neutral_cards(ds: object, db: Path) -> None:
    page = _html(ds, "/cardkit/cards?_size=1")
    facet = page[page.index('id="facet-elements"'):]
    facet = facet[:facet.index("</ul>")]
    with sqlite3.connect(db) as conn:
        neutral = conn.execute("select count(*) from cards where elements = ''").fetchone()[0]
    conn.close()
    assert re.search(rf'<a href="[^"]*elements=">neutral</a> {neutral:,}<', facet)
    assert ">-<" not in facet
    chosen = _html(ds, "/cardkit/cards?_size=1&elements=")
    assert f"{neutral:,} rows" in chosen and "<li>neutral &middot;" in chosen


def test_the_glossary_marks_implemented_exactly_the_codes_cardkit_acts_on() -> None:
    from cardkit.games.squad_games.battle.abilities import game_abilities
    from cardkit.web.cardpage import glossary

    # The card pages and the battle engine read one file: a code is "implemented" exactly where the engine applies it.
    data = game_abilities("berserk-online")
    assert {code: e["implemented"] for code, e in glossary().items()} == {code: data[code].applied for code in glossary()}
    assert all(e["german"] for e in glossary().values())


def test_an_ability_the_rules_text_does_not_name_is_shown_as_written_and_said_to_be_unexplained(ds: object) -> None:
    from cardkit.web.cardpage import glossary

    card = next(c for c in load_game("berserk-online").cards.values()
                if "dist" in c["abilities"] and "regen" in c["abilities"])
    assert "dist" not in glossary()
    page = _html(ds, f"/cardkit/cards/berserk-online,{card['id']}")
    assert "<code>dist</code>" in page and "not explained by the rules text" in page
    assert "Regeneration" in page


DMITRI = Path(__file__).resolve().parent.parent / "events" / "spring-open" / "decks" / "dmitri.deck"


def _post(ds: object, path: str, **kwargs: object) -> object:
    import asyncio

    async def post() -> object:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        response = await ds.client.post(path, **kwargs)  # type: ignore[attr-defined]
        assert response.status_code == 200, response.text
        return response

    return asyncio.run(post())


def _cli_report(tmp_path: Path, name: str, data: bytes) -> dict:
    import json

    (tmp_path / name).write_bytes(data)
    cli = subprocess.run([*CLI, "validate", name, "--json"], cwd=tmp_path, capture_output=True, text=True)
    return json.loads(cli.stdout)[0]


@pytest.mark.parametrize("content", [DMITRI.read_bytes(), b"game: berserk-tcg\n3 Guts\n\xff\xfe broken\n",
                                     b"game: berserk-tcg\r\n3 BK1-011\x00\r\n"], ids=["illegal", "not-utf8", "nul"])
def test_an_uploaded_deck_file_gets_exactly_the_report_cardkit_validate_gives_that_file(
        ds: object, tmp_path: Path, content: bytes) -> None:
    response = _post(ds, "/-/deck.json", files={"deck_file": ("mine.deck", content, "application/octet-stream")},
                     data={"deck": ""})
    assert response.json() == _cli_report(tmp_path, "mine.deck", content)  # type: ignore[attr-defined]


def test_a_deck_file_over_the_size_cap_is_refused_as_a_file_of_that_size_would_be(ds: object, tmp_path: Path) -> None:
    from cardkit.jsonio import MAX_INPUT_BYTES

    big = b"game: berserk-tcg\n" + b"# padding\n" * (MAX_INPUT_BYTES // 10)
    report = _post(ds, "/-/deck.json", files={"deck": ("big.deck", big)}).json()  # type: ignore[attr-defined]
    assert report["legal"] is False and f"over {MAX_INPUT_BYTES} bytes" in report["problems"][0]["message"]
    assert report == _cli_report(tmp_path, "big.deck", big)


def test_a_form_far_over_the_cap_is_refused_without_reading_it_all(ds: object) -> None:
    import asyncio

    from cardkit.web.deckpage import MAX_FORM_BYTES

    async def pieces() -> Any:
        yield b"deck="
        for _ in range(MAX_FORM_BYTES // 65536 + 2):
            yield b"x" * 65536

    async def post() -> tuple[Any, Any]:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        declared = await ds.client.post(  # type: ignore[attr-defined]
            "/-/deck.json", files={"deck_file": ("huge.deck", b"#" * (MAX_FORM_BYTES + 1))})
        unsized = await ds.client.post(  # type: ignore[attr-defined]
            "/-/deck.json", content=pieces(), headers={"content-type": "application/x-www-form-urlencoded"})
        return declared, unsized

    # Declared over the cap: refused from the header (413); sent without a length: refused once past the cap.
    declared, unsized = asyncio.run(post())
    assert declared.status_code == 413 and f"at most {MAX_FORM_BYTES:,}" in declared.json()["error"]
    report = unsized.json()
    assert report["legal"] is False and f"the form is over {MAX_FORM_BYTES} bytes" in report["problems"][0]["message"]


def test_a_chosen_file_wins_over_pasted_text_and_an_empty_file_field_leaves_the_text() -> None:
    from cardkit.web.deckpage import posted_deck

    boundary = "b0undary"
    def form(*parts: str) -> bytes:
        return ("".join(f"--{boundary}\r\n{p}\r\n" for p in parts) + f"--{boundary}--\r\n").encode("utf-8")
    ctype = f"multipart/form-data; boundary={boundary}"
    text = 'Content-Disposition: form-data; name="deck"\r\n\r\n3 Кочевник'
    chosen = posted_deck(ctype, form(text, 'Content-Disposition: form-data; name="deck_file"; filename="a.deck"\r\n\r\n1 Guts'))
    assert (chosen.data, chosen.filename, chosen.uploaded) == (b"1 Guts", "a.deck", True)
    empty = posted_deck(ctype, form(text, 'Content-Disposition: form-data; name="deck_file"; filename=""\r\n\r\n'))
    assert (empty.data.decode("utf-8"), empty.filename, empty.uploaded) == ("3 Кочевник", None, False)
    pasted = posted_deck("application/x-www-form-urlencoded", b"deck=3+%D0%9A&filename=b.deck")
    assert (pasted.data.decode("utf-8"), pasted.filename) == ("3 К", "b.deck")


def test_a_word_search_of_a_thousand_words_shows_no_rows_and_says_why(ds: object) -> None:
    from cardkit.db.query import MAX_TERMS

    page = get_json(ds, "/cardkit/sets.json?_search=" + "+".join(["a"] * 1000))
    assert page["rows"] == [] and f"at most {MAX_TERMS} are read" in page["human_description_en"]  # type: ignore[index]
    assert "at most" in _html(ds, "/cardkit/sets?_search=" + "+".join(["a"] * 1000))
