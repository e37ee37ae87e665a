"""Applying actions: `apply(state, action) -> (state, events)`, never changing its input.

An illegal action raises IllegalAction with the reason; `apply_all` turns that
into an ILLEGAL_ACTION problem and stops there, keeping the state before it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from typing import Any

from cardkit.errors import CardkitError
from cardkit.games.battle.combat import Exchange, strike_on_closed, strike_on_open
from cardkit.games.battle.legal import why_illegal
from cardkit.games.battle.notation import Action, AddCounters, Attack, Collect, End, Mark, Move, Pay, Ranged, Shoot, ToDeck
from cardkit.games.battle.rules import game_rules, ranged_melee_effect, reading, variable_shot_hit
from cardkit.games.battle.state import BattleState, CardInstance, Seat, other
from cardkit.problems import Problem, error

Event = dict[str, Any]


class IllegalAction(CardkitError):
    """The action is not legal in this state."""

    error_code = "ILLEGAL_ACTION"
    exit_code = 1

    def __init__(self, action: Action, reason: str) -> None:
        self.action = action
        self.reason = reason
        super().__init__(f"{action}: {reason}")


def _event(kind: str, text: str, **data: Any) -> Event:
    return {"event": kind, "text": text, **data}


def apply(state: BattleState, action: Action) -> tuple[BattleState, list[Event]]:
    """The state after `action` and what happened; IllegalAction (with the reason) when it is not legal."""
    why = why_illegal(state, action)
    if why is None:
        why = _missing_roll(action)
    if why is not None:
        raise IllegalAction(action, why)
    if isinstance(action, End):
        return _end(state)
    if isinstance(action, Move):
        return _move(state, action)
    if isinstance(action, Attack):
        return _attack(state, action)
    if isinstance(action, Ranged):
        return _ranged(state, action)
    if isinstance(action, Shoot):
        return _shoot(state, action)
    if isinstance(action, Collect):
        return _collect(state, action)
    return _adjust(state, action)


def _missing_roll(action: Action) -> str | None:
    if isinstance(action, Attack) and action.dice is None:
        return "an attack is applied with its roll: dice A D (open card or defender) or dice A (closed card)"
    if isinstance(action, Shoot) and not action.damage:
        return "a shot is applied with its damage from the card: X, or X-Y-Z with dice D"
    return None


def _get(state: BattleState, where: str) -> CardInstance:
    inst = state.locate(where)
    assert inst is not None  # why_illegal has found it
    return inst


def _label(state: BattleState, inst: CardInstance) -> str:
    return f"{state.info(inst).label} on {state.where(inst)}"


def _acted(state: BattleState, actor: CardInstance) -> BattleState:
    """ "Nach einer Aktion wird die betreffende Karte verdeckt und kann in diesem Zug keine weitere Bewegung oder Aktion mehr ausführen." """
    state = state.with_card(replace(_fresh(state, actor), open=False))
    return replace(state, acted=state.acted | {actor.iid})


def _fresh(state: BattleState, inst: CardInstance) -> CardInstance:
    found = state.by_id(inst.iid)
    assert found is not None
    return found


def _damage(state: BattleState, inst: CardInstance, amount: int, events: list[Event]) -> BattleState:
    """Take `amount` life; a card at 0 or less goes to the graveyard ("Leben ... Null oder kleiner")."""
    inst = _fresh(state, inst)
    if inst.zone not in ("battlefield", "reserve"):
        return state
    if amount:
        events.append(_event("damage", f"{_label(state, inst)} takes {amount}: life {inst.life} -> {inst.life - amount}",
                             card=inst.iid, amount=amount, life=inst.life - amount))
    inst = replace(inst, life=inst.life - amount)
    state = state.with_card(inst)
    if inst.life <= 0:
        events.append(_event("dies", f"{_label(state, inst)} is defeated and goes to the graveyard", card=inst.iid))
        for c in state.cards:
            if c.host == inst.iid:  # a symbiote cannot lie on a card that has gone
                state = state.with_card(replace(c, zone="graveyard", square=None, host=None))
        state = state.with_card(replace(inst, zone="graveyard", square=None))
    return state


def _reveal(state: BattleState, inst: CardInstance, events: list[Event], open_it: bool) -> BattleState:
    """Turn a hidden card face up (and open it when `open_it`); a revealed Online flyer leaves for the reserve."""
    inst = _fresh(state, inst)
    new = replace(inst, hidden=False, open=open_it or inst.open)
    if inst.hidden:
        events.append(_event("revealed", f"{_label(state, inst)} is revealed", card=inst.iid))
    if new.zone == "battlefield" and state.info(new).flyer and game_rules(state.game).flyers_start_on_field:
        events.append(_event("to_reserve", f"{_label(state, inst)} flies: it leaves the field for the reserve zone", card=inst.iid))
        new = replace(new, zone="reserve", square=None)
    return state.with_card(new)


def _move(state: BattleState, action: Move) -> tuple[BattleState, list[Event]]:
    from cardkit.games.battle.legal import reachable

    actor = _get(state, action.actor)
    assert actor.square is not None
    steps = reachable(state, actor.square, 99)[action.to]
    moved = replace(actor, square=action.to)
    new = state.with_card(moved)
    for c in state.cards:
        if c.host == actor.iid:
            new = new.with_card(replace(c, square=action.to))
    used = dict(state.steps_used)
    used[actor.iid] = used.get(actor.iid, 0) + steps
    new = replace(new, steps_used=tuple(sorted(used.items())))
    return new, [_event("move", f"{state.info(actor).label} moves {actor.square} -> {action.to} ({steps} step(s))",
                        card=actor.iid, to=action.to, steps=steps)]


def _attack(state: BattleState, action: Attack) -> tuple[BattleState, list[Event]]:
    actor, target = _get(state, action.actor), _get(state, action.target)
    events: list[Event] = []
    notes: list[str] = []
    assert action.dice is not None
    strike = state.info(actor).strike
    assert strike is not None
    if target.hidden:
        # "Ist dies der Fall, muss der zweite Spieler die angegriffene Karte aufdecken."
        state = _reveal(state, target, events, open_it=False)
        target = _fresh(state, target)
        notes.append(reading("hidden_third_row").note)
    hit_card = target
    if action.defender is not None:
        hit_card = _get(state, action.defender)
        ex = strike_on_open(strike, state.info(hit_card).strike, action.dice[0], action.dice[1])
        how = f"the defender of {_label(state, target)}"
    elif target.open and action.kind != "magic":
        ex = strike_on_open(strike, state.info(target).strike, action.dice[0], action.dice[1])
        how = "open card"
    else:
        ex = strike_on_closed(strike, action.dice[0])
        how = "magic strike, as on a closed card" if action.kind == "magic" else "closed card, one die"
        notes.append(reading("closed_target_die").note)
    if action.kind != "simple":
        notes.append(reading(f"{action.kind}_strike").note)
        how = f"{action.kind} strike, {how}" if action.kind == "aimed" else how
    events.append(_strike_event(state, actor, hit_card, action.dice, ex, how))
    state = _acted(state, actor)
    if action.defender is not None:
        # "Der Verteidiger führt wie eine offene Karte einen Gegenschlag aus (s. Übersicht) und wird anschließend verdeckt."
        state = state.with_card(replace(_fresh(state, hit_card), open=False))
    state = _damage(state, hit_card, ex.to_defender, events)
    state = _damage(state, actor, ex.to_attacker, events)
    return _noted(state, notes), events


def _strike_event(state: BattleState, actor: CardInstance, target: CardInstance, dice: tuple[int, ...],
                  ex: Exchange, how: str) -> Event:
    roll = ":".join(map(str, dice))
    text = (f"{_label(state, actor)} strikes {_label(state, target)} ({how}), dice {roll}: "
            f"{ex.attacker_hit} {ex.to_defender} / counter-strike {ex.defender_hit} {ex.to_attacker}")
    return _event("strike", text, attacker=actor.iid, defender=target.iid, dice=list(dice),
                  attacker_hit=ex.attacker_hit, defender_hit=ex.defender_hit,
                  to_defender=ex.to_defender, to_attacker=ex.to_attacker)


def _ranged(state: BattleState, action: Ranged) -> tuple[BattleState, list[Event]]:
    actor, target = _get(state, action.actor), _get(state, action.target)
    effect = ranged_melee_effect()
    events = [_event("ranged", f"{_label(state, actor)} strikes {_label(state, target)} over one square: {effect}",
                     attacker=actor.iid, defender=target.iid, to_defender=effect)]
    state = _acted(state, actor)
    if target.hidden:
        state = _reveal(state, target, events, open_it=False)
    state = _damage(state, target, effect, events)
    return _noted(state, [reading("ranged_melee").note]), events


def _shoot(state: BattleState, action: Shoot) -> tuple[BattleState, list[Event]]:
    actor, target = _get(state, action.actor), _get(state, action.target)
    notes = [reading("shot_range").note]
    if len(action.damage) == 3:
        assert action.die is not None
        hit = variable_shot_hit(action.die)
        amount = action.damage[("weak", "medium", "strong").index(hit)] if hit != "miss" else 0
        notes.append(reading("variable_shot_die").note)
    else:
        amount = action.damage[0]
    events = [_event("shot", f"{_label(state, actor)} shoots {_label(state, target)}: {amount}",
                     attacker=actor.iid, defender=target.iid, to_defender=amount)]
    state = _acted(state, actor)
    if target.hidden:
        state = _reveal(state, target, events, open_it=False)
    state = _damage(state, target, amount, events)
    return _noted(state, notes), events


def _collect(state: BattleState, action: Collect) -> tuple[BattleState, list[Event]]:
    """ "zwei Runden lang verdeckt wird, wobei pro Runde eine Spielmarke hinzugefügt wird" (reading `collect`)."""
    inst = _get(state, action.actor)
    state = _acted(state, inst)
    new = replace(_fresh(state, inst), counters=inst.counters + 1)
    state = state.with_card(new)
    event = _event("collect", f"{_label(state, new)} closes and collects a counter: {inst.counters} -> {new.counters}",
                   card=inst.iid, counters=new.counters)
    return _noted(state, [reading("collect").note]), [event]


def _end(state: BattleState) -> tuple[BattleState, list[Event]]:
    """End the turn; at the start of the next "werden die verdeckten Karten des entsprechenden Spielers aufgedeckt"."""
    mover: Seat = other(state.to_move)
    state = replace(state, turn=state.turn + 1, to_move=mover, acted=frozenset(), steps_used=())
    events = [_event("turn", f"turn {state.turn}: the {mover} player", turn=state.turn, seat=mover)]
    for inst in list(state.cards):
        if inst.controller != mover or not inst.in_game_zone or inst.open:
            continue
        state = _reveal(state, inst, events, open_it=True)
        events.append(_event("opened", f"{_label(state, _fresh(state, inst))} opens", card=inst.iid))
        poison = inst.marker("poison")
        if poison:
            # "Vergiftung für X: Wirkung, bei der die betroffene Figur bei jedem Aufdecken X Leben verliert."
            events.append(_event("poison", f"{_label(state, _fresh(state, inst))} is poisoned for {poison}", card=inst.iid))
            state = _damage(state, inst, poison, events)
    if state.over:
        events.append(_event("over", f"the battle is over: {state.result}", result=state.result))
    return state, events


def _adjust(state: BattleState, action: Action) -> tuple[BattleState, list[Event]]:
    assert action.acting is not None
    inst = _get(state, action.acting)
    label = _label(state, inst)
    if isinstance(action, AddCounters):
        new = replace(inst, counters=inst.counters + action.n)
        return state.with_card(new), [_event("counters", f"{label}: counters {inst.counters} -> {new.counters}",
                                             card=inst.iid, counters=new.counters)]
    if isinstance(action, Pay):
        # "она теряет ровно столько фишек, сколько требуется для оплаты этого игродействия"
        new = replace(inst, counters=inst.counters - action.n)
        return state.with_card(new), [_event("pay", f"{label} pays {action.n} counter(s): {inst.counters} -> {new.counters}",
                                             card=inst.iid, counters=new.counters)]
    if isinstance(action, Mark):
        markers = dict(inst.markers)
        markers.pop(action.name, None)
        if action.n:
            markers[action.name] = action.n
        new = replace(inst, markers=tuple(sorted(markers.items())))
        return state.with_card(new), [_event("marker", f"{label}: {action.name} {action.n}", card=inst.iid)]
    assert isinstance(action, ToDeck)
    return _to_deck(state, inst)


def _to_deck(state: BattleState, inst: CardInstance) -> tuple[BattleState, list[Event]]:
    """ "она всегда попадает в колоду игрока – владельца этой карты. При этом она теряет все фишки, маркеры
    и приобретённые особенности. При последующем возвращении в игровую зону она будет считаться другой картой." """
    life = state.info(inst).life or 0
    new = CardInstance(iid=state.next_id, card=inst.card, owner=inst.owner, controller=inst.owner, zone="deck",
                       square=None, open=False, hidden=False, life=life)
    label = _label(state, inst)
    cards = [new if c.iid == inst.iid else c for c in state.cards]
    cards = [replace(c, zone="graveyard", square=None, host=None) if c.host == inst.iid else c for c in cards]
    state = replace(state, cards=tuple(cards), next_id=state.next_id + 1, acted=state.acted - {inst.iid},
                    steps_used=tuple(p for p in state.steps_used if p[0] != inst.iid))
    state = shuffle_deck(state, inst.owner)
    return state, [_event("to_deck", f"{label} goes into the {inst.owner} player's deck as #{new.iid}; the deck is shuffled",
                          card=inst.iid, new_id=new.iid)]


