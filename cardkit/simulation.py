"""Simulation dispatch: one options type, one result protocol, one entry point for every game.

Each game implements `cardkit/games/<game>/simulate.py` with
`simulate(deck, options, progress) -> SimulationResult` and may declare
`ACCEPTS: frozenset[str]`, the game-specific option names it understands
(`"cities"`, `"gold"`, `"silver"`); any other game-specific option given is a
usage error raised here, so games never have to check foreign options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from cardkit.errors import BadArgument
from cardkit.visible import quoted

if TYPE_CHECKING:
    from cardkit.plotting import PlotTarget

R = TypeVar("R")

Progress = Callable[[int], None]
"""Called with the number of games finished since the previous call."""

SEATS: tuple[str, ...] = ("first", "second")
GAME_SPECIFIC: tuple[str, ...] = ("cities", "takes", "gold", "silver")
MAX_GAMES = 100_000_000
MAX_TURNS = 100
MAX_JOBS = 256
MAX_CRYSTALS = 1000
"""Most gold or silver a simulated table is given, as `squad best` allows: the budget tables stay small integers."""


@dataclass(frozen=True)
class SimulationOptions:
    """What to simulate; `cities` and `takes` are for the TCG only, `gold`/`silver` for squad games only."""

    games: int = 10_000
    turns: int = 6
    seed: int = 1
    seat: str = "first"
    cities: tuple[int, ...] | None = None
    takes: tuple[int, ...] | None = None
    gold: int | None = None
    silver: int | None = None
    format: str | None = None
    jobs: int | None = None  # processes, this one among them; None: every core. The result never depends on it.

    def given(self) -> dict[str, Any]:
        """The game-specific options that were set (not None)."""
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name in GAME_SPECIFIC and getattr(self, f.name) is not None}


class SimulationResult(Protocol):
    """A game's simulation result; it may also carry `warnings: tuple[str, ...]` to show on stderr."""

    def to_dict(self) -> dict[str, Any]: ...

    def render_text(self) -> str: ...

    def plot(self, path: PlotTarget) -> None:
        """Draw the result as PNG or SVG, chosen by `path`'s suffix."""
        ...


def parse_cities(text: str, parameter: str = "cities", example: str = "0,1,1,2,3,4") -> tuple[int, ...]:
    """`"0,1,1,2"` -> (0, 1, 1, 2); anything else is a BadArgument about `parameter`."""
    parts = [p.strip() for p in text.split(",")]
    # ASCII digits only: str.isdigit also accepts '²' (which int() refuses) and other scripts' digits
    if not text.strip() or any(not (p.isascii() and p.isdigit()) for p in parts):
        raise BadArgument(f"must be a comma list of non-negative whole numbers, like {example}; got {quoted(text)}", parameter)
    return tuple(int(p) for p in parts)


def parse_takes(text: str) -> tuple[int, ...]:
    """`"2,4"` -> (2, 4): the player's own turns on which it takes a city; anything else is a BadArgument."""
    return parse_cities(text, "takes", "2,4")


def validate_options(options: SimulationOptions, accepts: frozenset[str] = frozenset()) -> None:
    """Raise BadArgument for the first option a game cannot use, naming it as `parameter`."""
    if not 1 <= options.games <= MAX_GAMES:
        raise BadArgument(f"must be between 1 and {MAX_GAMES:,}; got {options.games}", "games")
    if not 1 <= options.turns <= MAX_TURNS:
        raise BadArgument(f"must be between 1 and {MAX_TURNS}; got {options.turns}", "turns")
    if options.seed < 0:
        raise BadArgument(f"must be a non-negative whole number; got {options.seed}", "seed")
    if options.jobs is not None and not 1 <= options.jobs <= MAX_JOBS:
        raise BadArgument(f"must be between 1 and {MAX_JOBS}; got {options.jobs}", "jobs")
    if options.seat not in SEATS:
        raise BadArgument(f"must be 'first' or 'second'; got {quoted(options.seat)}", "seat")
    for name in options.given():
        if name not in accepts:
            raise BadArgument("does not apply to this game", name)
    if options.cities is not None:
        if not options.cities or any(c < 0 for c in options.cities):
            raise BadArgument("must list non-negative numbers of revealed cities", "cities")
        if len(options.cities) > options.turns:
            raise BadArgument(
                f"gives {len(options.cities)} values for {options.turns} turns; give one per turn or fewer", "cities")
    for name in ("gold", "silver"):
        value = getattr(options, name)
        if value is not None and not 0 <= value <= MAX_CRYSTALS:
            raise BadArgument(f"must be between 0 and {MAX_CRYSTALS:,}; got {value}", name)


