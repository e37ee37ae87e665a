"""Crystal budgets: the format's squad data read as rules."""

from __future__ import annotations

import pytest

from cardkit.errors import BadArgument
from cardkit.games.squad_games.squads.budget import SquadRules, budget_for, squad_rules
from cardkit.games.squad_games.squads.cards import squad_card


@pytest.fixture(scope="module")
def online() -> SquadRules:
    return squad_rules("berserk-online")


@pytest.fixture(scope="module")
def ccg() -> SquadRules:
    return squad_rules("berserk-ccg")


@pytest.mark.parametrize("elements, gold", [(0, 24), (1, 24), (2, 23), (3, 22), (4, 21)],
                         ids=["neutral-only", "one", "two", "three", "four"])
def test_online_gold_is_23_plus_one_for_a_single_element_minus_one_beyond_two(online: SquadRules, elements: int, gold: int) -> None:
    b = budget_for(online, elements)
    assert (b.gold, b.silver) == (gold, 22)


@pytest.mark.parametrize("elements, gold", [(0, 24), (1, 24), (2, 23), (3, 22), (4, 21)])
def test_ccg_gold_is_24_minus_one_per_element_beyond_the_first(ccg: SquadRules, elements: int, gold: int) -> None:
    assert budget_for(ccg, elements).gold == gold


def test_online_second_seat_gets_one_silver_only(online: SquadRules) -> None:
    first, second = budget_for(online, 2, "first"), budget_for(online, 2, "second")
    assert (second.gold - first.gold, second.silver - first.silver) == (0, 1)


def test_ccg_second_seat_gets_one_gold_and_one_silver(ccg: SquadRules) -> None:
    b = budget_for(ccg, 1, "second")
    assert (b.gold, b.silver) == (25, 23)


def test_each_redeal_costs_one_gold(online: SquadRules, ccg: SquadRules) -> None:
    for rules in (online, ccg):
        golds = [budget_for(rules, 2, redeals=n).gold for n in range(4)]
        assert [golds[0] - g for g in golds] == [0, 1, 2, 3]


def test_gold_and_silver_overrides_replace_the_base_but_keep_the_modifiers(online: SquadRules) -> None:
    b = budget_for(online, 3, "second", redeals=1, gold=30, silver=10)
    assert (b.gold, b.silver) == (30 - 1 - 1, 11)
    assert [s[0] for s in b.steps] == ["base (table setting)", "3 element(s)", "second seat", "1 re-deal(s)"]


def test_derivation_steps_add_up_to_the_budget(ccg: SquadRules) -> None:
    b = budget_for(ccg, 3, "second", redeals=2)
    assert sum(d["gold"] for d in b.derivation()) == b.gold == 24 - 2 + 1 - 2
    assert sum(d["silver"] for d in b.derivation()) == b.silver == 23


def test_counts_past_the_table_continue_its_last_step(online: SquadRules) -> None:
    rules = SquadRules.from_dict("t", "berserk-online", {"gold": 23, "silver": 22, "element_gold": {"0": 1, "1": 1, "2": 0}})
    assert [rules.element_modifier(n) for n in range(5)] == [1, 1, 0, -1, -2]


def test_element_modifier_that_grows_with_elements_is_refused() -> None:
    with pytest.raises(BadArgument):
        SquadRules.from_dict("t", "berserk-online", {"gold": 23, "silver": 22, "element_gold": {"0": 0, "1": 0, "2": 2}})


def test_unknown_seat_is_a_bad_argument(online: SquadRules) -> None:
    with pytest.raises(BadArgument):
        budget_for(online, 1, "third")


def test_a_format_without_squad_rules_is_a_bad_argument() -> None:
    with pytest.raises(BadArgument, match="no squad rules"):
        squad_rules("berserk-tcg")


def test_element_comes_from_the_card_record_not_its_id(online: SquadRules) -> None:
    # Real catalogue cards whose id prefix names another element than the card has.
    from cardkit.games.squad_games.squads.cards import squad_cards

    cards = squad_cards("berserk-online")
    assert online.elements_of([cards["n_graenn"]]) == ["mountains"]
    assert online.elements_of([cards["d_samael"]]) == []
    made_up = squad_card({"id": "f_forest_looking", "name": "X", "cost": 3, "elite": False, "elements": ["swamps"], "type": "creature"})
    assert online.elements_of([made_up]) == ["swamps"]


def test_neutral_counts_as_an_element_only_when_the_format_says_so() -> None:
    card = squad_card({"id": "n1", "name": "N", "cost": 3, "elite": False, "elements": [], "type": "creature"})
    data = {"gold": 23, "silver": 22, "element_gold": {"0": 1, "1": 1, "2": 0}}
    assert SquadRules.from_dict("t", "berserk-online", data).elements_of([card]) == []
    assert SquadRules.from_dict("t", "berserk-online", {**data, "neutral_is_element": True}).elements_of([card]) == ["neutral"]


def test_card_kinds_are_read_from_both_catalogues() -> None:
    from cardkit.games.squad_games.squads.cards import squad_cards

    ccg, online = squad_cards("berserk-ccg"), squad_cards("berserk-online")
    assert ccg["10014"].flyer and ccg["20011"].terrain and ccg["20006"].symbiote and ccg["10036"].unique
    assert online["n_oko_buri"].flyer and online["n_oko_buri"].unique and online["b_zybuny_fathi"].terrain
