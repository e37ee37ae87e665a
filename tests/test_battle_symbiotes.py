"""A symbiote (the CCG's `parasite`) lies on its host; defeated or sent away, it leaves the host in every path."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from cardkit.games.squad_games.battle.apply import apply
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.notation import Action
from cardkit.games.squad_games.battle.setup import load_side, new_battle
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, check_state

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "battle"


def placed() -> BattleState:
    """The bundled CCG placement (its symbiote #10 lies on #5 on c4) against a small first squad, seed 1."""
    return new_battle(load_side(DATA / "ccg-first.json"), load_side(ROOT / "squads" / "ccg-placement.json"), seed=1)


def symbiote_of(state: BattleState) -> CardInstance:
    return next(c for c in state.cards if battle_cards(state.game)[c.card].symbiote)


def test_a_symbiote_struck_down_over_turns_goes_to_the_graveyard_without_its_host() -> None:
    state = placed()
    parasite = symbiote_of(state)
    strike = f"attack c3 #{parasite.iid} dice 6 1"
    done = ENGINE.apply_all(state, [strike, "end", "end", strike, "end", "end", strike, "end", "end", strike])
    assert done.problems == ()
    gone = done.state.by_id(parasite.iid)
    assert gone is not None and (gone.zone, gone.square, gone.host) == ("graveyard", None, None)
    assert check_state(done.state) == [] and ENGINE.unreadable(done.state) is None


@pytest.mark.parametrize(("shooter", "verb"), [("10004", "shoot"), ("10022", "throw"), ("10010", "discharge")])
def test_a_symbiote_shot_thrown_at_or_discharged_at_to_death_leaves_its_host(shooter: str, verb: str) -> None:
    state = placed()
    parasite = symbiote_of(state)
    archer = next(c for c in state.cards if c.controller == "first" and c.square == "b2")
    state = state.with_card(replace(archer, card=shooter, life=battle_cards(state.game)[shooter].life or 0))
    state = state.with_card(replace(parasite, life=1))
    after, _ = apply(state, Action.parse(f"{verb} b2 #{parasite.iid} 3"))
    gone = after.by_id(parasite.iid)
    assert gone is not None and (gone.zone, gone.host) == ("graveyard", None)
    assert ENGINE.unreadable(after) is None


def test_a_poisoned_symbiote_dying_as_its_turn_starts_leaves_no_dead_end() -> None:
    state = placed()
    parasite = symbiote_of(state)
    state = state.with_card(replace(parasite, open=False, life=1, markers=(("poison", 2),)))
    assert check_state(state) == []
    done = ENGINE.apply_all(state, ["end"])
    assert done.problems == ()
    gone = done.state.by_id(parasite.iid)
    assert gone is not None and (gone.zone, gone.host) == ("graveyard", None)
    listed = ENGINE.moves(done.state).actions
    assert "end" in listed and len(listed) > 1
    assert ENGINE.apply_all(done.state, ["end"]).problems == ()


def test_a_host_sent_to_its_deck_takes_its_symbiote_off_to_the_graveyard() -> None:
    state = placed()
    parasite = symbiote_of(state)
    after, _ = apply(state, Action.parse(f"to-deck #{parasite.host}"))
    gone = after.by_id(parasite.iid)
    assert gone is not None and (gone.zone, gone.host) == ("graveyard", None)
    assert ENGINE.unreadable(after) is None


def test_a_refused_state_after_an_action_says_not_a_possible_battle_state_once() -> None:
    state = placed()
    # A judge's edit no action makes, kept by `end`: a figure at 0 life still on the field.
    state = state.with_card(replace(state.cards[0], life=0))
    problems = ENGINE.apply_all(state, ["end"]).problems
    assert len(problems) == 1 and "life 0" in problems[0].message
    assert problems[0].message.count("possible battle state") == 1
