"""Applying actions: `apply(state, action) -> (state, events)`, never changing its input.

An illegal action raises IllegalAction with the reason; the engine protocol's
`apply_all` (`cardkit.games.squad_games.battle.engine.ENGINE`) turns that into an
ILLEGAL_ACTION problem and stops there, keeping the state before it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from cardkit.errors import IllegalAction
from cardkit.games.squad_games.battle.board import is_beside
from cardkit.games.squad_games.battle.combat import Exchange, strike_on_closed, strike_on_open, with_modifiers
from cardkit.games.squad_games.battle.legal import why_illegal
from cardkit.games.squad_games.battle.notation import (
    STACK_ACTIONS,
    Acquire,
    Action,
    AddCounters,
    Attack,
    Call,
    Collect,
    Deathblow,
    Discharge,
    End,
    FromGraveyard,
    Look,
    Mark,
    Move,
    Pay,
    Ranged,
    Shoot,
    TakeFromDeck,
    ToDeck,
)
from cardkit.games.squad_games.battle.rules import (
    beside_diagonally,
    game_rules,
    ranged_melee_effect,
    reading,
    variable_shot_hit,
)
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, Seat, other

Event = dict[str, Any]


def _event(kind: str, text: str, **data: Any) -> Event:
    return {"event": kind, "text": text, **data}


def apply(state: BattleState, action: Action) -> tuple[BattleState, list[Event]]:
    """The state after `action` and what happened; IllegalAction (with the reason) when it is not legal."""
    why = why_illegal(state, action)
    if why is None:
        why = _missing_roll(action)
    if why is not None:
        raise IllegalAction(why, action)
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
    if isinstance(action, Deathblow):
        return _deathblow(state, action)
    if isinstance(action, Collect):
        return _collect(state, action)
    if isinstance(action, STACK_ACTIONS):
        return _stack(state, action)
    return _adjust(state, action)


def _missing_roll(action: Action) -> str | None:
    if isinstance(action, Attack):
        unset = [name for name, value in action.mods if value is None]
        if action.surprise is not None and action.surprise.damage is None:
            unset.append(f"surprise {action.surprise.ability}")
        if unset:
            return f"write the card's number in place of X ({', '.join(unset)}): the catalogue does not carry it"
        if action.dice is None:
            return "an attack is applied with its roll: dice A D (open card or defender) or dice A (closed card)"
    if isinstance(action, Shoot) and not action.damage:
        zero = ", 0 when the card gives none" if isinstance(action, Discharge) else ""
        return f"a {action.verb} is applied with its damage from the card: X{zero}, or X-Y-Z with dice D"
    if isinstance(action, Deathblow) and action.x is None:
        return "a death blow is applied with the card's X: deathblow WHERE X"
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


LIFE_FLOOR = -1000
"""The lowest life a state records (schemas/battle-state.schema.json)."""


def _damage(state: BattleState, inst: CardInstance, amount: int, events: list[Event],
            regain: tuple[int, str] | None = None) -> BattleState:
    """Take `amount` life, and regain `regain` (X, the ability) at the same time; a card at 0 or less then goes to
    the graveyard ("Leben ... Null oder kleiner")."""
    inst = _fresh(state, inst)
    if inst.zone not in ("battlefield", "reserve"):
        return state
    if amount:
        events.append(_event("damage", f"{_label(state, inst)} takes {amount}: life {inst.life} -> {inst.life - amount}",
                             card=inst.iid, amount=amount, life=inst.life - amount))
    # The state file keeps life within -1000..1000: a card far below 0 is as defeated as one at -1000.
    inst = replace(inst, life=max(inst.life - amount, LIFE_FLOOR))
    state = state.with_card(inst)
    if regain is not None:
        # Vampirism: the attacker absorbs X "gleichzeitig" with its strike, so the counter-strike and the
        # absorbed life meet before the attacker is judged defeated (reading strike_modifiers).
        state = _heal(state, inst, regain[0], regain[1], events)
        inst = _fresh(state, inst)
    if inst.life <= 0:
        events.append(_event("dies", f"{_label(state, inst)} is defeated and goes to the graveyard", card=inst.iid))
        state = _leave_play(state, inst, replace(inst, zone="graveyard", square=None))
    return state


def _leave_play(state: BattleState, inst: CardInstance, gone: CardInstance) -> BattleState:
    """`inst` leaves the game zone as `gone` (itself in the graveyard, or a new instance in a deck), every path alike:
    a symbiote leaves the host it lay on, and a symbiote lying on `inst` goes to the graveyard, for it cannot lie
    on a card that has gone."""
    cards = [replace(gone, host=None) if c.iid == inst.iid else
             replace(c, zone="graveyard", square=None, host=None) if c.host == inst.iid else c for c in state.cards]
    return replace(state, cards=tuple(cards))


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
    from cardkit.games.squad_games.battle.legal import reachable

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
    if action.surprise is not None:
        state = _surprise(state, action, actor, events, notes)
        if not _fresh(state, actor).in_game_zone:
            events.append(_event("strike_stopped", f"{state.info(actor).label} is defeated by the surprise action: "
                                 "its strike is not made", card=actor.iid, ability="surprise"))
            return _noted(state, notes), events
        target = _fresh(state, target)
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
    elif len(action.dice) == 2:
        ex = strike_on_open(strike, state.info(target).strike, action.dice[0], action.dice[1])
        how = "open card"
    else:
        ex = strike_on_closed(strike, action.dice[0])
        how = {"magic": "magic strike, as on a closed card",
               "nocounter": "without counter-strike, as on a closed card"}.get(action.kind, "closed card, one die")
        notes.append(reading("closed_target_die").note)
    if action.kind in ("aimed", "magic"):
        notes.append(reading(f"{action.kind}_strike").note)
        how = f"{action.kind} strike, {how}" if action.kind == "aimed" else how
    effect = strike_effect(state, actor, hit_card, action, ex.to_defender, ex.attacker_hit != "miss")
    notes += effect.notes
    events.append(_strike_event(state, actor, hit_card, action, ex, how, effect))
    state = _acted(state, actor)
    if action.defender is not None:
        # "Der Verteidiger führt wie eine offene Karte einen Gegenschlag aus (s. Übersicht) und wird anschließend verdeckt."
        state = state.with_card(replace(_fresh(state, hit_card), open=False))
    for text, ability in effect.said:
        events.append(_event("ability", text.format(target=_label(state, hit_card), attacker=_label(state, actor)),
                             card=hit_card.iid, ability=ability))
    state = _damage(state, hit_card, effect.to_defender, events)
    if effect.poison:
        state = _poison(state, hit_card, effect.poison, effect.codes.get("poison", "poison"), events)
    regain = (effect.heal, effect.codes.get("vampirism", "vampirism")) if effect.heal else None
    state = _damage(state, actor, ex.to_attacker, events, regain)
    return _noted(state, notes), events


@dataclass(frozen=True)
class StrikeEffect:
    """What a strike's kind, modifiers and the struck card's protections make of the strike's damage."""

    to_defender: int
    codes: dict[str, str]
    heal: int = 0
    poison: int = 0
    protected_by: str | None = None
    said: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def abilities(self) -> list[str]:
        return sorted(set(self.codes.values()) | ({self.protected_by} if self.protected_by else set()))


