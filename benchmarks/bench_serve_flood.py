"""Page reads during a flood of deck checks: `cardkit serve` answering pages while decks are posted.

    python benchmarks/bench_serve_flood.py [--requests 200] [--deck-lines 40000]

Two servers on a fresh build, one after the other: deck checks in threads of the server
(`CARDKIT_DECK_CHECK_PROCESSES=0`, as before) and in worker processes (the default). Against each,
first the page reads alone (REQUESTS / 2 of them sent at once: the floor), then the flood:
REQUESTS requests sent at once, the same page reads interleaved with as many deck checks
(`POST /-/deck.json`, a list of DECK_LINES lines). The script prints the median and 95th
percentile latency of the page reads, the server's CPU time (its worker processes included), how
the deck checks were answered (200, or 503 when the server already holds as many as it takes), and
the load average, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_serve import SERVE, free_port, wait_until_up  # noqa: E402

from cardkit.db.build import build_database  # noqa: E402

PAGES = ("/", "/cardkit/cards/berserk-online,b_ammah", "/cardkit/cards?_search=Guts", "/cardkit/sets")
DECKS = Path(__file__).resolve().parent.parent / "decks" / "berserk-tcg"


def deck_text(lines: int) -> str:
    """A TCG list of `lines` card lines, cycling through the bundled decks' lines (names, ids, ambiguous names)."""
    cards = [line for path in sorted(DECKS.glob("*.deck")) for line in path.read_text(encoding="utf-8").splitlines()
             if line[:1].isdigit()]
    return "game: berserk-tcg\n" + "\n".join(cards[i % len(cards)] for i in range(lines)) + "\n"


def percentile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else values[0]


async def reads_alone(port: int, count: int) -> list[float]:
    import httpx

    latencies: list[float] = []
    gate = asyncio.Semaphore(8)

    async def read(client: httpx.AsyncClient, path: str) -> None:
        async with gate:
            start = time.perf_counter()
            (await client.get(path)).raise_for_status()
            latencies.append(time.perf_counter() - start)

    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=300) as client:
        await asyncio.gather(*(read(client, PAGES[i % len(PAGES)]) for i in range(count)))
    return latencies


async def flood(port: int, requests: int, deck: str | None) -> tuple[list[float], Counter[int]]:
    """Latencies of `requests // 2` page reads sent at once, with as many deck checks of `deck` among them
    (none for the floor), and how the checks were answered."""
    import httpx

    latencies: list[float] = []
    decks: Counter[int] = Counter()

    async def read(client: httpx.AsyncClient, path: str) -> None:
        start = time.perf_counter()
        (await client.get(path)).raise_for_status()
        latencies.append(time.perf_counter() - start)

    # Encoded once: the client's own work per post stays out of the page reads' latency.
    body = urlencode({"deck": deck or ""}).encode()
    form = {"content-type": "application/x-www-form-urlencoded"}

    async def check(client: httpx.AsyncClient) -> None:
        decks[(await client.post("/-/deck.json", content=body, headers=form)).status_code] += 1

    limits = httpx.Limits(max_connections=requests, max_keepalive_connections=requests)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=600) as client:
        await asyncio.gather(*(read(client, PAGES[(i // 2) % len(PAGES)]) if i % 2 else check(client)
                               for i in range(requests) if i % 2 or deck is not None))
    return latencies, decks


def cpu_seconds(pid: int, children: bool = True) -> float:
    """User + system CPU time of a process (and its children) so far (Linux /proc), in seconds."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for task in [pid, *_children(pid)] if children else [pid]:
        try:
            fields = Path(f"/proc/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def _children(pid: int) -> list[int]:
    try:
        found = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [int(c) for c in found] + [g for c in found for g in _children(int(c))]


def run(db: Path, mode: str, requests: int, deck: str) -> list[str]:
    """The measurement against one server whose deck checks run in `mode` (threads or processes)."""
    port = free_port()
    env = {**os.environ, "CARDKIT_DECK_CHECK_PROCESSES": "0" if mode == "threads" else "1"}
    proc = subprocess.Popen([sys.executable, "-c", SERVE, "serve", "--db", str(db), "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        wait_until_up(port)
        asyncio.run(reads_alone(port, len(PAGES)))  # warm the pages
        asyncio.run(flood(port, 2, "game: berserk-tcg\n3 Guts\n"))  # and start the deck-check worker
        began = cpu_seconds(proc.pid)
        alone, _ = asyncio.run(flood(port, requests, None))
        alone_cpu = cpu_seconds(proc.pid) - began
        began, began_own = cpu_seconds(proc.pid), cpu_seconds(proc.pid, children=False)
        during, decks = asyncio.run(flood(port, requests, deck))
        used, own = cpu_seconds(proc.pid) - began, cpu_seconds(proc.pid, children=False) - began_own
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
    shown = ", ".join(f"{n} answered {status}" for status, n in sorted(decks.items()))
    return [f"{mode + ', the page reads alone (floor)':<44} {len(alone):>5} {1000 * percentile(alone, 50):9.1f} "
            f"{1000 * percentile(alone, 95):9.1f} {alone_cpu:8.1f}",
            f"{mode + ', the page reads in the flood':<44} {len(during):>5} "
            f"{1000 * percentile(during, 50):9.1f} {1000 * percentile(during, 95):9.1f} {used:8.1f}",
            f"{'':<8}deck checks in the flood: {shown}; CPU {own:.1f} s in the server's own process"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--deck-lines", type=int, default=40000)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="cardkit-bench-"))
    try:
        db = build_database(folder / "cardkit.db").path
        deck = deck_text(args.deck_lines)
        print(f"deck checks of {args.deck_lines:,} lines ({len(deck.encode()):,} bytes)")
        print(f"{'deck checks in':<44} {'reads':>5} {'p50 ms':>9} {'p95 ms':>9} {'CPU s':>8}")
        for mode in ("threads", "processes"):
            for line in run(db, mode, args.requests, deck):
                print(line, flush=True)
        print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
