"""Applying TCG actions: `apply(game, action) -> (game, events)`, never changing its input.

Turn: unlocking (automatic), drawing (`draw`; the first player skips it on the
first turn), opening (`open CARD [pay ...]` once, or `pass`), main (moves, then
"lastly the battle announcement": `attack`, answered by the defender's `defend`),
ending (`end`: damage heals; a hand over 7 is cut with `discard`). A Quick card
opens at any time, as its owner's action, through the opening engine's `can_open`.
No action is legal once the game is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from cardkit.errors import IllegalAction
from cardkit.games.berserk_tcg.game.cities import has_won, reveal, take
from cardkit.games.berserk_tcg.game.notation import Action, Attack, Defend, Discard, Draw, End, Move, Open, Pass, Ref
from cardkit.games.berserk_tcg.game.state import GAME, Game, PendingAttack, Player, Unit, able_guards
from cardkit.games.berserk_tcg.opening.state import HAND_LIMIT, can_open, opened, trashed_on_entry
from cardkit.games.engine import Event
from cardkit.games.readings import reading

if TYPE_CHECKING:
    from cardkit.games.berserk_tcg.game.battle import Fighter


def set_player(game: Game, p: int, player: Player) -> Game:
    players = list(game.players)
    players[p] = player
    return replace(game, players=(players[0], players[1]))


def find_unit(game: Game, units: Sequence[Unit], ref: Ref, taken: set[int]) -> int:
    """Index of an unlocked character `ref` names, not yet `taken`; `IllegalAction` saying why there is none."""
    if ref.card not in game.cards or not game.is_character(ref.card):
        raise IllegalAction(f"{ref.card} is not a character")
    here = [i for i, u in enumerate(units) if u.card == ref.card and u.city == ref.city and i not in taken]
    free = [i for i in here if not units[i].locked]
    if free:
        return free[0]
    where = f"in {ref.city}" if ref.city else "on its player's side"
    if here:
        raise IllegalAction(f"{ref} is locked until its player's next unlocking phase")
    elsewhere = sorted({u.city or "its side" for u in units if u.card == ref.card})
    hint = f" (it stands in {', '.join(elsewhere)}: name it as `{ref.card} from CITY`)" if elsewhere else ""
    raise IllegalAction(f"no {ref.card} of this player stands {where}{hint}")


def _draw(player: Player, n: int) -> tuple[Player, int]:
    got = player.library[:n]
    return replace(player, library=player.library[n:], hand=player.hand + got), len(got)


def _begin_turn(game: Game) -> Game:
    """The next player's unlocking phase (all its cards unlock), then its drawing phase."""
    nxt = game.opponent()
    player = game.players[nxt]
    player = replace(player, units=tuple(replace(u, locked=False) for u in player.units))
    return replace(set_player(game, nxt, player), active=nxt, phase="draw", turn=game.turn + 1,
                   opened=False, attacked=False, attack=None)


def _in_phase(game: Game, action: Action, *phases: str) -> None:
    if game.phase not in phases:
        extra = ": the defender answers the attack first (defend CITY with ...)" if game.phase == "defend" else ""
        raise IllegalAction(f"not legal in the {game.phase} phase{extra}")


def _do_draw(game: Game, action: Draw) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "draw")
    me = game.players[game.active]
    if not me.library:
        winner = game.opponent()
        return replace(game, winner=winner), [{"kind": "won", "player": winner, "text":
                                               f"{me.name} cannot draw and loses; {game.players[winner].name} wins"}]
    player, _ = _draw(me, 1)
    return replace(set_player(game, game.active, player), phase="opening"), [
        {"kind": "drew", "player": game.active, "text": f"{me.name} draws"}]


def _do_open(game: Game, action: Open) -> tuple[Game, list[Event]]:
    """Any open, the opening phase's card or a Quick card at any time: `can_open` decides, as in `simulate`."""
    p = game.active if action.by is None else action.by
    if p != game.active and reading(GAME, "quick_any_time") != "either-player-any-phase":
        raise IllegalAction("a card opens only in its owner's turn (reading quick_any_time)")
    state = game.player_state(p)
    if action.card not in game.cards:
        raise IllegalAction(f"no card {action.card}")
    check = can_open(action.card, state)
    if not check.ok:
        raise IllegalAction("; ".join(r.message for r in check.reasons))
    after = opened(state, action.card, action.pay)
    if after is None:
        raise IllegalAction(f"{','.join(action.pay) or 'nothing'} does not pay for {action.card}")
    me = game.players[p]
    units = me.units + ((Unit(action.card),) if len(after.in_play) > len(state.in_play) else ())
    game = set_player(game, p, replace(me, hand=after.hand, trash=after.trash, units=units))
    if state.phase == "opening":
        game = replace(game, opened=True, phase="main")
    elif game.phase == "discard" and p == game.active and len(game.players[p].hand) <= HAND_LIMIT:
        # a Quick card opened while cutting the hand cut it enough: the turn ends as after the discard
        game = _begin_turn(game)
    events: list[Event] = [{"kind": "opened", "player": p, "card": action.card,
                            "text": f"{me.name} opens {game.cards[action.card].name} ({action.card})"}]
    if trashed_on_entry(game.cards[action.card], state):
        events.append({"kind": "trashed", "player": p, "card": action.card,
                       "text": f"{game.players[1 - p].name} has a Unique {game.cards[action.card].name} in play: "
                               f"{action.card} is trashed as it comes in game (reading unique_in_play)"})
    return game, events


