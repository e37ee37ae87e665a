"""Exact probability that a hand drawn from the top of the library can open a card.

The hand is a multivariate hypergeometric draw. Only each card's colour and,
for cards whose Level the revealed cities allow, its cost matter, so the deck
is grouped into those categories and every composition of the hand over them
is enumerated with integer arithmetic.
"""

from __future__ import annotations

from math import comb
from typing import Iterable, Mapping

from cardkit.games.berserk_tcg.cards import CardId, Cost, TcgCard

MAX_COMPOSITIONS = 400_000
Category = tuple[int, Cost | None]  # (colour index, cost when the Level is allowed, else None)


def _categories(deck: Mapping[CardId, int], cards: Mapping[CardId, TcgCard], cities: int) -> dict[Category, int]:
    groups: dict[Category, int] = {}
    for cid, n in deck.items():
        card = cards[cid]
        key = (card.colour_index if card.colour_index is not None else -1, card.cost if card.level <= cities else None)
        groups[key] = groups.get(key, 0) + n
    return groups


def _can_open_any(present: Iterable[tuple[Category, int]], colour_counts: list[int], size: int) -> bool:
    for (colour, cost), k in present:
        if cost is None or k == 0:
            continue
        avail = [c - (i == colour) for i, c in enumerate(colour_counts)]
        if all(a >= need for a, need in zip(avail, cost.coloured)) and size - 1 - sum(cost.coloured) >= cost.colourless:
            return True
    return False


def _compositions_bound(sizes: list[int], hand: int) -> int:
    return comb(hand + len(sizes) - 1, len(sizes) - 1) if sizes else 1


def p_any_open_exact(deck: Mapping[CardId, int], cards: Mapping[CardId, TcgCard], hand: int, cities: int) -> float | None:
    """P(some card of a random `hand`-card hand can be opened with `cities` revealed and nothing in play).

    None when the deck is smaller than the hand or the enumeration would be too long.
    """
    total = sum(deck.values())
    if hand > total or hand < 0:
        return None
    groups = list(_categories(deck, cards, cities).items())
    if _compositions_bound([n for _, n in groups], hand) > MAX_COMPOSITIONS:
        return None
    favourable = 0
    chosen = [0] * len(groups)

    def walk(i: int, left: int, ways: int) -> None:
        nonlocal favourable
        if i == len(groups) - 1:
            n = groups[i][1]
            if left > n:
                return
            chosen[i] = left
            colour_counts = [0, 0, 0, 0]
            for (key, _), k in zip(groups, chosen):
                if key[0] >= 0:
                    colour_counts[key[0]] += k
            if _can_open_any(((key, k) for (key, _), k in zip(groups, chosen)), colour_counts, hand):
                favourable += ways * comb(n, left)
            return
        n = groups[i][1]
        for k in range(min(n, left) + 1):
            chosen[i] = k
            walk(i + 1, left - k, ways * comb(n, k))

    if groups:
        walk(0, hand, 1)
    return favourable / comb(total, hand)
