"""Hostile files against every reader: special files, JSON past the limits, counts no int() should see, and the error edges.

Each case ends in one `error:` line (or a problem row) and a documented exit code, never a
traceback, a hang or a file changed.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from cardkit import paths
from cardkit.cli.main import app
from cardkit.decks import read_deck
from cardkit.errors import UnreadableInput
from cardkit.jsonio import MAX_JSON_DEPTH, MAX_NUMBER_DIGITS, parse_json, read_bytes_input, whole_number

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
FOUR_GUTS = ROOT / "decks" / "berserk-tcg" / "illegal-four-guts.deck"
SQUAD = Path(__file__).resolve().parent / "data" / "squads" / "online-legal.json"
REFERENCE = Path(__file__).resolve().parent / "data" / "catalogue" / "reference"


def one_error_line(result: Result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    assert result.stderr.startswith("error: ") and result.stderr.count("\n") == 1, result.stderr
    return result.stderr


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Fail, rather than hang the suite, should a reader block on a FIFO."""
    def alarm(signum: int, frame: object) -> None:
        raise TimeoutError("a reader blocked")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)


@pytest.fixture
def cards_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the catalogue (and database), so an import or a build touches nothing of the repository."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "data" / "cards", cards)
    monkeypatch.setattr(paths, "CARDS_DIR", cards)
    monkeypatch.setenv("CARDKIT_DB", str(tmp_path / "cardkit.db"))
    return cards


def reading_commands(path: Path) -> dict[str, list[str]]:
    """Every command that reads a user file, given `path` as that file."""
    return {
        "validate": ["validate", str(path)],
        "deck hash": ["deck", "hash", str(path)],
        "squad check": ["squad", "check", str(path)],
        "squad best": ["squad", "best", str(path)],
        "squad place": ["squad", "place", str(path)],
        "fleet check": ["fleet", "check", str(path)],
        "tournament check FILE": ["tournament", "check", str(path)],
        "tournament check -r": ["tournament", "check", str(HAWKS), "-r", str(path)],
        "catalogue import": ["catalogue", "import", "berserk-ccg", str(path)],
    }


# Family 5: special files.

@pytest.mark.parametrize("special", ["fifo", "/dev/zero", "/dev/urandom", "/dev/null"])
def test_special_files_are_refused_in_one_line_by_every_reader(special: str, tmp_path: Path, runner: CliRunner,
                                                               cards_copy: Path, no_hang: None) -> None:
    path = Path(special)
    if special == "fifo":
        path = tmp_path / "deck.fifo"
        os.mkfifo(path)  # nobody ever writes to it
    before = sorted(p.name for p in (cards_copy / "berserk-ccg").iterdir())
    for name, args in reading_commands(path).items():
        result = runner.invoke(app, args)
        if name == "tournament check FILE":
            # A named submission that can't be read is an UNREADABLE row of the event (exit 1).
            assert result.exit_code == 1 and "not a regular file" in result.output, result.output
            continue
        assert "not a regular file" in one_error_line(result), name
    assert sorted(p.name for p in (cards_copy / "berserk-ccg").iterdir()) == before


def test_the_byte_cap_counts_what_is_read_not_what_stat_says(tmp_path: Path) -> None:
    big = tmp_path / "big.deck"
    big.write_bytes(b"x" * 2048)
    with pytest.raises(UnreadableInput, match="the limit is 1024"):
        read_bytes_input(big, max_bytes=1024)
    assert read_bytes_input(big, max_bytes=2048) == b"x" * 2048


# Family 6: one JSON reader with the deck reader's limits, for every JSON input.

HOSTILE_JSON = {
    "deep": "[" * 100_000 + "]" * 100_000,
    "deep-in-an-object": '{"format": "berserk-online", "squad": ' + "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1) + "}",
    "5000-digits": '{"format": "berserk-online", "redeals": ' + "9" * 5000 + ', "squad": ["f_margolok"]}',
    "long-float": '{"side": "human", "ships": [], "x": 1.' + "5" * 5000 + "}",
    "nan": '{"format": "berserk-online", "redeals": NaN, "squad": ["f_margolok"]}',
    "infinity": '{"side": "human", "ships": [Infinity]}',
    "duplicate-key": '{"side": "human", "side": "berserker", "ships": []}',
}
JSON_REASONS = {"deep": "nested too deeply", "deep-in-an-object": "nested too deeply", "5000-digits": "5000-digit",
                "long-float": "the limit is 100", "nan": "NaN is not", "infinity": "Infinity is not",
                "duplicate-key": "'side' given twice"}