def strike_effect(state: BattleState, actor: CardInstance, hit: CardInstance, action: Attack, damage: int, landed: bool) -> StrikeEffect:
    """The damage, healing and poison of a strike whose dice gave `damage` (`landed`: not a miss).

    Vampirism X deals X in place of the strike's value and heals the attacker by X; +X adds X to it; poison X
    poisons the struck card (reading `strike_modifiers`). An incorporeal card takes no vampirism and no poison;
    a card protected from the strike takes nothing from it (reading `protected_target`).
    """
    codes = {name: _code(state, actor, "special" if name in ("plus", "nocounter") else name)
             for name in [n for n, _ in action.mods] + ([action.kind] if action.kind != "simple" else [])}
    said: list[tuple[str, str]] = []
    notes = [reading("strike_modifiers").note] if action.mods else []
    kind = "magic" if action.kind == "magic" else ("simple" if not action.special else None)
    protected = state.protection(hit, kind) if kind else None
    if protected:
        said.append((f"{{target}} is protected ({protected}): the strike does nothing to it", protected))
        return StrikeEffect(0, codes, protected_by=protected, said=tuple(said),
                            notes=tuple(notes + [reading("protected_target").note]))
    incorporeal = state.incorporeal(hit)
    poison = 0
    if action.has("vampirism") and incorporeal:
        said.append((f"vampirism does not act on {{target}}: it is incorporeal ({incorporeal})", codes["vampirism"]))
    damage, heal = with_modifiers(damage, landed, action.mod("plus"),
                                  action.mod("vampirism") if action.has("vampirism") else None, bool(incorporeal))
    if action.has("poison") and landed:
        guard = incorporeal or state.protection(hit, "poison")
        if guard:
            said.append((f"poison does not act on {{target}} ({guard})", codes["poison"]))
        else:
            poison = action.mod("poison") or 0
    return StrikeEffect(damage, codes, heal, poison, None, tuple(said), tuple(notes))


