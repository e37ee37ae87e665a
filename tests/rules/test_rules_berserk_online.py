"""The Berserk Online rules text (German), rule by rule: each test cites its rule id of index.json and quotes the
sentence it rests on under the text's heading (¶N: the N-th paragraph under it)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engine_play import apply_through

from cardkit.decks import parse_deck, validate_deck
from cardkit.errors import BadActionText, IllegalAction
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions, why_illegal
from cardkit.games.squad_games.battle.notation import Action, Attack
from cardkit.games.squad_games.battle.setup import load_side, new_battle
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, check_state
from cardkit.games.squad_games.squads.budget import budget_for, squad_rules
from cardkit.games.squad_games.squads.check import check_squad
from cardkit.games.squad_games.squads.deal_sim import deal_positions
from cardkit.games.squad_games.squads.placement import allowed_squares, check_placement
from cardkit.games.squad_games.squads.read import read_squad_file

ONLINE = squad_rules("berserk-online")
PLAIN = "n_soldaty_udachi"  # 3-4-4, life 10, no abilities, neutral
PLAIN2 = "n_hraniteli_tumana"  # 1-2-3, life 8, no abilities
AMMAH = "b_ammah"  # 2-3-4, life 9
GROUND = ["n_begushij_po_lezviyu", "n_bersard", "n_bich_nezhiti", "n_duhoborec", "n_ekzarh", "n_master_zasad",
          "n_eskaler", "n_grom-otstupnik", "n_kartograf", "n_varlok", "n_vechnyy_rycar", "n_apostol_boli"]



def apply(state: BattleState, action: object) -> tuple[BattleState, list[dict[str, Any]]]:
    return apply_through(ENGINE, state, action)

def battle(*cards: tuple[str, str, str], **changes: Any) -> BattleState:
    """(card, seat, square-or-reserve) instances with ids 1.., open at printed life; `c2={...}` changes card 2."""
    table = battle_cards("berserk-online")
    out = []
    for i, (card, seat, where) in enumerate(cards, start=1):
        zone = "reserve" if where == "reserve" else "battlefield"
        out.append(CardInstance(i, card, seat, seat, zone, None if zone == "reserve" else where,  # type: ignore[arg-type]
                                life=table[card].life or 0))
    state = BattleState(game="berserk-online", cards=tuple(out), next_id=len(out) + 1)
    for key, change in changes.items():
        state = state.with_card(replace(state.by_id(int(key[1:])), **change))  # type: ignore[arg-type]
    assert check_state(state) == []
    return state


def run(state: BattleState, *texts: str) -> BattleState:
    for text in texts:
        state, _ = apply(state, Action.parse(text))
    return state


def life(state: BattleState, iid: int) -> int:
    return state.by_id(iid).life  # type: ignore[union-attr]


def why(state: BattleState, text: str) -> str:
    return why_illegal(state, Action.parse(text)) or ""


def squad(tmp_path: Path, **doc: Any) -> Any:
    path = tmp_path / "squad.json"
    path.write_text(json.dumps({"format": "berserk-online", **doc}), encoding="utf-8")
    sq = read_squad_file(path)
    return check_squad(sq, ONLINE)


def place(seat: str, squares: list[str]) -> list[str]:
    doc = {"format": "berserk-online", "seat": seat,
           "cards": [{"card": GROUND[i], "square": sq} for i, sq in enumerate(squares)]}
    return [p.code for p in check_placement(doc).problems]


def side(tmp_path: Path, name: str, cards: list[dict[str, str]], seat: str | None = None) -> Any:
    data: dict[str, Any] = {"format": "berserk-online", "cards": cards}
    if seat:
        data["seat"] = seat
    (tmp_path / name).write_text(json.dumps(data), encoding="utf-8")
    return load_side(tmp_path / name)


def deck_codes(text: str) -> list[str]:
    return [p.code for p in validate_deck(parse_deck("game: berserk-online\n" + text)) if p.severity == "error"]


# -- the card set and the crystals ---------------------------------------------------------------------------

@pytest.mark.rule("online-set-size")
def test_a_card_set_holds_30_to_50_cards() -> None:
    """Spielregeln ¶3: "Insgesamt sind höchstens 50 Karten in einem Kartensatz, mindestens jedoch 30." (data/formats/berserk-online.json, main)."""
    ten = "".join(f"3 {c}\n" for c in GROUND[:10])
    assert deck_codes(ten) == []
    assert deck_codes("".join(f"3 {c}\n" for c in GROUND[:9]) + "2 n_varlok\n") == ["DECK_TOO_SMALL"]
    assert "DECK_TOO_LARGE" in deck_codes("".join(f"3 {c}\n" for c in GROUND) + "".join(
        f"3 {c}\n" for c in ("b_ammah", "b_ahti", "b_bokor", "m_ulfsark", "f_artotis")))


@pytest.mark.rule("online-set-copies")
def test_each_card_is_in_a_card_set_at_most_three_times_unless_it_is_unlimited() -> None:
    """Spielregeln ¶3: "In einem Kartensatz ist jede Karte höchstens dreimal enthalten." — counted by card id;
    the cards the game flags `unlim` are exempt (data/formats/berserk-online.json, copies)."""
    base = "".join(f"3 {c}\n" for c in GROUND[:9])
    assert deck_codes(base + "4 n_varlok\n") == ["TOO_MANY_COPIES"]
    assert deck_codes(base + "4 n_heruvim\n") == []


@pytest.mark.rule("online-crystals")
def test_a_squad_has_23_gold_and_22_silver_crystals_as_standard() -> None:
    """Magische Kristalle ¶1: "Für die Aufstellung deines Kampfverbandes stehen dir 23 Gold- und 22 Silberkristalle
    zur Verfügung (Standardeinstellung)." (two elements: no bonus, no penalty) (data/formats/berserk-online.json, squad.gold and squad.silver)."""
    b = budget_for(ONLINE, 2)
    assert (b.gold, b.silver) == (23, 22)


@pytest.mark.rule("online-card-cost")
def test_each_chosen_card_spends_as_many_crystals_as_it_costs(tmp_path: Path) -> None:
    """Magische Kristalle ¶1: "bei der Wahl jeder Karte verbrauchst du soviele goldene oder silberne Kristalle, wie auf
    der Karte vermerkt sind."."""
    report = squad(tmp_path, squad=["n_ekzarh", "b_aspid"])
    assert [p.gold + p.silver for p in report.ledger.payments] == [8, 9]
    assert report.ledger.spent_gold + report.ledger.spent_silver == 17


@pytest.mark.rule("online-gold-to-silver")
def test_leftover_gold_pays_for_silver_cards_one_to_one(tmp_path: Path) -> None:
    """Magische Kristalle ¶1: "werden die goldenen bei der Wahl weiterer Karten (für Silberkristalle) automatisch 1:1
    in silberne umgewandelt."."""
    report = squad(tmp_path, squad=["n_ekzarh"] * 3)
    assert [(p.gold, p.silver) for p in report.ledger.payments] == [(0, 8), (0, 8), (2, 6)] and report.legal


