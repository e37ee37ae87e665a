"""The console script turns usage errors into one `error:` line and exit 2, like every other error."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from console import Ran

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.smoke


def cardkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardkit", *args], capture_output=True, text=True, timeout=60, cwd=ROOT)


# The usage-error paths below run the console script's entry point in this process (conftest.cardkit_main);
# the version, completion and console-script tests at the end start a real `python -m cardkit`.


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "decks/berserk-tcg/white-hawks.deck", "--games", "abc"], "--games"),
        (["nosuch"], "No such command"),
        (["validate"], "Missing argument"),
        (["squad", "best", "squads/online-deal.json", "--seat", "third"], "--seat"),
        (["validate", "decks/berserk-tcg/white-hawks.deck", "--no-such-option"], "--no-such-option"),
    ],
    ids=["bad-int", "unknown-command", "missing-argument", "bad-choice", "unknown-option"],
)
def test_a_usage_error_is_one_error_line_and_exit_2(args: list[str], words: str, cardkit_main: Callable[..., Ran]) -> None:
    result = cardkit_main(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("args", [[], ["catalogue"], ["squad"]], ids=["cardkit", "group", "another-group"])
def test_a_command_or_group_without_a_subcommand_prints_its_help_once_and_exits_2(args: list[str], cardkit_main: Callable[..., Ran]) -> None:
    result = cardkit_main(*args)
    assert result.returncode == 2
    assert result.stdout.count("Usage:") == 1 and result.stderr == ""
    assert ("validate" if not args else "check") in result.stdout


@pytest.mark.parametrize(
    "args, command",
    [
        (["validate", "decks/berserk-tcg/white-hawks.deck", "--format"], "cardkit validate"),
        (["squad", "best", "squads/online-deal.json", "--format"], "cardkit squad best"),
        (["squad", "best", "--bogus"], "cardkit squad best"),
        (["squad", "nosuch"], "cardkit squad"),
    ],
    ids=["missing-option-value", "missing-value-in-a-group", "unknown-option", "unknown-subcommand"],
)
def test_a_usage_error_points_to_the_help_of_the_command_it_happened_in(args: list[str], command: str, cardkit_main: Callable[..., Ran]) -> None:
    result = cardkit_main(*args)
    assert result.returncode == 2
    assert result.stderr.rstrip().endswith(f"{command} --help`)"), result.stderr


def test_version_says_where_the_catalogue_and_the_database_are(tmp_path: Path) -> None:
    import os

    env = {**os.environ, "CARDKIT_DB": str(tmp_path / "my.db")}
    result = subprocess.run([sys.executable, "-m", "cardkit", "--version"], capture_output=True, text=True,
                            timeout=60, cwd=tmp_path, env=env)
    assert result.returncode == 0, result.stderr
    first, catalogue, database = result.stdout.splitlines()
    from cardkit import __version__

    assert first.startswith(f"cardkit {__version__} ")
    assert catalogue.split()[1] == str(ROOT / "data") and catalogue.endswith("(checkout)")
    assert database == f"database   {tmp_path / 'my.db'} ($CARDKIT_DB, not built yet)"


def test_shell_completion_completes_commands_and_subcommands() -> None:
    import os

    env = {**os.environ, "COMP_WORDS": "cardkit squad b", "COMP_CWORD": "2", "_CARDKIT_COMPLETE": "complete_bash"}
    script = "import sys; sys.argv[0] = 'cardkit'; from cardkit.cli.main import main; main()"
    result = subprocess.run([sys.executable, "-c", script],
                            capture_output=True, text=True, timeout=60, cwd=ROOT, env=env)
    assert result.stdout.split() == ["best"]
    assert "--install-completion" in cardkit("--help").stdout


def test_a_successful_command_exits_0_through_the_console_entry_point() -> None:
    result = cardkit("validate", "decks/berserk-tcg/white-hawks.deck")
    assert result.returncode == 0, result.stderr
    assert "LEGAL" in result.stdout
