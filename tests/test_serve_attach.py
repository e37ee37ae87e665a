"""`cardkit serve --attach`: a tournament database served beside the catalogue, without a browser.

The tournament database is the example event in events/spring-open/, written
with the library into a temporary folder; Datasette runs in-process.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest
from datasette_client import get_json
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament import check_event
from cardkit.tournament.database import (
    DATA_TABLES,
    is_tournament_database,
    write_database,
)
from cardkit.web.databases import served_databases, url_name
from cardkit.web.metadata import (
    CATALOGUE_DB,
    database_metadata,
    instance_metadata,
    read_schema,
    undocumented_columns,
)
from cardkit.web.tournament import QUERIES, TOURNAMENT

ROOT = Path(__file__).resolve().parent.parent
EVENT = ROOT / "events" / "spring-open"
NAME = "spring-open"


@pytest.fixture(scope="module")
def catalogue(catalogue_db: Path) -> Path:
    return catalogue_db


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = check_event([EVENT], registrations=EVENT / "registrations.csv")
    out = tmp_path_factory.mktemp("tournament") / f"{NAME}.db"
    write_database([result], out)
    return out


@pytest.fixture(scope="module")
def meta(tournament_db: Path) -> dict:
    return database_metadata(NAME, tournament_db)


@pytest.fixture(scope="module")
def ds(catalogue: Path, tournament_db: Path) -> object:
    from cardkit.web.server import make_datasette

    return make_datasette(served_databases(catalogue, [tournament_db]))


def _query(ds: object, name: str) -> list[dict]:
    return get_json(ds, f"/{NAME}/{name}.json?_shape=array")  # type: ignore[return-value]


def no_traceback(result: object) -> None:
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert result.exception is None or isinstance(result.exception, SystemExit)  # type: ignore[attr-defined]


# --- recognising a tournament database


def test_the_tournament_writer_marks_its_file_and_the_mark_is_recognised(tournament_db: Path) -> None:
    with sqlite3.connect(tournament_db) as conn:
        facts = dict(conn.execute("select key, value from tournament_meta").fetchall())
    conn.close()
    assert facts["kind"] == "cardkit-tournament" and facts["layout"] and facts["version"]
    assert is_tournament_database(tournament_db)


def test_a_file_with_every_tournament_table_but_no_mark_is_still_a_tournament_database(tmp_path: Path,
                                                                                     tournament_db: Path) -> None:
    old = tmp_path / "old.db"
    old.write_bytes(tournament_db.read_bytes())
    with sqlite3.connect(old) as conn:
        conn.execute("drop table tournament_meta")
    conn.close()
    assert is_tournament_database(old)


def test_the_catalogue_and_other_databases_are_not_tournament_databases(tmp_path: Path, catalogue: Path) -> None:
    other = tmp_path / "events.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table events (id integer primary key, name text)")
    conn.close()
    text = tmp_path / "notes.db"
    text.write_text("not a database", encoding="utf-8")
    assert not is_tournament_database(catalogue)
    assert not is_tournament_database(other)
    assert not is_tournament_database(text)
    assert not is_tournament_database(tmp_path / "missing.db")


# --- generated metadata


def test_every_tournament_table_and_column_has_a_description(tournament_db: Path, meta: dict) -> None:
    assert undocumented_columns(tournament_db, TOURNAMENT) == []
    schema = read_schema(tournament_db)
    assert set(schema) == {*DATA_TABLES, "tournament_meta"}
    for table, columns in schema.items():
        assert meta["tables"][table]["description"]
        assert set(meta["tables"][table]["columns"]) == set(columns)


def test_the_tournament_database_has_a_title_a_description_and_the_organizers_facets(meta: dict) -> None:
    assert meta["title"] == "Tournament deck checks: spring-open"
    assert "spring-open (format berserk-tcg, 6 rows: 4 legal, 1 illegal, 0 unreadable, 1 missing)" in meta["description"]
    assert meta["source"]
    tables = meta["tables"]
    assert "verdict" in tables["verdicts"]["facets"]
    assert {"game", "format"} <= set(tables["decks"]["facets"])
    assert {"code", "severity"} <= set(tables["problems"]["facets"])
    assert {"code", "severity"} <= set(tables["event_problems"]["facets"])
    assert "format" in tables["events"]["facets"]
    assert set(meta["queries"]) == {"illegal_decks", "problems_by_code", "identical_decks", "missing_submissions",
                                    "most_played_cards", "decks_playing_card", "field_split"}


def test_the_metadata_of_an_attached_database_names_no_absolute_path(catalogue: Path, tournament_db: Path) -> None:
    top = instance_metadata(served_databases(catalogue, [tournament_db]))
    assert not re.search(r"(?<![\w.])/\w", str(top["databases"][NAME])) and str(tournament_db.parent) not in str(top)


def test_a_database_nobody_described_is_served_plain(tmp_path: Path) -> None:
    other = tmp_path / "notes.db"
    with sqlite3.connect(other) as conn:
        conn.execute("create table notes (id integer primary key, text text)")
    conn.close()
    assert database_metadata("notes", other) == {"tables": {"notes": {}}}


# --- served by Datasette


def test_the_tournament_database_is_served_read_only_beside_the_catalogue(ds: object) -> None:
    databases = get_json(ds, "/-/databases.json")
    assert [d["name"] for d in databases] == [CATALOGUE_DB, NAME]  # type: ignore[union-attr]
    assert not any(d["is_mutable"] for d in databases)  # type: ignore[union-attr]
    assert get_json(ds, "/-/metadata.json")["databases"][NAME]["title"] == "Tournament deck checks: spring-open"  # type: ignore[index]


def test_the_tournament_tables_hold_the_example_event(ds: object) -> None:
    events = get_json(ds, f"/{NAME}/events.json?_shape=array")
    assert [(e["name"], e["format"], e["rows"], e["legal"], e["missing"]) for e in events] == [  # type: ignore[union-attr]
        ("spring-open", "berserk-tcg", 6, 4, 1)]
    decks = get_json(ds, f"/{NAME}/decks.json?_shape=array")
    assert sorted(Path(d["path"]).name for d in decks) == [  # type: ignore[union-attr]
        "alice-white-hawks.deck", "boris-red-apostles.deck", "clara-black-forest.deck.json", "dmitri.deck", "erik.deck"]
    verdicts = get_json(ds, f"/{NAME}/verdicts.json?_labels=off")
    facet = {v["value"]: v["count"] for v in verdicts["facet_results"]["verdict"]["results"]}  # type: ignore[index]
    assert facet == {"legal": 4, "illegal": 1, "missing": 1}
    problems = get_json(ds, f"/{NAME}/problems.json?_size=0")
    codes = {v["value"]: v["count"] for v in problems["facet_results"]["code"]["results"]}  # type: ignore[index]
    assert codes == {"IDENTICAL_DECKS": 2, "UNPAYABLE_COST": 1, "FEW_MERCENARIES": 1, "TOO_MANY_COPIES": 1,
                     "MISSING_SUBMISSION": 1}


def test_illegal_decks_query_gives_each_illegal_deck_with_its_first_error(ds: object) -> None:
    rows = _query(ds, "illegal_decks")
    assert [(r["player"], Path(r["path"]).name, r["verdict"], r["first_error"], r["card"]) for r in rows] == [
        ("Dmitri Sokolov", "dmitri.deck", "illegal", "TOO_MANY_COPIES", "BK1-012")]
    assert rows[0]["message"].startswith("4 copies of Guts")


def test_problems_by_code_counts_each_code_errors_first(ds: object) -> None:
    rows = _query(ds, "problems_by_code")
    assert [(r["code"], r["severity"], r["problems"], r["submissions"]) for r in rows] == [
        ("MISSING_SUBMISSION", "error", 1, 1),
        ("TOO_MANY_COPIES", "error", 1, 1),
        ("IDENTICAL_DECKS", "warning", 2, 2),
        ("FEW_MERCENARIES", "warning", 1, 1),
        ("UNPAYABLE_COST", "warning", 1, 1),
    ]
    assert set(rows[2]["players"].split(",")) == {"Alice Archer", "Erik Hansen"}


def test_identical_decks_query_groups_the_decks_with_the_same_cards(ds: object) -> None:
    rows = _query(ds, "identical_decks")
    assert len(rows) == 1 and rows[0]["decks"] == 2 and rows[0]["event"] == "spring-open"
    assert re.fullmatch(r"Alice Archer \(.*alice-white-hawks\.deck\); Erik Hansen \(.*erik\.deck\)", rows[0]["submissions"])


def test_missing_submissions_query_lists_registered_players_without_a_deck(ds: object) -> None:
    assert _query(ds, "missing_submissions") == [
        {"event": "spring-open", "player": "Fiona Weber",
         "message": "'Fiona Weber' is registered (line 7) but sent no deck"}]


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_every_tournament_query_runs_on_a_database_with_no_events(tmp_path: Path, name: str) -> None:
    empty = tmp_path / "empty.db"
    write_database([], empty)
    with sqlite3.connect(empty) as conn:
        assert conn.execute(QUERIES[name].sql, {"card": "BK1-012"}).fetchall() == []
    conn.close()


# --- names and refusals


@pytest.mark.parametrize("stem,name", [
    ("tournament", "tournament"), ("spring open 2026", "spring-open-2026"), ("Весна", "Vesna"),
    ("Café", "Cafe"), ("_internal", "internal"), ("-", "db"), ("☃", "db"), ("a.b", "a-b"),
], ids=["plain", "spaces", "cyrillic", "accents", "datasette-reserved", "punctuation-only", "symbol-only", "dot"])
def test_an_attached_file_is_named_url_safe_after_its_stem(stem: str, name: str) -> None:
    assert url_name(stem) == name


def test_attached_names_never_clash_with_the_catalogue_or_each_other(tmp_path: Path, catalogue: Path,
                                                                    tournament_db: Path) -> None:
    first, second, third = (tmp_path / "a" / "cardkit.db", tmp_path / "b" / "x y.db", tmp_path / "c" / "x-y.db")
    for path in (first, second, third):
        path.parent.mkdir()
        path.write_bytes(tournament_db.read_bytes())
    assert list(served_databases(catalogue, [first, second, third])) == [CATALOGUE_DB, "cardkit-2", "x-y", "x-y-2"]


def _bad_attachments(tmp_path: Path, catalogue: Path) -> dict[str, tuple[Path, str]]:
    text = tmp_path / "notes.db"
    text.write_text("player,deck\n", encoding="utf-8")
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    torn = tmp_path / "torn.db"
    torn.write_bytes(b"SQLite format 3\x00" + b"\xff" * 40)
    return {
        "missing": (tmp_path / "nope.db", "no such file"),
        "directory": (tmp_path, "is a directory, not a file"),
        "text": (text, "not a SQLite database"),
        "empty": (empty, "not a SQLite database"),
        "torn": (torn, "not a readable SQLite database"),
        "catalogue": (catalogue, "that is the catalogue"),
    }


@pytest.mark.parametrize("case", ["missing", "directory", "text", "empty", "torn", "catalogue"])
def test_a_bad_attached_file_is_one_line_and_exit_2_before_the_server_starts(
        runner: CliRunner, tmp_path: Path, catalogue: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    import uvicorn

    def never(self: object, sockets: object = None) -> None:
        raise AssertionError("the server must not start")

    monkeypatch.setattr(uvicorn.Server, "run", never)
    path, message = _bad_attachments(tmp_path, catalogue)[case]
    before = path.read_bytes() if path.is_file() else None
    result = runner.invoke(app, ["serve", "--db", str(catalogue), "--port", "0", "--attach", str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: --attach {path}: {message}")
    assert (path.read_bytes() if path.is_file() else None) == before
    no_traceback(result)


def test_a_file_attached_twice_is_refused(runner: CliRunner, catalogue: Path, tournament_db: Path) -> None:
    result = runner.invoke(app, ["serve", "--db", str(catalogue), "-a", str(tournament_db), "-a", str(tournament_db)])
    assert result.exit_code == 2 and result.stderr == f"error: --attach {tournament_db}: attached twice\n"


def test_a_bad_attachment_is_refused_before_the_catalogue_is_built(runner: CliRunner, tmp_path: Path) -> None:
    target = tmp_path / "fresh.db"
    result = runner.invoke(app, ["serve", "--db", str(target), "--attach", str(tmp_path / "nope.db")])
    assert result.exit_code == 2 and not target.exists()


def test_serve_announces_each_attached_database_at_its_url(runner: CliRunner, catalogue: Path, tournament_db: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    served: list[object] = []

    def interrupted(self: object, sockets: object = None) -> None:
        served.append(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(uvicorn.Server, "run", interrupted)
    result = runner.invoke(app, ["serve", "--db", str(catalogue), "--port", "0", "--attach", str(tournament_db)])
    assert result.exit_code == 0, result.output
    assert served
    assert re.search(r"^  and spring-open\.db at http://127\.0\.0\.1:\d+/spring-open$", result.stderr, re.M), result.stderr
    no_traceback(result)


def test_serve_help_explains_attach(runner: CliRunner) -> None:
    result = runner.invoke(app, ["serve", "--help"])
    assert result.exit_code == 0 and "--attach" in result.output and "tournament" in result.output


# --- decklists: deck_cards, cards and the metagame queries


def _legal_lists() -> dict[str, dict[str, int]]:
    """Player -> card -> copies over main and side, for the example event's legal decks, from the library."""
    result = check_event([EVENT], registrations=EVENT / "registrations.csv")
    lists: dict[str, dict[str, int]] = {}
    for s in result.submissions:
        if s.verdict.value == "legal":
            totals: dict[str, int] = {}
            for c in s.cards:
                totals[c.card] = totals.get(c.card, 0) + c.copies
            lists[s.player or ""] = totals
    return lists


