"""The special abilities of Berserk Online and the tabletop CCG in the battle engine, each tested against its rule.

Each test's docstring says, in short words of our own, the rule it checks and where the
rules text has it (the Online text's section, or part 2 of the tabletop text).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from cardkit.errors import IllegalAction
from cardkit.games.squad_games.battle.abilities import abilities_data, applied_table, game_abilities
from cardkit.games.squad_games.battle.apply import apply
from cardkit.games.squad_games.battle.cards import battle_cards
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions
from cardkit.games.squad_games.battle.notation import Action
from cardkit.games.squad_games.battle.rolls import rolled
from cardkit.games.squad_games.battle.state import BattleState, CardInstance, check_state, state_from_dict

ROOT = Path(__file__).resolve().parent.parent

PLAIN = "n_soldaty_udachi"  # 3-4-4, life 10, no abilities
PLAIN2 = "n_hraniteli_tumana"  # 1-2-3, life 8, no abilities


def battle(*cards: tuple[str, str, str], game: str = "berserk-online", **changes: Any) -> BattleState:
    """A state of the given (card, seat, square-or-reserve) instances, ids 1.., every card open at its printed life."""
    table = battle_cards(game)
    out = []
    for i, (card, seat, where) in enumerate(cards, start=1):
        zone = "reserve" if where == "reserve" else "battlefield"
        out.append(CardInstance(i, card, seat, seat, zone, None if zone == "reserve" else where,  # type: ignore[arg-type]
                                life=table[card].life or 0))
    state = BattleState(game=game, cards=tuple(out), next_id=len(out) + 1)
    for iid, change in changes.items():
        inst = state.by_id(int(iid.lstrip("c")))
        assert inst is not None
        state = state.with_card(replace(inst, **change))
    assert check_state(state) == []
    return state


def run(state: BattleState, *texts: str) -> tuple[BattleState, list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for text in texts:
        state, new = apply(state, Action.parse(text))
        events += new
    return state, events


def life(state: BattleState, iid: int) -> int:
    inst = state.by_id(iid)
    assert inst is not None
    return inst.life


# -- the data --------------------------------------------------------------------------------------

def test_every_catalogue_ability_code_of_both_games_is_in_the_data() -> None:
    """Every code the catalogue carries has an entry saying what the engine does with it (issue: abilities as data)."""
    from cardkit.catalogue.store import load_game

    online = {a for c in load_game("berserk-online").cards.values() for a in c["abilities"]}
    icons = {a for c in load_game("berserk-ccg").cards.values() for a in c["icons"]}
    assert online <= set(game_abilities("berserk-online"))
    assert icons <= set(game_abilities("berserk-ccg"))
    extra = {a.code for g in ("berserk-online", "berserk-ccg") for a in game_abilities(g).values() if a.catalogue}
    assert extra == online | icons


def test_the_data_matches_its_schema_and_a_tabletop_icon_follows_a_real_online_code() -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((ROOT / "schemas" / "battle-abilities.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(abilities_data())) == []
    online = game_abilities("berserk-online")
    for a in game_abilities("berserk-ccg").values():
        if a.follows:
            assert a.follows in online and online[a.follows].kind == a.kind, a.code


def test_the_docs_list_of_applied_and_shown_codes_is_the_one_the_data_gives() -> None:
    """docs/battle.md lists applied and shown codes, generated from the data (scripts/battleabilities.py --write)."""
    docs = (ROOT / "docs" / "battle.md").read_text(encoding="utf-8")
    between = docs.split("<!-- abilities:start -->", 1)[1].split("<!-- abilities:end -->", 1)[0]
    assert between.strip() == applied_table()
    assert "`vampirism`" in between and "`dist`" in between


# -- legality and the list of moves ---------------------------------------------------------------

def test_strike_modifiers_read_in_any_order_and_print_in_one_and_a_modifier_written_twice_is_no_action() -> None:
    from cardkit.errors import BadActionText

    a = Action.parse("attack c3 c4 poison 1 vampirism 2 plus 3 dice 6 1")
    assert str(a) == "attack c3 c4 plus 3 vampirism 2 poison 1 dice 6 1" and Action.parse(str(a)) == a
    for text in ("attack c3 c4 plus 1 plus 2 dice 6 1", "attack c3 c4 vampirism dice 6 1"):
        with pytest.raises(BadActionText):
            Action.parse(text)


def test_a_modifier_on_a_card_without_its_ability_is_illegal_and_the_message_names_the_cards_abilities() -> None:
    state = battle(("b_ammah", "first", "c3"), (PLAIN, "second", "c4"))
    with pytest.raises(IllegalAction) as caught:
        apply(state, Action.parse("attack c3 c4 vampirism 2 dice 6 1"))
    assert "no vampirism" in caught.value.reason and "kick.aim.2" in caught.value.reason
    result = ENGINE.apply_all(state, ["attack c3 c4 vampirism 2 dice 6 1"])
    assert result.problems[0].code == "ILLEGAL_ACTION" and "its abilities: kick.aim.2" in result.problems[0].message


def test_moves_list_each_ability_action_with_x_as_placeholder_and_apply_refuses_the_placeholder() -> None:
    state = battle(("b_inoga", "first", "c3"), ("b_mingo", "first", "b2"), ("n_assasin", "first", "d2"), (PLAIN, "second", "c4"))
    listed = {str(a) for a in legal_actions(state)}
    assert {"attack c3 c4 vampirism X", "throw b2 c4 X", "deathblow d2 X"} <= listed
    for text in ("attack c3 c4 vampirism X dice 6 1", "throw b2 c4 X", "deathblow d2 X"):
        assert Action.parse(text) in set(legal_actions(state)) or "dice" in text
        with pytest.raises(IllegalAction, match="X"):
            apply(state, Action.parse(text))


def test_random_play_with_every_listed_ability_action_keeps_the_state_possible() -> None:
    cards = [("b_inoga", "first", "c3"), ("b_mingo", "first", "b2"), ("n_assasin", "first", "d2"), ("f_rogach", "first", "c2"),
             ("d_ketciana", "first", "b3"), ("b_aspid", "second", "c4"), ("b_bruksa", "second", "d4"), ("b_unuk", "second", "b4"),
             ("m_gelidus", "second", "c5"), ("b_itineri", "second", "e4")]
    for seed in range(6):
        rng, state = random.Random(seed), battle(*cards)
        for _ in range(80):
            actions = list(legal_actions(state))
            if not actions:
                break
            state, _ = apply(state, rolled(state, rng.choice(actions), rng))
            assert check_state(state) == [] and state_from_dict(state.to_dict()) == state


# -- the effects ----------------------------------------------------------------------------------

def test_a_strike_without_counter_strike_takes_one_die_names_no_defender_and_is_not_struck_back() -> None:
    """Online text, Angriffe, "Ohne Gegenschlag": no defender may be named, and the strike is always made as
    against a closed card, even on an open one (so one die and no counter-strike)."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"), (PLAIN2, "second", "d4"))
    with pytest.raises(IllegalAction, match="no defender"):
        apply(state, Action.parse("attack c3 c4 nocounter defend d4 dice 6"))
    with pytest.raises(IllegalAction, match="one die"):
        apply(state, Action.parse("attack c3 c4 nocounter dice 6 1"))
    after, events = run(state, "attack c3 c4 nocounter dice 6")
    strike = events[0]
    assert strike["to_attacker"] == 0 and strike["to_defender"] == 5 and strike["ability"] == "specia_kick"
    assert life(after, 2) == 10 - 5 and life(after, 1) == 15


