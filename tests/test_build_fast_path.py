"""`cardkit build` on the fast path (cardkit/cli/_fast.py) prints, writes and exits exactly as typer's command does.

Each argument list runs twice in this process, each time in a fresh folder: once through the console
script's entry point (which takes the fast path for plain arguments) and once through typer's app alone.
Both must print the same text (but for the seconds the build took), exit with the same code and leave
files of the same names.
"""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

from cardkit.cli import _fast
from console import Ran, run_entry

ROOT = Path(__file__).resolve().parent.parent
INPUT = str(ROOT / "data/cards/berserker/cards.json")

# The fast path's own shapes, and refusals it words as typer's command does.
PLAIN: list[list[str]] = [
    ["build", "--out", "x.db"],
    ["build", "-o", "x.db", "--json"],
    ["build", "--json", "--out", "x.db"],
    ["build", "--out", "new/folder/x.db"],
    ["build", "--out", "notes.txt"],
    ["build", "--out", "notes.txt", "--json"],
    ["build", "--out", INPUT],
    ["build"],
]
# Near misses, which typer must answer.
TYPERS: list[list[str]] = [
    ["build", "--out"],
    ["build", "--out", ""],
    ["build", "--out=x.db"],
    ["build", "x.db"],
    ["build", "--json", "--json"],
    ["build", "--out", "a.db", "-o", "b.db"],
    ["build", "--out", "-"],
    ["build", "--limit", "3"],
    ["build", "--help"],
    ["build", "-h"],
    ["build", "--out", "\x1b[31mx.db"],
]


def typers_path() -> None:
    from cardkit.cli.app import run

    run()


def entry_point() -> None:
    from cardkit.cli.main import main

    main()


def timeless(text: str, folder: Path) -> str:
    """`text` with the time of the build, what it took and the run's folder left out."""
    text = re.sub(r" in [0-9.]+ s$", " in S s", text.replace(str(folder), "FOLDER"), flags=re.M)
    return re.sub(r'"built_at": "[^"]*"', '"built_at": T', re.sub(r'"seconds": [0-9.]+', '"seconds": S', text))


def tables(path: Path) -> dict[str, int]:
    with sqlite3.connect(path) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: conn.execute(f'SELECT count(*) FROM "{n}"').fetchone()[0] for n in names}


def left(folder: Path) -> dict[str, object]:
    """The folder's files: a database by its tables' row counts (its build time differs), others by their bytes.

    A database is told by its header, not its name: `--out -` builds one named `-`."""
    return {str(p.relative_to(folder)): tables(p) if p.read_bytes()[:16] == b"SQLite format 3\x00" else p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


Runner = Callable[[Callable[[], None], list[str]], tuple[Ran, str, dict[str, object]]]


@pytest.fixture
def run_in(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Runner:
    """Run `entry` with `args` in a fresh folder holding a text file: what it printed and its exit code, its
    standard output less what differs from run to run, the files left."""
    counter = iter(range(1000))

    def run(entry: Callable[[], None], args: list[str]) -> tuple[Ran, str, dict[str, object]]:
        folder = tmp_path / f"run{next(counter)}"
        folder.mkdir()
        (folder / "notes.txt").write_text("not a database\n")
        monkeypatch.chdir(folder)
        monkeypatch.setenv("CARDKIT_DB", str(folder / "default.db"))
        ran = run_entry(entry, args, capsys, monkeypatch)
        return ran, timeless(ran.stdout, folder), left(folder)

    return run


@pytest.mark.parametrize("args", PLAIN + TYPERS, ids=lambda a: " ".join(a))
def test_the_entry_point_prints_exits_and_writes_as_typers_command_does(args: list[str], run_in: Runner) -> None:
    fast, fast_out, fast_files = run_in(entry_point, args)
    typer, typer_out, typer_files = run_in(typers_path, args)
    assert (fast.returncode, fast_out, fast.stderr) == (typer.returncode, typer_out, typer.stderr)
    assert fast_files == typer_files


def test_plain_arguments_take_the_fast_path_and_every_near_miss_goes_to_typer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("not a database\n")
    assert [args for args in PLAIN if _fast.plain_call(args) is None] == []
    assert [args for args in TYPERS if _fast.plain_call(args) is not None] == []


def test_a_default_path_holding_an_escape_sequence_goes_to_typer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDKIT_DB", "\x1b[2Jcardkit.db")
    assert _fast.plain_call(["build"]) is None


def test_a_plain_build_runs_without_importing_typer(tmp_path: Path) -> None:
    probe = ("import atexit, sys; atexit.register(lambda: sys.stderr.write(str(sorted(m for m in sys.modules "
             "if m.split('.')[0] in ('typer', 'click', 'pydantic'))))); from cardkit.cli.main import main; main()")
    done = subprocess.run([sys.executable, "-c", probe, "build", "--out", "x.db"],
                          cwd=tmp_path, capture_output=True, text=True, check=True)
    assert done.stderr == "[]"
    assert done.stdout.startswith("built x.db in ")
