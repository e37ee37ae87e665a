"""TCG `moves` is complete: every action `apply` accepts is listed, attackers and defenders in each of their orders."""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import permutations
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.errors import CardkitError
from cardkit.games.berserk_tcg.game.apply import apply
from cardkit.games.berserk_tcg.game.engine import ENGINE
from cardkit.games.berserk_tcg.game.legal import legal_actions
from cardkit.games.berserk_tcg.game.notation import Action, Attack, Defend, Open, parse
from cardkit.games.berserk_tcg.game.setup import deck_cards, new_game
from cardkit.games.berserk_tcg.game.state import Game
from cardkit.games.engine import distinct_orders

ROOT = Path(__file__).resolve().parent.parent
DECKS = [deck_cards(str(ROOT / "decks/berserk-tcg" / name))[1] for name in ("white-hawks.deck", "red-apostles.deck")]


def accepted(game: Game, action: Action) -> bool:
    try:
        apply(game, action)
    except CardkitError:
        return False
    return True


def reordered(action: Action, rng: random.Random) -> Action:
    """`action` with its attackers or defenders in a random order (any other action as it is)."""
    if isinstance(action, Attack):
        return replace(action, units=tuple(rng.sample(action.units, len(action.units))))
    if isinstance(action, Defend):
        return replace(action, cards=tuple(rng.sample(action.cards, len(action.cards))))
    return action


@settings(max_examples=examples(100))
@given(st.integers(0, 2**16))
def test_every_action_apply_accepts_in_random_play_is_one_moves_lists(seed: int) -> None:
    rng = random.Random(seed)
    game = new_game([list(DECKS[0]), list(DECKS[1])], seed=seed)
    groups = 0
    for _ in range(150):
        found = ENGINE.moves(game, limit=100_000)
        if not found.actions or not found.complete:
            break  # over the bound, the list cannot be held to compare: the game stops there
        assert len(set(found.actions)) == len(found.actions), "each text once"
        listed = set(found.actions)
        actions = [parse(text) for text in found.actions]
        # Each listed group of attackers or defenders in another order, and a few other actions as they are.
        grouped = [a for a in actions if len(getattr(a, "units", getattr(a, "cards", ()))) > 1]
        groups += len(grouped)
        for action in grouped[:30] + rng.sample(actions, min(5, len(actions))):
            other = reordered(action, rng)
            if accepted(game, other):
                assert str(other) in listed, str(other)
        # Openings half the time, so that characters gather; attacks and defences a sixth.
        r = rng.random()
        wanted = (Open,) if r < 0.5 else (Attack, Defend) if r < 0.65 else (object,)
        game, _ = apply(game, rng.choice([a for a in actions if isinstance(a, wanted)] or actions))
    assert groups or game.winner is not None


def test_an_attack_in_either_order_is_listed_for_the_order_decides_who_takes_the_blows() -> None:
    from test_tcg_match import CASCA, GUTS, Ref, Unit, table

    start = table((Unit(GUTS), Unit(CASCA)), held={"c2": 1})
    texts = [str(a) for a in legal_actions(start)]
    for order in permutations((GUTS, CASCA)):
        action = Attack("c2", tuple(Ref(card) for card in order))
        assert accepted(start, action) and str(action) in texts


def test_distinct_orders_give_each_order_of_a_group_once_the_group_itself_first() -> None:
    for group in [(), ("a",), ("a", "b"), ("a", "a", "b"), ("a", "b", "b", "c"), ("a", "b", "c", "d"), ("a", "b", "a")]:
        orders = list(distinct_orders(group))
        assert orders[0] == (group if group != ("a", "b", "a") else ("a", "a", "b"))  # copies apart come grouped
        assert sorted(orders) == sorted(set(permutations(group)))
