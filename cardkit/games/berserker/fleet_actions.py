"""Fleet-board actions as text that round-trips, the legal ones for a state, and applying them.

Text forms (cards by catalogue id, squares like `a2`):
`move FROM TO card CARD`, `forward CARD SQUARE,SQUARE...`,
`fire FROM TO card CARD [defend CARD]`, `discard CARD,CARD...`, `end`.
`parse_action(str(a)) == a` for every action. `apply` never mutates its input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Any, Iterator, Union

from cardkit.errors import CardkitError
from cardkit.games.engine import IllegalAction
from cardkit.games.berserker.board import (
    HAND_LIMIT, BoardState, ShipOnBoard, Square, begin_turn, coords, forward, line_between, other, ray,
    squares_from,
)
from cardkit.games.berserker.model import CardId, FleetCard, FleetRules, UnknownName, load_rules
from cardkit.games.berserker.usage import can_use
from cardkit.games.readings import reading
from cardkit.problems import Problem, error

ILLEGAL_ACTION = "ILLEGAL_ACTION"
GAME = "berserker"


class BadActionText(CardkitError):
    """The text is not a fleet action."""

    error_code = "BAD_ACTION"

    def __init__(self, text: str, why: str = "") -> None:
        shown = text if len(text) <= 80 else text[:80] + "..."
        super().__init__(f"not a fleet action: {shown!r}{'; ' + why if why else ''}; expected "
                         "move FROM TO card CARD, forward CARD SQ,SQ, fire FROM TO card CARD [defend CARD], "
                         "discard CARD,CARD or end")


@dataclass(frozen=True)
class Move:
    frm: Square
    to: Square
    card: CardId

    def __str__(self) -> str:
        return f"move {self.frm} {self.to} card {self.card}"


@dataclass(frozen=True)
class Forward:
    card: CardId
    squares: tuple[Square, ...]

    def __str__(self) -> str:
        return f"forward {self.card} {','.join(self.squares)}"


@dataclass(frozen=True)
class Fire:
    frm: Square
    to: Square
    card: CardId
    defend: CardId | None = None

    def __str__(self) -> str:
        return f"fire {self.frm} {self.to} card {self.card}" + (f" defend {self.defend}" if self.defend else "")


@dataclass(frozen=True)
class Discard:
    cards: tuple[CardId, ...]

    def __str__(self) -> str:
        return f"discard {','.join(self.cards)}"


@dataclass(frozen=True)
class End:
    def __str__(self) -> str:
        return "end"


FleetAction = Union[Move, Forward, Fire, Discard, End]
_SQ = r"[a-zA-Z]\d{1,2}"
_CARD = r"[^\s,]+"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("move", re.compile(rf"move ({_SQ}) ({_SQ}) card ({_CARD})")),
    ("forward", re.compile(rf"forward ({_CARD}) ({_SQ}(?:,{_SQ})*)")),
    ("fire", re.compile(rf"fire ({_SQ}) ({_SQ}) card ({_CARD})(?: defend ({_CARD}))?")),
    ("discard", re.compile(rf"discard ({_CARD}(?:,{_CARD})*)")),
    ("end", re.compile("end")),
)


def parse_action(text: str, rules: FleetRules | None = None) -> FleetAction:
    """The action a text names; `BadActionText` (or `UnknownName` for a card) when it names none."""
    rules = rules or load_rules()
    clean = " ".join(text.split())
    for kind, pattern in _PATTERNS:
        m = pattern.fullmatch(clean)
        if m is None:
            continue

        def card(t: str) -> CardId:
            try:
                return rules.card(t).id
            except UnknownName as exc:
                raise BadActionText(text, exc.message) from None

        def square(t: str) -> Square:
            if coords(t.lower()) is None:
                raise BadActionText(text, f"{t!r} is not a square a1..h8")
            return t.lower()

        if kind == "move":
            return Move(square(m[1]), square(m[2]), card(m[3]))
        if kind == "forward":
            return Forward(card(m[1]), tuple(square(q) for q in m[2].split(",")))
        if kind == "fire":
            return Fire(square(m[1]), square(m[2]), card(m[3]), card(m[4]) if m[4] else None)
        if kind == "discard":
            return Discard(tuple(sorted(card(c) for c in m[1].split(","))))
        return End()
    raise BadActionText(text)


# --- legality -------------------------------------------------------------------------------------

def _own_ship(state: BoardState, square: Square) -> ShipOnBoard:
    ship = state.ship_at(square)
    if ship is None:
        raise IllegalAction(f"no ship on {square}")
    if ship.side != state.turn:
        raise IllegalAction(f"the ship on {square} is a {ship.side} ship; it is the {state.turn}'s turn")
    return ship


def _playable(state: BoardState, card: FleetCard, ship: ShipOnBoard, kind: str, rules: FleetRules,
              side: str | None = None) -> None:
    if card.type != kind:
        raise IllegalAction(f"{card.name} is a {card.type} card, not a {kind} card")
    usage = can_use(card, rules.ships[ship.type], rules)
    if not usage.allowed:
        raise IllegalAction(usage.reason)
    holder = side or state.turn
    if not state.sandbox and card.id not in state.hand(holder):
        raise IllegalAction(f"the {holder} holds no {card.name} (hand: {', '.join(state.hand(holder)) or 'empty'})")


def _spend(state: BoardState, side: str, *cards: CardId) -> BoardState:
    """Play (discard) `cards` from `side`'s hand; in a sandbox no hand is tracked."""
    if state.sandbox:
        return state
    hand = list(state.hand(side))
    for c in cards:
        hand.remove(c)
    return replace(state, hands={**state.hands, side: tuple(hand)}, discard=state.discard + tuple(cards))


