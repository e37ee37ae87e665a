"""Importers: deterministic output, facts derived as the reference lists define them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from sampling import examples

from cardkit import paths
from cardkit.catalogue.check import check_catalogue
from cardkit.catalogue.importing import import_game
from cardkit.cli.main import app
from cardkit.errors import UnknownGame, UnreadableInput

REFERENCE = Path(__file__).resolve().parent / "data" / "catalogue" / "reference"
ROOT = Path(__file__).resolve().parent.parent
SOURCES: dict[str, str] = {
    "berserk-tcg": "berserk-tcg-cardlist.csv",
    "berserk-ccg": "berserk-ccg-cards.json",
    "berserk-online": "berserk-online-cards.json",
    "berserker": "berserker-fleet.txt",
}
# The names of the real reference lists in the folder CARDKIT_REFERENCE_DIR points to.
REAL_SOURCES: dict[str, str] = {**SOURCES, "berserker": "berserker-fleet-game.en.txt"}


def imported(game: str, cards_dir: Path) -> dict[str, Any]:
    import_game(game, REFERENCE / SOURCES[game], cards_dir)
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in sorted((cards_dir / game).glob("*.json"))}


def cards_of(files: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["id"]: c for doc in files.values() for c in doc.get("cards", [])}


@pytest.mark.smoke
@pytest.mark.parametrize("game", SOURCES)
def test_importing_twice_gives_byte_identical_files(tmp_path: Path, game: str) -> None:
    first = import_game(game, REFERENCE / SOURCES[game], tmp_path / "a")
    second = import_game(game, REFERENCE / SOURCES[game], tmp_path / "b")
    assert [p.name for p in first.written] == [p.name for p in second.written]
    for a, b in zip(first.written, second.written):
        assert a.read_bytes() == b.read_bytes()
    again = import_game(game, REFERENCE / SOURCES[game], tmp_path / "a")
    assert [p.read_bytes() for p in again.written] == [p.read_bytes() for p in second.written]


def test_online_element_comes_from_race_not_from_the_proto_prefix(tmp_path: Path) -> None:
    cards = cards_of(imported("berserk-online", tmp_path))
    # `a_ptitsa` would be no element at all by its prefix; its race says steppe.
    assert cards["a_ptitsa"]["elements"] == ["steppe"]
    # `b_` is the swamps prefix; the race says forest.
    assert cards["b_lesnoi_strazh"]["elements"] == ["forest"]
    assert cards["n_probnyi_molot"]["elements"] == []


def test_online_flags_costs_and_series_files(tmp_path: Path) -> None:
    files = imported("berserk-online", tmp_path)
    assert list(files) == ["series-1.json", "series-2.json", "series-unnumbered.json"]
    cards = cards_of(files)
    bird, guard, hammer = cards["a_ptitsa"], cards["b_lesnoi_strazh"], cards["n_probnyi_molot"]
    assert (bird["flying"], bird["ranged"], bird["unlimited"], bird["horde"], bird["loner"]) == (True,) * 5
    assert (guard["elite"], guard["cost"], guard["life"], guard["latin"]) == (True, 7, 12, "Lesnoi strazh")
    assert (hammer["type"], hammer["life"], hammer["strike"], hammer["series"]) == ("equipment", None, None, None)


def test_ccg_elements_zones_and_names(tmp_path: Path) -> None:
    files = imported("berserk-ccg", tmp_path)
    assert list(files) == ["set-10.json", "set-20.json"]
    cards = cards_of(files)
    flyer, warrior, land = cards["20002"], cards["10001"], cards["10003"]
    assert flyer["elements"] == ["steppe", "forest"] and flyer["zone"] == "auxiliary"
    assert flyer["latin"] == "Testovyi Ezh" and flyer["classes"] == ["Зверь"]
    assert list(flyer["icons"]) == ["armor", "regen"]
    assert warrior["elements"] == [] and warrior["name"] == "Пробный воин" and warrior["zone"] == "battlefield"
    assert land["type"] == "terrain" and land["zone"] == "auxiliary" and land["strike"] is None
    assert [c["id"] for c in files["set-10.json"]["cards"]] == ["10001", "10003"]


def test_tcg_colour_comes_from_the_block_and_cost_from_letters(tmp_path: Path) -> None:
    cards = cards_of(imported("berserk-tcg", tmp_path))
    assert cards["BK2-001"]["colour"] == "white" and cards["BK2-017"]["colour"] == "green"
    assert cards["BK2-064"]["colour"] == "red"
    assert cards["BK2-040"]["cost"] == {"white": 0, "green": 0, "black": 0, "red": 2, "colourless": 1}
    assert cards["BK2-040"]["kind"] == "effect-eternal" and cards["BK2-040"]["power"] is None
    assert cards["BK2-002"]["subtypes"] == ["Knight", "Leader"] and cards["BK2-002"]["unique"] is True
    assert [cid for cid, c in cards.items() if c["mercenary"]] == ["BK2-001", "BK2-017"]
    assert [c["kind"] for c in cards.values()].count("city") == 5


def test_fleet_cards_and_ships_come_from_the_tables(tmp_path: Path) -> None:
    files = imported("berserker", tmp_path)
    cards, ships = cards_of(files), {s["id"]: s for s in files["ships.json"]["ships"]}
    assert cards["marines"]["damage"] == 2 and cards["marines"]["destroys_user"] is True
    assert cards["marines"]["restriction"]["ships"] == ["ramship"]
    assert cards["robot-security"]["negates"] == "damage" and cards["robot-security"]["restriction"]["against"] == ["marines"]
    assert cards["evasion"]["negates"] == "attack" and cards["drift"]["type"] == "move"
    assert ships["cruiser"]["attacks_per_turn"] == 2 and ships["berserker"]["hits"] == 9
    assert sum(c["count"] for c in cards.values()) == 13


def test_import_removes_catalogue_files_of_the_game_the_source_no_longer_produces(tmp_path: Path) -> None:
    stale = tmp_path / "berserk-ccg" / "set-99.json"
    stale.parent.mkdir(parents=True)
    shutil.copy(ROOT / "data" / "cards" / "berserk-ccg" / "set-10.json", stale)
    result = import_game("berserk-ccg", REFERENCE / SOURCES["berserk-ccg"], tmp_path)
    assert result.removed == [stale] and not stale.exists()


@pytest.mark.parametrize("content", ['{"my": "notes"}', "{}", "not json at all", '{"game": "berserk-tcg"}'])
def test_a_json_file_in_the_game_folder_that_is_not_its_catalogue_file_refuses_the_import_even_with_force(
        runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "data" / "cards" / "berserker", cards / "berserker")
    notes = cards / "berserker" / "my-notes.json"
    notes.write_text(content, encoding="utf-8")
    before = {p.name: p.read_bytes() for p in sorted((cards / "berserker").iterdir())}
    monkeypatch.setattr(paths, "CARDS_DIR", cards)
    result = runner.invoke(app, ["catalogue", "import", "berserker", str(REFERENCE / SOURCES["berserker"]), "--force"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1 and "my-notes.json" in result.output
    assert {p.name: p.read_bytes() for p in sorted((cards / "berserker").iterdir())} == before


@pytest.mark.parametrize(("content", "reason"), [
    ('{"not": "a list"}', "expected a JSON list"),
    ('[{"id": "1"}]', "card #0"),
    ("[1, 2", "not valid JSON"),
])
def test_unreadable_sources_raise_unreadable_input(tmp_path: Path, content: str, reason: str) -> None:
    source = tmp_path / "cards.json"
    source.write_text(content, encoding="utf-8")
    with pytest.raises(UnreadableInput, match=reason):
        import_game("berserk-ccg", source, tmp_path / "out")
    assert not (tmp_path / "out" / "berserk-ccg").exists() or not list((tmp_path / "out" / "berserk-ccg").iterdir())


def test_unknown_game_is_refused() -> None:
    with pytest.raises(UnknownGame):
        import_game("chess", REFERENCE / SOURCES["berserk-ccg"])


def test_import_cli_writes_into_the_catalogue_folder(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path)
    result = runner.invoke(app, ["catalogue", "import", "berserk-online", str(REFERENCE / SOURCES["berserk-online"]), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["cards"] == 3 and len(out["written"]) == 3 and out["path"] == str(REFERENCE / SOURCES["berserk-online"])
    schema = json.loads((ROOT / "schemas" / "output" / "catalogue-import.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(out)) == []
    missing = runner.invoke(app, ["catalogue", "import", "berserk-online", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "no such file" in missing.output


def test_an_installed_cardkit_refuses_to_import_into_its_bundled_catalogue(
        runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path)
    monkeypatch.setattr(paths, "BUNDLED", True)
    result = runner.invoke(app, ["catalogue", "import", "berserk-online", str(REFERENCE / SOURCES["berserk-online"])])
    assert result.exit_code == 2 and "CARDKIT_HOME" in result.output
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("game", REAL_SOURCES)
def test_reimporting_the_real_reference_list_reproduces_the_committed_catalogue(
    reference_dir: Path, tmp_path: Path, game: str
) -> None:
    source = reference_dir / REAL_SOURCES[game]
    if not source.is_file():
        pytest.skip(f"{source.name} is not in CARDKIT_REFERENCE_DIR ({reference_dir}); "
                    "docs/catalogue.md, 'Reference card lists', says where each list comes from")
    result = import_game(game, source, tmp_path)
    committed = sorted(p.name for p in (ROOT / "data" / "cards" / game).glob("*.json"))
    assert sorted(p.name for p in result.written) == committed
    for path in result.written:
        assert path.read_bytes() == (ROOT / "data" / "cards" / game / path.name).read_bytes(), path.name


TCG_HEADER = "set,number,name,cost,unique,level,range,movement,power,hp,quick,type,subtype\n"
TCG_ROW = "BK1,5,Test,W,no,1,0,1,1,1,no,character,\n"


@pytest.mark.parametrize(("game", "content", "reason"), [
    ("berserk-tcg", "", "not the card list CSV"),
    ("berserk-tcg", '[{"set": "BK1"}]', "not the card list CSV: no column(s) set"),
    ("berserk-tcg", TCG_HEADER, "the list holds no cards"),
    ("berserk-tcg", TCG_HEADER + "BK1,5,Test,W,no,1\n", "line 2: 13 fields expected"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW.replace(",5,", ",999,"), "line 2: BK1 numbers its cards 1 to 160, not 999"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW.replace(",5,", ",-3,"), "not -3"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW.replace("BK1", "BK9"), "line 2: unknown set 'BK9'"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW.replace(",W,", ",W?,"), "line 2: unreadable cost"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW + TCG_ROW, "card BK1-005 /cards/1/id: card id BK1-005 also in"),
    ("berserk-tcg", TCG_HEADER + TCG_ROW.replace("Test", ""), "berserk-tcg/BK1.json card BK1-005 /cards/0/name"),
    ("berserk-ccg", "[]", "the list holds no cards"),
    ("berserk-ccg", "[1, 2]", "card #0: expected a JSON object, got a number"),
    ("berserk-ccg", '[{"id": 1, "type": 9}]', "card #0: type 9 is not one of 0, 1, 2, 3, 4, 5"),
    ("berserk-online", '["b_ahti"]', "card #0: expected a JSON object, got a string"),
    ("berserk-online", "[null]", "card #0: expected a JSON object, got null"),
    ("berserk-online", '[{"proto": "x", "crystal": "bronze"}]', "card #0: crystal must be gold or silver, not 'bronze'"),
    ("berserk-online", '[{"proto": "x", "crystal": "gold", "name": "X", "type": "q"}]', "card #0: type 'q' is not one of"),
    ("berserk-online", '[{"proto": 5, "crystal": "gold"}]', "card #0: proto must be a text id, not 5"),
    ("berserker", "just some prose", "no 'THE BERSERKER' section"),
], ids=lambda v: v if len(str(v)) < 30 else None)
def test_a_source_that_is_not_a_card_list_is_refused_and_nothing_is_written(
    tmp_path: Path, game: str, content: str, reason: str
) -> None:
    source = tmp_path / "source"
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "out"
    shutil.copytree(REFERENCE.parent / "mini" / "cards", out)
    before = {p: p.read_bytes() for p in sorted(out.rglob("*.json"))}
    with pytest.raises(UnreadableInput) as info:
        import_game(game, source, out)
    assert reason in str(info.value)
    assert {p: p.read_bytes() for p in sorted(out.rglob("*.json"))} == before


def test_an_online_card_numbered_among_named_ones_is_refused_not_a_crash(tmp_path: Path) -> None:
    # A number among text ids once crashed sorting the cards of a series, outside the per-record error handling.
    good = json.loads((REFERENCE / SOURCES["berserk-online"]).read_text(encoding="utf-8"))[0]
    source = tmp_path / "cards.json"
    source.write_text(json.dumps([good, {**good, "proto": 5}]), encoding="utf-8")
    with pytest.raises(UnreadableInput, match="card #1: proto must be a text id, not 5"):
        import_game("berserk-online", source, tmp_path / "out")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").rglob("*.json")) == []


def test_import_cli_refuses_garbage_with_one_line_and_exit_2(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path)
    garbage = tmp_path / "garbage.csv"
    garbage.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    for game in SOURCES:
        for source in (garbage, tmp_path, tmp_path / "missing.csv"):
            result = runner.invoke(app, ["catalogue", "import", game, str(source)])
            assert result.exit_code == 2, (game, source, result.output)
            assert result.output.count("\n") == 1 and result.output.startswith("error: "), result.output
    assert list(tmp_path.rglob("*.json")) == []


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
# The fields the two JSON importers read, so generated records get past the first missing field.
RAW_FIELDS = sorted({
    "id", "set_id", "number", "name", "rarity", "cost", "elite", "uniq", "color", "type", "hit", "life", "move",
    "class", "icons", "horde", "proto", "race", "crystal", "crystalCount", "health", "kick", "steps", "fly",
    "rangeAttack", "abilities", "classes", "unlim", "only", "series",
})
# Ten or more fields a record: each value nested no deeper, and with fewer leaves, than a whole document's.
FIELD_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=3,
)
RECORDS = st.lists(st.dictionaries(st.sampled_from(RAW_FIELDS), FIELD_VALUES, min_size=10), min_size=1, max_size=3)
REAL_RECORDS = [json.loads((REFERENCE / SOURCES[game]).read_text(encoding="utf-8")) for game in ("berserk-ccg", "berserk-online")]


@st.composite
def altered_records(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Real records of one reference list, each with up to three of its fields removed or replaced by any
    value: made-up records rarely get past the first field an importer checks, these reach every field."""
    real = draw(st.sampled_from(REAL_RECORDS))
    records = [dict(draw(st.sampled_from(real))) for _ in range(draw(st.integers(1, 3)))]
    for record in records:
        for field in draw(st.lists(st.sampled_from(sorted(record)), max_size=3, unique=True)):
            if draw(st.booleans()):
                record.pop(field, None)
            else:
                record[field] = draw(FIELD_VALUES)
    return records


