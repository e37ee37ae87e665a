"""Simulated openings for many games at once: numpy arrays across games, one row per game.

Plays exactly the policies of `opening.play_reference` (tests check the two
agree game for game on the same shuffles). A hand is a (card types, games)
count matrix; card types are ordered by the opening policy, so the first
openable type is the card opened. Choices of one card among a game's types
(which to open, which to pay with) are the lowest set bit of a bit mask per
game, one bit per type in the policy's order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

import numpy as np

from cardkit.errors import BadArgument
from cardkit.games.berserk_tcg import COLOURS
from cardkit.games.berserk_tcg.opening.cards import (
    LEAST_USEFUL,
    CardId,
    DiscardPolicy,
    TcgCard,
    discard_key,
    load_cards,
    open_key,
)
from cardkit.games.berserk_tcg.opening.exact import p_any_open_exact
from cardkit.games.berserk_tcg.opening.play import (
    START_HAND,
    cities_schedule,
    draws_on_turn,
    expand,
    play_reference,
    shuffles,
    takes_schedule,
)
from cardkit.games.berserk_tcg.opening.result import Tally, TcgSimulation
from cardkit.games.berserk_tcg.opening.state import CITY_DRAW, HAND_LIMIT
from cardkit.simulation import Progress, SimulationOptions, run_blocks, validate_options

ACCEPTS = frozenset({"cities", "takes"})
CHUNK = 25_000
CHUNK_CELLS = 1_250_000  # games x deck size per chunk: a 10,000-card deck must not shuffle 25,000 games at once
ANY_COLOUR = 4


@dataclass(frozen=True)
class DeckTables:
    """Per-card-type vectors, built once per deck; type k is the k-th card by the opening policy."""

    ids: tuple[CardId, ...]
    position_type: np.ndarray  # type of each copy in `expand(deck)` order
    colour: np.ndarray         # (K,) colour index
    level: np.ndarray          # (K,)
    unique_group: np.ndarray   # (K,) index of the Unique name, -1 if not Unique
    pay_rank: np.ndarray       # (K,) payment order (`cards.discard_key`), 0 = paid first, when nothing is dead
    discard_rank: np.ndarray   # (K,) rank by the discard policy, 0 = first, when the card is not dead
    dead_rank: np.ndarray      # (K,) the same ranking, for a Unique card whose name is in play
    signature: np.ndarray      # (K,) index into the sig_* arrays (types with equal colour and cost)
    sig_colour: np.ndarray     # (S, 4) one-hot colour of the card being opened
    sig_cost: np.ndarray       # (S, 4) coloured balls
    sig_colourless: np.ndarray  # (S,)
    balls: np.ndarray          # (K, B) colour index per ball, ANY_COLOUR for colourless, -1 padding


def build_tables(deck: Mapping[CardId, int], cards: Mapping[CardId, TcgCard],
                 policy: DiscardPolicy = LEAST_USEFUL) -> DeckTables:
    """Vectors of colour, Level, cost, Unique name and policy ranks for the deck's card types."""
    types = sorted(deck, key=lambda c: open_key(cards[c]))
    index = {cid: k for k, cid in enumerate(types)}
    by_discard = sorted(types, key=lambda c: discard_key(cards[c]))
    # one ranking of every (type, dead) pair, so that any policy key maps to integer priorities
    ranked = sorted(((c, dead) for c in types for dead in (False, True)), key=lambda cd: policy.key(cards[cd[0]], cd[1]))
    rank = {cd: r for r, cd in enumerate(ranked)}
    # only a card that stays in play makes its name's other copies dead (no Normal effect is Unique today)
    names = sorted({cards[c].name for c in types if cards[c].unique and cards[c].stays_in_play})
    colours = _colours(types, cards)
    sigs: dict[tuple[int, tuple[int, ...], int], int] = {}
    signature, ball_rows = [], []
    for cid, colour in zip(types, colours):
        card = cards[cid]
        key = (colour, card.cost.coloured, card.cost.colourless)
        signature.append(sigs.setdefault(key, len(sigs)))
        ball_rows.append([i for i, n in enumerate(card.cost.coloured) for _ in range(n)] + [ANY_COLOUR] * card.cost.colourless)
    width = max((len(r) for r in ball_rows), default=0)
    sig_keys = list(sigs)
    return DeckTables(
        ids=tuple(types),
        position_type=np.array([index[c] for c in expand(deck)], dtype=np.intp),
        colour=np.array(colours, dtype=np.int8),
        level=np.array([cards[c].level for c in types], dtype=np.int16),
        unique_group=np.array([names.index(cards[c].name) if cards[c].name in names and cards[c].unique else -1
                               for c in types], dtype=np.int16),
        pay_rank=np.array([by_discard.index(c) for c in types], dtype=np.int32),
        discard_rank=np.array([rank[(c, False)] for c in types], dtype=np.int32),
        dead_rank=np.array([rank[(c, True)] for c in types], dtype=np.int32),
        signature=np.array(signature, dtype=np.intp),
        sig_colour=np.array([[int(k[0] == i) for i in range(len(COLOURS))] for k in sig_keys], dtype=np.int16).reshape(-1, 4),
        sig_cost=np.array([k[1] for k in sig_keys], dtype=np.int16).reshape(-1, 4),
        sig_colourless=np.array([k[2] for k in sig_keys], dtype=np.int16),
        balls=np.array([r + [-1] * (width - len(r)) for r in ball_rows], dtype=np.int8).reshape(len(types), width),
    )


