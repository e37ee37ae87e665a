"""The TCG game behind the one engine protocol (`cardkit.games.engine`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

from cardkit.games.berserk_tcg.game import notation, state
from cardkit.games.berserk_tcg.game.cities import revealed_count
from cardkit.games.berserk_tcg.game.state import Game
from cardkit.games.berserk_tcg.opening.cards import CardId
from cardkit.games.engine import Engine, Event
from cardkit.problems import Problem


class TcgEngine(Engine[Game, notation.Action]):
    name = "tcg"
    noun = "Berserk TCG game state"
    schema = "tcg-state.schema.json"

    def from_dict(self, data: Any) -> Game:
        return state.from_dict(data)

    def to_dict(self, game: Game) -> dict[str, Any]:
        return game.to_dict()

    def check(self, game: Game) -> list[Problem]:
        return state.check(game)

    def parse(self, text: str) -> notation.Action:
        return notation.parse(text)

    def legal_actions(self, game: Game) -> Iterator[notation.Action]:
        from cardkit.games.berserk_tcg.game.legal import legal_actions  # only `moves` lists them

        return legal_actions(game)

    def apply(self, game: Game, action: notation.Action) -> tuple[Game, list[Event]]:
        # imported here: `moves` never applies, and the rules of play (with the battle and the one-player
        # opening engine behind them) are a third of the engine's start-up
        from cardkit.games.berserk_tcg.game.apply import apply

        return apply(game, action)

    def over(self, game: Game) -> bool:
        return game.winner is not None

    def inventory(self, game: Game) -> Counter[str]:
        return Counter(f"{p}:{c}" for p, pl in enumerate(game.players)
                       for c in (*pl.library, *pl.hand, *pl.trash, *(u.card for u in pl.units)))

    def describe(self, game: Game) -> str:
        return describe(game)

    def gloss(self, game: Game, action: str) -> str:
        """`BK1-012 Guts, BK1-013 Casca`: each card the action names by id, once, with its name."""
        named = dict.fromkeys(word for word in re.split(r"[\s,]+", action) if word in game.stats)
        return ", ".join(f"{card} {game.stats[card]['name']}" for card in named)

    def summary(self, game: Game) -> dict[str, Any]:
        return game.summary()

    def to_act(self, game: Game) -> int:
        return game.to_act

    def winner(self, game: Game) -> int | None:
        return game.winner

    def own_status(self, game: Game) -> dict[str, Any]:
        return {"active": game.active, "phase": game.phase}

    def headline(self, game: Game) -> str:
        if game.winner is not None:
            return f"{game.players[game.winner].name} has won"
        if game.phase == "defend":
            return f"{game.players[game.to_act].name} to choose the defenders of {game.attack.city if game.attack else '?'}"
        return f"{game.players[game.active].name}, {game.phase} phase"


def describe(game: Game) -> str:
    """The table as text: the cities (face down as `?`), each player's cards in play and counts."""
    lines = []
    if game.winner is not None:
        lines.append(f"{game.players[game.winner].name} has won")
    else:
        lines.append(f"turn {game.turn}: {game.players[game.active].name} to play, {game.phase} phase; "
                     f"{revealed_count(game.cities)} cities revealed")
    if game.attack is not None:
        lines.append(f"  attack on {game.attack.city}: {game.players[game.opponent()].name} chooses the defenders "
                     f"(defend {game.attack.city} with ID,ID or with none)")
    for c in game.cities:
        face = f"{game.stats[c.card]['name']} (Level {c.level})" if c.revealed else "face down"
        held = f", held by {game.players[c.controller].name}" if c.controller is not None else ""
        lines.append(f"  {c.name}  {face}{held}")
    for seat, p in enumerate(game.players):
        lines.append(f"{p.name}: hand {len(p.hand)}, library {len(p.library)}, trash {len(p.trash)}")
        if seat == game.to_act and game.winner is None and p.hand:
            # The player at the keyboard sees their own hand, as at a table; the other hand stays a count.
            lines.append(f"  hand: {_cards(game, p.hand)}")
        for u in p.units:
            flags = "".join((f" in {u.city}" if u.city else " on its side", ", locked" if u.locked else "",
                             f", {u.damage} damage" if u.damage else ""))
            lines.append(f"  {u.card} {game.stats[u.card]['name']}{flags}")
    return "\n".join(lines)


def _cards(game: Game, cards: Iterable[CardId]) -> str:
    """`2x BK1-012 Guts, BK1-013 Casca`: cards by id and name, each id once with its count, in id order."""
    counted = Counter(cards)
    return ", ".join(f"{'' if n == 1 else f'{n}x '}{card} {game.stats[card]['name']}" for card, n in sorted(counted.items()))


ENGINE = TcgEngine()
