"""Serve the catalogue under load: `cardkit serve` beside a bare `datasette -i` on the same file.

    python benchmarks/bench_serve.py [--clients 1,8] [--seconds 4] [--rounds 8] [--pages home,card]

Both servers run at once, each in its own process, on a copy of a fresh build, and both are asked
by the same clients, after the same warm-up (each page once). One client asks the two servers in
turn, request by request (cardkit, bare, bare, cardkit, ...), for 2 x SECONDS: on a shared machine
a lone request's time is mostly waiting to be scheduled, and that wait changes from one tenth of a
second to the next, so only requests interleaved this finely meet the same load. More clients (8 by
default) ask one server, then the other, in ROUNDS turns of SECONDS/ROUNDS each (the order swapped
every round), so that a burst of load falls on both. The clients are a few lines of asyncio over
keep-alive HTTP/1.1 connections rather than an HTTP library: httpx cost about 3 ms of CPU per
request, as much as a cardkit page, on the same two cores.

The script prints requests per second, p50/p99 latency, the server process's CPU time per request
(from /proc, where there is one: it moves much less with the machine's load than the wall time) and
the clients' own CPU per request, then the ratio cardkit/bare of requests per second (the issue's
goal: at least 1 for every page at 1 and 8), with bare/cardkit of CPU per request beside it.

The bare server has no cardkit plugin, so it cannot read the query language: beside cardkit's
`?_search=` it is given the same question in Datasette's own filters (`name__contains`,
`colour__in`, ...), which is what a user of a bare Datasette would type. A card page is
cardkit's template for a row of `cards`, the bare server's plain row page: one card asked for again
and again, and every card in turn, each asked for once in the whole run (so that SQLite's cache of
the file, warm for the one card, is not what is measured).
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
from collections.abc import Iterator
from pathlib import Path
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


class Walk:
    """Every card's page in turn, over the whole run, so that no card is visited twice by either server.

    Both servers start each round from the furthest card either has reached, so that they are asked
    about the same cards (one server walking further than the other in a turn would otherwise be
    timed on other cards: a TCG card's page costs more than a fleet card's)."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = paths
        self.reached = 0

    def from_(self, start: int) -> Iterator[str]:
        index = start
        while True:
            self.reached = max(self.reached, index + 1)
            yield self.paths[index % len(self.paths)]
            index += 1


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
        self.client_cpu = 0.0  # the benchmark's own CPU seconds, spent by the clients

    def rate(self) -> float:
        return self.requests / self.seconds

    def cpu_ms(self) -> float | None:
        return None if self.cpu is None else 1000 * self.cpu / self.requests


class Connection:
    """One keep-alive HTTP/1.1 connection that GETs a path and reads the whole reply.

    The clients are this, not an HTTP library: at a few milliseconds of the server's CPU per page,
    httpx spent about 3 ms of CPU on each request, as much as the server, on the same two cores, and
    at 8 clients it was the client, not the server, that set the pace. A client that costs little
    leaves the machine to the servers being compared (its own CPU per request is printed beside)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> bytes:
        if self.reader is None or self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.reader, self.writer
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode("latin-1"))
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in header_lines if ": " in line)
        if "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            chunks = []
            while size := int((await reader.readline()).split(b";")[0], 16):
                chunks.append((await reader.readexactly(size + 2))[:-2])
            while await reader.readline() not in (b"\r\n", b""):  # trailers
                pass
            body = b"".join(chunks)
        else:
            raise RuntimeError(f"{path}: a reply with neither a length nor chunks")
        if status_line.split()[1] != "200":
            raise RuntimeError(f"{path}: {status_line}")
        if headers.get("connection") == "close":
            await self.close()
        return body

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def turn(port: int, pid: int, paths: Iterator[str], clients: int, seconds: float, tally: Tally) -> None:
    """`clients` workers requesting the next of `paths` for `seconds`, added to `tally`."""
    latencies: list[float] = []
    stop = 0.0

    async def worker(connection: Connection) -> None:
        while not latencies or time.perf_counter() < stop:
            path = next(paths)
            start = time.perf_counter()
            await connection.get(path)
            latencies.append(time.perf_counter() - start)

    connections = [Connection(port) for _ in range(clients)]
    cpu, own_cpu = cpu_seconds(pid), time.process_time()
    began = time.perf_counter()
    stop = began + seconds  # every worker makes at least one request, however slow
    await asyncio.gather(*(worker(c) for c in connections))
    elapsed = time.perf_counter() - began
    after, own_after = cpu_seconds(pid), time.process_time()
    for connection in connections:
        await connection.close()
    tally.requests += len(latencies)
    tally.seconds += elapsed
    tally.latencies += latencies
    tally.client_cpu += own_after - own_cpu
    tally.cpu = None if cpu is None or after is None or tally.cpu is None else tally.cpu + after - cpu


async def alternating(servers: dict[str, tuple[int, int]], paths: dict[str, Iterator[str]], seconds: float,
                      tallies: dict[str, Tally]) -> None:
    """One client asking each server in turn, request by request, for `seconds` in all.

    With one request in flight, a request's time on a shared machine is mostly waiting to be
    scheduled, twice (server, then client), and that wait moves from one tenth of a second to the
    next; asked alternately (cardkit, bare, bare, cardkit, ...), both servers meet the same load.
    Each server's CPU is read before and after the whole run: it is idle while the other answers."""
    names = list(servers)
    connections = {name: Connection(servers[name][0]) for name in names}
    cpu = {name: cpu_seconds(servers[name][1]) for name in names}
    own_cpu = time.process_time()
    stop = time.perf_counter() + seconds
    round_ = 0
    while round_ < 2 or time.perf_counter() < stop:
        for name in (names if round_ % 2 == 0 else names[::-1]):
            path = next(paths[name])
            start = time.perf_counter()
            await connections[name].get(path)
            latency = time.perf_counter() - start
            tally = tallies[name]
            tally.requests += 1
            tally.seconds += latency
            tally.latencies.append(latency)
        round_ += 1
    own = time.process_time() - own_cpu
    for name in names:
        await connections[name].close()
        after, before, tally = cpu_seconds(servers[name][1]), cpu[name], tallies[name]
        tally.cpu = None if before is None or after is None or tally.cpu is None else tally.cpu + after - before
        tally.client_cpu += own * tally.requests / sum(t.requests for t in tallies.values())