@pytest.mark.slow
@settings(max_examples=examples(150), deadline=None, derandomize=True)
@given(st.one_of(JSON_VALUES, RECORDS, altered_records()))
def test_any_json_given_to_the_json_importers_is_refused_as_unreadable_or_imported_schema_valid(value: Any) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "cards.json"
        source.write_text(json.dumps(value), encoding="utf-8")
        for game in ("berserk-ccg", "berserk-online"):
            try:
                import_game(game, source, Path(tmp) / "out")
            except UnreadableInput:
                continue
            # What an import accepts, it writes as files that pass their schema.
            report = check_catalogue(cards_dir=Path(tmp) / "out", expectations=Path(tmp) / "none.json", games=(game,))
            assert not [p for p in report.problems if p.code == "SCHEMA_VIOLATION"], report.problems


def test_the_committed_catalogue_holds_facts_not_rules_or_flavour_text() -> None:
    """Names, ids and short labels only: any sentence of rules or flavour text would be longer."""
    def strings(node: Any) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [s for v in node.values() for s in strings(v)]
        if isinstance(node, list):
            return [s for v in node for s in strings(v)]
        return []

    found = [s for path in sorted((ROOT / "data" / "cards").glob("*/*.json"))
             for s in strings(json.loads(path.read_text(encoding="utf-8")))]
    assert len(found) > 2792
    assert [s for s in found if len(s) > 40 or ". " in s] == []


def test_a_catalogue_folder_that_cannot_be_written_is_one_error_line(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path)
    (tmp_path / "berserk-ccg" / "set-10.json").mkdir(parents=True)
    result = runner.invoke(app, ["catalogue", "import", "berserk-ccg", str(REFERENCE / SOURCES["berserk-ccg"])])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1
    assert "set-10.json is a directory" in result.output
