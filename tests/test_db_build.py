"""`build_database` / `ensure_database` / `cardkit build`: tables, counts, FTS, meta, staleness, atomicity."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from cardkit import __version__, paths
from cardkit.catalogue.store import catalogue_hash, load_game
from cardkit.cli.main import app
from cardkit.db import build as build_module
from cardkit.db.build import build_database, ensure_database, is_stale, read_meta
from cardkit.db.models import MODELS
from cardkit.errors import CatalogueError, OutputRefused
from cardkit.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
GAME_TABLES = {"berserk-tcg": "tcg_cards", "berserk-ccg": "ccg_cards", "berserk-online": "online_cards",
               "berserker": "berserker_cards"}
CARDS_COLUMNS = {"game", "id", "name", "latin", "set_id", "kind", "colour", "elements", "level", "cost",
                 "elite", "is_unique", "rarity", "mercenary", "data"}


@pytest.fixture(scope="module")
def db(catalogue_db: Path) -> Path:
    """The bundled catalogue, built once per test process (conftest.catalogue_db); the tests here only read it."""
    return catalogue_db


@pytest.fixture(scope="module")
def conn(db: Path) -> Iterator[sqlite3.Connection]:
    connection = sqlite3.connect(db)
    yield connection
    connection.close()


def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]


def test_every_contract_table_exists(conn: sqlite3.Connection) -> None:
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"cards", "tcg_cards", "ccg_cards", "online_cards", "berserker_cards", "berserker_ships",
            "sets", "formats", "meta"} <= names
    assert CARDS_COLUMNS <= set(columns(conn, "cards"))
    assert {"game", "id", "name", "latin", "cards"} <= set(columns(conn, "sets"))
    assert {"name", "game", "data"} <= set(columns(conn, "formats"))
    assert {"cost_white", "cost_green", "cost_black", "cost_red", "cost_colourless"} <= set(columns(conn, "tcg_cards"))


def test_cards_holds_every_card_of_every_game(conn: sqlite3.Connection) -> None:
    counts = dict(conn.execute("SELECT game, count(*) FROM cards GROUP BY game"))
    assert counts == {"berserk-tcg": 453, "berserk-ccg": 1310, "berserk-online": 1015, "berserker": 14}
    for game, table in GAME_TABLES.items():
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] == len(load_game(game).cards)
    assert conn.execute("SELECT count(*) FROM berserker_ships").fetchone()[0] == 4


@pytest.mark.parametrize("game", GAMES)
def test_each_game_table_has_a_column_for_every_schema_field(conn: sqlite3.Connection, game: str) -> None:
    schema = json.loads((ROOT / "schemas" / "cards" / f"{game}.schema.json").read_text(encoding="utf-8"))
    assert set(schema["$defs"]["card"]["properties"]) <= set(columns(conn, GAME_TABLES[game]))
    if game == "berserker":
        assert set(schema["$defs"]["ship"]["properties"]) <= set(columns(conn, "berserker_ships"))


def test_data_column_is_the_card_exactly(conn: sqlite3.Connection) -> None:
    for game in GAMES:
        stored = {cid: json.loads(data) for cid, data in conn.execute("SELECT id, data FROM cards WHERE game = ?", (game,))}
        assert stored == load_game(game).cards


def test_tcg_cost_is_the_sum_of_balls_and_split_into_colour_columns(conn: sqlite3.Connection) -> None:
    cards = load_game("berserk-tcg").cards
    rows = conn.execute(
        "SELECT c.id, c.cost, t.cost_white, t.cost_green, t.cost_black, t.cost_red, t.cost_colourless "
        "FROM cards c JOIN tcg_cards t ON t.id = c.id WHERE c.game = 'berserk-tcg'"
    ).fetchall()
    for cid, total, *balls in rows:
        cost = cards[cid]["cost"]
        if cost is None:
            assert total is None and balls == [None] * 5
        else:
            assert total == sum(cost.values()) and balls == [cost[k] for k in ("white", "green", "black", "red", "colourless")]


def test_elements_are_comma_joined_empty_for_neutral_and_null_without_elements(conn: sqlite3.Connection) -> None:
    for game, cid, elements in conn.execute("SELECT game, id, elements FROM cards"):
        card = load_game(game).cards[cid]
        assert elements == (",".join(card["elements"]) if "elements" in card else None)
    assert conn.execute("SELECT count(*) FROM cards WHERE game = 'berserk-ccg' AND elements = ''").fetchone()[0] > 0


def test_online_uniqueness_comes_from_its_abilities(conn: sqlite3.Connection) -> None:
    expected = {cid for cid, c in load_game("berserk-online").cards.items() if "unique" in c["abilities"]}
    found = {r[0] for r in conn.execute("SELECT id FROM cards WHERE game = 'berserk-online' AND is_unique = 1")}
    assert found == expected and expected


def test_search_key_holds_every_spelling_word_by_word(conn: sqlite3.Connection) -> None:
    key = conn.execute("SELECT search_key FROM cards WHERE game = 'berserk-online' AND id = 's_ork-kochevnik'").fetchone()[0]
    assert " орк кочевник " in key and " ork kochevnik " in key and " s ork kochevnik " in key


def test_no_full_text_index_gives_datasette_a_second_search(conn: sqlite3.Connection) -> None:
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%USING fts%'").fetchone()[0] == 0


@pytest.mark.smoke
def test_the_built_schema_is_exactly_what_the_sqlmodel_models_declare(conn: sqlite3.Connection) -> None:
    fresh = sqlite3.connect(":memory:")
    engine = create_engine("sqlite://", creator=lambda: fresh)
    SQLModel.metadata.create_all(engine, tables=[m.__table__ for m in MODELS])  # type: ignore[attr-defined]
    query = "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name"
    declared = fresh.execute(query).fetchall()
    engine.dispose()
    assert conn.execute(query).fetchall() == declared
    assert ("index", "cards_latin_key", "cards") in [row[:3] for row in declared]


def test_a_build_reads_the_remembered_table_statements_without_importing_sqlmodel_or_sqlalchemy(
        tmp_path: Path, db: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import subprocess
    import sys

    # The catalogue's check notes, so that the build here does not run jsonschema over every file again.
    shutil.copytree(cache_dir / "checked", tmp_path / "cache" / "checked")
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path / "cache"))
    build_module.table_sql()  # remembers them
    script = ("import sys; from pathlib import Path; from cardkit.db.build import build_database; "
              "build_database(Path(sys.argv[1])); print(sorted({'sqlmodel', 'sqlalchemy'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "remembered.db")], capture_output=True,
                          text=True, check=True)
    assert done.stdout == "[]\n"
    query = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
    assert sqlite3.connect(tmp_path / "remembered.db").execute(query).fetchall() == \
        sqlite3.connect(db).execute(query).fetchall()


@pytest.mark.parametrize("note", [b"", b"not json", b"[]", b'[["cards", ["id"], "CREATE TABLE x (id)", [1]]]'])
def test_a_table_statements_note_that_is_not_whole_is_not_trusted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  note: bytes) -> None:
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path))
    key = build_module._models_key()
    assert key is not None
    from cardkit import checkcache

    path = tmp_path / build_module._TABLES_FOLDER / checkcache.note_name("tables")
    path.parent.mkdir(parents=True)
    path.write_bytes(key + b"\n" + note if note != b"" else b"")
    declared = build_module._tables_of_models()
    assert build_module.table_sql() == declared and build_module.table_sql() == declared


def test_table_statements_are_remembered_for_the_models_and_libraries_they_came_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path))
    declared = build_module._tables_of_models()
    assert build_module.table_sql() == declared
    key = build_module._models_key()
    assert key is not None and (ROOT / "cardkit" / "db" / "models.py").read_bytes() in key
    assert build_module._remembered_tables(key) == declared
    assert build_module._remembered_tables(key + b" ") is None


def test_a_whole_table_statements_note_that_sqlite_refuses_is_replaced_and_the_build_still_succeeds(
        tmp_path: Path, db: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch, runner: Any) -> None:
    from cardkit import checkcache

    shutil.copytree(cache_dir / "checked", tmp_path / "cache" / "checked")
    monkeypatch.setenv("CARDKIT_CACHE_DIR", str(tmp_path / "cache"))
    declared = build_module._tables_of_models()
    key = build_module._models_key()
    assert key is not None
    broken = [(name, columns, create.replace("CREATE TABLE", "CREATE TABLEX", 1), indexes)
              for name, columns, create, indexes in declared]
    build_module._remember_tables(key, broken)
    assert build_module._remembered_tables(key) == broken  # whole, so trusted
    for attempt in ("first", "second"):
        out = tmp_path / f"{attempt}.db"
        result = runner.invoke(app, ["build", "--out", str(out)])
        assert result.exit_code == 0, result.output
        query = "SELECT type, name, sql FROM sqlite_master ORDER BY name"
        assert sqlite3.connect(out).execute(query).fetchall() == sqlite3.connect(db).execute(query).fetchall()
        assert build_module._remembered_tables(key) == declared
    assert sorted(os.listdir(tmp_path)) == ["cache", "first.db", "second.db"]  # no half-made file left
    assert os.listdir(tmp_path / "cache" / build_module._TABLES_FOLDER) == [checkcache.note_name("tables")]


def test_the_table_statements_note_is_keyed_by_the_code_that_makes_the_statements_too() -> None:
    import inspect

    key = build_module._models_key()
    source = inspect.getsourcefile(build_module._tables_of_models)
    assert key is not None and source is not None and Path(source).read_bytes() in key


def test_sets_count_their_cards(conn: sqlite3.Connection) -> None:
    for game, total in conn.execute("SELECT game, sum(cards) FROM sets GROUP BY game"):
        assert total == len(load_game(game).cards)
    assert conn.execute("SELECT name, latin FROM sets WHERE game = 'berserk-ccg' AND id = '10'").fetchone() == (
        "Война стихий", "Voina stikhii")


def test_formats_are_loaded_from_the_formats_folder(conn: sqlite3.Connection) -> None:
    files = sorted((ROOT / "data" / "formats").glob("*.json")) if (ROOT / "data" / "formats").is_dir() else []
    rows = dict(conn.execute("SELECT name, data FROM formats"))
    assert len(rows) == len(files)
    for path in files:
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert json.loads(rows[doc.get("name") or path.stem]) == doc


def test_a_missing_formats_folder_gives_an_empty_formats_table(tmp_path: Path) -> None:
    result = build_database(tmp_path / "x.db", formats_dir=tmp_path / "no-formats")
    assert result.counts.get("formats", 0) == 0
    with sqlite3.connect(result.path) as c:
        assert c.execute("SELECT count(*) FROM formats").fetchone() == (0,)


def test_meta_records_hash_version_and_build_time(db: Path) -> None:
    meta = read_meta(db)
    assert meta is not None
    assert meta["catalogue_hash"] == catalogue_hash() and meta["version"] == __version__
    assert datetime.fromisoformat(meta["built_at"]).tzinfo is not None
    assert not is_stale(db)


def test_ensure_builds_a_missing_database(tmp_path: Path) -> None:
    target = tmp_path / "sub" / "cardkit.db"
    assert ensure_database(target) == target and not is_stale(target)


def test_ensure_keeps_a_fresh_database(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a fresh database must not be rebuilt")

    monkeypatch.setattr(build_module, "build_database", refuse)
    assert ensure_database(db) == db


def test_ensure_rebuilds_when_the_stored_hash_differs(db: Path, tmp_path: Path) -> None:
    stale = tmp_path / "stale.db"
    shutil.copy(db, stale)
    with sqlite3.connect(stale) as c:
        c.execute("UPDATE meta SET value = 'old' WHERE key = 'catalogue_hash'")
    assert is_stale(stale)
    ensure_database(stale)
    assert read_meta(stale)["catalogue_hash"] == catalogue_hash()  # type: ignore[index]


def test_ensure_rebuilds_when_the_catalogue_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards_dir = tmp_path / "cards"
    shutil.copytree(ROOT / "data" / "cards", cards_dir)
    monkeypatch.setattr(paths, "CARDS_DIR", cards_dir)
    target = ensure_database(tmp_path / "cardkit.db")
    path = cards_dir / "berserker" / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["name"] = "Space Marines"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")
    assert is_stale(target)
    ensure_database(target)
    with sqlite3.connect(target) as c:
        assert c.execute("SELECT name FROM cards WHERE game = 'berserker' AND id = ?", (doc["cards"][0]["id"],)).fetchone() == ("Space Marines",)


def test_ensure_never_replaces_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    target = tmp_path / "cardkit.db"
    target.write_bytes(b"not sqlite at all")
    with pytest.raises(OutputRefused, match="17-byte file that cardkit did not write as a catalogue database"):
        ensure_database(target)
    assert target.read_bytes() == b"not sqlite at all"


def test_failed_build_leaves_the_previous_database_intact(db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "cardkit.db"
    shutil.copy(db, target)
    before = target.read_bytes()
    # Fail after every table is filled, while the last index is being made.
    monkeypatch.setattr(build_module, "_make_indexes",
                        lambda conn, tables: conn.execute("CREATE VIRTUAL TABLE broken USING no_such_module()"))
    with pytest.raises(Exception, match="no_such_module"):
        build_database(target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cardkit.db"]


def test_interrupted_first_build_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupt(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(build_module, "_write", interrupt)
    with pytest.raises(KeyboardInterrupt):
        build_database(tmp_path / "cardkit.db")
    assert list(tmp_path.iterdir()) == []


def test_build_cli_reports_tables_as_json(runner: Any, tmp_path: Path) -> None:
    out = tmp_path / "out.db"
    result = runner.invoke(app, ["build", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"path", "tables", "meta", "seconds"}
    assert report["path"] == str(out) and report["tables"]["cards"] == 2792
    assert report["meta"]["catalogue_hash"] == catalogue_hash()


def test_build_cli_uses_cardkit_db_by_default(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDKIT_DB", str(tmp_path / "env.db"))
    result = runner.invoke(app, ["build"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "env.db").is_file() and "cards" in result.output


def test_a_catalogue_with_duplicate_ids_fails_cleanly_and_keeps_the_old_database(
    db: Path, tmp_path: Path, runner: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards_dir = tmp_path / "cards"
    shutil.copytree(ROOT / "data" / "cards", cards_dir)
    path = cards_dir / "berserker" / "cards.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"].append(doc["cards"][0])
    path.write_text(json.dumps(doc), encoding="utf-8")
    target = tmp_path / "out" / "cardkit.db"
    target.parent.mkdir()
    shutil.copy(db, target)
    before = target.read_bytes()
    monkeypatch.setattr(paths, "CARDS_DIR", cards_dir)
    result = runner.invoke(app, ["build", "--out", str(target)])
    assert result.exit_code == 2
    assert "card id marines also in berserker/cards.json" in result.output and "cardkit catalogue check" in result.output
    assert target.read_bytes() == before and [p.name for p in target.parent.iterdir()] == ["cardkit.db"]


def test_an_unwritable_folder_is_a_one_line_error(runner: Any, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["build", "--out", str(blocker / "cardkit.db")])
    assert result.exit_code == 2 and result.output.startswith("error: can't write ")


MINI_CARDS = Path(__file__).resolve().parent / "data" / "catalogue" / "mini" / "cards"
# (file, a change that breaks its shape, the schema problem the error must name)
MISSHAPEN: dict[str, tuple[str, Any, str]] = {
    "file-is-a-list": ("berserk-tcg/BK1.json", [], "[] is not of type 'object'"),
    "cards-is-null": ("berserk-ccg/set-10.json", lambda d: d.update(cards=None), "/cards: null is not of type 'array'"),
    "card-is-a-number": ("berserk-online/series-1.json", lambda d: d["cards"].insert(0, 7), "/cards/0: 7 is not of type"),
    "card-id-is-a-number": ("berserker/cards.json", lambda d: d["cards"][0].update(id=5), "/cards/0/id: 5 is not of type"),
    "card-without-name": ("berserk-ccg/set-10.json", lambda d: d["cards"][0].pop("name"), "/cards/0/name: 'name' is a required"),
    "number-beyond-sqlite": ("berserker/ships.json", lambda d: d["ships"][0].update(hits=10**30), "/ships/0/hits: 1000"),
}


@pytest.mark.parametrize("case", MISSHAPEN)
def test_a_misshapen_catalogue_file_stops_build_and_loading_with_its_first_schema_problem(tmp_path: Path, case: str) -> None:
    name, change, said = MISSHAPEN[case]
    cards = tmp_path / "cards"
    shutil.copytree(MINI_CARDS, cards)
    path = cards / name
    if callable(change):
        doc = json.loads(path.read_text(encoding="utf-8"))
        change(doc)
    else:
        doc = change
    path.write_text(json.dumps(doc), encoding="utf-8")
    target = tmp_path / "cardkit.db"
    with pytest.raises(CatalogueError) as built:
        build_database(target, cards_dir=cards)
    assert not target.exists() and list(tmp_path.glob(".cardkit.db.*")) == []
    # The build refuses what `cardkit catalogue check` rejects, naming the check's first problem.
    assert said in str(built.value) and name in str(built.value) and "catalogue check" in str(built.value)
    if case != "number-beyond-sqlite":  # loading only needs ids and names; the build needs every number
        with pytest.raises(CatalogueError, match="does not match its schema"):
            load_game(name.split("/")[0], cards)


def test_ensure_never_replaces_a_sqlite_database_cardkit_did_not_build(tmp_path: Path, runner: Any) -> None:
    other = tmp_path / "tournament.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE verdicts (player TEXT, legal INTEGER)")
        connection.execute("INSERT INTO verdicts VALUES ('Alice', 1)")
    connection.close()
    before = other.read_bytes()
    with pytest.raises(OutputRefused, match=r"SQLite database \(tables verdicts\) that cardkit did not write"):
        ensure_database(other)
    assert other.read_bytes() == before
    result = runner.invoke(app, ["cards", "search", "Guts"], env={"CARDKIT_DB": str(other)})
    assert result.exit_code == 2 and result.output.startswith("error: ") and result.output.count("\n") == 1
    assert other.read_bytes() == before
