"""Every file cardkit writes gets the mode the user's umask gives new files: nothing world-readable by accident."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.outputs import Kind, Output, current_umask, write_atomic

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
REGISTRATIONS = str(EVENT / "registrations.csv")



@pytest.fixture
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    old = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o077, 0o022, 0o027], indirect=True)
def test_the_umask_is_read_without_changing_it(umask: int) -> None:
    assert current_umask() == umask
    assert current_umask() == umask


@pytest.mark.parametrize("umask", [0o077, 0o022], indirect=True, ids=["umask-077", "umask-022"])
def test_the_guarded_writer_gives_a_new_file_the_mode_the_umask_allows(tmp_path: Path, umask: int) -> None:
    Output(tmp_path / "out.txt", Kind("text", lambda p: True)).write("hello\n")
    write_atomic(tmp_path / "plain.json", "{}\n")
    assert mode(tmp_path / "out.txt") == 0o666 & ~umask
    assert mode(tmp_path / "plain.json") == 0o666 & ~umask


@pytest.mark.parametrize("umask", [0o077, 0o022], indirect=True, ids=["umask-077", "umask-022"])
def test_a_replaced_file_gets_the_umask_mode_too(tmp_path: Path, umask: int) -> None:
    target = tmp_path / "out.txt"
    target.write_text("old\n")
    target.chmod(0o644)
    Output(target, Kind("text", lambda p: True)).write("new\n")
    assert mode(target) == 0o666 & ~umask


@pytest.mark.parametrize("umask", [0o077, 0o022], indirect=True, ids=["umask-077", "umask-022"])
@pytest.mark.parametrize("command, out", [
    (["check", "--report"], "report.html"),
    (["check", "--report"], "report.csv"),
    (["db", "--out"], "event.db"),
    (["publish", "--out"], "page.html"),
    (["register", "--out"], "registry.json"),
], ids=["html-report", "csv-report", "database", "published-page", "registry"])
def test_every_tournament_output_honours_the_umask(runner: CliRunner, tmp_path: Path, umask: int,
                                                    command: list[str], out: str) -> None:
    target = tmp_path / out
    result = runner.invoke(app, ["tournament", command[0], str(EVENT), "-r", REGISTRATIONS, command[1], str(target)])
    assert result.exit_code in (0, 1), result.output
    assert mode(target) == 0o666 & ~umask
    # The player names in it are readable by the group or the world only if the umask says so.
    assert bool(mode(target) & stat.S_IROTH) == (umask == 0o022)
