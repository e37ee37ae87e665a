"""The vectorised opening simulator against the reference, against exact maths, and its determinism."""

from __future__ import annotations

from itertools import combinations
from math import comb, sqrt

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.errors import BadArgument
from cardkit.games.berserk_tcg.opening.cards import DISCARD_POLICIES, Cost, load_cards, make_card
from cardkit.games.berserk_tcg.opening.exact import p_any_open_exact
from cardkit.games.berserk_tcg.opening.play import cities_schedule, expand, max_revealed, shuffles
from cardkit.games.berserk_tcg.opening.simulate import simulate, simulate_reference
from cardkit.games.berserk_tcg.opening.state import PlayerState, can_open
from cardkit.simulation import SimulationOptions

CARDS = load_cards()
WHITE_RED = {"BK1-001": 10, "BK1-002": 2, "BK1-003": 2, "BK1-004": 2, "BK1-005": 2, "BK1-006": 2, "BK1-007": 2,
             "BK1-008": 2, "BK1-009": 2, "BK1-121": 3, "BK1-122": 3, "BK1-123": 3, "BK1-124": 3, "BK1-125": 3,
             "BK1-126": 3, "BK1-131": 1}
# Three colours, colourless costs, and several Unique cards sharing a name (Guts, Griffith, Zodd).
UNIQUES = {"BK1-001": 8, "BK1-011": 3, "BK1-012": 3, "BK2-003": 2, "BK1-009": 3, "BK2-002": 2, "BK1-044": 3,
           "BK1-047": 3, "BK1-132": 3, "BK2-050": 3, "BK3-054": 2, "BK1-121": 6, "BK1-105": 3, "BK3-034": 3}
NO_LEVEL_ZERO = {"BK1-002": 15, "BK1-003": 15, "BK1-122": 15}


def sample(deck: dict[str, int], **kw: object) -> SimulationOptions:
    return SimulationOptions(**{"games": 300, "turns": 6, "seed": 7, **kw})  # type: ignore[arg-type]


@pytest.mark.parametrize("deck,options", [
    (WHITE_RED, sample(WHITE_RED)),
    (WHITE_RED, sample(WHITE_RED, seat="second", turns=8)),
    (UNIQUES, sample(UNIQUES)),
    (UNIQUES, sample(UNIQUES, seat="second", cities=(1, 2, 5), seed=11)),
    ({"BK1-001": 9}, sample({"BK1-001": 9})),
    (WHITE_RED, sample(WHITE_RED, takes=(1, 2, 4))),
    (UNIQUES, sample(UNIQUES, seat="second", cities=(1, 3, 5), takes=(1, 2, 3), turns=7)),
    ({"BK1-001": 12}, sample({"BK1-001": 12}, takes=(2, 3))),
], ids=["white-red", "white-red-second-8-turns", "uniques", "uniques-second-cities", "tiny-deck-out",
        "white-red-takes", "uniques-second-takes", "city-draws-empty-the-library"])
def test_vectorised_simulator_plays_every_game_exactly_as_the_reference_does(deck: dict[str, int],
                                                                              options: SimulationOptions) -> None:
    assert simulate(deck, options, cards=CARDS).to_dict() == simulate_reference(deck, options, cards=CARDS).to_dict()


@pytest.mark.slow
def test_vectorised_and_reference_agree_statistically_on_independent_shuffles() -> None:
    fast = simulate(UNIQUES, SimulationOptions(games=20_000, seed=1), cards=CARDS).to_dict()
    slow = simulate_reference(UNIQUES, SimulationOptions(games=600, seed=2), cards=CARDS).to_dict()
    for f, s in zip(fast["turns"], slow["turns"]):
        p = (f["p_any_open"] * 20_000 + s["p_any_open"] * 600) / 20_600
        # z = 3.29: a 99.9% two-sample bound, since six turns are compared at once
        tolerance = 3.29 * sqrt(max(p * (1 - p), 1e-4) * (1 / 20_000 + 1 / 600))
        assert abs(f["p_any_open"] - s["p_any_open"]) <= tolerance, (f, s)


@pytest.mark.parametrize("deck", [WHITE_RED, UNIQUES], ids=["white-red", "uniques"])
@pytest.mark.parametrize("seat", ["first", "second"])
def test_simulated_turn_one_agrees_with_the_exact_value_within_its_interval(deck: dict[str, int], seat: str) -> None:
    first = simulate(deck, SimulationOptions(games=20_000, turns=1, seat=seat, seed=5), cards=CARDS).to_dict()["turns"][0]
    lo, hi = first["ci95"]
    assert lo <= first["p_any_open_exact"] <= hi