@pytest.mark.parametrize("case", list(HOSTILE_JSON), ids=list(HOSTILE_JSON))
def test_every_json_reader_refuses_what_is_past_the_limits_in_one_line(case: str, tmp_path: Path, runner: CliRunner,
                                                                       cards_copy: Path) -> None:
    path = tmp_path / "hostile.json"
    path.write_text(HOSTILE_JSON[case], encoding="utf-8")
    for name, args in reading_commands(path).items():
        if name in ("tournament check -r", "tournament check FILE", "validate", "deck hash"):
            continue  # CSV, and decks (whose limits test_deck_reading pins)
        assert JSON_REASONS[case] in one_error_line(runner.invoke(app, args)), name


@pytest.mark.parametrize("case", ["deep", "5000-digits", "nan", "duplicate-key"])
def test_a_catalogue_file_past_the_limits_is_a_problem_for_check_and_an_error_for_build(
        case: str, runner: CliRunner, cards_copy: Path) -> None:
    (cards_copy / "berserker" / "zz-hostile.json").write_text(HOSTILE_JSON[case], encoding="utf-8")
    result = runner.invoke(app, ["catalogue", "check"])
    assert result.exit_code == 1 and "INVALID_JSON" in result.output and JSON_REASONS[case] in result.output, result.output
    assert "zz-hostile.json" in one_error_line(runner.invoke(app, ["build"]))


