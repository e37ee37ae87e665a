"""Simulated deals: determinism, agreement with the optimiser, and exact maths."""

from __future__ import annotations

from collections import Counter
from math import comb
from pathlib import Path

import pytest

from cardkit.games.squad_games.squads.budget import SquadRules, squad_rules
from cardkit.games.squad_games.squads.cards import squad_cards
from cardkit.games.squad_games.squads.check import ledger_for
from cardkit.games.squad_games.squads.deal_sim import deal_positions, optimiser_class, simulate_deals
from cardkit.games.squad_games.squads.optimise import best_squad

ONLINE = squad_rules("berserk-online")
CARDS = squad_cards("berserk-online")


def forest_deck(mountains: int = 3) -> list:
    forest = ["f_margolok", "f_silmern", "f_korred", "f_zataivshiysya_otryad", "f_chasovye_kronga",
              "n_bersard", "n_ekzarh", "n_varlok", "n_begushij_po_lezviyu"]
    deck = [CARDS[c] for c in forest for _ in range(3)][: 30 - mountains]
    return deck + [CARDS["m_snurg"]] * mountains


def test_the_same_seed_gives_the_same_result_and_another_seed_differs() -> None:
    a = simulate_deals(forest_deck(), ONLINE, 300, seed=5)
    b = simulate_deals(forest_deck(), ONLINE, 300, seed=5)
    c = simulate_deals(forest_deck(), ONLINE, 300, seed=6)
    assert a.to_dict() == b.to_dict() and a.render_text() == b.render_text()
    assert a.spent != c.spent


def test_each_deal_is_summarised_from_its_best_squad() -> None:
    deck = forest_deck(6)
    sim = simulate_deals(deck, ONLINE, 50, seed=9)
    rows = [row for chunk in deal_positions(len(deck), 15, 50, 9) for row in chunk.tolist()]
    assert sim.spent == Counter(best_squad([deck[p] for p in row], ONLINE).spent for row in rows)
    assert sum(sim.left.values()) == sum(sim.sizes.values()) == 50


def test_elements_dealt_match_the_hypergeometric_chance_of_no_mountain_card() -> None:
    # 27 forest-or-neutral cards and 3 mountain cards: P(no mountain card among 15) = C(27,15)/C(30,15).
    deals = 3000
    sim = simulate_deals(forest_deck(3), ONLINE, deals, seed=2)
    exact = comb(27, 15) / comb(30, 15)
    seen = sim.elements_dealt[1] / deals
    sd = (exact * (1 - exact) / deals) ** 0.5
    assert abs(seen - exact) < 4 * sd
    assert set(sim.elements_dealt) == {1, 2}


def test_redeal_worth_is_the_mean_spend_with_one_gold_less() -> None:
    sim = simulate_deals(forest_deck(), ONLINE, 200, seed=4)
    d = sim.to_dict()
    assert d["redeal"]["mean_crystals_spent"] <= d["mean_crystals_spent"]
    below = sum(n for s, n in sim.spent.items() if s < sim.mean_redeal_spent)
    assert sum(sim.spent.values()) == 200
    assert d["redeal"]["better_on_average"] == round(below / 200, 4)


def test_crystals_left_and_all_gold_spent_agree_with_the_ledger() -> None:
    deck = forest_deck(6)
    sim = simulate_deals(deck, ONLINE, 40, seed=3)
    all_gold = 0
    for row in (row for chunk in deal_positions(len(deck), 15, 40, 3) for row in chunk.tolist()):
        deal = [deck[p] for p in row]
        best = best_squad(deal, ONLINE)
        ledger = ledger_for([deal[p] for p in best.positions], ONLINE)
        all_gold += ledger.left_gold == 0
    assert sim.all_gold_spent == all_gold


def test_a_deck_smaller_than_a_deal_is_refused() -> None:
    from cardkit.errors import BadArgument

    with pytest.raises(BadArgument):
        simulate_deals(forest_deck()[:14], ONLINE, 10, seed=1)


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_plot_writes_the_file_and_svg_is_byte_identical_on_rerun(tmp_path: Path, suffix: str) -> None:
    sim = simulate_deals(forest_deck(), ONLINE, 100, seed=1)
    first, second = tmp_path / f"a.{suffix}", tmp_path / f"b.{suffix}"
    sim.plot(first)
    sim.plot(second)
    assert first.stat().st_size > 1000
    if suffix == "svg":
        assert first.read_bytes() == second.read_bytes()


def test_crystals_left_converge_to_the_exact_distribution_over_every_possible_deal() -> None:
    # A 17-card deck has C(17, 15) = 136 equally likely deals: enumerate them all for the exact distribution.
    from collections import Counter
    from itertools import combinations

    # Costly cards of four elements, so that deals differ in what they leave unspent.
    names = ["m_emanta", "m_tergvil", "m_skoge", "m_snorhald", "b_koatl", "f_kangam", "b_derji-derevo", "b_prorok_ihve",
             "n_molodoy_drakon", "m_rukan", "n_ferros", "s_krushitel_cherepov", "s_vojd_kentavrov", "b_obryuzg",
             "b_bronenosec", "s_akkeniyskiy_strelomet", "s_morrag"]
    deck = [CARDS[n] for n in names]
    exact: Counter[int] = Counter()
    for combo in combinations(range(len(deck)), 15):
        deal = [deck[p] for p in combo]
        best = best_squad(deal, ONLINE)
        exact[best.gold + best.silver - best.spent] += 1
    total = comb(17, 15)
    deals = 2000
    sim = simulate_deals(deck, ONLINE, deals, seed=8)
    assert set(sim.left) <= set(exact) and len(exact) >= 3
    for left, ways in exact.items():
        p = ways / total
        sd = (p * (1 - p) / deals) ** 0.5
        assert abs(sim.left[left] / deals - p) <= 4 * sd + 1e-9, (left, p, sim.left[left] / deals)


