"""A two-player Berserk TCG game: each side's PlayerState, the five cities, battles over them, victory.

Turn: unlocking (automatic), drawing (`draw`; the first player skips it on the
first turn; "A player loses when he can't draw a card from his deck during his
drawing phase"), opening (`open CARD [pay ...]` once, or `pass`), main
(`move CARD to CITY`, one `attack CITY with CARD,...`), ending (`end`: damage
heals; a hand over 7 is cut with `discard ...`). Opening goes through the
one-player engine (`state.can_open`, `actions.apply`); battles through `battle.fight`.
`parse(str(a)) == a` for every action; `apply` never mutates its input.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterator, Mapping, Sequence, Union

from cardkit.errors import CardkitError, UnreadableInput
from cardkit.games.engine import IllegalAction
from cardkit.games.berserk_tcg import actions as solo
from cardkit.games.berserk_tcg.battle import Fighter, fight
from cardkit.games.berserk_tcg.cards import CardId, TcgCard, load_cards
from cardkit.games.berserk_tcg.cities import ROYAL, City, CityName, has_won, lay_out, reveal, revealed_count, take
from cardkit.games.berserk_tcg.payment import all_payments
from cardkit.games.berserk_tcg.state import HAND_LIMIT, PlayerState, can_open
from cardkit.games.readings import reading
from cardkit.problems import Problem, error

GAME = "berserk-tcg"
FORMAT = "cardkit-tcg-game"
START_HAND = 7
PHASES: tuple[str, ...] = ("draw", "opening", "main", "discard")
ILLEGAL_ACTION = "ILLEGAL_ACTION"


class BadActionText(CardkitError):
    """The text is not a TCG action."""

    error_code = "BAD_ACTION"

    def __init__(self, text: str) -> None:
        shown = text if len(text) <= 80 else text[:80] + "..."
        super().__init__(f"not an action: {shown!r}; expected draw, pass, open ID [pay ID,ID], discard ID,ID, "
                         "move ID to CITY, attack CITY with ID,ID or end")


# --- actions --------------------------------------------------------------------------------------

_ID = r"[^\s,]+"


@dataclass(frozen=True)
class Move:
    """Set a character in a city its player controls, or move it from one such city to another."""

    card: CardId
    city: CityName

    def __str__(self) -> str:
        return f"move {self.card} to {self.city}"


@dataclass(frozen=True)
class Attack:
    """Attack a city with characters, in the order they take the defenders' blows."""

    city: CityName
    cards: tuple[CardId, ...]

    def __str__(self) -> str:
        return f"attack {self.city} with {','.join(self.cards)}"


@dataclass(frozen=True)
class End:
    def __str__(self) -> str:
        return "end"


Action = Union[solo.Draw, solo.Pass, solo.Open, solo.Discard, Move, Attack, End]
_MOVE = re.compile(rf"move ({_ID}) to (c\d)")
_ATTACK = re.compile(rf"attack (c\d) with ({_ID}(?:,{_ID})*)")


def parse(text: str) -> Action:
    """An action from its text; `BadActionText` when it is none."""
    clean = " ".join(text.split())
    if m := _MOVE.fullmatch(clean):
        return Move(m[1], m[2])
    if m := _ATTACK.fullmatch(clean):
        return Attack(m[1], tuple(m[2].split(",")))
    if clean == "end":
        return End()
    try:
        action = solo.Action.parse(clean)
    except solo.BadActionText:
        raise BadActionText(text) from None
    return action  # type: ignore[return-value]


# --- state ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Unit:
    """A card in play: where it stands (a city or None, the player's side), locked, damage this turn."""

    card: CardId
    city: CityName | None = None
    locked: bool = False
    damage: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "city": self.city, "locked": self.locked, "damage": self.damage}


