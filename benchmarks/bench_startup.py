"""Wall time of short cardkit commands, each beside its baseline measured in the same run.

    python benchmarks/bench_startup.py [--repeat N]

Every case is a new process of this interpreter (cardkit through its console script beside it,
else `python -m cardkit`), run N times; the rounds are interleaved (every case once, then again)
so that the machine's load falls on all cases alike. Figures are median wall times, the budgets'
measure on an idle machine; the median CPU time (user + system) of each process is listed beside
them, as it moves less with the load of a shared machine.

The budgets, each against its own baseline:
- `cardkit validate DECK`: at most 6x `python -c pass`;
- `cardkit battle|tcg|fleet moves STATE` and `... apply STATE ACTION... --out X`: at most 5x a
  Python process that reads the same state file with `json` and writes it back as JSON.
`--help`, `--version` and the library's own `validate_files` are listed against `python -c pass`
for information. One untimed round first writes the bytecode caches, as installing a package does,
even where PYTHONDONTWRITEBYTECODE is set.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _engine_inputs import ACTIONS, JSON_FLOOR, SETUP  # noqa: E402
from _timing import interleaved_medians, process_cost, ratio_line  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DECK = "decks/berserk-tcg/white-hawks.deck"
# The console script beside this interpreter, as a user runs it; `python -m cardkit` where there is none.
SCRIPT = Path(sys.executable).with_name("cardkit")
CARDKIT = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "cardkit"]
PASS = [sys.executable, "-c", "pass"]

VALIDATE_GOAL = 6.0
ENGINE_GOAL = 5.0



CPU: dict[str, list[float]] = {}


def run(args: list[str], env: dict[str, str], name: str = "") -> None:
    """Run `args` to the end; with `name`, note the CPU seconds (user + system) the process took under it."""
    cost = process_cost(args, ROOT, env)
    if name:
        CPU.setdefault(name, []).append(cost.cpu)


def cases(folder: Path) -> dict[str, list[str]]:
    """Every timed command line by name; the engines' states are made in `folder` first."""
    found: dict[str, list[str]] = {
        "python -c pass": PASS,
        "cardkit validate DECK": [*CARDKIT, "validate", DECK],
        "library: validate_files([DECK])": [sys.executable, "-c",
                                            f"from cardkit.decks.report import validate_files; validate_files([{DECK!r}])"],
        "cardkit --help": [*CARDKIT, "--help"],
        "cardkit --version": [*CARDKIT, "--version"],
    }
    for engine, setup in SETUP.items():
        state = folder / f"{engine}.json"
        run([*CARDKIT, *setup, "--out", str(state)], dict(os.environ))
        found[f"{engine}: json load + dump of the state"] = [*JSON_FLOOR, str(state), str(folder / "floor.json")]
        found[f"cardkit {engine} moves STATE"] = [*CARDKIT, engine, "moves", str(state)]
        found[f"cardkit {engine} apply STATE ({len(ACTIONS[engine])} actions) --out X"] = [
            *CARDKIT, engine, "apply", str(state), *ACTIONS[engine], "--out", str(folder / f"{engine}-after.json")]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=11)
    repeat = parser.parse_args().repeat
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with tempfile.TemporaryDirectory() as tmp:
        commands = cases(Path(tmp))
        for args in commands.values():
            run(args, env)
        medians = interleaved_medians({name: partial(run, args, env, name) for name, args in commands.items()}, repeat)
    cpu = {name: statistics.median(seconds) for name, seconds in CPU.items()}
    base = medians["python -c pass"]
    print(f"start-up, medians of {repeat} interleaved runs each ({' '.join(CARDKIT)}):")
    print(f"  {'':52} {'wall':>10} {'CPU':>10}")
    for name, seconds in medians.items():
        print(f"  {name:52} {seconds * 1000:7.1f} ms {cpu[name] * 1000:7.1f} ms")
    print(ratio_line("cardkit validate DECK", medians["cardkit validate DECK"], base, "python -c pass", VALIDATE_GOAL))
    for name in ("library: validate_files([DECK])", "cardkit --help", "cardkit --version"):
        print(ratio_line(name, medians[name], base, "python -c pass"))
    for engine in SETUP:
        floor = f"{engine}: json load + dump of the state"
        for name in medians:
            if name.startswith(f"cardkit {engine} "):
                print(ratio_line(name, medians[name], medians[floor], "json load + dump of its state", ENGINE_GOAL))
    for name in medians:
        if name.startswith("cardkit ") and " STATE" in name:
            floor = f"{name.split()[1]}: json load + dump of the state"
            print(ratio_line(f"{name}, CPU time", cpu[name], cpu[floor], "the floor's CPU time"))
    print(ratio_line("cardkit validate DECK, CPU time", cpu["cardkit validate DECK"], cpu["python -c pass"],
                     "python -c pass's CPU time"))


if __name__ == "__main__":
    main()