@pytest.mark.rule("online-duel-crystals")
def test_the_challenge_may_set_other_crystal_numbers() -> None:
    """Magische Kristalle ¶2: "Die Anzahl der Kristalle ... werden bei der Forderung festgelegt." — `gold`/`silver`
    replace the base and keep the element modifiers."""
    b = budget_for(ONLINE, 1, gold=30, silver=10)
    assert (b.gold, b.silver) == (31, 10)


@pytest.mark.rule("online-first-random")
def test_who_attacks_first_is_drawn_at_random_from_the_seed(tmp_path: Path) -> None:
    """Wer zieht zuerst? ¶1: "Beim Beginn eines Duells wird automatisch per Zufall festgelegt, wer als erster
    angreift." (data/battle/rules.json, first_player)."""
    a = side(tmp_path, "a.json", [{"card": AMMAH, "square": "c1"}])
    b = side(tmp_path, "b.json", [{"card": "b_ahti", "square": "c1"}])
    firsts = {seed: new_battle(a, b, seed).cards[0].card for seed in range(16)}
    assert set(firsts.values()) == {AMMAH, "b_ahti"}
    assert all(new_battle(a, b, seed).cards[0].card == c for seed, c in firsts.items())


@pytest.mark.rule("online-second-silver")
def test_the_second_player_gets_one_more_silver_crystal() -> None:
    """Wer zieht zuerst? ¶1: "Der Spieler, der als Zweiter zieht, erhält +1 Silberkristall zusätzlich bei der
    Zusammenstellung seines Kampfverbandes." (data/formats/berserk-online.json, squad.second_seat)."""
    first, second = budget_for(ONLINE, 2, "first"), budget_for(ONLINE, 2, "second")
    assert (second.gold - first.gold, second.silver - first.silver) == (0, 1)


@pytest.mark.rule("online-surprise-any-turn")
def test_a_surprise_action_is_taken_while_the_opponent_is_on_move() -> None:
    """Wer zieht zuerst? ¶1: "Figuren mit der Fähigkeit zu Überraschungsaktionen – denn diese können bereits eingesetzt
    werden, während der Gegner noch am Zug ist." (data/battle/rules.json, surprise_action)."""
    state = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"), c2={"acquired": ("surprise",)})
    assert state.to_move == "first"
    after = run(state, "attack c3 c4 surprise c4 shoot 1 dice 6")
    assert life(after, 1) == 8 - 1


# -- dealing and choosing the squad --------------------------------------------------------------------------

@pytest.mark.rule("online-deal")
def test_each_player_is_dealt_15_cards_from_its_card_set(tmp_path: Path) -> None:
    """Aufstellung der Kampfverbände ¶1: "werden an jeden Spieler 15 Karten aus seinem jeweiligen Kartendeck
    ausgeteilt." (data/formats/berserk-online.json, squad.deal_size)."""
    assert ONLINE.deal_size == 15
    block = next(deal_positions(30, 15, 4, seed=1))
    assert block.shape == (4, 15) and all(len(set(row)) == 15 and max(row) < 30 for row in block.tolist())
    assert [p.code for p in squad(tmp_path, dealt=["n_bersard"] * 16, squad=["n_bersard"]).problems] == ["DEAL_SIZE"]


@pytest.mark.rule("online-stack")
def test_the_cards_not_dealt_and_not_chosen_stay_in_the_stack(tmp_path: Path) -> None:
    """Aufstellung der Kampfverbände ¶1: "Die übrigen Karten bleiben im Kartenstapel." and Spielzonen 2.: "Den
    Kartenstapel bilden die Karten, die beim Kartengeben nicht an dich ausgeteilt wurden sowie diejenigen, die du
    nicht für deinen Kampfverband ausgewählt hast." (data/battle/rules.json, stack)."""
    (tmp_path / "set.deck").write_text("game: berserk-online\n3 b_ammah\n2 m_ulfsark\n2 b_ahti\n", encoding="utf-8")
    (tmp_path / "deal.json").write_text(json.dumps({"format": "berserk-online", "dealt": [AMMAH, AMMAH, "m_ulfsark"]}),
                                        encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps({"format": "berserk-online", "seat": "first",
                                                 "cards": [{"card": AMMAH, "square": "c1"}]}), encoding="utf-8")
    first = load_side(tmp_path / "a.json", tmp_path / "deal.json", tmp_path / "set.deck")
    assert Counter(first.stack) == Counter({AMMAH: 2, "m_ulfsark": 2, "b_ahti": 2})
    state = new_battle(first, side(tmp_path, "b.json", [{"card": "b_ahti", "square": "c1"}], "second"))
    assert sorted(c.card for c in state.cards if c.zone == "deck") == sorted(first.stack)


@pytest.mark.rule("online-elite-gold")
def test_elite_cards_are_paid_with_gold_only_and_simple_cards_with_either(tmp_path: Path) -> None:
    """Aufstellung der Kampfverbände ¶1: "“Elitefiguren” lassen sich nicht so leicht unterwerfen, dies gelingt nur mit
    goldenen Kristallen. “Einfache Figuren” lassen sich sowohl durch goldene als auch durch silberne Kristalle
    unterwerfen."."""
    report = squad(tmp_path, squad=["d_samael", "d_teodorih", "n_varlok", "n_eskaler"])
    assert [p.code for p in report.problems] == ["OVER_BUDGET"] and report.ledger.spent_silver == 0
    simple = squad(tmp_path, squad=["n_ekzarh"])
    assert simple.ledger.payments[0].silver == 8


@pytest.mark.rule("online-redeal")
def test_each_re_deal_costs_one_gold_crystal() -> None:
    """Aufstellung der Kampfverbände ¶1: "Jedes erneute Kartengeben kostet einen Goldkristall." (data/formats/berserk-online.json, squad.redeal_gold)."""
    assert [budget_for(ONLINE, 2, redeals=n).gold for n in range(4)] == [23, 22, 21, 20]


@pytest.mark.rule("online-elements-penalty")
def test_each_element_beyond_two_costs_one_gold() -> None:
    """Aufstellung der Kampfverbände ¶3: "einen Abzug von einem Goldkristall für jedes Element in deinem
    Kampfverband, das die Anzahl von zwei Elementen überschreitet." (data/formats/berserk-online.json, squad.element_gold)."""
    assert [budget_for(ONLINE, n).gold for n in (2, 3, 4)] == [23, 22, 21]


@pytest.mark.rule("online-single-element")
def test_a_squad_of_one_element_gets_one_more_gold() -> None:
    """Aufstellung der Kampfverbände ¶3: "erhält ein Spieler, der seinen Kampfverband aus nur einem Element
    rekrutiert, ein Plus von einem Goldkristall." (data/formats/berserk-online.json, squad.element_gold)."""
    assert budget_for(ONLINE, 1).gold == 24


