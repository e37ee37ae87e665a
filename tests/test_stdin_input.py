"""`-` reads standard input wherever a file is read, through the one guarded reader and its limits."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import UnreadableInput
from cardkit.jsonio import MAX_INPUT_BYTES, read_text_input

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
BLACK_FOREST_JSON = ROOT / "decks" / "berserk-tcg" / "black-forest.deck.json"
FOUR_GUTS = ROOT / "decks" / "berserk-tcg" / "illegal-four-guts.deck"


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_read_text_input_of_dash_reads_standard_input_with_the_bom_and_crlf_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, "\ufeffgame: berserk-tcg\r\n3 Guts\r\n".encode())
    assert read_text_input("-") == "game: berserk-tcg\n3 Guts\n"


def test_standard_input_over_the_size_limit_is_refused_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"a" * (MAX_INPUT_BYTES + 1))
    with pytest.raises(UnreadableInput, match=r"^<stdin>: input is over 1048576 bytes"):
        read_text_input("-")


def test_standard_input_at_exactly_the_limit_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"a" * MAX_INPUT_BYTES)
    assert len(read_text_input("-")) == MAX_INPUT_BYTES


def test_binary_standard_input_is_refused_like_a_binary_file(monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, b"3 Guts\x00")
    with pytest.raises(UnreadableInput, match=r"^<stdin>: holds a NUL byte at line 1, column 7 \(a binary file\?\)$"):
        read_text_input("-")


def test_a_file_called_dash_is_reached_as_dot_slash_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "-").write_text("from the file\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert read_text_input("./-") == "from the file\n"


def test_validate_dash_reads_a_text_deck_from_standard_input(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "-"], input=HAWKS.read_bytes())
    assert result.exit_code == 0
    assert result.output.startswith("<stdin>: LEGAL  berserk-tcg, 49 main + 10 side")


def test_validate_dash_tells_a_json_deck_from_its_content(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "-", "--json"], input=BLACK_FOREST_JSON.read_bytes())
    assert result.exit_code == 0
    report = json.loads(result.stdout)[0]
    assert report["path"] == "<stdin>" and report["legal"] is True


def test_validate_dash_beside_files_reports_each_in_order(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", str(HAWKS), "-"], input=FOUR_GUTS.read_bytes())
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{HAWKS}: LEGAL")
    assert any(line.startswith("<stdin>: ILLEGAL") for line in lines)


def test_dash_given_twice_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "-", "-"], input=HAWKS.read_bytes())
    assert result.exit_code == 2
    assert "`-` (standard input) can be given only once" in result.stderr


def test_deck_hash_of_standard_input_is_the_hash_of_the_file(runner: CliRunner) -> None:
    from_file = runner.invoke(app, ["deck", "hash", str(HAWKS)])
    from_stdin = runner.invoke(app, ["deck", "hash", "-"], input=HAWKS.read_bytes())
    assert from_stdin.exit_code == 0 and from_stdin.stdout == from_file.stdout


def test_deck_convert_of_standard_input_writes_json(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "convert", "-", "--to", "json"], input=HAWKS.read_bytes())
    assert result.exit_code == 0
    assert json.loads(result.stdout)["game"] == "berserk-tcg"


def test_deck_diff_reads_one_side_from_standard_input(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "diff", str(HAWKS), "-"], input=HAWKS.read_bytes())
    assert result.exit_code == 0 and result.stdout == "same cards\n"


def test_squad_check_dash_reads_a_squad_from_standard_input(runner: CliRunner) -> None:
    squad = ROOT / "squads" / "online-squad.json"
    from_file = runner.invoke(app, ["squad", "check", str(squad)])
    result = runner.invoke(app, ["squad", "check", "-"], input=squad.read_bytes())
    assert result.exit_code == from_file.exit_code
    assert result.stdout.startswith("<stdin>: ")
    assert result.stdout.split(": ", 1)[1] == from_file.stdout.split(": ", 1)[1]


def test_squad_check_dash_reads_the_text_form_too(runner: CliRunner) -> None:
    squad = ROOT / "squads" / "ccg-squad.txt"
    from_file = runner.invoke(app, ["squad", "check", str(squad), "--json"])
    result = runner.invoke(app, ["squad", "check", "-", "--json"], input=squad.read_bytes())
    assert result.exit_code == from_file.exit_code
    assert json.loads(result.stdout)["problems"] == json.loads(from_file.stdout)["problems"]


def test_fleet_check_dash_reads_a_fleet_from_standard_input(runner: CliRunner) -> None:
    fleet = ROOT / "decks" / "berserker" / "fleets" / "berserker-illegal-stacked.fleet.json"
    result = runner.invoke(app, ["fleet", "check", "-"], input=fleet.read_bytes())
    assert result.exit_code == 1
    assert result.stdout.startswith("<stdin>: berserker fleet")


def test_empty_standard_input_is_an_unreadable_deck_not_a_hang(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "-"], input=b"")
    assert result.exit_code == 2
    assert "<stdin>: no card lines" in result.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_cardkit_says_how_to_end_the_pasted_list(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    from cardkit.cli._options import stdin_once

    monkeypatch.setattr("sys.stdin", _Terminal())
    stdin_once("-")
    assert "Ctrl-D" in capsys.readouterr().err


def test_from_a_pipe_cardkit_reads_without_a_word(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from cardkit.cli._options import stdin_once

    _stdin(monkeypatch, b"")
    stdin_once("-", "a.deck")
    assert capsys.readouterr().err == ""


def test_simulate_reads_a_deck_code_and_standard_input(runner: CliRunner) -> None:
    from cardkit.decks import read_deck
    from cardkit.decks.code import encode_deck

    from_file = runner.invoke(app, ["simulate", str(HAWKS), "--games", "200", "--json"])
    from_stdin = runner.invoke(app, ["simulate", "-", "--games", "200", "--json"], input=HAWKS.read_bytes())
    from_code = runner.invoke(app, ["simulate", "code:" + encode_deck(read_deck(HAWKS)), "--games", "200", "--json"])
    assert from_file.exit_code == from_stdin.exit_code == from_code.exit_code == 0
    def results(out: str) -> dict[str, object]:
        return {k: v for k, v in json.loads(out).items() if k not in ("path", "deck", "file")}

    assert results(from_stdin.stdout) == results(from_file.stdout) == results(from_code.stdout)


def test_squad_place_reads_a_placement_from_standard_input(runner: CliRunner) -> None:
    placement = ROOT / "squads" / "online-placement.json"
    from_file = runner.invoke(app, ["squad", "place", str(placement), "--json"])
    result = runner.invoke(app, ["squad", "place", "-", "--json"], input=placement.read_bytes())
    assert result.exit_code == from_file.exit_code
    assert json.loads(result.stdout)["problems"] == json.loads(from_file.stdout)["problems"]


def test_tournament_registrations_can_come_from_standard_input(runner: CliRunner) -> None:
    event = ROOT / "events" / "spring-open"
    args = ["tournament", "check", str(event), "--registrations"]
    from_file = runner.invoke(app, [*args, str(event / "registrations.csv")])
    result = runner.invoke(app, [*args, "-"], input=(event / "registrations.csv").read_bytes())
    assert result.exit_code == from_file.exit_code == 1
    assert result.stdout.splitlines()[-1] == from_file.stdout.splitlines()[-1]


def test_tournament_check_of_dash_is_a_usage_error_saying_submissions_are_files(runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "check", "-"], input=HAWKS.read_bytes())
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert "not standard input" in result.output and "no such file" not in result.output


def test_tournament_deck_check_names_a_deck_from_standard_input_stdin(runner: CliRunner, tmp_path: Path) -> None:
    event = DATA / "tournament" / "spring-open"
    registry = tmp_path / "registry.json"
    registered = runner.invoke(app, ["tournament", "register", str(event), "-r", str(event / "registrations.csv"),
                                     "--out", str(registry)])
    assert registered.exit_code == 0, registered.output
    deck = (event / "decks" / "alice.deck").read_bytes()
    result = runner.invoke(app, ["tournament", "deck-check", str(registry), "Alice Archer", "-"], input=deck)
    assert result.exit_code == 0 and "<stdin> is the registered deck" in result.output, result.output
    broken = deck.replace(b"3 Casca (BK1-013)", b"3 Kasca the Brave")
    assert broken != deck
    result = runner.invoke(app, ["tournament", "deck-check", str(registry), "Alice Archer", "-"], input=broken)
    assert result.exit_code == 2 and "error: <stdin>" in result.output, result.output
