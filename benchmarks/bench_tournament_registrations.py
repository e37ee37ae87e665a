"""An event whose registration list names each player's deck file: the normal case when decks arrive by e-mail.

Writes N=5,000 submissions into a temporary folder and a registration list of N rows with
`player` and `deck` columns naming every file (a quarter written `./NAME`). Half of the
decks carry no `player:` line (the list's `deck` column says whose they are); a tenth are
in groups of ten identical decks (each from another player); the rest are distinct
variations of the bundled legal decks (counts lowered at random, seeded). The same mix on N/2.

For each size it times, cold (the catalogue loaded inside the timing), best of three:
`tournament check` (`check_event`), `tournament db` (check and write the database),
`tournament publish` (check and write the page), `tournament register` (check and write
the registry), and the floor: only reading every file and splitting it into lines. It prints
decks/s, each command's time against `check` and against the floor, and the ratio of the
two check times: a check linear in submissions plus registration rows gives about 2.
Goals on a 2-core machine: ratio <= 2.2, >= 4,000 decks/s, check <= 10 x the floor,
db and publish <= 1.5 x check.
Run: python benchmarks/bench_tournament_registrations.py [N]
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from _timing import ratio_line
from bench_tournament_scale import _cpu, _variation, clear_caches, legal_sources, read_and_split

from cardkit.tournament import check_event
from cardkit.tournament.database import write_database
from cardkit.tournament.publish import write_page
from cardkit.tournament.registry import build_registry, write_registry

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
GROUP = 10  # identical decks per group
ROUNDS = 3


def generate(folder: Path, n: int, seed: int = 19) -> Path:
    """`n` submissions in `folder/decks` and the registration list naming each; returns the list's path."""
    rng = random.Random(seed)
    sources = legal_sources()
    decks = folder / "decks"
    decks.mkdir()
    # A tenth of the field is in identical groups of GROUP: n // 100 group decks, each sent GROUP times.
    groups = [_variation(sources[g % len(sources)], random.Random(seed + g)) for g in range(max(1, n // (10 * GROUP)))]
    seen: set[tuple[str, ...]] = {tuple(g) for g in groups}
    rows = ["player,deck"]
    for i in range(n):
        if i % 10 == 0:
            lines = groups[(i // 10) % len(groups)]
        else:
            for _ in range(50):
                lines = _variation(sources[i % len(sources)], rng)
                if tuple(lines) not in seen:
                    break
            seen.add(tuple(lines))
        player = f"Player {i:05d}"
        name = f"{i:05d}-entry.deck"
        head = f"player: {player}\n" if i % 2 == 0 else ""
        (decks / name).write_text(head + "\n".join(lines) + "\n", encoding="utf-8")
        rows.append(f"{player},{'./' if i % 4 == 1 else ''}{name}")
    registrations = folder / "registrations.csv"
    registrations.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return registrations


def _best(run: Callable[[], object], rounds: int = ROUNDS) -> tuple[float, float]:
    """(seconds, CPU seconds over every process) of the fastest of `rounds` cold runs: other load only adds time."""
    best = (float("inf"), 0.0)
    for _ in range(rounds):
        clear_caches()
        cpu = _cpu()
        start = time.perf_counter()
        run()
        best = min(best, (time.perf_counter() - start, _cpu() - cpu))
    return best


def timed(n: int) -> dict[str, tuple[float, float]]:
    """Best-of-three (seconds, CPU seconds) of each command and of the floor on an event of `n` submissions."""
    with tempfile.TemporaryDirectory(prefix="cardkit-bench-") as tmp:
        folder = Path(tmp)
        regs = generate(folder, n)
        decks = folder / "decks"
        out = folder / "out"
        out.mkdir()
        result = check_event([decks], registrations=regs)
        assert len(result.submissions) == n, "every registered file should be found, nobody missing"
        assert not any(p.code in ("NO_PLAYER", "MISSING_SUBMISSION", "PLAYER_MISMATCH") for s in result.submissions
                       for p in s.problems), "the deck column should give every file its player"
        warned = sum(any(p.code == "IDENTICAL_DECKS" for p in s.problems) for s in result.submissions)
        assert warned >= n // 10, "each deck of an identical group should be warned about"

        def db() -> None:
            write_database([check_event([decks], registrations=regs)], out / "event.db")

        def publish() -> None:
            write_page(check_event([decks], registrations=regs), out / "event.html")

        def register() -> None:
            write_registry(build_registry(check_event([decks], registrations=regs)), out / "registry.json", force=True)

        times = {"check": _best(lambda: check_event([decks], registrations=regs)), "db": _best(db),
                 "publish": _best(publish), "register": _best(register)}
        times["floor"] = _best(lambda: read_and_split(decks))
        return times


def main() -> None:
    # The machine's load decides the wall time as much as cardkit does: say what it was, and give CPU seconds too.
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    small, big = timed(N // 2), timed(N)
    for n, t in ((N // 2, small), (N, big)):
        print(f"{n:6d} submissions, {n}-row registration list with a deck column:")
        for step in ("check", "db", "publish", "register"):
            wall, cpu = t[step]
            print(f"    {step:9} {n / wall:6.0f} decks/s ({wall:.2f} s, {cpu:.2f} CPU s; {wall / t['check'][0]:.2f} x check, "
                  f"{cpu / t['check'][1]:.2f} x its CPU; {wall / t['floor'][0]:.1f} x the floor, "
                  f"{cpu / t['floor'][1]:.1f} x its CPU)")
        print(f"    floor     {n / t['floor'][0]:6.0f} decks/s only reading and splitting the files "
              f"({t['floor'][0]:.3f} s, {t['floor'][1]:.3f} CPU s)")
    print(f"check ratio {N} / {N // 2}: {big['check'][0] / small['check'][0]:.2f} in time, "
          f"{big['check'][1] / small['check'][1]:.2f} in CPU seconds  (linear: 2; goal <= 2.2; goal >= 4000 decks/s, "
          f"check <= 10 x the floor, db and publish <= 1.5 x check)")
    # For run_all.py: wall time, then CPU seconds (what a loaded shared machine moves least).
    for i, unit in ((0, "wall"), (1, "CPU")):
        print(ratio_line(f"registrations check {N} vs {N // 2} ({unit})", big["check"][i], small["check"][i],
                         f"check of {N // 2}", goal=2.2))
        print(ratio_line(f"registrations check {N} ({unit})", big["check"][i], big["floor"][i], "read and split", goal=10))
        for step in ("db", "publish"):
            print(ratio_line(f"registrations {step} {N} ({unit})", big[step][i], big["check"][i], "check", goal=1.5))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
