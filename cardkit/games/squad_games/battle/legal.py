"""Which actions are legal: `why_illegal(state, action)` says why not, `legal_actions(state)` lists them.

The list holds attacks without their dice, and ability actions with the
placeholder X: a judge adds the roll and the card's numbers when applying one.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator

from cardkit.games.squad_games.battle.abilities import codes_with, game_abilities
from cardkit.games.squad_games.battle.board import (
    SQUARES,
    half_of,
    is_beside,
    is_square,
    neighbours,
    orthogonal_neighbours,
    straight_between,
)
from cardkit.games.squad_games.battle.notation import (
    MODIFIERS,
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
    Throw,
    ToDeck,
)
from cardkit.games.squad_games.battle.rules import beside_diagonally, ranged_melee_distance, strikes_diagonally
from cardkit.games.squad_games.battle.state import BattleState, CardInstance
from cardkit.visible import quoted


def reachable(state: BattleState, start: str, steps: int) -> dict[str, int]:
    """Empty squares reachable from `start` by at most `steps` orthogonal steps over empty squares, with their distance."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        sq = queue.popleft()
        if dist[sq] == steps:
            continue
        for nxt in orthogonal_neighbours(sq):
            if nxt not in dist and state.at(nxt) is None:
                dist[nxt] = dist[sq] + 1
                queue.append(nxt)
    del dist[start]
    return dist


def _card(state: BattleState, where: str, role: str) -> tuple[CardInstance | None, str | None]:
    inst = state.locate(where)
    if inst is None:
        return None, f"no card {'stands on' if is_square(where) else 'has id'} {where} ({role})"
    return inst, None


def _actor(state: BattleState, where: str) -> tuple[CardInstance | None, str | None]:
    """The card about to move or act, or why it may not do anything now."""
    inst, why = _card(state, where, "the acting card")
    if inst is None:
        return None, why
    label = state.info(inst).label
    if not inst.in_game_zone:
        return None, f"{label} is in the {inst.zone}, not in the game zone"
    if inst.controller != state.to_move:
        return None, f"{label} belongs to the {inst.controller} player; it is the {state.to_move} player's turn"
    if not inst.open:
        return None, f"{label} is closed: a closed card neither moves nor acts until its player's next turn"
    if inst.iid in state.acted:
        return None, f"{label} has acted this turn: after an action a card makes no further move or action"
    return inst, None


def _target(state: BattleState, where: str, actor: CardInstance) -> tuple[CardInstance | None, str | None]:
    inst, why = _card(state, where, "the target")
    if inst is None:
        return None, why
    label = state.info(inst).label
    if not inst.in_game_zone:
        return None, f"{label} is in the {inst.zone}: properties act only on cards in the game zone"
    if inst.iid == actor.iid:
        return None, f"{label} cannot attack itself"
    if state.info(inst).life is None:
        return None, f"{label} has no life to lose"
    return inst, None


# The action or modifier each ability makes legal, as the messages name it.
_WHAT = {"aimed": "aimed strike", "magic": "magic strike", "special": "special strike (+X, without counter-strike)",
         "vampirism": "vampirism", "poison": "poison", "shoot": "shot", "throw": "throw", "discharge": "discharge",
         "ranged": "ranged melee", "deathblow": "death blow", "collect": "ability paid with counters",
         "surprise": "surprise action"}


def lacks(state: BattleState, inst: CardInstance, action: str) -> str | None:
    """Why the card may not use `action` for want of the ability, naming its abilities; None when it has it."""
    if action in state.actions(inst):
        return None
    own = ", ".join(sorted(state.abilities(inst))) or "none"
    codes = ", ".join(codes_with(state.game, action)) or "none in this game's catalogue"
    return (f"{state.info(inst).label} has no {_WHAT[action]} (its abilities: {own}; "
            f"the {_WHAT[action]} comes with {codes})")


