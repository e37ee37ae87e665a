"""What a deck is made of at a glance: each card's kind and colours (TCG) or elements (CCG, Online), and a deck's mix.

Used by the tournament database (`decks.mix`, the `cards` table) and the published page.
No pandas here: the database must not pay for it.
"""

from __future__ import annotations

from typing import Any, Iterable

from cardkit.catalogue.store import load_game
from cardkit.games.registry import GAME_SPECS

# The order colours and elements are written in a mix, as the games list them.
ORDER: dict[str, tuple[str, ...]] = {g.id: g.colours for g in GAME_SPECS if g.colours}
NO_COLOUR: dict[str, str] = {g.id: g.no_colour for g in GAME_SPECS if g.no_colour}
"""What a deck with no coloured (or elemental) card is called; Berserker cards have neither, so no mix."""


def card_kind(card: dict[str, Any]) -> str:
    """TCG `kind` (character, effect-normal, city, ...), else the card's `type` (creature, artifact, move, ...)."""
    return str(card.get("kind") or card.get("type") or "")


def card_colours(game: str, card: dict[str, Any]) -> tuple[str, ...]:
    """A TCG card's colour, or a CCG or Online card's elements; () for a colourless, neutral or Berserker card."""
    if game == "berserk-tcg":
        return (card["colour"],) if card.get("colour") else ()
    return tuple(card.get("elements") or ()) if game in ORDER else ()


def mix(game: str | None, cards: Iterable[str]) -> str | None:
    """`black+white`: the colours (TCG) or elements (CCG, Online) of `cards`, in the game's order.

    None for a game without colours (Berserker) or an unknown game.
    """
    if game not in ORDER:
        return None
    catalogue = load_game(game).cards
    colours = _colours_by_card(game, catalogue)
    listed = list(cards)
    try:
        found = frozenset().union(*[colours[card] for card in listed])
    except KeyError:
        # A card not seen yet: its colours are worked out and kept (a card not in the catalogue adds none).
        for card in listed:
            if card not in colours and card in catalogue:
                colours[card] = card_colours(game, catalogue[card])
        found = frozenset().union(*[colours.get(card, ()) for card in listed])
    name = _NAMES.get((game, found))
    if name is None:
        order = ORDER[game]
        name = _NAMES[(game, found)] = ("+".join(sorted(found, key=lambda c: (order.index(c) if c in order else len(order), c)))
                                        if found else NO_COLOUR[game])
    return name


# Each mix's name by game and colours: a field of thousands of decks has a few dozen mixes.
_NAMES: dict[tuple[str, frozenset[str]], str] = {}
# Each card's colours, worked out once per catalogue: an event's thousands of decks play the same few hundred
# cards, and the database and the page each ask for every deck's mix.
_COLOURS: dict[str, tuple[object, dict[str, tuple[str, ...]]]] = {}


def _colours_by_card(game: str, catalogue: object) -> dict[str, tuple[str, ...]]:
    held = _COLOURS.get(game)
    if held is None or held[0] is not catalogue:
        held = _COLOURS[game] = (catalogue, {})
    return held[1]
