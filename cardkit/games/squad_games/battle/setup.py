"""The state at the start of a battle, from the two players' `squad place` files."""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

from cardkit.errors import BadArgument, CardkitError
from cardkit.games.registry import BATTLE_GAMES
from cardkit.games.squad_games.battle.board import from_placement, placement_row
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.rules import game_rules, reading
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, Seat
from cardkit.games.squad_games.squads.placement import PlacementReport, check_placement, read_placement
from cardkit.problems import Problem, error


class IllegalSetup(CardkitError):
    """A placement file is not a legal start of a battle."""

    error_code = "ILLEGAL_SETUP"

    def __init__(self, path: str, problems: list[Problem]) -> None:
        self.path = path
        self.problems = problems
        listed = "; ".join(f"{p.code}: {p.message}" for p in problems[:10])
        more = f"; and {len(problems) - 10} more" if len(problems) > 10 else ""
        super().__init__(f"{path}: not a legal placement ({len(problems)} problem(s)): {listed}{more}")


@dataclass(frozen=True)
class Side:
    """One player's checked placement, and the cards of its stack (undealt and unchosen cards).

    `seat_given` says whether the file fixes the seat; `data` is the file as read, to check it
    again for the other seat when the seat is drawn.
    """

    path: str
    report: PlacementReport
    seat_given: bool = True
    data: Any = None
    stack: tuple[str, ...] = ()


def load_side(path: str | os.PathLike[str], deal: str | os.PathLike[str] | None = None,
              deck: str | os.PathLike[str] | None = None) -> Side:
    """Read and check a placement file, with the player's deal and card set where given.

    The stack is "die Karten, die beim Kartengeben nicht an dich ausgeteilt wurden sowie
    diejenigen, die du nicht für deinen Kampfverband ausgewählt hast": the card set's
    cards not dealt, and the dealt cards not placed. UnreadableInput when a file is
    unreadable, IllegalSetup when the placement is illegal or places a card not dealt.
    """
    data = read_placement(path)
    report = check_placement(data, str(path))
    errors = [p for p in report.problems if p.is_error]
    if errors:
        raise IllegalSetup(str(path), errors)
    seat_given = isinstance(data, dict) and "seat" in data
    return Side(str(path), report, seat_given, data, _stack(str(path), report, deal, deck))


def _stack(path: str, report: PlacementReport, deal: str | os.PathLike[str] | None,
           deck: str | os.PathLike[str] | None) -> tuple[str, ...]:
    """The cards left for the stack: (card set - dealt) + (dealt - placed), as catalogue ids in a fixed order."""
    placed = Counter(p.card.id for p in report.placed if p.card is not None)
    dealt: Counter[str] | None = None
    problems: list[Problem] = []
    if deal is not None:
        from cardkit.games.squad_games.squads.read import read_squad_file

        sq = read_squad_file(deal, report.format)
        problems += [p for p in sq.problems if p.is_error]
        dealt = Counter(r.card for r in sq.deal if r.card is not None)
    held: Counter[str] | None = None
    if deck is not None:
        from cardkit.decks.read import read_deck

        d = read_deck(deck, report.format)
        problems += [p for p in d.problems if p.is_error]
        held = Counter(d.main)
    for smaller, larger, what in ((placed, dealt, "dealt"), (dealt, held, "in the card set")):
        if smaller is None or larger is None:
            continue
        for card, n in sorted((smaller - larger).items()):
            problems.append(error("CARD_NOT_DEALT", f"{card} is placed or dealt {n} more time(s) than it is {what}", card=card))
    if problems:
        raise IllegalSetup(path, problems)
    rest: Counter[str] = Counter()
    if held is not None:
        rest += held - (dealt if dealt is not None else placed)
    if dealt is not None:
        rest += dealt - placed
    return tuple(sorted(rest.elements()))


def _seated(side: Side, seat: Seat) -> Side:
    """The side checked again for `seat` when its file names none and the seat was drawn."""
    if side.report.seat == seat:
        return side
    report = check_placement(dict(side.data, seat=seat), side.path)
    errors = [p for p in report.problems if p.is_error]
    if errors:
        raise IllegalSetup(side.path, errors)
    return replace(side, report=report)


def seat_sides(a: Side, b: Side, seed: int, game: str) -> tuple[Side, Side, bool]:
    """(first, second, drawn): the sides in seat order.

    Files that name their seats keep them; a file without one takes the seat the other
    leaves, else the seat of its place in the command. In Berserk Online, when neither
    file names a seat, the first player is drawn from the seed ("per Zufall"; reading
    `first_player`).
    """
    if not a.seat_given and not b.seat_given:
        if game_rules(game).first_player_at_random and random.Random(f"{seed}/first-player").random() < 0.5:
            a, b = b, a
        return _seated(a, "first"), _seated(b, "second"), game_rules(game).first_player_at_random
    if a.seat_given and not b.seat_given:
        b = _seated(b, "second" if a.report.seat == "first" else "first")
    elif b.seat_given and not a.seat_given:
        a = _seated(a, "second" if b.report.seat == "first" else "first")
    # Seats named in the files hold whatever their order in the command: the second player's file may come first.
    return (b, a, False) if a.report.seat == "second" and b.report.seat == "first" else (a, b, False)


def new_battle(first: Side, second: Side, seed: int = 0, hide_third_row: bool = True) -> BattleState:
    """The battle before the first player's first action: every card placed, revealed as the rules say.

    "der erste Spieler alle seine Karten aufdecken muss, während der zweite Spieler
    die dritte Reihe verdeckt lassen kann, bis er an der Reihe ist." The second
    player takes that choice unless `hide_third_row` is False (and only in the
    games whose rules have it).
    """
    first, second, drawn = seat_sides(first, second, seed, _game(first.report))
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
    for side, seat in seats:
        for card in side.stack:
            cards.append(CardInstance(len(cards) + 1, card, seat, seat, "deck", open=False, life=table[card].life or 0))
    if rules.second_player_hides_third_row and hide_third_row:
        notes.append(reading("hidden_third_row").note)
    if drawn:
        notes.append(reading("first_player").note)
    if first.stack or second.stack:
        notes.append(reading("stack").note)
    state = BattleState(game=game, cards=tuple(cards), seed=seed, next_id=len(cards) + 1, notes=tuple(notes))
    from cardkit.games.squad_games.battle.apply import shuffle_deck

    for side, seat in seats:
        if side.stack:
            state = shuffle_deck(state, seat)
    return state


def _game(report: PlacementReport) -> str:
    from cardkit.games.squad_games.squads.budget import squad_rules

    game = squad_rules(report.format).game
    if game not in BATTLE_GAMES:
        raise BadArgument(f"no battles for {game}")
    return game

