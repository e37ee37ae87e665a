"""Finding a battle card by id or name in either battle game."""

from __future__ import annotations

from cardkit.errors import AmbiguousCard, BadArgument, CardNotFound, CardNotInGame
from cardkit.games.registry import BATTLE_GAMES
from cardkit.games.squad_games.battle.cards import BattleCard, battle_cards
from cardkit.visible import quoted


def find_battle_card(text: str, game: str | None = None) -> tuple[str, BattleCard]:
    """(game, card) for an id or name; CardNotFound, AmbiguousCard, or BadArgument for an unknown game."""
    from cardkit.catalogue.lookup import card_index

    if game is not None and game not in BATTLE_GAMES:
        raise BadArgument(f"must be one of {', '.join(BATTLE_GAMES)}, not {quoted(game)}", "game")
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


def find_battle_pair(attacker: str, defender: str, game: str | None = None) -> tuple[str, BattleCard, BattleCard]:
    """(game, attacker, defender): both cards of one game, `game` or else the attacker's.

    A defender found only in another game is `CardNotInGame` (a card not found, as any other), its
    suggestions drawn from the attacker's game alone: a strike crosses no game boundary.
    """
    from cardkit.catalogue.lookup import card_index

    g, a = find_battle_card(attacker, game)
    look = card_index(g).find(defender)
    if look.ambiguous:
        raise AmbiguousCard(defender, list(look.ids))
    if look.resolved is None:
        elsewhere = [other for other in BATTLE_GAMES if other != g and card_index(other).find(defender).resolved]
        why = f" (it is a {elsewhere[0]} card; both cards must be of one game)" if elsewhere else ""
        raise CardNotInGame(defender, g, list(look.suggestions)[:3], why)
    return g, a, battle_cards(g)[look.resolved]
