"""Forged names and file names reach terminals, CSV, HTML and JSON made visible, never raw."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from console import Ran
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament.reports import CSV_COLUMNS
from cardkit.visible import visible, visible_json

FORGED = Path(__file__).resolve().parent / "data" / "hostile" / "forged-event"
REGISTRATIONS = str(FORGED / "registrations.csv")
# What must never reach an organizer's screen or spreadsheet raw: ESC, CR, LF inside a value, BEL, bidi overrides.
HIDDEN = ("\x1b", "\r", "\x07", "\u202e", "\u202c")


def assert_nothing_hidden(text: str) -> None:
    for ch in HIDDEN:
        assert ch not in text, repr(ch)


@pytest.mark.parametrize(("raw", "shown"), [
    ("\x1b[2J", "\\x1b[2J"), ("Eve\r=1+1", "Eve\\r=1+1"), ("a\nb", "a\\nb"), ("Mallory \u202eLAGELLI", "Mallory \\u202eLAGELLI"),
    ("Кочевник ё", "Кочевник ё"), ("tab\there", "tab\\there"), ("\x9b31m", "\\x9b31m"), ("\udcff", "\\xff"),
], ids=["escape", "carriage-return", "newline", "right-to-left-override", "cyrillic-untouched", "tab", "c1-csi",
        "undecodable-byte"])
def test_visible_escapes_what_a_terminal_would_obey_and_keeps_ordinary_text(raw: str, shown: str) -> None:
    assert visible(raw) == shown


def test_visible_json_is_the_same_data_with_nothing_hidden() -> None:
    data = {"player": "Mallory \u202eLAGELLI\u2028\x85", "name": "Кочевник"}
    text = visible_json(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data
    assert "\u202e" not in text and "\u2028" not in text and "Кочевник" in text


@pytest.mark.parametrize("ch", ["\U000e0001", "\U000e0041", "\x7f", "\x85", "\u00ad", "\u2066", "\ue000", "\u0378",
                                "\udcff", "\u3000", "\U0001d400"])
def test_visible_json_escapes_exactly_the_characters_visible_escapes(ch: str) -> None:
    data = {"name": f"a{ch}b"}
    text = visible_json(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data
    assert (ch in text) == (visible(ch) == ch)


def test_forged_player_names_print_escaped_in_the_tournament_table(runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "check", str(FORGED), "--registrations", REGISTRATIONS, "--details"])
    assert result.exit_code == 1, result.output
    assert_nothing_hidden(result.output)
    assert "\\x1b[2J" in result.output and "Eve\\r=1+1" in result.output and "\\u202e" in result.output
    # One line per row, the summary and the details: no name split a row in two.
    rows = [line for line in result.stdout.splitlines() if line.split(" ", 1)[0] in ("LEGAL", "ILLEGAL", "UNREADABLE", "MISSING")]
    assert len(rows) == 5  # four decks and Trudy, registered without one


def test_a_carriage_return_in_a_name_cannot_split_a_csv_row_or_smuggle_a_formula(runner: CliRunner, tmp_path: Path) -> None:
    report = tmp_path / "report.csv"
    result = runner.invoke(app, ["tournament", "check", str(FORGED), "--registrations", REGISTRATIONS, "--report", str(report)])
    assert result.exit_code == 1, result.output
    text = report.read_text(encoding="utf-8")
    assert_nothing_hidden(text)
    lines = text.splitlines()
    rows = list(csv.reader(io.StringIO(text)))
    assert len(lines) == len(rows) == 6 and all(len(r) == len(CSV_COLUMNS) for r in rows)
    assert not [cell for row in rows[1:] for cell in row if cell[:1] in ("=", "+", "-", "@")]
    players = {row[1] for row in rows[1:]}
    assert "Eve\\r=1+1" in players and "Trudy\\n@SUM(A1)" in players


def test_html_and_json_reports_show_forged_names_escaped(runner: CliRunner, tmp_path: Path) -> None:
    for suffix in (".html", ".json"):
        report = tmp_path / f"report{suffix}"
        runner.invoke(app, ["tournament", "check", str(FORGED), "--report", str(report)])
        text = report.read_text(encoding="utf-8")
        assert_nothing_hidden(text)
        assert "\\u202e" in text or "\\u202E" in text
    data = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert "Mallory \u202eLAGELLI\u202c" in {s["player"] for s in data["submissions"]}


def test_json_output_on_the_terminal_escapes_bidi_but_keeps_the_data(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "--json", str(FORGED / "reversed.deck.json")])
    assert_nothing_hidden(result.stdout)
    assert json.loads(result.stdout)[0]["player"] == "Mallory \u202eLAGELLI\u202c"


def test_a_control_character_in_a_card_line_or_a_file_name_prints_escaped(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "evil\x1b[31m\u202e.deck"
    deck.write_text("game: berserk-tcg\n3 \x1b[2JGuts\u202e\n", encoding="utf-8")
    for args in (["validate", str(deck)], ["deck", "hash", str(deck)], ["tournament", "check", str(tmp_path)]):
        result = runner.invoke(app, args)
        assert result.exit_code in (1, 2), result.output
        assert_nothing_hidden(result.output)
        assert "\\x1b" in result.output, args


def test_a_file_name_byte_that_is_not_utf_8_shows_as_that_byte_in_reports_and_errors(
        runner: CliRunner, tmp_path: Path) -> None:
    deck = Path(os.fsdecode(bytes(tmp_path) + b"/bad\xff.deck"))
    deck.write_text("game: berserk-tcg\n3 BK1-12\n", encoding="utf-8")
    missing = Path(os.fsdecode(bytes(tmp_path) + b"/gone\xfe.deck"))
    for args, shown in ((["validate", str(deck)], "bad\\xff.deck: ILLEGAL"),
                        (["validate", str(missing)], "error: " + str(tmp_path) + "/gone\\xfe.deck: no such file"),
                        (["deck", "convert", str(deck), "--to", "json", "--out", str(deck)], "bad\\xff.deck is an input")):
        result = runner.invoke(app, args)
        assert shown in result.output and "\\udc" not in result.output, result.output


def test_an_error_line_quoting_file_text_is_made_visible(runner: CliRunner, tmp_path: Path) -> None:
    squad = tmp_path / "squad.txt"
    squad.write_text("format: berserk-ccg\nseat: \x1b]0;pwned\x07\nsquad:\n10001\n", encoding="utf-8")
    result = runner.invoke(app, ["squad", "check", str(squad)])
    assert result.exit_code == 2 and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
    assert_nothing_hidden(result.stderr)


def test_a_lone_carriage_return_in_a_deck_line_is_echoed_as_backslash_r(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "cr.deck"
    path.write_bytes(b"game: berserk-tcg\nfoo\rbar\n")
    result = runner.invoke(app, ["validate", str(path)])
    assert "line 2" in result.output and "foo\\rbar" in result.output and "\r" not in result.output


def test_a_tcg_game_shows_a_player_name_with_escapes_and_bidi_written_out(tmp_path: Path) -> None:
    """A deck's `player:` line is text from a file: `tcg new`, `tcg moves` and `tcg apply` must not let it
    clear the screen or reverse the line, as every other command already doesn't."""
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    root = Path(__file__).resolve().parent.parent
    hawks = (root / "decks" / "berserk-tcg" / "white-hawks.deck").read_text(encoding="utf-8")
    body = hawks[hawks.index("\nMain"):]
    deck = tmp_path / "evil.deck"
    deck.write_text("game: berserk-tcg\nplayer: Bob\u202eX\x1b[2J\n" + body, encoding="utf-8")
    state = tmp_path / "game.json"
    runner = CliRunner()
    outputs = [runner.invoke(app, ["tcg", "new", str(deck), str(root / "decks" / "berserk-tcg" / "red-apostles.deck"),
                                   "--out", str(state)])]
    outputs.append(runner.invoke(app, ["tcg", "moves", str(state)]))
    outputs.append(runner.invoke(app, ["tcg", "apply", str(state), "draw"]))
    for result in outputs:
        assert "\x1b" not in result.output and "\u202e" not in result.output, result.output
    assert "Bob\\u202eX\\x1b[2J" in outputs[0].output


