"""The search syntax and `search_cards` / `find_card`, checked against plain Python over the catalogue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.catalogue.store import load_game
from cardkit.db.query import FIELDS, parse_query
from cardkit.db.search import find_card, search_cards
from cardkit.errors import AmbiguousCard, BadArgument, CardNotFound, UnknownGame
from cardkit.games.registry import GAMES
from cardkit.textfold import fold


@pytest.fixture(scope="module")
def db(catalogue_db: Path) -> Path:
    return catalogue_db


def ids(db: Path, query: str, game: str | None = None) -> list[tuple[str, str]]:
    return [(h.game, h.id) for h in search_cards(query, game=game, db=db).hits]


def every_card() -> list[tuple[str, dict[str, Any]]]:
    return [(g, c) for g in GAMES for c in load_game(g).cards.values()]


def brute(keep: Callable[[str, dict[str, Any]], bool]) -> list[tuple[str, str]]:
    return [(g, c["id"]) for g, c in every_card() if keep(g, c)]


def total_cost(game: str, card: dict[str, Any]) -> int | None:
    cost = card.get("cost")
    if game == "berserk-tcg":
        return sum(cost.values()) if cost else None
    return cost if game != "berserker" else None


# --- syntax -----------------------------------------------------------------------------------

def test_words_and_filters_are_split() -> None:
    q = parse_query('Guts level<=2 colour:black unique:yes "Black Swordsman"')
    assert q.words == ("Guts", "Black Swordsman")
    assert [(f.field.name, f.op, f.value) for f in q.filters] == [
        ("level", "<=", 2), ("colour", "=", "black"), ("unique", "=", True)]


def test_aliases_and_every_operator_are_understood() -> None:
    q = parse_query("type:flyer color=red elements!=forest cost>3 cost<9 level>=1 level!=2 elite:no name:orc")
    assert [(f.field.name, f.op) for f in q.filters] == [
        ("kind", "="), ("colour", "="), ("element", "!="), ("cost", ">"), ("cost", "<"),
        ("level", ">="), ("level", "!="), ("elite", "=")]
    assert q.words == ("orc",)


@pytest.mark.parametrize(("query", "message"), [
    ("power:3", "unknown field 'power'"),
    ("level<=two", "whole number"),
    ("colour<3", "compares numbers"),
    ("elite:maybe", "yes or no"),
    ("cost>=", "no value"),
    ('"unclosed', "cannot read the query"),
    ("name>x", "name takes words"),
    ("cost>=99999999999999999999999", "cost takes a number from -1,000,000,000 to 1,000,000,000"),
    ("level<-10000000000", "level takes a number from"),
    ("???", "'[?][?][?]' has no letter or digit"),
    ("Guts 🙂", "no letter or digit"),
    ("name:--", "no letter or digit"),
], ids=["unknown-field", "not-a-number", "order-on-text", "bad-boolean", "empty-value", "bad-quote", "name-op",
        "number-beyond-sqlite", "negative-beyond-sqlite", "punctuation-word", "emoji-word", "punctuation-name"])
def test_bad_queries_are_bad_arguments(query: str, message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        parse_query(query)


@pytest.mark.parametrize("number", [10**9, -(10**9), 0])
def test_numbers_up_to_a_billion_either_way_are_accepted(number: int) -> None:
    (f,) = parse_query(f"cost={number}").filters
    assert f.value == number


@pytest.mark.parametrize(("answer", "value"), [
    ("yes", True), ("Y", True), ("true", True), ("1", True), ("NO", False), ("n", False), ("False", False), ("0", False),
])
def test_yes_no_fields_take_each_spelling_of_yes_and_no_in_any_case(answer: str, value: bool) -> None:
    (f,) = parse_query(f"elite:{answer}").filters
    assert f.value is value


def test_field_names_are_read_in_any_case_and_lvl_means_level() -> None:
    q = parse_query("LEVEL<=2 Colour:black LVL>0")
    assert [(f.field.name, f.op, f.value) for f in q.filters] == [("level", "<=", 2), ("colour", "=", "black"), ("level", ">", 0)]


def test_spaces_around_a_quoted_value_are_ignored() -> None:
    (f,) = parse_query('"colour:  black "').filters
    assert f.value == "black"


def test_unknown_field_error_lists_the_known_fields() -> None:
    with pytest.raises(BadArgument) as info:
        parse_query("power:3")
    assert all(name in info.value.message for name in FIELDS)


# --- search -----------------------------------------------------------------------------------

@pytest.mark.parametrize("query", ["Kochevnik", "кочевник", "КОЧЕВНИК", "kochevnik"])
def test_latin_and_cyrillic_queries_find_the_same_cards(db: Path, query: str) -> None:
    found = ids(db, query)
    assert ("berserk-ccg", "10001") in found
    assert found == brute(lambda g, c: "кочевник" in c["name"].lower())


@pytest.mark.parametrize("query", ["Dikiy tselitel", "Dikij celitel", "dikii tselitel", "Дикий целитель"])
def test_a_name_is_found_in_whichever_transliteration_scheme_it_is_typed(db: Path, query: str) -> None:
    hits = search_cards(query, game="berserk-ccg", db=db).hits
    assert [h.name for h in hits] == ["Дикий целитель"]


def test_a_word_that_merges_to_one_letter_is_matched_only_as_written(db: Path) -> None:
    # `zzzz` loosely merges to `z`, which hundreds of names contain; no name contains `zzzz`.
    assert ids(db, "zzzz") == brute(lambda g, c: "zzzz" in c["name"].lower()) == []


def test_yo_and_ye_are_the_same_letter(db: Path) -> None:
    game, card = next((g, c) for g, c in every_card() if "ё" in c["name"])
    with_ye = card["name"].replace("ё", "е")
    assert (game, card["id"]) in ids(db, f'"{with_ye}"')


def test_level_colour_and_unique_filters_find_the_black_unique_cards_of_level_two_or_less(db: Path) -> None:
    expected = brute(lambda g, c: g == "berserk-tcg" and c["colour"] == "black" and c["unique"]
                     and c["level"] is not None and c["level"] <= 2)
    assert ids(db, "level<=2 colour:black unique:yes") == expected and expected


def test_element_elite_and_cost_filters_find_forest_elites_costing_five_or_more_in_both_games(db: Path) -> None:
    expected = brute(lambda g, c: "forest" in c.get("elements", []) and c.get("elite") is True and c["cost"] >= 5)
    assert ids(db, "element:forest elite:yes cost>=5") == expected and expected
    assert {g for g, _ in expected} == {"berserk-ccg", "berserk-online"}


def test_a_kind_filter_with_a_game_filter_or_option_finds_the_ccg_flyers(db: Path) -> None:
    expected = brute(lambda g, c: g == "berserk-ccg" and c["type"] == "flyer")
    assert ids(db, "game:berserk-ccg type:flyer") == expected and expected
    assert ids(db, "type:flyer", game="berserk-ccg") == expected


def test_neutral_means_no_element_and_games_without_elements_never_match(db: Path) -> None:
    expected = brute(lambda g, c: c.get("elements") == [])
    assert ids(db, "element:neutral") == expected and expected
    assert not any(g in ("berserk-tcg", "berserker") for g, _ in ids(db, "element!=forest"))


def test_the_mercenary_filter_finds_twenty_cards_and_ids_are_read_padded_and_in_any_case(db: Path) -> None:
    assert len(ids(db, "mercenary:yes")) == 20
    assert ids(db, "id:BK1-9") == [("berserk-tcg", "BK1-009")]
    assert ids(db, "id:city-r") == [("berserk-tcg", "CITY-R")]


def test_an_empty_query_lists_everything_in_catalogue_order(db: Path) -> None:
    assert ids(db, "") == [(g, c["id"]) for g, c in every_card()]


def test_limit_cuts_the_list_but_reports_the_total(db: Path) -> None:
    result = search_cards("Guts", limit=4, db=db)
    assert len(result.hits) == 4 and result.total == 15
    with pytest.raises(BadArgument):
        search_cards("Guts", limit=0, db=db)


def test_hits_carry_the_full_card(db: Path) -> None:
    [hit] = search_cards("id:10001", db=db).hits
    assert hit.to_dict() == {"game": "berserk-ccg", **load_game("berserk-ccg").cards["10001"]}


@pytest.mark.parametrize(("query", "error"), [
    ("colour:purple", BadArgument), ("element:fire", BadArgument), ("game:chess", UnknownGame),
])
def test_values_no_card_has_are_errors_that_list_the_known_values(db: Path, query: str, error: type) -> None:
    with pytest.raises(error) as info:
        search_cards(query, db=db)
    if error is BadArgument:
        assert "known values" in info.value.message


def test_unknown_game_option_is_refused(db: Path) -> None:
    with pytest.raises(UnknownGame):
        search_cards("Guts", game="chess", db=db)


@settings(max_examples=examples(40), deadline=None)
@given(
    op=st.sampled_from(["=", "!=", "<", "<=", ">", ">="]),
    n=st.integers(min_value=-1, max_value=12),
    game=st.sampled_from([None, *GAMES]),
    field=st.sampled_from(["cost", "level"]),
)
def test_numeric_filters_agree_with_brute_force(db: Path, op: str, n: int, game: str | None, field: str) -> None:
    compare = {"=": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__}[op]

    def value(g: str, c: dict[str, Any]) -> int | None:
        return total_cost(g, c) if field == "cost" else (c.get("level") if g == "berserk-tcg" else None)

    def keep(g: str, c: dict[str, Any]) -> bool:
        v = value(g, c)
        return (game is None or g == game) and v is not None and compare(v, n)

    assert ids(db, f"{field}{op}{n}", game=game) == brute(keep)


# --- show -------------------------------------------------------------------------------------

def test_find_card_by_short_id_and_by_latin_name() -> None:
    assert find_card("BK1-9").card["id"] == "BK1-009"
    found = find_card("Kochevnik", game="berserk-ccg")
    assert (found.game, found.card["id"]) == ("berserk-ccg", "10001")


def test_an_ambiguous_name_lists_every_candidate() -> None:
    with pytest.raises(AmbiguousCard) as info:
        find_card("Guts")
    assert len(info.value.candidates) == 15 and info.value.error_code == "AMBIGUOUS"
    assert "Guts (BK1-011)" in info.value.candidates


def test_an_unknown_name_suggests_close_ones() -> None:
    with pytest.raises(CardNotFound) as info:
        find_card("Griffit")
    assert info.value.suggestions[0].startswith("Griffith (") and info.value.error_code == "NOT_FOUND"


# --- the Scryfall-style language: aliases, negation, or, brackets, order ----------------------

def test_scryfall_short_aliases_name_the_same_fields() -> None:
    q = parse_query("c:red t:character lv<=2 r:rare s:BK1 e:forest g:berserk-tcg")
    assert [f.field.name for f in q.filters] == ["colour", "kind", "level", "rarity", "set", "element", "game"]


def test_a_minus_sign_negates_a_filter_and_other_games_still_never_match(db: Path) -> None:
    expected = brute(lambda g, c: g == "berserk-tcg" and c.get("colour") is not None and c["colour"] != "red")
    assert ids(db, "-c:red") == expected and expected


def test_or_inside_brackets_takes_either_colour_and_the_rest_still_applies(db: Path) -> None:
    expected = brute(lambda g, c: g == "berserk-tcg" and c["colour"] in ("red", "black") and c["kind"] != "city"
                     and c["level"] is not None and c["level"] <= 1)
    assert ids(db, "(c:red or c:black) -t:city lv<=1") == expected and expected


def test_a_negated_word_leaves_out_the_names_it_begins(db: Path) -> None:
    found = {h.name for h in search_cards("g:berserk-tcg -Guts", db=db).hits}
    assert "Guts" not in found and "Griffith" in found


@pytest.mark.parametrize(("query", "message"), [
    ("(c:red", "bracket is not closed"), ("c:red)", "without its"), ("Guts or", "each side"),
    ("()", "empty brackets"), ("order:power", "order takes one of"), ("direction:up", "asc or desc"),
], ids=["open-bracket", "stray-bracket", "dangling-or", "empty-brackets", "unknown-order", "bad-direction"])
def test_malformed_queries_say_what_is_wrong(query: str, message: str) -> None:
    with pytest.raises(BadArgument, match=message):
        parse_query(query)


def test_order_sorts_by_the_field_and_direction_desc_reverses_it(db: Path) -> None:
    levels = [h.level for h in search_cards("Guts order:level", db=db).hits]
    assert levels == sorted(levels) and len(set(levels)) > 1
    costs = [h.cost for h in search_cards("g:berserk-ccg elite:yes order:cost direction:desc", db=db).hits]
    assert costs == sorted(costs, reverse=True) and len(set(costs)) > 1


@pytest.mark.parametrize(("query", "name"), [
    ("Koch", "Кочевник"), ("Кочев", "Кочевник"), ("Griffit", "Griffith"), ("Zolotoy", "Золотой Дракон"),
])
def test_a_word_prefix_finds_the_card_in_any_spelling(db: Path, query: str, name: str) -> None:
    assert name in {h.name for h in search_cards(query, db=db).hits}


def test_a_word_is_never_found_inside_an_unrelated_word_and_a_typo_gets_close_names(db: Path) -> None:
    # Гатс folds loosely to `gac`, which is inside Рогач (`rogach`); only word starts count.
    result = search_cards("Гатс", db=db)
    assert result.hits == [] and result.suggestions[0] == "Guts"


def test_names_that_begin_with_the_query_come_before_names_that_only_contain_it(db: Path) -> None:
    names = [fold(h.name) for h in search_cards("дракон", db=db).hits]
    starts = [n.startswith("дракон") for n in names]
    assert starts == sorted(starts, reverse=True) and any(starts) and not all(starts)


def test_an_exact_name_comes_before_longer_names_listed_earlier_in_the_catalogue(db: Path) -> None:
    # Zodd's Entrance is catalogued before the Zodd cards; asked for "Zodd", the Zodd cards lead.
    names = [h.name for h in search_cards("Zodd", db=db).hits]
    assert names[0] == "Zodd" and "Zodd's Entrance" in names
    assert names.index("Zodd's Entrance") > max(i for i, n in enumerate(names) if n == "Zodd")


def _has_run(words: list[str], run: list[str]) -> bool:
    """Whether `run` occurs in `words` side by side and in order, its last word as a prefix."""
    n = len(run)
    return any(words[i:i + n - 1] == run[:-1] and words[i + n - 1].startswith(run[-1]) for i in range(len(words) - n + 1))


@pytest.mark.parametrize("phrase", ["Moonlight Raiders", "of the", "Goal Of The Swordsman", "Raiders Moonlight", "the goal"])
def test_a_quoted_phrase_finds_exactly_the_names_with_those_words_side_by_side_in_that_order(db: Path, phrase: str) -> None:
    from cardkit.textfold import folded_words

    run = folded_words(phrase)
    expected = {(g, str(c["id"])) for g, c in every_card() if g == "berserk-tcg" and _has_run(folded_words(c["name"]), run)}
    assert set(ids(db, f'"{phrase}"', game="berserk-tcg")) == expected


def test_a_quoted_phrase_needs_its_words_in_order_where_loose_words_do_not(db: Path) -> None:
    assert ids(db, "Raiders Moonlight") == [("berserk-tcg", "BK1-003")]
    assert ids(db, '"Raiders Moonlight"') == []
    assert ids(db, '"Moonlight Raiders"') == [("berserk-tcg", "BK1-003")]


@pytest.mark.parametrize("query", [",".join(["a"] * 3000), "a,b " * 30, '"' + " ".join(["guts"] * 51) + '"'],
                         ids=["3000-comma-words", "60-words-in-30-tokens", "a-51-word-phrase"])
def test_words_joined_into_one_token_count_each_against_the_term_limit(query: str) -> None:
    from cardkit.db.query import MAX_TERMS

    with pytest.raises(BadArgument, match=f"words and filters; the limit is {MAX_TERMS}"):
        parse_query(query)


def test_the_cards_search_command_refuses_3000_comma_separated_words_in_words(runner: Any) -> None:
    from cardkit.cli.main import app

    # The query is read before any database is opened or built.
    result = runner.invoke(app, ["cards", "search", ",".join(["a"] * 3000)])
    assert result.exit_code == 2 and "the query has 3000 words and filters; the limit is" in result.stderr


def test_a_word_far_longer_than_any_name_is_compared_with_no_name_for_suggestions(db: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    import difflib
    import sqlite3

    from cardkit.db.search import close_names

    compared: list[int] = []
    ratio = difflib.SequenceMatcher.ratio
    monkeypatch.setattr(difflib.SequenceMatcher, "ratio", lambda self: compared.append(1) or ratio(self))
    with sqlite3.connect(db) as conn:
        assert close_names(conn, "a" * 5_000) == () and compared == []
        assert close_names(conn, "Gutz") and compared
