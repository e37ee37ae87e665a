"""Finding one card by what people type: ids, `NAME (ID)`, names in any case or script."""

from __future__ import annotations

import pytest

from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import load_game
from cardkit.textfold import fold


@pytest.mark.parametrize("text", ["BK1-9", "bk1-009", "BK1-009", " BK1 - 9 "])
def test_tcg_ids_are_read_with_or_without_leading_zeros(text: str) -> None:
    assert card_index("berserk-tcg").find(text).resolved == "BK1-009"


def test_guts_is_ambiguous_between_its_fifteen_cards() -> None:
    found = card_index("berserk-tcg").find("guts")
    named_guts = [cid for cid, card in load_game("berserk-tcg").cards.items() if card["name"] == "Guts"]
    assert found.ambiguous and found.resolved is None
    assert list(found.ids) == named_guts and len(named_guts) == 15


def test_name_with_id_picks_one_version() -> None:
    assert card_index("berserk-tcg").find("Guts (BK1-44)").resolved == "BK1-044"


def test_name_with_another_cards_id_is_a_mismatch_naming_the_id_and_the_named_cards() -> None:
    found = card_index("berserk-ccg").find("Кочевник (10002)")
    assert found.mismatch and found.resolved is None and found.ambiguous
    assert found.ids == ("10002", "10001")


def test_a_name_that_is_no_cards_beside_an_id_resolves_to_nothing_and_suggests_the_ids_card_first() -> None:
    found = card_index("berserk-tcg").find("Gutz (BK1-12)")
    assert found.resolved is None and not found.ambiguous and found.unnamed == "BK1-012"
    assert found.suggestions[0] == "Guts (BK1-012)"


def test_a_name_hiding_an_invisible_character_beside_an_id_names_no_card() -> None:
    assert card_index("berserk-tcg").find("Cas\u200bca (BK1-013)").unnamed == "BK1-013"
    assert card_index("berserk-tcg").find("casca  (BK1-13)").resolved == "BK1-013"


@pytest.mark.parametrize("text", ["Kochevnik", "КОЧЕВНИК", "кочевник", "10001"])
def test_ccg_card_is_found_by_latin_cyrillic_or_id(text: str) -> None:
    assert card_index("berserk-ccg").find(text).resolved == "10001"


def test_yo_and_ye_spellings_find_the_same_card() -> None:
    cards = load_game("berserk-ccg").cards
    cid, card = next((cid, c) for cid, c in cards.items() if "ё" in c["name"].lower())
    spelled_with_ye = card["name"].replace("ё", "е").replace("Ё", "Е")
    assert cid in card_index("berserk-ccg").find(spelled_with_ye).ids
    assert fold(spelled_with_ye) == fold(card["name"])


def test_a_city_id_is_found_in_any_case() -> None:
    assert card_index("berserk-tcg").find("city-r").resolved == "CITY-R"


def test_an_unknown_name_gets_pasteable_suggestions() -> None:
    found = card_index("berserk-tcg").find("Gutz")
    assert found.ids == () and found.suggestions
    assert found.suggestions[0].startswith("Guts (BK")
    assert card_index("berserk-tcg").find(found.suggestions[0]).resolved is not None


def test_a_close_name_of_a_reprinted_card_suggests_its_latest_printing() -> None:
    ccg = load_game("berserk-ccg").cards
    assert ccg["10171"]["printings"] == ["10171", "50184"]
    suggestions = card_index("berserk-ccg").find("marodior").suggestions
    assert suggestions[0] == "Мародёр (50184)" and not any("10171" in s for s in suggestions)
    assert card_index("berserk-ccg").find(suggestions[0]).resolved == "50184"


def test_an_id_typed_with_underscore_for_dash_suggests_that_id_and_every_card_of_the_close_name() -> None:
    suggestions = card_index("berserk-online").find("b_lak_nak").suggestions
    assert suggestions[:2] == ("Лак-Нак (b_lak-nak)", "Лак-Нак (b_lak_nak2)")


@pytest.mark.parametrize("text", ["Guts BK1-012", "BK1-012 Guts", "guts bk1-12"])
def test_a_name_and_an_id_side_by_side_without_brackets_read_as_name_with_id(text: str) -> None:
    assert card_index("berserk-tcg").find(text).resolved == "BK1-012"


def test_an_id_without_brackets_beside_another_cards_name_is_the_same_mismatch_as_with_them() -> None:
    bare, bracketed = (card_index("berserk-tcg").find(t) for t in ("Casca BK1-012", "Casca (BK1-012)"))
    assert bare.mismatch and bare.ids == bracketed.ids
    unnamed = card_index("berserk-tcg").find("Foobar BK1-012")
    assert unnamed.unnamed == "BK1-012" and unnamed.suggestions[0] == "Guts (BK1-012)"


def test_a_deck_line_with_an_id_without_brackets_resolves_and_a_wrong_name_says_which_card_the_id_is() -> None:
    from cardkit.decks import parse_deck

    deck = parse_deck("game: berserk-tcg\n3 Guts BK1-012\n2 Foobar BK1-013\n")
    assert deck.main == {"BK1-012": 3}
    (problem,) = deck.problems
    assert problem.code == "UNKNOWN_CARD" and "no berserk-tcg card is called 'Foobar', and BK1-013 is Casca" in problem.message