def why_illegal(state: BattleState, action: Action) -> str | None:
    """None when `action` is legal in `state`, else the reason in one sentence."""
    if state.over:
        # Not even a judge's action: the result is decided and nothing may flip it.
        return f"the battle is over ({state.result}): no action, a judge's or not, follows the result"
    if isinstance(action, (AddCounters, Pay, Mark, Acquire, ToDeck)):
        return _adjustment(state, action)
    if isinstance(action, STACK_ACTIONS):
        return _stack_action(state, action)
    if isinstance(action, End):
        return None
    assert action.acting is not None
    actor, why = _actor(state, action.acting)
    if actor is None:
        return why
    if isinstance(action, Move):
        return _move(state, actor, action)
    if isinstance(action, Attack):
        return _attack(state, actor, action)
    if isinstance(action, Ranged):
        return _ranged(state, actor, action)
    if isinstance(action, Shoot):
        return _shoot(state, actor, action)
    if isinstance(action, Deathblow):
        return _deathblow(state, actor)
    if isinstance(action, Collect):
        return lacks(state, actor, "collect")
    return f"unknown action {action}"


def _move(state: BattleState, actor: CardInstance, action: Move) -> str | None:
    info = state.info(actor)
    if actor.zone != "battlefield":
        return f"{info.label} is in the reserve zone: flyers make no moves"
    if actor.host is not None:
        return f"{info.label} lies on its host and moves only with it"
    if info.steps is None:
        return f"{info.label} has X steps: it can make no moves at all"
    left = info.steps - state.steps_taken(actor.iid)
    if info.steps == 0 or left <= 0:
        return f"{info.label} has {'0 steps' if info.steps == 0 else 'no steps left this turn'}"
    if not is_square(action.to):
        return f"{action.to} is no square of the battlefield"
    if state.at(action.to) is not None:
        return f"{action.to} is taken: a card moves only onto empty squares, never swaps"
    dist = reachable(state, actor.square or "", left).get(action.to)
    if dist is None:
        return (f"{info.label} cannot reach {action.to} with {left} step(s) forward, back, left or right "
                f"over empty squares (no diagonal moves)")
    return None


def _attack(state: BattleState, actor: CardInstance, action: Attack) -> str | None:
    info = state.info(actor)
    if info.strike is None or not info.figure:
        return f"{info.label} has no strike"
    for need in _needs(action):
        why = lacks(state, actor, need)
        if why:
            return why
    if action.defender is not None and action.kind != "simple":
        # "Gegen einen gezielten Treffer kann kein Verteidiger ernannt werden." / "Gegen einen magischen Treffer ..." /
        # "Gegen einen Treffer ohne Gegenschlag kann kein Verteidiger ernannt werden."
        return f"no defender can be named against {_KIND_NAME[action.kind]}"
    target, why = _target(state, action.target, actor)
    if target is None:
        return why
    tinfo = state.info(target)
    if actor.zone == "battlefield":
        if target.zone != "battlefield":
            return f"{tinfo.label} flies: only another flyer strikes a flyer (shots always reach it)"
        assert actor.square and target.square
        if not is_beside(actor.square, target.square, strikes_diagonally()):
            return f"{tinfo.label} on {target.square} is not next to {info.label} on {actor.square}"
    if action.defender is not None:
        why = _defender(state, actor, target, action.defender)
        if why:
            return why
    if action.surprise is not None:
        why = _surprise(state, actor, target, action)
        if why:
            return why
    if action.dice is not None:
        if len(action.dice) != dice_needed(state, action):
            return ("a strike on an open card or a defender takes two dice, the attacker's then the defender's: dice A D"
                    if len(action.dice) == 1 else "a strike on a closed card, a magic strike, one without counter-strike "
                    "or one on the card that answered it by surprise takes the attacker's one die: dice A")
    return None


def dice_needed(state: BattleState, action: Attack) -> int:
    """Two dice against an open card or a defender, one against a closed card or for a one-die strike.

    A card that answers by surprise closes ("Nach einer Aktion wird die betreffende Karte verdeckt"), so a strike
    on the card that answered it is made as on a closed card.
    """
    target = state.locate(action.target)
    answered = action.surprise is not None and state.locate(action.surprise.actor) is target
    if action.defender is not None:
        return 2
    return 2 if target is not None and target.open and not action.one_die and not answered else 1


