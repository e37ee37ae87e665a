"""No worker process outlives its parent, and Ctrl-C on `serve` during a deck check is a clean stop."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

CLI = [sys.executable, "-c", "from cardkit.cli.main import main; main()"]
ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")


def children(pid: int) -> set[int]:
    """Every living process descended from `pid`."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    living = set()
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat[stat.rindex(")") + 2] != "Z":
            living.add(pid)
    return living


def gone_within(pids: set[int], seconds: float) -> set[int]:
    """The processes among `pids` still alive after waiting up to `seconds` for them to end."""
    deadline = time.monotonic() + seconds
    while alive(pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    return alive(pids)


def start_serve(catalogue: Path, **popen: Any) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([*CLI, "serve", "--db", str(catalogue), "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, **popen)
    line = proc.stderr.readline()  # type: ignore[union-attr]
    announced = re.search(r"at (http://127\.0\.0\.1:\d+)/cardkit", line)
    assert announced, line
    return proc, announced.group(1)


def post_deck(base: str, deck: str) -> Any:
    data = urllib.parse.urlencode({"deck": deck}).encode()
    return urllib.request.urlopen(urllib.request.Request(base + "/-/deck.json", data=data, method="POST"), timeout=60)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM, signal.SIGHUP], ids=["kill", "term", "hup"])
def test_serves_deck_check_workers_end_with_the_server_however_it_is_stopped(catalogue_db: Path,
                                                                             stop: signal.Signals) -> None:
    proc, base = start_serve(catalogue_db)
    try:
        with post_deck(base, "game: berserk-tcg\n3 Guts\n") as reply:
            assert reply.status == 200
        workers = children(proc.pid)
        assert workers, "a deck check starts a worker"
        proc.send_signal(stop)
        proc.wait(timeout=20)
        assert gone_within(workers, 5) == set()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


SLOW_MAP = ("import time\nfrom cardkit.parallel import ordered_map\n"
            "print('started', flush=True)\nordered_map(time.sleep, [60.0] * 6, jobs=3)\n")


def test_forked_workers_end_when_their_parent_is_killed_and_release_its_stdout() -> None:
    proc = subprocess.Popen([sys.executable, "-c", SLOW_MAP], stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "started\n"
        deadline = time.monotonic() + 10
        while len(children(proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2
        proc.kill()
        proc.wait()
        assert gone_within(workers, 5) == set()
        # With every worker gone, whoever reads the output (`| wc -c`) sees its end.
        ended = threading.Event()
        threading.Thread(target=lambda: (proc.stdout.read(), ended.set()), daemon=True).start()  # type: ignore[union-attr]
        assert ended.wait(5)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ctrl_c_on_serve_during_a_deck_check_answers_the_check_and_prints_no_traceback(catalogue_db: Path) -> None:
    proc, base = start_serve(catalogue_db, start_new_session=True)
    replies: list[int] = []
    try:
        with post_deck(base, "game: berserk-tcg\n3 Guts\n") as warm:  # the worker is started
            assert warm.status == 200
        heavy = "game: berserk-tcg\n" + "1 Guts\n" * 60_000

        def post() -> None:
            with post_deck(base, heavy) as reply:
                replies.append(reply.status)

        poster = threading.Thread(target=post)
        poster.start()
        time.sleep(1.0)  # the check is under way in the worker
        os.killpg(proc.pid, signal.SIGINT)  # as Ctrl-C does: the whole process group
        poster.join(60)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert replies == [200]
    assert "Traceback" not in err and "KeyboardInterrupt" not in err and "Exception" not in err, err
    assert proc.returncode == 0
