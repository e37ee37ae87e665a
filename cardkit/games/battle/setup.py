"""The state at the start of a battle, from the two players' `squad place` files."""

from __future__ import annotations

import os
from dataclasses import dataclass

from cardkit.errors import BadArgument, CardkitError
from cardkit.games.battle.board import from_placement, placement_row
from cardkit.games.battle.cards import battle_cards
from cardkit.games.battle.rules import BATTLE_GAMES, game_rules, reading
from cardkit.games.battle.state import BattleState, CardInstance, Seat
from cardkit.problems import Problem
from cardkit.squads.placement import PlacementReport, check_placement, read_placement


class IllegalSetup(CardkitError):
    """A placement file is not a legal start of a battle."""

    error_code = "ILLEGAL_SETUP"
    exit_code = 1

    def __init__(self, path: str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        listed = "; ".join(f"{p.code}: {p.message}" for p in problems[:10])
        more = f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
        super().__init__(f"{path}: not a legal placement ({len(problems)} problem(s)): {listed}{more}")


@dataclass(frozen=True)
class Side:
    """One player's checked placement."""

    path: str
    report: PlacementReport


def load_side(path: str | os.PathLike[str]) -> Side:
    """Read and check a placement file: UnreadableInput when unreadable, IllegalSetup when illegal."""
    report = check_placement(read_placement(path), str(path))
    errors = [p for p in report.problems if p.is_error]
    if errors:
        raise IllegalSetup(str(path), errors)
    return Side(str(path), report)


def new_battle(first: Side, second: Side, seed: int = 0, hide_third_row: bool = True) -> BattleState:
    """The battle before the first player's first action: every card placed, revealed as the rules say.

    "der erste Spieler alle seine Karten aufdecken muss, während der zweite Spieler
    die dritte Reihe verdeckt lassen kann, bis er an der Reihe ist." The second
    player takes that choice unless `hide_third_row` is False (and only in the
    games whose rules have it).
    """
    for side, wanted in ((first, "first"), (second, "second")):
        if side.report.seat != wanted:
            raise IllegalSetup(side.path, [Problem("WRONG_SEAT", f"the placement is for the {side.report.seat} seat, "
                                                                 f"but is given as the {wanted} player's")])
    if first.report.format != second.report.format:
        raise IllegalSetup(second.path, [Problem("WRONG_FORMAT", f"format {second.report.format}, "
                                                                 f"but the first player's is {first.report.format}")])
    game = _game(first.report)
    rules, table = game_rules(game), battle_cards(game)
    cards: list[CardInstance] = []
    notes: list[str] = []
    seats: tuple[tuple[Side, Seat], ...] = ((first, "first"), (second, "second"))
    for side, seat in seats:
        # Hosts first, so that a symbiote finds the card it lies on whatever the file's order.
        for placed in sorted(side.report.placed, key=lambda p: p.host is not None):
            assert placed.card is not None  # a legal placement has resolved every card
            info = table[placed.card.id]
            life = info.life or 0
            iid = len(cards) + 1
            if placed.reserve:
                cards.append(CardInstance(iid, info.id, seat, seat, "reserve", life=life))
                continue
            square = from_placement(placed.square or placed.host or "", seat)
            hidden = (seat == "second" and rules.second_player_hides_third_row and hide_third_row
                      and placement_row(square, seat) == 3)
            host = None
            if placed.host:
                host = next(c.iid for c in cards if c.square == square and c.host is None and c.zone == "battlefield")
            if info.flyer and not hidden:
                # "Nachdem sie aufgedeckt werden, verlassen sie das Kampffeld und verlagern sich in die Reservezone."
                cards.append(CardInstance(iid, info.id, seat, seat, "reserve", life=life))
                continue
            cards.append(CardInstance(iid, info.id, seat, seat, "battlefield", square, open=not hidden, hidden=hidden,
                                      life=life, host=host))
    if rules.second_player_hides_third_row and hide_third_row:
        notes.append(reading("hidden_third_row").note)
    return BattleState(game=game, cards=tuple(cards), seed=seed, next_id=len(cards) + 1, notes=tuple(notes))


def _game(report: PlacementReport) -> str:
    from cardkit.squads.budget import squad_rules

    game = squad_rules(report.format).game
    if game not in BATTLE_GAMES:
        raise BadArgument(f"no battles for {game}")
    return game