@dataclass(frozen=True)
class Player:
    name: str
    library: tuple[CardId, ...]
    hand: tuple[CardId, ...] = ()
    trash: tuple[CardId, ...] = ()
    units: tuple[Unit, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "library": list(self.library), "hand": list(self.hand),
                "trash": list(self.trash), "units": [u.to_dict() for u in self.units]}


@dataclass(frozen=True)
class Game:
    """Both players, the cities, whose turn (0 or 1) and phase, and what this turn has used."""

    cards: Mapping[CardId, TcgCard]
    stats: Mapping[CardId, Mapping[str, Any]]
    players: tuple[Player, Player]
    cities: tuple[City, ...]
    active: int = 0
    phase: str = "opening"
    turn: int = 1
    opened: bool = False
    attacked: bool = False
    winner: int | None = None
    seed: int = 0

    def opponent(self) -> int:
        return 1 - self.active

    def city(self, name: CityName) -> City:
        for c in self.cities:
            if c.name == name:
                return c
        raise IllegalAction(f"no city {name}; the cities are {', '.join(c.name for c in self.cities)}")

    def player_state(self, p: int) -> PlayerState:
        """Player `p` as the one-player opening engine sees it."""
        me, them = self.players[p], self.players[1 - p]
        unique = frozenset(self.cards[u.card].name for u in them.units if self.cards[u.card].unique)
        return PlayerState(cards=self.cards, library=me.library, hand=me.hand, trash=me.trash,
                           in_play=tuple(u.card for u in me.units), cities=revealed_count(self.cities),
                           opponent_unique=unique, phase="opening")

    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "turn": self.turn, "active": self.active, "phase": self.phase,
                "opened": self.opened, "attacked": self.attacked, "winner": self.winner, "seed": self.seed,
                "cities": [c.to_dict() for c in self.cities], "players": [p.to_dict() for p in self.players]}

    def summary(self) -> dict[str, Any]:
        """The `state` of `tcg apply --json`: what both players see."""
        return {"turn": self.turn, "active": self.active, "phase": self.phase, "winner": self.winner,
                "revealed": revealed_count(self.cities), "cities": [c.public() for c in self.cities],
                "players": [{"name": p.name, "library": len(p.library), "hand": len(p.hand), "trash": len(p.trash),
                             "units": [u.to_dict() for u in p.units]} for p in self.players]}


@lru_cache(maxsize=1)
def _catalogue() -> tuple[Mapping[CardId, TcgCard], Mapping[CardId, Mapping[str, Any]]]:
    """The TCG cards as the opening rules and as battles see them, read once per process."""
    from cardkit.catalogue.store import load_game

    return load_cards(), dict(load_game(GAME).cards)


def new_game(decks: Sequence[Sequence[CardId]], names: Sequence[str] = ("player 1", "player 2"),
             seed: int = 0) -> Game:
    """Shuffle both decks (seeded), draw 7 each, lay out the cities face down; the first player skips its first draw."""
    cards, stats = _catalogue()
    rng = random.Random(seed)
    cities = lay_out({cid: c for cid, c in stats.items() if c.get("kind") == "city"}, rng)
    players = []
    for name, deck in zip(names, decks):
        order = [c for c in deck if not cards[c].is_city]
        rng.shuffle(order)
        players.append(Player(name, tuple(order[START_HAND:]), tuple(order[:START_HAND])))
    return Game(cards, stats, (players[0], players[1]), cities, seed=seed)


