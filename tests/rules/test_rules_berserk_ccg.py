"""The tabletop Berserk CCG rules, part 2 (Russian: zones), rule by rule: each test cites its rule id of index.json
and quotes the sentence it rests on under the text's numbered paragraph or heading (¶N: the N-th paragraph under it)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engine_play import apply_through
from jsonschema import Draft202012Validator

from cardkit.errors import BadActionText
from cardkit.games.squad_games.battle.board import from_placement, placement_row
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions, why_illegal
from cardkit.games.squad_games.battle.notation import Action
from cardkit.games.squad_games.battle.setup import load_side, new_battle
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, check_state, state_from_dict

GAME = "berserk-ccg"
ROOT = Path(__file__).resolve().parents[2]
NOMAD, NOMAD2, SHOOTER = "10001", "10002", "10004"  # ground creatures, life 8 and 6; a shooter (sht), life 8
FLYER, ARTIFACT, TERRAIN, SYMBIOTE = "10014", "20009", "20011", "20006"



def apply(state: BattleState, action: object) -> tuple[BattleState, list[dict[str, Any]]]:
    return apply_through(ENGINE, state, action)

def battle(*cards: tuple[str, str, str], seed: int = 0, **changes: Any) -> BattleState:
    """(card, seat, square | reserve | deck | graveyard) instances with ids 1.., at printed life (cards without life: 0)."""
    table = battle_cards(GAME)
    out = []
    for i, (card, seat, where) in enumerate(cards, start=1):
        zone = where if where in ("reserve", "deck", "graveyard") else "battlefield"
        out.append(CardInstance(i, card, seat, seat, zone, where if zone == "battlefield" else None,  # type: ignore[arg-type]
                                open=zone != "deck", life=table[card].life or 0))
    state = BattleState(game=GAME, cards=tuple(out), next_id=len(out) + 1, seed=seed)
    for key, change in changes.items():
        state = state.with_card(replace(state.by_id(int(key[1:])), **change))  # type: ignore[arg-type]
    return state


def run(state: BattleState, *texts: str) -> tuple[BattleState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for text in texts:
        state, new = apply(state, Action.parse(text))
        events += new
    return state, events


def why(state: BattleState, text: str) -> str:
    return why_illegal(state, Action.parse(text)) or ""


def messages(state: BattleState) -> str:
    return " | ".join(p.message for p in check_state(state))


DUEL = ((NOMAD, "first", "c3"), (NOMAD2, "second", "c4"))


@pytest.mark.rule("ccg-counters-unlimited")
def test_a_card_holds_any_number_of_counters() -> None:
    """до Части 2 ¶1: "Если не оговорено особо, максимум фишек на карте не ограничен"."""
    state, _ = run(battle(*DUEL), "counters c3 +12", "counters c3 +1")
    assert state.at("c3").counters == 13 and check_state(state) == []  # type: ignore[union-attr]


@pytest.mark.rule("ccg-counters-pay")
def test_paying_with_counters_removes_exactly_the_counters_paid() -> None:
    """до Части 2 ¶2: "Когда карта оплачивает игродействие фишкой (фишками), она теряет ровно столько фишек, сколько
    требуется для оплаты этого игродействия."."""
    state, _ = run(battle(*DUEL), "counters c3 +3", "pay c3 2")
    assert state.at("c3").counters == 1  # type: ignore[union-attr]
    assert "too few" in why(state, "pay c3 2")


@pytest.mark.rule("ccg-zones")
def test_the_zones_are_the_battlefield_the_auxiliary_zone_the_deck_and_the_graveyard() -> None:
    """201.1: "В игре "Берсерк" имеются следующие зоны – Поле боя, Вспомогательная зона, Колода и Кладбище. Игровая зона
    – это объединённое название зоны Поля боя и Вспомогательной зоны."."""
    state = battle(*DUEL, (FLYER, "first", "reserve"), (NOMAD, "second", "deck"), (NOMAD2, "first", "graveyard"))
    assert check_state(state) == []
    assert {c.zone for c in state.cards} == {"battlefield", "reserve", "deck", "graveyard"}
    assert state_from_dict(state.to_dict()) == state
    schema = json.loads((ROOT / "schemas/battle-state.schema.json").read_text(encoding="utf-8"))
    bad = state.to_dict()
    bad["cards"][0]["zone"] = "hand"
    assert list(Draft202012Validator(schema).iter_errors(state.to_dict())) == []
    assert list(Draft202012Validator(schema).iter_errors(bad)) != []