def _code(state: BattleState, inst: CardInstance, action: str) -> str:
    """The card's ability code that makes `action` legal, as events name it."""
    from cardkit.games.squad_games.battle.abilities import game_abilities

    table = game_abilities(state.game)
    return next((c for c in sorted(state.abilities(inst)) if (a := table.get(c)) and a.applied and a.action == action), action)


def _heal(state: BattleState, inst: CardInstance, amount: int, ability: str, events: list[Event]) -> BattleState:
    """Regain life, never above the printed life ("wiederhergestellt": restored, not raised)."""
    inst = _fresh(state, inst)
    top = state.info(inst).life
    if not inst.in_game_zone or top is None:
        return state
    # A card above its printed life (an effect of its own text, kept in the state) keeps it: a heal never takes life.
    new = max(inst.life, min(top, inst.life + amount))
    events.append(_event("heal", f"{_label(state, inst)} regains {new - inst.life} ({ability}): life {inst.life} -> {new}",
                         card=inst.iid, amount=new - inst.life, life=new, ability=ability))
    return state.with_card(replace(inst, life=new))


def _poison(state: BattleState, inst: CardInstance, amount: int, ability: str, events: list[Event]) -> BattleState:
    """Poison for X: the larger of the card's poison and X (poisons do not add up; reading `strike_modifiers`)."""
    inst = _fresh(state, inst)
    if not inst.in_game_zone:
        return state
    value = max(amount, inst.marker("poison"))
    markers = dict(inst.markers)
    markers["poison"] = value
    events.append(_event("poisoned", f"{_label(state, inst)} is poisoned for {value} ({ability})", card=inst.iid,
                         poison=value, ability=ability))
    return state.with_card(replace(inst, markers=tuple(sorted(markers.items()))))


def _surprise(state: BattleState, action: Attack, attacker: CardInstance, events: list[Event], notes: list[str]) -> BattleState:
    """ "Einsatz einer Überraschungsaktion": the answering card uses its ranged ability on the attacker before the dice."""
    assert action.surprise is not None and action.surprise.damage is not None
    answer = _get(state, action.surprise.actor)
    verb = action.surprise.ability
    events.append(_event("surprise", f"{_label(state, answer)} answers by surprise: {verb} {action.surprise.damage} "
                         f"on {_label(state, attacker)}", card=answer.iid, target=attacker.iid, ability=_code(state, answer, "surprise")))
    notes.append(reading("surprise_action").note)
    state = state.with_card(replace(_fresh(state, answer), open=False))
    return _ranged_hit(state, answer, attacker, verb, action.surprise.damage, events)


