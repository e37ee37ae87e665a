"""The fleet game behind the one engine protocol (`cardkit.games.engine`)."""

from __future__ import annotations

from typing import Any, Iterator

from cardkit.errors import UnreadableInput
from cardkit.games.berserker import fleet_actions
from cardkit.games.berserker.board import BoardState, describe, render_board
from cardkit.games.engine import Engine, Event
from cardkit.problems import Problem


class FleetEngine(Engine[BoardState, fleet_actions.FleetAction]):
    name = "fleet"
    noun = "fleet board state"
    schema = "fleet-state.schema.json"

    def from_dict(self, data: Any) -> BoardState:
        try:
            return BoardState.from_dict(data)
        except UnreadableInput as exc:
            raise ValueError(exc.reason) from None

    def to_dict(self, state: BoardState) -> dict[str, Any]:
        return state.to_dict()

    def check(self, state: BoardState) -> list[Problem]:
        return []

    def parse(self, text: str) -> fleet_actions.FleetAction:
        return fleet_actions.parse_action(text)

    def legal_actions(self, state: BoardState) -> Iterator[fleet_actions.FleetAction]:
        return fleet_actions.legal_actions(state)

    def apply(self, state: BoardState, action: fleet_actions.FleetAction) -> tuple[BoardState, list[Event]]:
        return fleet_actions.apply(state, action)

    def describe(self, state: BoardState) -> str:
        return render_board(state) + "\n" + describe(state)

    def summary(self, state: BoardState) -> dict[str, Any]:
        return state.summary()

    def status(self, state: BoardState) -> dict[str, Any]:
        return {"turn": state.turn, "phase": state.phase, "winner": state.winner}

    def headline(self, state: BoardState) -> str:
        if state.winner:
            return f"the {state.winner} fleet has won"
        return f"{state.turn}, {state.phase} phase"


ENGINE = FleetEngine()
