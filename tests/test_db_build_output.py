"""What `build_database` writes, row for row: a faster build must write the very same database.

`mini-build.sql` is the dump of the mini catalogue's database as the build wrote it before the rows
were made faster (text keys folded word by word, JSON text, column order); the whole bundled catalogue
is compared column by column with what the catalogue's own records and the folding functions give.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from cardkit.catalogue.store import load_game
from cardkit.db.build import build_database
from cardkit.db.rows import to_json, to_json_each
from cardkit.games.registry import GAMES
from cardkit.textfold import fold, fold_latin, loose_latin, search_key

DATA = Path(__file__).resolve().parent / "data"
MINI = DATA / "catalogue" / "mini" / "cards"
GOLDEN = DATA / "catalogue" / "mini-build.sql"
GAME_TABLES = {"berserk-tcg": "tcg_cards", "berserk-ccg": "ccg_cards", "berserk-online": "online_cards",
               "berserker": "berserker_cards"}
# Change from build to build, or with the package's version; everything else is compared.
_VARYING_META = ("built_at", "version")


def dump(path: Path) -> list[str]:
    """The database as SQL statements (schema and every row), less the meta values that vary."""
    with sqlite3.connect(path) as conn:
        lines = list(conn.iterdump())
    conn.close()
    return [line for line in lines
            if not any(line.startswith(f"INSERT INTO \"meta\" VALUES('{key}',") for key in _VARYING_META)]


def build_mini(folder: Path) -> Path:
    """The mini catalogue built without format files (the bundled ones change; the golden should not)."""
    return build_database(folder / "mini.db", cards_dir=MINI, formats_dir=folder / "no-formats").path


def test_the_mini_catalogue_builds_into_exactly_the_database_it_built_before(tmp_path: Path) -> None:
    golden = GOLDEN.read_text(encoding="utf-8")
    assert '\nINSERT INTO "cards" VALUES(' in golden
    assert "\n".join(dump(build_mini(tmp_path))) + "\n" == golden


@pytest.fixture(scope="module")
def conn(catalogue_db: Path) -> Any:
    connection = sqlite3.connect(f"file:{catalogue_db}?mode=ro", uri=True)
    yield connection
    connection.close()


def _compact(value: Any) -> Any:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")) if isinstance(value, (list, dict)) else value


def test_every_card_row_holds_its_record_and_the_keys_folded_from_its_names(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT game, id, name, latin, data, name_key, latin_key, loose_key, search_key FROM cards")
    seen = 0
    for game, cid, name, latin, data, name_key, latin_key, loose_key, key in rows:
        card = load_game(game).cards[cid]
        assert data == json.dumps(card, ensure_ascii=False, separators=(",", ":"))
        assert (name, latin) == (card["name"], card.get("latin") or card["name"])
        assert (name_key, latin_key, loose_key) == (fold(name), fold_latin(latin), loose_latin(latin))
        assert key == search_key(name, latin, cid)
        seen += 1
    assert seen == sum(len(load_game(game).cards) for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_row_holds_each_field_of_its_card_with_lists_and_objects_as_compact_json(
        conn: sqlite3.Connection, game: str) -> None:
    table = GAME_TABLES[game]
    cursor = conn.execute(f'SELECT * FROM "{table}" ORDER BY rowid')
    columns = [d[0] for d in cursor.description]
    cards = load_game(game).cards
    rows = cursor.fetchall()
    assert [row[columns.index("id")] for row in rows] == list(cards)
    for row in rows:
        stored = dict(zip(columns, row))
        card = cards[stored["id"]]
        for field, value in card.items():
            assert stored[field] == _compact(value), (stored["id"], field)
        assert all(stored[c] is None for c in columns if c not in card and not c.startswith("cost_")), stored["id"]


@pytest.mark.parametrize("values", [
    [[1, "\x00\x1f", 2], {"a": ["\x00\x1f"]}, []],
    [{"name": "Орк", "x": [True, None, 1.5]}, ["a\\\"b", ",\"\u0000\u001f\","], {}],
    [[], []],
    [{"k": "v"}],
])
def test_lists_and_objects_encoded_together_are_each_what_encoding_it_alone_gives(values: list[Any]) -> None:
    assert to_json_each(values) == [to_json(v) for v in values]