def from_dict(data: Any, source: str = "<state>") -> Game:
    """A game read back from `to_dict`; `UnreadableInput` naming what is wrong."""
    cards, stats = _catalogue()
    try:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a TCG game state (\"format\": \"{FORMAT}\")")

        def ids(values: Any) -> tuple[CardId, ...]:
            bad = [v for v in values if v not in cards]
            if bad:
                raise ValueError(f"unknown card {str(bad[0])[:40]!r}")
            return tuple(values)

        players = tuple(Player(str(p["name"]), ids(p["library"]), ids(p["hand"]), ids(p["trash"]),
                               tuple(Unit(ids([u["card"]])[0], u["city"], bool(u["locked"]), int(u["damage"]))
                                     for u in p["units"])) for p in data["players"])
        cities = tuple(City(str(c["city"]), ids([c["card"]])[0], bool(c["royal"]), bool(c["revealed"]),
                            c["level"], c["controller"]) for c in data["cities"])
        if len(players) != 2 or data["active"] not in (0, 1) or data["phase"] not in PHASES:
            raise ValueError("expected two players, an active player 0 or 1 and a known phase")
        if data["winner"] not in (None, 0, 1) or isinstance(data["active"], bool) \
                or any(c.controller not in (None, 0, 1) or not (c.level is None or type(c.level) is int) for c in cities):
            raise ValueError("a winner, controller or Level that is not a player 0 or 1 or a whole number")
        if len(cities) != 5 or len({c.name for c in cities}) != 5 or any(u.damage < 0 for p in players for u in p.units):
            raise ValueError("expected five differently named cities and no negative damage")
        names = {c.name for c in cities}
        if any(u.city is not None and u.city not in names for p in players for u in p.units):
            raise ValueError("a unit stands in a city that does not exist")
        _check_cards_in_place(players, cities, cards, stats)
        return Game(cards, stats, (players[0], players[1]), cities, data["active"], data["phase"], int(data["turn"]),
                    bool(data["opened"]), bool(data["attacked"]), data["winner"], int(data["seed"]))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        reason = str(exc) if isinstance(exc, ValueError) else f"missing or malformed field {exc}"
        raise UnreadableInput(source, reason[:200]) from None


def _check_cards_in_place(players: Sequence[Player], cities: Sequence[City], cards: Mapping[CardId, TcgCard],
                          stats: Mapping[CardId, Mapping[str, Any]]) -> None:
    """`ValueError` for a state no game reaches: a state file is such a state or it is unreadable.

    Cities are the five city cards laid out beside the decks, one of them royal ("the royal city
    and two normal cities win"); they never enter a hand, library or trash. A unit in play is a
    card that stays in play once opened (a character or an eternal effect, never a normal effect:
    "you play the card, its effect occurs, then you trash it"), and only a character (power and
    hp printed) stands in a city, since only characters move and fight.
    """
    def is_city(card: CardId) -> bool:
        return stats[card].get("kind") == "city"

    for city in cities:
        if not is_city(city.card):
            raise ValueError(f"city {city.name[:40]!r} is card {city.card}, which is not a city card")
        if city.royal != (ROYAL in (stats[city.card].get("subtypes") or ())):
            raise ValueError(f"city {city.name[:40]!r} says royal: {str(city.royal).lower()}, but its card {city.card} "
                             f"{'is not' if city.royal else 'is'} the royal city")
    if len({c.card for c in cities}) != len(cities) or sum(c.royal for c in cities) != 1:
        raise ValueError("expected five different city cards, exactly one of them royal")
    for player in players:
        for zone, held in (("hand", player.hand), ("library", player.library), ("trash", player.trash)):
            misplaced = [c for c in held if is_city(c)]
            if misplaced:
                raise ValueError(f"city card {misplaced[0]} is in {player.name[:40]!r}'s {zone}; cities are never in a hand, "
                                 "library or trash")
        for unit in player.units:
            s = stats[unit.card]
            character = s.get("kind") == "character" and s.get("power") is not None and s.get("hp") is not None
            if is_city(unit.card) or not cards[unit.card].stays_in_play:
                raise ValueError(f"{unit.card} is in play as a unit of {player.name[:40]!r}, but a {s.get('kind')} card "
                                 "never stays in play")
            if unit.city is not None and not character:
                raise ValueError(f"{unit.card} of {player.name[:40]!r} stands in city {unit.city[:40]!r}, but only "
                                 f"characters stand in cities (it is a {s.get('kind')} card)")


# --- rules ----------------------------------------------------------------------------------------