@pytest.mark.rule("ccg-game-zone-only")
def test_properties_act_only_in_the_game_zone_and_only_on_cards_there() -> None:
    """Игровая зона ¶2: "Свойства и особенности карт оказывают влияние только на игровую зону, и их можно использовать
    только пока эти карты находятся в игровой зоне и только на карты, которые находятся в игровой зоне."."""
    state = battle((SHOOTER, "first", "c1"), (NOMAD2, "second", "c4"), (NOMAD, "second", "graveyard"),
                   (NOMAD2, "second", "deck"))
    assert "game zone" in why(state, "counters #3 +1")
    assert why(state, "shoot c1 #3 2") != "" and why(state, "shoot c1 #4 2") != ""
    assert why(state, "shoot c1 c4 2") == ""
    texts = {str(a) for a in legal_actions(state)}
    assert not any("#3" in t or "#4" in t for t in texts)


@pytest.mark.rule("ccg-field")
def test_the_battlefield_is_6_rows_of_5_squares() -> None:
    """Поле боя ¶1: "Поле боя – это зона прямоугольной формы со сторонами 6 клеток по вертикали и 5 клеток по
    горизонтали. Поле боя условно разделено на 6 рядов по 5 клеток в каждом."."""
    assert Action.parse("move a1 e6") is not None
    for text in ("move a1 f1", "move a1 a7", "move a0 a1"):
        with pytest.raises(BadActionText):
            Action.parse(text)


@pytest.mark.rule("ccg-halves")
def test_each_players_half_is_its_three_nearest_rows_the_first_row_touching_the_opponents_half() -> None:
    """Поле боя ¶2: "Половина поля боя каждого игрока - это три ближние к нему ряда по 5 клеток. ... Первым рядом половины
    поля боя игрока называются пять клеток, которые непосредственно соприкасаются с половиной поля боя противника. Далее
    идёт 2-й ряд и затем 3-й ряд. Третий ряд каждого игрока – ближайший к нему ряд."."""
    assert [from_placement(f"c{r}", "first") for r in (1, 2, 3)] == ["c3", "c2", "c1"]
    assert [from_placement(f"c{r}", "second") for r in (1, 2, 3)] == ["c4", "c5", "c6"]
    assert placement_row("a3", "first") == 1 and placement_row("a4", "second") == 1 and placement_row("e6", "second") == 3


@pytest.mark.rule("ccg-field-contents")
def test_ground_creatures_symbiotes_and_artifacts_stand_on_the_battlefield() -> None:
    """Поле боя ¶3: "На поле боя помещаются нелетающие существа, симбиоты, артефакты и экипировки." (the catalogue has no
    equipment type)."""
    state = battle(*DUEL, (ARTIFACT, "first", "a1"))
    assert check_state(state) == []
    assert "reserve" in messages(battle((NOMAD, "first", "reserve"), (NOMAD2, "second", "c4")))
    placed = new_battle(load_side(ROOT / "tests/data/battle/ccg-first.json"), load_side(ROOT / "squads/ccg-placement.json"))
    symbiote = next(c for c in placed.cards if c.card == SYMBIOTE)
    assert symbiote.zone == "battlefield" and placed.by_id(symbiote.host or 0).square == symbiote.square  # type: ignore[union-attr]


@pytest.mark.rule("ccg-aux")
def test_flyers_and_terrains_stand_in_their_players_auxiliary_zone() -> None:
    """Вспомогательная зона ¶1: "Вспомогательная зона – это зона, в которой располагаются летающие существа и местности.
    У каждого игрока своя вспомогательная зона." (data/battle/rules.json, games.berserk-ccg)."""
    assert check_state(battle(*DUEL, (FLYER, "first", "reserve"), (TERRAIN, "second", "reserve"))) == []
    assert "reserve" in messages(battle(*DUEL, (FLYER, "first", "a1")))
    assert "terrain" in messages(battle(*DUEL, (TERRAIN, "first", "a1")))
    placed = new_battle(load_side(ROOT / "tests/data/battle/ccg-first.json"), load_side(ROOT / "squads/ccg-placement.json"))
    assert all(c.zone == "reserve" for c in placed.cards if battle_cards(GAME)[c.card].flyer)


