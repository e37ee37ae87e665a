"""Issue 10, family 1: no command's output destroys a file.

Every written path goes through `cardkit.outputs.Output`: never an input of the command,
never a special file, never a file cardkit did not write itself (unless `--force`, where
the kind allows it). Each case builds the hostile target as a real file in tmp_path and
checks the refusal is one `error:` line, exit 2, with the target and its folder untouched.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit import paths
from cardkit.cli.main import app
from cardkit.db.build import is_catalogue_database
from cardkit.errors import OutputRefused
from cardkit.outputs import Kind, Output, clean_stale_temporaries
from cardkit.tournament.database import is_tournament_database

ROOT = Path(__file__).resolve().parent.parent
EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
ANY_KIND = Kind("test file", lambda path: False, forceable=True)


def snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry of `folder` (recursively) with its bytes, a link's target or a special file's kind."""
    out: dict[str, bytes | str] = {}
    for path in sorted(folder.rglob("*")):
        key = str(path.relative_to(folder))
        if path.is_symlink():
            out[key] = "link to " + os.readlink(path)
        elif path.is_fifo():
            out[key] = "fifo"
        elif path.is_file():
            out[key] = path.read_bytes()
        else:
            out[key] = "dir"
    return out


def refused(result: Any, *said: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1, result.output
    for words in said:
        assert words in result.output, result.output


def foreign_sqlite(path: Path, with_meta: bool = False) -> Path:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE accounts (name TEXT, balance INTEGER)")
        conn.execute("INSERT INTO accounts VALUES ('Alice', 100)")
        if with_meta:
            conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
            conn.execute("INSERT INTO meta VALUES ('owner', 'someone else')")
    conn.close()
    return path


def text_file(path: Path, text: str = "player,deck\nAlice,alice.deck\n") -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def tournament_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("tournament") / "tournament.db"
    result = CliRunner().invoke(app, ["tournament", "db", str(EVENT), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """A writable copy of the example event: decks and a registration list."""
    shutil.copytree(EVENT, tmp_path / "event")
    return tmp_path / "event"


# --- the rule itself, on the library ------------------------------------------------------------------


def test_a_fifo_is_refused_without_opening_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputRefused, match="is a FIFO, not a regular file"):
        Output(fifo, ANY_KIND, force=True).write("x")
    assert fifo.is_fifo() and [p.name for p in tmp_path.iterdir()] == ["pipe"]


def test_a_character_device_is_refused_even_with_force() -> None:
    with pytest.raises(OutputRefused, match="is a character device"):
        Output(Path(os.devnull), ANY_KIND, force=True).check()


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OutputRefused, match="is a directory"):
        Output(tmp_path, ANY_KIND, force=True).check()


def test_a_link_that_leads_nowhere_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dangling").symlink_to(tmp_path / "missing")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name in ("dangling", "loop"):
        with pytest.raises(OutputRefused, match="symbolic link that leads to no file"):
            Output(tmp_path / name, ANY_KIND, force=True).check()
    assert not (tmp_path / "missing").exists()
    (tmp_path / "folder").symlink_to(tmp_path / "nowhere" / "deeper")
    with pytest.raises(OutputRefused, match="a symbolic link that leads nowhere"):
        Output(tmp_path / "folder" / "report.csv", ANY_KIND, force=True).write("x")
    assert not (tmp_path / "nowhere").exists()


def test_a_symlink_or_hard_link_to_an_input_is_the_input(tmp_path: Path) -> None:
    deck = text_file(tmp_path / "alice.deck", HAWKS.read_text(encoding="utf-8"))
    (tmp_path / "soft.deck").symlink_to(deck)
    os.link(deck, tmp_path / "hard.deck")
    for name in ("alice.deck", "soft.deck", "hard.deck"):
        with pytest.raises(OutputRefused, match="is an input of this command"):
            Output(tmp_path / name, ANY_KIND, (deck,), force=True).check()


def test_a_forced_write_to_a_symlink_replaces_the_link_and_leaves_the_file_it_led_to(tmp_path: Path) -> None:
    real = text_file(tmp_path / "real.txt", "old")
    (tmp_path / "link.txt").symlink_to(real)
    with pytest.warns(UserWarning, match="replaced the symbolic link"):
        Output(tmp_path / "link.txt", ANY_KIND, force=True).write("new")
    assert not (tmp_path / "link.txt").is_symlink() and real.read_text(encoding="utf-8") == "old"
    assert (tmp_path / "link.txt").read_text(encoding="utf-8") == "new"


def test_an_empty_file_holds_nothing_to_lose_and_may_be_replaced(tmp_path: Path) -> None:
    empty = text_file(tmp_path / "new.db", "")
    Output(empty, ANY_KIND).write("x")
    assert empty.read_text(encoding="utf-8") == "x"


def test_a_file_that_turns_foreign_while_the_work_runs_is_not_replaced(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with pytest.raises(OutputRefused, match="did not write as a test file"):
        with Output(target, ANY_KIND).target() as tmp:
            tmp.write_text("cardkit's", encoding="utf-8")
            target.write_text("someone else's, written meanwhile", encoding="utf-8")
    assert target.read_text(encoding="utf-8") == "someone else's, written meanwhile"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


# --- build, $CARDKIT_DB, cards search, serve --db ------------------------------------------------------

DB_TARGETS: dict[str, Callable[[Path], Path]] = {
    "foreign-sqlite": lambda d: foreign_sqlite(d / "bank.db"),
    "foreign-sqlite-with-a-meta-table": lambda d: foreign_sqlite(d / "bank.db", with_meta=True),
    "csv": lambda d: text_file(d / "registrations.csv"),
    "deck": lambda d: text_file(d / "alice.deck", HAWKS.read_text(encoding="utf-8")),
}


@pytest.mark.parametrize("case", DB_TARGETS)
def test_build_out_never_replaces_a_file_cardkit_did_not_build(runner: CliRunner, tmp_path: Path, case: str) -> None:
    target = DB_TARGETS[case](tmp_path)
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["build", "--out", str(target)]), "cardkit did not write as a catalogue database")
    refused(runner.invoke(app, ["build"], env={"CARDKIT_DB": str(target)}), "did not write as a catalogue database")
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize("case", DB_TARGETS)
def test_cards_search_never_rebuilds_over_a_file_cardkit_did_not_build(runner: CliRunner, tmp_path: Path, case: str) -> None:
    target = DB_TARGETS[case](tmp_path)
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["cards", "search", "Guts"], env={"CARDKIT_DB": str(target)}), str(target))
    refused(runner.invoke(app, ["serve", "--db", str(target), "--port", "0"]), str(target))
    assert snapshot(tmp_path) == before