def _colours(ids: Iterable[CardId], cards: Mapping[CardId, TcgCard]) -> list[int]:
    """The colour index of each card; BadArgument naming the cards without one (only cities lack a colour)."""
    colours: list[int] = []
    missing: list[CardId] = []
    for cid in ids:
        colour = cards[cid].colour_index
        if colour is None:
            missing.append(cid)
        else:
            colours.append(colour)
    if missing:
        raise BadArgument(f"{', '.join(missing)}: no colour, and only cities lack one (they are never drawn)")
    return colours


def _word(bits: int) -> type[np.unsignedinteger[Any]]:
    """The smallest unsigned integer holding `bits` bits, 64-bit words past that: less memory to sweep."""
    return np.uint8 if bits <= 8 else np.uint16 if bits <= 16 else np.uint32 if bits <= 32 else np.uint64


def _masks(rows: np.ndarray, word: type[np.unsignedinteger[Any]] = np.uint64,
           order: Sequence[int] | None = None) -> np.ndarray:
    """Boolean rows (n, games) as bit masks (words, games) of `word` integers: bit j of word w is row w * width + j
    (row `order[w * width + j]`, if given)."""
    width = np.dtype(word).itemsize * 8
    masks = np.zeros((-(-len(rows) // width), rows.shape[1]), dtype=word)
    for j, k in enumerate(range(len(rows)) if order is None else order):
        masks[j // width] |= np.left_shift(rows[k], j % width, dtype=word)
    return masks


@cache
def _lowest16() -> np.ndarray:
    """The lowest set bit of every 16-bit mask, -1 for none: one look-up for the masks of up to 16 types."""
    masks = np.arange(1 << 16, dtype=np.int64)
    return (np.frexp((masks & -masks).astype(np.float64))[1] - 1).astype(np.int8)


def _lowest(masks: np.ndarray) -> np.ndarray:
    """The index of each game's lowest set bit in `_masks` layout, -1 where none is set."""
    width = masks.dtype.itemsize * 8
    if width <= 16:
        return np.take(_lowest16(), masks[0]).astype(np.intp)
    found: np.ndarray | None = None
    for w, word in enumerate(masks):
        # the lowest set bit alone is a power of two, which a float holds exactly and frexp reads
        # the exponent of (one more than the bit; 0 for no bit)
        exponent = np.frexp((word & (~word + masks.dtype.type(1))).astype(np.float64))[1]
        if found is None:
            found = exponent - 1
        else:
            np.copyto(found, exponent + (width * w - 1), where=(found < 0) & (exponent > 0))
    assert found is not None
    return found


def _play_chunk(t: DeckTables, drawn: np.ndarray, size: int, schedule: Sequence[int], seat: str, takes: Sequence[int],
                tally: Tally) -> None:
    """Play `drawn.shape[1]` games of a `size`-card deck whose top cards (as card types) are `drawn`, one row per
    draw (draws, games), adding to `tally`."""
    games = drawn.shape[1]
    kinds = len(t.ids)
    # Everything is held one row per type, (types, games), the hand too: numpy's work over the games of a
    # type then runs along contiguous rows. Cells are addressed in the hand's flat view, much faster than
    # fancy indexing.
    cells = drawn  # (draws, games): the cell each draw adds to, made in place
    cells *= games
    cells += np.arange(games)
    flat = np.zeros(kinds * games, dtype=np.int16)
    hand = flat.reshape(kinds, games)
    top = min(START_HAND, size)
    for drawing in cells[:top]:
        flat[drawing] += 1
    dead = np.zeros((kinds, games), dtype=bool)
    alive = np.ones((kinds, games), dtype=bool)  # ~dead, kept beside it
    ever = np.zeros((kinds, games), dtype=bool)
    sig_need = t.sig_colour + t.sig_cost  # (S, 4) balls of each colour a signature's opening needs, its own card included
    need_total = 1 + t.sig_cost.sum(axis=1) + t.sig_colourless
    # the hand-limit policy as one ranking of (type, dead) pairs: rank r is type by_rank[r], dead or not as dead_at[r]
    by_rank = np.empty(2 * kinds, dtype=np.intp)
    dead_at = np.empty(2 * kinds, dtype=bool)
    by_rank[t.discard_rank], dead_at[t.discard_rank] = np.arange(kinds), False
    by_rank[t.dead_rank], dead_at[t.dead_rank] = np.arange(kinds), True
    # Payment takes each ball's card in the engine's fixed order (dead Unique cards first, whatever the
    # hand-limit policy): types as bits in that order, so a game's first fitting card is its lowest set bit.
    pay_order = np.argsort(t.pay_rank, kind="stable")  # bit j is type pay_order[j]
    pay_types = pay_order.tolist()
    # (words, ball colour): the cards that may pay a ball of each colour, then of ANY_COLOUR
    word = _word(kinds)
    fits_ball = _masks(np.array([t.colour[pay_order] == c for c in range(len(COLOURS))] + [[True] * kinds]).T, word)
    groups = int(t.unique_group.max(initial=-1)) + 1
    group_bits = _masks(t.unique_group[pay_order][:, None] == np.arange(groups)[None, :], word)  # (words, group)
    group_types = [np.flatnonzero(t.unique_group == g).tolist() for g in range(groups)]
    dead_bits = np.zeros((len(fits_ball), games), dtype=word)
    level = t.level.tolist()
    signature = t.signature.tolist()
    ball_columns = np.ascontiguousarray(t.balls.T)  # (ball, type)
    colour = t.colour.tolist()
    openable = np.zeros((kinds, games), dtype=bool)
    scratch = np.empty((kinds, games), dtype=hand.dtype)
    for turn, cities in enumerate(schedule, start=1):
        if draws_on_turn(turn, seat):
            if top >= size:  # every game draws the same number of cards, so all deck out together
                tally.decked += games
                tally.ever[turn - 1:] += ever.sum(axis=1)
                return
            flat[cells[top]] += 1
            top += 1
        # cards of each colour, and in all, per game, by adding rows of types
        colour_counts = np.zeros((len(COLOURS), games), dtype=np.int16)
        for k, c in enumerate(colour):
            colour_counts[c] += hand[k]
        total = colour_counts.sum(axis=0, dtype=np.int16)
        tally.hand[turn - 1] += int(total.sum())
        # one signature and one colour at a time, over contiguous rows of games
        payable_by_sig = np.empty((len(sig_need), games), dtype=bool)
        for sig in range(len(sig_need)):
            ok = np.greater_equal(total, need_total[sig], out=payable_by_sig[sig])
            for c in np.flatnonzero(sig_need[sig]).tolist():
                ok &= colour_counts[c] >= sig_need[sig, c]
        held = hand > 0
        for k in range(kinds):
            if level[k] <= cities:
                np.logical_and(held[k], alive[k], out=openable[k])
                openable[k] &= payable_by_sig[signature[k]]
            else:  # above the revealed cities' Level
                openable[k] = False
        # the first openable type (types are in the opening policy's order) is the card opened
        first = _lowest(_masks(openable, word))
        opener = np.flatnonzero(first >= 0)
        tally.any_open[turn - 1] += len(opener)
        # int32 holds the sum: a block's hands hold at most games x deck size cards (`CHUNK_CELLS`)
        tally.openable[turn - 1] += int(np.multiply(hand, openable, out=scratch).sum(dtype=np.int32))
        ever |= openable
        tally.ever[turn - 1] += np.count_nonzero(ever, axis=1)

        chosen = first[opener]
        spot = chosen * games + opener
        flat[spot] -= 1
        total[opener] -= 1  # kept up to date rather than summed again for the hand limit
        # the cards each opener still holds, as bits in payment order
        holds = np.take(_masks(np.greater(hand, 0, out=held), word, pay_types), opener, axis=1)
        group = t.unique_group[chosen]
        named = group >= 0
        if named.any():
            died, died_group = opener[named], group[named]
            dead_bits[:, died] |= np.take(group_bits, died_group, axis=1)
            for g, types in enumerate(group_types):
                these = died[died_group == g]
                for k in types:
                    dead[k, these] = True
                    alive[k, these] = False
        dead_held = np.take(dead_bits, opener, axis=1)
        any_dead = bool(dead_held.any())
        # a ball of colour c is paid by a held card of that colour (any colour for a colourless ball)
        for b in range(t.balls.shape[1]):
            ball = np.take(ball_columns[b], chosen)
            owes = np.flatnonzero(ball >= 0)
            if owes.size == 0:
                continue
            fitting = np.take(holds, owes, axis=1) & np.take(fits_ball, ball[owes], axis=1)
            if any_dead:  # dead Unique cards are paid first
                first_dead = fitting & np.take(dead_held, owes, axis=1)
                fitting = np.where((first_dead != 0).any(axis=0), first_dead, fitting)
            bit = _lowest(fitting)
            paying = opener[owes]
            spot = pay_order[bit] * games + paying
            flat[spot] -= 1
            total[paying] -= 1
            _clear(holds, bit, flat[spot] == 0, owes)
        if turn in takes:  # the attack took a city: draw 2, or what the library still has
            for _ in range(min(CITY_DRAW, size - top)):
                flat[cells[top]] += 1
                top += 1
                total += 1
        over = np.flatnonzero(total > HAND_LIMIT)
        if over.size:  # the excess goes in the policy's order: the first ranks of (type, dead) pairs held
            held = np.take(hand, over, axis=1).T
            ranked = np.take(held, by_rank, axis=1) * (np.take(dead, by_rank, axis=0)[:, over].T == dead_at)
            before = ranked.cumsum(axis=1) - ranked
            drop = np.clip((total[over] - HAND_LIMIT)[:, None] - before, 0, ranked).astype(hand.dtype)
            hand[:, over] = (held - np.take(drop, t.discard_rank, axis=1) - np.take(drop, t.dead_rank, axis=1)).T


def _clear(masks: np.ndarray, bit: np.ndarray, where: np.ndarray, games: np.ndarray | None = None) -> None:
    """Clear bit `bit[i]`, which is set, of game i's mask (of game `games[i]`'s, if given) where `where[i]`."""
    at = np.flatnonzero(where)
    if at.size:
        bit = bit[at]
        at = at if games is None else games[at]
        width = masks.dtype.itemsize * 8
        flips = np.left_shift(masks.dtype.type(1), (bit % width).astype(masks.dtype))  # a set bit flips to clear
        if len(masks) == 1:
            masks[0, at] ^= flips
        else:
            masks[bit // width, at] ^= flips


def _exact(deck: Mapping[CardId, int], cards: Mapping[CardId, TcgCard], schedule: Sequence[int], seat: str,
           takes: Sequence[int] = ()) -> list[float | None]:
    """Exact p_any_open for each turn whose hand is still the untouched top of the library.

    That holds until a card may have been opened (the previous turn's exact
    value is above zero) or a hand over the limit was discarded (a city's 2
    cards count before the discard).
    """
    values: list[float | None] = []
    hand, exact = START_HAND, True
    for turn, cities in enumerate(schedule, start=1):
        hand += draws_on_turn(turn, seat)
        value = p_any_open_exact(deck, cards, hand, cities) if exact else None
        values.append(value)
        hand += CITY_DRAW * (turn in takes)
        exact = value == 0.0 and hand <= HAND_LIMIT
    return values


def deck_counts(deck: Any) -> dict[CardId, int]:
    """The main deck as counts: a `Deck` or a plain {card id: count} mapping."""
    counts = deck.main if hasattr(deck, "main") else dict(deck)
    return {c: int(n) for c, n in counts.items() if n > 0}


@dataclass(frozen=True)
class Prepared:
    """A deck and options checked and turned into what both simulators play."""

    counts: dict[CardId, int]
    cards: Mapping[CardId, TcgCard]
    warnings: tuple[str, ...]
    schedule: tuple[int, ...]   # revealed cities per turn
    takes: tuple[int, ...]      # turns on which the player takes a city
    taken: tuple[int, ...]      # cities taken before each turn's opening phase


def prepare(deck: Any, options: SimulationOptions, cards: Mapping[CardId, TcgCard] | None = None) -> Prepared:
    """The deck's counts without cities, the card table, warnings about what was set aside, and the schedules.

    Options are checked here too, so that calling the library directly (no CLI)
    gets the same BadArgument for, say, zero games or an impossible schedule.
    """
    validate_options(options, ACCEPTS)
    schedule = cities_schedule(options.turns, options.cities, options.seat)
    takes = tuple(sorted(options.takes or ()))
    taken = takes_schedule(options.turns, takes, schedule)
    cards = cards if cards is not None else load_cards()
    counts = deck_counts(deck)
    if not counts:
        raise BadArgument("the deck has no cards to simulate")
    unknown = sorted(c for c in counts if c not in cards)
    if unknown:
        raise BadArgument(f"not Berserk TCG cards: {', '.join(unknown)}")
    cities = sorted(c for c in counts if cards[c].is_city)
    for c in cities:  # cities lie between the players from the start; they are never drawn
        del counts[c]
    if not counts:
        raise BadArgument("the deck has no cards to simulate besides cities")
    _colours(counts, cards)  # before any game, so that the reference simulator refuses such a card too
    return Prepared(counts, cards, tuple(f"cities are never in a deck: set aside {c}" for c in cities), schedule,
                    takes, taken)


def simulate(deck: Any, options: SimulationOptions, progress: Progress | None = None,
             cards: Mapping[CardId, TcgCard] | None = None, policy: DiscardPolicy = LEAST_USEFUL) -> TcgSimulation:
    """Simulate `options.games` openings of `deck` (vectorised); see the module docs for the policies.

    `policy` picks the cards discarded down to the hand limit (a choice the rules leave to the player).
    """
    p = prepare(deck, options, cards)
    tables = build_tables(p.counts, p.cards, policy)
    tally = Tally.empty(len(p.schedule), tables.ids)
    size = len(tables.position_type)
    needed = (START_HAND + sum(draws_on_turn(turn, options.seat) for turn in range(1, len(p.schedule) + 1))
              + CITY_DRAW * len(p.takes))
    play = partial(_play_block, tables, size, needed, p.schedule, options.seat, p.takes)
    for block in run_blocks(play, options.games, block_games(size), options.seed, options.jobs, progress):
        tally.add(block)
    return _result(deck, p, options, tally, policy)


def block_games(size: int) -> int:
    """Games per block (and per random stream) for a `size`-card deck: a 10,000-card deck must not
    shuffle 25,000 games at once."""
    return max(1, min(CHUNK, CHUNK_CELLS // size))


def block_orders(seed: int, games: int, size: int) -> Iterator[np.ndarray]:
    """The shuffles `simulate` plays, block by block: one (games, size) array of deck positions per block."""
    sizes = [min(block_games(size), games - start) for start in range(0, games, block_games(size))]
    for n, stream in zip(sizes, np.random.SeedSequence(seed).spawn(len(sizes))):
        yield shuffles(np.random.Generator(np.random.PCG64(stream)), n, size)


def _play_block(tables: DeckTables, size: int, needed: int, schedule: Sequence[int], seat: str,
                takes: Sequence[int], block: tuple[int, np.random.SeedSequence]) -> Tally:
    """One block of games on its own random stream (see `cardkit.simulation.run_blocks`)."""
    n, stream = block
    tally = Tally.empty(len(schedule), tables.ids)
    order = shuffles(np.random.Generator(np.random.PCG64(stream)), n, size)[:, :needed]  # later cards are never drawn
    # one row per draw: each draw's cards for every game are then one contiguous row
    _play_chunk(tables, np.take(tables.position_type, np.ascontiguousarray(order.T)), size, schedule, seat, takes, tally)
    tally.games = n
    return tally


def simulate_reference(deck: Any, options: SimulationOptions, cards: Mapping[CardId, TcgCard] | None = None,
                       orders: np.ndarray | None = None, policy: DiscardPolicy = LEAST_USEFUL) -> TcgSimulation:
    """The same simulation played one game at a time with the engine objects (slow; for checking)."""
    p = prepare(deck, options, cards)
    ids = tuple(sorted(p.counts, key=lambda c: open_key(p.cards[c])))
    tally = Tally.empty(len(p.schedule), ids)
    copies = expand(p.counts)
    if orders is None:
        orders = np.concatenate(list(block_orders(options.seed, options.games, len(copies))))
    column = {cid: k for k, cid in enumerate(ids)}
    for order in orders:
        record = play_reference(p.cards, [copies[i] for i in order], p.schedule, options.seat, p.takes, policy)
        tally.add_record(record, column)
    return _result(deck, p, options, tally, policy)


def _result(deck: Any, p: Prepared, options: SimulationOptions, tally: Tally, policy: DiscardPolicy) -> TcgSimulation:
    label = str(getattr(deck, "path", None) or getattr(deck, "name", None) or "deck")
    return TcgSimulation(deck=label, seed=options.seed, seat=options.seat, schedule=p.schedule, tally=tally,
                         exact=tuple(_exact(p.counts, p.cards, p.schedule, options.seat, p.takes)),
                         names={c: p.cards[c].name for c in tally.ids}, warnings=p.warnings,
                         taken=p.taken, takes=p.takes, default_cities=options.cities is None,
                         policy=policy)