def test_plus_x_adds_x_to_the_melee_damage_of_a_landing_strike_and_nothing_to_a_miss() -> None:
    """Online text, Angriffe, "+ X zum Treffer": the melee damage of that strike is X higher (reading
    strike_modifiers: a miss deals nothing to be raised)."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"))
    after, events = run(state, "attack c3 c4 plus 2 dice 6 1")
    assert events[0]["to_defender"] == 5 + 2 and life(after, 2) == 3
    after, events = run(state, "attack c3 c4 plus 2 dice 1 3")
    assert events[0]["attacker_hit"] == "miss" and life(after, 2) == 10


def test_vampirism_deals_x_and_heals_the_attacker_by_x_up_to_its_printed_life() -> None:
    """Online text, Angriffe, "Vampirismus": a special melee strike deals X and the attacker absorbs X life
    (restored, so never above its printed life: reading strike_modifiers)."""
    state = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3})
    after, events = run(state, "attack c3 c4 vampirism 2 dice 6 1")
    assert life(after, 2) == 10 - 2 and life(after, 1) == 3 + 2
    heal = next(e for e in events if e["event"] == "heal")
    assert heal["ability"] == "vampirism" and "vampirism" in events[0]["abilities"]
    full = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 7})
    assert life(run(full, "attack c3 c4 vampirism 3 dice 6 1")[0], 1) == 8


def test_a_heal_never_takes_life_from_a_card_above_its_printed_life() -> None:
    """"wiederhergestellt": vampirism and regeneration restore life; a card a state keeps above its printed life
    (its own text's effect) keeps it, and the event never says it regains less than nothing."""
    state = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 20},
                   c2={"life": 20, "markers": (("regen", 2),)})
    after, events = run(state, "attack c3 c4 vampirism 2 dice 6 1")
    assert life(after, 1) == 20 and all(e["amount"] >= 0 for e in events if e["event"] == "heal")
    regen = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), c2={"life": 30, "markers": (("regen", 2),)})
    assert life(run(regen, "end")[0], 2) == 30


