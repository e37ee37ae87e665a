"""Exit codes as the README states them: 1 is "not found" for every command that looks a name up, 2 a usage error."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from console import Ran

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("args", [
    ["cards", "show", "Nosuchcardname"],
    ["cards", "show", "Guts"],
    ["fleet", "can-use", "Marine", "ramship"],
    ["fleet", "can-use", "marines", "Rammship"],
    ["combat", "odds", "Nosuchcardname", "b_ahti"],
], ids=["unknown-card", "ambiguous-card", "unknown-fleet-card", "unknown-ship", "unknown-combatant"])
def test_a_name_that_finds_nothing_or_too_much_exits_1_with_one_error_line(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert result.stdout == "" and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1


@pytest.mark.parametrize(("args", "command"), [
    (["deck", "hash"], "deck hash"),
    (["deck", "hash", "a.deck", "b.deck"], "deck hash"),
    (["squad", "best", "squads/online-deal.json", "--seat", "third"], "squad best"),
    (["fleet", "nosuch"], "fleet"),
], ids=["missing-argument", "extra-argument", "bad-option-value", "unknown-subcommand"])
def test_a_usage_error_points_to_the_help_of_the_command_that_was_run(args: list[str], command: str,
                                                                     cardkit_main: Callable[..., Ran]) -> None:
    result = cardkit_main(*args)
    assert result.returncode == 2
    assert result.stderr.rstrip().endswith(f"{command} --help`)"), result.stderr
