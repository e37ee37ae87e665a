"""The payment solver against brute force over every subset of small hands."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.games.berserk_tcg import COLOURS
from cardkit.games.berserk_tcg.opening.cards import Cost, TcgCard, discard_key, make_card
from cardkit.games.berserk_tcg.opening.payment import all_payments, can_pay, find_payment, is_valid_payment

costs = st.builds(Cost, white=st.integers(0, 2), green=st.integers(0, 2), black=st.integers(0, 1),
                  red=st.integers(0, 2), colourless=st.integers(0, 2))


@st.composite
def hands(draw: st.DrawFn) -> list[TcgCard]:
    size = draw(st.integers(0, 8))
    return [make_card(f"T-{i:03}", colour=draw(st.sampled_from(COLOURS)), level=draw(st.integers(0, 4)),
                      mercenary=draw(st.booleans()), unique=draw(st.booleans()), name=draw(st.sampled_from("ABCD")))
            for i in range(size)]


def brute_force(cost: Cost, hand: list[TcgCard]) -> list[tuple[int, ...]]:
    return [combo for combo in combinations(range(len(hand)), cost.total)
            if is_valid_payment(cost, [hand[i] for i in combo])]


def badness(hand: list[TcgCard], paid: tuple[int, ...], dead: frozenset[str]) -> int:
    """Sum of discard ranks: lower means the payment threw away less useful cards."""
    order = sorted(range(len(hand)), key=lambda i: (discard_key(hand[i], hand[i].unique and hand[i].name in dead), i))
    rank = {i: r for r, i in enumerate(order)}
    return sum(rank[i] for i in paid)


@pytest.mark.slow
@settings(max_examples=examples(400), deadline=None)
@given(cost=costs, hand=hands(), dead=st.frozensets(st.sampled_from("ABCD")))
def test_solver_finds_a_payment_exactly_when_brute_force_does_and_it_is_the_least_costly(
        cost: Cost, hand: list[TcgCard], dead: frozenset[str]) -> None:
    payments = brute_force(cost, hand)
    paid = find_payment(cost, hand, dead)
    assert (paid is None) == (not payments)
    assert can_pay(cost, hand) == bool(payments)
    if paid is not None:
        assert len(set(paid)) == len(paid)
        assert is_valid_payment(cost, [hand[i] for i in paid])
        assert badness(hand, paid, dead) == min(badness(hand, p, dead) for p in payments)


@settings(max_examples=examples(200), deadline=None)
@given(cost=costs, hand=hands())
def test_all_payments_lists_every_distinct_valid_payment(cost: Cost, hand: list[TcgCard]) -> None:
    expected = {tuple(sorted(hand[i].id for i in combo)) for combo in brute_force(cost, hand)}
    listed = list(all_payments(cost, hand))
    assert len(listed) == len(set(listed)), "a payment is listed twice"
    assert set(listed) == expected


def test_all_payments_lists_a_payment_of_interchangeable_copies_once() -> None:
    hand = [make_card("W-1"), make_card("W-1"), make_card("W-1")]
    assert list(all_payments(Cost(white=2), hand)) == [("W-1", "W-1")]


WHITE, RED = make_card("W-1", colour="white"), make_card("R-1", colour="red")


@pytest.mark.parametrize(("cost", "paid", "valid"), [
    (Cost(white=1), [WHITE], True),
    (Cost(white=1), [], False),
    (Cost(white=1), [WHITE, WHITE], False),
    (Cost(white=1), [RED], False),
    (Cost(colourless=1), [RED], True),
    (Cost(white=1, colourless=1), [RED, WHITE], True),
    (Cost(white=1, colourless=1), [RED, RED], False),
    (Cost(colourless=2), [WHITE, RED, RED], False),
], ids=["exact colour", "nothing paid", "one card too many", "wrong colour", "colourless takes any colour",
        "colour plus colourless", "colour missing under colourless", "colourless overpaid"])
def test_a_payment_is_valid_only_with_exactly_as_many_cards_as_the_cost_and_each_colour_covered(
        cost: Cost, paid: list[TcgCard], valid: bool) -> None:
    assert is_valid_payment(cost, paid) is valid


def test_colourless_part_takes_any_colour_but_coloured_balls_need_their_colour() -> None:
    hand = [make_card("R-1", colour="red"), make_card("G-1", colour="green")]
    assert find_payment(Cost(colourless=2), hand) == (0, 1)
    assert find_payment(Cost(white=1, colourless=1), hand) is None


def test_mercenaries_are_paid_before_other_cards_of_the_colour() -> None:
    hand = [make_card("W-2", level=1), make_card("W-1", level=0, mercenary=True), make_card("W-3", level=3)]
    assert find_payment(Cost(white=1), hand) == (1,)


def test_a_unique_card_whose_name_is_in_play_is_paid_first() -> None:
    hand = [make_card("W-1", mercenary=True), make_card("W-9", name="Guts", unique=True, level=1)]
    assert find_payment(Cost(white=1), hand, frozenset({"Guts"})) == (1,)
    assert find_payment(Cost(white=1), hand) == (0,)


def test_among_copies_of_one_card_the_earliest_in_hand_is_paid_first() -> None:
    hand = [make_card("W-1"), make_card("W-1"), make_card("W-1")]
    assert find_payment(Cost(white=2), hand) == (0, 1)


def test_higher_level_cards_are_paid_before_lower_ones() -> None:
    hand = [make_card("W-1", level=1), make_card("W-4", level=4), make_card("W-2", level=2)]
    assert find_payment(Cost(white=1, colourless=1), hand) == (1, 2)
