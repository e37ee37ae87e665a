"""Exact probability that a hand drawn from the top of the library can open a card.

The hand is a multivariate hypergeometric draw. Only each card's colour and,
for cards whose Level the revealed cities allow, its cost matter, so the deck
is grouped into those categories and the hand's compositions over them are
enumerated with integer arithmetic: colour by colour when every cost is in its
card's own colour (as in the catalogue), else jointly up to a size limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import comb

from cardkit.games.berserk_tcg.opening.cards import CardId, Cost, TcgCard

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


def _own_colour_only(key: Category) -> bool:
    colour, cost = key
    return cost is None or all(n == 0 for i, n in enumerate(cost.coloured) if i != colour)


def _colour_outcomes(colour: int, groups: list[tuple[Cost | None, int]], hand: int) -> dict[tuple[int, bool], int]:
    """Ways to take k cards of one colour's `groups`, by (k, whether one of them can then be opened)."""
    outcomes: dict[tuple[int, bool], int] = {}

    def walk(i: int, count: int, present: tuple[Cost, ...], ways: int) -> None:
        if i == len(groups):
            opens = colour >= 0 and any(count - 1 >= c.coloured[colour] and hand - 1 - c.coloured[colour] >= c.colourless
                                        for c in present)
            outcomes[(count, opens)] = outcomes.get((count, opens), 0) + ways
            return
        cost, n = groups[i]
        for k in range(min(n, hand - count) + 1):
            walk(i + 1, count + k, present + ((cost,) if k and cost is not None else ()), ways * comb(n, k))

    walk(0, 0, (), 1)
    return outcomes


def _by_colour(categories: dict[Category, int], hand: int) -> int:
    """Favourable hands when every cost is in its card's own colour (plus colourless), as the catalogue's are.

    Then whether a colour's cards can open depends only on how many cards of
    that colour the hand holds and which of its costs are present, so each
    colour is enumerated alone and the colours are combined by hand size.
    """
    colours: dict[int, list[tuple[Cost | None, int]]] = {}
    for (colour, cost), n in categories.items():
        colours.setdefault(colour, []).append((cost, n))
    combined: dict[tuple[int, bool], int] = {(0, False): 1}
    for colour, groups in colours.items():
        own = _colour_outcomes(colour, groups, hand)
        merged: dict[tuple[int, bool], int] = {}
        for (k1, o1), w1 in combined.items():
            for (k2, o2), w2 in own.items():
                if k1 + k2 <= hand:
                    key = (k1 + k2, o1 or o2)
                    merged[key] = merged.get(key, 0) + w1 * w2
        combined = merged
    return combined.get((hand, True), 0)


def _compositions_bound(sizes: list[int], hand: int) -> int:
    return comb(hand + len(sizes) - 1, len(sizes) - 1) if sizes else 1


def p_any_open_exact(deck: Mapping[CardId, int], cards: Mapping[CardId, TcgCard], hand: int, cities: int) -> float | None:
    """P(some card of a random `hand`-card hand can be opened with `cities` revealed and nothing in play).

    None when the deck is smaller than the hand, or when costs cross colours and the enumeration would be too long.
    """
    total = sum(deck.values())
    if hand > total or hand < 0:
        return None
    categories = _categories(deck, cards, cities)
    if all(_own_colour_only(key) for key in categories):
        return _by_colour(categories, hand) / comb(total, hand)
    groups = list(categories.items())
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
