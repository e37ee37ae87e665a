"""Finding a battle card by id or name in either battle game."""

from __future__ import annotations

from cardkit.errors import AmbiguousCard, BadArgument, CardNotFound
from cardkit.games.battle.cards import BattleCard, battle_cards
from cardkit.games.battle.rules import BATTLE_GAMES


def find_battle_card(text: str, game: str | None = None) -> tuple[str, BattleCard]:
    """(game, card) for an id or name; CardNotFound, AmbiguousCard, or BadArgument for an unknown game."""
    from cardkit.catalogue.lookup import card_index

    if game is not None and game not in BATTLE_GAMES:
        raise BadArgument(f"--game must be one of {', '.join(BATTLE_GAMES)}, not {game!r}")
    found: list[tuple[str, str]] = []
    suggestions: list[str] = []
    for g in (game,) if game else BATTLE_GAMES:
        look = card_index(g).find(text)
        if look.resolved is not None:
            found.append((g, look.resolved))
        elif look.ambiguous:
            raise AmbiguousCard(text, list(look.ids))
        else:
            suggestions += list(look.suggestions)
    if not found:
        raise CardNotFound(text, suggestions[:3])
    if len(found) > 1:
        raise AmbiguousCard(text, [f"{cid} ({g})" for g, cid in found])
    g, cid = found[0]
    return g, battle_cards(g)[cid]
