"""The engines' fast path (cardkit/cli/_fast.py) prints, writes and exits exactly as typer's commands do.

Each argument list runs twice in this process, from a fresh copy of the same folder: once through the
console script's entry point (which takes the fast path for plain arguments) and once through typer's
app alone. Both must print the same bytes on stdout and stderr, exit with the same code and leave the
same files.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from cardkit.cli import _fast
from console import Ran, run_entry

ROOT = Path(__file__).resolve().parent.parent

NEW = {
    "battle": ["battle", "new", str(ROOT / "squads/online-battle-first.json"), str(ROOT / "squads/online-battle-second.json")],
    "tcg": ["tcg", "new", str(ROOT / "decks/berserk-tcg/white-hawks.deck"), str(ROOT / "decks/berserk-tcg/red-apostles.deck"),
            "--seed", "1"],
    "fleet": ["fleet", "new", str(ROOT / "decks/berserker/fleets/human-ram-screen.fleet.json"),
              str(ROOT / "decks/berserker/fleets/berserker-centre.fleet.json"), "--sandbox"],
}
# Legal in the start state, in order; then one that is illegal there, and one that is no action at all.
LEGAL = {
    "battle": ["attack c3 c4 dice 6 1", "shoot c1 c6 2", "counters b2 +3", "pay b2 2", "end"],
    "tcg": ["open BK1-001 pay BK1-007", "attack c3 with BK1-001", "end"],
    "fleet": ["move d2 d6 card very-fast", "end", "end", "move d6 d7 card tactical-speed",
              "fire d7 d8 card marines defend robot-security"],
}
ILLEGAL = {"battle": "move c3 c4", "tcg": "attack c3 with BK1-001", "fleet": "move d2 d8 card very-fast"}

# The fast path's own shapes, options before and after, and their near misses, which typer must answer.
PLAIN: list[list[str]] = [
    ["moves", "state.json"],
    ["moves", "state.json", "--json"],
    ["moves", "--limit", "3", "state.json"],
    ["moves", "state.json", "--limit", "007", "--json"],
    ["moves", "missing.json"],
    ["moves", "deck.json"],
    ["apply", "state.json", "{legal}"],
    ["apply", "state.json", "{legal}", "--out", "after.json"],
    ["apply", "-o", "after.json", "state.json", "{legal}", "--json"],
    ["apply", "state.json", "{first}", "{illegal}", "--out", "after.json"],
    ["apply", "state.json", "{illegal}", "--json"],
    ["apply", "state.json", "no such action"],
    ["apply", "state.json", "no such action", "--json"],
    ["apply", "state.json", "{first}", "--out", "state.json"],
    ["apply", "state.json", "{first}", "--out", "deck.json"],
    ["apply", "state.json", "{first}", "--out", "new/folder/after.json"],
    ["apply", "missing.json", "{first}", "--json"],
]
TYPERS: list[list[str]] = [
    ["moves"],
    ["moves", "state.json", "extra"],
    ["moves", "state.json", "--limit", "0"],
    ["moves", "state.json", "--limit", "100001"],
    ["moves", "state.json", "--limit", "x", "--json"],
    ["moves", "state.json", "--limit"],
    ["moves", "state.json", "--help"],
    ["moves", "state.json", "--json", "--json"],
    ["moves", "state.json", "--out", "x.json"],
    ["moves", ""],
    ["moves", "-"],
    ["apply", "state.json"],
    ["apply", "state.json", "{first}", "--out=after.json"],
    ["apply", "state.json", "{first}", "--out"],
    ["apply", "state.json", "{first}", "--out", ""],
    ["apply", "state.json", "{first}", "--out", "a.json", "-o", "b.json"],
    ["apply", "state.json", "--", "{first}"],
    ["apply", "state.json", ""],
    ["apply", "state.json", "{first}", "--limit", "3"],
    ["apply", "state.json", "{first}", "-x"],
    ["apply", "-h"],
]


@pytest.fixture(scope="module")
def starts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A folder per engine holding its start state and a file that is no state (a fleet file)."""
    from cardkit.cli.app import make_app
    from typer.testing import CliRunner

    folders: dict[str, Path] = {}
    for engine, args in NEW.items():
        folder = tmp_path_factory.mktemp(engine)
        made = CliRunner().invoke(make_app([engine]), [*args, "--out", str(folder / "state.json")])
        assert made.exit_code == 0, made.output
        shutil.copyfile(ROOT / "decks/berserker/fleets/human-ram-screen.fleet.json", folder / "deck.json")
        folders[engine] = folder
    return folders