_KIND_NAME = {"aimed": "an aimed strike", "magic": "a magic strike", "nocounter": "a strike without counter-strike"}


def _needs(action: Attack) -> list[str]:
    """The abilities the strike needs: its kind's and each modifier's (+X and no counter-strike are special strikes)."""
    need = {"aimed": ["aimed"], "magic": ["magic"], "nocounter": ["special"]}.get(action.kind, [])
    for name in MODIFIERS:
        if action.has(name):
            need.append("special" if name == "plus" else name)
    return list(dict.fromkeys(need))


def _surprise(state: BattleState, actor: CardInstance, target: CardInstance, action: Attack) -> str | None:
    """Why the surprise action written in the strike may not answer it, or None."""
    assert action.surprise is not None
    s, why = _card(state, action.surprise.actor, "the card answering by surprise")
    if s is None:
        return why
    label = state.info(s).label
    if s.controller != target.controller or s.controller == actor.controller or not s.in_game_zone:
        return f"{label} cannot answer: a surprise action is the attacked side's, by a card in the game zone"
    if not s.open:
        return f"{label} is closed: only an open card makes a surprise action"
    if action.defender is not None and state.locate(action.defender) is s:
        return f"{label} closes when it answers by surprise, so it cannot also defend"
    for need in ("surprise", action.surprise.ability):
        why = lacks(state, s, need)
        if why:
            return why
    return None


def _defender(state: BattleState, actor: CardInstance, target: CardInstance, where: str) -> str | None:
    """Why the card at `where` may not defend `target` against `actor`, or None."""
    d, why = _card(state, where, "the defender")
    if d is None:
        return why
    dl = state.info(d).label
    if target.controller == actor.controller:
        # "hat der Verteidigende die Möglichkeit, einen Verteidiger zu ernennen": the defending player is the opponent.
        return "no defender against a strike on one's own figure"
    if d.iid in (target.iid, actor.iid) or d.controller != target.controller or not d.in_game_zone:
        return f"{dl} cannot defend: a defender is another card of the attacked side in the game zone"
    if not d.open or state.info(d).strike is None:
        return f"{dl} is closed: only an open card can defend"
    if target.zone == "battlefield":
        if d.zone != "battlefield":
            return f"{dl} flies: flyers cannot defend ground figures"
        assert target.square and d.square
        diag = beside_diagonally()
        if not is_beside(d.square, target.square, diag):
            return f"{dl} on {d.square} is not next to the attacked card on {target.square}"
        if actor.square and not is_beside(d.square, actor.square, diag):
            return f"{dl} on {d.square} is not next to the attacking card on {actor.square}"
        return None
    if d.zone != "reserve":
        return f"{dl} cannot defend a flyer: only another flyer can"
    return None


def _ranged(state: BattleState, actor: CardInstance, action: Ranged) -> str | None:
    info = state.info(actor)
    why = lacks(state, actor, "ranged")
    if why:
        return why
    target, why = _target(state, action.target, actor)
    if target is None:
        return why
    if actor.zone != "battlefield" or target.zone != "battlefield":
        return "a ranged melee goes from the battlefield to the battlefield"
    assert actor.square and target.square
    between = straight_between(actor.square, target.square)
    if between is None:
        return f"{target.square} is not on {info.label}'s row or column: a ranged melee never goes diagonally"
    if len(between) + 1 != ranged_melee_distance():
        return f"a ranged melee strikes over exactly {ranged_melee_distance() - 1} square"
    for sq in between:
        over = state.at(sq)
        if over is not None and over.controller != actor.controller:
            return f"{state.info(over).label} on {sq} is an enemy: a ranged melee never goes over an enemy"
    return None


