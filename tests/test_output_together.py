"""Issue 41, family 8: files written as one are put in place all or none, and the command says what happened.

The failure or interrupt is injected between two renames in the library (at every step), not timed from outside.
"""

from __future__ import annotations

import errno
import os
import signal
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit import outputs
from cardkit.cli.main import app
from cardkit.errors import InterruptedAfterWriting, WriteFailed
from cardkit.outputs import Kind, Output, write_together

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
OWN = Kind("test file", lambda path: True)
NAMES = ("a.txt", "b.txt", "c.txt")


def listing(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes: a temporary left behind shows up here too."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def at_step(step: int, then: Callable[[], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run `then` just before the rename number `step` (0 first) of the files written together."""
    renames = [0]
    put = outputs._put_in_place

    def put_with_event(staged: outputs._Staged) -> None:
        if renames[0] == step:
            then()
        renames[0] += 1
        put(staged)

    monkeypatch.setattr(outputs, "_put_in_place", put_with_event)


def interrupt() -> None:
    raise KeyboardInterrupt


def disk_error() -> None:
    raise OSError(errno.EIO, "Input/output error")


def three_files(folder: Path) -> list[tuple[Output, str | bytes]]:
    (folder / "a.txt").write_bytes(b"old a")
    (folder / "c.txt").write_bytes(b"old c")  # b.txt is new
    return [(Output(folder / name, OWN), f"new {name[0]}") for name in NAMES]


@pytest.mark.parametrize("step", range(len(NAMES)))
@pytest.mark.parametrize("failure", [interrupt, disk_error], ids=["ctrl-c", "disk-error"])
def test_a_failure_between_any_two_renames_puts_every_old_file_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     step: int, failure: Callable[[], None]) -> None:
    files = three_files(tmp_path)
    before = listing(tmp_path)
    at_step(step, failure, monkeypatch)
    with pytest.raises((KeyboardInterrupt, WriteFailed)):
        write_together(files)
    assert listing(tmp_path) == before


@pytest.mark.parametrize("step", range(len(NAMES)))
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_that_comes_between_the_renames_waits_until_every_file_is_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: int, signum: int) -> None:
    files = three_files(tmp_path)
    at_step(step, lambda: os.kill(os.getpid(), signum), monkeypatch)
    with pytest.raises(InterruptedAfterWriting) as came:
        write_together(files)
    assert listing(tmp_path) == {name: f"new {name[0]}".encode() for name in NAMES}
    assert came.value.paths == tuple(str(tmp_path / name) for name in NAMES)


def test_a_single_file_interrupted_as_it_is_renamed_is_written_and_said_to_be(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    at_step(0, lambda: os.kill(os.getpid(), signal.SIGINT), monkeypatch)
    with pytest.raises(InterruptedAfterWriting):
        Output(tmp_path / "a.txt", OWN).write("new")
    assert listing(tmp_path) == {"a.txt": b"new"}


def test_a_cache_note_is_not_worth_holding_an_interrupt_for(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    at_step(0, lambda: os.kill(os.getpid(), signal.SIGINT), monkeypatch)
    with pytest.raises(KeyboardInterrupt) as came:
        Output(tmp_path / "a.txt", Kind("note", lambda path: True, product=False)).write("new")
    assert not isinstance(came.value, InterruptedAfterWriting) and listing(tmp_path) == {}


# --- tournament publish --csv-dir ----------------------------------------------------------------------------


def publish(folder: Path, title: str) -> list[str]:
    return ["tournament", "publish", str(EVENT), "--event", title, "--out", str(folder / "page.html"),
            "--csv-dir", str(folder / "tables")]


@pytest.fixture
def published(runner: CliRunner, tmp_path: Path) -> dict[str, bytes]:
    first = runner.invoke(app, publish(tmp_path, "First title"))
    assert first.exit_code == 0, first.output
    return listing(tmp_path)


STEPS = range(6)  # the page and five tables


@pytest.mark.parametrize("step", STEPS)
def test_publish_interrupted_between_any_two_files_leaves_the_earlier_page_and_tables(
        runner: CliRunner, tmp_path: Path, published: dict[str, bytes], monkeypatch: pytest.MonkeyPatch, step: int) -> None:
    at_step(step, interrupt, monkeypatch)
    result = runner.invoke(app, publish(tmp_path, "Second title"))
    assert result.exit_code == 130 and result.output == "error: interrupted\n", result.output
    assert listing(tmp_path) == published


@pytest.mark.parametrize("step", STEPS)
def test_publish_interrupted_once_its_files_are_renaming_writes_them_all_and_exits_0(
        runner: CliRunner, tmp_path: Path, published: dict[str, bytes], monkeypatch: pytest.MonkeyPatch, step: int) -> None:
    at_step(step, lambda: os.kill(os.getpid(), signal.SIGINT), monkeypatch)
    result = runner.invoke(app, publish(tmp_path, "Second title"))
    assert result.exit_code == 0, result.output
    assert "note: interrupted once every file was written" in result.output and "error" not in result.output
    now = listing(tmp_path)
    assert sorted(now) == sorted(published)
    assert b"Second title" in now["page.html"] and now["page.html"] != published["page.html"]


def test_a_report_interrupted_as_it_is_renamed_says_it_was_written(runner: CliRunner, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    at_step(0, lambda: os.kill(os.getpid(), signal.SIGINT), monkeypatch)
    result = runner.invoke(app, ["tournament", "check", str(EVENT), "--report", str(tmp_path / "report.csv")])
    assert result.exit_code == 0 and "note: interrupted once every file was written" in result.output, result.output
    assert list(listing(tmp_path)) == ["report.csv"]
