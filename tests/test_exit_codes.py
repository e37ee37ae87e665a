"""Exit codes as the README states them: 1 is "not found" for every command that looks a name up, 2 a usage error."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from console import Ran
from typer.testing import CliRunner

from cardkit.cli._errors import handled
from cardkit.cli._output import plain_echo
from cardkit.cli.main import app

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


FULL = Path("/dev/full")


@pytest.fixture(scope="module")
def fleet_state(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = tmp_path_factory.mktemp("stdout") / "state.json"
    subprocess.run([sys.executable, "-m", "cardkit", "fleet", "new", "decks/berserker/fleets/human-ram-screen.fleet.json",
                    "decks/berserker/fleets/berserker-centre.fleet.json", "--sandbox", "--out", str(state)],
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True, capture_output=True, timeout=60)
    return state


@pytest.mark.skipif(not FULL.exists(), reason="no /dev/full here to fill standard output")
@pytest.mark.parametrize("args", [
    ["fleet", "moves", "{state}"],
    ["fleet", "moves", "{state}", "--json"],
    ["validate", "decks/berserk-tcg/white-hawks.deck"],
    ["deck", "hash", "--json", "decks/berserk-tcg/white-hawks.deck"],
    ["--help"],
], ids=["engine-command", "engine-command-json", "deck-command", "deck-command-json", "help"])
def test_standard_output_that_cannot_be_written_is_one_error_on_stderr_and_exit_2(args: list[str], fleet_state: Path) -> None:
    as_json = "--json" in args
    with FULL.open("w") as full:
        result = subprocess.run([sys.executable, "-m", "cardkit", *(a.format(state=fleet_state) for a in args)],
                                stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=60,
                                env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"})
    message = "can't write standard output: the disk is full"
    assert result.returncode == 2, result.stderr
    if as_json:
        assert json.loads(result.stderr) == {"error": {"code": "WRITE_FAILED", "message": message}}
        # The schema says where its objects go: this one, the only one, to standard error.
        schema = json.loads((ROOT / "schemas" / "output" / "error.schema.json").read_text(encoding="utf-8"))
        assert "standard output itself can't be written (WRITE_FAILED" in schema["description"]
        assert schema["description"].rstrip(".").endswith("is the object written to standard error instead")
    else:
        assert result.stderr == f"error: {message}\n"


def test_an_os_error_that_is_not_writing_standard_output_is_left_to_show_as_the_bug_it_is() -> None:
    try:
        raise OSError(errno.ENOSPC, "No space left on device")
    except OSError as exc:
        assert handled(exc, plain_echo, False) is None


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "plain"])
def test_ctrl_c_while_the_commands_load_is_reported_as_the_arguments_ask(
        as_json: bool, cardkit_main: Callable[..., Ran], monkeypatch: pytest.MonkeyPatch) -> None:
    class Interrupted:
        """Ctrl-C while the commands' module loads, the first thing main() does."""

        def find_spec(self, name: str, *args: object) -> None:
            if name == "cardkit.cli.app":
                raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "cardkit.cli.app")
    monkeypatch.setattr(sys, "meta_path", [Interrupted(), *sys.meta_path])
    result = cardkit_main("deck", "hash", "decks/berserk-tcg/white-hawks.deck", *(["--json"] if as_json else []))
    assert result.returncode == 130
    if as_json:
        assert result.stderr == ""
        assert json.loads(result.stdout) == {"error": {"code": "INTERRUPTED", "message": "interrupted"}}
    else:
        assert (result.stdout, result.stderr) == ("", "error: interrupted\n")