def test_deck_cards_hold_every_list_as_it_resolved(tournament_db: Path) -> None:
    result = check_event([EVENT], registrations=EVENT / "registrations.csv")
    with sqlite3.connect(tournament_db) as conn:
        rows = conn.execute("select d.path, dc.section, dc.game, dc.card, dc.count, dc.line from deck_cards dc "
                            "join decks d on d.id = dc.deck_id order by dc.id").fetchall()
        names = dict(conn.execute("select id, name from cards where game = 'berserk-tcg'").fetchall())
    conn.close()
    expected = [(s.path, c.section, s.report.game, c.card, c.copies, c.line) for s in result.submissions for c in s.cards]
    assert rows == expected
    assert names["BK1-012"] == "Guts" and set(names) == {card for (_, _, _, card, _, _) in rows}


def test_most_played_cards_counts_decks_and_copies_of_the_legal_field(ds: object) -> None:
    lists = _legal_lists()
    rows = _query(ds, "most_played_cards")
    top = rows[0]
    playing = [cards[top["card"]] for cards in lists.values() if top["card"] in cards]
    every = {card for cards in lists.values() for card in cards}
    assert top["decks"] == len(playing) == max(sum(card in cards for cards in lists.values()) for card in every)
    assert (top["copies"], top["fewest"], top["most"]) == (sum(playing), min(playing), max(playing))
    assert top["percent"] == round(100 * len(playing) / len(lists), 1)
    assert {r["card"] for r in rows} == every