def _strike_event(state: BattleState, actor: CardInstance, target: CardInstance, action: Attack,
                  ex: Exchange, how: str, effect: StrikeEffect) -> Event:
    assert action.dice is not None
    roll = ":".join(map(str, action.dice))
    mods = "".join(f" {name} {value}" for name, value in action.mods)
    text = (f"{_label(state, actor)} strikes {_label(state, target)} ({how}{mods}), dice {roll}: "
            f"{ex.attacker_hit} {effect.to_defender} / counter-strike {ex.defender_hit} {ex.to_attacker}")
    abilities = effect.abilities
    return _event("strike", text, attacker=actor.iid, defender=target.iid, dice=list(action.dice),
                  attacker_hit=ex.attacker_hit, defender_hit=ex.defender_hit,
                  to_defender=effect.to_defender, to_attacker=ex.to_attacker,
                  ability=abilities[0] if len(abilities) == 1 else None, abilities=abilities)


def _ranged(state: BattleState, action: Ranged) -> tuple[BattleState, list[Event]]:
    actor, target = _get(state, action.actor), _get(state, action.target)
    effect = ranged_melee_effect()
    events = [_event("ranged", f"{_label(state, actor)} strikes {_label(state, target)} over one square: {effect}",
                     attacker=actor.iid, defender=target.iid, to_defender=effect, ability=_code(state, actor, "ranged"))]
    state = _acted(state, actor)
    if target.hidden:
        state = _reveal(state, target, events, open_it=False)
    state = _damage(state, target, effect, events)
    return _noted(state, [reading("ranged_melee").note]), events


# What each distant attack counts as for protections; a throw counts as none of them:
# "Schutz vor Schüssen und Entladungen wirkt nicht gegen Würfe".
_PROTECTED_AS = {"shoot": "shot", "discharge": "discharge", "throw": None}


def _shoot(state: BattleState, action: Shoot) -> tuple[BattleState, list[Event]]:
    """A shot, a throw or a discharge: X, or X-Y-Z picked by a die ("analog zum Schussschaden")."""
    actor, target = _get(state, action.actor), _get(state, action.target)
    notes = [reading("shot_range").note]
    if len(action.damage) == 3:
        assert action.die is not None
        hit = variable_shot_hit(action.die)
        amount = action.damage[("weak", "medium", "strong").index(hit)] if hit != "miss" else 0
        notes.append(reading("variable_shot_die").note)
    else:
        amount = action.damage[0]
    events: list[Event] = []
    state = _acted(state, actor)
    state = _ranged_hit(state, actor, target, action.verb, amount, events)
    return _noted(state, notes), events


def _ranged_hit(state: BattleState, actor: CardInstance, target: CardInstance, verb: str, amount: int,
                events: list[Event]) -> BattleState:
    """`actor`'s shot, throw or discharge of `amount` on `target`; a protected target takes nothing, a hidden one is revealed."""
    code = _code(state, actor, verb)
    words = {"shoot": "shoots", "throw": "throws at", "discharge": "discharges at"}[verb]
    kind = _PROTECTED_AS[verb]
    protected = state.protection(target, kind) if kind else None
    events.append(_event({"shoot": "shot"}.get(verb, verb), f"{_label(state, actor)} {words} {_label(state, target)}: "
                         f"{0 if protected else amount}", attacker=actor.iid, defender=target.iid,
                         to_defender=0 if protected else amount, ability=code))
    if target.hidden:
        state = _reveal(state, target, events, open_it=False)
    if protected:
        events.append(_event("ability", f"{_label(state, _fresh(state, target))} is protected ({protected}): "
                             f"the {verb if verb != 'shoot' else 'shot'} does nothing to it", card=target.iid, ability=protected))
        return _noted(state, [reading("protected_target").note])
    return _damage(state, target, amount, events)