def simulate_deck(deck: Any, options: SimulationOptions, progress: Progress | None = None) -> SimulationResult:
    """Validate `options` for `deck.game` and run that game's simulator."""
    from cardkit.games.registry import game_spec

    spec = game_spec(deck.game)
    if spec.simulator is None:
        raise BadArgument(f"no simulator for {deck.game} yet")
    module = spec.module("simulator")
    validate_options(options, getattr(module, "ACCEPTS", frozenset()))
    return module.simulate(deck, options, progress)


def run_blocks(play: Callable[[tuple[int, Any]], R], games: int, block: int, seed: int,
               jobs: int | None = None, progress: Progress | None = None) -> list[R]:
    """`play((n, stream))` for each block of `n` games (all `block` long but the last), in order.

    Each block draws from its own random stream, `SeedSequence(seed).spawn(...)[i]` for block i:
    the blocks and their streams depend only on `games`, `block` and `seed`, never on how many
    processes (`jobs`, default every core, this one among them: it plays blocks no worker has taken
    rather than wait, which spares a fork) play them, so a seed gives one result whatever `--jobs` is.
    `play` must be picklable (a module-level function or a `partial` of one).
    """
    import numpy as np

    from cardkit.parallel import ordered_map

    sizes = [min(block, games - start) for start in range(0, games, block)]
    streams = np.random.SeedSequence(seed).spawn(len(sizes))
    reported = 0

    def advance(done: int, total: int) -> None:
        nonlocal reported
        if progress is not None:
            progress(sum(sizes[reported:done]))
        reported = done

    return ordered_map(play, list(zip(sizes, streams)), advance, jobs, here_too=True)


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a proportion."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * ((p * (1 - p) / trials + z * z / (4 * trials * trials)) ** 0.5) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class SimulationRun:
    """A simulation of a deck file, with the warnings worth showing (e.g. an illegal deck)."""

    result: SimulationResult
    warnings: tuple[str, ...] = ()
    # What every game's JSON opens with, whichever simulator ran: game, format, path, seat, games.
    head: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """The result's JSON, led by the keys every game's carries (one vocabulary for scripts)."""
        return {**self.head, **self.result.to_dict()}


def simulate_file(path: str | Path, options: SimulationOptions, progress: Progress | None = None) -> SimulationRun:
    """Read the deck at `path` and simulate it; an illegal deck is simulated if every card line resolved."""
    from cardkit.decks import read_deck, validate_deck

    validate_options(options, frozenset(GAME_SPECIFIC))  # the game-independent checks, before reading anything
    deck = read_deck(path, options.format)
    unresolved = [e for e in deck.entries if e.section == "main" and e.card is None]
    if unresolved:
        shown = ", ".join(f"{quoted(e.text)}" + (f" (line {e.line})" if e.line else "") for e in unresolved[:5])
        raise BadArgument(f"{deck.path}: cannot simulate, {len(unresolved)} card line(s) did not resolve: {shown}")
    errors = [p for p in validate_deck(deck) if p.is_error]
    warnings: tuple[str, ...] = ()
    if errors:
        codes = ", ".join(dict.fromkeys(p.code for p in errors))
        warnings = (f"{deck.path} is not legal in {deck.format} ({codes}); simulating it anyway",)
    result = simulate_deck(deck, options, progress)
    head = {"game": deck.game, "format": deck.format, "path": deck.path, "seat": options.seat, "games": options.games}
    return SimulationRun(result, warnings + tuple(getattr(result, "warnings", ())), head)