Event = dict[str, Any]


def _set_player(game: Game, p: int, player: Player) -> Game:
    players = list(game.players)
    players[p] = player
    return replace(game, players=(players[0], players[1]))


def _is_character(game: Game, card: CardId) -> bool:
    s = game.stats[card]
    return s.get("kind") == "character" and s.get("power") is not None and s.get("hp") is not None


def _pick(game: Game, units: list[Unit], card: CardId, taken: set[int], city: CityName | None = None) -> int:
    """Index of an unlocked unit of `card` not yet `taken`: on the player's side first, then city by city."""
    found = [i for i, u in enumerate(units) if u.card == card and not u.locked and i not in taken
             and (city is None or u.city != city)]
    if not found:
        held = [u for u in units if u.card == card]
        why = "is locked until its player's next unlocking phase" if held else "is not in play on this side"
        raise IllegalAction(f"{card} {why}")
    found.sort(key=lambda i: (units[i].city is not None, units[i].city or ""))
    return found[0]


def _draw(player: Player, n: int) -> tuple[Player, int]:
    got = player.library[:n]
    return replace(player, library=player.library[n:], hand=player.hand + got), len(got)


def _begin_turn(game: Game) -> Game:
    """The next player's unlocking phase (all its cards unlock), then its drawing phase."""
    nxt = game.opponent()
    player = game.players[nxt]
    player = replace(player, units=tuple(replace(u, locked=False) for u in player.units))
    return replace(_set_player(game, nxt, player), active=nxt, phase="draw", turn=game.turn + 1,
                   opened=False, attacked=False)


def _check_phase(game: Game, action: Action, *phases: str) -> None:
    if game.winner is not None:
        raise IllegalAction(f"the game is over: {game.players[game.winner].name} won")
    if game.phase not in phases:
        raise IllegalAction(f"not legal in the {game.phase} phase")


def _do_draw(game: Game, action: solo.Draw) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "draw")
    me = game.players[game.active]
    if not me.library:
        winner = game.opponent()
        return replace(game, winner=winner), [{"kind": "won", "player": winner, "text":
                                               f"{me.name} cannot draw and loses; {game.players[winner].name} wins"}]
    player, _ = _draw(me, 1)
    return replace(_set_player(game, game.active, player), phase="opening"), [
        {"kind": "drew", "player": game.active, "text": f"{me.name} draws"}]


def _do_open(game: Game, action: solo.Open) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "opening")
    if game.opened:
        raise IllegalAction("one card is opened in the opening phase")
    state = game.player_state(game.active)
    check = can_open(action.card, state) if action.card in game.cards else None
    if check is None or not check.ok:
        raise IllegalAction("; ".join(r.message for r in check.reasons) if check else f"no card {action.card}")
    try:
        after = solo.apply(state, action)
    except solo.IllegalAction:
        raise IllegalAction(f"{','.join(action.pay) or 'nothing'} does not pay for {action.card}") from None
    me = game.players[game.active]
    units = me.units + ((Unit(action.card),) if len(after.in_play) > len(state.in_play) else ())
    player = replace(me, hand=after.hand, trash=after.trash, units=units)
    return replace(_set_player(game, game.active, player), opened=True, phase="main"), [
        {"kind": "opened", "player": game.active, "card": action.card,
         "text": f"{me.name} opens {game.cards[action.card].name} ({action.card})"}]