def _do_move(game: Game, action: Move) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "main")
    if game.attacked and reading(GAME, "battle_announcement_last"):
        # "moving your characters, setting them in a city ..., and lastly the battle anouncement"
        raise IllegalAction("the battle was announced: it is the main phase's last step, no move comes after it")
    city = game.city(action.city)
    if city is None or city.controller != game.active:
        raise IllegalAction(f"{action.city} is not controlled by {game.players[game.active].name}: attack it to take it")
    if action.unit.city == action.city:
        raise IllegalAction(f"{action.unit} already stands in {action.city}")
    me = game.players[game.active]
    units = list(me.units)
    i = find_unit(game, units, action.unit, set())
    between = action.unit.city is not None
    if between and int(game.stats[action.unit.card].get("movement") or 0) < 1:
        raise IllegalAction(f"{action.unit.card} has no Move value to move from one city to another")
    # "When a character card attacks a city, or moves from one to another ... you have to Lock it"
    lock = between or bool(reading(GAME, "set_in_city_locks"))
    units[i] = replace(units[i], city=action.city, locked=lock)
    where = f"from {action.unit.city} " if between else ""
    return set_player(game, game.active, replace(me, units=tuple(units))), [
        {"kind": "moved", "player": game.active, "card": action.unit.card, "city": action.city,
         "text": f"{game.cards[action.unit.card].name} moves {where}to {action.city}" + (", locked" if lock else "")}]


def _do_attack(game: Game, action: Attack) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "main")
    if game.attacked:
        raise IllegalAction("You can only attack once each turn.")
    city = game.city(action.city)
    if city is None:
        raise IllegalAction(f"no city {action.city}")
    if city.controller == game.active:
        raise IllegalAction(f"{action.city} is already yours: you can't attack a city you occupy")
    units = game.players[game.active].units
    chosen: list[int] = []
    for ref in action.units:
        chosen.append(find_unit(game, units, ref, set(chosen)))
    events: list[Event] = []
    cities = game.cities
    if not city.revealed:
        cities = reveal(cities, city.name)
        shown = next(c for c in cities if c.name == city.name)
        events.append({"kind": "revealed", "city": city.name, "card": shown.card, "level": shown.level,
                       "text": f"{city.name} is revealed: {game.stats[shown.card]['name']}, Level {shown.level}"})
    game = replace(game, cities=cities, attacked=True)
    pending = PendingAttack(action.city, tuple(chosen))
    if not able_guards(game, action.city):
        resolved, more = _fight(game, pending, [])
        return resolved, events + more
    defender = game.players[game.opponent()].name
    events.append({"kind": "attacks", "city": action.city, "text": f"{game.players[game.active].name} attacks "
                   f"{action.city} with {', '.join(map(str, action.units))}; {defender} chooses its defenders"})
    return replace(game, phase="defend", attack=pending), events


def _do_defend(game: Game, action: Defend) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "defend")
    assert game.attack is not None  # the defend phase holds its attack (state.check)
    if action.city != game.attack.city:
        raise IllegalAction(f"the attack is on {game.attack.city}, not {action.city}")
    able = able_guards(game, action.city)
    theirs = game.players[game.opponent()].units
    chosen: list[int] = []
    for card in action.cards:
        pick = next((i for i in able if theirs[i].card == card and i not in chosen), None)
        if pick is None:
            raise IllegalAction(f"{card} is not one more able (unlocked) character of the defender in {action.city}")
        chosen.append(pick)
    return _fight(replace(game, phase="main", attack=None), game.attack, chosen)


def _fighter(game: Game, unit: Unit) -> Fighter:
    from cardkit.games.berserk_tcg.game.battle import Fighter  # as `fight`: only a battle loads the battle rules

    s = game.stats[unit.card]
    return Fighter(unit.card, s["name"], int(s["power"]), int(s["hp"]), int(s.get("range") or 0), unit.damage)