def test_decks_playing_a_card_are_found_by_id_or_by_name(ds: object) -> None:
    by_id = get_json(ds, f"/{NAME}/decks_playing_card.json?_shape=array&card=BK1-012")
    by_name = get_json(ds, f"/{NAME}/decks_playing_card.json?_shape=array&card=guts")
    assert by_id and [(r["player"], r["main"], r["side"]) for r in by_id] == [  # type: ignore[union-attr]
        (r["player"], r["main"], r["side"]) for r in by_name if r["card"] == "BK1-012"]  # type: ignore[union-attr]
    dmitri = next(r for r in by_id if r["player"] == "Dmitri Sokolov")  # type: ignore[union-attr]
    assert dmitri["verdict"] == "illegal" and dmitri["main"] + dmitri["side"] == 4


def test_the_field_split_counts_legal_decks_by_colour_mix(ds: object, tournament_db: Path) -> None:
    from cardkit.catalogue.store import load_game

    cards = load_game("berserk-tcg").cards
    result = check_event([EVENT], registrations=EVENT / "registrations.csv")
    mixes: dict[str, int] = {}
    for s in result.submissions:
        if s.verdict.value == "legal":
            colours = sorted({cards[c.card]["colour"] for c in s.cards if c.section == "main" and cards[c.card].get("colour")},
                             key=["white", "green", "black", "red"].index)
            key = "+".join(colours) or "colourless"
            mixes[key] = mixes.get(key, 0) + 1
    rows = _query(ds, "field_split")
    assert {r["mix"]: r["decks"] for r in rows} == mixes
    assert sum(r["percent"] for r in rows) == pytest.approx(100, abs=0.2)