def _shoot(state: BattleState, actor: CardInstance, action: Shoot) -> str | None:
    """A shot, a throw or a discharge: each needs its own ability, and each reaches any card in the game zone."""
    why = lacks(state, actor, action.verb)
    if why:
        return why
    target, why = _target(state, action.target, actor)
    if target is None:
        return why
    if action.damage and len(action.damage) == 3 and action.die is None:
        return f"a {action.verb} written X-Y-Z takes one die: dice D"
    if len(action.damage) == 1 and action.die is not None:
        return f"a {action.verb} of {action.damage[0]} takes no die"
    return None


def _deathblow(state: BattleState, actor: CardInstance) -> str | None:
    why = lacks(state, actor, "deathblow")
    if why:
        return why
    if actor.zone != "battlefield":
        return f"{state.info(actor).label} is in the reserve zone: a death blow strikes the cards next to it on the field"
    return None


MAX_COUNTERS = 1_000_000
"""The most counters a state records (schemas/battle-state.schema.json)."""


def _adjustment(state: BattleState, action: Action) -> str | None:
    assert action.acting is not None
    inst, why = _card(state, action.acting, "the card")
    if inst is None:
        return why
    label = state.info(inst).label
    if isinstance(action, ToDeck):
        return None if inst.zone != "deck" else f"{label} is in a deck already"
    if not inst.in_game_zone:
        return f"{label} is in the {inst.zone}: counters and markers act only in the game zone"
    if isinstance(action, Acquire):
        if action.code not in game_abilities(state.game):
            return f"{quoted(action.code)} is no ability code of {state.game} (data/battle/abilities.json)"
        if action.remove and action.code not in inst.acquired:
            return f"{label} has not acquired {action.code}: only an acquired code is taken away"
        if not action.remove and action.code in state.abilities(inst):
            return f"{label} has {action.code} already"
        return None
    if isinstance(action, AddCounters) and inst.counters + action.n > MAX_COUNTERS:
        return f"{label} would hold more than {MAX_COUNTERS} counters, more than a state records"
    if isinstance(action, AddCounters) and inst.counters + action.n < 0:
        return f"{label} has {inst.counters} counter(s); {action.n} would leave fewer than none"
    if isinstance(action, Pay):
        if action.n <= 0:
            return "pay at least one counter"
        if inst.counters < action.n:
            return f"{label} has {inst.counters} counter(s), too few to pay {action.n}"
    return None


def deck_top(state: BattleState, seat: str) -> CardInstance | None:
    """The card on top of the seat's deck (the first in the state's order, which shuffles keep)."""
    return next((c for c in state.cards if c.zone == "deck" and c.owner == seat), None)


def _stack_action(state: BattleState, action: Action) -> str | None:
    if isinstance(action, Look):
        return None
    if isinstance(action, TakeFromDeck):
        inst = deck_top(state, action.seat)
        if inst is None:
            return f"the {action.seat} player's deck is empty"
        return _entry(state, inst, action.to)
    assert isinstance(action, (Call, FromGraveyard))
    inst, why = _card(state, action.actor, "the card")
    if inst is None:
        return why
    zone = "deck" if isinstance(action, Call) else "graveyard"
    if inst.zone != zone:
        return f"{state.info(inst).label} is in the {inst.zone}, not in the {zone}"
    return _entry(state, inst, action.to)


def _entry(state: BattleState, inst: CardInstance, to: str) -> str | None:
    """Why `inst` may not come into the game zone at `to` (a square or `reserve`), or None."""
    info = state.info(inst)
    if info.flyer or info.terrain:
        return None if to == "reserve" else f"{info.label} is a {'flyer' if info.flyer else 'terrain'}: it comes into the reserve zone"
    if to == "reserve":
        return f"{info.label} is neither a flyer nor a terrain: it comes onto a square of the field"
    if state.at(to) is not None:
        return f"{to} is taken: a card comes only onto an empty square"
    if half_of(to) != inst.owner:
        return f"{to} is in the {half_of(to)} player's half: a card comes onto its owner's half"
    return None