@pytest.mark.rule("online-neutral")
def test_neutral_cards_count_as_no_element_and_a_neutral_squad_has_24_gold(tmp_path: Path) -> None:
    """Aufstellung der Kampfverbände ¶4: "Das neutrale Element hat keinerlei Auswirkungen auf die Anzahl der
    Kristalle. ... du hast also 24 Gold- und 22 Silberkristalle zur Verfügung." (README of the texts: 24 for
    a neutral-only squad; data/formats/berserk-online.json, element_gold)."""
    assert ONLINE.elements_of([]) == [] and not ONLINE.neutral_is_element
    neutral = squad(tmp_path, squad=["n_ekzarh"]).ledger
    assert (neutral.budget.gold, neutral.budget.silver, neutral.elements) == (24, 22, ())
    mixed = squad(tmp_path, squad=["n_ekzarh", "b_aspid"]).ledger
    assert mixed.elements == ("swamps",) and mixed.budget.gold == 24


@pytest.mark.rule("online-unique")
def test_a_unique_card_is_in_a_squad_once() -> None:
    """Liste der Kartensymbole: "Einzigartigkeit" — a unique card stands once in a squad
    (data/formats/berserk-online.json, squad.unique_once)."""
    doc = {"format": "berserk-online", "seat": "first", "cards": [{"card": "b_bruksa", "square": "c1"},
                                                                    {"card": "b_bruksa", "square": "c2"}]}
    assert "UNIQUE_TWICE" in [p.code for p in check_placement(doc).problems]


# -- zones and the field -------------------------------------------------------------------------------------

@pytest.mark.rule("online-zones")
def test_the_game_has_a_battle_zone_a_stack_a_reserve_zone_and_a_graveyard() -> None:
    """Spielzonen: "1. Kampfzone. 2. Kartenstapel ... 3. Reservezone. 4. Friedhof"."""
    state = battle((AMMAH, "first", "c3"), ("d_asgara", "first", "reserve"), ("b_ahti", "second", "c4"),
                   (PLAIN, "second", "e6"))
    state = state.with_card(replace(state.by_id(4), zone="graveyard", square=None))  # type: ignore[arg-type]
    state = replace(state, cards=state.cards + (CardInstance(5, "b_bokor", "first", "first", "deck", open=False,
                                                             life=9),), next_id=6)
    assert check_state(state) == []
    assert {c.zone for c in state.cards} == {"battlefield", "reserve", "deck", "graveyard"}


@pytest.mark.rule("online-stack-call")
def test_a_figure_can_be_called_from_the_stack_onto_the_field(tmp_path: Path) -> None:
    """Spielzonen 2.: "daraus können einige Figuren schon während des Kampfes auf das Kampffeld gerufen werden, wenn
    du Karten mit entsprechenden Sonderfunktionen hast." — a judge's `call` (data/battle/rules.json,
    returning_card)."""
    state = battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"))
    state = replace(state, cards=state.cards + (CardInstance(3, "b_bokor", "first", "first", "deck", open=False,
                                                             life=9),), next_id=4)
    after = run(state, "call #3 a2")
    called = after.by_id(3)
    assert called is not None and (called.zone, called.square, called.open) == ("battlefield", "a2", False)
    assert "half" in why(state, "call #3 c5")


@pytest.mark.rule("online-graveyard")
def test_defeated_figures_go_to_the_graveyard_and_some_may_return() -> None:
    """Spielzonen 4.: "Friedhof: dorthin werden die während des Kampfes besiegten Figuren gelegt. Einige Figuren können
    während des Kampfes vom Friedhof auf das Kampffeld zurückkehren." (data/battle/rules.json, returning_card)."""
    state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), (PLAIN, "second", "e6"), c2={"life": 3}),
                "attack c3 c4 dice 6 1")
    assert state.by_id(2).zone == "graveyard"  # type: ignore[union-attr]
    back = run(state, "from-graveyard #2 e5")
    assert (back.by_id(2).zone, back.by_id(2).life) == ("battlefield", 11)  # type: ignore[union-attr]


@pytest.mark.rule("online-field")
def test_the_field_is_six_squares_high_and_five_wide_one_half_each() -> None:
    """Kampffeld und Anordnung der Karten ¶1: "Das Kampffeld ist eine Fläche, die aus sechs Feldern in der Höhe und
    fünf Felder in der Breite besteht. ... Dabei nimmt jeder Kampfverband eine Hälfte des Kampffeldes ein."."""
    for text in ("move c3 f3", "move c3 c7"):
        with pytest.raises(BadActionText):
            Action.parse(text)
    assert Action.parse("move a1 e6") is not None
    assert place("first", ["c4"]) != [] and place("second", ["c1"]) == []


@pytest.mark.rule("online-first-3x3")
def test_the_first_player_places_its_cards_in_the_middle_3x3_of_its_half() -> None:
    """Kampffeld und Anordnung der Karten ¶1: "Der erste Spieler, der Angreifer, kann für die Verteilung seiner Karten
    nur die Mitte seiner Feldhälfte nutzen: 3x3 Felder."."""
    assert place("first", ["b1", "c1", "d1", "b2", "c2", "d2", "b3", "c3", "d3"]) == []
    assert place("first", ["a1"]) == ["SQUARE_NOT_ALLOWED"] and place("first", ["e2"]) == ["SQUARE_NOT_ALLOWED"]


@pytest.mark.rule("online-first-sideways")
def test_the_first_player_moves_to_the_side_squares_only_in_its_turn() -> None:
    """Kampffeld und Anordnung der Karten ¶1: "Eine Bewegung zur Seite ist erst während seines Zuges möglich."."""
    state = battle(("b_ahti", "first", "b2"), (AMMAH, "second", "c5"))
    assert run(state, "move b2 a2").at("a2") is not None


@pytest.mark.rule("online-second-front")
def test_the_second_player_may_use_all_5_squares_of_its_first_row() -> None:
    """Kampffeld und Anordnung der Karten ¶2: "Der zweite Spieler kann bei der Verteilung seiner Kämpfer in der ersten
    Reihe alle 5 Felder nutzen."."""
    assert place("second", ["a1", "b1", "c1", "d1", "e1"]) == []
    assert place("second", ["a2"]) == ["SQUARE_NOT_ALLOWED"]