def test_a_listed_card_links_to_its_page_in_the_catalogue(ds: object) -> None:
    import asyncio

    async def fetch(path: str) -> tuple[int, str]:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        response = await ds.client.get(path)  # type: ignore[attr-defined]
        return response.status_code, response.text

    status, page = asyncio.run(fetch(f"/{NAME}/deck_cards?card=BK1-012"))
    assert status == 200
    assert '<a href="/cardkit/cards/berserk-tcg,BK1-012">BK1-012</a>' in page
    status, card_page = asyncio.run(fetch("/cardkit/cards/berserk-tcg,BK1-012"))
    assert status == 200 and "Guts" in card_page
    status, query_page = asyncio.run(fetch(f"/{NAME}/decks_playing_card?card=Guts"))
    assert status == 200 and 'href="/cardkit/cards/berserk-tcg,BK1-012"' in query_page


def test_every_tournament_table_has_a_search_box_over_its_words(ds: object, meta: dict) -> None:
    import asyncio

    for table in meta["tables"]:
        assert meta["tables"][table]["plugins"]["cardkit"]["search_columns"], table
    found = get_json(ds, f"/{NAME}/verdicts.json?_search=dmitri&_shape=array")
    assert [r["player"] for r in found] == ["Dmitri Sokolov"]  # type: ignore[index, union-attr]
    found = get_json(ds, f"/{NAME}/problems.json?_search=%22too%20many%22&_shape=array")
    assert [r["code"] for r in found] == ["TOO_MANY_COPIES"]  # type: ignore[index, union-attr]

    async def page() -> str:
        await ds.invoke_startup()  # type: ignore[attr-defined]
        return (await ds.client.get(f"/{NAME}/decks")).text  # type: ignore[attr-defined]

    assert 'id="_search"' in asyncio.run(page())
