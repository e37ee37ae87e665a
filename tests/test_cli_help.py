"""Help that reads like help: `DECK...`, `PATH`, `N` for values, `--format` completion, forced colour, the first build said."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from cardkit.cli._options import complete_format
from cardkit.cli._render import colour_enabled
from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
FOUR_GUTS = "decks/berserk-tcg/illegal-four-guts.deck"


def every_command() -> list[list[str]]:
    """The word path of every command, groups included: `[]`, `["deck"]`, `["deck", "hash"]`..."""
    out: list[list[str]] = []

    def walk(command: object, path: list[str]) -> None:
        out.append(path)
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return out


COMMANDS = every_command()


def name_column(help_text: str) -> list[str]:
    """The left column of the Arguments and Options sections: the names and their values."""
    names, inside = [], False
    for line in help_text.splitlines():
        if line in ("Arguments:", "Options:"):
            inside = True
        elif not line.startswith(" "):
            inside = False
        elif inside and line.startswith("  ") and not line.startswith("   "):
            names.append(re.split(r"\s{2,}", line.strip())[0])
    return names


@pytest.mark.parametrize("path", COMMANDS, ids=[" ".join(p) or "cardkit" for p in COMMANDS])
def test_help_names_values_as_a_reader_expects_and_shows_no_escapes(runner: CliRunner, path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    usage = result.stdout.splitlines()[0]
    assert usage.startswith("Usage: ") and not re.search(r"[{}<>]", usage), usage
    names = name_column(result.stdout)
    assert names and not [n for n in names if re.search(r"[{}<>]|list\[|range", n)]
    assert "\\" not in result.stdout


@pytest.mark.parametrize(("path", "usage", "names"), [
    (["validate"], "cardkit validate [OPTIONS] DECK...", ["DECK...", "-f, --format FORMAT", "--json"]),
    (["deck", "resolve"], "cardkit deck resolve [OPTIONS] DECK", ["DECK", "-o, --out PATH", "-f, --format FORMAT"]),
    (["simulate"], "cardkit simulate [OPTIONS] DECK", ["DECK", "-n, --games N", "-t, --turns N", "--plot PATH"]),
    (["deck", "diff"], "cardkit deck diff [OPTIONS] A B", ["A", "B", "--json"]),
], ids=["validate", "deck resolve", "simulate", "deck diff"])
def test_usage_and_parameters_read_deck_path_and_n(runner: CliRunner, path: list[str], usage: str, names: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.stdout.splitlines()[0] == f"Usage: {usage}"
    shown = name_column(result.stdout)
    assert [n for n in names if n not in shown] == []


def test_format_completion_offers_the_format_names_that_begin_with_the_typed_text() -> None:
    assert [name for name, _ in complete_format("berserk-t")] == ["berserk-tcg-casual", "berserk-tcg"]
    assert complete_format("nope") == []


def test_every_format_option_completes_through_the_shell_completion_of_its_command() -> None:
    command = typer.main.get_command(app)
    for path in (["validate"], ["deck", "hash"], ["squad", "check"], ["tournament", "check"]):
        sub = command
        for word in path:
            sub = sub.commands[word]  # type: ignore[attr-defined]
        (option,) = [p for p in sub.params if "--format" in getattr(p, "opts", ())]
        with typer.Context(sub) as ctx:  # type: ignore[arg-type]
            offered = [item.value for item in option.shell_complete(ctx, "berserk-o")]
        assert offered == ["berserk-online"], path


@pytest.fixture
def piped(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False, raising=False)


@pytest.mark.parametrize(("env", "coloured"), [
    ({}, False), ({"FORCE_COLOR": "1"}, True), ({"CLICOLOR_FORCE": "1"}, True), ({"FORCE_COLOR": "0"}, False),
    ({"FORCE_COLOR": ""}, False), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False), ({"FORCE_COLOR": "1", "TERM": "dumb"}, True),
], ids=["piped", "FORCE_COLOR", "CLICOLOR_FORCE", "FORCE_COLOR=0", "empty FORCE_COLOR", "NO_COLOR wins", "forced on a dumb terminal"])
def test_forced_colour_colours_a_pipe_unless_no_color_says_no(
        piped: None, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], coloured: bool) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert colour_enabled() is coloured


@pytest.mark.parametrize(("env", "escapes"), [({"FORCE_COLOR": "1"}, True), ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False)],
                         ids=["forced", "forced but NO_COLOR"])
def test_the_console_script_keeps_forced_colour_in_a_pipe(env: dict[str, str], escapes: bool) -> None:
    environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE")}
    environ.update(env, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "cardkit", "validate", FOUR_GUTS], capture_output=True, text=True,
                            cwd=ROOT, env=environ, timeout=60)
    assert result.returncode == 1 and "ILLEGAL" in result.stdout
    assert ("\x1b[31m" in result.stdout) is escapes


@pytest.mark.slow
@pytest.mark.parametrize("terminal", [True, False], ids=["on a terminal", "in a log"])
def test_the_first_build_of_the_database_is_said_on_a_terminal_once(
        runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    import cardkit.cli._progress

    monkeypatch.setattr(cardkit.cli._progress, "stderr_is_terminal", lambda: terminal)
    monkeypatch.setenv("CARDKIT_DB", str(tmp_path / "cards.db"))
    first = runner.invoke(app, ["cards", "search", "Guts", "-n", "1"])
    second = runner.invoke(app, ["cards", "search", "Guts", "-n", "1"])
    assert (first.exit_code, second.exit_code) == (0, 0)
    assert first.stderr == ("building the card database, once…\n" if terminal else "") and second.stderr == ""
    assert first.stdout == second.stdout


def test_the_combat_group_help_names_every_game_its_commands_cover(runner: CliRunner) -> None:
    help_text = " ".join(runner.invoke(app, ["combat", "--help"]).output.split())
    group = typer.main.get_command(app).commands["combat"]  # type: ignore[attr-defined]
    assert "tcg" in group.commands
    first_line = help_text.split("Options")[0]
    assert "TCG" in first_line and "Online" in first_line and "CCG" in first_line
