"""The legal fleet actions of a state, lazily and each text once.

A forward move is listed as the largest group per card (every part of it that
can still move is legal too, and `all_groups` lists them all); defences are the
distinct choices of the defender's Defense cards, several to one attack.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from cardkit.games.berserker.game.apply import GAME, is_legal
from cardkit.games.berserker.game.board import GRID, forward
from cardkit.games.berserker.game.notation import Discard, End, Fire, FleetAction, Forward, Move
from cardkit.games.berserker.game.state import HAND_LIMIT, BoardState, other
from cardkit.games.berserker.model import CardId, FleetCard, FleetRules, load_rules
from cardkit.games.berserker.usage import can_use
from cardkit.games.board import CLOCKWISE, Square
from cardkit.games.engine import distinct_combinations
from cardkit.games.readings import reading


def _cards(state: BoardState, side: str, kind: str, rules: FleetRules) -> list[FleetCard]:
    ids = rules.cards if state.sandbox else dict.fromkeys(state.hand(side))
    return [rules.cards[c] for c in ids if rules.cards[c].type == kind]


def defences(state: BoardState, side: str, rules: FleetRules) -> Iterator[tuple[CardId, ...]]:
    """Each distinct choice of `side`'s Defense cards, one card or several (reading `defense_cards`).

    In a sandbox no hand is tracked: each Defense card once, or as often as the deck holds it.
    """
    if state.sandbox:
        held = [c.id for c in _cards(state, side, "defense", rules) for _ in range(c.count)]
    else:
        held = [c for c in state.hand(side) if rules.cards[c].type == "defense"]
    most = len(held) if reading(GAME, "defense_cards") == "several" else 1
    for n in range(1, most + 1):
        yield from distinct_combinations(held, n)


def legal_actions(state: BoardState, rules: FleetRules | None = None, all_groups: bool = False) -> Iterator[FleetAction]:
    """Every legal action, lazily. Forward moves are given as the largest group per card
    (every part of it that can still move alone is legal too) unless `all_groups`, which
    enumerates every group and grows as 2^ships."""
    rules = rules or load_rules()
    if state.winner is not None:
        return
    side = state.turn
    if state.phase == "orders":
        hand = state.hand(side)
        yield from (Discard(c) for c in distinct_combinations(hand, len(hand) - HAND_LIMIT))
        return
    own = state.fleet(side)
    if state.phase == "maneuver":
        for card in _cards(state, side, "move", rules):
            for ship in own:
                # A ship that has moved, or may not play the card, makes every move of it illegal: none is tried.
                if ship.square in state.moved or not can_use(card, rules.ships[ship.type], rules).allowed:
                    continue
                reach = [card.value or 0] if reading(GAME, "move_distance") == "exact" else range(1, (card.value or 0) + 1)
                # the squares a straight line of `n` steps reaches, without the squares on the way, which the check works out
                ends = (GRID.ray(ship.square, d, n) for n in reach for d in CLOCKWISE)
                for to in (q for q in ends if q is not None):
                    move = Move(ship.square, to, card.id)
                    if is_legal(state, move, rules):
                        yield move
            unmoved = [s.square for s in own if s.square not in state.moved]
            groups = ([g for n in range(1, len(unmoved) + 1) for g in combinations(unmoved, n)] if all_groups
                      else _largest(state, card, unmoved, rules))
            for g in groups:
                group = Forward(card.id, tuple(g))
                if is_legal(state, group, rules):
                    yield group
    for card in _cards(state, side, "attack", rules):
        for ship in own:
            # As for moves: a ship that may not play the card, or has made its attacks, fires at no one with it.
            kind = rules.ships[ship.type]
            if state.attacks.get(ship.square, 0) >= kind.attacks_per_turn or not can_use(card, kind, rules).allowed:
                continue
            for enemy in state.fleet(other(side)):
                action = Fire(ship.square, enemy.square, card.id)
                if not is_legal(state, action, rules):
                    continue
                yield action
                for choice in defences(state, other(side), rules):
                    answered = Fire(ship.square, enemy.square, card.id, choice)
                    if is_legal(state, answered, rules):
                        yield answered
    yield End()


def _largest(state: BoardState, card: FleetCard, candidates: list[Square], rules: FleetRules) -> list[tuple[Square, ...]]:
    """The largest group that can move forward together: drop ships that cannot until the rest can."""
    group = list(candidates)
    while True:
        keep = [q for q in group if _moves_with(state, card, q, group, rules)]
        if keep == group:
            return [tuple(group)] if group else []
        group = keep


def _moves_with(state: BoardState, card: FleetCard, square: Square, group: list[Square], rules: FleetRules) -> bool:
    """Whether `square`'s ship could move forward if every other member of `group` moved with it."""
    ship = state.ship_at(square)
    if ship is None or not can_use(card, rules.ships[ship.type], rules).allowed:
        return False
    path = [GRID.ray(square, forward(ship.side), i) for i in range(1, (card.value or 0) + 1)]
    return None not in path and not any(q in state.occupied and q not in group for q in path)