@pytest.mark.rule("online-more-than-nine")
def test_more_than_nine_cards_open_the_side_squares_rows_two_and_three_first() -> None:
    """Kampffeld und Anordnung der Karten ¶2: "Wenn der Kampfverband mehr als neun Karten umfasst, können bei der
    Verteilung auch die zusätzlichen Seitenfelder besetzt werden. Dabei werden zuerst die Felder der zweiten und
    dritten Reihe belegt und zuletzt die Seitenfelder der ersten Reihe." — the paragraph opens with the second player,
    but cardkit reads the side squares as open to both seats, the first player's a1/e1 last (a reading kept in
    data/formats/berserk-online.json, squad.side_squares: both-seats)."""
    assert squad_rules("berserk-online").side_squares == "both-seats"
    centre = ["b1", "c1", "d1", "b2", "c2", "d2", "b3", "c3", "d3"]
    assert place("first", centre + ["a2"]) == []
    assert place("first", centre + ["a1"]) == ["SQUARE_NOT_ALLOWED"]
    assert place("second", centre + ["a2", "e1"]) == []
    assert "a1" in allowed_squares("first", 14, frozenset({"a2", "a3", "e2", "e3"}))
    assert "a1" not in allowed_squares("first", 14, frozenset({"a2", "a3"}))


@pytest.mark.rule("online-more-than-nine")
def test_under_the_second_seat_reading_only_the_second_player_gets_the_side_squares(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Kampffeld und Anordnung der Karten ¶2: "Wenn der Kampfverband mehr als neun Karten umfasst, können bei der
    Verteilung auch die zusätzlichen Seitenfelder besetzt werden." — the other reading of the format's data
    (data/formats/berserk-online.json, squad.side_squares: second-seat): the paragraph is the second player's."""
    from cardkit.games.squad_games.squads import budget

    real = budget.squad_rules
    monkeypatch.setattr(budget, "squad_rules", lambda f: dataclasses.replace(real(f), side_squares="second-seat"))
    centre = ["b1", "c1", "d1", "b2", "c2", "d2", "b3", "c3", "d3"]
    assert place("first", centre + ["a2"]) == ["SQUARE_NOT_ALLOWED"]
    assert place("first", centre + ["a2", "e3"]) == ["SQUARE_NOT_ALLOWED"] * 2
    assert place("second", centre + ["a2", "e1"]) == []
    assert "a2" not in allowed_squares("first", 14, frozenset(), "second-seat")
    assert "a2" in allowed_squares("second", 10, frozenset(), "second-seat")


@pytest.mark.rule("online-reserve")
def test_flyers_and_terrains_are_the_reserve_zones_cards_and_other_items_stand_on_squares() -> None:
    """Kampffeld und Anordnung der Karten, Reservezone: "In dieser Zone befinden sich die Flugwesen, d. h. Figuren, die
    fliegen können, und eine Reihe von Gegenständen." — flyers once revealed; of the items ("eine Reihe von",
    some), the terrains: equipment and artifacts stand on squares (data/formats/berserk-online.json,
    squad.reserve_zone and reserve_note)."""
    state = battle((AMMAH, "first", "c3"), ("d_asgara", "first", "reserve"), ("b_ahti", "second", "c4"))
    on_field = state.with_card(replace(state.by_id(2), zone="battlefield", square="c2"))  # type: ignore[arg-type]
    assert any("reserve zone once revealed" in p.message for p in check_state(on_field))
    base = {"format": "berserk-online", "seat": "first", "cards": [{"card": AMMAH, "square": "c1"}]}
    assert [p.code for p in check_placement({**base, "reserve": ["b_sibio"]}).problems] == []
    for item in ("b_braslet_podchineniya", "b_mengir_karefunga"):  # equipment, artifact
        assert [p.code for p in check_placement({**base, "reserve": [item]}).problems] == ["NOT_A_RESERVE_CARD"]
        placed = {**base, "cards": base["cards"] + [{"card": item, "square": "c2"}]}
        assert check_placement(placed).problems == []


# -- the start -----------------------------------------------------------------------------------------------

@pytest.mark.rule("online-reveal")
def test_when_both_squads_are_placed_the_cards_are_revealed_the_second_players_third_row_may_stay_hidden(
        tmp_path: Path) -> None:
    """Beginn der Schlacht ¶1: "der erste Spieler alle seine Karten aufdecken muss, während der zweite Spieler die dritte
    Reihe verdeckt lassen kann, bis er an der Reihe ist." (data/battle/rules.json, hidden_third_row)."""
    a = side(tmp_path, "a.json", [{"card": AMMAH, "square": "c1"}, {"card": "m_ulfsark", "square": "c3"}], "first")
    b = side(tmp_path, "b.json", [{"card": "b_ahti", "square": "c1"}, {"card": "b_bokor", "square": "c3"}], "second")
    state = new_battle(a, b)
    assert all(c.open for c in state.cards if c.owner == "first")
    bokor = next(c for c in state.cards if c.card == "b_bokor")
    assert (bokor.square, bokor.hidden) == ("c6", True)
    assert all(c.open for c in new_battle(a, b, hide_third_row=False).cards)


@pytest.mark.rule("online-blind-attack")
def test_a_hidden_card_attacked_blindly_is_revealed_and_a_protected_one_takes_nothing() -> None:
    """Beginn der Schlacht ¶1: "Ist dies der Fall, muss der zweite Spieler die angegriffene Karte aufdecken. Ist diese
    Karte vor dem ausgeführten Angriff geschützt, ist der Angriff unwirksam." (data/battle/rules.json,
    protected_target)."""
    state = battle(("b_melicina", "first", "c1"), ("b_unuk", "second", "c6"), c2={"open": False, "hidden": True})
    after = run(state, "shoot c1 c6 3")
    unuk = after.by_id(2)
    assert unuk is not None and not unuk.hidden and unuk.life == 12


@pytest.mark.rule("online-second-turn-opens")
def test_each_turn_begins_by_opening_the_players_closed_cards() -> None:
    """Zug des zweiten Spielers ¶1: "am Anfang jedes Zugs werden die verdeckten Karten des entsprechenden Spielers "
    aufgedeckt"."."""
    state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), c2={"open": False, "hidden": True}), "end")
    assert state.by_id(2).open and state.to_move == "second"  # type: ignore[union-attr]
    state = run(state, "attack c4 c3 dice 2 4", "end")
    assert state.by_id(1).open and state.to_move == "first"  # type: ignore[union-attr]


# -- the turn: moving, flying, acting ------------------------------------------------------------------------

@pytest.mark.rule("online-turns")
def test_the_players_take_turns_one_after_the_other() -> None:
    """Zug des ersten Spielers, Ziehen des Spielers: "In Berserk ziehen die Spieler nacheinander"."""
    state = battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"))
    assert why(state, "move c4 c5") != ""
    after = run(state, "end")
    assert after.to_move == "second" and why(after, "move c4 c5") == "" and why(after, "move c3 c2") != ""


@pytest.mark.rule("online-move-steps")
def test_a_card_moves_up_to_its_steps_forward_back_left_or_right_onto_empty_squares() -> None:
    """Zug des ersten Spielers, Bewegung: "Auf jeder Karte ist angegeben, über wie viele Felder sie sich auf dem
    Kampffeld fortbewegen kann. Bewegungen sind möglich nach vorne, nach hinten, nach links und nach rechts, wobei du
    dich nur auf leere Felder bewegen kannst." (data/battle/rules.json, steps)."""
    state = battle(("b_ahti", "first", "c1"), (AMMAH, "second", "c6"))  # 2 steps
    state = run(state, "move c1 c2")
    assert why(state, "move c2 c3") == ""
    assert "no steps left" in why(run(state, "move c2 c3"), "move c3 b3")


