"""The start of a TCG game: two decks brought to the table, shuffled, 7 cards each, the cities face down."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cardkit.errors import UnreadableInput
from cardkit.games.berserk_tcg.game.cities import lay_out
from cardkit.games.berserk_tcg.game.state import GAME, START_HAND, Game, Player, catalogue
from cardkit.games.berserk_tcg.opening.cards import CardId
from cardkit.visible import quoted


def new_game(decks: Sequence[Sequence[CardId]], names: Sequence[str] = ("player 1", "player 2"),
             seed: int = 0) -> Game:
    """Shuffle both decks (seeded), draw 7 each, lay out the cities face down; the first player skips its first draw."""
    cards, stats = catalogue()
    rng = random.Random(seed)
    cities = lay_out({cid: c for cid, c in stats.items() if c.get("kind") == "city"}, rng)
    players = []
    for name, deck in zip(names, decks):
        order = [c for c in deck if not cards[c].is_city]
        rng.shuffle(order)
        players.append(Player(name, tuple(order[START_HAND:]), tuple(order[:START_HAND])))
    return Game(cards, stats, (players[0], players[1]), cities, seed=seed)


@dataclass(frozen=True)
class MatchDeck:
    """A deck brought to the table: its player (or file name), main deck one id per copy, what to warn about."""

    name: str
    cards: tuple[CardId, ...]
    warnings: tuple[str, ...] = ()


def read_match_deck(path: str) -> MatchDeck:
    """A Berserk TCG deck file for a game; cities are set aside, an illegal deck is played with a warning.

    `UnreadableInput` for a deck of another game or with card lines that do not resolve.
    """
    from cardkit.decks.legality import validate_deck
    from cardkit.decks.read import read_deck

    deck = read_deck(path)
    if deck.game != GAME:
        raise UnreadableInput(path, f"is a {deck.game} deck; a TCG game needs {GAME} decks")
    unresolved = [e.text for e in deck.entries if e.card is None]
    if unresolved:
        raise UnreadableInput(path, f"{len(unresolved)} card line(s) did not resolve, e.g. {quoted(unresolved[0], 40)}")
    cards, _ = catalogue()
    main = [cid for cid, n in sorted(deck.section("main").items()) for _ in range(n)]
    warnings = []
    codes = sorted({p.code for p in validate_deck(deck) if p.is_error})
    if codes:
        warnings.append(f"{path} is not legal in {deck.format} ({', '.join(codes)}); playing it anyway")
    cities = sorted({c for c in main if cards[c].is_city})
    if cities:
        warnings.append(f"cities are never in a deck: set aside {', '.join(cities)}")
    return MatchDeck(deck.player or Path(path).stem, tuple(c for c in main if not cards[c].is_city), tuple(warnings))


def deck_cards(path: str) -> tuple[str, list[CardId]]:
    """`read_match_deck` as (player, card ids)."""
    deck = read_match_deck(path)
    return deck.name, list(deck.cards)
