"""Applying fleet actions: `apply(state, action) -> (state, events)`, never changing its input.

Each kind of action is two steps: its check (every `IllegalAction`, nothing built) and its effect (the
new state and the events, which raise nothing). `is_legal` runs the check alone: listing a state's
legal actions asks it of hundreds of candidates, and the verdict is `apply`'s by construction.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from cardkit.errors import IllegalAction
from cardkit.games.berserker.game.board import GRID, forward
from cardkit.games.berserker.game.notation import Discard, End, Fire, FleetAction, Forward, Move
from cardkit.games.berserker.game.state import HAND_LIMIT, BoardState, ShipOnBoard, begin_turn, other
from cardkit.games.berserker.model import CardId, FleetCard, FleetRules, load_rules
from cardkit.games.berserker.usage import can_use
from cardkit.games.board import Square
from cardkit.games.engine import Event
from cardkit.games.readings import reading

GAME = "berserker"


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
        raise IllegalAction(f"the game is over: the {state.winner} won; no action follows")
    if state.phase not in phases:
        if state.phase == "orders":
            raise IllegalAction(f"the {state.turn} holds {len(state.hand(state.turn))} cards: discard down to "
                                f"{HAND_LIMIT} first")
        raise IllegalAction(f"{action}: not in the {state.phase} phase (the maneuver phase ends with the first fire)")



def _check_move(state: BoardState, a: Move, rules: FleetRules) -> tuple[ShipOnBoard, FleetCard]:
    _in_phase(state, a, "maneuver")
    ship = _own_ship(state, a.frm)
    if a.frm in state.moved:
        raise IllegalAction(f"the {rules.ships[ship.type].name} on {a.frm} has moved this turn: "
                            "a ship can only make one move per turn")
    card = rules.cards[a.card]
    _playable(state, card, ship, "move", rules)
    line = GRID.line_between(a.frm, a.to)
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
    return ship, card


def _move(state: BoardState, a: Move, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    ship, card = _check_move(state, a, rules)
    state = _spend(state, state.turn, card.id)
    ships = tuple(replace(s, square=a.to) if s.square == a.frm else s for s in state.ships)
    state = replace(state, ships=ships, moved=state.moved | {a.to})
    return state, [{"kind": "moved", "text": f"{rules.ships[ship.type].name} {a.frm} -> {a.to} ({card.name})",
                    "from": a.frm, "to": a.to, "card": card.id}]


def _check_forward(state: BoardState, a: Forward, rules: FleetRules) -> tuple[FleetCard, dict[Square, Square]]:
    """The card and where each ship of the group ends."""
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
        path = [GRID.ray(square, forward(ship.side), i) for i in range(1, (card.value or 0) + 1)]
        if None in path:
            raise IllegalAction(f"{square} forward {card.value} leaves the board")
        blocked = [q for q in path if q in blockers]
        if blocked:
            raise IllegalAction(f"{square} forward {card.value} passes or stops on {', '.join(map(str, blocked))}: "
                                "ships cannot move through other ships")
        moves[square] = str(path[-1])
    if not state.sandbox and card.id not in state.hand(state.turn):
        raise IllegalAction(f"the {state.turn} holds no {card.name}")
    return card, moves


def _forward(state: BoardState, a: Forward, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    card, moves = _check_forward(state, a, rules)
    state = _spend(state, state.turn, card.id)
    ships = tuple(replace(s, square=moves[s.square]) if s.square in moves else s for s in state.ships)
    state = replace(state, ships=ships, moved=state.moved | set(moves.values()))
    return state, [{"kind": "moved", "text": f"{rules.ships[state.ship_at(t).type].name} {f} -> {t} ({card.name})",  # type: ignore[union-attr]
                    "from": f, "to": t, "card": card.id} for f, t in moves.items()]


def _check_fire(state: BoardState, a: Fire, rules: FleetRules) -> tuple[ShipOnBoard, FleetCard, ShipOnBoard, int]:
    """The shooter, the card, the target and the attacks the shooter has made this turn."""
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
    line = GRID.line_between(a.frm, a.to)
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
    _check_defence(state, a, card, target, rules)
    return shooter, card, target, used


def _fire(state: BoardState, a: Fire, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    shooter, card, target, used = _check_fire(state, a, rules)
    kind = rules.ships[shooter.type]
    damage, events = _defended(a, card, target.side, rules)
    state = _spend(state, state.turn, card.id)
    state = _spend(state, target.side, *a.defend)
    left = target.hits - damage
    sunk = left <= 0
    ships = [replace(s, hits=left) if s.square == a.to else s for s in state.ships]
    events.append({"kind": "fired", "text": f"{kind.name} {a.frm} fires {card.name} at "
                   f"{rules.ships[target.type].name} {a.to}: {damage} damage, {max(left, 0)} hits left",
                   "from": a.frm, "to": a.to, "card": card.id, "damage": damage})
    if sunk:
        ships = [s for s in ships if s.square != a.to]
        events.append({"kind": "sunk", "text": f"{rules.ships[target.type].name} on {a.to} sinks", "square": a.to})
    negated = damage == 0 and bool(a.defend)
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


def _check_defence(state: BoardState, a: Fire, card: FleetCard, target: ShipOnBoard, rules: FleetRules) -> None:
    """The defender's Defense cards: one unless the reading `defense_cards` allows several, each held and
    playable by the target, and each answering this attack."""
    if len(a.defend) > 1 and reading(GAME, "defense_cards") != "several":
        raise IllegalAction("one Defense card answers an attack")
    held = Counter(state.hand(target.side))
    for d, n in Counter(a.defend).items():
        if not state.sandbox and 0 < held[d] < n:
            raise IllegalAction(f"the {target.side} holds {held[d]} {rules.cards[d].name}, not {n}")
    for d in a.defend:
        defend = rules.cards[d]
        _playable(state, defend, target, "defense", rules, side=target.side)
        against = defend.restriction.against if defend.restriction else None
        if against is not None and card.id not in against:
            raise IllegalAction(f"{defend.name} answers only {', '.join(rules.cards[c].name for c in against)}")


def _defended(a: Fire, card: FleetCard, side: str, rules: FleetRules) -> tuple[int, list[Event]]:
    """The damage left after the defender's Defense cards, each doing what it says (reading `defense_cards`):
    one that negates the attack leaves none, one that negates damage takes off its points."""
    damage = card.damage if card.damage is not None else 1
    events: list[Event] = []
    for d in a.defend:
        defend = rules.cards[d]
        if defend.negates == "attack":
            damage = 0
        elif defend.negates == "damage":
            damage = max(0, damage - (defend.damage or 0))
        answer = "negates the attack" if defend.negates == "attack" else f"negates {defend.damage} point(s) of it"
        events.append({"kind": "defended", "text": f"{side} answers {card.name} with {defend.name}: {answer}",
                       "card": defend.id})
    return damage, events


def _winner(state: BoardState) -> str | None:
    """"Destroy the opposing fleet"; both fleets gone at once goes to the player on move (`mutual_destruction`)."""
    if not state.fleet(other(state.turn)):
        return state.turn
    if not state.fleet(state.turn):
        return other(state.turn)
    return None


def _check_discard(state: BoardState, a: Discard, rules: FleetRules) -> tuple[CardId, ...]:
    """The hand kept."""
    _in_phase(state, a, "orders")
    hand = list(state.hand(state.turn))
    if len(hand) - len(a.cards) != HAND_LIMIT:
        raise IllegalAction(f"the hand holds {len(hand)} cards: discard exactly {len(hand) - HAND_LIMIT} "
                            f"to keep {HAND_LIMIT}")
    for c in a.cards:
        if c not in hand:
            raise IllegalAction(f"the {state.turn} holds no {rules.cards[c].name} to discard")
        hand.remove(c)
    return tuple(hand)


def _discard(state: BoardState, a: Discard, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    hand = _check_discard(state, a, rules)
    state = replace(state, hands={**state.hands, state.turn: hand}, discard=state.discard + a.cards,
                    phase="maneuver")
    return state, [{"kind": "discarded", "text": f"{state.turn} discards {', '.join(a.cards)}", "cards": list(a.cards)}]


def _check_end(state: BoardState, a: End, rules: FleetRules) -> None:
    _in_phase(state, a, "maneuver", "fire")


def _end(state: BoardState, a: End, rules: FleetRules) -> tuple[BoardState, list[Event]]:
    _check_end(state, a, rules)
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


def check(state: BoardState, action: FleetAction, rules: FleetRules | None = None) -> None:
    """`IllegalAction` saying why `action` is not legal, the one `apply` raises; nothing when it is legal."""
    rules = rules or load_rules()
    if isinstance(action, Move):
        _check_move(state, action, rules)
    elif isinstance(action, Forward):
        _check_forward(state, action, rules)
    elif isinstance(action, Fire):
        _check_fire(state, action, rules)
    elif isinstance(action, Discard):
        _check_discard(state, action, rules)
    else:
        _check_end(state, action, rules)


def is_legal(state: BoardState, action: FleetAction, rules: FleetRules | None = None) -> bool:
    """Whether `apply` takes `action`: its checks alone, without building the state after it."""
    try:
        check(state, action, rules)
    except IllegalAction:
        return False
    return True