SMALL_CARDS = {"W0": make_card("W0", level=0), "W1": make_card("W1", level=1, cost=Cost(white=1, colourless=1)),
               "R0": make_card("R0", colour="red", level=0, cost=Cost(red=2)),
               "G0": make_card("G0", colour="green", level=0, cost=Cost(colourless=2)),
               "GR": make_card("GR", colour="green", level=0, cost=Cost(red=1, green=1))}


@pytest.mark.parametrize("deck", [{"W0": 2, "W1": 3, "R0": 4, "G0": 2}, {"W0": 2, "W1": 2, "R0": 3, "G0": 1, "GR": 3}],
                         ids=["own-colour-costs", "a-cost-in-another-colour"])
def test_exact_value_equals_counting_every_hand_of_a_small_deck(deck: dict[str, int]) -> None:
    copies = expand(deck)
    for hand_size, cities in [(3, 0), (4, 1), (5, 0), (7, 1)]:
        hands = list(combinations(range(len(copies)), hand_size))
        good = sum(any(can_open(copies[i], PlayerState(cards=SMALL_CARDS, hand=tuple(copies[j] for j in h),
                                                       cities=cities)).ok for i in h) for h in hands)
        assert p_any_open_exact(deck, SMALL_CARDS, hand_size, cities) == pytest.approx(good / len(hands), abs=1e-12)


def test_exact_value_is_given_after_a_turn_when_nothing_could_be_opened_and_not_after_a_discard() -> None:
    first = simulate(NO_LEVEL_ZERO, SimulationOptions(games=2_000, turns=3), cards=CARDS).to_dict()["turns"]
    assert first[0]["p_any_open_exact"] == 0.0 and first[0]["p_any_open"] == 0.0
    assert "p_any_open_exact" in first[1] and "p_any_open_exact" not in first[2]
    lo, hi = first[1]["ci95"]
    assert lo <= first[1]["p_any_open_exact"] <= hi
    second = simulate(NO_LEVEL_ZERO, SimulationOptions(games=2_000, turns=3, seat="second"), cards=CARDS).to_dict()["turns"]
    assert [("p_any_open_exact" in t) for t in second] == [True, False, False]


def test_the_same_seed_gives_the_same_result_and_another_seed_does_not() -> None:
    a = simulate(UNIQUES, SimulationOptions(games=3_000, seed=42), cards=CARDS)
    b = simulate(UNIQUES, SimulationOptions(games=3_000, seed=42), cards=CARDS)
    c = simulate(UNIQUES, SimulationOptions(games=3_000, seed=43), cards=CARDS)
    assert a.render_text() == b.render_text() and a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()


def test_a_deck_too_small_for_the_turns_always_decks_out_and_opens_nothing_afterwards() -> None:
    result = simulate({"BK1-001": 9}, SimulationOptions(games=500, turns=6), cards=CARDS).to_dict()
    assert result["p_decked"] == 1.0
    assert [t["p_any_open"] for t in result["turns"]] == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]
    assert result["cards"][0]["p_openable_by_turn"][-1] == 1.0
    assert simulate({"BK1-001": 9}, SimulationOptions(games=50, turns=3), cards=CARDS).to_dict()["p_decked"] == 0.0


def test_cities_are_set_aside_with_a_warning() -> None:
    result = simulate({"BK1-001": 44, "CITY-R": 1}, SimulationOptions(games=100), cards=CARDS)
    assert result.warnings == ("cities are never in a deck: set aside CITY-R",)
    assert [c["id"] for c in result.to_dict()["cards"]] == ["BK1-001"]


def test_progress_is_reported_for_every_game() -> None:
    seen: list[int] = []
    simulate(WHITE_RED, SimulationOptions(games=30_001, turns=1), progress=seen.append, cards=CARDS)
    assert sum(seen) == 30_001 and len(seen) >= 2


def test_per_card_chance_never_falls_from_one_turn_to_the_next() -> None:
    cards = simulate(UNIQUES, SimulationOptions(games=2_000), cards=CARDS).to_dict()["cards"]
    assert all(np.all(np.diff(c["p_openable_by_turn"]) >= 0) for c in cards)
    assert {c["id"] for c in cards} == set(UNIQUES)


PLAYABLE = sorted(c for c in CARDS if not CARDS[c].is_city)