def test_quoted_user_text_keeps_its_escapes_and_past_80_characters_shows_the_first_80_and_how_long_it_is() -> None:
    from cardkit.visible import quoted

    assert quoted("Guts") == "'Guts'" and quoted("a\x1bb\u202e") == "'a\\x1bb\\u202e'"
    assert quoted("x" * 80) == repr("x" * 80)
    assert quoted("\x1b" + "y" * 100_000) == repr("\x1b" + "y" * 79 + "…") + " (100,001 characters)"


@pytest.mark.parametrize("args", [
    ["cards", "search", "cost>" + "a" * 100_000],
    ["cards", "search", "foo:" + "a" * 100_000],
    ["cards", "show", "z" * 100_000],
], ids=["bad-number", "unknown-field", "no-such-card"])
def test_an_error_about_a_100000_character_query_quotes_80_characters_of_it_not_all(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code in (1, 2) and "(100,00" in result.stderr
    assert all(len(line) < 1_000 for line in result.stderr.splitlines()), max(map(len, result.stderr.splitlines()))


@pytest.mark.parametrize("args", [
    ["cards", "search", "-" * 100_000],
    ["deck", "hash", "decks/berserk-tcg/white-hawks.deck", *["x" * 1_000] * 100],
    ["validate", "--" + "q" * 100_000],
], ids=["query-read-as-an-option", "extra-arguments", "unknown-option"])
def test_a_usage_error_about_a_100000_character_argument_quotes_80_characters_of_it_not_all(
        cardkit_main: Callable[..., Ran], args: list[str]) -> None:
    for extra in ([], ["--json"]):
        result = cardkit_main(*args, *extra)
        assert result.returncode == 2 and "characters)" in result.stdout + result.stderr
        assert all(len(line) < 1_000 for line in (result.stdout + result.stderr).splitlines())


def test_a_problem_about_a_100000_character_card_line_quotes_80_characters_of_it(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "long.deck"
    deck.write_text("game: berserk-tcg\n3 Guts (BK1-012)\n1 " + "q" * 100_000 + "\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(deck), "--json"])
    (problem,) = [p for p in json.loads(result.stdout)[0]["problems"] if p["code"] == "UNKNOWN_CARD"]
    assert problem["message"].endswith("characters)") and len(problem["message"]) < 300