def filled(engine: str, args: list[str]) -> list[str]:
    words = {"{legal}": LEGAL[engine], "{first}": LEGAL[engine][:1], "{illegal}": [ILLEGAL[engine]]}
    return [engine] + [w for a in args for w in words.get(a, [a])]


def folder_files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


Runner = Callable[[Callable[[], None], list[str], Path], tuple[Ran, dict[str, bytes]]]


@pytest.fixture
def run_in(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Runner:
    """Run `entry` with `args` in a fresh copy of `start`: what it printed, its exit code, the files left."""
    counter = iter(range(1000))

    def run(entry: Callable[[], None], args: list[str], start: Path) -> tuple[Ran, dict[str, bytes]]:
        folder = tmp_path / f"run{next(counter)}"
        shutil.copytree(start, folder)
        monkeypatch.chdir(folder)
        return run_entry(entry, args, capsys, monkeypatch), folder_files(folder)

    return run


def typers_path() -> None:
    from cardkit.cli.app import run

    run()


def entry_point() -> None:
    from cardkit.cli.main import main

    main()


@pytest.mark.parametrize("engine", sorted(NEW))
@pytest.mark.parametrize("args", PLAIN + TYPERS, ids=lambda a: " ".join(a) or "none")
def test_the_entry_point_prints_exits_and_writes_as_typers_commands_do(
        engine: str, args: list[str], starts: dict[str, Path], run_in: Runner) -> None:
    argv = filled(engine, args)
    fast, fast_files = run_in(entry_point, argv, starts[engine])
    typer, typer_files = run_in(typers_path, argv, starts[engine])
    assert (fast.returncode, fast.stdout, fast.stderr) == (typer.returncode, typer.stdout, typer.stderr)
    assert fast_files == typer_files


@pytest.mark.parametrize("engine", sorted(NEW))
def test_plain_arguments_take_the_fast_path_and_every_near_miss_goes_to_typer(
        engine: str, starts: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(starts[engine])
    assert [args for args in PLAIN if _fast.plain_call(filled(engine, args)) is None] == []
    assert [args for args in TYPERS if _fast.plain_call(filled(engine, args)) is not None] == []


def test_other_commands_and_shell_completion_go_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _fast.plain_call(["battle", "new", "a.json", "b.json"]) is None
    assert _fast.plain_call(["validate", "moves", "x"]) is None
    assert _fast.plain_call(["fleet", "check", "x"]) is None
    monkeypatch.setenv("_CARDKIT_COMPLETE", "complete_bash")
    assert _fast.plain_call(["battle", "moves", "state.json"]) is None


def test_an_output_stream_that_is_not_utf8_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    # typer's echo writes UTF-8 to an ASCII stream; the fast path leaves that to it.
    import io

    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
    assert _fast.plain_call(["battle", "moves", "state.json"]) is None


def test_a_plain_engine_command_runs_without_importing_typer(starts: dict[str, Path]) -> None:
    probe = ("import atexit, sys; atexit.register(lambda: sys.stderr.write(str(sorted(m for m in sys.modules "
             "if m.split('.')[0] in ('typer', 'click', 'pydantic'))))); from cardkit.cli.main import main; main()")
    done = subprocess.run([sys.executable, "-c", probe, "battle", "moves", "state.json", "--limit", "1"],
                          cwd=starts["battle"], capture_output=True, text=True, check=True)
    assert done.stderr == "[]"
    assert "1+ legal action(s)" in done.stdout


@pytest.mark.parametrize("engine", sorted(NEW))
def test_forced_colour_paints_an_illegal_action_alike_both_ways(
        engine: str, starts: dict[str, Path], run_in: Runner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    argv = filled(engine, ["apply", "state.json", "{illegal}"])
    fast, _ = run_in(entry_point, argv, starts[engine])
    typer, _ = run_in(typers_path, argv, starts[engine])
    assert "\x1b[" in fast.stdout
    assert (fast.returncode, fast.stdout, fast.stderr) == (typer.returncode, typer.stdout, typer.stderr)