def test_vampirism_heals_at_the_same_time_as_the_counter_strike_so_x_can_keep_the_attacker_alive() -> None:
    """Online text, "Vampirismus": X damage is dealt and "gleichzeitig" the attacker absorbs X; the counter-strike of
    the same exchange meets that life (reading strike_modifiers), and the exact odds agree."""
    from cardkit.games.squad_games.battle.odds import card_strike_odds

    state = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3})
    after, events = run(state, "attack c3 c4 vampirism 2 dice 1 5")  # weak lands, medium 4 back: 3 - 4 + 2 = 1
    assert [e["event"] for e in events][:4] == ["strike", "damage", "damage", "heal"]
    assert after.by_id(1).zone == "battlefield" and life(after, 1) == 1  # type: ignore[union-attr]
    dead, _ = run(state, "attack c3 c4 vampirism 1 dice 1 5")  # 3 - 4 + 1 = 0
    assert dead.by_id(1).zone == "graveyard"  # type: ignore[union-attr]
    table = battle_cards("berserk-online")
    odds = card_strike_odds("berserk-online", table["b_inoga"], table[PLAIN], 3, 10, vampirism=2)
    # Only a miss heals nothing: Inoga (3 life) dies exactly when it misses and is struck back for 3 or more.
    assert odds.p_attacker_dies == sum((o.p for o in odds.outcomes if o.attacker_hit == "miss" and o.to_attacker >= 3),
                                       Fraction(0)) == Fraction(6, 36)


def test_vampirism_does_not_act_against_an_incorporeal_figure() -> None:
    """Online text, Angriffe, "Vampirismus": it does not work against incorporeal figures (Körperlose)."""
    state = battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3}, c2={"acquired": ("incorporeal",)})
    after, events = run(state, "attack c3 c4 vampirism 2 dice 6 1")
    assert life(after, 1) == 3 and life(after, 2) == 10 - 4  # the plain strong strike, no vampirism
    assert any(e.get("ability") == "vampirism" and "incorporeal" in e["text"] for e in events)


def test_tabletop_incorporeal_icon_stops_vampirism_too() -> None:
    """The tabletop icon `inc` is read as Körperlose (data: abilities.json), so tabletop vampirism (`vmp`) skips it."""
    table = battle_cards("berserk-ccg")
    vampire = next(k for k, v in table.items() if "vmp" in v.abilities and v.figure and not v.flyer and v.strike)
    state = battle((vampire, "first", "c3"), ("20043", "second", "c4"), game="berserk-ccg", c1={"life": 1})
    after, _ = run(state, "attack c3 c4 vampirism 2 dice 6 1")
    assert life(after, 1) == 1


