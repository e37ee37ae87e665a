"""Importers: deterministic output, facts derived as the reference lists define them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardkit import paths
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


def test_import_removes_files_the_source_no_longer_produces(tmp_path: Path) -> None:
    stale = tmp_path / "berserk-ccg" / "set-99.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}", encoding="utf-8")
    result = import_game("berserk-ccg", REFERENCE / SOURCES["berserk-ccg"], tmp_path)
    assert result.removed == [stale] and not stale.exists()


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
    assert out["cards"] == 3 and len(out["written"]) == 3
    missing = runner.invoke(app, ["catalogue", "import", "berserk-online", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "no such file" in missing.output


@pytest.mark.parametrize("game", REAL_SOURCES)
def test_reimporting_the_real_reference_list_reproduces_the_committed_catalogue(
    reference_dir: Path, tmp_path: Path, game: str
) -> None:
    source = reference_dir / REAL_SOURCES[game]
    if not source.is_file():
        pytest.skip(f"{source.name} is not in CARDKIT_REFERENCE_DIR")
    result = import_game(game, source, tmp_path)
    committed = sorted(p.name for p in (ROOT / "data" / "cards" / game).glob("*.json"))
    assert sorted(p.name for p in result.written) == committed
    for path in result.written:
        assert path.read_bytes() == (ROOT / "data" / "cards" / game / path.name).read_bytes(), path.name
