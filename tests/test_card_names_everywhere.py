"""Every place a person names a card reads it with the one resolver: decks, squads, combat and engine actions.

`Ammah` is Аммах in a Latin spelling that merges transliteration schemes (its strict one is Ammakh), as
`cards search` reads it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.catalogue.lookup import card_index
from cardkit.cli.main import app
from cardkit.db.search import find_card
from cardkit.decks import parse_deck
from cardkit.errors import AmbiguousCard, BadActionText
from cardkit.games.berserk_tcg.game.notation import parse as parse_tcg_action
from cardkit.games.squad_games.battle.lookup import find_battle_card, find_battle_pair
from cardkit.games.squad_games.squads.read import read_squad_file


@pytest.mark.parametrize(("game", "card"), [("berserk-online", "b_ammah"), ("berserk-ccg", "30129")])
def test_the_resolver_reads_a_latin_spelling_in_another_scheme(game: str, card: str) -> None:
    assert card_index(game).find("Ammah").resolved == card == card_index(game).find("Аммах").resolved


@pytest.mark.parametrize(("game", "card"), [("berserk-online", "b_ammah"), ("berserk-ccg", "30129")])
def test_a_deck_line_reads_a_latin_spelling_as_cards_show_does(game: str, card: str) -> None:
    deck = parse_deck(f"game: {game}\n3 Ammah\n")
    assert deck.problems == [] and deck.main == {card: 3}
    assert find_card("Ammah", game).card["id"] == card


def test_a_squad_file_reads_a_latin_spelling(tmp_path: Path) -> None:
    path = tmp_path / "squad.txt"
    path.write_text("format: berserk-online\nsquad:\nAmmah\nAhti\n", encoding="utf-8")
    squad = read_squad_file(path)
    assert [ref.card for ref in squad.squad] == ["b_ammah", "b_ahti"] and squad.problems == []


def test_combat_odds_read_a_latin_spelling_of_both_cards() -> None:
    game, attacker, defender = find_battle_pair("Ammah", "Ahti", "berserk-online")
    assert (game, attacker.id, defender.id) == ("berserk-online", "b_ammah", "b_ahti")
    latin = CliRunner().invoke(app, ["combat", "odds", "Ammah", "Ahti", "--game", "berserk-online"])
    ids = CliRunner().invoke(app, ["combat", "odds", "b_ammah", "b_ahti"])
    assert latin.exit_code == ids.exit_code == 0 and latin.output == ids.output


def test_a_latin_spelling_two_games_share_is_as_ambiguous_as_the_cyrillic_name() -> None:
    with pytest.raises(AmbiguousCard) as latin:
        find_battle_card("Ammah")
    with pytest.raises(AmbiguousCard) as cyrillic:
        find_battle_card("Аммах")
    assert latin.value.candidates == cyrillic.value.candidates


def test_a_tcg_action_reads_a_card_as_a_deck_line_does() -> None:
    assert str(parse_tcg_action("open bk1-12 pay BK1-1")) == "open BK1-012 pay BK1-001"
    assert str(parse_tcg_action("move Moonlight-Raiders from c4 to c1")) == "move BK1-003 from c4 to c1"
    with pytest.raises(BadActionText, match="'Guts' is 15 cards"):
        parse_tcg_action("open Guts")


def test_a_squad_line_misspelling_a_name_several_cards_share_is_offered_the_cards_the_name_is(tmp_path: Path) -> None:
    path = tmp_path / "squad.txt"
    path.write_text("format: berserk-online\nsquad:\nЛак-Нак\nLak-Nok\n", encoding="utf-8")
    named, misspelt = read_squad_file(path).problems
    assert (named.code, misspelt.code) == ("AMBIGUOUS_CARD", "UNKNOWN_CARD")
    assert misspelt.candidates == named.candidates and len(named.candidates or ()) == 2
    assert "did you mean Лак-Нак? 2 cards are called that" in misspelt.message