def test_protection_from_simple_strikes_does_not_protect_against_special_strikes() -> None:
    """Online text, "Besonderer Treffer": protection from simple strikes does not protect from special strikes."""
    state = battle(("f_rogach", "first", "c3"), (PLAIN, "second", "c4"), c2={"acquired": ("xsimple",)})
    after, events = run(state, "attack c3 c4 dice 6 1")
    assert life(after, 2) == 10 and any(e.get("ability") == "xsimple" for e in events)
    after, _ = run(state, "attack c3 c4 plus 1 dice 6 1")
    assert life(after, 2) == 10 - 6


def test_a_throw_is_worked_out_as_a_shot_and_protection_from_shots_and_discharges_does_not_stop_it() -> None:
    """Online text, "Wurf": damage as a shot's; protection from shots and discharges does not act against throws."""
    state = battle(("b_mingo", "first", "c1"), ("b_unuk", "second", "c4"), ("m_gelidus", "second", "d5"))
    after, events = run(state, "throw c1 c4 2-3-4 dice 6")
    assert life(after, 2) == 12 - 4 and events[0]["ability"] == "throw"
    state2 = replace(state, acted=frozenset())
    after, _ = run(state2, "throw c1 d5 3")
    assert life(after, 3) == 8 - 3


def test_a_shot_does_nothing_to_a_card_protected_from_shots() -> None:
    """Protection from shots (`xshot`, Schutz vor Schüssen): shots do nothing to the card."""
    state = battle(("b_melicina", "first", "c1"), ("b_unuk", "second", "c4"))
    after, events = run(state, "shoot c1 c4 3")
    assert life(after, 2) == 12 and any(e.get("ability") == "xshot" for e in events)


def test_a_discharge_is_ranged_magic_worked_out_as_a_shot_and_zero_when_the_card_gives_no_value() -> None:
    """Online text, "Entladung": a magic attack from a distance, damage as a shot's; 0 if the card gives none."""
    state = battle(("d_adept_ugguda", "first", "c1"), (PLAIN, "second", "c5"))
    after, events = run(state, "discharge c1 c5 1-2-3 dice 5")
    assert life(after, 2) == 10 - 2 and events[0]["ability"] == "discharge"
    after, _ = run(state, "discharge c1 c5 0")
    assert life(after, 2) == 10


def test_protection_from_magic_makes_magic_strikes_and_discharges_do_nothing() -> None:
    """Protection from magic (`xmagic`, Schutz vor Magie): magic strikes and discharges do nothing to it."""
    state = battle(("f_noggl", "first", "c3"), ("d_ketciana", "first", "c1"), ("b_bruksa", "second", "c4"))
    after, events = run(state, "attack c3 c4 magic dice 6", "discharge c1 c4 3")
    assert life(after, 3) == 12
    assert [e["ability"] for e in events if e["event"] == "ability"] == ["xmagic", "xmagic"]


def test_protection_from_discharges_stops_a_discharge_but_not_a_throw() -> None:
    """Protection from discharges (`xdischarge`): a discharge does nothing; "Wurf" says it does not stop throws."""
    state = battle(("d_adept_ugguda", "first", "c1"), ("b_mingo", "first", "b1"), ("m_gelidus", "second", "c5"))
    after, _ = run(state, "discharge c1 c5 3", "throw b1 c5 3")
    assert life(after, 3) == 8 - 3


def test_a_hidden_card_attacked_blindly_that_is_protected_is_revealed_and_the_attack_has_no_effect() -> None:
    """Online text, "Beginn der Schlacht": the attacked hidden card is revealed; if it is protected from the
    attack, the attack has no effect."""
    state = battle(("b_melicina", "first", "c1"), ("b_unuk", "second", "c6"), c2={"open": False, "hidden": True})
    after, events = run(state, "shoot c1 c6 3")
    card = after.by_id(2)
    assert card is not None and not card.hidden and card.life == 12
    assert [e["event"] for e in events][:3] == ["shot", "revealed", "ability"]


