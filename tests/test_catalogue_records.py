"""A game's card records for the engines: the strict catalogue's records, parsed one card at a time from a note
kept by content, and never from a note of other content."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cardkit import paths
from cardkit.games.registry import GAMES
from cardkit.catalogue import records
from cardkit.catalogue.records import card_records
from cardkit.catalogue.store import CardTable, load_game
from cardkit.errors import CatalogueError


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    """A copy of the Berserker catalogue (the smallest) that a test may change."""
    shutil.copytree(paths.CARDS_DIR / "berserker", tmp_path / "cards" / "berserker")
    records._records.cache_clear()
    return tmp_path / "cards"


def fresh(game: str, cards_dir: Path | None = None) -> dict[str, object]:
    """The records as a new process gets them (the note written by an earlier one, if any)."""
    records._records.cache_clear()
    return dict(card_records(game, cards_dir))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_records_read_strictly_and_from_the_note_are_the_catalogues_in_its_order(game: str) -> None:
    strict = load_game(game).cards
    first, second = fresh(game), fresh(game)
    assert list(first) == list(second) == list(strict)
    assert first == second == strict


def test_records_from_a_note_are_parsed_only_when_looked_up(catalogue: Path) -> None:
    fresh("berserker", catalogue)
    records._records.cache_clear()
    table = card_records("berserker", catalogue)
    assert isinstance(table, CardTable) and table._built == {}
    some = next(iter(table))
    assert table[some] == load_game("berserker", catalogue).cards[some]
    assert list(table._built) == [some]


def test_a_changed_catalogue_file_is_read_again_not_taken_from_the_note_of_its_old_bytes(catalogue: Path) -> None:
    path = next(p for p in sorted((catalogue / "berserker").glob("*.json")) if '"cards"' in p.read_text(encoding="utf-8"))
    fresh("berserker", catalogue)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["cards"][0]["name"] = "Renamed"
    path.write_text(json.dumps(document), encoding="utf-8")
    after = fresh("berserker", catalogue)
    assert after[document["cards"][0]["id"]]["name"] == "Renamed"  # type: ignore[index]


def test_a_catalogue_the_strict_reader_refuses_is_refused_every_time(catalogue: Path) -> None:
    path = next((catalogue / "berserker").glob("*.json"))
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("{", '{"id": "x", "id": "y", ', 1), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(CatalogueError):
            fresh("berserker", catalogue)


@pytest.mark.parametrize("garbage", [b"", b"berserker\0", b"x\n\"a\"\t{}\n"], ids=["empty", "short", "other-key"])
def test_a_damaged_note_is_ignored_and_the_catalogue_read_strictly(catalogue: Path, garbage: bytes) -> None:
    strict = fresh("berserker", catalogue)
    notes = list((paths.cache_dir() / "records").glob("berserker-*"))
    assert notes
    for note in notes:
        note.write_bytes(garbage)
    assert fresh("berserker", catalogue) == strict


def test_writing_a_records_note_prunes_the_records_folder_to_the_newest_and_leaves_other_files(
        catalogue: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from cardkit import checkcache

    monkeypatch.setattr(paths, "cache_dir", lambda: catalogue.parent / "cache")
    monkeypatch.setattr(checkcache, "KEEP_NOTES", 2)
    folder = paths.cache_dir() / "records"
    folder.mkdir(parents=True, exist_ok=True)
    old = [folder / f"berserker-{i:08x}-10" for i in range(3)]
    for i, note in enumerate(old):
        note.write_bytes(b"an older catalogue's records")
        os.utime(note, (1_000_000 + i, 1_000_000 + i))
    (folder / "mine.txt").write_text("mine", encoding="utf-8")
    fresh("berserker", catalogue)
    left = sorted(p.name for p in folder.iterdir())
    assert old[2].name in left and old[0].name not in left and old[1].name not in left
    assert "mine.txt" in left and len([n for n in left if n.startswith("berserker-")]) == 2


def test_the_strict_reader_is_public_and_reads_the_bytes_there_now_where_load_game_keeps_its_first_copy(
        catalogue: Path) -> None:
    from cardkit.catalogue.store import read_game

    path = next(p for p in sorted((catalogue / "berserker").glob("*.json")) if '"cards"' in p.read_text(encoding="utf-8"))
    kept = load_game("berserker", catalogue)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["cards"][0]["name"] = "Renamed"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert read_game("berserker", catalogue).cards[document["cards"][0]["id"]]["name"] == "Renamed"
    assert load_game("berserker", catalogue) is kept
    assert not hasattr(read_game, "cache_info")