@pytest.mark.rule("ccg-aux-range")
def test_a_shot_reaches_a_card_in_the_auxiliary_zone_whatever_the_range() -> None:
    """Вспомогательная зона ¶2: "Карта может использовать выстрел, разряд, метание, заклинание или воздействие по карте во
    вспомогательной зоне независимо от дальности." (data/battle/rules.json, strike_on_flyer)."""
    state = battle((SHOOTER, "first", "a1"), (FLYER, "second", "reserve"), (NOMAD2, "second", "e6"))
    after, _ = run(state, "shoot a1 #2 3")
    assert after.by_id(2).life == 8 - 3  # type: ignore[union-attr]


@pytest.mark.rule("ccg-deck")
def test_a_deck_holds_its_players_cards_face_down_out_of_play() -> None:
    """Колода ¶1: "Колода – это зона, в которой хранятся карты рубашкой вверх, непосредственно в игре не участвующие. У
    каждого игрока своя колода."."""
    state = battle(*DUEL, (NOMAD, "first", "deck"))
    assert check_state(state) == []
    assert "deck" in messages(state.with_card(replace(state.by_id(3), open=True)))  # type: ignore[arg-type]
    assert not any("#3" in str(a) for a in legal_actions(state))


@pytest.mark.rule("ccg-deck-closed")
def test_only_the_owner_looks_at_a_deck_where_a_text_allows_and_the_deck_is_shuffled_after() -> None:
    """Колода ¶3: "Колода является закрытой зоной, т.е. только владелец имеет право просматривать свою колоду. ... После
    просмотра колода перемешивается." — a judge's `look SEAT` (data/battle/rules.json, returning_card)."""
    state = battle(*DUEL, (NOMAD, "first", "deck"), (NOMAD2, "first", "deck"), (NOMAD, "second", "deck"), seed=3)
    after, events = run(state, "look first")
    assert events[0]["seat"] == "first" and sorted(events[0]["cards"]) == [3, 4]
    assert after.shuffles == state.shuffles + 1
    assert not any(str(a).startswith("look") for a in legal_actions(state)), "no look unless a text prescribes it"


@pytest.mark.rule("ccg-deck-shuffle")
def test_a_deck_that_gives_or_takes_a_card_is_shuffled_from_the_seed_and_never_reordered_at_will() -> None:
    """Колода ¶4: "После окончания подфазы Набора менять порядок расположения карт в колоде нельзя. После того, как одно
    игродействие извлекает из колоды карту (карты) или убирает в колоду карту (карты) - эта колода перемешивается."."""
    deck = [(NOMAD2, "second", "deck")] * 6
    state = battle(*DUEL, *deck, seed=5)
    into, _ = run(state, "to-deck c3")
    assert into.shuffles == 1
    out, _ = run(state, "take-from-deck second a5")
    assert out.shuffles == 1 and sum(c.zone == "deck" for c in out.cards) == 5
    assert [c.iid for c in run(state, "to-deck c3")[0].cards] == [c.iid for c in into.cards]


@pytest.mark.rule("ccg-deck-owner")
def test_a_card_going_to_a_deck_goes_to_its_owners_deck_and_loses_counters_markers_and_properties() -> None:
    """Колода ¶5: "Если в колоду должна попасть какая-либо карта, то она всегда попадает в колоду игрока – владельца этой
    карты. При этом она теряет все фишки, маркеры и приобретённые особенности."."""
    state = battle(*DUEL, (NOMAD, "second", "d4"))
    state = state.with_card(replace(state.by_id(3), controller="first", counters=4, markers=(("poison", 1),),  # type: ignore[arg-type]
                                    acquired=("incorporeal",)))
    after, _ = run(state, "to-deck d4")
    back = next(c for c in after.cards if c.zone == "deck")
    assert (back.owner, back.controller, back.counters, back.markers, back.acquired) == ("second", "second", 0, (), ())


@pytest.mark.rule("ccg-deck-new-card")
def test_a_card_back_from_the_deck_is_another_card() -> None:
    """Колода ¶5: "При последующем возвращении в игровую зону она будет считаться другой картой." — a new instance id."""
    after, _ = run(battle(*DUEL, (NOMAD, "first", "a1")), "to-deck a1")
    new = next(c for c in after.cards if c.zone == "deck")
    assert after.by_id(3) is None and new.iid == 4
    back, _ = run(after, "call #4 b1")
    assert back.by_id(4).square == "b1" and back.by_id(4).life == 8  # type: ignore[union-attr]