@pytest.mark.rule("online-move-no-diagonal")
def test_no_diagonal_move_and_no_swap() -> None:
    """Zug des ersten Spielers, Bewegung: "Es sind weder diagonale Züge noch ein Platztausch mit einer anderen Karte
    erlaubt."."""
    state = battle(("b_ahti", "first", "c2"), ("b_bokor", "first", "c3"), ("b_nzami", "first", "d2"),
                   (AMMAH, "second", "c6"))  # Ahti has 2 steps; c3 and d2 are taken, so d3 is only a diagonal away
    assert why(state, "move c2 d3") != "" and "taken" in why(state, "move c2 c3")
    assert "move c2 d3" not in {str(a) for a in legal_actions(state)}


@pytest.mark.rule("online-act-after-move")
def test_a_card_may_act_after_moving_or_without_moving() -> None:
    """Zug des ersten Spielers, Bewegung: "Nach der Bewegung kann eine Karte bestimmte Aktionen durchführen. Eine Karte
    kann auch Aktionen durchführen, ohne sich zu bewegen."."""
    state = battle(("b_ahti", "first", "c2"), (AMMAH, "second", "c4"))
    assert why(run(state, "move c2 c3"), "attack c3 c4 dice 6 1") == ""
    assert why(battle(("b_ahti", "first", "c3"), (AMMAH, "second", "c4")), "attack c3 c4 dice 6 1") == ""


@pytest.mark.rule("online-zero-steps")
def test_a_card_with_0_steps_has_no_moves_and_one_with_x_never_moves() -> None:
    """Zug des ersten Spielers, Bewegung: "Wenn hinter dem Zeichen eine "0" steht, hat diese Karte keine
    Bewegungspunkte. Steht dort ein "X", kann sie grundsätzlich keine Bewegungen ausführen."."""
    for cid, words in (("b_koatl", "0 steps"), ("b_chantar", "X steps")):
        state = battle((cid, "first", "c2"), (AMMAH, "second", "c6"), ("b_ahti", "first", "a1"))
        assert words in why(state, "move c2 c3")


@pytest.mark.rule("online-fly-field")
def test_a_flyer_stands_on_the_field_until_revealed_then_moves_to_the_reserve() -> None:
    """Zug des ersten Spielers, Fliegen: "Karten mit dieser Eigenschaft befinden sich bis zum Aufdecken mit den übrigen
    Karten auf dem Spielfeld. Nachdem sie aufgedeckt werden, verlassen sie das Kampffeld und verlagern sich in die
    Reservezone." (data/formats/berserk-online.json, squad.reserve_note)."""
    state = battle((AMMAH, "first", "c3"), ("d_asgara", "second", "c6"), c2={"open": False, "hidden": True})
    asgara = run(state, "end").by_id(2)
    assert asgara is not None and (asgara.zone, asgara.square, asgara.open) == ("reserve", None, True)


@pytest.mark.rule("online-fly-attack-any")
def test_a_flyer_makes_no_moves_but_may_attack_any_figure() -> None:
    """Zug des ersten Spielers, Fliegen: "Sie führen keine Bewegungen aus, können aber jede beliebige Figur
    angreifen."."""
    state = battle(("d_asgara", "first", "reserve"), ("b_ahti", "second", "a6"), (AMMAH, "first", "e1"))
    texts = {str(a) for a in legal_actions(state)}
    assert "attack #1 a6" in texts and not any(t.startswith("move #1") for t in texts)


@pytest.mark.rule("online-fly-no-ground-defence")
def test_a_flyer_cannot_defend_a_ground_figure() -> None:
    """Zug des ersten Spielers, Fliegen: "Fliegende Figuren können nicht als Verteidiger von Landfiguren auftreten."."""
    state = battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), ("d_asgara", "second", "reserve"))
    assert "flyers cannot defend" in why(state, "attack c3 c4 defend #3 dice 6 1")


@pytest.mark.rule("online-fly-defenders")
def test_against_a_flyer_only_figures_next_to_the_attacked_one_or_another_flyer_defend() -> None:
    """Zug des ersten Spielers, Fliegen: "Gegen Flugwesen können sich nur Figuren verteidigen, die NEBEN der angegriffenen
    Figur stehen, oder aber ein anderes Flugwesen"."""
    state = battle(("d_asgara", "first", "reserve"), ("b_ahti", "second", "c4"), ("b_bokor", "second", "d5"),
                   ("b_nzami", "second", "a6"), (AMMAH, "first", "c1"))
    assert why(state, "attack #1 c4 defend d5 dice 6 1") == ""
    assert why(state, "attack #1 c4 defend a6 dice 6 1") != ""


@pytest.mark.rule("online-fly-shooters")
def test_shooters_always_reach_flyers() -> None:
    """Zug des ersten Spielers, Fliegen: "Unabhängig von der Reichweite können Schützen Flugwesen immer erreichen."
    (data/battle/rules.json, strike_on_flyer)."""
    state = battle(("f_artotis", "first", "a1"), ("d_asgara", "second", "reserve"), (AMMAH, "second", "e6"))
    assert life(run(state, "shoot a1 #2 2"), 2) == 7 - 2
    assert why(battle((AMMAH, "first", "c1"), ("d_asgara", "second", "reserve")), "attack c1 #2 dice 6 1") != ""


@pytest.mark.rule("online-fly-flyers")
def test_flyers_may_attack_other_flyers() -> None:
    """Zug des ersten Spielers, Fliegen: "Flugwesen können andere Flugwesen angreifen."."""
    state = battle(("d_asgara", "first", "reserve"), ("d_shammar", "second", "reserve"), (AMMAH, "second", "c6"))
    assert why(state, "attack #1 #2 dice 6 1") == ""


@pytest.mark.rule("online-action-closes")
def test_a_card_that_acted_is_closed_and_neither_moves_nor_acts_again_this_turn() -> None:
    """Zug des ersten Spielers, Aktion: "Nach einer Aktion wird die betreffende Karte “verdeckt” und kann in diesem Zug
    keine weitere Bewegung oder Aktion mehr ausführen."."""
    state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4")), "attack c3 c4 dice 2 4")
    assert not state.by_id(1).open  # type: ignore[union-attr]
    assert why(state, "move c3 b3") != "" and "closed" in why(state, "attack c3 c4 dice 6 1")


@pytest.mark.rule("online-ability-closes")
def test_using_a_special_ability_closes_the_card_as_an_attack_does() -> None:
    """Zug des ersten Spielers, Einsatz besonderer Eigenschaften: "Beim Einsatz einer Eigenschaft wird die Karte wie
    beim Angriff ebenfalls verdeckt."."""
    state = run(battle(("f_artotis", "first", "c1"), ("b_ahti", "second", "c6")), "shoot c1 c6 2")
    assert not state.by_id(1).open and why(state, "shoot c1 c6 2") != ""  # type: ignore[union-attr]