def test_a_death_blow_destroys_the_adjacent_cards_left_with_x_life_or_less_but_not_incorporeal_figures() -> None:
    """Online text, "Todesstoß: X": destroys neighbouring cards that have X life left; no effect on incorporeal
    figures and symbiotes (reading death_blow: X or less, either side, the eight squares around)."""
    state = battle(("n_assasin", "first", "c3"), (PLAIN, "second", "c4"), (PLAIN2, "second", "d4"), ("b_unuk", "second", "b4"),
                   (PLAIN2, "first", "c1"),
                   c2={"life": 2}, c3={"life": 1, "acquired": ("incorporeal",)}, c4={"life": 5}, c5={"life": 1})
    after, events = run(state, "deathblow c3 2")
    assert after.by_id(2).zone == "graveyard"  # type: ignore[union-attr]
    assert after.by_id(3).zone == "battlefield" and after.by_id(4).life == 5  # type: ignore[union-attr]
    assert after.by_id(5).zone == "battlefield"  # c1 is two squares away  # type: ignore[union-attr]
    assert all(e.get("ability") == "finishing" for e in events if e["event"] in ("deathblow", "destroyed"))


def test_poison_x_poisons_a_struck_figure_which_loses_x_each_time_it_opens() -> None:
    """Online text, "Vergiftung für X": the figure loses X life each time it is opened."""
    state = battle(("b_ayard", "first", "c3"), (PLAIN, "second", "c4"), c2={"open": False})
    after, events = run(state, "attack c3 c4 poison 2 dice 6")
    assert life(after, 2) == 10 - 1 and after.by_id(2).marker("poison") == 2  # type: ignore[union-attr]
    after, _ = run(after, "end")
    assert life(after, 2) == 10 - 1 - 2
    poisoned = next(e for e in events if e["event"] == "poisoned")
    assert poisoned["ability"] == "poison"


def test_a_tabletop_poisoned_card_opening_names_the_tabletop_poison_icon() -> None:
    """Every event names the ability that shaped it, in the card's game: the tabletop icon `psn`."""
    state = battle(("10001", "first", "c3"), ("10002", "second", "c4"), game="berserk-ccg",
                   c2={"open": False, "markers": (("poison", 1),)})
    _, events = run(state, "end")
    assert [e.get("ability") for e in events if e["event"] == "poison"] == ["psn"]


def test_poison_does_not_act_on_an_incorporeal_figure_or_one_protected_from_poison() -> None:
    """Online text, "Vergiftung für X": no effect on incorporeal figures; `xpoison` (Schutz vor Vergiftung) protects."""
    state = battle(("b_ayard", "first", "c3"), (PLAIN, "second", "c4"), ("b_itineri", "second", "d4"),
                   c2={"acquired": ("incorporeal",)})
    after, _ = run(state, "attack c3 c4 poison 2 dice 6 1")
    assert after.by_id(2).marker("poison") == 0  # type: ignore[union-attr]
    state = replace(after, acted=frozenset())
    state = state.with_card(replace(state.by_id(1), open=True))  # type: ignore[arg-type]
    after, _ = run(state, "attack c3 d4 poison 2 dice 6 1")
    assert after.by_id(3).marker("poison") == 0  # type: ignore[union-attr]


def test_poison_does_not_act_when_the_opponent_kept_the_figure_from_opening() -> None:
    """Online text, "Vergiftung für X": if an opponent's effect or curse keeps the figure closed at the start of
    the round, the poison does not act either (reading poison_kept_closed)."""
    state = battle((PLAIN2, "first", "c3"), (PLAIN, "second", "c4"),
                   c2={"open": False, "markers": (("kept_closed", 1), ("poison", 2))})
    after, events = run(state, "end")
    card = after.by_id(2)
    assert card is not None and card.life == 10 and not card.open and card.marker("kept_closed") == 0
    assert [e["event"] for e in events] == ["turn", "kept_closed"]