def test_the_same_seed_gives_the_same_deals_whatever_the_number_of_worker_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.games.squad_games.squads.deal_sim as deal_sim

    monkeypatch.setattr(deal_sim, "CHUNK", 60)  # blocks of 60 deals, so a small run spans several workers
    seen: list[int] = []
    runs = [simulate_deals(forest_deck(), ONLINE, 250, seed=5, jobs=jobs, progress=seen.append if jobs == 2 else None)
            for jobs in (1, 2, 3)]
    assert runs[0].spent == runs[1].spent == runs[2].spent
    assert runs[0].to_dict() == runs[1].to_dict() == runs[2].to_dict()
    assert sum(seen) == 250 and len(seen) == 5


def _deck_file_cards(path: str) -> tuple[list, str]:
    from cardkit.decks import read_deck

    deck = read_deck(Path(__file__).resolve().parent.parent / path)
    table = squad_cards(deck.game)
    return [table[cid] for cid, n in deck.main.items() for _ in range(n)], deck.format


# A made-up format exercising what the real ones leave idle: neutral as an element, repeated unique
# cards, a tight flyer cap and two terrains.
CUSTOM = SquadRules.from_dict("custom", "berserk-ccg", {
    "gold": 14, "silver": 9, "element_gold": {"0": 2, "1": 1, "2": -1}, "neutral_is_element": True,
    "second_seat": {"gold": 2, "silver": 0}, "redeal_gold": 2, "flyer_crystal_cap": 6, "max_terrains": 2,
    "unique_once": False})


@pytest.mark.parametrize("path", ["decks/berserk-online/steppe-mountains.deck", "decks/berserk-online/swamp-poison.deck.json",
                                  "decks/berserk-ccg/steppe-orcs.deck", "decks/berserk-ccg/forest-druids.deck"])
@pytest.mark.parametrize("budget", [("first", None, None), ("second", 6, 30), ("first", 1, 2)], ids=["format", "rich-gold", "poor"])
def test_the_table_of_best_squads_agrees_deal_for_deal_with_the_exact_optimiser(path: str, budget: tuple) -> None:
    import numpy as np

    from cardkit.games.squad_games.squads.deal_sim import _dealt, _outcome
    from cardkit.games.squad_games.squads.deal_table import deal_table

    cards, fmt = _deck_file_cards(path)
    seat, gold, silver = budget
    for rules in (squad_rules(fmt), CUSTOM):
        classes: dict = {}
        kinds = [classes.setdefault(optimiser_class(c, rules), (len(classes), c))[0] for c in cards]
        table = deal_table(tuple(c for _, c in classes.values()), tuple(kinds), rules, seat, gold, silver)
        assert table is not None
        dealt = _dealt(len(cards), rules.deal_size, 120, np.random.SeedSequence(11))
        got = table.outcomes(dealt)
        for i, row in enumerate(dealt.tolist()):
            deal = [cards[p] for p in row]
            exact = _outcome(deal, rules, seat, gold, silver)
            assert [int(got[k][i]) for k in ("spent", "cards", "left", "gold_left", "redeal_spent", "dealt_elements")] == [
                exact.spent, exact.cards, exact.left, exact.gold_left, exact.redeal_spent,
                len(set().union(*(c.elements for c in deal)))], (path, rules.format, row)


def test_a_deck_too_varied_for_the_table_is_simulated_deal_by_deal_with_the_same_result(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.games.squad_games.squads.deal_table as deal_table

    cards, fmt = _deck_file_cards("decks/berserk-online/steppe-mountains.deck")
    rules = squad_rules(fmt)
    fast = simulate_deals(cards, rules, 300, seed=3, seat="second")
    deal_table.deal_table.cache_clear()
    monkeypatch.setattr(deal_table, "MAX_CELLS", 0)
    slow = simulate_deals(cards, rules, 300, seed=3, seat="second")
    deal_table.deal_table.cache_clear()
    assert fast.spent == slow.spent and fast.to_dict() == slow.to_dict()


@pytest.mark.parametrize("path", ["decks/berserk-online/steppe-mountains.deck", "decks/berserk-ccg/forest-druids.deck"])
@pytest.mark.parametrize("gather", [1, 8 * 7 * 120, 100_000], ids=["a-position-at-a-time", "seven-at-a-time", "all-at-once"])
def test_a_deals_counts_packed_in_one_integer_read_the_table_as_counting_each_class_apart(
        path: str, gather: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    import numpy as np

    import cardkit.games.squad_games.squads.deal_table as deal_table
    from cardkit.games.squad_games.squads.deal_sim import _dealt

    cards, fmt = _deck_file_cards(path)
    rules = squad_rules(fmt)
    classes: dict = {}
    kinds = [classes.setdefault(optimiser_class(c, rules), (len(classes), c))[0] for c in cards]
    table = deal_table.deal_table(tuple(c for _, c in classes.values()), tuple(kinds), rules, "first", None, None)
    assert table is not None and table.packed is not None
    dealt = _dealt(len(cards), rules.deal_size, 120, np.random.SeedSequence(5))
    monkeypatch.setattr(deal_table, "GATHER_BYTES", gather)
    packed = table.outcomes(dealt)
    apart = dataclasses.replace(table, packed=None).outcomes(dealt)
    assert set(packed) == set(apart)
    for name in packed:
        assert packed[name].tolist() == apart[name].tolist(), name