async def warm(port: int, paths: list[str]) -> None:
    """Every path asked for once, so that both servers' caches (SQLite's pages, cardkit's pages) are warm."""
    connection = Connection(port)
    for path in paths:
        await connection.get(path)
    await connection.close()


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="1,8", help="comma list of concurrent clients (default 1,8)")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per page, server and number of clients")
    parser.add_argument("--pages", default="", help="only the pages whose label holds one of these comma-separated words")
    parser.add_argument("--rounds", type=int, default=8, help="turns each server takes within those seconds, with more than one client")
    args = parser.parse_args()
    concurrency = [int(c) for c in args.clients.split(",")]
    words = [w for w in args.pages.split(",") if w]
    pages = [page for page in PAGES if not words or any(w in page[0] for w in words)]
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
        # One card's page among the rest, so that what cardkit reads once for all card pages is read before any timing.
        for _, our_path, bare_path in [PAGES[1], *pages]:
            if our_path != EVERY_CARD:
                asyncio.run(warm(ours, [our_path]))
                asyncio.run(warm(bare, [bare_path]))
        walk = Walk([EVERY_CARD.format(k) for k in keys])
        print(f"{args.seconds:g} s per page, server and number of concurrent clients, in {args.rounds} turns")
        print(f"{'page':<52} {'clients':>7} {'server':<8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8} {'CPU ms/req':>10} {'client CPU':>10}")
        for clients in concurrency:
            for label, our_path, bare_path in pages:
                tallies = {"cardkit": Tally(), "bare": Tally()}
                def ask(our_path: str = our_path, bare_path: str = bare_path) -> dict[str, Iterator[str]]:
                    start = walk.reached
                    return {server: walk.from_(start) if path == EVERY_CARD else itertools.repeat(path)
                            for server, path in (("cardkit", our_path), ("bare", bare_path))}

                if clients == 1:
                    asyncio.run(alternating(servers, ask(), 2 * args.seconds, tallies))
                for round_ in range(args.rounds if clients > 1 else 0):
                    paths = ask()
                    for server in (("cardkit", "bare") if round_ % 2 == 0 else ("bare", "cardkit")):
                        port, pid = servers[server]
                        asyncio.run(turn(port, pid, paths[server], clients, args.seconds / args.rounds, tallies[server]))
                for server, tally in tallies.items():
                    cpu = tally.cpu_ms()
                    print(f"{label:<52} {clients:>7} {server:<8} {tally.rate():7.1f} {1000 * percentile(tally.latencies, 50):8.1f} "
                          f"{1000 * percentile(tally.latencies, 99):8.1f} {'' if cpu is None else f'{cpu:10.2f}':>10} "
                          f"{1000 * tally.client_cpu / tally.requests:10.2f}")
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
