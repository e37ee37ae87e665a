"""A deck at a glance: its main deck by kind, its colour or element split and its cost curve, in copies.

What the deck page shows beside the verdict; a Python user gets the same from a parsed deck.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from cardkit.decks.model import Deck


@dataclass(frozen=True)
class DeckSummary:
    """The main deck by kind, its colour or element split and its cost curve, each counted in copies.

    Lines that name no one card are `unresolved` (main) or in `side` without an id, so the groups
    still add up to the counts in the verdict; an unresolved line whose candidates all share a colour
    (or elements) or a cost still counts there, as the deck's legality counts it.
    """

    kinds: dict[str, list[tuple[int, str, str]]]  # kind -> (copies, name, id), in list order
    split: dict[str, int]
    curve: dict[int, int]
    side: list[tuple[int, str, str]]  # (copies, name, id); id "" for a line that names no one card
    unresolved: list[tuple[int, str, int | None]] = field(default_factory=list)  # (copies, text, line) of main


def total_cost(card: Mapping[str, Any]) -> int | None:
    """A card's cost as one number (a TCG cost's cards added up), or None for a card without one."""
    cost = card.get("cost")
    if isinstance(cost, dict):
        return sum(int(v) for v in cost.values())
    return cost if isinstance(cost, int) else None


def split_key(card: Mapping[str, Any]) -> str | None:
    """The card's place in the colour (TCG) or element split, or None for a game with neither."""
    if "colour" in card:
        return str(card["colour"] or "colourless")
    if "elements" in card:
        return ", ".join(card["elements"]) or "neutral"
    return None


def summarise_deck(deck: Deck) -> DeckSummary:
    """The summary of a parsed deck's cards, looked up in its game's bundled catalogue."""
    from cardkit.catalogue.lookup import card_index

    cards = card_index(deck.game).catalogue.cards
    kinds: dict[str, list[tuple[int, str, str]]] = {}
    split: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    side: list[tuple[int, str, str]] = []
    unresolved: list[tuple[int, str, int | None]] = []
    for entry in deck.entries:
        if entry.card is None or entry.card not in cards:
            if entry.section == "main":
                unresolved.append((entry.count, entry.text, entry.line))
                # What every candidate shares still counts, as in the deck's legality: a colour, a cost.
                among = [cards[c] for c in entry.candidates if c in cards]
                if among and len({split_key(c) for c in among}) == 1 and (key := split_key(among[0])) is not None:
                    split[key] += entry.count
                if among and len({total_cost(c) for c in among}) == 1 and (cost := total_cost(among[0])) is not None:
                    curve[cost] += entry.count
            else:
                side.append((entry.count, entry.text, ""))
            continue
        card = cards[entry.card]
        shown = (entry.count, str(card["name"]), entry.card)
        if entry.section != "main":
            side.append(shown)
            continue
        kinds.setdefault(str(card.get("kind") or card.get("type") or "other"), []).append(shown)
        if (key := split_key(card)) is not None:
            split[key] += entry.count
        if (cost := total_cost(card)) is not None:
            curve[cost] += entry.count
    return DeckSummary(kinds, dict(split.most_common()), dict(sorted(curve.items())), side, unresolved)
