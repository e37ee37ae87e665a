"""can_open's reasons, actions as text, the legal-actions generator and the turn rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardkit.errors import BadArgument
from cardkit.games.berserk_tcg.actions import (Action, BadActionText, Discard, Draw, IllegalAction, Open, Pass,
                                               apply, legal_actions)
from cardkit.games.berserk_tcg.cards import Cost, TcgCard, make_card
from cardkit.games.berserk_tcg.opening import cities_schedule, play_reference
from cardkit.games.berserk_tcg.state import (COST_UNPAYABLE, LEVEL_TOO_HIGH, NOT_A_DECK_CARD, NOT_IN_HAND,
                                             UNIQUE_IN_PLAY, PlayerState, can_open)

GUTS = make_card("BK-GUTS", name="Guts", colour="black", cost=Cost(black=1, colourless=1), level=2, unique=True)
MERC_B = make_card("BK-MERC", colour="black", cost=Cost(black=1), level=0, mercenary=True)
KNIGHT_W = make_card("WH-KNIGHT", colour="white", cost=Cost(white=2), level=1)
MERC_W = make_card("WH-MERC", colour="white", cost=Cost(white=1), level=0, mercenary=True)
CARDS: dict[str, TcgCard] = {c.id: c for c in (GUTS, MERC_B, KNIGHT_W, MERC_W)}


def state(hand: tuple[str, ...], cities: int = 5, **kw: object) -> PlayerState:
    return PlayerState(cards=CARDS, hand=hand, cities=cities, **kw)  # type: ignore[arg-type]


def test_card_is_openable_with_a_payment_from_the_rest_of_the_hand() -> None:
    check = can_open("BK-GUTS", state(("BK-GUTS", "BK-MERC", "WH-MERC")))
    assert check.ok and check.codes == ()
    assert sorted(check.payment or ()) == ["BK-MERC", "WH-MERC"]


def test_level_above_revealed_cities_is_level_too_high() -> None:
    check = can_open("BK-GUTS", state(("BK-GUTS", "BK-MERC", "WH-MERC"), cities=1))
    assert check.codes == (LEVEL_TOO_HIGH,)
    assert (check.reasons[0].limit, check.reasons[0].actual) == (1, 2)
    assert check.payment is None


def test_unique_name_in_play_on_either_side_is_unique_in_play() -> None:
    hand = ("BK-GUTS", "BK-MERC", "WH-MERC")
    assert can_open("BK-GUTS", state(hand, opponent_unique=frozenset({"Guts"}))).codes == (UNIQUE_IN_PLAY,)
    assert can_open("BK-GUTS", state(hand, in_play=("BK-GUTS",))).codes == (UNIQUE_IN_PLAY,)


def test_the_card_itself_cannot_pay_its_own_cost() -> None:
    assert can_open("BK-MERC", state(("BK-MERC",))).codes == (COST_UNPAYABLE,)
    assert can_open("BK-MERC", state(("BK-MERC", "BK-MERC"))).ok


def test_coloured_balls_need_cards_of_that_colour() -> None:
    check = can_open("WH-KNIGHT", state(("WH-KNIGHT", "WH-MERC", "BK-MERC", "BK-MERC")))
    assert check.codes == (COST_UNPAYABLE,)


def test_every_reason_is_returned_not_only_the_first() -> None:
    check = can_open("BK-GUTS", state(("BK-GUTS", "WH-MERC"), cities=0, opponent_unique=frozenset({"Guts"})))
    assert check.codes == (LEVEL_TOO_HIGH, UNIQUE_IN_PLAY, COST_UNPAYABLE)


def test_a_card_not_in_hand_says_so() -> None:
    assert NOT_IN_HAND in can_open("BK-GUTS", state(("BK-MERC", "BK-MERC"))).codes


@pytest.mark.parametrize("text", ["draw", "pass", "open BK1-012", "open BK1-012 pay BK1-001,BK1-005",
                                  "discard BK1-003,BK1-007"], ids=lambda t: t.split()[0] + str(len(t)))
def test_actions_print_as_the_text_they_parse_from(text: str) -> None:
    assert str(Action.parse(text)) == text


ids = st.from_regex(r"[A-Z]{2}[0-9]-[0-9]{3}", fullmatch=True)


@given(card=ids, pay=st.lists(ids, max_size=4))
def test_open_actions_round_trip_through_text(card: str, pay: list[str]) -> None:
    action = Open(card, tuple(pay))
    assert Action.parse(str(action)) == action


def test_actions_are_immutable_values() -> None:
    action = Open("BK1-012", ("BK1-005", "BK1-001"))
    assert action == Open("BK1-012", ("BK1-001", "BK1-005")) and hash(action) == hash(Action.parse(str(action)))
    with pytest.raises(AttributeError):
        action.card = "BK1-013"  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", "open", "open A pay", "discard", "draw 2", "open A pay B,,C"])
def test_text_that_is_not_an_action_is_refused(text: str) -> None:
    with pytest.raises(BadActionText):
        Action.parse(text)


def test_legal_actions_are_every_open_with_every_distinct_payment_then_pass() -> None:
    actions = set(legal_actions(state(("BK-GUTS", "BK-MERC", "BK-MERC", "WH-MERC"), phase="opening")))
    assert actions == {Open("BK-GUTS", ("BK-MERC", "BK-MERC")), Open("BK-GUTS", ("BK-MERC", "WH-MERC")),
                       Open("BK-MERC", ("BK-MERC",)), Open("BK-MERC", ("BK-GUTS",)), Pass()}
    assert Open("WH-MERC", ("BK-MERC",)) not in legal_actions(state(("WH-MERC", "BK-MERC"), phase="opening"))


def test_only_one_card_is_opened_per_opening_phase() -> None:
    after = apply(state(("BK-MERC", "BK-MERC", "BK-MERC", "BK-MERC"), phase="opening"), Open("BK-MERC", ("BK-MERC",)))
    assert after.in_play == ("BK-MERC",) and after.trash == ("BK-MERC",) and after.hand == ("BK-MERC", "BK-MERC")
    assert after.phase == "end" and list(legal_actions(after)) == [Pass()]


def test_applying_an_illegal_action_raises() -> None:
    with pytest.raises(IllegalAction):
        apply(state(("BK-GUTS", "WH-MERC"), phase="opening"), Open("BK-GUTS", ("WH-MERC",)))
    with pytest.raises(IllegalAction):
        apply(state(("BK-MERC", "WH-MERC"), phase="opening"), Open("BK-MERC", ("WH-MERC",)))


def test_end_of_turn_discards_down_to_seven() -> None:
    eight = state(("BK-MERC",) * 6 + ("WH-MERC", "WH-KNIGHT"), phase="end")
    assert set(legal_actions(eight)) == {Discard(("BK-MERC",)), Discard(("WH-MERC",)), Discard(("WH-KNIGHT",))}
    assert len(apply(eight, Discard(("WH-KNIGHT",))).hand) == 7
    with pytest.raises(IllegalAction):
        apply(eight, Pass())


def test_drawing_from_an_empty_library_loses() -> None:
    drawn = apply(state((), library=("BK-MERC",), phase="draw"), Draw())
    assert drawn.hand == ("BK-MERC",) and drawn.library == () and drawn.phase == "opening"
    assert apply(state((), phase="draw"), Draw()).decked


def test_first_player_skips_only_its_first_draw_and_second_player_draws_every_turn() -> None:
    order = [f"C{i:02}" for i in range(20)]
    cards = {c: make_card(c) for c in order}  # every card in hand is openable: the count is the hand size
    assert [len(o) for o in play_reference(cards, order, (0,), "first").openable] == [7]
    assert [len(o) for o in play_reference(cards, order, (0,), "second").openable] == [8]
    # each turn opens one card paying with one other, so the next opening phase has one card fewer
    assert [len(o) for o in play_reference(cards, order, (0, 0, 0), "first").openable] == [7, 6, 5]
    assert [len(o) for o in play_reference(cards, order, (0, 0, 0), "second").openable] == [8, 7, 6]


def test_a_nine_card_deck_decks_the_first_player_out_on_turn_four_and_the_second_on_turn_three() -> None:
    order = [f"C{i:02}" for i in range(9)]
    cards = {c: make_card(c, level=9) for c in order}
    assert play_reference(cards, order, (0,) * 6, "first").decked_on == 4
    assert play_reference(cards, order, (0,) * 6, "second").decked_on == 3
    assert play_reference(cards, order, (0,) * 3, "first").decked_on is None


def test_cities_default_to_turn_minus_one_capped_at_five_and_an_override_repeats_its_last_value() -> None:
    assert cities_schedule(8) == (0, 1, 2, 3, 4, 5, 5, 5)
    assert cities_schedule(4, (0, 2)) == (0, 2, 2, 2)


@pytest.mark.parametrize("cities,message", [((0, 6), "values must be 0 to 5"), ((0, 2, 1), "must not fall")],
                         ids=["more-than-five-cities", "a-city-hidden-again"])
def test_a_cities_schedule_the_rules_cannot_produce_is_refused(cities: tuple[int, ...], message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        cities_schedule(6, cities)


@pytest.mark.parametrize("make", [lambda: Discard(()), lambda: Open(""), lambda: Open("BK1 012"),
                                  lambda: Open("BK1-012", ("BK1-001,BK1-002",)), lambda: Open("BK1-012", ("",))],
                         ids=["discard-nothing", "empty-id", "id-with-space", "id-with-comma", "empty-payment-id"])
def test_an_action_that_could_not_print_as_parseable_text_cannot_be_made(make) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BadActionText):
        make()


def test_discarding_nothing_at_the_hand_limit_is_a_pass_not_an_empty_discard() -> None:
    seven = state(("BK-MERC",) * 7, phase="end")
    assert list(legal_actions(seven)) == [Pass()]
    assert apply(seven, Pass()).phase == "draw"


@given(card=st.text(max_size=8), pay=st.lists(st.text(max_size=6), max_size=3))
def test_every_open_action_that_can_be_made_round_trips_through_text(card: str, pay: list[str]) -> None:
    try:
        action = Open(card, tuple(pay))
    except BadActionText:
        return
    assert Action.parse(str(action)) == action


def test_a_city_is_never_openable() -> None:
    city = make_card("CITY-R", name="Royal City", colour=None, cost=Cost(), kind="city")
    check = can_open("CITY-R", PlayerState(cards={**CARDS, "CITY-R": city}, hand=("CITY-R", "BK-MERC"), cities=5))
    assert check.codes == (NOT_A_DECK_CARD,) and check.payment is None


def test_the_draw_phase_offers_only_draw_even_from_an_empty_library_and_a_lost_player_has_no_actions() -> None:
    assert list(legal_actions(state((), library=("BK-MERC",), phase="draw"))) == [Draw()]
    empty = state((), phase="draw")
    assert list(legal_actions(empty)) == [Draw()]
    lost = apply(empty, Draw())
    assert list(legal_actions(lost)) == []
    with pytest.raises(IllegalAction):
        apply(lost, Pass())