@pytest.mark.rule("online-attack-own")
def test_an_attack_may_strike_an_own_figure() -> None:
    """Zug des ersten Spielers, Angriff: "beliebige Aktion einer Karte, die einer Figur des Gegners (oder einer eigenen
    Figur) Schaden zufügen kann, wenn diese keinen Schutz hat."."""
    state = battle((AMMAH, "first", "c3"), ("b_bokor", "first", "c2"), ("b_ahti", "second", "c5"))
    assert life(run(state, "attack c3 c2 dice 6 1"), 2) == 9 - 4


@pytest.mark.rule("online-life")
def test_a_card_whose_life_falls_to_zero_or_less_is_defeated_and_goes_to_the_graveyard() -> None:
    """Zug des ersten Spielers, Leben: "Eine Karte wird besiegt, wenn die Summe ihrer Lebenspunkte Null oder kleiner ist.
    In diesem Fall wird sie auf den Friedhof gelegt."."""
    for left in (4, 2):
        state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), (PLAIN, "second", "e6"),
                           c2={"life": left}), "attack c3 c4 dice 6 1")
        ahti = state.by_id(2)
        assert ahti is not None and (ahti.zone, ahti.square) == ("graveyard", None)


@pytest.mark.rule("online-end")
def test_the_battle_ends_when_a_player_has_defeated_all_the_others_figures() -> None:
    """Zug des zweiten Spielers ¶1: "Die Schlacht endet, wenn ein Spieler alle Figuren des anderen besiegt hat. In
    seltenen Fällen kann eine Partie auch unentschieden ausgehen."."""
    state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), c2={"life": 4}), "attack c3 c4 dice 6 1")
    assert state.over and state.winner == "first" and list(legal_actions(state)) == []
    both = run(battle((AMMAH, "first", "c3"), (PLAIN2, "second", "c4"), c1={"life": 1}, c2={"life": 2}),
               "attack c3 c4 dice 3 1")
    assert both.over and both.winner is None, "both last figures fall in one strike: a draw"


# -- attacks and the dice table ------------------------------------------------------------------------------

@pytest.mark.rule("online-answers")
def test_an_attacked_card_strikes_back_or_gets_a_defender_or_answers_with_a_surprise_action() -> None:
    """Angriffe ¶1: "kann dieser: • den Angriff erwidern; • einen Verteidiger ernennen; • eine Überraschungsaktion
    ausführen"."""
    state = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"), (PLAIN, "second", "d4"),
                   c2={"acquired": ("surprise",)})
    for text in ("attack c3 c4 dice 1 5", "attack c3 c4 defend d4 dice 1 5", "attack c3 c4 surprise c4 shoot 1 dice 6"):
        assert why(state, text) == "", text


DAMAGE = {  # Ammah (2-3-4) strikes the plain 1-2-3: (damage to it, damage back to Ammah)
    "6 1": (4, 0), "5 1": (4, 1), "4 1": (3, 0), "3 1": (3, 1), "2 1": (2, 0),
    "1 2": (2, 0), "1 3": (0, 0), "1 4": (0, 1), "1 5": (2, 2), "1 6": (0, 2),
    "3 3": (2, 0), "4 4": (2, 0), "5 5": (0, 1), "6 6": (0, 1)}


@pytest.mark.rule("online-counter-dice")
def test_both_players_roll_the_attacker_is_closed_and_the_defender_stays_open() -> None:
    """Angriff erwidern ¶1: "Wenn eine aufgedeckte Karte angegriffen wird, würfeln beide Spieler ... Der Angreifer wird
    anschließend “verdeckt”. Die verteidigende Figur bleibt “aufgedeckt”."."""
    state = battle((AMMAH, "first", "c3"), (PLAIN2, "second", "c4"))
    with pytest.raises(IllegalAction, match="dice"):
        apply(state, Attack("c3", "c4"))
    after = run(state, "attack c3 c4 dice 2 4")
    assert not after.by_id(1).open and after.by_id(2).open  # type: ignore[union-attr]


@pytest.mark.rule("online-table-attacker")
@pytest.mark.parametrize("dice", ["2 1", "3 1", "4 1", "5 1", "6 1"])
def test_the_table_for_a_higher_attacker_roll(dice: str) -> None:
    """Angriffstabelle: "höhere Augenzahl beim angreifenden Spieler ... 1 Leicht Daneben 2 Mittel Leicht 3 Mittel
    Daneben 4 Schwer Leicht 5 oder höher Schwer Daneben"."""
    after = run(battle((AMMAH, "first", "c3"), (PLAIN2, "second", "c4")), f"attack c3 c4 dice {dice}")
    assert (8 - life(after, 2), 9 - life(after, 1)) == DAMAGE[dice]


@pytest.mark.rule("online-table-defender")
@pytest.mark.parametrize("dice", ["1 2", "1 3", "1 4", "1 5", "1 6"])
def test_the_table_for_a_higher_defender_roll(dice: str) -> None:
    """Angriffstabelle: "höhere Augenzahl beim verteidigenden Spieler ... 1 Leicht Daneben 2 Daneben Daneben 3 Daneben
    Leicht 4 Leicht Mittel 5 oder höher Daneben Mittel"."""
    after = run(battle((AMMAH, "first", "c3"), (PLAIN2, "second", "c4")), f"attack c3 c4 dice {dice}")
    assert (8 - life(after, 2), 9 - life(after, 1)) == DAMAGE[dice]


@pytest.mark.rule("online-table-equal")
@pytest.mark.parametrize("dice", ["3 3", "4 4", "5 5", "6 6"])
def test_the_table_for_equal_rolls(dice: str) -> None:
    """Angriffstabelle: "beide Spieler würfeln 4 oder weniger Leicht Daneben beide Spieler würfeln 5 oder mehr Daneben
    Leicht"."""
    after = run(battle((AMMAH, "first", "c3"), (PLAIN2, "second", "c4")), f"attack c3 c4 dice {dice}")
    assert (8 - life(after, 2), 9 - life(after, 1)) == DAMAGE[dice]


@pytest.mark.rule("online-defender")
def test_a_defender_is_an_open_card_next_to_both_cards_it_strikes_back_and_is_closed() -> None:
    """Verteidiger ernennen ¶1: "Verteidiger kann jede aufgedeckte Karte sein, die auf dem Feld neben der angegriffenen und
    der angreifenden Karte liegt. Der Verteidiger führt wie eine offene Karte einen Gegenschlag aus (s. Übersicht) und
    wird anschließend verdeckt." (data/battle/rules.json, beside)."""
    state = battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), ("b_bokor", "second", "d4"),
                   ("b_nzami", "second", "e4"))
    assert "not next to" in why(state, "attack c3 c4 defend e4 dice 6 1")
    closed = state.with_card(replace(state.by_id(3), open=False))  # type: ignore[arg-type]
    assert "closed" in why(closed, "attack c3 c4 defend d4 dice 6 1")
    after = run(state, "attack c3 c4 defend d4 dice 6 1")
    bokor = after.by_id(3)
    assert bokor is not None and (bokor.life, bokor.open, life(after, 2)) == (9 - 4, False, 11)


