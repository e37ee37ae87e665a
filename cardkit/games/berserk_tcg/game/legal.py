"""The legal TCG actions of a game, lazily and each text once.

Groups (attackers, defenders, discards) are distinct sub-multisets, generated one
at a time; attackers and defenders come in every distinct order, for the order
decides who takes the blows (reading `battle_damage_order`). Sixteen characters
make about 5.7e13 ordered attacking groups per city, so `moves` takes the first
ones it lists and stops, instead of building them all first.
"""

from __future__ import annotations

from collections.abc import Iterator

from cardkit.games.berserk_tcg.game.notation import Action, Attack, Defend, Discard, Draw, End, Move, Open, Pass, Ref
from cardkit.games.berserk_tcg.game.state import GAME, Game, able_guards
from cardkit.games.berserk_tcg.opening.payment import all_payments
from cardkit.games.berserk_tcg.opening.state import HAND_LIMIT, can_open
from cardkit.games.engine import distinct_combinations, distinct_orders
from cardkit.games.readings import reading


def opens(game: Game, p: int) -> Iterator[Open]:
    """Every card player `p` may open now (`can_open` decides the timing), with each distinct payment."""
    state = game.player_state(p)
    by = None if p == game.active else p
    for card in sorted(set(state.hand)):
        if can_open(card, state).ok:
            rest = list(state.hand)
            rest.remove(card)
            for pay in all_payments(game.cards[card].cost, [game.cards[c] for c in rest]):
                yield Open(card, pay, by)


def legal_actions(game: Game) -> Iterator[Action]:
    """Every legal action of either player now: the phase's actions, and each Quick card either may open."""
    if game.winner is not None:
        return
    me = game.players[game.active]
    if game.phase == "draw":
        yield Draw()
    elif game.phase == "discard":
        yield from (Discard(c) for c in distinct_combinations(me.hand, len(me.hand) - HAND_LIMIT))
    elif game.phase == "defend":
        assert game.attack is not None
        guards = [game.players[game.opponent()].units[i].card for i in able_guards(game, game.attack.city)]
        for n in range(len(guards) + 1):
            for group in distinct_combinations(guards, n):
                yield from (Defend(game.attack.city, order) for order in distinct_orders(group))
    elif game.phase == "opening":
        yield Pass()
        yield End()
    else:
        yield from _main(game)
        yield End()
    either = reading(GAME, "quick_any_time") == "either-player-any-phase"
    first, second = ((game.active, game.opponent()) if reading(GAME, "quick_priority") == "player-on-turn"
                     else (game.opponent(), game.active))
    for p in (first, second):
        if p == game.active or either:
            yield from opens(game, p)


def _main(game: Game) -> Iterator[Action]:
    if game.attacked:
        return
    me = game.players[game.active]
    ready = sorted({Ref(u.card, u.city) for u in me.units if not u.locked and game.is_character(u.card)},
                   key=lambda r: (r.card, r.city or ""))
    mine = [c.name for c in game.cities if c.controller == game.active]
    for ref in ready:
        if ref.city is not None and int(game.stats[ref.card].get("movement") or 0) < 1:
            continue
        yield from (Move(ref, city) for city in mine if city != ref.city)
    fighters = sorted((Ref(u.card, u.city) for u in me.units if not u.locked and game.is_character(u.card)),
                      key=lambda r: (r.card, r.city or ""))
    targets = [c.name for c in game.cities if c.controller != game.active]
    for n in range(1, len(fighters) + 1):
        for group in distinct_combinations(fighters, n):
            for order in distinct_orders(group):
                yield from (Attack(city, order) for city in targets)
