"""`cardkit.tournament.workflows`: one library call per tournament command, giving what the command prints."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import OutputRefused
from cardkit.tournament import check_and_report, publish_event, register_event, workflows, write_event_database

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
REGISTRATIONS = EVENT / "registrations.csv"


def _command(args: list[str]) -> dict[str, Any]:
    result = CliRunner().invoke(app, ["tournament", *args, str(EVENT), "-r", str(REGISTRATIONS), "--json"])
    assert result.exit_code in (0, 1), result.output
    document: dict[str, Any] = json.loads(result.stdout)
    return document


def test_each_workflow_gives_the_summary_its_command_prints_as_json(tmp_path: Path) -> None:
    page, tables, db, registry = tmp_path / "p.html", tmp_path / "tables", tmp_path / "e.db", tmp_path / "r.json"
    assert publish_event([EVENT], page, registrations=REGISTRATIONS, csv_dir=tables).to_dict() == _command(
        ["publish", "--out", str(page), "--csv-dir", str(tables)])
    assert write_event_database([EVENT], db, registrations=REGISTRATIONS).to_dict() == _command(["db", "--out", str(db)])
    assert register_event([EVENT], registry, registrations=REGISTRATIONS).to_dict() == _command(
        ["register", "--out", str(registry), "--force"])
    assert check_and_report([EVENT], registrations=REGISTRATIONS).to_dict() == _command(["check"])


def test_a_report_written_by_the_workflow_is_the_one_the_command_writes(tmp_path: Path) -> None:
    check_and_report([EVENT], tmp_path / "library.csv", registrations=REGISTRATIONS)
    _command(["check", "--report", str(tmp_path / "command.csv")])
    assert (tmp_path / "library.csv").read_bytes() == (tmp_path / "command.csv").read_bytes()


@pytest.mark.parametrize("write", [
    lambda out: register_event([EVENT], out),
    lambda out: publish_event([EVENT], out),
    lambda out: write_event_database([EVENT], out),
    lambda out: check_and_report([EVENT], out),
], ids=["register", "publish", "db", "report"])
def test_a_workflow_refuses_an_output_it_may_not_replace_before_checking_any_deck(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write: Callable[[Path], object]) -> None:
    checked: list[object] = []
    monkeypatch.setattr(workflows, "check_event", lambda *args, **kwargs: checked.append(args))
    notes = tmp_path / "notes.html"
    notes.write_text("<p>my notes</p>", encoding="utf-8")
    with pytest.raises(OutputRefused):
        write(notes)
    assert checked == [] and notes.read_text(encoding="utf-8") == "<p>my notes</p>"


def test_a_workflow_names_each_step_as_it_starts_and_counts_the_decks(tmp_path: Path) -> None:
    steps: list[str] = []
    counts: list[tuple[int, int]] = []
    register_event([EVENT], tmp_path / "r.json", progress=lambda done, total: counts.append((done, total)),
                   phase=steps.append)
    assert steps == ["finding submissions", "checking decks", "comparing decks", "writing r.json"]
    shown = [p for p in EVENT.rglob("*.deck*") if not p.name.startswith(".")]  # a hidden file is no submission
    assert counts and counts[-1][0] == counts[-1][1] == len(shown)


@pytest.mark.parametrize("call, option", [
    (lambda tmp: publish_event([EVENT], tmp / "page.txt"), "--out"),
    (lambda tmp: publish_event([EVENT], tmp / "page.html", csv_dir=REGISTRATIONS), "--csv-dir"),
    (lambda tmp: publish_event([EVENT], tmp / "page.html", card_url="javascript:alert(1)//{id}"), "--card-url"),
    (lambda tmp: check_and_report([EVENT], registrations=REGISTRATIONS, format_name="berserk-ccg"), "--format"),
], ids=["page-suffix", "tables-folder", "card-url", "format"])
def test_a_refused_value_is_named_without_an_option_by_the_library_and_with_its_option_by_the_command_line(
        tmp_path: Path, call: Callable[[Path], object], option: str) -> None:
    from cardkit.cli._errors import exit_code_of, terminal_message
    from cardkit.errors import CardkitError

    with pytest.raises(CardkitError) as refused:
        call(tmp_path)
    assert "--" not in refused.value.message
    code, message = exit_code_of(refused.value), terminal_message(refused.value)
    assert code == 2 and message.startswith(f"{option} ") and "--force" not in message


def test_every_library_error_the_command_line_words_itself_is_a_cardkit_error_of_that_name() -> None:
    import importlib

    from cardkit.cli._errors import WORDINGS
    from cardkit.errors import CardkitError

    for key in WORDINGS:
        module, _, name = key.rpartition(".")
        assert issubclass(getattr(importlib.import_module(module), name), CardkitError), key


def test_an_unreadable_file_that_names_no_player_counts_once_among_the_rows_not_registered(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    folder.mkdir()
    (folder / "alice.deck").write_text((EVENT / "decks" / "alice.deck").read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "binary.deck").write_bytes(b"\x00\x01 not a deck")
    registered = register_event([folder], tmp_path / "registry.json")
    assert registered.result.summary()["rows"] == 2 and registered.decks == 1
    assert registered.not_registered == 1
