"""The console script turns usage errors into one `error:` line and exit 2, like every other error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def cardkit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardkit", *args], capture_output=True, text=True, timeout=60, cwd=ROOT)


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
def test_a_usage_error_is_one_error_line_and_exit_2(args: list[str], words: str) -> None:
    result = cardkit(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_cardkit_without_a_command_prints_its_help_and_exits_2() -> None:
    result = cardkit()
    assert result.returncode == 2
    assert "Usage" in result.stdout and "validate" in result.stdout


def test_a_successful_command_exits_0_through_the_console_entry_point() -> None:
    result = cardkit("validate", "decks/berserk-tcg/white-hawks.deck")
    assert result.returncode == 0, result.stderr
    assert "LEGAL" in result.stdout