def _do_move(game: Game, action: Move) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "main")
    city = game.city(action.city)
    if city.controller != game.active:
        raise IllegalAction(f"{action.city} is not controlled by {game.players[game.active].name}: attack it to take it")
    if action.card not in game.cards or not _is_character(game, action.card):
        raise IllegalAction(f"{action.card} is not a character")
    me = game.players[game.active]
    units = list(me.units)
    i = _pick(game, units, action.card, set(), city=action.city)
    unit = units[i]
    between = unit.city is not None
    if between and int(game.stats[action.card].get("movement") or 0) < 1:
        raise IllegalAction(f"{action.card} has no Move value to move from one city to another")
    # "When a character card attacks a city, or moves from one to another ... you have to Lock it"
    lock = between or bool(reading(GAME, "set_in_city_locks"))
    units[i] = replace(unit, city=action.city, locked=lock)
    where = f"from {unit.city} " if between else ""
    return _set_player(game, game.active, replace(me, units=tuple(units))), [
        {"kind": "moved", "player": game.active, "card": action.card, "city": action.city,
         "text": f"{game.cards[action.card].name} moves {where}to {action.city}" + (", locked" if lock else "")}]


def _fighter(game: Game, unit: Unit) -> Fighter:
    s = game.stats[unit.card]
    return Fighter(unit.card, s["name"], int(s["power"]), int(s["hp"]), int(s.get("range") or 0), unit.damage)


def _do_attack(game: Game, action: Attack) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "main")
    if game.attacked:
        raise IllegalAction("You can only attack once each turn.")
    city = game.city(action.city)
    if city.controller == game.active:
        raise IllegalAction(f"{action.city} is already yours: you can't attack a city you occupy")
    me, them = game.players[game.active], game.players[game.opponent()]
    mine = list(me.units)
    chosen: list[int] = []
    for card in action.cards:
        if card not in game.cards or not _is_character(game, card):
            raise IllegalAction(f"{card} is not a character")
        chosen.append(_pick(game, mine, card, set(chosen)))
    events: list[Event] = []
    cities = game.cities
    if not city.revealed:
        cities = reveal(cities, city.name)
        shown = next(c for c in cities if c.name == city.name)
        events.append({"kind": "revealed", "city": city.name, "card": shown.card, "level": shown.level,
                       "text": f"{city.name} is revealed: {game.stats[shown.card]['name']}, Level {shown.level}"})
    theirs = list(them.units)
    # the defenders: the city's guards that are not locked (reading `defenders`)
    guards = [i for i, u in enumerate(theirs) if u.city == city.name and not u.locked] \
        if city.controller == game.opponent() else []
    result = fight([_fighter(game, mine[i]) for i in chosen], [_fighter(game, theirs[i]) for i in guards])
    names = {f.id: f.name for f in (*result.attackers, *result.defenders)}
    events += [{"kind": "strike", "text": s.describe(names), **s.to_dict()} for s in result.steps]
    for i, f in zip(chosen, result.attackers):
        mine[i] = replace(mine[i], locked=True, damage=f.damage)
    for i, f in zip(guards, result.defenders):
        theirs[i] = replace(theirs[i], damage=f.damage)
    won = result.attacker_wins
    if won:
        cities = take(cities, city.name, game.active)
        for i in chosen:
            mine[i] = replace(mine[i], city=city.name)
        # locked guards did not defend; they leave the city to their player's side
        theirs = [replace(u, city=None) if u.city == city.name else u for u in theirs]
    me = _bury(game, me, mine)
    them = _bury(game, them, theirs)
    game = replace(_set_player(_set_player(game, game.active, me), game.opponent(), them), cities=cities, attacked=True)
    if won:
        player, n = _draw(game.players[game.active], int(reading(GAME, "taking_city_draw")))
        game = _set_player(game, game.active, player)
        events.append({"kind": "took", "player": game.active, "city": city.name,
                       "text": f"{player.name} takes {city.name} and draws {n}"})
        if has_won(game.cities, game.active):
            game = replace(game, winner=game.active)
            events.append({"kind": "won", "player": game.active,
                           "text": f"{player.name} holds the royal city and 2 normal cities and wins"})
    else:
        events.append({"kind": "held", "city": city.name,
                       "text": f"{city.name} is not taken" + (": the defender wins" if guards else "")})
    return game, events


