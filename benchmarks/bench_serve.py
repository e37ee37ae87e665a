"""Serve the catalogue under load: `cardkit serve` beside a bare `datasette -i` on the same file.

    python benchmarks/bench_serve.py [--clients 1,8] [--seconds 4] [--rounds 8]

Both servers run at once, each in its own process, on a copy of a fresh build. For each page and
each number of concurrent clients (1 and 8 by default), the clients request the page back to back
against one server, then the other, in ROUNDS turns of SECONDS/ROUNDS each (the order swapped every
round), so that a burst of load on a shared machine falls on both. The script prints requests per
second, p50/p99 latency and the server process's CPU time per request (from /proc, where there is
one: it moves much less with the machine's load than the wall time), and the ratio cardkit/bare of
requests per second (the issue's goal: at least 1 for every page at 1 and 8), with bare/cardkit of
CPU per request beside it.

The bare server has no cardkit plugin, so it cannot read the query language: beside cardkit's
`?_search=` it is given the same question in Datasette's own filters (`name__contains`,
`colour__in`, ...), which is what a user of a bare Datasette would type. A card page is
cardkit's template for a row of `cards`, the bare server's plain row page: one card asked for again
and again, and every card in turn, each asked for once in the whole run (cardkit works out a card's
page on its first visit and keeps it: these are all first visits).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import ratio_line  # noqa: E402

from cardkit.db.build import build_database  # noqa: E402

# Every card's page in turn, each visited once (unless the run makes more requests than there are cards).
EVERY_CARD = "/cardkit/cards/{}"
# (label, cardkit path, bare datasette path): the same question to each server.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("home page", "/", "/"),
    ("card page (row of cards)", "/cardkit/cards/berserk-online,b_ammah", "/cardkit/cards/berserk-online,b_ammah"),
    ("card pages, each card's first visit", EVERY_CARD, EVERY_CARD),
    ("search ?_search=Guts", "/cardkit/cards?_search=Guts", "/cardkit/cards?name__contains=Guts"),
    ("query language (c:red or c:black) -t:city lv<=2",
     "/cardkit/cards?_search=%28c%3Ared+or+c%3Ablack%29+-t%3Acity+lv%3C%3D2",
     "/cardkit/cards?colour__in=red,black&kind__not=city&level__lte=2"),
    ("cards table page", "/cardkit/cards", "/cardkit/cards"),
    ("database page", "/cardkit", "/cardkit"),
)
SERVE = "from cardkit.cli.main import main; main()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_up(port: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port}")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process `pid` so far, or None where /proc cannot say."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Tally:
    """Requests, wall seconds, server CPU seconds and latencies of one server on one page, over its turns."""

    def __init__(self) -> None:
        self.requests = 0
        self.seconds = 0.0
        self.cpu: float | None = 0.0
        self.latencies: list[float] = []

    def rate(self) -> float:
        return self.requests / self.seconds

    def cpu_ms(self) -> float | None:
        return None if self.cpu is None else 1000 * self.cpu / self.requests


async def turn(port: int, pid: int, paths: Iterator[str], clients: int, seconds: float, tally: Tally) -> None:
    """`clients` workers requesting the next of `paths` for `seconds`, added to `tally`."""
    import httpx

    latencies: list[float] = []
    stop = 0.0

    async def worker(client: httpx.AsyncClient) -> None:
        while not latencies or time.perf_counter() < stop:
            path = next(paths)
            start = time.perf_counter()
            response = await client.get(path)
            response.raise_for_status()
            latencies.append(time.perf_counter() - start)

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=60) as client:
        cpu = cpu_seconds(pid)
        began = time.perf_counter()
        stop = began + seconds  # every worker makes at least one request, however slow
        await asyncio.gather(*(worker(client) for _ in range(clients)))
        elapsed = time.perf_counter() - began
        after = cpu_seconds(pid)
    tally.requests += len(latencies)
    tally.seconds += elapsed
    tally.latencies += latencies
    tally.cpu = None if cpu is None or after is None or tally.cpu is None else tally.cpu + after - cpu


async def warm(port: int, paths: list[str]) -> None:
    """Every path asked for once, so that both servers' caches (SQLite's pages, cardkit's pages) are warm."""
    import httpx

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
        for path in paths:
            (await client.get(path)).raise_for_status()


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="1,8", help="comma list of concurrent clients (default 1,8)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per page, server and number of clients")
    parser.add_argument("--rounds", type=int, default=8, help="turns each server takes within those seconds")
    args = parser.parse_args()
    concurrency = [int(c) for c in args.clients.split(",")]
    ratios: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="cardkit-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        db = build_database(folder / "cardkit" / "cardkit.db").path
        bare_db = folder / "cardkit.db"  # `datasette -i` names a database after its file
        shutil.copy(db, bare_db)
        with sqlite3.connect(db) as conn:
            keys = [f"{quote(game)},{quote(card)}" for game, card in conn.execute(
                "select game, id from cards order by position")]
        ours, bare = free_port(), free_port()
        env = {**os.environ}
        procs.append(subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--db", str(db), "--port", str(ours)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        procs.append(subprocess.Popen([sys.executable, "-m", "datasette", "serve", "-i", str(bare_db), "--port", str(bare)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        wait_until_up(ours)
        wait_until_up(bare)
        servers = {"cardkit": (ours, procs[0].pid), "bare": (bare, procs[1].pid)}
        for _, our_path, bare_path in PAGES:
            if our_path != EVERY_CARD:
                asyncio.run(warm(ours, [our_path]))
                asyncio.run(warm(bare, [bare_path]))
        # One walk over the cards per server for the whole run, so that no card is visited twice.
        walks = {server: itertools.cycle([EVERY_CARD.format(k) for k in keys]) for server in servers}
        print(f"{args.seconds:g} s per page, server and number of concurrent clients, in {args.rounds} turns")
        print(f"{'page':<52} {'clients':>7} {'server':<8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/req':>10}")
        for clients in concurrency:
            for label, our_path, bare_path in PAGES:
                tallies = {"cardkit": Tally(), "bare": Tally()}
                paths = {server: walks[server] if path == EVERY_CARD else itertools.repeat(path)
                         for server, path in (("cardkit", our_path), ("bare", bare_path))}
                for round_ in range(args.rounds):
                    for server in (("cardkit", "bare") if round_ % 2 == 0 else ("bare", "cardkit")):
                        port, pid = servers[server]
                        asyncio.run(turn(port, pid, paths[server], clients, args.seconds / args.rounds, tallies[server]))
                for server, tally in tallies.items():
                    cpu = tally.cpu_ms()
                    print(f"{label:<52} {clients:>7} {server:<8} {tally.rate():7.1f} {1000 * percentile(tally.latencies, 50):8.1f} "
                          f"{1000 * percentile(tally.latencies, 99):8.1f} {'' if cpu is None else f'{cpu:10.2f}'}")
                ours_cpu, bare_cpu = tallies["cardkit"].cpu_ms(), tallies["bare"].cpu_ms()
                cpu_ratio = f"; CPU per request {bare_cpu / ours_cpu:.2f}x as fast" if ours_cpu and bare_cpu else ""
                rate_ratio = tallies["cardkit"].rate() / tallies["bare"].rate()
                print(f"{'':<52} {'':>7} {'ratio':<8} {rate_ratio:7.2f}x{cpu_ratio}")
                line = ratio_line(f"serve {label}, {clients} client{'s' if clients > 1 else ''}",
                                  tallies["cardkit"].rate(), tallies["bare"].rate(), "bare datasette's requests/s",
                                  goal=1, higher_is_better=True)
                ratios.append(line + cpu_ratio)
        for line in ratios:
            print(line)
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGINT)
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
