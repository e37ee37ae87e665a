"""Deck files: reading, resolving card names, legality against a format, hashing, diffing, converting."""

from __future__ import annotations

from cardkit.decks.legality import validate_deck
from cardkit.decks.model import MAX_COUNT, SECTIONS, Deck, Entry
from cardkit.decks.read import DeckGameUnknown, parse_deck, read_deck

__all__ = ["MAX_COUNT", "SECTIONS", "Deck", "DeckGameUnknown", "Entry", "parse_deck", "read_deck", "validate_deck"]
