"""The cache's notes folders (schema checks, compiled schemas) are used only when cardkit made them:
a folder that is a link to another folder, or that another user owns, is never written or read."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from cardkit import checkcache, fastschema, paths


def _schema_check(cards: Path) -> None:
    checkcache.remember("format-file", b"a format file's bytes")


def _compiled_schema(cards: Path) -> None:
    fastschema._compiled.cache_clear()
    text = json.dumps({"type": "array", "maxItems": 2, "$comment": "cache folders"})
    assert fastschema.passes(text, [1]) and not fastschema.passes(text, [1, 2, 3])


WRITERS: dict[str, Callable[[Path], None]] = {"checked": _schema_check, "compiled": _compiled_schema}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    shutil.copytree(paths.CARDS_DIR / "berserker", tmp_path / "cards" / "berserker")
    (tmp_path / "cache").mkdir()
    return tmp_path / "cache"


def _listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("folder", sorted(WRITERS))
def test_a_notes_folder_that_is_a_link_to_a_folder_of_the_users_is_left_untouched_and_the_command_works(
        cache: Path, folder: str) -> None:
    mine = cache.parent / "mine"
    mine.mkdir()
    (mine / "letter.txt").write_text("mine", encoding="utf-8")
    # Named as the notes written here are: a write that followed the link would replace them.
    (mine / checkcache.note_name("format-file")).write_bytes(b"mine too")
    (mine / checkcache.note_name("schema")).write_bytes(b"mine too")
    before = _listing(mine)
    (cache / folder).symlink_to(mine, target_is_directory=True)
    for _ in range(2):
        WRITERS[folder](cache.parent / "cards")
    assert _listing(mine) == before
    assert (cache / folder).is_symlink()


@pytest.mark.parametrize("folder", sorted(WRITERS))
def test_a_notes_folder_another_user_owns_is_neither_written_nor_read(cache: Path, folder: str) -> None:
    if os.getuid() != 0:
        pytest.skip("only root can give a folder to another user")
    theirs = cache / folder
    theirs.mkdir()
    os.chown(theirs, 4242, 4242)
    WRITERS[folder](cache.parent / "cards")
    assert list(theirs.iterdir()) == []


def test_compiled_code_planted_in_a_linked_compiled_folder_is_never_run(cache: Path) -> None:
    text = json.dumps({"type": "array", "maxItems": 2, "$comment": "planted"})
    key = fastschema._key(text)
    assert key is not None
    mine = cache.parent / "mine"
    mine.mkdir()
    planted = compile("def validate(data):\n    return data\n", "<planted>", "exec")
    import marshal

    (mine / fastschema._note("").name).write_bytes(f"validate {len(key)}\n".encode() + key + marshal.dumps(planted))
    (cache / "compiled").symlink_to(mine, target_is_directory=True)
    fastschema._compiled.cache_clear()
    assert not fastschema.passes(text, [1, 2, 3])  # the planted code passes everything
    assert fastschema._remembered(key, "") is None


def test_a_note_that_is_a_link_is_neither_followed_to_write_nor_read(cache: Path) -> None:
    data = b"a format file's bytes"
    target = cache.parent / "target.txt"
    target.write_bytes(data)
    (cache / "checked").mkdir()
    (cache / "checked" / checkcache.note_name("format-file")).symlink_to(target)
    assert not checkcache.seen("format-file", data)
    checkcache.remember("format-file", data + b"")
    assert target.read_bytes() == data and (cache / "checked" / checkcache.note_name("format-file")).is_symlink()
