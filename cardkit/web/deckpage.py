"""The deck page's check: a pasted or uploaded deck list validated as `cardkit validate` would, nothing kept.

The text is written to a private temporary folder only because the deck reader takes files;
the folder is gone before the answer is sent.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardkit.decks.report import DeckReport, validate_text
from cardkit.errors import CardkitError

# Upload names are the user's: only a plain file name with a known suffix is kept.
DEFAULT_NAME = "pasted.deck"
SUFFIXES = (".deck", ".json", ".txt")


def deck_name(filename: str | None) -> str:
    """The name the deck is reported under: the uploaded file's own name when it is plain, else `pasted.deck`."""
    name = Path((filename or "").replace("\\", "/")).name
    if not name or name.startswith(".") or not name.lower().endswith(SUFFIXES):
        return DEFAULT_NAME
    return name


def check_deck_text(text: str, filename: str | None = None) -> DeckReport:
    """The report `cardkit validate` gives for a file holding `text`, under the file's own name."""
    return validate_text(text, deck_name(filename))


@dataclass(frozen=True)
class DeckSummary:
    """The main deck by kind, its colour or element split and its cost curve, each counted in copies."""

    kinds: dict[str, list[tuple[int, str, str]]]  # kind -> (copies, name, id), in list order
    split: dict[str, int]
    curve: dict[int, int]
    side: list[tuple[int, str, str]]


def _total_cost(card: dict[str, Any]) -> int | None:
    cost = card.get("cost")
    if isinstance(cost, dict):
        return sum(int(v) for v in cost.values())
    return cost if isinstance(cost, int) else None


def summarise_deck(text: str, filename: str | None = None) -> DeckSummary | None:
    """The summary of a readable deck's resolved cards, or None when it cannot be read."""
    from cardkit.catalogue.lookup import card_index
    from cardkit.decks.read import parse_deck

    try:
        deck = parse_deck(text, path=deck_name(filename), json_hint=deck_name(filename).lower().endswith(".json"))
    except CardkitError:
        return None
    cards = card_index(deck.game).catalogue.cards
    kinds: dict[str, list[tuple[int, str, str]]] = {}
    split: Counter[str] = Counter()
    curve: Counter[int] = Counter()
    side: list[tuple[int, str, str]] = []
    for entry in deck.entries:
        if entry.card is None or entry.card not in cards:
            continue
        card = cards[entry.card]
        shown = (entry.count, str(card["name"]), entry.card)
        if entry.section != "main":
            side.append(shown)
            continue
        kinds.setdefault(str(card.get("kind") or card.get("type") or "other"), []).append(shown)
        if "colour" in card:
            split[str(card["colour"] or "colourless")] += entry.count
        elif "elements" in card:
            split[", ".join(card["elements"]) or "neutral"] += entry.count
        if (cost := _total_cost(card)) is not None:
            curve[cost] += entry.count
    return DeckSummary(kinds, dict(split.most_common()), dict(sorted(curve.items())), side)
