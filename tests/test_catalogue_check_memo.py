"""The catalogue check remembers the content of the files that passed their schema, one note per file; a build
parses each file once."""

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


def test_a_file_changed_and_checked_again_leaves_one_note_the_note_of_its_new_content(mini: Path) -> None:
    assert check(mini).ok
    folder = paths.cache_dir() / "checked"
    before = sorted(p.name for p in folder.iterdir())
    assert len([n for n in before if n.startswith("catalogue-")]) == len(list((mini / "cards").glob("*/*.json")))
    path = mini / "cards" / "berserk-ccg" / "set-10.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][0]["name"] = "Renamed"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    assert check(mini).ok
    assert sorted(p.name for p in folder.iterdir()) == before
    assert any(path.read_bytes() in note.read_bytes() for note in folder.iterdir())


def test_every_note_is_kept_however_many_files_there_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit import checkcache

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    files = [tmp_path / "cards" / f"file-{i}.json" for i in range(1_000)]
    for i, path in enumerate(files):
        checkcache.remember("catalogue-berserker", f"content {i}".encode(), checkcache.about_file(path))
    assert all(checkcache.seen("catalogue-berserker", f"content {i}".encode(), checkcache.about_file(path))
               for i, path in enumerate(files))
    assert not checkcache.seen("catalogue-berserker", b"content 0", checkcache.about_file(files[1]))


def test_the_notes_folder_holds_nothing_but_the_notes_written_and_what_was_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit import checkcache

    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    folder = tmp_path / "cache" / "checked"
    folder.mkdir(parents=True)
    (folder / "my-notes.txt").write_text("mine", encoding="utf-8")
    (folder / "format-file-0000000a-1").mkdir()
    for i in range(3):
        checkcache.remember("battle-rules", f"version {i}".encode())
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        ["my-notes.txt", "format-file-0000000a-1", checkcache.note_name("battle-rules")])
    assert checkcache.seen("battle-rules", b"version 2") and not checkcache.seen("battle-rules", b"version 1")