@st.composite
def schedules(draw: st.DrawFn) -> tuple[str, int, tuple[int, ...] | None, tuple[int, ...]]:
    """A seat, a number of turns, a cities schedule the rules can produce (or None) and takes it allows."""
    seat = draw(st.sampled_from(["first", "second"]))
    turns = draw(st.integers(1, 7))
    cities: tuple[int, ...] | None = None
    if draw(st.booleans()):
        values: list[int] = []
        for turn in range(1, draw(st.integers(1, turns)) + 1):
            values.append(draw(st.integers(values[-1] if values else 0, max_revealed(turn, seat))))
        cities = tuple(values)
    schedule = cities_schedule(turns, cities, seat)
    takes: list[int] = []
    for turn in draw(st.lists(st.integers(1, turns), unique=True, max_size=turns).map(sorted)):
        if len(takes) + 1 <= schedule[min(turn, turns - 1)]:
            takes.append(turn)
    return seat, turns, cities, tuple(takes)


@pytest.mark.slow
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kinds=st.lists(st.sampled_from(PLAYABLE), min_size=1, max_size=12, unique=True),
       copies=st.lists(st.integers(1, 4), min_size=12, max_size=12),
       plan=schedules(), policy=st.sampled_from(sorted(DISCARD_POLICIES)), seed=st.integers(0, 2**32))
def test_vectorised_and_reference_simulators_match_on_random_decks(
        kinds: list[str], copies: list[int], plan: tuple[str, int, tuple[int, ...] | None, tuple[int, ...]],
        policy: str, seed: int) -> None:
    deck = {cid: n for cid, n in zip(kinds, copies)}
    seat, turns, cities, takes = plan
    options = SimulationOptions(games=40, turns=turns, seed=seed, seat=seat, cities=cities, takes=takes or None)
    chosen = DISCARD_POLICIES[policy]
    assert (simulate(deck, options, cards=CARDS, policy=chosen).to_dict()
            == simulate_reference(deck, options, cards=CARDS, policy=chosen).to_dict())


def test_exact_value_matches_the_closed_form_for_mercenaries_needing_a_second_white_card() -> None:
    cards = {"MERC": make_card("MERC", level=0, mercenary=True), "LATE": make_card("LATE", colour="red", level=9)}
    deck = {"MERC": 10, "LATE": 35}
    # openable iff the 7-card hand holds at least two white cards
    closed = 1 - (comb(35, 7) + 10 * comb(35, 6)) / comb(45, 7)
    assert p_any_open_exact(deck, cards, 7, 0) == pytest.approx(closed, abs=1e-12)
    first = simulate(deck, SimulationOptions(games=20_000, turns=1), cards=cards).to_dict()["turns"][0]
    assert first["ci95"][0] <= closed <= first["ci95"][1]


