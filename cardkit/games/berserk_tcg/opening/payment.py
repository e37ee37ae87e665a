"""Paying a cost by discarding hand cards: an exact solver with a stated preference.

A cost is a number of balls per colour, each paid by discarding a card of that
colour, plus a colourless part paid by discarding any cards. Because every card
has one colour, a payment exists exactly when each colour has enough cards and
enough cards remain for the colourless part. Among all payments the solver
returns the one that discards the least useful cards (`cards.discard_key`):
each colour's balls take that colour's least useful cards, then the colourless
part takes the least useful of what is left. An exchange argument shows this
minimises every sum of per-card weights that follows the same order, so no
other payment keeps a better hand.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet
from itertools import combinations

from cardkit.games.berserk_tcg import COLOURS
from cardkit.games.berserk_tcg.opening.cards import CardId, Cost, TcgCard, discard_key


def is_valid_payment(cost: Cost, paid: Sequence[TcgCard]) -> bool:
    """True when discarding exactly `paid` pays `cost`."""
    if len(paid) != cost.total:
        return False
    have = [sum(1 for c in paid if c.colour == colour) for colour in COLOURS]
    return all(h >= need for h, need in zip(have, cost.coloured))


def can_pay(cost: Cost, hand: Sequence[TcgCard]) -> bool:
    """True when some cards of `hand` pay `cost` (counting only, no choice made)."""
    return len(hand) >= cost.total and all(
        sum(1 for c in hand if c.colour == colour) >= need for colour, need in zip(COLOURS, cost.coloured))


def find_payment(cost: Cost, hand: Sequence[TcgCard], dead_names: AbstractSet[str] = frozenset()) -> tuple[int, ...] | None:
    """Indices into `hand` of the preferred payment of `cost`, or None when none exists.

    `dead_names` are names of Unique cards in play: such cards in hand cannot be
    opened, so they are paid first.
    """
    if not can_pay(cost, hand):
        return None
    order = sorted(range(len(hand)), key=lambda i: (discard_key(hand[i], hand[i].unique and hand[i].name in dead_names), i))
    chosen: list[int] = []
    taken: set[int] = set()
    for colour, need in zip(COLOURS, cost.coloured):
        picks = [i for i in order if hand[i].colour == colour][:need]
        chosen += picks
        taken.update(picks)
    chosen += [i for i in order if i not in taken][:cost.colourless]
    return tuple(sorted(chosen))


def all_payments(cost: Cost, hand: Sequence[TcgCard]) -> Iterator[tuple[CardId, ...]]:
    """Every distinct valid payment as a sorted tuple of card ids (copies are interchangeable)."""
    seen: set[tuple[CardId, ...]] = set()
    for combo in combinations(range(len(hand)), cost.total):
        paid = [hand[i] for i in combo]
        ids = tuple(sorted(c.id for c in paid))
        if ids not in seen and is_valid_payment(cost, paid):
            seen.add(ids)
            yield ids
