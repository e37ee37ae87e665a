"""The catalogue check remembers, by content, the files that passed their schema; a build parses each file once."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardkit import paths
from cardkit.catalogue import check as check_module
from cardkit.catalogue import store
from cardkit.catalogue.check import CheckReport, check_catalogue
from cardkit.db.build import build_database

MINI = Path(__file__).resolve().parent / "data" / "catalogue" / "mini"


@pytest.fixture
def mini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of the small valid catalogue and the schemas, with a cache folder of its own."""
    shutil.copytree(MINI, tmp_path / "mini")
    shutil.copytree(paths.SCHEMAS_DIR, tmp_path / "mini" / "schemas")
    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    return tmp_path / "mini"


def check(root: Path) -> CheckReport:
    return check_catalogue(root / "cards", schemas_dir=root / "schemas", expectations=root / "catalogue.json")


def schema_checks(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Count the files handed to jsonschema, by name."""
    seen: Counter[str] = Counter()
    real = check_module.validate_document

    def counting(doc: Any, game: str, name: str, schemas_dir: Path | None = None) -> Any:
        seen[name] += 1
        return real(doc, game, name, schemas_dir)

    monkeypatch.setattr(check_module, "validate_document", counting)
    return seen


def break_a_card(root: Path) -> None:
    path = root / "cards" / "berserk-ccg" / "set-10.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["elite"] = "yes"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")


def test_a_file_that_passed_its_schema_is_not_checked_again(mini: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = schema_checks(monkeypatch)
    assert check(mini).ok
    first = sum(seen.values())
    assert first == 6  # every card file of the small catalogue, once
    assert check(mini).ok
    assert sum(seen.values()) == first


def test_a_changed_file_is_checked_again_though_its_old_content_passed(mini: Path) -> None:
    assert check(mini).ok
    break_a_card(mini)
    report = check(mini)
    assert [p.code for p in report.problems] == ["SCHEMA_VIOLATION"]
    assert report.problems[0].file == "berserk-ccg/set-10.json"


def test_a_file_that_failed_is_checked_and_reported_every_time(mini: Path) -> None:
    break_a_card(mini)
    for _ in range(2):
        assert [p.code for p in check(mini).problems] == ["SCHEMA_VIOLATION"]


def test_a_changed_schema_checks_every_file_again(mini: Path) -> None:
    assert check(mini).ok
    schema_path = mini / "schemas" / "cards" / "berserk-ccg.schema.json"
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    schema["$defs"]["card"]["required"].append("no_card_has_this")
    schema_path.write_text(json.dumps(schema), encoding="utf-8")
    check_module._validator.cache_clear()
    codes = {p.code for p in check(mini).problems}
    assert codes == {"SCHEMA_VIOLATION"}


def test_a_build_parses_each_catalogue_file_once(mini: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: Counter[str] = Counter()
    real = store.parse_json

    def counting(text: str, path: Any = "<json>", *args: Any, **kwargs: Any) -> Any:
        parsed[Path(path).name] += 1
        return real(text, path, *args, **kwargs)

    monkeypatch.setattr(store, "parse_json", counting)
    store._PARSED.clear()
    build_database(tmp_path / "out" / "cardkit.db", cards_dir=mini / "cards")
    card_files = sorted(p.name for p in (mini / "cards").glob("*/*.json"))
    assert card_files and all(parsed[name] == 1 for name in card_files), parsed
    assert max(parsed.values()) == 1


def test_the_battle_data_files_are_schema_checked_once_per_content(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jsonschema

    from cardkit.games.squad_games.battle.abilities import abilities_data
    from cardkit.games.squad_games.battle.rules import rules_data

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    for load in (rules_data, abilities_data):
        load.cache_clear()
        first = load()
        assert any(note.name.startswith("battle-") for note in (tmp_path / "cache" / "checked").iterdir())

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("checked again")

        with monkeypatch.context() as m:
            m.setattr(jsonschema, "Draft202012Validator", refuse)
            load.cache_clear()
            assert load() == first
        load.cache_clear()


def test_notes_are_pruned_to_the_newest_when_one_is_written_and_nothing_else_is_touched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from cardkit import checkcache

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    monkeypatch.setattr(checkcache, "KEEP_NOTES", 5)
    for i in range(8):
        checkcache.remember("format-file", f"content {i}".encode())
        # Each note a second older than the next, whatever the file system's clock resolution.
        for note in (tmp_path / "cache" / "checked").iterdir():
            if note.read_bytes() == f"content {i}".encode():
                os.utime(note, (1_000_000 + i, 1_000_000 + i))
    folder = tmp_path / "cache" / "checked"
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    (folder / "format-file-0000000a-1").mkdir()
    checkcache.remember("battle-rules", b"the newest")
    kept = sorted(p.read_bytes() for p in folder.iterdir() if p.is_file() and p.name != "my-notes.txt")
    assert kept == [b"content 4", b"content 5", b"content 6", b"content 7", b"the newest"]
    assert checkcache.seen("battle-rules", b"the newest") and not checkcache.seen("format-file", b"content 0")
    assert (folder / "my-notes.txt").read_text(encoding="utf-8") == "mine" and (folder / "format-file-0000000a-1").is_dir()


def test_notes_are_pruned_to_a_total_size_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from cardkit import checkcache

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    monkeypatch.setattr(checkcache, "KEEP_BYTES", 2_500)
    for i in range(4):
        checkcache.remember("catalogue-berserk-tcg", bytes([i]) * 1_000)
        for note in (tmp_path / "cache" / "checked").iterdir():
            os.utime(note, (1_000_000 + note.read_bytes()[0], 1_000_000 + note.read_bytes()[0]))
    kept = sorted(p.read_bytes()[0] for p in (tmp_path / "cache" / "checked").iterdir())
    assert kept == [2, 3]
