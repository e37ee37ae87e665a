"""An event whose registration list names each player's deck file: the normal case when decks arrive by e-mail.

Writes N=5,000 submissions into a temporary folder and a registration list of N rows with
`player` and `deck` columns naming every file (a quarter written `./NAME`). Half of the
decks carry no `player:` line (the list's `deck` column says whose they are); a tenth are
in groups of ten identical decks (each from another player); the rest are distinct
variations of the bundled legal decks (counts lowered at random, seeded). The same mix on N/2.

In this process, for each size, cold (the catalogue loaded inside the timing), best of three,
the two sizes taking turns round by round: `tournament check` (`check_event`), `tournament db`
(check and write the database), `tournament publish` (check and write the page), `tournament
register` (check and write the registry), and the floor: only reading every file and splitting it
into lines. Then `cardkit tournament check|db|publish` on the N event as a user runs them, each a
new process (start-up and the imports each needs included), in turns,
median of five. It prints decks/s, each step's time against `check` and against the floor, and the
ratio of the two check times: a check linear in submissions plus registration rows gives about 2.
Goals on a 2-core machine: ratio <= 2.2, >= 4,000 decks/s, check <= 10 x the floor,
the db and publish commands <= 2 x the check command (the budget an organizer feels).
Run: python benchmarks/bench_tournament_registrations.py [N]
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from _timing import ratio_line
from bench_tournament_scale import _cpu, _variation, clear_caches, legal_sources, read_and_split

from cardkit.tournament import check_event
from cardkit.tournament.database import write_database
from cardkit.tournament.publish import write_page
from cardkit.tournament.registry import build_registry, write_registry

N = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
GROUP = 10  # identical decks per group
ROUNDS = 3
COMMAND_ROUNDS = 5
COMMAND_BUDGET = 2.0
"""`tournament db` and `publish` of the big event take at most this many times `tournament check` of it, as commands."""
# The console script beside this interpreter, as a user runs it; `python -m cardkit` where there is none.
SCRIPT = Path(sys.executable).with_name("cardkit")
CARDKIT = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "cardkit"]


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


def _once(run: Callable[[], object]) -> tuple[float, float]:
    """(seconds, CPU seconds over every process) of one cold run."""
    clear_caches()
    cpu = _cpu()
    start = time.perf_counter()
    run()
    return time.perf_counter() - start, _cpu() - cpu


def _command(args: list[str]) -> tuple[float, float]:
    """(seconds, CPU seconds of the child and its workers) of `cardkit ARGS` as a user runs it, a new process."""
    before = _children_cpu()
    start = time.perf_counter()
    subprocess.run(CARDKIT + args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start, _children_cpu() - before


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def _best(samples: list[tuple[float, float]]) -> tuple[float, float]:
    # The fastest run: other load only ever adds time.
    return min(samples)


def _median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in samples), statistics.median(c for _, c in samples)


def _db(decks: Path, regs: Path, out: Path) -> None:
    write_database([check_event([decks], registrations=regs)], out)


def _publish(decks: Path, regs: Path, out: Path) -> None:
    write_page(check_event([decks], registrations=regs), out)


def _register(decks: Path, regs: Path, out: Path) -> None:
    write_registry(build_registry(check_event([decks], registrations=regs)), out, force=True)


def timed(folders: dict[int, Path]) -> tuple[dict[int, dict[str, tuple[float, float]]], dict[str, tuple[float, float]]]:
    """In this process, best-of-ROUNDS (seconds, CPU seconds) of each step and of the floor for every event size,
    the sizes taking turns round by round; then each command as a new process on the biggest event, in turns,
    median of COMMAND_ROUNDS."""
    steps: dict[int, dict[str, Callable[[], object]]] = {}
    for n, folder in folders.items():
        decks, regs, out = folder / "decks", folder / "registrations.csv", folder / "out"
        out.mkdir()
        result = check_event([decks], registrations=regs)
        assert len(result.submissions) == n, "every registered file should be found, nobody missing"
        assert not any(p.code in ("NO_PLAYER", "MISSING_SUBMISSION", "PLAYER_MISMATCH") for s in result.submissions
                       for p in s.problems), "the deck column should give every file its player"
        warned = sum(any(p.code == "IDENTICAL_DECKS" for p in s.problems) for s in result.submissions)
        assert warned >= n // 10, "each deck of an identical group should be warned about"
        steps[n] = {"check": partial(check_event, [decks], registrations=regs),
                    "db": partial(_db, decks, regs, out / "event.db"),
                    "publish": partial(_publish, decks, regs, out / "event.html"),
                    "register": partial(_register, decks, regs, out / "registry.json"),
                    "floor": partial(read_and_split, decks)}
    samples: dict[int, dict[str, list[tuple[float, float]]]] = {n: {step: [] for step in s} for n, s in steps.items()}
    for _ in range(ROUNDS):
        for n, jobs in steps.items():
            for step, run in jobs.items():
                samples[n][step].append(_once(run))
    big = max(folders)
    decks, regs, out = folders[big] / "decks", str(folders[big] / "registrations.csv"), folders[big] / "out"
    commands = {
        "check": ["tournament", "check", str(decks), "-r", regs],
        "db": ["tournament", "db", str(decks), "-r", regs, "--out", str(out / "command.db")],
        "publish": ["tournament", "publish", str(decks), "-r", regs, "--out", str(out / "command.html"), "--force"],
    }
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    _command(commands["check"])  # a first run writes what later runs find in the cache folder, as a user's does
    for _ in range(COMMAND_ROUNDS):
        for name, args in commands.items():
            (out / "command.db").unlink(missing_ok=True)
            runs[name].append(_command(args))
    return ({n: {step: _best(ts) for step, ts in s.items()} for n, s in samples.items()},
            {name: _median(ts) for name, ts in runs.items()})


def main() -> None:
    # The machine's load decides the wall time as much as cardkit does: say what it was, and give CPU seconds too.
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start")
    with tempfile.TemporaryDirectory(prefix="cardkit-bench-") as tmp:
        folders = {n: Path(tmp) / str(n) for n in (N // 2, N)}
        for n, folder in folders.items():
            folder.mkdir()
            generate(folder, n)
        steps, commands = timed(folders)
    small, big = steps[N // 2], steps[N]
    for n, t in ((N // 2, small), (N, big)):
        print(f"{n:6d} submissions, {n}-row registration list with a deck column, in this process (best of {ROUNDS}):")
        for step in ("check", "db", "publish", "register"):
            wall, cpu = t[step]
            print(f"    {step:9} {n / wall:6.0f} decks/s ({wall:.2f} s, {cpu:.2f} CPU s; {wall / t['check'][0]:.2f} x check, "
                  f"{cpu / t['check'][1]:.2f} x its CPU; {wall / t['floor'][0]:.1f} x the floor, "
                  f"{cpu / t['floor'][1]:.1f} x its CPU)")
        print(f"    floor     {n / t['floor'][0]:6.0f} decks/s only reading and splitting the files "
              f"({t['floor'][0]:.3f} s, {t['floor'][1]:.3f} CPU s)")
    print(f"{N} submissions, each command as a new process, start-up and imports included (median of {COMMAND_ROUNDS}):")
    for name, (wall, cpu) in commands.items():
        print(f"    cardkit tournament {name:8} {wall:.2f} s, {cpu:.2f} CPU s; {wall / commands['check'][0]:.2f} x check, "
              f"{cpu / commands['check'][1]:.2f} x its CPU")
    print(f"check ratio {N} / {N // 2}: {big['check'][0] / small['check'][0]:.2f} in time, "
          f"{big['check'][1] / small['check'][1]:.2f} in CPU seconds  (linear: 2; goal <= 2.2; goal >= 4000 decks/s, "
          f"check <= 10 x the floor, db and publish <= {COMMAND_BUDGET:g} x check)")
    # For run_all.py: wall time, the goals' measure (what an organizer waits for), then CPU seconds, what a
    # loaded shared machine moves least: it shows the work, and the share of it the second core took.
    for i, unit in ((0, "wall"), (1, "CPU")):
        print(ratio_line(f"registrations check {N} vs {N // 2} ({unit})", big["check"][i], small["check"][i],
                         f"check of {N // 2}", goal=2.2))
        print(ratio_line(f"registrations check {N} ({unit})", big["check"][i], big["floor"][i], "read and split",
                         goal=10 if unit == "wall" else None))
        for step in ("db", "publish"):
            print(ratio_line(f"registrations {step} {N}, commands ({unit})", commands[step][i], commands["check"][i],
                             "check", goal=COMMAND_BUDGET if unit == "wall" else None))
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
