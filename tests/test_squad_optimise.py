"""The best-squad optimiser, proved against brute force over every subset of small deals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.games.squad_games.squads.budget import SquadRules, squad_rules
from cardkit.games.squad_games.squads.cards import SquadCard, squad_cards
from cardkit.games.squad_games.squads.check import best_for_file, budget_problems, ledger_for, rule_problems
from cardkit.games.squad_games.squads.optimise import best_squad, brute_force_key, is_legal
from cardkit.games.squad_games.squads.read import read_squad_file

RULES = {name: squad_rules(name) for name in ("berserk-online", "berserk-ccg")}
# A made-up format exercising the mechanisms the two real ones leave idle.
CUSTOM = SquadRules.from_dict("custom", "berserk-ccg", {
    "gold": 14, "silver": 9, "element_gold": {"0": 2, "1": 1, "2": -1}, "neutral_is_element": True,
    "second_seat": {"gold": 2, "silver": 0}, "redeal_gold": 2, "flyer_crystal_cap": 6, "max_terrains": 2,
    "unique_once": False})


def _pool(game: str) -> list[SquadCard]:
    """A varied pool: every kind that matters (elite, neutral, unique, flyer, terrain) in several elements."""
    cards = list(squad_cards(game).values())
    picks: list[SquadCard] = []
    for test in (lambda c: c.flyer, lambda c: c.terrain, lambda c: c.unique and c.elite, lambda c: not c.elements,
                 lambda c: c.elite and not c.unique, lambda c: not c.elite and not c.unique):
        for element in ("forest", "mountains", "steppe", None):
            found = [c for c in cards if test(c) and (c.elements == {element} if element else not c.elements)]
            picks += found[:2]
    return list(dict.fromkeys(picks))


POOLS = {name: _pool(rules.game) for name, rules in RULES.items()}


@st.composite
def deals(draw):
    fmt = draw(st.sampled_from(sorted(RULES) + ["custom"]))
    pool = POOLS["berserk-ccg" if fmt == "custom" else fmt]
    deal = draw(st.lists(st.sampled_from(pool), min_size=0, max_size=10))
    seat = draw(st.sampled_from(["first", "second"]))
    redeals = draw(st.integers(0, 3))
    gold = draw(st.one_of(st.none(), st.integers(3, 30)))
    silver = draw(st.one_of(st.none(), st.integers(0, 30)))
    return (CUSTOM if fmt == "custom" else RULES[fmt]), deal, seat, redeals, gold, silver


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(deals())
def test_best_squad_matches_brute_force_over_all_subsets(case) -> None:
    rules, deal, seat, redeals, gold, silver = case
    best = best_squad(deal, rules, seat, redeals, gold, silver, probe=rules.redeal_gold)
    assert best.key == brute_force_key(deal, rules, seat, redeals, gold, silver)
    chosen = [deal[p] for p in best.positions]
    assert is_legal(chosen, rules, seat, redeals, gold, silver) == best.found
    # The probe (one re-deal's gold less) is exact too.
    assert best.probe_spent == brute_force_key(deal, rules, seat, redeals + 1, gold, silver)[0]


@settings(max_examples=examples(60), deadline=None)
@given(deals())
def test_the_best_squad_passes_the_squad_check(case) -> None:
    rules, deal, seat, redeals, gold, silver = case
    best = best_squad(deal, rules, seat, redeals, gold, silver)
    assume(best.found)
    chosen = [deal[p] for p in best.positions]
    ledger = ledger_for(chosen, rules, seat, redeals, gold, silver)
    assert budget_problems(ledger) == [] and rule_problems([(c, None) for c in chosen], rules) == []
    assert ledger.left_gold >= 0 and ledger.left_silver >= 0


def test_ties_in_crystals_prefer_more_cards_then_more_elite_cards() -> None:
    cards = squad_cards("berserk-online")
    rules = RULES["berserk-online"]
    # 4 gold, no silver: a 4-cost elite, a 4-cost ordinary card or two 2-cost elites all spend 4; two cards win.
    deal = [cards["n_apostol_boli"], cards["n_begushij_po_lezviyu"], cards["n_kartograf"], cards["n_kartograf"]]
    best = best_squad(deal, rules, gold=3, silver=0)  # neutral: 3 + 1 = 4 gold
    assert best.key == (4, 2, 2)  # the two elite 2-cost cards beat one 4-cost card of either kind
    # One card either way: the elite one wins.
    deal = [cards["n_apostol_boli"], cards["n_begushij_po_lezviyu"]]
    assert best_squad(deal, rules, gold=3, silver=0).elites == 1


def test_equal_squads_are_told_apart_by_the_most_gold_whatever_the_order_of_the_deal() -> None:
    cards = squad_cards("berserk-online")
    rules = RULES["berserk-online"]
    # 3 gold + 1 silver: one element gets 4 gold, two get 3. Two forest cards or a forest and a mountain card
    # both spend 4 on two cards; the forest pair keeps the one-element budget, in whichever order they are dealt.
    names = ["f_straj_loschiny", "m_gnom-podhvat", "f_kilay"]
    for order in (names, names[::-1], names[1:] + names[:1]):
        best = best_squad([cards[n] for n in order], rules, gold=3, silver=1)
        assert (best.key, best.elements, best.gold) == ((4, 2, 0), ("forest",), 4)


def test_element_subsets_are_tried_a_single_element_can_beat_two() -> None:
    cards = squad_cards("berserk-online")
    rules = RULES["berserk-online"]
    # Forest alone gets 24 gold; adding a mountain card drops it to 23 and would leave elite forest unpaid.
    deal = [cards["f_zolotoy_drakon"], cards["f_korred"], cards["f_korred"], cards["f_korred"], cards["m_tuporyl"]]
    best = best_squad(deal, rules, silver=0)
    assert best.elements == ("forest",) and best.spent == 22
    assert best.key == brute_force_key(deal, rules, silver=0)


def test_best_reads_a_deal_file_and_reports_the_ledger(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    dealt = json.loads((Path(__file__).parent / "data" / "squads" / "online-legal.json").read_text())["dealt"]
    path.write_text(json.dumps({"format": "berserk-online", "dealt": dealt}), encoding="utf-8")
    result = best_for_file(read_squad_file(path), RULES["berserk-online"])
    assert result.report.legal and result.spent == 46
    d = result.to_dict()
    assert len(d["squad"]) + len(d["not_chosen"]) == 15


def test_nothing_is_chosen_from_an_empty_deal() -> None:
    assert best_squad([], RULES["berserk-ccg"]).key == (0, 0, 0)


@pytest.mark.parametrize("fmt", sorted(RULES))
def test_a_deal_of_fifteen_real_cards_is_solved_like_brute_force_on_its_first_ten(fmt: str) -> None:
    import random

    rng = random.Random(11)
    pool = POOLS[fmt]
    for _ in range(5):
        deal = [rng.choice(pool) for _ in range(10)]
        assert best_squad(deal, RULES[fmt]).key == brute_force_key(deal, RULES[fmt])


def test_a_deal_with_too_many_capped_flyers_is_refused_rather_than_searched_forever() -> None:
    from cardkit.errors import BadArgument
    from cardkit.games.squad_games.squads.optimise import MAX_CAPPED

    flyers = [c for c in squad_cards("berserk-ccg").values() if c.flyer and not c.unique]
    with pytest.raises(BadArgument, match="flyers and terrains"):
        best_squad((flyers * 3)[: MAX_CAPPED + 1], RULES["berserk-ccg"])


def test_a_large_deal_within_a_generous_budget_takes_every_card_but_repeated_uniques() -> None:
    cards = [c for c in squad_cards("berserk-online").values() if c.elements <= {"forest"} and not c.flyer][:60]
    deal = cards * 2
    best = best_squad(deal, RULES["berserk-online"], gold=1000, silver=1000, probe=1)
    ordinary = [c for c in cards if not c.unique]
    assert best.cards == len(cards) + len(ordinary)
    assert best.spent == best.probe_spent == sum(c.cost for c in cards) + sum(c.cost for c in ordinary)


def test_a_huge_deal_with_a_huge_budget_that_does_not_fit_is_refused_rather_than_searched_for_minutes() -> None:
    from cardkit.errors import BadArgument

    cards = [c for c in squad_cards("berserk-online").values() if c.elements <= {"forest"} and not c.unique][:50]
    total = sum(c.cost for c in cards) * 4
    with pytest.raises(BadArgument, match="too large to search"):
        best_squad(cards * 4, RULES["berserk-online"], gold=total // 4, silver=total // 4)


def test_capped_subsets_are_exactly_the_combinations_within_the_flyer_cap_and_terrain_limit() -> None:
    from itertools import combinations

    from cardkit.games.squad_games.squads.optimise import _capped_subsets

    rules = RULES["berserk-ccg"]
    table = squad_cards("berserk-ccg").values()
    deal = [c for c in table if c.flyer][:8] + [c for c in table if c.terrain][:4]
    positions = list(range(len(deal)))
    expected = {combo for k in range(1, len(deal) + 1) for combo in combinations(positions, k)
                if sum(deal[p].cost for p in combo if deal[p].flyer) <= rules.flyer_crystal_cap
                and sum(deal[p].terrain for p in combo) <= rules.max_terrains}
    listed = [a.positions for a in _capped_subsets(deal, positions, rules)]
    assert len(listed) == len(set(listed)) and set(listed) == expected


@pytest.mark.parametrize("fmt", sorted(RULES))
def test_a_budget_whose_gold_and_silver_sum_below_zero_allows_no_squad_at_all(fmt: str) -> None:
    deal = POOLS[fmt][:6]
    best = best_squad(deal, RULES[fmt], gold=10, silver=-30)
    assert best.found is False and best.positions == ()
    assert best.key == brute_force_key(deal, RULES[fmt], gold=10, silver=-30) == (-1, -1, -1)


def test_when_everything_fits_a_group_takes_more_elite_cards_before_more_gold_on_elite_cards() -> None:
    from cardkit.games.squad_games.squads.optimise import _EMPTY, _Alt, _everything_fits, _group

    # Same crystals and cards: two elite cards costing 1 each beat one elite card costing 3.
    two_cheap = _Alt(t=4, n=3, e=2, elites=2, positions=(0, 1, 2))
    one_dear = _Alt(t=4, n=3, e=3, elites=1, positions=(3, 4, 5))
    key, positions, _ = _everything_fits([_group([_EMPTY, one_dear, two_cheap])], probe=0)
    assert key == (4, 3, 2) and positions == (0, 1, 2)


def _card(cid: str, cost: int, element: str, elite: bool) -> SquadCard:
    return SquadCard(id=cid, name=cid, cost=cost, elite=elite, elements=frozenset({element}), unique=False,
                     flyer=False, terrain=False, symbiote=False)


def test_an_element_subset_that_can_only_tie_on_crystals_is_still_searched_for_more_cards() -> None:
    # Forest alone: 24 gold pays all six elite forest cards, 24 crystals in 6 cards. Forest and
    # mountains: 23 gold and 1 silver reach 24 crystals only as 6+6+6+2 elite and the mountain 4,
    # in 5 cards. The forest run can spend no more than 24, yet it is the better squad.
    deal = [_card(f"f{i}", cost, "forest", True) for i, cost in enumerate((6, 6, 6, 2, 2, 2))]
    deal.append(_card("m", 4, "mountains", False))
    rules = RULES["berserk-online"]
    best = best_squad(deal, rules, gold=23, silver=1)
    assert best.key == brute_force_key(deal, rules, gold=23, silver=1) == (24, 6, 6)
    assert best.elements == ("forest",)