def _deathblow(state: BattleState, action: Deathblow) -> tuple[BattleState, list[Event]]:
    """ "Todesstoß: X": every card next to the actor left with X life or less is destroyed (reading `death_blow`),
    save incorporeal figures and symbiotes."""
    actor = _get(state, action.actor)
    assert action.x is not None and actor.square is not None
    code = _code(state, actor, "deathblow")
    events = [_event("deathblow", f"{_label(state, actor)} deals a death blow of {action.x}", card=actor.iid, x=action.x,
                     ability=code)]
    around = [c for c in state.cards if c.zone == "battlefield" and c.square and c.iid != actor.iid
              and is_beside(actor.square, c.square, beside_diagonally()) and state.info(c).life is not None]
    state = _acted(state, actor)
    for c in around:
        spared = "a symbiote" if state.info(c).symbiote else (
            f"incorporeal ({state.incorporeal(c)})" if state.incorporeal(c) else None)
        if c.life > action.x:
            continue
        if spared:
            events.append(_event("ability", f"{_label(state, c)} is {spared}: the death blow does not act on it",
                                 card=c.iid, ability=code))
            continue
        events.append(_event("destroyed", f"{_label(state, c)} has {c.life} life left: destroyed by the death blow",
                             card=c.iid, ability=code))
        state = _damage(state, c, c.life, events)
    return _noted(state, [reading("death_blow").note]), events


def _collect(state: BattleState, action: Collect) -> tuple[BattleState, list[Event]]:
    """ "zwei Runden lang verdeckt wird, wobei pro Runde eine Spielmarke hinzugefügt wird" (reading `collect`)."""
    inst = _get(state, action.actor)
    state = _acted(state, inst)
    new = replace(_fresh(state, inst), counters=inst.counters + 1)
    state = state.with_card(new)
    event = _event("collect", f"{_label(state, new)} closes and collects a counter: {inst.counters} -> {new.counters}",
                   card=inst.iid, counters=new.counters, ability=_code(state, inst, "collect"))
    return _noted(state, [reading("collect").note]), [event]


def _end(state: BattleState) -> tuple[BattleState, list[Event]]:
    """End the turn; at the start of the next "werden die verdeckten Karten des entsprechenden Spielers aufgedeckt"."""
    mover: Seat = other(state.to_move)
    state = replace(state, turn=state.turn + 1, to_move=mover, acted=frozenset(), steps_used=())
    events = [_event("turn", f"turn {state.turn}: the {mover} player", turn=state.turn, seat=mover)]
    for inst in list(state.cards):
        if inst.controller != mover or not inst.in_game_zone or inst.open:
            continue
        if inst.marker(KEPT_CLOSED):
            # "Wird die betroffene Figur ... zu Beginn der Runde nicht aufgedeckt, so wirkt auch die Vergiftung nicht."
            markers = tuple(m for m in inst.markers if m[0] != KEPT_CLOSED)
            state = state.with_card(replace(inst, markers=markers))
            events.append(_event("kept_closed", f"{_label(state, inst)} is kept from opening; poison does not act",
                                 card=inst.iid))
            continue
        state = _reveal(state, inst, events, open_it=True)
        events.append(_event("opened", f"{_label(state, _fresh(state, inst))} opens", card=inst.iid))
        poison = inst.marker("poison")
        if poison:
            # "Vergiftung für X: Wirkung, bei der die betroffene Figur bei jedem Aufdecken X Leben verliert."
            events.append(_event("poison", f"{_label(state, _fresh(state, inst))} is poisoned for {poison}", card=inst.iid,
                                 ability=_poison_code(state.game)))
            state = _damage(state, inst, poison, events)
    state = _regenerate(state, mover, events)
    if state.over:
        events.append(_event("over", f"the battle is over: {state.result}", result=state.result))
    return state, events


KEPT_CLOSED = "kept_closed"
"""The marker a judge sets (`mark WHERE kept_closed 1`) when an opponent's effect keeps a card from opening."""


def _poison_code(game: str) -> str:
    """The game's code for poison (Online `poison`, tabletop `psn`), which a poison marker comes from."""
    from cardkit.games.squad_games.battle.abilities import codes_with

    return next(iter(codes_with(game, "poison")), "poison")