def test_build_never_replaces_a_tournament_database(runner: CliRunner, tmp_path: Path, tournament_db: Path) -> None:
    target = tmp_path / "tournament.db"
    shutil.copy(tournament_db, target)
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["build", "--out", str(target)]), "SQLite database (tables cards, deck_cards, decks, event_problems")
    assert snapshot(tmp_path) == before and is_tournament_database(target)


def test_build_refuses_a_fifo_and_a_device_as_its_database(runner: CliRunner, tmp_path: Path) -> None:
    fifo = tmp_path / "cardkit.db"
    os.mkfifo(fifo)
    refused(runner.invoke(app, ["build", "--out", str(fifo)]), "is a FIFO")
    refused(runner.invoke(app, ["cards", "search", "Guts"], env={"CARDKIT_DB": str(fifo)}), "is a FIFO")
    refused(runner.invoke(app, ["build", "--out", os.devnull]), "is a character device")
    assert fifo.is_fifo() and Path(os.devnull).is_char_device()


def test_build_refuses_to_write_over_a_catalogue_file(runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "data" / "cards", tmp_path / "cards")
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path / "cards")
    (tmp_path / "cardkit.db").symlink_to(tmp_path / "cards" / "berserker" / "cards.json")
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["build", "--out", str(tmp_path / "cardkit.db")]), "is an input of this command")
    assert snapshot(tmp_path) == before


