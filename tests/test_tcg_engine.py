"""can_open's reasons, actions as text, the legal-actions generator and the turn rules."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardkit.errors import BadActionText, BadArgument, IllegalAction
from cardkit.games.berserk_tcg.opening.actions import Action, Discard, Draw, Open, Pass, apply, legal_actions
from cardkit.games.berserk_tcg.opening.cards import KEEP_HIGH_LEVEL, LEAST_USEFUL, Cost, TcgCard, make_card
from cardkit.games.berserk_tcg.opening.play import (
    choose_discard,
    cities_schedule,
    max_revealed,
    play_reference,
    takes_schedule,
)
from cardkit.games.berserk_tcg.opening.state import (
    COST_UNPAYABLE,
    LEVEL_TOO_HIGH,
    NOT_A_DECK_CARD,
    NOT_IN_HAND,
    NOT_OPENING_PHASE,
    UNIQUE_IN_PLAY,
    PlayerState,
    can_open,
)

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


EFFECT = make_card("BK-SPELL", colour="black", cost=Cost(black=1), level=0, kind="effect-normal")
QUICK = make_card("BK-QUICK", colour="black", cost=Cost(black=1), level=1, kind="effect-normal", quick=True)
ETERNAL = make_card("BK-CURSE", colour="black", cost=Cost(black=1), level=0, kind="effect-eternal")
MORE = {**CARDS, **{c.id: c for c in (EFFECT, QUICK, ETERNAL)}}


def with_effects(hand: tuple[str, ...], cities: int = 5, **kw: object) -> PlayerState:
    return PlayerState(cards=MORE, hand=hand, cities=cities, **kw)  # type: ignore[arg-type]


def test_an_opened_normal_effect_goes_to_the_trash_and_an_eternal_one_stays_in_play() -> None:
    """"Normal effect (you play the card, its effect occurs, then you trash it) and Eternal effect (these are permanents)"."""
    spent = apply(with_effects(("BK-SPELL", "BK-MERC"), phase="opening"), Open("BK-SPELL", ("BK-MERC",)))
    assert spent.in_play == () and sorted(spent.trash) == ["BK-MERC", "BK-SPELL"] and spent.hand == ()
    kept = apply(with_effects(("BK-CURSE", "BK-MERC"), phase="opening"), Open("BK-CURSE", ("BK-MERC",)))
    assert kept.in_play == ("BK-CURSE",) and kept.trash == ("BK-MERC",)


@pytest.mark.parametrize("phase,opened", [("draw", False), ("end", True), ("end", False)],
                         ids=["before-the-draw", "after-another-card", "main-and-ending-phases"])
def test_a_quick_card_can_be_opened_outside_the_opening_phase_and_another_card_cannot(phase: str, opened: bool) -> None:
    """"Some cards have the Quick ability, which allows them to be played anytime"."""
    hand = ("BK-QUICK", "BK-MERC", "BK-MERC", "BK-SPELL")
    now = with_effects(hand, phase=phase, opened=opened)
    assert can_open("BK-QUICK", now).ok
    assert can_open("BK-SPELL", now).codes == (NOT_OPENING_PHASE,)
    opens = {a for a in legal_actions(now) if isinstance(a, Open)}
    assert opens == {Open("BK-QUICK", ("BK-MERC",)), Open("BK-QUICK", ("BK-SPELL",))}
    after = apply(now, Open("BK-QUICK", ("BK-MERC",)))
    assert after.phase == phase and "BK-QUICK" in after.trash and after.hand == ("BK-MERC", "BK-SPELL")
    with pytest.raises(IllegalAction):
        apply(now, Open("BK-SPELL", ("BK-MERC",)))


def test_a_quick_card_still_needs_its_level_and_its_cost_outside_the_opening_phase() -> None:
    assert can_open("BK-QUICK", with_effects(("BK-QUICK", "BK-MERC"), cities=0, phase="end")).codes == (LEVEL_TOO_HIGH,)
    assert can_open("BK-QUICK", with_effects(("BK-QUICK", "WH-MERC"), phase="end")).codes == (COST_UNPAYABLE,)


def test_after_the_opening_phases_card_a_quick_card_is_the_only_open_offered() -> None:
    start = with_effects(("BK-MERC", "BK-MERC", "BK-QUICK", "BK-MERC"), phase="opening")
    after = apply(start, Open("BK-MERC", ("BK-MERC",)))
    assert after.phase == "end" and after.opened
    assert list(legal_actions(after)) == [Open("BK-QUICK", ("BK-MERC",)), Pass()]


def test_taking_a_city_draws_two_cards_or_what_the_library_has_and_reveals_the_city() -> None:
    """"Each time a player takes a city, he has to draw 2 cards from his Library and put them into his Hand."."""
    before = state(("BK-MERC",), cities=0, library=("WH-MERC", "WH-KNIGHT", "BK-GUTS"))
    after = before.take_city()
    assert after.hand == ("BK-MERC", "WH-MERC", "WH-KNIGHT") and after.library == ("BK-GUTS",)
    assert (after.taken, after.cities) == (1, 1)
    last = after.take_city()
    assert last.hand[-1] == "BK-GUTS" and last.library == () and not last.decked and last.taken == 2


@pytest.mark.parametrize("seat,limits", [("first", [0, 2, 4, 5, 5]), ("second", [1, 3, 5, 5, 5])])
def test_at_most_two_cities_a_round_are_revealed_from_none(seat: str, limits: list[int]) -> None:
    """"At first, none is visible"; "You can only attack once each turn."."""
    assert [max_revealed(t, seat) for t in range(1, 6)] == limits


@pytest.mark.parametrize("seat,cities,message", [
    ("first", (5,), "at most 0 cities can be revealed on the first player's turn 1"),
    ("first", (0, 3), "at most 2 cities can be revealed on the first player's turn 2"),
    ("first", (1,), "at most 0"),
    ("second", (2,), "at most 1 cities can be revealed on the second player's turn 1"),
], ids=["first-five", "first-zero-three", "first-one", "second-two"])
def test_more_cities_than_the_attacks_so_far_could_reveal_is_refused(seat: str, cities: tuple[int, ...],
                                                                     message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        cities_schedule(6, cities, seat)


def test_the_second_seat_may_see_one_city_on_its_first_turn() -> None:
    assert cities_schedule(3, (1,), "second") == (1, 1, 1)


def test_takes_count_the_cities_taken_before_each_turn_and_need_a_revealed_city_the_turn_after() -> None:
    assert takes_schedule(6, (2, 4), cities_schedule(6)) == (0, 0, 1, 1, 2, 2)
    assert takes_schedule(3, (1,), cities_schedule(3)) == (0, 1, 1)  # the Level-1 city on the second turn
    with pytest.raises(BadArgument, match="2 cities taken by the end of turn 2, but only 1 revealed on turn 3"):
        takes_schedule(4, (1, 2), (0, 1, 1, 2))
    with pytest.raises(BadArgument, match="only 0 revealed on turn 3"):
        takes_schedule(2, (2,), (0, 0))  # a take on the last turn is checked against the repeated last value


def test_the_hand_limit_discard_is_a_policy_the_caller_chooses() -> None:
    """"he must discard as many cards as needed until he has only 7": which ones is the player's choice"""
    nine = state(("BK-GUTS", "WH-KNIGHT", "WH-MERC") + ("BK-MERC",) * 6, phase="end")
    assert choose_discard(nine) == Discard(("BK-MERC", "BK-MERC"))  # least useful: Mercenaries first
    no_fodder = with_effects(("BK-GUTS", "WH-KNIGHT") + ("BK-SPELL",) * 4 + ("WH-KNIGHT", "BK-GUTS"), phase="end")
    assert choose_discard(no_fodder, LEAST_USEFUL) == Discard(("BK-GUTS",))       # the highest Level goes first
    assert choose_discard(no_fodder, KEEP_HIGH_LEVEL) == Discard(("BK-SPELL",))   # the lowest Level goes first