def _fight(game: Game, attack: PendingAttack, guards: list[int]) -> tuple[Game, list[Event]]:
    """The battle over `attack.city` between the attackers and the chosen `guards`, and what follows it."""
    from cardkit.games.berserk_tcg.game.battle import fight  # only a battle loads the battle rules

    me, them = game.players[game.active], game.players[game.opponent()]
    mine, theirs = list(me.units), list(them.units)
    result = fight([_fighter(game, mine[i]) for i in attack.attackers], [_fighter(game, theirs[i]) for i in guards])
    names = {f.id: f.name for f in (*result.attackers, *result.defenders)}
    events: list[Event] = [{"kind": "strike", "text": s.describe(names), **s.to_dict()} for s in result.steps]
    for i, f in zip(attack.attackers, result.attackers):
        mine[i] = replace(mine[i], locked=True, damage=f.damage)
    for i, f in zip(guards, result.defenders):
        theirs[i] = replace(theirs[i], damage=f.damage)
    won = result.attacker_wins
    cities = game.cities
    if won:
        cities = take(cities, attack.city, game.active)
        for i in attack.attackers:
            mine[i] = replace(mine[i], city=attack.city)
        # the guards that did not defend leave the city to their player's side
        theirs = [replace(u, city=None) if u.city == attack.city else u for u in theirs]
    game = set_player(set_player(game, game.active, _bury(game, me, mine)), game.opponent(), _bury(game, them, theirs))
    game = replace(game, cities=cities)
    if not won:
        events.append({"kind": "held", "city": attack.city,
                       "text": f"{attack.city} is not taken" + (": the defender wins" if guards else "")})
        return game, events
    player, n = _draw(game.players[game.active], int(reading(GAME, "taking_city_draw")))
    game = set_player(game, game.active, player)
    events.append({"kind": "took", "player": game.active, "city": attack.city,
                   "text": f"{player.name} takes {attack.city} and draws {n}"})
    if has_won(game.cities, game.active):
        game = replace(game, winner=game.active)
        events.append({"kind": "won", "player": game.active,
                       "text": f"{player.name} holds the royal city and 2 normal cities and wins"})
    return game, events


def _bury(game: Game, player: Player, units: list[Unit]) -> Player:
    """Characters whose damage reached their HP go to the trash; the rest stay in play."""
    def dead(u: Unit) -> bool:
        return game.is_character(u.card) and u.damage >= int(game.stats[u.card]["hp"])

    return replace(player, units=tuple(u for u in units if not dead(u)),
                   trash=player.trash + tuple(u.card for u in units if dead(u)))


def _do_end(game: Game, action: End | Pass) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "opening", "main")
    if isinstance(action, Pass):
        if game.phase != "opening":
            raise IllegalAction("pass ends the opening phase; the turn ends with `end`")
        return replace(game, phase="main"), []
    # "During the Ending phase, the damages dealt and that didn't send a card to the Trash are healed"
    healed = tuple(replace(p, units=tuple(replace(u, damage=0) for u in p.units)) for p in game.players)
    game = replace(game, players=(healed[0], healed[1]))
    me = game.players[game.active]
    events: list[Event] = [{"kind": "ended", "player": game.active, "text": f"{me.name} ends the turn"}]
    if len(me.hand) > HAND_LIMIT:
        return replace(game, phase="discard"), events
    return _begin_turn(game), events


def _do_discard(game: Game, action: Discard) -> tuple[Game, list[Event]]:
    _in_phase(game, action, "discard")
    me = game.players[game.active]
    hand = list(me.hand)
    if len(hand) - len(action.cards) != HAND_LIMIT:
        raise IllegalAction(f"the hand holds {len(hand)} cards: discard exactly {len(hand) - HAND_LIMIT}")
    for c in action.cards:
        if c not in hand:
            raise IllegalAction(f"{c} is not in the hand")
        hand.remove(c)
    game = set_player(game, game.active, replace(me, hand=tuple(hand), trash=me.trash + action.cards))
    return _begin_turn(game), [{"kind": "discarded", "player": game.active, "text": f"{me.name} discards {action}"}]


def apply(game: Game, action: Action) -> tuple[Game, list[Event]]:
    """The game after `action` and what happened; `IllegalAction` saying why when it is not legal."""
    if game.winner is not None:
        raise IllegalAction(f"the game is over: {game.players[game.winner].name} won; no action follows")
    if isinstance(action, Draw):
        return _do_draw(game, action)
    if isinstance(action, Open):
        return _do_open(game, action)
    if isinstance(action, Move):
        return _do_move(game, action)
    if isinstance(action, Attack):
        return _do_attack(game, action)
    if isinstance(action, Defend):
        return _do_defend(game, action)
    if isinstance(action, Discard):
        return _do_discard(game, action)
    return _do_end(game, action)