def test_build_replaces_its_own_earlier_database(runner: CliRunner, tmp_path: Path, catalogue_db: Path) -> None:
    target = tmp_path / "cardkit.db"
    shutil.copy(catalogue_db, target)
    result = runner.invoke(app, ["build", "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert is_catalogue_database(target) and [p.name for p in tmp_path.iterdir()] == ["cardkit.db"]


def test_a_database_built_before_the_marker_is_still_recognised_but_a_forged_meta_table_is_not(
    tmp_path: Path, catalogue_db: Path
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(catalogue_db, old)
    with sqlite3.connect(old) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'kind'")
    conn.close()
    assert is_catalogue_database(old)
    assert not is_catalogue_database(foreign_sqlite(tmp_path / "bank.db", with_meta=True))


# --- tournament db --out and tournament check --report ------------------------------------------------


def test_tournament_db_never_replaces_an_input_a_text_file_or_another_database(
    runner: CliRunner, tmp_path: Path, event: Path, catalogue_db: Path
) -> None:
    registrations = event / "registrations.csv"
    deck = event / "decks" / "alice.deck"
    shutil.copy(catalogue_db, tmp_path / "cardkit.db")
    targets = {
        registrations: "is an input of this command",
        deck: "is an input of this command",
        text_file(tmp_path / "notes.txt", "my notes\n"): "did not write as a tournament database",
        foreign_sqlite(tmp_path / "bank.db"): "SQLite database (tables accounts)",
        tmp_path / "cardkit.db": "did not write as a tournament database",
    }
    before = snapshot(tmp_path)
    for target, said in targets.items():
        result = runner.invoke(app, ["tournament", "db", str(event), "-r", str(registrations), "--out", str(target)])
        refused(result, said)
    assert snapshot(tmp_path) == before


def test_tournament_db_replaces_its_own_earlier_database(runner: CliRunner, tmp_path: Path, tournament_db: Path) -> None:
    target = tmp_path / "tournament.db"
    shutil.copy(tournament_db, target)
    result = runner.invoke(app, ["tournament", "db", str(EVENT), "--out", str(target)])
    assert result.exit_code == 0, result.output
    assert is_tournament_database(target) and [p.name for p in tmp_path.iterdir()] == ["tournament.db"]


@pytest.mark.parametrize("force", [False, True], ids=["without-force", "with-force"])
def test_a_report_never_replaces_the_registration_list_or_a_deck_even_with_force(
    runner: CliRunner, tmp_path: Path, event: Path, force: bool
) -> None:
    registrations = event / "registrations.csv"
    deck = event / "decks" / "clara.deck.json"  # a JSON deck: `--report` takes its suffix for a JSON report
    (tmp_path / "report.csv").symlink_to(registrations)
    before = snapshot(tmp_path)
    for target in (registrations, deck, tmp_path / "report.csv"):
        args = ["tournament", "check", str(event), "-r", str(registrations), "--report", str(target)]
        refused(runner.invoke(app, args + (["--force"] if force else [])), "is an input of this command")
    assert snapshot(tmp_path) == before


def test_a_report_over_a_file_cardkit_did_not_write_needs_force(runner: CliRunner, tmp_path: Path) -> None:
    target = text_file(tmp_path / "budget.csv", "item,cost\nhall,100\n")
    check = ["tournament", "check", str(EVENT), "--report", str(target)]
    refused(runner.invoke(app, check), "did not write as a report; give --force")
    assert target.read_text(encoding="utf-8") == "item,cost\nhall,100\n"
    assert runner.invoke(app, check + ["--force"]).exit_code == 1  # written; the event has illegal decks
    assert target.read_text(encoding="utf-8").startswith("path,player,name,")


@pytest.mark.parametrize("suffix", [".csv", ".json", ".html"])
def test_a_report_replaces_its_own_earlier_report_of_each_kind(runner: CliRunner, tmp_path: Path, suffix: str) -> None:
    target = tmp_path / f"report{suffix}"
    check = ["tournament", "check", str(EVENT), "--report", str(target)]
    assert runner.invoke(app, check).exit_code == 1
    first = target.read_bytes()
    target.write_bytes(first.replace(b"spring-open", b"autumn-open"))  # an older report of another event
    assert runner.invoke(app, check).exit_code == 1
    assert target.read_bytes() == first and [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_report_onto_a_fifo_is_refused_before_checking_anything(runner: CliRunner, tmp_path: Path) -> None:
    fifo = tmp_path / "report.csv"
    os.mkfifo(fifo)
    result = runner.invoke(app, ["tournament", "check", str(EVENT), "--report", str(fifo), "--force"])
    refused(result, "is a FIFO")
    assert fifo.is_fifo()


# --- deck convert --out, simulate --plot ---------------------------------------------------------------


def test_convert_never_writes_over_its_input_through_a_link(runner: CliRunner, tmp_path: Path) -> None:
    deck = text_file(tmp_path / "alice.deck", HAWKS.read_text(encoding="utf-8"))
    (tmp_path / "alice.json").symlink_to(deck)
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["deck", "convert", str(deck), "--to", "json", "-o", str(tmp_path / "alice.json"),
                                "--force"]), "is an input of this command")
    assert snapshot(tmp_path) == before


def test_convert_replaces_a_hand_written_deck_only_with_force_and_its_own_output_freely(
    runner: CliRunner, tmp_path: Path
) -> None:
    mine = text_file(tmp_path / "mine.deck", "game: berserk-tcg\n\n3 Guts (BK1-012)\n")
    convert = ["deck", "convert", str(HAWKS), "--to", "text", "-o", str(mine)]
    refused(runner.invoke(app, convert), "did not write as a converted deck; give --force")
    assert mine.read_text(encoding="utf-8") == "game: berserk-tcg\n\n3 Guts (BK1-012)\n"
    assert runner.invoke(app, convert + ["--force"]).exit_code == 0
    written = mine.read_bytes()
    assert runner.invoke(app, convert).exit_code == 0  # its own earlier output
    assert mine.read_bytes() == written and [p.name for p in tmp_path.iterdir()] == ["mine.deck"]


def test_simulate_never_plots_over_its_deck(runner: CliRunner, tmp_path: Path) -> None:
    deck = text_file(tmp_path / "x.png", HAWKS.read_text(encoding="utf-8"))
    before = snapshot(tmp_path)
    refused(runner.invoke(app, ["simulate", str(deck), "--games", "50", "--plot", str(deck), "--force"]),
            "is an input of this command")
    assert snapshot(tmp_path) == before


@pytest.mark.slow
def test_simulate_replaces_a_foreign_picture_only_with_force_and_its_own_plot_freely(runner: CliRunner, tmp_path: Path) -> None:
    picture = tmp_path / "holiday.png"
    picture.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    simulate = ["simulate", str(HAWKS), "--games", "50", "--turns", "2", "--plot", str(picture)]
    refused(runner.invoke(app, simulate), "did not write as a plot; give --force")
    assert picture.read_bytes() == b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
    assert runner.invoke(app, simulate + ["--force"]).exit_code == 0
    assert runner.invoke(app, simulate).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["holiday.png"]


# --- stale temporary files ------------------------------------------------------------------------------


def _dead_pid() -> int:
    pid = 4_000_000  # above Linux's largest pid
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except OSError:
            pass
        pid += 1


def test_a_killed_writers_old_temporary_files_are_removed_and_live_or_fresh_ones_kept(tmp_path: Path) -> None:
    target = tmp_path / "cardkit.db"
    old = time.time() - 3600
    dead = tmp_path / f".cardkit.db.{_dead_pid()}.abc123de.tmp"
    dead_journal = tmp_path / f".cardkit.db.{_dead_pid()}.abc123de.tmp-journal"
    unmarked = tmp_path / ".cardkit.db.x9y8z7w6.tmp"  # written before temporaries carried their pid
    live = tmp_path / f".cardkit.db.{os.getpid()}.def456gh.tmp"
    fresh = tmp_path / f".cardkit.db.{_dead_pid()}.ghi789jk.tmp"
    other = tmp_path / f".tournament.db.{_dead_pid()}.abc123de.tmp"
    users = tmp_path / ".cardkit.db.my backup.tmp"  # not a name cardkit gives
    for path in (dead, dead_journal, unmarked, live, fresh, other, users):
        path.write_bytes(b"half a database")
        if path is not fresh:
            os.utime(path, (old, old))
    removed = clean_stale_temporaries(target)
    assert sorted(removed) == sorted([dead, dead_journal, unmarked])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in (live, fresh, other, users))


def test_a_build_clears_what_a_killed_build_left(runner: CliRunner, tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys

    target = tmp_path / "cardkit.db"
    killed = ("import os, signal, sys\nfrom cardkit.outputs import atomic_target\n"
              "with atomic_target(sys.argv[1]) as tmp:\n"
              "    tmp.write_bytes(b'SQLite format 3\\x00 half a database')\n"
              "    os.kill(os.getpid(), signal.SIGKILL)\n")
    done = subprocess.run([sys.executable, "-c", killed, str(target)], env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == -signal.SIGKILL
    (leftover,) = tmp_path.iterdir()
    assert leftover.name.startswith(".cardkit.db.") and leftover.name.endswith(".tmp")
    assert runner.invoke(app, ["build", "--out", str(target)]).exit_code == 0
    assert leftover.exists()  # too young to call stale: its writer might only be slow on another machine
    old = time.time() - 3600
    os.utime(leftover, (old, old))
    assert runner.invoke(app, ["build", "--out", str(target)]).exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["cardkit.db"]


# --- any existing content ---------------------------------------------------------------------------------


def _kinds() -> dict[str, tuple[Kind, str]]:
    from cardkit.db.build import CATALOGUE_DATABASE
    from cardkit.decks.canonical import CONVERTED_DECK
    from cardkit.plotting import PLOT
    from cardkit.tournament.database import TOURNAMENT_DATABASE
    from cardkit.tournament.reports import REPORT

    return {"catalogue-db": (CATALOGUE_DATABASE, "x.db"), "tournament-db": (TOURNAMENT_DATABASE, "x.db"),
            "csv-report": (REPORT, "x.csv"), "json-report": (REPORT, "x.json"), "html-report": (REPORT, "x.html"),
            "deck": (CONVERTED_DECK, "x.deck"), "json-deck": (CONVERTED_DECK, "x.deck.json"),
            "png": (PLOT, "x.png"), "svg": (PLOT, "x.svg")}


CONTENTS = st.one_of(
    st.binary(min_size=1, max_size=200),
    st.text(min_size=1, max_size=200).map(lambda t: t.encode("utf-8")),
    st.sampled_from([b"SQLite format 3\x00" + b"\x00" * 84, b"\x89PNG\r\n\x1a\n", b"<?xml version='1.0'?><svg/>",
                     b"<!DOCTYPE html><p>minutes</p>", b"path,player\n", b'{"event": "x"}', b"game: berserk-tcg\n"]),
)


@settings(max_examples=examples(120))
@given(kind_name=st.sampled_from(sorted(_kinds())), content=CONTENTS, force=st.booleans())
def test_any_existing_file_is_left_whole_or_replaced_only_as_the_rule_allows(kind_name: str, content: bytes,
                                                                             force: bool) -> None:
    import tempfile

    kind, name = _kinds()[kind_name]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        target, neighbour = folder / name, folder / "neighbour.txt"
        target.write_bytes(content)
        neighbour.write_text("untouched", encoding="utf-8")
        try:
            Output(target, kind, (neighbour,), force).write(b"new")
        except OutputRefused:
            assert target.read_bytes() == content
            assert not (force and kind.forceable)
        else:
            assert force and kind.forceable, (kind_name, content)  # garbage is never taken for cardkit's own
            assert target.read_bytes() == b"new"
        assert neighbour.read_text(encoding="utf-8") == "untouched"
        assert sorted(p.name for p in folder.iterdir()) == sorted([name, "neighbour.txt"])


def test_no_module_writes_a_file_except_through_the_guarded_writer() -> None:
    """The rule lives in one place only if every writer goes through it: no other module may reach
    for the raw atomic writer or open a file for writing."""
    import re

    raw = re.compile(r"\b(atomic_target|write_atomic|write_text|write_bytes)\b|open\([^)]*['\"][wax]b?\+?['\"]")
    allowed = {"cardkit/jsonio.py", "cardkit/outputs.py"}
    offenders = []
    for source in sorted((ROOT / "cardkit").rglob("*.py")):
        name = source.relative_to(ROOT).as_posix()
        for number, line in enumerate(source.read_text(encoding="utf-8").split("\n"), start=1):
            # A temporary path handed out by `Output.target()` is the guarded writer's own file.
            if raw.search(line) and name not in allowed and "tmp.write_bytes" not in line:
                offenders.append(f"{name}:{number}: {line.strip()}")
    assert offenders == []


def test_the_atomic_writers_temporary_files_are_new_private_and_named_as_the_leftover_sweep_reads_them(tmp_path: Path) -> None:
    from cardkit.outputs import _fresh_file, _temporary_name

    target = tmp_path / "state.json"
    made = [_fresh_file(target) for _ in range(50)]
    assert len(set(made)) == 50
    for tmp in made:
        assert tmp.parent == tmp_path and tmp.read_bytes() == b""
        assert _temporary_name(tmp.name, target.name) == (True, os.getpid())
        assert tmp.stat().st_mode & 0o777 == 0o600