def test_a_format_file_past_the_limits_is_one_error_line(tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    formats = tmp_path / "formats"
    shutil.copytree(paths.FORMATS_DIR, formats)
    (formats / "zz.json").write_text(HOSTILE_JSON["deep"], encoding="utf-8")
    monkeypatch.setattr(paths, "FORMATS_DIR", formats)
    assert "nested too deeply" in one_error_line(runner.invoke(app, ["deck", "formats"]))


@pytest.mark.parametrize("shape", ["directory", "link loop", "fifo"])
def test_a_card_file_that_is_no_file_stops_build_and_check_in_one_line(shape: str, runner: CliRunner, cards_copy: Path,
                                                                       no_hang: None) -> None:
    path = cards_copy / "berserk-tcg" / "zz.json"
    if shape == "directory":
        path.mkdir()
    elif shape == "link loop":
        path.symlink_to(path)
    else:
        os.mkfifo(path)
    reason = one_error_line(runner.invoke(app, ["build"]))
    assert "zz.json" in reason
    check = runner.invoke(app, ["catalogue", "check"])
    assert check.exit_code == 1 and "UNREADABLE_FILE" in check.output and "Traceback" not in check.output


def test_a_card_without_a_level_is_a_schema_problem_and_no_crash_in_build(runner: CliRunner, cards_copy: Path) -> None:
    path = sorted((cards_copy / "berserk-tcg").glob("*.json"))[0]
    doc = json.loads(path.read_text(encoding="utf-8"))
    for card in doc["cards"]:
        card.pop("level", None)
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    check = runner.invoke(app, ["catalogue", "check"])
    assert check.exit_code == 1 and "'level' is a required property" in check.output
    result = runner.invoke(app, ["build"])
    # Built (the database allows no level), or refused in one line as the check would: never a traceback.
    if result.exit_code != 0:
        one_error_line(result)


# Family 6: one integer parser for every text count.

def test_a_5000_zero_count_in_a_deck_reads_as_the_number_it_writes() -> None:
    deck = read_deck(HOSTILE / "zero-padded-count.deck")
    assert deck.main == {"BK1-003": 3} and deck.problems == []


@pytest.mark.parametrize(("name", "reason"), [("superscript-redeals.txt", "redeals must be a whole number"),
                                              ("huge-count.txt", "a count must be from 1 to 50")])
def test_squad_text_counts_no_int_should_see_are_one_error_line(name: str, reason: str, runner: CliRunner) -> None:
    assert reason in one_error_line(runner.invoke(app, ["squad", "check", str(HOSTILE / name)]))


@pytest.mark.parametrize("text", ["²", "٣", "", "+", "1e3", "0x10", "9" * (MAX_NUMBER_DIGITS + 1), "+3", "-3"])
def test_the_count_parser_refuses_what_is_not_ascii_digits_or_too_long(text: str) -> None:
    with pytest.raises(ValueError):
        whole_number(text)


def test_the_count_parser_ignores_leading_zeros() -> None:
    assert whole_number("0" * 5000 + "12") == 12 and whole_number(" 007 ") == 7


# Family 6: permissions, and one bad deck among good ones.

def test_a_permission_error_on_one_deck_is_its_line_and_the_others_are_still_reported(
        tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    hidden = tmp_path / "locked" / "deck.deck"
    real_stat = os.stat

    def stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if str(path).startswith(str(tmp_path / "locked")):
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", stat)
    result = runner.invoke(app, ["validate", str(HAWKS), str(hidden), str(FOUR_GUTS)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert f"error: {hidden}: permission denied\n" == result.stderr
    assert "white-hawks.deck: LEGAL" in result.stdout and "illegal-four-guts.deck: ILLEGAL" in result.stdout
    for args in (["squad", "check", str(hidden)], ["fleet", "check", str(hidden)], ["deck", "hash", str(hidden)]):
        assert "permission denied" in one_error_line(runner.invoke(app, args))


# Family 7 (reading): a repeated key never silently wins.

def test_a_json_deck_with_two_main_lists_is_a_parse_error_not_the_last_one(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", str(HOSTILE / "two-mains.deck.json")])
    assert result.exit_code == 1 and "ILLEGAL" in result.stdout
    assert "PARSE_ERROR" in result.stdout and "'main' given twice" in result.stdout


def test_duplicate_keys_are_refused_at_any_depth_and_collected_when_asked() -> None:
    with pytest.raises(UnreadableInput, match="'b' given twice"):
        parse_json('{"a": [{"b": 1, "b": 2}]}')
    seen: list[str] = []
    assert parse_json('{"a": 1, "a": 2}', duplicates=seen) == {"a": 1} and seen == ["a"]


def test_the_json_reader_gives_the_pointer_of_each_object_holding_a_repeated_key() -> None:
    seen: list[str] = []
    at: list[tuple[str, str]] = []
    parse_json('{"x": [0, {"a/b": {"k": 1, "k": 2}}], "x": 1}', duplicates=seen, duplicates_at=at)
    assert sorted(at) == [("", "x"), ("/x/1/a~1b", "k")]


# Family 6: the error edges.

def test_a_thousand_search_words_are_one_error_naming_the_limit(runner: CliRunner) -> None:
    words = " ".join(f"w{i}" for i in range(1000))
    assert "the limit is 50" in one_error_line(runner.invoke(app, ["cards", "search", words]))


def test_a_damaged_catalogue_database_is_rebuilt(tmp_path: Path, runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "cardkit.db"
    monkeypatch.setenv("CARDKIT_DB", str(db))
    assert runner.invoke(app, ["build"]).exit_code == 0
    size = db.stat().st_size
    with open(db, "r+b") as fh:  # the meta page survives; the card pages do not
        fh.seek(size // 2)
        fh.write(b"\xff" * 8192)
    result = runner.invoke(app, ["cards", "search", "guts"])
    assert result.exit_code == 0 and "15 card(s)" in result.stdout, result.output


def test_ctrl_c_while_the_commands_load_is_one_line_and_exit_130() -> None:
    code = ("import sys\n"
            "class Interrupt:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name == 'cardkit.cli.app':\n"
            "            raise KeyboardInterrupt\n"
            "sys.meta_path.insert(0, Interrupt())\n"
            "from cardkit.cli.main import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (done.returncode, done.stderr) == (130, "error: interrupted\n")


def test_a_real_ctrl_c_during_start_up_prints_no_traceback() -> None:
    # The child says when it reaches the entry point; the signal then lands while the commands load or run.
    code = "from cardkit.cli.main import main\nprint('ready', flush=True)\nmain()\n"
    for delay in (0.0, 0.05, 0.2):
        proc = subprocess.Popen([sys.executable, "-c", code, "validate", str(HAWKS)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        # -SIGINT: the signal came as the interpreter was exiting, after its handler was gone; nothing printed.
        assert "Traceback" not in err and proc.returncode in (0, 130, -signal.SIGINT), (delay, proc.returncode, err)


def test_serve_error_pages_print_nothing_to_the_terminal(capfd: pytest.CaptureFixture[str]) -> None:
    import asyncio

    from cardkit.db.build import ensure_database
    from cardkit.web.metadata import CATALOGUE_DB
    from cardkit.web.server import make_datasette

    ds = make_datasette({CATALOGUE_DB: ensure_database()})

    async def fetch() -> list[int]:
        await ds.invoke_startup()
        return [(await ds.client.get(p)).status_code
                for p in ("/nope", "/cardkit/cards?_sort=nope", "/../../etc/passwd", "/cardkit/cards.json?_sort=zz")]

    statuses = asyncio.run(fetch())
    assert all(s >= 400 for s in statuses)
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err and "locals" not in out + err and "╭" not in out + err