def test_regeneration_restores_x_at_the_start_of_its_players_turn_up_to_printed_life() -> None:
    """Symbol list, "Regeneration" (reading regeneration): X from the tabletop icon, or the Online card's `regen` marker."""
    state = battle(("10001", "first", "c3"), ("10064", "second", "c4"), game="berserk-ccg", c2={"life": 5})
    after, events = run(state, "end")
    assert life(after, 2) == 5 + 3 and any(e.get("ability") == "regen" for e in events)
    online = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), c2={"life": 11, "markers": (("regen", 2),)})
    assert life(run(online, "end")[0], 2) == 12
    unmarked = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), c2={"life": 9})
    assert life(run(unmarked, "end")[0], 2) == 9


def test_regeneration_acts_after_poison_so_a_card_poison_defeats_does_not_come_back() -> None:
    """Reading regeneration: at the start of the turn the cards open and poison acts first, then regeneration."""
    survives = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"),
                      c2={"life": 5, "open": False, "markers": (("poison", 2), ("regen", 3))})
    after, events = run(survives, "end")
    assert life(after, 2) == 5 - 2 + 3 and [e["event"] for e in events if e["event"] in ("poison", "heal")] == ["poison", "heal"]
    dies = battle((PLAIN2, "first", "c3"), ("b_bruksa", "second", "c4"), (PLAIN, "second", "e6"),
                  c2={"life": 2, "open": False, "markers": (("poison", 2), ("regen", 3))})
    assert run(dies, "end")[0].by_id(2).zone == "graveyard"  # type: ignore[union-attr]


def test_a_surprise_action_answers_a_strike_before_the_dice_and_a_defeated_attacker_strikes_no_more() -> None:
    """Online text, "Einsatz einer Überraschungsaktion": the attacked side may ward off a strike with a special
    ability of one of its cards (reading surprise_action)."""
    state = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"), c1={"life": 2}, c2={"acquired": ("surprise",)})
    after, events = run(state, "attack c3 c4 surprise c4 shoot 2 dice 6")
    assert after.by_id(1).zone == "graveyard" and life(after, 2) == 8  # type: ignore[union-attr]
    assert [e["event"] for e in events][-1] == "strike_stopped"
    alive = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"), c2={"acquired": ("surprise",)})
    after, events = run(alive, "attack c3 c4 surprise c4 shoot 1 dice 6")
    assert life(after, 1) == 8 - 1 and life(after, 2) == 8 - 3
    plain = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"))
    with pytest.raises(IllegalAction, match="no surprise action"):
        apply(plain, Action.parse("attack c3 c4 surprise c4 shoot 1 dice 6 1"))


def test_a_ranged_melee_and_collecting_a_counter_name_the_ability_that_allows_them() -> None:
    """Every event names the ability that shaped it: the ranged melee (Schlag über die Reihe) and collecting
    Spielmarken are abilities of the card too."""
    table = battle_cards("berserk-online")
    ranged = next(k for k, v in table.items() if "rank_kick" in v.abilities and v.figure and not v.flyer and v.strike
                  and v.steps is not None)
    collector = next(k for k, v in table.items() if "counter" in v.abilities and v.figure and not v.flyer and v.strike)
    state = battle((ranged, "first", "c2"), (collector, "first", "a1"), (PLAIN, "second", "c4"))
    _, events = run(state, "ranged c2 c4", "collect a1")
    assert [e.get("ability") for e in events if e["event"] in ("ranged", "collect")] == ["rank_kick", "counter"]


def test_a_surprise_action_may_answer_a_special_strike_too() -> None:
    """Online text, "Angriffe": the surprise action is among the answers to a simple strike, and against the special
    strikes only the defender is ruled out (reading surprise_action)."""
    state = battle(("f_rogach", "first", "c3"), ("b_melicina", "second", "c4"), c2={"acquired": ("surprise",)})
    after, events = run(state, "attack c3 c4 nocounter surprise c4 shoot 2 dice 6")
    assert [e["event"] for e in events][:3] == ["surprise", "shot", "damage"] and life(after, 1) == 15 - 2


