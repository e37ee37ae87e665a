"""Serve the catalogue under load: `cardkit serve` beside a bare `datasette -i` on the same file.

    python benchmarks/bench_serve.py [--clients 1,8] [--seconds 4]

Both servers run at once, each in its own process, on a copy of a fresh build. For each page and
each number of concurrent clients (1 and 8 by default), the clients request the page back to back
for SECONDS against one server, then the other; the script prints requests per second and p50/p99
latency, and the ratio cardkit/bare (the issue's goal: at least 1 for every page at 1 and 8).

The bare server has no cardkit plugin, so it cannot read the query language: beside cardkit's
`?_search=` it is given the same question in Datasette's own filters (`name__contains`,
`colour__in`, ...), which is what a user of a bare Datasette would type. A card page is
cardkit's template for a row of `cards`, the bare server's plain row page.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import ratio_line  # noqa: E402

from cardkit.db.build import build_database  # noqa: E402

# (label, cardkit path, bare datasette path): the same question to each server.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("home page", "/", "/"),
    ("card page (row of cards)", "/cardkit/cards/berserk-online,b_ammah", "/cardkit/cards/berserk-online,b_ammah"),
    ("search ?_search=Guts", "/cardkit/cards?_search=Guts", "/cardkit/cards?name__contains=Guts"),
    ("query language (c:red or c:black) -t:city lv<=2",
     "/cardkit/cards?_search=%28c%3Ared+or+c%3Ablack%29+-t%3Acity+lv%3C%3D2",
     "/cardkit/cards?colour__in=red,black&kind__not=city&level__lte=2"),
    ("cards table page", "/cardkit/cards", "/cardkit/cards"),
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


async def load(port: int, path: str, clients: int, seconds: float) -> tuple[float, list[float]]:
    """Requests per second and every latency (s) of `clients` workers requesting `path` for `seconds`."""
    import httpx

    latencies: list[float] = []
    stop = 0.0

    async def worker(client: httpx.AsyncClient) -> None:
        while not latencies or time.perf_counter() < stop:
            start = time.perf_counter()
            response = await client.get(path)
            response.raise_for_status()
            latencies.append(time.perf_counter() - start)

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=60) as client:
        await client.get(path)  # warm caches before timing
        began = time.perf_counter()
        stop = began + seconds  # every worker makes at least one request, however slow
        await asyncio.gather(*(worker(client) for _ in range(clients)))
        elapsed = time.perf_counter() - began
    return len(latencies) / elapsed, latencies


def percentile(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default="1,8", help="comma list of concurrent clients (default 1,8)")
    parser.add_argument("--seconds", type=float, default=4.0)
    args = parser.parse_args()
    concurrency = [int(c) for c in args.clients.split(",")]
    ratios: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="cardkit-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    try:
        db = build_database(folder / "cardkit" / "cardkit.db").path
        bare_db = folder / "cardkit.db"  # `datasette -i` names a database after its file
        shutil.copy(db, bare_db)
        ours, bare = free_port(), free_port()
        env = {**os.environ}
        procs.append(subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--db", str(db), "--port", str(ours)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        procs.append(subprocess.Popen([sys.executable, "-m", "datasette", "serve", "-i", str(bare_db), "--port", str(bare)],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env))
        wait_until_up(ours)
        wait_until_up(bare)
        print(f"{args.seconds:g} s per page, server and number of concurrent clients")
        print(f"{'page':<52} {'clients':>7} {'server':<8} {'req/s':>7} {'p50 ms':>8} {'p99 ms':>8}")
        for clients in concurrency:
            for label, our_path, bare_path in PAGES:
                rates = {}
                for server, port, path in (("cardkit", ours, our_path), ("bare", bare, bare_path)):
                    rate, latencies = asyncio.run(load(port, path, clients, args.seconds))
                    rates[server] = rate
                    print(f"{label:<52} {clients:>7} {server:<8} {rate:7.1f} {1000 * percentile(latencies, 50):8.1f} "
                          f"{1000 * percentile(latencies, 99):8.1f}")
                print(f"{'':<52} {'':>7} {'ratio':<8} {rates['cardkit'] / rates['bare']:7.2f}x")
                ratios.append(ratio_line(f"serve {label}, {clients} client{'s' if clients > 1 else ''}",
                                         rates["cardkit"], rates["bare"], "bare datasette's requests/s",
                                         goal=1, higher_is_better=True))
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