def _regenerate(state: BattleState, seat: Seat, events: list[Event]) -> BattleState:
    """At the start of the seat's turn each of its cards with regeneration regains X (reading `regeneration`)."""
    from cardkit.games.squad_games.battle.abilities import game_abilities

    regen = {a.code for a in game_abilities(state.game).values() if a.applied and a.kind == "start_of_turn"}
    for inst in list(state.cards):
        if inst.controller != seat or not inst.in_game_zone:
            continue
        code = next((c for c in sorted(state.abilities(inst)) if c in regen), None)
        if code is None:
            continue
        x = state.info(inst).value(code) or inst.marker("regen")
        top = state.info(inst).life
        if x and top is not None and inst.life < top:
            state = _heal(state, inst, x, code, events)
            state = _noted(state, [reading("regeneration").note])
    return state


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
    if isinstance(action, Acquire):
        acquired = tuple(c for c in inst.acquired if c != action.code) if action.remove else inst.acquired + (action.code,)
        new = replace(inst, acquired=acquired)
        verb = "loses" if action.remove else "acquires"
        return state.with_card(new), [_event("acquired", f"{label} {verb} {action.code}", card=inst.iid, ability=action.code,
                                             acquired=list(acquired))]
    assert isinstance(action, ToDeck)
    return _to_deck(state, inst)


def _to_deck(state: BattleState, inst: CardInstance) -> tuple[BattleState, list[Event]]:
    """ "она всегда попадает в колоду игрока – владельца этой карты. При этом она теряет все фишки, маркеры
    и приобретённые особенности. При последующем возвращении в игровую зону она будет считаться другой картой." """
    life = state.info(inst).life or 0
    new = CardInstance(iid=state.next_id, card=inst.card, owner=inst.owner, controller=inst.owner, zone="deck",
                       square=None, open=False, hidden=False, life=life)
    label = _label(state, inst)
    state = _leave_play(state, inst, new)
    state = replace(state, next_id=state.next_id + 1, acted=state.acted - {inst.iid},
                    steps_used=tuple(p for p in state.steps_used if p[0] != inst.iid))
    state = shuffle_deck(state, inst.owner)
    return state, [_event("to_deck", f"{label} goes into the {inst.owner} player's deck as #{new.iid}; the deck is shuffled",
                          card=inst.iid, new_id=new.iid)]


def _stack(state: BattleState, action: Action) -> tuple[BattleState, list[Event]]:
    """The judge's actions on decks and the graveyard (reading `returning_card`)."""
    from cardkit.games.squad_games.battle.legal import deck_top

    state = _noted(state, [reading("returning_card").note])
    if isinstance(action, Look):
        seat: Seat = "first" if action.seat == "first" else "second"
        deck = [c for c in state.cards if c.zone == "deck" and c.owner == seat]
        shown = ", ".join(f"#{c.iid} {state.info(c).label}" for c in deck) or "no cards"
        # "только владелец имеет право просматривать свою колоду ... После просмотра колода перемешивается."
        event = _event("look", f"the {seat} player looks at its deck (for its eyes only): {shown}; the deck is shuffled",
                       seat=seat, cards=[c.iid for c in deck])
        return shuffle_deck(state, seat), [event]
    if isinstance(action, TakeFromDeck):
        top = deck_top(state, action.seat)
        assert top is not None
        inst, to, how = top, action.to, f"the top card of the {action.seat} player's deck"
    else:
        assert isinstance(action, (Call, FromGraveyard))
        inst, to = _get(state, action.actor), action.to
        how = "called from its owner's deck" if isinstance(action, Call) else "back from the graveyard"
    was = inst.zone
    square = None if to == "reserve" else to
    new = replace(inst, zone="reserve" if square is None else "battlefield", square=square, open=False, hidden=False,
                  life=state.info(inst).life or 0, counters=0, markers=(), acquired=(), controller=inst.owner, host=None)
    state = state.with_card(new)
    events = [_event("enters", f"{state.info(inst).label} (#{inst.iid}), {how}, comes into the game zone on {to}, closed",
                     card=inst.iid, to=to, source=was)]
    if was == "deck":
        # "После того, как одно игродействие извлекает из колоды карту ... эта колода перемешивается."
        state = shuffle_deck(state, inst.owner)
        events.append(_event("shuffled", f"the {inst.owner} player's deck is shuffled", seat=inst.owner))
    return state, events


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