def test_apply_json_shows_the_ability_of_each_event(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    path = tmp_path / "b.json"
    ENGINE.write(battle(("b_inoga", "first", "c3"), (PLAIN, "second", "c4"), c1={"life": 3}), path)
    out = CliRunner().invoke(app, ["battle", "apply", str(path), "attack c3 c4 vampirism 2 dice 6 1", "--json"])
    assert out.exit_code == 0, out.output
    events = json.loads(out.output)["events"]
    assert {"vampirism"} <= {e.get("ability") for e in events}


# -- exact odds with abilities --------------------------------------------------------------------

@pytest.mark.parametrize("attacker, defender, kind, plus, vampirism, acquired", [
    ("f_rogach", PLAIN, "simple", 2, None, ()),
    ("f_rogach", PLAIN, "nocounter", None, None, ()),
    ("f_rogach", PLAIN, "nocounter", 1, None, ()),
    ("b_inoga", PLAIN, "simple", None, 2, ()),
    ("b_inoga", PLAIN, "simple", None, 3, ("incorporeal",)),
    ("f_noggl", "b_bruksa", "magic", None, None, ()),
    ("f_noggl", PLAIN, "magic", None, None, ()),
    (PLAIN2, PLAIN, "simple", None, None, ("xsimple",)),
], ids=["plus", "nocounter", "nocounter-plus", "vampirism", "vampirism-incorporeal", "magic-xmagic", "magic", "xsimple"])
def test_exact_odds_with_modifiers_and_protections_agree_with_the_engine_over_all_36_rolls(
        attacker: str, defender: str, kind: str, plus: int | None, vampirism: int | None, acquired: tuple[str, ...]) -> None:
    """combat odds takes the engine's modifiers; enumerating `battle apply` over the 36 die pairs gives the same."""
    from cardkit.games.squad_games.battle.abilities import incorporeal_code, protections_of
    from cardkit.games.squad_games.battle.odds import StrikeKind, card_strike_odds, strike_odds

    table = battle_cards("berserk-online")
    a, d = table[attacker], table[defender]
    start = 1 + (a.life or 0) // 2  # below its printed life, so that vampirism has life to restore
    if acquired:  # an ability no catalogue code carries: worked out as the engine does for an acquired one
        codes = set(d.abilities) | set(acquired)
        guard = "magic" if kind == "magic" else ("simple" if kind == "simple" and plus is None and vampirism is None else "")
        how = StrikeKind(kind, plus, vampirism, protections_of("berserk-online", codes).get(guard),
                         incorporeal_code("berserk-online", codes) is not None)
        assert a.strike is not None and d.strike is not None
        odds = strike_odds(a.strike, d.strike, start, d.life or 0, how, a.life)
    else:
        odds = card_strike_odds("berserk-online", a, d, start, d.life or 0, kind, plus, vampirism)
    by_roll = {roll: o for o in odds.outcomes for roll in o.rolls}
    assert len(by_roll) == 36 and sum(o.p for o in odds.outcomes) == 1
    mods = (f" plus {plus}" if plus is not None else "") + (f" vampirism {vampirism}" if vampirism is not None else "")
    for (x, y), outcome in by_roll.items():
        state = battle((attacker, "first", "c3"), (defender, "second", "c4"), c1={"life": start},
                       c2={"life": 100, "acquired": acquired})
        dice = f"{x}" if kind in ("magic", "nocounter") else f"{x} {y}"
        words = f" {kind}" if kind != "simple" else ""
        after, events = run(state, f"attack c3 c4{words}{mods} dice {dice}")
        strike = events[0]
        heal = sum(e["amount"] for e in events if e["event"] == "heal")
        assert (strike["to_defender"], strike["to_attacker"]) == (outcome.to_defender, outcome.to_attacker), (x, y)
        assert heal == outcome.heal, (x, y)
        assert (after.by_id(1).zone == "graveyard") == (start - outcome.to_attacker + outcome.heal <= 0), (x, y)  # type: ignore[union-attr]


def test_the_odds_heal_only_the_life_vampirism_restores_up_to_the_printed_life() -> None:
    """"wiederhergestellt": at full life a vampire that is not struck back regains nothing, as battle apply heals."""
    from cardkit.games.squad_games.battle.odds import card_strike_odds

    table = battle_cards("berserk-online")
    odds = card_strike_odds("berserk-online", table["b_inoga"], table[PLAIN], 8, 10, vampirism=2)
    heals = {(o.attacker_hit, o.defender_hit): o.heal for o in odds.outcomes}
    assert heals[("strong", "miss")] == 0 and heals[("strong", "weak")] == 2 and heals[("miss", "weak")] == 0


def test_combat_odds_refuses_a_modifier_the_attacker_lacks_and_shows_the_strike_in_json() -> None:
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    refused = CliRunner().invoke(app, ["combat", "odds", "b_ammah", "b_ahti", "--vampirism", "2"])
    assert refused.exit_code == 2 and "kick.aim.2" in refused.output
    out = CliRunner().invoke(app, ["combat", "odds", "f_noggl", "b_bruksa", "--magic", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["strike"] == {"kind": "magic", "plus": None, "vampirism": None, "protected_by": "xmagic", "incorporeal": False}
    assert data["expected_damage"]["to_defender"] == 0


def test_combat_odds_on_an_artifact_counts_no_counter_strike_and_refuses_a_terrain() -> None:
    """An artifact has life but no strike values: `battle apply` lets a strike reach it and it strikes back for
    nothing; the odds say the same. A terrain has no life to lose, so no strike is made on it (exit 2)."""
    from typer.testing import CliRunner

    from cardkit.cli.main import app

    out = CliRunner().invoke(app, ["combat", "odds", "b_ammah", "b_chantar", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["defender"]["strike"] is None and {o["to_attacker"] for o in data["outcomes"]} == {0}
    assert data["expected_damage"]["to_defender_exact"] == "65/36"  # Ammah's strikes, as on Ahti
    state = battle(("b_ammah", "first", "c3"), ("b_chantar", "second", "c4"), (PLAIN, "second", "e6"))
    assert run(state, "attack c3 c4 dice 1 6")[1][0]["to_attacker"] == 0
    terrain = CliRunner().invoke(app, ["combat", "odds", "b_ammah", "d_bashnya_tul-bagar"])
    assert terrain.exit_code == 2 and "no life to lose" in terrain.output


def test_a_judge_gives_a_card_an_ability_it_has_by_its_own_text_and_takes_it_away() -> None:
    """Abilities with no catalogue code (Körperlose, Unerwartete Aktion, protection from simple strikes) are acquired
    properties; part 2 (Колода) says a card loses its acquired properties when it goes into a deck."""
    state = battle((PLAIN2, "first", "c3"), ("b_melicina", "second", "c4"))
    with pytest.raises(IllegalAction, match="no ability code"):
        apply(state, Action.parse("acquire c4 flying_carpet"))
    state, events = run(state, "acquire c4 surprise")
    assert events[0]["ability"] == "surprise" and state.by_id(2).acquired == ("surprise",)  # type: ignore[union-attr]
    assert life(run(state, "attack c3 c4 surprise c4 shoot 1 dice 6")[0], 1) == 8 - 1
    gone, _ = run(state, "acquire c4 -surprise")
    assert gone.by_id(2).acquired == ()  # type: ignore[union-attr]
    decked, events = run(state, "to-deck c4")
    assert next(c for c in decked.cards if c.iid == events[0]["new_id"]).acquired == ()


def test_a_huge_poison_or_pile_of_counters_never_makes_a_state_the_reader_refuses(tmp_path: Path) -> None:
    state = battle((PLAIN2, "first", "c3"), (PLAIN, "second", "c4"), (PLAIN2, "second", "d4"),
                   c2={"open": False, "markers": (("poison", 1_000_000),)})
    after, _ = run(state, "counters c3 +999999", "end")
    assert after.by_id(2).zone == "graveyard"  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="counters"):
        apply(after, Action.parse("counters c3 +2"))
    ENGINE.write(after, tmp_path / "s.json")
    assert ENGINE.read(tmp_path / "s.json") == after