@pytest.mark.rule("online-surprise")
def test_a_surprise_action_of_the_attacked_side_may_ward_off_a_strike() -> None:
    """Einsatz einer Überraschungsaktion ¶1: "hat der Verteidigende die Möglichkeit, einen Angriff durch eine
    Überraschungsaktion abzuwehren, indem er eine besondere Eigenschaft einer seiner Karten einsetzt."
    (data/battle/rules.json, surprise_action)."""
    state = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"), c1={"life": 2}, c2={"acquired": ("surprise",)})
    after = run(state, "attack c3 c4 surprise c4 shoot 2 dice 6")
    assert after.by_id(1).zone == "graveyard" and life(after, 2) == 8  # type: ignore[union-attr]
    assert "no surprise action" in why(battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4")),
                                       "attack c3 c4 surprise c4 shoot 1 dice 6 1")


@pytest.mark.rule("online-aimed")
def test_no_defender_may_be_named_against_an_aimed_strike() -> None:
    """Einsatz einer Überraschungsaktion 1.: "Gezielter Treffer. Gegen einen gezielten Treffer kann kein Verteidiger
    ernannt werden." (data/battle/rules.json, aimed_strike)."""
    state = battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4"), ("b_bokor", "second", "d4"))
    assert "no defender" in why(state, "attack c3 c4 aimed defend d4 dice 6 1")
    assert why(state, "attack c3 c4 aimed dice 6 1") == ""


@pytest.mark.rule("online-nocounter")
def test_a_strike_without_counter_strike_names_no_defender_and_works_as_on_a_closed_card() -> None:
    """Einsatz einer Überraschungsaktion 2.: "Ohne Gegenschlag. Gegen einen Treffer ohne Gegenschlag kann kein
    Verteidiger ernannt werden. Er wird immer wie gegen eine verdeckte Karte geführt" (data/battle/rules.json,
    special_strike)."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"), (PLAIN2, "second", "d4"))
    assert "no defender" in why(state, "attack c3 c4 nocounter defend d4 dice 6")
    assert "one die" in why(state, "attack c3 c4 nocounter dice 6 1")
    after = run(state, "attack c3 c4 nocounter dice 6")
    assert life(after, 1) == state.by_id(1).life and life(after, 2) < 10  # type: ignore[union-attr]


@pytest.mark.rule("online-vampirism")
def test_vampirism_deals_x_and_heals_the_attacker_by_x_but_not_against_incorporeal_figures() -> None:
    """Einsatz einer Überraschungsaktion 3.: "Vampirismus. Besonderer Nahkampfangriff, durch den X Schadenspunkte
    zugefügt werden und gleichzeitig die angreifende Figur X Leben "absorbiert" ... Wirkt nicht gegen körperlose
    Figuren." (data/battle/rules.json, strike_modifiers)."""
    state = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3})
    after = run(state, "attack c3 c4 vampirism 2 dice 6 1")
    assert (life(after, 1), life(after, 2)) == (5, 8)
    ghost = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3}, c2={"acquired": ("incorporeal",)})
    assert life(run(ghost, "attack c3 c4 vampirism 2 dice 6 1"), 1) == 3


@pytest.mark.rule("online-plus-x")
def test_plus_x_adds_x_to_a_landing_strike() -> None:
    """Einsatz einer Überraschungsaktion 4.: "+ X zum Treffer (Zusatztrefferpunkte). ... Der durch einen solchen Treffer
    verursachte Nahkampfschaden wird um X Punkte erhöht." (data/battle/rules.json, strike_modifiers)."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"))
    plain = 10 - life(run(state, "attack c3 c4 dice 6 1"), 2)
    assert 10 - life(run(state, "attack c3 c4 plus 2 dice 6 1"), 2) == plain + 2
    assert life(run(state, "attack c3 c4 plus 2 dice 1 3"), 2) == 10


@pytest.mark.rule("online-special-protection")
def test_protection_from_simple_strikes_does_not_protect_from_special_strikes() -> None:
    """Besonderer Treffer: "Schutz vor einfachen Treffern schützt nicht vor besonderen Treffern."."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"), c2={"acquired": ("xsimple",)})
    assert life(run(state, "attack c3 c4 dice 6 1"), 2) == 10
    assert life(run(state, "attack c3 c4 plus 1 dice 6 1"), 2) < 10


@pytest.mark.rule("online-shot")
def test_a_shot_deals_x_from_a_distance_picks_x_y_z_by_the_die_and_names_no_defender() -> None:
    """Schuss: "Ein Schuss mit dem Wert X ist ein Angriff aus der Distanz, bei dem ein Schaden von X Punkten verursacht
    wird. ... Gegen einen Schuss kann kein Verteidiger ernannt werden." (data/battle/rules.json, shot_range,
    variable_shot_die)."""
    state = battle(("f_artotis", "first", "c1"), ("b_ahti", "second", "c6"))
    assert life(run(state, "shoot c1 c6 2"), 2) == 9
    assert life(run(state, "shoot c1 c6 2-3-4 dice 6"), 2) == 7
    assert life(run(state, "shoot c1 c6 2-3-4 dice 2"), 2) == 9
    with pytest.raises(BadActionText):
        Action.parse("shoot c1 c6 2 defend c5")


@pytest.mark.rule("online-throw")
def test_a_throw_works_as_a_shot_and_protection_from_shots_does_not_stop_it() -> None:
    """Wurf: "Es handelt sich um einen besonderen Angriff aus der Distanz, dessen Schaden analog zum Schussschaden
    bestimmt wird. Schutz vor Schüssen und Entladungen wirkt nicht gegen Würfe."."""
    state = battle(("b_mingo", "first", "c1"), ("b_unuk", "second", "c4"))
    assert life(run(state, "throw c1 c4 3"), 2) == 12 - 3
    shot = battle(("b_melicina", "first", "c1"), ("b_unuk", "second", "c4"))
    assert life(run(shot, "shoot c1 c4 3"), 2) == 12


