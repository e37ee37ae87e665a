"""The TCG game behind the one engine protocol (`cardkit.games.engine`)."""

from __future__ import annotations

from typing import Any, Iterator

from cardkit.errors import UnreadableInput
from cardkit.games.berserk_tcg import match
from cardkit.games.engine import Engine, Event
from cardkit.problems import Problem


class TcgEngine(Engine[match.Game, match.Action]):
    name = "tcg"
    noun = "Berserk TCG game state"
    schema = "tcg-state.schema.json"

    def from_dict(self, data: Any) -> match.Game:
        try:
            return match.from_dict(data)
        except UnreadableInput as exc:
            raise ValueError(exc.reason) from None

    def to_dict(self, state: match.Game) -> dict[str, Any]:
        return state.to_dict()

    def check(self, state: match.Game) -> list[Problem]:
        return []

    def parse(self, text: str) -> match.Action:
        return match.parse(text)

    def legal_actions(self, state: match.Game) -> Iterator[match.Action]:
        return match.legal_actions(state)

    def apply(self, state: match.Game, action: match.Action) -> tuple[match.Game, list[Event]]:
        return match.apply(state, action)

    def describe(self, state: match.Game) -> str:
        return match.describe(state)

    def summary(self, state: match.Game) -> dict[str, Any]:
        return state.summary()

    def status(self, state: match.Game) -> dict[str, Any]:
        return {"active": state.active, "phase": state.phase, "winner": state.winner}

    def headline(self, state: match.Game) -> str:
        if state.winner is not None:
            return f"{state.players[state.winner].name} has won"
        return f"{state.players[state.active].name}, {state.phase} phase"


ENGINE = TcgEngine()