def _in_phase(state: BoardState, action: FleetAction, *phases: str) -> None:
    if state.winner is not None:
        raise IllegalAction(f"the game is over: the {state.winner} won")
    if state.phase not in phases:
        if state.phase == "orders":
            raise IllegalAction(f"the {state.turn} holds {len(state.hand(state.turn))} cards: discard down to "
                                f"{HAND_LIMIT} first")
        raise IllegalAction(f"{action}: not in the {state.phase} phase (the maneuver phase ends with the first fire)")


Event = dict[str, Any]


def _move(state: BoardState, a: Move, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _in_phase(state, a, "maneuver")
    ship = _own_ship(state, a.frm)
    if a.frm in state.moved:
        raise IllegalAction(f"the {rules.ships[ship.type].name} on {a.frm} has moved this turn: "
                            "a ship can only make one move per turn")
    card = rules.cards[a.card]
    _playable(state, card, ship, "move", rules)
    line = line_between(a.frm, a.to)
    if line is None:
        raise IllegalAction(f"{a.to} is not in a straight line (orthogonal or diagonal) from {a.frm}")
    distance, between = line
    exact = reading(GAME, "move_distance") == "exact"
    if distance > (card.value or 0) or (exact and distance != card.value):
        raise IllegalAction(f"{card.name} moves {'exactly' if exact else 'at most'} {card.value} squares; "
                            f"{a.frm} to {a.to} is {distance}")
    blocked = [q for q in (*between, a.to) if q in state.occupied]
    if blocked:
        raise IllegalAction(f"{a.frm} to {a.to} passes or stops on {', '.join(blocked)}: "
                            "ships cannot move through other ships")
    state = _spend(state, state.turn, card.id)
    ships = tuple(replace(s, square=a.to) if s.square == a.frm else s for s in state.ships)
    state = replace(state, ships=ships, moved=state.moved | {a.to})
    return state, [{"kind": "moved", "text": f"{rules.ships[ship.type].name} {a.frm} -> {a.to} ({card.name})",
                    "from": a.frm, "to": a.to, "card": card.id}]


def _forward(state: BoardState, a: Forward, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _in_phase(state, a, "maneuver")
    if len(set(a.squares)) != len(a.squares):
        raise IllegalAction("a ship is named twice")
    card = rules.cards[a.card]
    group = set(a.squares)
    # "Ships cannot move through other ships": another member's square does not block when the group
    # moves together (the reading forward_group_passes_through_itself).
    blockers = state.occupied - group if reading(GAME, "forward_group_passes_through_itself") else state.occupied
    moves: dict[Square, Square] = {}
    for square in a.squares:
        ship = _own_ship(state, square)
        if square in state.moved:
            raise IllegalAction(f"the ship on {square} has moved this turn: a ship can only make one move per turn")
        usage = can_use(card, rules.ships[ship.type], rules)
        if card.type != "move" or not usage.allowed:
            raise IllegalAction(usage.reason if card.type == "move" else f"{card.name} is not a move card")
        path = [ray(square, forward(ship.side), i) for i in range(1, (card.value or 0) + 1)]
        if None in path:
            raise IllegalAction(f"{square} forward {card.value} leaves the board")
        blocked = [q for q in path if q in blockers]
        if blocked:
            raise IllegalAction(f"{square} forward {card.value} passes or stops on {', '.join(map(str, blocked))}: "
                                "ships cannot move through other ships")
        moves[square] = str(path[-1])
    if not state.sandbox and card.id not in state.hand(state.turn):
        raise IllegalAction(f"the {state.turn} holds no {card.name}")
    state = _spend(state, state.turn, card.id)
    ships = tuple(replace(s, square=moves[s.square]) if s.square in moves else s for s in state.ships)
    state = replace(state, ships=ships, moved=state.moved | set(moves.values()))
    return state, [{"kind": "moved", "text": f"{rules.ships[state.ship_at(t).type].name} {f} -> {t} ({card.name})",  # type: ignore[union-attr]
                    "from": f, "to": t, "card": card.id} for f, t in moves.items()]


def _fire(state: BoardState, a: Fire, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _in_phase(state, a, "maneuver", "fire")
    shooter = _own_ship(state, a.frm)
    kind = rules.ships[shooter.type]
    card = rules.cards[a.card]
    _playable(state, card, shooter, "attack", rules)
    used = state.attacks.get(a.frm, 0)
    if used >= kind.attacks_per_turn:
        raise IllegalAction(f"the {kind.name} on {a.frm} has made {used} attack(s); it may make "
                            f"{kind.attacks_per_turn} per turn")
    target = state.ship_at(a.to)
    if target is None or target.side == shooter.side:
        raise IllegalAction(f"no enemy ship on {a.to}")
    line = line_between(a.frm, a.to)
    if line is None:
        raise IllegalAction(f"{a.to} is not in a straight line (orthogonal or diagonal) from {a.frm}")
    distance, between = line
    exact = reading(GAME, "attack_distance") == "exact"
    if distance > (card.value or 0) or (exact and distance != card.value):
        raise IllegalAction(f"{card.name} has range {card.value}; {a.frm} to {a.to} is {distance}")
    in_way = [q for q in between if q in state.occupied]
    if in_way and not kind.fires_through_ships:
        raise IllegalAction(f"{', '.join(in_way)} is in the way: ships cannot attack through other ships "
                            "except for C-Plus Guns")
    damage = card.damage if card.damage is not None else 1
    events: list[Event] = []
    spent_defend: tuple[CardId, ...] = ()
    if a.defend is not None:
        defend = rules.cards[a.defend]
        _playable(state, defend, target, "defense", rules, side=target.side)
        against = defend.restriction.against if defend.restriction else None
        if against is not None and card.id not in against:
            raise IllegalAction(f"{defend.name} answers only {', '.join(rules.cards[c].name for c in against)}")
        spent_defend = (defend.id,)
        if defend.negates == "attack":
            damage = 0
        elif defend.negates == "damage":
            damage = max(0, damage - (defend.damage or 0))
        answer = "negates the attack" if defend.negates == "attack" else f"negates {defend.damage} point(s) of it"
        events.append({"kind": "defended", "text": f"{target.side} answers {card.name} with {defend.name}: {answer}",
                       "card": defend.id})
    state = _spend(state, state.turn, card.id)
    state = _spend(state, target.side, *spent_defend)
    left = target.hits - damage
    sunk = left <= 0
    ships = [replace(s, hits=left) if s.square == a.to else s for s in state.ships]
    events.append({"kind": "fired", "text": f"{kind.name} {a.frm} fires {card.name} at "
                   f"{rules.ships[target.type].name} {a.to}: {damage} damage, {max(left, 0)} hits left",
                   "from": a.frm, "to": a.to, "card": card.id, "damage": damage})
    if sunk:
        ships = [s for s in ships if s.square != a.to]
        events.append({"kind": "sunk", "text": f"{rules.ships[target.type].name} on {a.to} sinks", "square": a.to})
    negated = damage == 0 and a.defend is not None
    if card.destroys_user and (not negated or reading(GAME, "marines_user_destroyed_when_negated")):
        ships = [s for s in ships if s.square != a.frm]
        events.append({"kind": "destroyed", "text": f"{kind.name} on {a.frm} is destroyed by playing {card.name}",
                       "square": a.frm})
    state = replace(state, ships=tuple(ships), phase="fire", attacks={**state.attacks, a.frm: used + 1})
    winner = _winner(state)
    if winner is not None:
        state = replace(state, winner=winner)
        events.append({"kind": "won", "text": f"the {winner} fleet wins", "side": winner})
    return state, events


def _winner(state: BoardState) -> str | None:
    """"Destroy the opposing fleet"; both fleets gone at once goes to the player on move (`mutual_destruction`)."""
    if not state.fleet(other(state.turn)):
        return state.turn
    if not state.fleet(state.turn):
        return other(state.turn)
    return None


def _discard(state: BoardState, a: Discard, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _in_phase(state, a, "orders")
    hand = list(state.hand(state.turn))
    if len(hand) - len(a.cards) != HAND_LIMIT:
        raise IllegalAction(f"the hand holds {len(hand)} cards: discard exactly {len(hand) - HAND_LIMIT} "
                            f"to keep {HAND_LIMIT}")
    for c in a.cards:
        if c not in hand:
            raise IllegalAction(f"the {state.turn} holds no {rules.cards[c].name} to discard")
        hand.remove(c)
    state = replace(state, hands={**state.hands, state.turn: tuple(hand)}, discard=state.discard + a.cards,
                    phase="maneuver")
    return state, [{"kind": "discarded", "text": f"{state.turn} discards {', '.join(a.cards)}", "cards": list(a.cards)}]


def _end(state: BoardState, a: End, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _in_phase(state, a, "maneuver", "fire")
    nxt = other(state.turn)
    state = begin_turn(replace(state, number=state.number + 1), nxt)
    text = f"{nxt}'s turn {state.number}" + ("" if state.sandbox else f": draws to {len(state.hand(nxt))} cards")
    return state, [{"kind": "turn", "text": text, "side": nxt}]


def apply(state: BoardState, action: FleetAction, rules: FleetRules | None = None) -> tuple[BoardState, list[Event]]:
    """The state after `action` and what happened; `IllegalAction` saying why when it is not legal."""
    rules = rules or load_rules()
    if isinstance(action, Move):
        return _move(state, action, rules)
    if isinstance(action, Forward):
        return _forward(state, action, rules)
    if isinstance(action, Fire):
        return _fire(state, action, rules)
    if isinstance(action, Discard):
        return _discard(state, action, rules)
    return _end(state, action, rules)


def is_legal(state: BoardState, action: FleetAction, rules: FleetRules | None = None) -> bool:
    try:
        apply(state, action, rules)
    except IllegalAction:
        return False
    return True


# --- the legal actions ------------------------------------------------------------------------------

def _cards(state: BoardState, side: str, kind: str, rules: FleetRules) -> list[FleetCard]:
    ids = rules.cards if state.sandbox else dict.fromkeys(state.hand(side))
    return [rules.cards[c] for c in ids if rules.cards[c].type == kind]


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
        for combo in sorted(set(combinations(sorted(hand), len(hand) - HAND_LIMIT))):
            yield Discard(combo)
        return
    own = state.fleet(side)
    if state.phase == "maneuver":
        for card in _cards(state, side, "move", rules):
            for ship in own:
                if ship.square in state.moved:
                    continue
                reach = [card.value or 0] if reading(GAME, "move_distance") == "exact" else range(1, (card.value or 0) + 1)
                for to, _ in (t for n in reach for t in squares_from(ship.square, n)):
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
    defenders = _cards(state, other(side), "defense", rules)
    for card in _cards(state, side, "attack", rules):
        for ship in own:
            for enemy in state.fleet(other(side)):
                action = Fire(ship.square, enemy.square, card.id)
                if not is_legal(state, action, rules):
                    continue
                yield action
                for d in defenders:
                    answered = Fire(ship.square, enemy.square, card.id, d.id)
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
    path = [ray(square, forward(ship.side), i) for i in range(1, (card.value or 0) + 1)]
    return None not in path and not any(q in state.occupied and q not in group for q in path)


# --- many actions at once ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ApplyResult:
    """`fleet apply`: whether every action was legal, the problem of the first that was not, the events."""

    legal: bool
    problems: tuple[Problem, ...]
    events: tuple[Event, ...]
    state: BoardState

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "problems": [p.to_dict() for p in self.problems],
                "events": list(self.events), "state": self.state.summary()}


def apply_all(state: BoardState, texts: list[str], rules: FleetRules | None = None) -> ApplyResult:
    """Apply action texts in order; the first illegal one stops the run with an ILLEGAL_ACTION problem
    (`line` is its 1-based position) and the state before it. `BadActionText` for text that is no action."""
    rules = rules or load_rules()
    actions = [parse_action(t, rules) for t in texts]
    events: list[Event] = []
    for i, action in enumerate(actions, 1):
        try:
            state, new = apply(state, action, rules)
        except IllegalAction as exc:
            problem = error(ILLEGAL_ACTION, f"{action}: {exc.message}", line=i, actual=str(action))
            return ApplyResult(False, (problem,), tuple(events), state)
        events.extend(new)
    return ApplyResult(True, (), tuple(events), state)


__all__ = ["BadActionText", "IllegalAction", "Move", "Forward", "Fire", "Discard", "End", "FleetAction",
           "parse_action", "apply", "apply_all", "legal_actions", "is_legal", "ApplyResult", "ILLEGAL_ACTION"]
