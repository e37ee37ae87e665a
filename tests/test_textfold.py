"""Folding and transliteration: `Kochevnik`, `КОЧЕВНИК` and `кочевник` meet; ё = е."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardkit.textfold import (
    fold,
    fold_latin,
    fold_many,
    has_cyrillic,
    latin_of_folded_many,
    loose_latin,
    loosened_many,
    search_key,
    search_keys,
    transliterate,
)


@pytest.mark.parametrize(("cyrillic", "latin"), [
    ("Кочевник", "Kochevnik"),
    ("Орк-Кочевник", "Ork-Kochevnik"),
    ("Щука", "Shchuka"),
    ("Дикий целитель", "Dikii tselitel"),
    ("Ёж", "Ezh"),
    ("Подъём", "Podem"),
    ("Guts", "Guts"),
], ids=["plain", "hyphen", "multi-letter-capital", "two-words", "yo", "hard-sign", "latin-unchanged"])
def test_transliteration_keeps_capitals_and_drops_signs(cyrillic: str, latin: str) -> None:
    assert transliterate(cyrillic) == latin


def test_latin_and_cyrillic_spellings_share_a_key() -> None:
    assert fold_latin("Kochevnik") == fold_latin("КОЧЕВНИК") == fold_latin("кочевник") == "kochevnik"


def test_yo_folds_to_ye_in_both_keys() -> None:
    assert fold("Ёлка") == fold("елка")
    assert fold_latin("Ёлка") == fold_latin("Елка")


def test_fold_ignores_case_spacing_and_punctuation() -> None:
    assert fold("Bold  Siege-Squadron!") == fold("bold siege squadron") == "boldsiegesquadron"


def test_has_cyrillic_tells_scripts_apart() -> None:
    assert has_cyrillic("Орк") and not has_cyrillic("Ork")


def test_compatibility_letters_fold_to_plain_lower_case() -> None:
    # Found by hypothesis: mathematical bold capitals decompose to capitals only after NFKD.
    assert fold("𝑨𝒃 Ⅳ") == fold("ab iv") == "abiv"


@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@given(st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ -"))
def test_fold_latin_leaves_no_russian_letters(text: str) -> None:
    assert not has_cyrillic(fold_latin(text))
    assert fold_latin(text) == fold_latin(transliterate(text))


@pytest.mark.parametrize(("typed", "name"), [
    ("Dikiy tselitel", "Дикий целитель"),
    ("Dikij celitel", "Дикий целитель"),
    ("Pustinny kondor", "Пустынный кондор"),
    ("Schuka", "Щука"),
    ("Han", "Хан"),
    ("Alexandr", "Александр"),
], ids=["y-for-ii", "j-and-c", "single-n-and-i-for-y", "sch-for-shch", "h-for-kh", "x-for-ks"])
def test_other_transliteration_schemes_meet_the_name_under_the_loose_key(typed: str, name: str) -> None:
    assert loose_latin(typed) == loose_latin(name)
    assert fold_latin(typed) != fold_latin(name)


@given(st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ -"))
def test_a_cyrillic_name_and_its_stored_transliteration_share_the_loose_key(text: str) -> None:
    assert loose_latin(text) == loose_latin(transliterate(text))


def _fold_character_by_character(text: str) -> str:
    """`fold` as first written: the reference its faster form must agree with."""
    import re
    import unicodedata

    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return re.sub(r"[\W_]+", "", text)


@given(st.text())
def test_fold_agrees_with_dropping_marks_character_by_character(text: str) -> None:
    assert fold(text) == _fold_character_by_character(text)


@pytest.mark.parametrize("text", ["Zal\u0301\u0301go", "Ångström", "ＦＵＬＬ", "Ёж", "x" * 300 + "é", "A\u202eB"],
                         ids=["combining", "precomposed", "full-width", "yo", "long", "override"])
def test_fold_of_marked_long_and_full_width_names_matches_the_reference(text: str) -> None:
    assert fold(text) == _fold_character_by_character(text)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_the_ascii_shortcut_folds_exactly_as_the_unicode_path_does(text: str) -> None:
    import re
    import unicodedata

    unicode_path = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text).casefold())
    unicode_path = re.sub(r"[\W_]+", "", "".join(ch for ch in unicode_path if not unicodedata.combining(ch)))
    assert fold(text) == unicode_path


# The batch folds of a build must give exactly what folding one text at a time gives: texts drawn from
# Cyrillic and Latin letters, digits, separators and the characters Unicode folds oddly (compatibility
# forms that decompose to a space or to letters, combining marks, signs that vanish), plus any text.
_ODD = "№½ﹰ¨ŉ\u0301\u0306ъьЁйẞΣς𝑨Ⅳ\u00a0_-. /\n\x1f"
_SPELLING = st.one_of(st.text(), st.text(alphabet="абвгдеёжзийклмнопрстуфхцчшщъыьэюяЖЩABCxyzshtj019" + _ODD))


@given(st.lists(st.tuples(_SPELLING, _SPELLING, _SPELLING), max_size=6))
def test_search_keys_of_many_spellings_are_their_search_keys_one_by_one(spellings: list[tuple[str, str, str]]) -> None:
    assert search_keys(spellings) == [search_key(*group) for group in spellings]


@given(st.lists(_SPELLING, max_size=8))
def test_folding_many_texts_at_once_folds_each_as_alone(texts: list[str]) -> None:
    folded = fold_many(texts)
    assert folded == [fold(t) for t in texts]
    latin = latin_of_folded_many(folded)
    assert latin == [fold_latin(t) for t in texts]
    assert loosened_many(latin) == [loose_latin(t) for t in texts]


def test_search_keys_of_the_whole_catalogue_are_its_search_keys_one_by_one() -> None:
    from cardkit.catalogue.store import load_game
    from cardkit.games.registry import GAMES

    spellings = [(c["name"], c.get("latin") or c["name"], c["id"]) for g in GAMES for c in load_game(g).cards.values()]
    assert search_keys(spellings) == [search_key(*group) for group in spellings]