@pytest.mark.rule("online-ranged-melee")
def test_a_ranged_melee_strikes_in_a_line_over_an_own_figure_or_an_empty_square_never_over_an_enemy() -> None:
    """Nahkampfangriff mit Reichweite: "Er kann vertikal oder horizontal über eine eigene Figur oder ein leeres Feld
    hinweg geführt werden. Diagonal anzugreifen ist nicht gestattet. Ebenso verboten ist der Angriff über eine
    gegnerische Figur hinweg. Der Nahkampfangriff mit Reichweite hat eine Wirkung von 1" (data/battle/rules.json,
    ranged_melee)."""
    state = battle(("m_ulfsark", "first", "c2"), (AMMAH, "first", "c3"), ("b_ahti", "second", "c4"),
                   ("b_bokor", "second", "a2"), ("b_nzami", "second", "e4"))
    assert why(state, "ranged c2 c4") == "" and why(state, "ranged c2 a2") == ""
    assert "diagonal" in why(state, "ranged c2 e4")
    assert life(run(state, "ranged c2 c4"), 3) == 10
    blocked = battle(("m_ulfsark", "first", "c2"), ("b_bokor", "second", "c3"), ("b_ahti", "second", "c4"))
    assert "enemy" in why(blocked, "ranged c2 c4")


@pytest.mark.rule("online-deathblow")
def test_a_death_blow_destroys_adjacent_cards_left_with_x_life_but_not_incorporeal_ones() -> None:
    """Todesstoß: "X: die Vernichtung benachbarter Karten, die X Lebenspunkte über haben. Hat keine Wirkung auf
    Körperlose und Symbioten." (data/battle/rules.json, death_blow)."""
    state = battle(("n_assasin", "first", "c3"), (PLAIN, "second", "c4"), (PLAIN2, "second", "d4"),
                   ("b_unuk", "second", "b4"), c2={"life": 2}, c3={"life": 2, "acquired": ("incorporeal",)})
    after = run(state, "deathblow c3 2")
    assert after.by_id(2).zone == "graveyard" and after.by_id(3).zone == "battlefield"  # type: ignore[union-attr]
    assert after.by_id(4).zone == "battlefield"  # type: ignore[union-attr]


@pytest.mark.rule("online-poison")
def test_a_poisoned_figure_loses_x_each_time_it_opens_unless_incorporeal_or_kept_closed() -> None:
    """Vergiftung für X: "Wirkung, bei der die betroffene Figur bei jedem Aufdecken X Leben verliert. Wirkt nicht bei
    Körperlosen. Wird die betroffene Figur ... zu Beginn der Runde nicht aufgedeckt, so wirkt auch die Vergiftung
    nicht." (data/battle/rules.json, poison_kept_closed)."""
    state = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4")), "mark c3 poison 2",
                "attack c3 c4 dice 2 4", "end", "end")
    assert life(state, 1) == 7 and state.by_id(1).open  # type: ignore[union-attr]
    stayed_open = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4")), "mark c3 poison 2", "end", "end")
    assert life(stayed_open, 1) == 9
    kept = run(battle((AMMAH, "first", "c3"), ("b_ahti", "second", "c4")), "mark c3 poison 2", "mark c3 kept_closed 1",
               "attack c3 c4 dice 2 4", "end", "end")
    assert life(kept, 1) == 9 and not kept.by_id(1).open  # type: ignore[union-attr]


@pytest.mark.rule("online-magic-strike")
def test_a_magic_strike_works_as_on_a_closed_card_and_names_no_defender() -> None:
    """Magischer Treffer: "Ein magischer Treffer wird immer wie gegen eine verdeckte Karte geführt, auch wenn die
    angegriffene Karte aufgedeckt ist. Gegen einen magischen Treffer kann kein Verteidiger ernannt werden."
    (data/battle/rules.json, magic_strike)."""
    state = battle(("d_harut", "first", "c3"), ("b_ahti", "second", "c4"), ("b_bokor", "second", "d4"))
    assert "one die" in why(state, "attack c3 c4 magic dice 6 1")
    assert "no defender" in why(state, "attack c3 c4 magic defend d4 dice 6")
    after = run(state, "attack c3 c4 magic dice 6")
    assert life(after, 2) == 9 and life(after, 1) == state.by_id(1).life  # type: ignore[union-attr]


@pytest.mark.rule("online-discharge")
def test_a_discharge_is_ranged_magic_worked_out_as_a_shot_and_0_without_a_value() -> None:
    """Entladung: "Ein magischer Angriff aus der Distanz, dessen Schaden analog zu dem eines Schusses berechnet wird. Wenn
    auf der Karte kein Entladungsschaden angegeben ist, beträgt der Ausgangsschaden 0."."""
    state = battle(("d_adept_ugguda", "first", "c1"), (PLAIN, "second", "c5"))
    assert life(run(state, "discharge c1 c5 1-2-3 dice 5"), 2) == 8
    assert life(run(state, "discharge c1 c5 0"), 2) == 10
    protected = battle(("d_adept_ugguda", "first", "c1"), ("b_bruksa", "second", "c5"))
    assert life(run(protected, "discharge c1 c5 3"), 2) == 12


@pytest.mark.rule("online-counters")
def test_a_card_collects_one_counter_a_round_and_uses_its_ability_once_enough_lie_on_it() -> None:
    """Spielmarken: "die Figur für den Einsatz dieser Eigenschaft zwei Spielmarken sammeln muss (zwei Runden lang verdeckt
    wird, wobei pro Runde eine Spielmarke hinzugefügt wird)." (data/battle/rules.json, collect)."""
    state = run(battle(("d_harut", "first", "c2"), ("b_ahti", "second", "c5")), "collect c2")
    assert (state.at("c2").counters, state.at("c2").open) == (1, False)  # type: ignore[union-attr]
    assert "too few" in why(state, "pay c2 2")
    state = run(state, "end", "end", "collect c2", "pay c2 2")
    assert state.at("c2").counters == 0  # type: ignore[union-attr]


@pytest.mark.rule("online-regeneration")
def test_regeneration_restores_life_at_the_start_of_its_players_turn_up_to_printed_life() -> None:
    """Liste der Kartensymbole: "Regeneration" (data/battle/rules.json, regeneration)."""
    state = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), c2={"life": 9, "markers": (("regen", 2),)})
    assert life(run(state, "end"), 2) == 11
    full = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), c2={"life": 11, "markers": (("regen", 2),)})
    assert life(run(full, "end"), 2) == 12


@pytest.mark.rule("online-protections")
def test_protections_from_magic_poison_and_shots_stop_what_they_name() -> None:
    """Liste der Kartensymbole: "Schutz vor Magie Schutz vor Vergiftung Schutz vor Schüssen" (data/battle/rules.json, protected_target)."""
    assert life(run(battle(("f_noggl", "first", "c3"), ("b_bruksa", "second", "c4")), "attack c3 c4 magic dice 6"), 2) == 12
    assert life(run(battle(("b_melicina", "first", "c1"), ("b_unuk", "second", "c4")), "shoot c1 c4 3"), 2) == 12
    poisoned = run(battle(("b_ayard", "first", "c3"), ("b_bumbol", "second", "c4")), "attack c3 c4 poison 2 dice 6 1")
    assert dict(poisoned.by_id(2).markers).get("poison") is None  # type: ignore[union-attr]