def legal_actions(state: BattleState) -> Iterator[Action]:
    """Every legal move, attack (without dice), ranged melee, shot, throw and discharge (damage X) and death blow
    of the player to move, then `end`; nothing once the battle is over.

    Lazy, and proportional to what it lists: a card on the field is offered as attack targets only the cards
    beside it (the only ones `why_illegal` can pass), and as defenders only those beside the attacked card,
    so the first actions of a state with hundreds of cards in its reserves come without looking at them all.
    """
    if state.over:
        return
    for inst in state.cards:
        if inst.controller != state.to_move or not inst.in_game_zone or not inst.open or inst.iid in state.acted:
            continue
        info, here, actions = state.info(inst), state.where(inst), state.actions(inst)
        if inst.zone == "battlefield" and inst.square and info.steps and inst.host is None:
            left = info.steps - state.steps_taken(inst.iid)
            if left > 0:
                for sq in sorted(reachable(state, inst.square, left), key=lambda s: (s[1], s[0])):
                    yield Move(here, sq)
        if info.strike is not None and info.figure:
            for target in _targets(state, inst, _within_reach(state, inst)):
                there = state.where(target)
                if why_illegal(state, Attack(here, there)) is None:
                    yield Attack(here, there)
                    for d in _defenders(state, inst, target):
                        yield Attack(here, there, state.where(d))
                    yield from _ability_strikes(state, inst, here, there)
        if "collect" in actions:
            yield Collect(here)
        distant_kinds: tuple[tuple[str, type[Ranged] | type[Shoot]], ...] = (
            ("ranged", Ranged), ("shoot", Shoot), ("throw", Throw), ("discharge", Discharge))
        for need, distant in distant_kinds:
            if need in actions:
                # A ranged melee goes from the field to the field; shots reach any card in the game zone.
                field = [c for sq in SQUARES for c in state.on(sq)] if need == "ranged" else None
                for target in _targets(state, inst, field):
                    act = distant(here, state.where(target))
                    if why_illegal(state, act) is None:
                        yield act
        if "deathblow" in actions and why_illegal(state, Deathblow(here)) is None:
            yield Deathblow(here)
    yield End()


def _within_reach(state: BattleState, inst: CardInstance) -> list[CardInstance] | None:
    """The cards a strike of `inst` can reach, when it stands on the field: those on the squares beside it.
    None (every card) for a flyer, which strikes anywhere."""
    if inst.zone != "battlefield" or inst.square is None:
        return None
    return [c for sq in neighbours(inst.square, strikes_diagonally()) for c in state.on(sq)]


def _targets(state: BattleState, inst: CardInstance, among: list[CardInstance] | None) -> list[CardInstance]:
    """The cards `inst` may be offered as targets, among `among` (None: every card): the opponent's first
    ("oder einer eigenen Figur" makes one's own legal targets too), each side in the state's order."""
    cards = state.cards if among is None else sorted(among, key=state.position)
    return sorted((t for t in cards if t.in_game_zone and t.iid != inst.iid), key=lambda t: t.controller == inst.controller)


def _ability_strikes(state: BattleState, inst: CardInstance, here: str, there: str) -> Iterator[Attack]:
    """One listed strike per special kind and modifier the card has, each value the placeholder X."""
    actions = state.actions(inst)
    for kind, need in (("aimed", "aimed"), ("magic", "magic"), ("nocounter", "special")):
        if need in actions:
            yield Attack(here, there, kind=kind)
    for name in MODIFIERS:
        if ("special" if name == "plus" else name) in actions:
            yield Attack(here, there, mods=((name, None),))


def _defenders(state: BattleState, actor: CardInstance, target: CardInstance) -> Iterator[CardInstance]:
    if target.controller == actor.controller:
        return  # no defender against a strike on one's own figure (`_defender`): no card to look at
    # A card on the field is defended only from the squares beside it; a flyer by any flyer of its side.
    if target.zone == "battlefield" and target.square is not None:
        near = [c for sq in neighbours(target.square, beside_diagonally()) for c in state.on(sq)]
        candidates: Iterable[CardInstance] = sorted(near, key=state.position)
    else:
        candidates = state.cards
    for d in candidates:
        if d.in_game_zone and d.iid not in (actor.iid, target.iid) and d.controller == target.controller:
            if _defender(state, actor, target, state.where(d)) is None:
                yield d
