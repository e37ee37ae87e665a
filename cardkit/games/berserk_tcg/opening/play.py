"""Simulated openings, played one game at a time with the engine's own objects.

This is the reference the vectorised simulator (`simulate.py`) is checked
against. Policies, shared by both:
- opening: open the openable card first by `cards.open_key` (highest Level,
  then largest total cost, then lowest id), paying with `can_open`'s payment;
- end of turn: discard down to 7 by a `cards.DiscardPolicy` (by default
  `LEAST_USEFUL`, least useful first by `cards.discard_key`).
A player decks out when its library is empty at a draw: it loses, and opens
nothing on that turn or later. On each turn in `takes` the player's attack
takes a city and it draws 2 cards, after the opening phase and before the
end-of-turn discard (the attack is the main phase's last step).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import numpy as np

from cardkit.errors import BadArgument
from cardkit.games.berserk_tcg.opening.actions import Discard, Draw, Open, Pass, apply
from cardkit.games.berserk_tcg.opening.cards import LEAST_USEFUL, CardId, DiscardPolicy, TcgCard, open_key
from cardkit.games.berserk_tcg.opening.state import HAND_LIMIT, PlayerState, can_open

START_HAND = 7
MAX_CITIES = 5


def max_revealed(turn: int, seat: str) -> int:
    """The most cities that can be revealed at the player's `turn` (1-based).

    "At first, none is visible", a city is revealed only by an attack, and "You
    can only attack once each turn": before the first seat's turn t, t - 1 turns
    of each player have passed; before the second seat's, t of the first seat's
    and t - 1 of its own.
    """
    return min(MAX_CITIES, 2 * (turn - 1) if seat == "first" else 2 * turn - 1)


def cities_schedule(turns: int, cities: Sequence[int] | None = None, seat: str = "first") -> tuple[int, ...]:
    """Revealed cities on each of the player's turns: `min(turn - 1, 5)`, or `cities` with its last value repeated.

    Raises BadArgument for a count above 5 (the game has five cities), one that
    falls (a revealed city stays revealed until the game ends), or one more than
    the attacks so far could have revealed (`max_revealed`).
    """
    if not cities:
        return tuple(min(t - 1, MAX_CITIES) for t in range(1, turns + 1))
    given = ",".join(map(str, cities))
    if any(not 0 <= c <= MAX_CITIES for c in cities):
        raise BadArgument(f"values must be 0 to {MAX_CITIES} (the game has {MAX_CITIES} cities); got {given}", "cities")
    if any(b < a for a, b in pairwise(cities)):
        raise BadArgument(f"must not fall: a revealed city stays revealed; got {given}", "cities")
    schedule = tuple(cities[min(t, len(cities) - 1)] for t in range(turns))
    for turn, count in enumerate(schedule, start=1):
        if count > max_revealed(turn, seat):
            raise BadArgument(
                f"{given}: at most {max_revealed(turn, seat)} cities can be revealed on the {seat} player's "
                f"turn {turn} (cities are revealed only by attacks, one per player per turn); got {count}", "cities")
    return schedule


def takes_schedule(turns: int, takes: Sequence[int] | None, schedule: Sequence[int]) -> tuple[int, ...]:
    """Cities the player has taken before each turn's opening phase, for a city taken on each turn in `takes`.

    "Each time a player takes a city, he has to draw 2 cards". A city is revealed
    by the attack that takes it and a player attacks once a turn, so takes are
    distinct turns from 1 to `turns`, and on the turn after each one at least as
    many cities are revealed as the player has taken (the schedule's last value
    repeats past its end). Anything else is a BadArgument.
    """
    takes = tuple(takes or ())
    given = ",".join(map(str, takes))
    if any(not 1 <= t <= turns for t in takes):
        raise BadArgument(f"must name the player's own turns 1 to {turns}; got {given}", "takes")
    if len(set(takes)) != len(takes):
        raise BadArgument(f"names a turn twice, and a player attacks once a turn; got {given}", "takes")
    for turn in sorted(takes):
        taken = sum(1 for t in takes if t <= turn)
        revealed = schedule[min(turn, len(schedule) - 1)]
        if taken > revealed:
            raise TakesOutrunCities(f"{given}: {taken} cities taken by the end of turn {turn}, but only {revealed} revealed "
                                    f"on turn {turn + 1}; the attack that takes a city reveals it", taken)
    return tuple(sum(1 for t in takes if t < turn) for turn in range(1, turns + 1))


def draws_on_turn(turn: int, seat: str) -> bool:
    """The first player skips the draw of its first turn."""
    return not (turn == 1 and seat == "first")


def expand(counts: Mapping[CardId, int]) -> list[CardId]:
    """The deck as a list of card ids, one per copy, in a fixed order (sorted ids)."""
    return [cid for cid in sorted(counts) for _ in range(counts[cid])]


def shuffles(rng: np.random.Generator, games: int, size: int) -> np.ndarray:
    """One random order of `size` deck positions per game, as a (games, size) array."""
    small = size <= np.iinfo(np.int16).max  # int16 keeps the array small; larger decks would wrap around
    return np.argsort(rng.random((games, size)), axis=1, kind="stable").astype(np.int16 if small else np.int32)


def new_game(cards: Mapping[CardId, TcgCard], order: Sequence[CardId]) -> PlayerState:
    """A shuffled library `order` (top first) after drawing the starting hand."""
    return PlayerState(cards=cards, library=tuple(order[START_HAND:]), hand=tuple(order[:START_HAND]))


def choose_open(state: PlayerState) -> Open | Pass:
    """The opening policy: the best openable card by `open_key`, with the preferred payment."""
    best: tuple[TcgCard, tuple[CardId, ...]] | None = None
    for card_id in dict.fromkeys(state.hand):
        check = can_open(card_id, state)
        card = state.cards[card_id]
        if check.ok and (best is None or open_key(card) < open_key(best[0])):
            best = (card, check.payment or ())
    return Open(best[0].id, best[1]) if best else Pass()


def choose_discard(state: PlayerState, policy: DiscardPolicy = LEAST_USEFUL) -> Discard | Pass:
    """The end-of-turn policy: discard down to the hand limit, the cards `policy` puts first."""
    excess = len(state.hand) - HAND_LIMIT
    if excess <= 0:
        return Pass()
    dead = state.unique_in_play
    cards = sorted((state.cards[c] for c in state.hand), key=lambda c: policy.key(c, c.unique and c.name in dead))
    return Discard(tuple(c.id for c in cards[:excess]))


@dataclass
class GameRecord:
    """What one game showed: at each opening phase the openable cards (one entry per copy) and the hand
    size, and any deck-out (its turns count an empty hand)."""

    openable: list[list[CardId]] = field(default_factory=list)
    hand: list[int] = field(default_factory=list)
    decked_on: int | None = None


def play_reference(cards: Mapping[CardId, TcgCard], order: Sequence[CardId], schedule: Sequence[int],
                   seat: str = "first", takes: Sequence[int] = (), policy: DiscardPolicy = LEAST_USEFUL) -> GameRecord:
    """Play the player's first `len(schedule)` turns from library `order`, one action at a time.

    `takes` are the turns on which the player's attack takes a city (`take_city`),
    after the opening phase and before the end-of-turn discard.
    """
    record = GameRecord()
    state = new_game(cards, order)
    for turn, cities in enumerate(schedule, start=1):
        state = state.begin_turn(cities, draw=draws_on_turn(turn, seat))
        if state.phase == "draw":
            state = apply(state, Draw())
            if state.decked:
                record.decked_on = turn
                record.openable += [[] for _ in range(len(schedule) - turn + 1)]
                record.hand += [0] * (len(schedule) - turn + 1)
                return record
        record.openable.append([c for c in state.hand if can_open(c, state).ok])
        record.hand.append(len(state.hand))
        state = apply(state, choose_open(state))
        if turn in takes:
            state = state.take_city()
        state = apply(state, choose_discard(state, policy))
    return record


class TakesOutrunCities(BadArgument):
    """Cities taken before the schedule of revealed cities has revealed them: it must reach `cities_needed`."""

    def __init__(self, why: str, cities_needed: int) -> None:
        self.why = why
        self.cities_needed = cities_needed
        super().__init__(f"{why}, so the revealed cities must reach at least {cities_needed}", "takes")