def _bury(game: Game, player: Player, units: list[Unit]) -> Player:
    """Characters whose damage reached their HP go to the trash; the rest stay in play."""
    dead = [u for u in units if _is_character(game, u.card) and u.damage >= int(game.stats[u.card]["hp"])]
    alive = tuple(u for u in units if not (_is_character(game, u.card) and u.damage >= int(game.stats[u.card]["hp"])))
    return replace(player, units=alive, trash=player.trash + tuple(u.card for u in dead))


def _do_end(game: Game, action: End | solo.Pass) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "opening", "main")
    if isinstance(action, solo.Pass) and game.phase == "opening":
        return replace(game, phase="main"), []
    if isinstance(action, solo.Pass):
        raise IllegalAction("pass ends the opening phase; the turn ends with `end`")
    # "During the Ending phase, the damages dealt and that didn't send a card to the Trash are healed"
    healed = tuple(replace(p, units=tuple(replace(u, damage=0) for u in p.units)) for p in game.players)
    game = replace(game, players=(healed[0], healed[1]))
    me = game.players[game.active]
    events: list[Event] = [{"kind": "ended", "player": game.active, "text": f"{me.name} ends the turn"}]
    if len(me.hand) > HAND_LIMIT:
        return replace(game, phase="discard"), events
    return _begin_turn(game), events


def _do_discard(game: Game, action: solo.Discard) -> tuple[Game, list[Event]]:
    _check_phase(game, action, "discard")
    me = game.players[game.active]
    hand = list(me.hand)
    if len(hand) - len(action.cards) != HAND_LIMIT:
        raise IllegalAction(f"the hand holds {len(hand)} cards: discard exactly {len(hand) - HAND_LIMIT}")
    for c in action.cards:
        if c not in hand:
            raise IllegalAction(f"{c} is not in the hand")
        hand.remove(c)
    game = _set_player(game, game.active, replace(me, hand=tuple(hand), trash=me.trash + action.cards))
    return _begin_turn(game), [{"kind": "discarded", "player": game.active, "text": f"{me.name} discards {action}"}]


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """The game after `action` and what happened; `IllegalAction` saying why when it is not legal."""
    if isinstance(action, solo.Draw):
        return _do_draw(game, action)
    if isinstance(action, solo.Open):
        return _do_open(game, action)
    if isinstance(action, Move):
        return _do_move(game, action)
    if isinstance(action, Attack):
        return _do_attack(game, action)
    if isinstance(action, solo.Discard):
        return _do_discard(game, action)
    return _do_end(game, action)


def is_legal(game: Game, action: Action) -> bool:
    try:
        apply(game, action)
    except IllegalAction:
        return False
    return True


def legal_actions(game: Game) -> Iterator[Action]:
    """Every legal action, lazily: each open with each distinct payment, each attack with every group."""
    if game.winner is not None:
        return
    if game.phase == "draw":
        yield solo.Draw()
        return
    if game.phase == "discard":
        hand = game.players[game.active].hand
        for combo in sorted(set(combinations(sorted(hand), len(hand) - HAND_LIMIT))):
            yield solo.Discard(combo)
        return
    if game.phase == "opening":
        state = game.player_state(game.active)
        if not game.opened:
            for card in dict.fromkeys(state.hand):
                if can_open(card, state).ok:
                    rest = list(state.hand)
                    rest.remove(card)
                    for pay in all_payments(game.cards[card].cost, [game.cards[c] for c in rest]):
                        yield solo.Open(card, pay)
        yield solo.Pass()
        yield End()
        return
    me = game.players[game.active]
    ready = [u for u in me.units if not u.locked and _is_character(game, u.card)]
    for u in dict.fromkeys(ready):
        for city in game.cities:
            action = Move(u.card, city.name)
            if city.controller == game.active and u.city != city.name and is_legal(game, action):
                yield action
    if not game.attacked:
        fighters = sorted(u.card for u in ready)
        groups = sorted({g for n in range(1, len(fighters) + 1) for g in combinations(fighters, n)})
        for city in game.cities:
            if city.controller != game.active:
                for g in groups:
                    yield Attack(city.name, g)
    yield End()


