"""Which actions are legal: `why_illegal(state, action)` says why not, `legal_actions(state)` lists them.

The list holds attacks without their dice and shots without their damage:
a judge adds the roll (and the shot's X from the card) when applying one.
"""

from __future__ import annotations

from collections import deque
from typing import Iterator

from cardkit.games.battle.board import is_beside, is_square, orthogonal_neighbours, straight_between
from cardkit.games.battle.notation import Action, AddCounters, Attack, Collect, End, Mark, Move, Pay, Ranged, Shoot, ToDeck
from cardkit.games.battle.rules import beside_diagonally, ranged_melee_distance, strikes_diagonally
from cardkit.games.battle.state import BattleState, CardInstance


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


def why_illegal(state: BattleState, action: Action) -> str | None:
    """None when `action` is legal in `state`, else the reason in one sentence."""
    if isinstance(action, (AddCounters, Pay, Mark, ToDeck)):
        return _adjustment(state, action)
    if state.over:
        return f"the battle is over ({state.result})"
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
    if isinstance(action, Collect):
        info = state.info(actor)
        return None if info.collects else f"{info.label} has no ability paid with counters in the catalogue"
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
    if action.kind == "aimed" and not info.aimed:
        return f"{info.label} has no aimed strike in the catalogue"
    if action.kind == "magic" and not info.magic:
        return f"{info.label} has no magic strike in the catalogue"
    if action.defender is not None and action.kind != "simple":
        # "Gegen einen gezielten Treffer kann kein Verteidiger ernannt werden." / "Gegen einen magischen Treffer ..."
        return f"no defender can be named against {'an aimed' if action.kind == 'aimed' else 'a magic'} strike"
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
    if action.dice is not None:
        counter = action.defender is not None or (target.open and action.kind != "magic")
        need = 2 if counter else 1
        if len(action.dice) != need:
            return ("a strike on an open card or a defender takes two dice, the attacker's then the defender's: dice A D"
                    if counter else "a strike on a closed card takes the attacker's one die: dice A")
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
    if not info.ranged_melee:
        return f"{info.label} has no ranged melee in the catalogue"
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
    info = state.info(actor)
    if not info.shot:
        return f"{info.label} has no shot in the catalogue"
    target, why = _target(state, action.target, actor)
    if target is None:
        return why
    if action.damage and len(action.damage) == 3 and action.die is None:
        return "a shot written X-Y-Z takes one die: dice D"
    if len(action.damage) == 1 and action.die is not None:
        return f"a shot of {action.damage[0]} takes no die"
    return None


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
    if isinstance(action, AddCounters) and inst.counters + action.n < 0:
        return f"{label} has {inst.counters} counter(s); {action.n} would leave fewer than none"
    if isinstance(action, Pay):
        if action.n <= 0:
            return "pay at least one counter"
        if inst.counters < action.n:
            return f"{label} has {inst.counters} counter(s), too few to pay {action.n}"
    return None


def legal_actions(state: BattleState) -> Iterator[Action]:
    """Every legal move, attack (without dice), ranged melee and shot (without damage) of the player to move, then `end`."""
    if state.over:
        return
    for inst in state.cards:
        if inst.controller != state.to_move or not inst.in_game_zone or not inst.open or inst.iid in state.acted:
            continue
        info, here = state.info(inst), state.where(inst)
        if inst.zone == "battlefield" and inst.square and info.steps and inst.host is None:
            left = info.steps - state.steps_taken(inst.iid)
            if left > 0:
                for sq in sorted(reachable(state, inst.square, left), key=lambda s: (s[1], s[0])):
                    yield Move(here, sq)
        # The opponent's cards first; "oder einer eigenen Figur" makes one's own legal targets too.
        targets = sorted((t for t in state.cards if t.in_game_zone and t.iid != inst.iid),
                         key=lambda t: t.controller == inst.controller)
        if info.strike is not None and info.figure:
            for target in targets:
                there = state.where(target)
                if why_illegal(state, Attack(here, there)) is None:
                    yield Attack(here, there)
                    for d in _defenders(state, inst, target):
                        yield Attack(here, there, state.where(d))
                    for special, has in (("aimed", info.aimed), ("magic", info.magic)):
                        if has:
                            yield Attack(here, there, kind=special)
        if info.collects:
            yield Collect(here)
        for distant in (Ranged, Shoot):
            if info.ranged_melee if distant is Ranged else info.shot:
                for target in targets:
                    act = distant(here, state.where(target))
                    if why_illegal(state, act) is None:
                        yield act
    yield End()


def _defenders(state: BattleState, actor: CardInstance, target: CardInstance) -> Iterator[CardInstance]:
    for d in state.cards:
        if d.in_game_zone and d.iid not in (actor.iid, target.iid) and d.controller == target.controller:
            if _defender(state, actor, target, state.where(d)) is None:
                yield d
