"""The Angriffstabelle and the exact odds of a simple strike (Ammah 2-3-4, life 9 on Ahti 2-2-3, life 11)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from cardkit.games.squad_games.battle.combat import strike_on_closed, strike_on_open
from cardkit.games.squad_games.battle.odds import strike_odds
from cardkit.games.squad_games.battle.rules import Strike, closed_target_hit, strike_table, variable_shot_hit

AMMAH, AHTI = Strike(2, 3, 4), Strike(2, 2, 3)


@pytest.mark.parametrize("dice, hits", [
    ((6, 1), ("strong", "miss")), ((4, 2), ("medium", "weak")), ((1, 5), ("weak", "medium")),
    ((2, 4), ("miss", "miss")), ((3, 3), ("weak", "miss")), ((6, 6), ("miss", "weak")),
], ids=["6:1", "4:2", "1:5", "2:4", "3:3", "6:6"])
def test_the_angriffstabelle_gives_each_sides_strike_for_the_issues_rolls(dice: tuple[int, int], hits: tuple[str, str]) -> None:
    assert strike_table(*dice) == hits


@pytest.mark.parametrize("dice, ahti, ammah", [((6, 1), 7, 9), ((4, 2), 8, 7), ((1, 5), 9, 7), ((2, 4), 11, 9),
                                              ((3, 3), 9, 9), ((6, 6), 11, 7)])
def test_ammah_striking_ahti_leaves_the_lives_the_issue_gives(dice: tuple[int, int], ahti: int, ammah: int) -> None:
    ex = strike_on_open(AMMAH, AHTI, *dice)
    assert (11 - ex.to_defender, 9 - ex.to_attacker) == (ahti, ammah)


def test_fuenf_oder_hoeher_counts_every_difference_of_five_alike() -> None:
    # "5 oder höher": on one die only 6:1 and 1:6 differ by five, so the row is all there is.
    assert strike_table(6, 1) == ("strong", "miss")
    assert strike_table(1, 6) == ("miss", "medium")


def test_equal_dice_split_at_four_or_less_and_five_or_more() -> None:
    assert {strike_table(d, d) for d in range(1, 5)} == {("weak", "miss")}
    assert {strike_table(d, d) for d in (5, 6)} == {("miss", "weak")}


def test_a_die_outside_one_to_six_is_refused() -> None:
    with pytest.raises(ValueError):
        strike_table(7, 1)


def test_over_all_36_rolls_ammah_deals_65_36_to_ahti_and_takes_28_36() -> None:
    odds = strike_odds(AMMAH, AHTI, 9, 11)
    assert odds.expected_to_defender == Fraction(65, 36)
    assert odds.expected_to_attacker == Fraction(28, 36)
    assert sum(o.p for o in odds.outcomes) == 1


def _enumerate(a: Strike, d: Strike, a_life: int, d_life: int) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """The same numbers, pair by pair, without the grouping `strike_odds` does."""
    to_d = to_a = dies_d = dies_a = Fraction(0)
    for x in range(1, 7):
        for y in range(1, 7):
            ah, dh = strike_table(x, y)
            hit_d, hit_a = a.damage(ah), d.damage(dh)
            to_d += Fraction(hit_d, 36)
            to_a += Fraction(hit_a, 36)
            dies_d += Fraction(int(hit_d >= d_life), 36)
            dies_a += Fraction(int(hit_a >= a_life), 36)
    return to_d, to_a, dies_d, dies_a


@pytest.mark.parametrize("seed", range(20))
def test_exact_odds_agree_with_enumerating_the_36_rolls(seed: int) -> None:
    rng = random.Random(seed)
    a, d = (Strike(*sorted(rng.randint(0, 7) for _ in range(3))) for _ in range(2))
    a_life, d_life = rng.randint(1, 8), rng.randint(1, 8)
    odds = strike_odds(a, d, a_life, d_life)
    assert (odds.expected_to_defender, odds.expected_to_attacker, odds.p_defender_dies, odds.p_attacker_dies) == \
        _enumerate(a, d, a_life, d_life)
    assert sum(o.p for o in odds.outcomes) == 1


def test_twenty_thousand_simulated_strikes_land_near_the_exact_expectation() -> None:
    rng = random.Random(13)
    n = 20000
    total = sum(strike_on_open(AMMAH, AHTI, rng.randint(1, 6), rng.randint(1, 6)).to_defender for _ in range(n))
    exact = float(Fraction(65, 36))
    # The damage lies in 0..4, so its standard deviation is at most 2: five standard errors.
    assert abs(total / n - exact) < 5 * 2 / n ** 0.5


def test_an_ammah_with_two_life_left_dies_whenever_ahti_strikes_back() -> None:
    odds = strike_odds(AMMAH, AHTI, 2, 11)
    assert odds.p_attacker_dies == sum(o.p for o in odds.outcomes if o.defender_hit != "miss")
    assert odds.p_defender_dies == 0


def test_the_reading_for_a_closed_card_is_one_die_one_to_three_weak_four_five_medium_six_strong() -> None:
    assert [closed_target_hit(d) for d in range(1, 7)] == ["weak"] * 3 + ["medium"] * 2 + ["strong"]
    ex = strike_on_closed(AMMAH, 6)
    assert (ex.to_defender, ex.to_attacker, ex.defender_hit) == (4, 0, "miss")


def test_a_shot_written_2_3_4_maps_to_the_die_by_the_same_reading() -> None:
    assert [variable_shot_hit(d) for d in range(1, 7)] == ["weak"] * 3 + ["medium"] * 2 + ["strong"]


def test_the_odds_json_names_both_cards_beside_their_strikes_and_keeps_the_exact_figures() -> None:
    from cardkit.games.squad_games.battle.lookup import find_battle_pair
    from cardkit.games.squad_games.battle.odds import card_strike_odds, odds_to_json

    game, attacker, defender = find_battle_pair("b_ammah", "b_ahti")
    odds = card_strike_odds(game, attacker, defender, None, None)
    document = odds_to_json(odds, attacker, defender)
    assert document["attacker"] == {"strike": str(odds.attacker), "life": odds.attacker_life, "card": attacker.id, "name": attacker.name}
    assert (document["defender"]["card"], document["defender"]["name"]) == (defender.id, defender.name)
    assert document["p_defender_dies_exact"] == str(odds.p_defender_dies)
    assert sum(Fraction(o["p_exact"]) for o in document["outcomes"]) == 1
    assert "card" not in odds.to_dict()["attacker"], "the odds alone know no card"