def test_the_same_seed_gives_the_same_result_whatever_the_number_of_worker_processes(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import cardkit.games.berserk_tcg.opening.simulate as fast

    monkeypatch.setattr(fast, "CHUNK_CELLS", 45 * 70)  # blocks of seventy games, as a 4,500-card deck would get
    results = [simulate(UNIQUES, SimulationOptions(games=1_000, seed=3, jobs=jobs), cards=CARDS).to_dict()
               for jobs in (1, 2, 3)]
    assert results[0] == results[1] == results[2]
    other = simulate(UNIQUES, SimulationOptions(games=1_000, seed=4, jobs=2), cards=CARDS).to_dict()
    assert other != results[0]


def test_blocks_played_in_worker_processes_add_up_to_every_game_once(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import cardkit.games.berserk_tcg.opening.simulate as fast

    monkeypatch.setattr(fast, "CHUNK_CELLS", 45 * 70)
    seen: list[int] = []
    run = simulate(UNIQUES, SimulationOptions(games=301, seed=3, jobs=2), progress=seen.append, cards=CARDS)
    assert run.tally.games == 301 and sum(seen) == 301 and len(seen) == 5
    # and the reference, given no orders, plays the very shuffles of those blocks
    assert run.to_dict() == simulate_reference(UNIQUES, SimulationOptions(games=301, seed=3), cards=CARDS).to_dict()


def test_decks_larger_than_int16_are_shuffled_without_wrapping_around() -> None:
    orders = shuffles(np.random.Generator(np.random.PCG64(1)), 2, 40_000)
    assert all(sorted(row.tolist()) == list(range(40_000)) for row in orders)


@pytest.mark.parametrize("options,message", [
    (SimulationOptions(games=0), "^games must be between 1"),
    (SimulationOptions(turns=0), "^turns must be between 1"),
    (SimulationOptions(seat="third"), "^seat must be 'first' or 'second'"),
    (SimulationOptions(gold=3), "^gold does not apply"),
], ids=["zero-games", "zero-turns", "unknown-seat", "squad-option"])
@pytest.mark.parametrize("run", [simulate, simulate_reference], ids=["vectorised", "reference"])
def test_the_library_refuses_bad_options_itself_naming_the_parameter_not_a_cli_option(  # type: ignore[no-untyped-def]
        run, options: SimulationOptions, message: str) -> None:
    with pytest.raises(BadArgument, match=message) as refused:
        run(WHITE_RED, options, cards=CARDS)
    assert refused.value.parameter == message[1:].split()[0] and "--" not in refused.value.message


@pytest.mark.parametrize("deck,message", [
    ({}, "no cards to simulate"),
    ({"BK1-001": 0}, "no cards to simulate"),
    ({"CITY-R": 1}, "no cards to simulate besides cities"),
    ({"BK1-001": 44, "NOPE-999": 1}, "not Berserk TCG cards: NOPE-999"),
], ids=["empty", "zero-copies", "only-a-city", "unknown-id"])
def test_a_deck_with_nothing_to_simulate_is_a_bad_argument(deck: dict[str, int], message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        simulate(deck, SimulationOptions(games=10), cards=CARDS)


@pytest.mark.parametrize("run", [simulate, simulate_reference], ids=["vectorised", "reference"])
def test_a_card_without_a_colour_that_is_not_a_city_is_a_bad_argument_not_a_crash(run) -> None:  # type: ignore[no-untyped-def]
    # Only cities lack a colour; a hand-built card table may still hold such a card, and the vectorised
    # simulator used to stop on a TypeError putting None in its colour array.
    cards = {"W0": make_card("W0"), "NONE": make_card("NONE", colour=None, cost=Cost(colourless=1))}
    with pytest.raises(BadArgument, match="NONE: no colour"):
        run({"W0": 20, "NONE": 20}, SimulationOptions(games=10), cards=cards)


def hands_by_rule(turns: int, seat: str, takes: tuple[int, ...], opens: bool, size: int = 40) -> list[int]:
    """Hand size at each opening phase, worked out from the turn rules alone.

    Start with 7; draw 1 (not on the first seat's first turn); if `opens`, open one
    card paying one other; on a take "draw 2 cards"; at the end discard down to 7.
    """
    hand, library, sizes = 7, size - 7, []
    for turn in range(1, turns + 1):
        if not (seat == "first" and turn == 1):
            hand, library = hand + 1, library - 1
        sizes.append(hand)
        hand -= 2 if opens else 0
        if turn in takes:
            drawn = min(2, library)
            hand, library = hand + drawn, library - drawn
        hand = min(hand, 7)
    return sizes


@pytest.mark.parametrize("seat", ["first", "second"])
@pytest.mark.parametrize("takes", [(), (2, 4), (1, 2, 3)], ids=["no-takes", "takes-2-4", "takes-1-2-3"])
@pytest.mark.parametrize("opens", [True, False], ids=["opens-every-turn", "never-opens"])
@pytest.mark.parametrize("run", [simulate, simulate_reference], ids=["vectorised", "reference"])
def test_mean_hand_equals_the_hand_size_the_turn_rules_give(run, seat: str, takes: tuple[int, ...],  # type: ignore[no-untyped-def]
                                                            opens: bool) -> None:
    # Every card costs one card: an opening phase that opens spends exactly two, so hand sizes are deterministic.
    cards = {"W": make_card("W", level=0 if opens else 9)}
    options = SimulationOptions(games=50, turns=6, seat=seat, takes=takes or None)
    result = run({"W": 40}, options, cards=cards).to_dict()
    assert [t["mean_hand"] for t in result["turns"]] == hands_by_rule(6, seat, takes, opens)
    assert [t["taken"] for t in result["turns"]] == [sum(1 for t in takes if t < turn) for turn in range(1, 7)]


def test_a_decked_out_player_counts_an_empty_hand() -> None:
    result = simulate({"W": 8}, SimulationOptions(games=20, turns=4, seat="second"), cards={"W": make_card("W", level=9)})
    assert [t["mean_hand"] for t in result.to_dict()["turns"]] == [8, 0, 0, 0]


def test_city_draws_keep_the_exact_value_until_the_hand_goes_over_the_limit() -> None:
    # nothing is openable on turn 1 (every card needs a city), so turn 2's hand is still the library's top
    late = {"L": make_card("L", level=1), "W": make_card("W", level=2)}
    deck = {"L": 20, "W": 25}
    plain = simulate(deck, SimulationOptions(games=100, turns=3), cards=late).exact
    taking = simulate(deck, SimulationOptions(games=100, turns=3, takes=(1,)), cards=late).exact
    assert plain[1] is not None and plain[1] == p_any_open_exact(deck, late, 8, 1)
    assert taking[1] is None  # 7 + 2 city cards were cut down to 7: no longer the untouched top
