"""Verdicts and severities are coloured on a terminal, and never when piped or with NO_COLOR set."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli._render import paint, problem_line, verdict
from cardkit.cli.main import app
from cardkit.problems import error, warning

ROOT = Path(__file__).resolve().parent.parent
HAWKS = "decks/berserk-tcg/white-hawks.deck"
FOUR_GUTS = "decks/berserk-tcg/illegal-four-guts.deck"
GREEN, RED, YELLOW = "\x1b[32m", "\x1b[31m", "\x1b[33m"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@pytest.fixture
def terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Standard output is a terminal and nothing in the environment asks for no colour."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)


def test_on_a_terminal_legal_is_green_illegal_red_and_each_severity_its_colour(terminal: None) -> None:
    assert paint("LEGAL").startswith(GREEN) and paint("ILLEGAL").startswith(RED)
    assert verdict(True, []).startswith(GREEN) and verdict(False, [error("X", "x")]).startswith(RED)
    assert YELLOW in problem_line(warning("FEW", "few")) and RED in problem_line(error("BAD", "bad"))


def test_colour_keeps_the_columns_of_the_plain_line(terminal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    problem = warning("FEW_MERCENARIES", "0 Mercenaries", line=3)
    coloured = problem_line(problem)
    monkeypatch.setenv("NO_COLOR", "1")
    assert ANSI.sub("", coloured) == problem_line(problem) and coloured != problem_line(problem)


@pytest.mark.parametrize("value", ["1", "0", "false", "yes"])
def test_no_color_set_to_anything_turns_colour_off(terminal: None, monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv("NO_COLOR", value)
    assert paint("ILLEGAL") == "ILLEGAL"


def test_an_empty_no_color_does_not_count_as_set(terminal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "")
    assert paint("ILLEGAL").startswith(RED)


def test_a_dumb_terminal_gets_no_colour(terminal: None, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "dumb")
    assert paint("LEGAL") == "LEGAL"


def test_piped_output_has_no_escape_codes(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    result = runner.invoke(app, ["validate", str(ROOT / HAWKS), str(ROOT / FOUR_GUTS)])
    assert "ILLEGAL" in result.stdout and "\x1b" not in result.output


def _in_a_terminal(*args: str, no_color: str | None = None) -> str:
    """What `cardkit ARGS` prints to a real pseudo-terminal."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(TERM="xterm-256color", PYTHONPATH=str(ROOT))
    if no_color is not None:
        env["NO_COLOR"] = no_color
    leader, follower = pty.openpty()
    try:
        proc = subprocess.run([sys.executable, "-m", "cardkit", *args], stdin=subprocess.DEVNULL, stdout=follower,
                              stderr=subprocess.DEVNULL, cwd=ROOT, env=env, timeout=60)
        os.close(follower)
        follower = -1
        out = b""
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # EIO: the terminal's other end is closed
                break
            if not chunk:
                break
            out += chunk
    finally:
        os.close(leader)
        if follower != -1:
            os.close(follower)
    assert proc.returncode == 1
    return out.decode()


def test_validate_in_a_real_terminal_colours_the_verdicts_and_severities() -> None:
    out = _in_a_terminal("validate", HAWKS, FOUR_GUTS)
    assert f"{GREEN}" in out.split("\n")[0] and "LEGAL" in ANSI.sub("", out)
    illegal = next(line for line in out.splitlines() if "ILLEGAL" in line)
    error_line = next(line for line in out.splitlines() if "TOO_MANY_COPIES" in line)
    assert RED in illegal and RED in error_line


def test_validate_in_a_real_terminal_with_no_color_is_plain() -> None:
    out = _in_a_terminal("validate", HAWKS, FOUR_GUTS, no_color="1")
    assert "ILLEGAL" in out and "\x1b" not in out
