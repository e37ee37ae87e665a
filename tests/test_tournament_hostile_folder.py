"""A submissions folder with links leaving it, broken links and unreadable entries: each a row saying why, nothing quoted."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament import check_event

ROOT = Path(__file__).resolve().parent.parent
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
SECRET = "API_KEY=hunter2-do-not-quote"


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """An event folder with one real deck, links out of the folder, broken links and an unlistable subfolder."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secrets.env").write_text(SECRET + "\nplayer: Root\n", encoding="utf-8")
    (outside / "real.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    folder = tmp_path / "event"
    (folder / "decks" / "locked").mkdir(parents=True)
    (folder / "decks" / "alice.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "decks" / "stolen.deck").symlink_to(outside / "secrets.env")
    (folder / "decks" / "borrowed.deck").symlink_to(Path("..") / ".." / "outside" / "real.deck")
    (folder / "decks" / "dangling.deck").symlink_to(folder / "decks" / "gone.deck")
    (folder / "decks" / "loop.deck").symlink_to(folder / "decks" / "loop.deck")
    (folder / "decks" / "alias.deck").symlink_to("alice.deck")
    (folder / "decks" / "elsewhere").symlink_to(outside)
    (folder / "decks" / "store").symlink_to(folder / "decks" / "locked")
    (folder / "registrations.csv").write_text("player,deck\nAlice Archer,alice.deck\nRoot,stolen.deck\n", encoding="utf-8")
    return folder


@pytest.fixture
def locked(event: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """`decks/locked` can't be listed and `decks/alice.deck`'s twin `private.deck` can't be read, whoever runs the test.

    The tests run as root, where chmod denies nothing, so the permission errors are raised where the OS would.
    """
    folder = event / "decks" / "locked"
    private = event / "decks" / "private.deck"
    private.write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    real_scandir, real_open = os.scandir, os.open

    def scandir(path: object) -> object:
        if Path(str(path)) == folder:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    def open_(path: object, flags: int, *args: object) -> int:
        if Path(str(path)) == private:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(os, "open", open_)
    return event


def test_each_bad_entry_is_its_own_unreadable_row_saying_why(locked: Path) -> None:
    result = check_event([locked])
    rows = {s.relative: (s.verdict.value, s.report.failure or "") for s in result.submissions}
    assert rows["decks/alice.deck"][0] == "legal"
    assert "outside the event folder; not followed" in rows["decks/stolen.deck"][1]
    assert "outside the event folder; not followed" in rows["decks/borrowed.deck"][1]
    assert "dangling symbolic link" in rows["decks/dangling.deck"][1]
    assert "symbolic link loop" in rows["decks/loop.deck"][1]
    assert "permission denied" in rows["decks/private.deck"][1]
    assert "folder can't be read (permission denied)" in rows["decks/locked"][1]
    assert "a symbolic link to a folder outside the event folder" in rows["decks/elsewhere"][1]
    assert "decks/store" not in rows  # a link to a folder inside is the folder itself, walked once
    assert all(verdict == "unreadable" for rel, (verdict, _) in rows.items() if rel != "decks/alice.deck")
    # The link to alice.deck inside the folder is the same submission, read once.
    assert "decks/alias.deck" not in rows


def test_a_link_leaving_the_folder_is_never_read_nor_quoted_anywhere(event: Path, runner: CliRunner, tmp_path: Path) -> None:
    regs = str(event / "registrations.csv")
    outputs = []
    for suffix in (".csv", ".html", ".json"):
        report = tmp_path / f"report{suffix}"
        result = runner.invoke(app, ["tournament", "check", str(event), "-r", regs, "--details", "--report", str(report)])
        assert result.exit_code == 1, result.output
        outputs += [result.output, report.read_text(encoding="utf-8")]
    db = tmp_path / "event.db"
    assert runner.invoke(app, ["tournament", "db", str(event), "-r", regs, "--out", str(db)]).exit_code == 0
    with sqlite3.connect(db) as conn:
        outputs += [json.dumps(row) for table in ("decks", "problems") for row in conn.execute(f"SELECT * FROM {table}")]
    assert not [text for text in outputs if "hunter2" in text or "secrets.env" in text]
    # Root registered `stolen.deck`; the row says the link was refused rather than that Root sent nothing.
    assert "sent no deck" not in outputs[0]


def test_links_inside_the_folder_are_followed(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    (folder / "store").mkdir(parents=True)
    (folder / "store" / "alice.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "alice-link.deck").symlink_to(Path("store") / "alice.deck")
    result = check_event([folder / "alice-link.deck", folder])
    assert [(s.relative, s.verdict.value) for s in result.submissions] == [("alice-link.deck", "legal")]


def test_a_fifo_in_the_folder_is_a_row_and_never_blocks(tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "alice.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    os.mkfifo(folder / "pipe.deck")
    rows = {s.relative: s for s in check_event([folder]).submissions}
    assert rows["pipe.deck"].verdict.value == "unreadable" and "FIFO" in (rows["pipe.deck"].report.failure or "")