@dataclass(frozen=True)
class ApplyResult:
    legal: bool
    problems: tuple[Problem, ...]
    events: tuple[Event, ...]
    game: Game

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "problems": [p.to_dict() for p in self.problems],
                "events": list(self.events), "state": self.game.summary()}


def apply_all(game: Game, texts: Sequence[str]) -> ApplyResult:
    """Apply action texts in order; the first illegal one stops the run with an ILLEGAL_ACTION problem."""
    parsed = [parse(t) for t in texts]
    events: list[Event] = []
    for i, action in enumerate(parsed, 1):
        try:
            game, new = apply(game, action)
        except IllegalAction as exc:
            return ApplyResult(False, (error(ILLEGAL_ACTION, f"{action}: {exc.message}", line=i, actual=str(action)),),
                               tuple(events), game)
        events.extend(new)
    return ApplyResult(True, (), tuple(events), game)


@dataclass(frozen=True)
class MatchDeck:
    """A deck brought to the table: its player (or file name), main deck one id per copy, what to warn about."""

    name: str
    cards: tuple[CardId, ...]
    warnings: tuple[str, ...] = ()


def read_match_deck(path: str) -> MatchDeck:
    """A Berserk TCG deck file for a game; cities are set aside, an illegal deck is played with a warning.

    `UnreadableInput` for a deck of another game or with card lines that do not resolve.
    """
    from pathlib import Path

    from cardkit.decks.legality import validate_deck
    from cardkit.decks.read import read_deck

    deck = read_deck(path)
    if deck.game != GAME:
        raise UnreadableInput(path, f"is a {deck.game} deck; a TCG game needs {GAME} decks")
    unresolved = [e.text for e in deck.entries if e.card is None]
    if unresolved:
        raise UnreadableInput(path, f"{len(unresolved)} card line(s) did not resolve, e.g. {unresolved[0][:40]!r}")
    cards, stats = _catalogue()
    main = [cid for cid, n in sorted(deck.section("main").items()) for _ in range(n)]
    warnings = []
    codes = sorted({p.code for p in validate_deck(deck) if p.is_error})
    if codes:
        warnings.append(f"{path} is not legal in {deck.format} ({', '.join(codes)}); playing it anyway")
    cities = sorted({c for c in main if cards[c].is_city})
    if cities:
        warnings.append(f"cities are never in a deck: set aside {', '.join(cities)}")
    return MatchDeck(deck.player or Path(path).stem, tuple(c for c in main if not cards[c].is_city), tuple(warnings))


def deck_cards(path: str) -> tuple[str, list[CardId]]:
    """`read_match_deck` as (player, card ids)."""
    deck = read_match_deck(path)
    return deck.name, list(deck.cards)


def describe(game: Game) -> str:
    """The table as text: the cities (face down as `?`), each player's cards in play and counts."""
    lines = []
    if game.winner is not None:
        lines.append(f"{game.players[game.winner].name} has won")
    else:
        lines.append(f"turn {game.turn}: {game.players[game.active].name} to play, {game.phase} phase; "
                     f"{revealed_count(game.cities)} cities revealed")
    for c in game.cities:
        face = f"{game.stats[c.card]['name']} (Level {c.level})" if c.revealed else "face down"
        held = f", held by {game.players[c.controller].name}" if c.controller is not None else ""
        lines.append(f"  {c.name}  {face}{held}")
    for i, p in enumerate(game.players):
        lines.append(f"{p.name}: hand {len(p.hand)}, library {len(p.library)}, trash {len(p.trash)}")
        for u in p.units:
            flags = "".join((f" in {u.city}" if u.city else " on its side", ", locked" if u.locked else "",
                             f", {u.damage} damage" if u.damage else ""))
            lines.append(f"  {u.card} {game.stats[u.card]['name']}{flags}")
    return "\n".join(lines)