def shuffle_deck(state: BattleState, seat: Seat) -> BattleState:
    """The seat's deck in a new order, replayable from the state's seed and shuffle count."""
    slots = [i for i, c in enumerate(state.cards) if c.zone == "deck" and c.owner == seat]
    deck = [state.cards[i] for i in slots]
    random.Random(f"{state.seed}/{state.shuffles}").shuffle(deck)
    cards = list(state.cards)
    for i, c in zip(slots, deck):
        cards[i] = c
    return replace(state, cards=tuple(cards), shuffles=state.shuffles + 1)


def _noted(state: BattleState, notes: list[str]) -> BattleState:
    new = tuple(n for n in notes if n not in state.notes)
    return replace(state, notes=state.notes + new) if new else state


@dataclass
class ApplyResult:
    """What `battle apply` reports: the state reached, the events, and the problem that stopped it."""

    state: BattleState
    events: list[Event] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    applied: int = 0

    @property
    def legal(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "applied": self.applied, "problems": [p.to_dict() for p in self.problems],
                "events": self.events, "state": self.state.to_dict()}


def apply_all(state: BattleState, actions: list[Action]) -> ApplyResult:
    """Apply `actions` in order; stop at the first illegal one with an ILLEGAL_ACTION problem."""
    result = ApplyResult(state)
    for i, action in enumerate(actions):
        try:
            state, events = apply(state, action)
        except IllegalAction as exc:
            result.problems.append(error("ILLEGAL_ACTION", exc.message, line=i + 1, actual=str(action)))
            return result
        result.state, result.applied = state, i + 1
        result.events.extend(events)
    return result
