"""`cardkit.parallel.Helper`: work done in a second process gives what it gives here, and any failure falls back to here."""

from __future__ import annotations

import os
import signal
import time

import pytest

from cardkit import parallel
from cardkit.parallel import Helper, later

needs_fork = pytest.mark.skipif(not hasattr(os, "fork") or parallel.available_cores() < 2,
                                reason="a helper process needs fork and two cores")


def _pid_and_square(n: int) -> tuple[int, int]:
    return os.getpid(), n * n


def _fails(n: int) -> int:
    raise ValueError(f"no square for {n}")


def _unpicklable(n: int) -> object:
    return lambda: n


def _nothing() -> None:
    pass


def _sleep_long() -> None:
    time.sleep(60)


PREPARED: list[int] = []


def _note_prepared() -> None:
    PREPARED.append(os.getpid())


@needs_fork
def test_work_handed_to_a_helper_is_done_in_another_process_with_the_same_result() -> None:
    with Helper(_nothing) as helper:
        assert helper.running
        pid, square = helper.submit(_pid_and_square, 7)()
    assert square == 49 and pid != os.getpid()


@needs_fork
def test_several_pieces_of_work_come_back_in_the_order_given() -> None:
    with Helper(_nothing) as helper:
        pending = [helper.submit(_pid_and_square, n) for n in range(20)]
        assert [p()[1] for p in pending] == [n * n for n in range(20)]


@needs_fork
def test_work_that_fails_in_the_helper_is_done_again_here_and_raises_its_own_error() -> None:
    with Helper(_nothing) as helper:
        with pytest.raises(ValueError, match="no square for 3"):
            helper.submit(_fails, 3)()
        assert not helper.running
        # Later work is done here.
        pid, square = helper.submit(_pid_and_square, 4)()
    assert (pid, square) == (os.getpid(), 16)


@needs_fork
def test_a_result_that_cant_be_sent_back_is_made_here() -> None:
    with Helper(_nothing) as helper:
        made = helper.submit(_unpicklable, 5)()
    assert made() == 5  # type: ignore[operator]


@needs_fork
def test_a_helper_killed_from_outside_leaves_its_work_to_this_process() -> None:
    with Helper(_nothing) as helper:
        assert helper.pid is not None
        os.kill(helper.pid, signal.SIGKILL)
        pid, square = helper.submit(_pid_and_square, 6)()
    assert (pid, square) == (os.getpid(), 36)


@needs_fork
def test_closing_a_helper_still_preparing_ends_it_at_once() -> None:
    helper = Helper(_sleep_long)
    pid = helper.pid
    start = time.monotonic()
    helper.close()
    assert time.monotonic() - start < 5 and not helper.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # type: ignore[arg-type]
    helper.close()  # twice is harmless


def test_with_one_core_the_work_is_done_here_after_prepare(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "available_cores", lambda: 1)
    PREPARED.clear()
    with Helper(_note_prepared) as helper:
        assert not helper.running and helper.pid is None and PREPARED == []
        pending = helper.submit(_pid_and_square, 3)
        assert PREPARED == [], "nothing is done until the result is wanted"
        assert pending() == (os.getpid(), 9)
    assert PREPARED == [os.getpid()]


def test_without_a_helper_later_does_the_work_here_when_asked() -> None:
    pending = later(None, _pid_and_square, 2)
    assert pending() == (os.getpid(), 4)
