"""Reading deck files: header, sections, card lines, names in any script, JSON, bad bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.decks import DeckGameUnknown, parse_deck, read_deck
from cardkit.errors import UnknownFormat, UnreadableInput

DATA = Path(__file__).resolve().parent / "data" / "decks"


def codes(deck) -> list[str]:
    return [p.code for p in deck.problems]


def test_header_sections_and_card_lines_are_read() -> None:
    deck = parse_deck(
        "# a comment\ngame: berserk-tcg\nplayer: Alice Archer\nname: White Hawks\nevent: Spring Open\n"
        "colour: white\n\nMain\n20 BK1-001\n3 Guts (BK1-012)\n3x bold siege squadron\n\nSide\n2 BK1-013\n"
    )
    assert deck.game == "berserk-tcg" and deck.format == "berserk-tcg"
    assert (deck.name, deck.player, deck.event) == ("White Hawks", "Alice Archer", "Spring Open")
    assert deck.header["colour"] == "white"
    assert deck.main == {"BK1-001": 20, "BK1-012": 3, "BK1-002": 3}
    assert deck.side == {"BK1-013": 2}
    assert [e.line for e in deck.entries] == [9, 10, 11, 14]
    assert deck.problems == []


@pytest.mark.parametrize("title", ["Main", "main:", "DECK", "Main deck", "Side", "sideboard:", "Side Deck"])
def test_section_titles_in_any_case_with_optional_colon(title: str) -> None:
    deck = parse_deck(f"game: berserk-tcg\n{title}\n3 BK1-003\n")
    expected = "side" if title.lower().startswith("side") else "main"
    assert deck.entries[0].section == expected and deck.problems == []


def test_card_lines_before_any_section_are_main() -> None:
    deck = parse_deck("game: berserk-tcg\n3 BK1-003\nSide\n1 BK1-004\n")
    assert deck.main == {"BK1-003": 3} and deck.side == {"BK1-004": 1}


def test_repeated_lines_of_one_card_are_summed() -> None:
    deck = parse_deck("game: berserk-tcg\n2 BK1-003\n1 Moonlight Raiders\n")
    assert deck.main == {"BK1-003": 3}
    assert len(deck.entries) == 2


@pytest.mark.parametrize("line", ["3x Кочевник", "3X Кочевник", "3 × Кочевник", "3х Кочевник", "3Х Кочевник"],
                         ids=["x", "X", "times", "cyrillic-kha", "cyrillic-capital-kha"])
def test_the_count_may_carry_an_x_in_either_script(line: str) -> None:
    deck = parse_deck(f"game: berserk-ccg\n{line}\n")
    assert deck.main == {"10001": 3} and deck.problems == []


def test_tcg_ids_are_accepted_without_leading_zeros() -> None:
    assert parse_deck("game: berserk-tcg\n3 BK1-9\n3 bk2-1\n").main == {"BK1-009": 3, "BK2-001": 3}


def test_inline_comments_after_a_card_are_ignored() -> None:
    deck = parse_deck("game: berserk-tcg\n3 BK1-5   # Readied Archers\n")
    assert deck.main == {"BK1-005": 3} and deck.problems == []


def test_russian_latin_and_id_spellings_meet_on_one_card() -> None:
    deck = read_deck(DATA / "mixed-scripts.deck")
    assert deck.main == {"10001": 5, "10003": 6}
    assert deck.problems == []


@pytest.mark.parametrize("name", ["Бьёрн", "бьерн", "BERN", "Bern"], ids=["yo", "ye", "latin-caps", "latin"])
def test_yo_equals_ye_and_transliteration_resolves(name: str) -> None:
    assert parse_deck(f"game: berserk-ccg\n3 {name}\n").main == {"10080": 3}


def test_names_fold_case_whitespace_and_punctuation() -> None:
    assert parse_deck("game: berserk-tcg\n1 sword drawn   cavalry unit\n").main == {"BK1-008": 1}


def test_an_ambiguous_name_lists_every_candidate_and_is_never_guessed() -> None:
    deck = parse_deck("game: berserk-tcg\n3 Guts\n")
    (problem,) = deck.problems
    assert problem.code == "AMBIGUOUS_CARD" and problem.line == 2
    assert len(problem.actual) == 15 and "BK1-012" in problem.actual
    assert deck.main == {} and deck.entries[0].card is None


def test_a_name_and_an_id_of_different_cards_are_ambiguous_not_resolved_by_the_id() -> None:
    deck = parse_deck("game: berserk-tcg\n3 Guts (BK1-003)\n3 Moonlight Raiders (BK1-3)\n")
    (problem,) = deck.problems
    assert (problem.code, problem.line, problem.card) == ("AMBIGUOUS_CARD", 2, "Guts (BK1-003)")
    assert "BK1-003 is Moonlight Raiders" in problem.message and problem.actual[0] == "BK1-003"
    assert "BK1-012" in problem.actual
    assert deck.main == {"BK1-003": 3}


def test_a_name_no_card_has_beside_a_valid_id_is_an_unknown_card_suggesting_the_ids_card() -> None:
    deck = parse_deck("game: berserk-tcg\n3 Foobar (BK1-013)\n3 Gutz (BK1-012)\n")
    assert deck.main == {}
    foobar, gutz = deck.problems
    assert (foobar.code, foobar.line, foobar.actual) == ("UNKNOWN_CARD", 2, "BK1-013")
    assert "'Foobar'" in foobar.message and "BK1-013 is Casca" in foobar.message and "Casca (BK1-013)" in foobar.message
    assert gutz.code == "UNKNOWN_CARD" and "Guts (BK1-012)" in gutz.message


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200f"], ids=["rlo", "lri", "rlm"])
def test_a_bidi_control_in_a_card_line_is_a_parse_error_not_the_card_it_displays_as(hidden: str) -> None:
    deck = parse_deck(f"game: berserk-tcg\nplayer: Al{hidden}ice\n3 {hidden}Casca (BK1-013)\n3 acsaC{hidden}\n")
    assert deck.main == {} and [(p.code, p.line) for p in deck.problems] == [("PARSE_ERROR", 3), ("PARSE_ERROR", 4)]
    assert deck.header["player"] == f"Al{hidden}ice"  # a name may hold one: it is shown escaped, never counted


@pytest.mark.parametrize("separator", ["\x85", "\u2028", "\u2029", "\x0b", "\x0c"])
def test_a_line_holding_a_line_or_paragraph_separator_is_a_parse_error(separator: str) -> None:
    deck = parse_deck(f"game: berserk-tcg\n3 Casca{separator}3 Guts (BK1-012)\n# a note{separator}3 Casca\n1 Casca (BK1-013)\r\n")
    assert [(p.code, p.line) for p in deck.problems][:2] == [("PARSE_ERROR", 2), ("PARSE_ERROR", 3)]
    assert f"U+{ord(separator):04X}" in deck.problems[0].message
    assert deck.main == {"BK1-013": 1}


def test_an_unknown_name_suggests_close_names() -> None:
    (problem,) = parse_deck("game: berserk-tcg\n3 Moonlight Raidrs\n").problems
    assert problem.code == "UNKNOWN_CARD" and "Moonlight Raiders (BK1-003)" in problem.message


@pytest.mark.parametrize("text", ["3 10001", "3 Кочевник", "3 marines"], ids=["ccg-id", "ccg-name", "berserker-id"])
def test_a_card_of_another_game_is_wrong_game(text: str) -> None:
    (problem,) = parse_deck(f"game: berserk-tcg\n{text}\n").problems
    assert problem.code == "WRONG_GAME" and problem.line == 2


@pytest.mark.parametrize(
    ("line", "count"),
    [("0 BK1-003", 0), ("-2 BK1-003", -2), ("10001 BK1-003", 10001), ("99999999999999999999 BK1-003", 99999999999999999999)],
    ids=["zero", "negative", "over-10000", "huge"],
)
def test_bad_counts_are_parse_errors_at_their_line(line: str, count: int) -> None:
    deck = parse_deck(f"game: berserk-tcg\n\n{line}\n")
    (problem,) = deck.problems
    assert (problem.code, problem.line, problem.actual) == ("PARSE_ERROR", 3, count)
    assert deck.entries == []


def test_a_count_written_with_a_plus_sign_is_a_parse_error_as_in_squad_files() -> None:
    deck = parse_deck("game: berserk-tcg\n+3 BK1-001\n")
    (problem,) = deck.problems
    assert (problem.code, problem.line, deck.entries) == ("PARSE_ERROR", 2, [])
    assert "+3 is not a whole number" in problem.message


@pytest.mark.parametrize(("count", "shown"), [(True, "true"), (None, "null"), (2.5, "2.5"), ("3", "'3'")])
def test_a_json_count_that_is_no_whole_number_is_shown_in_json_spelling(count: object, shown: str) -> None:
    deck = parse_deck(json.dumps({"game": "berserk-tcg", "main": [{"card": "BK1-001", "count": count}]}))
    (problem,) = deck.problems
    assert (problem.code, problem.pointer, problem.message) == ("PARSE_ERROR", "/main/0", f"count {shown} is not a whole number")


def test_a_key_repeated_in_a_json_deck_entry_is_a_parse_error_pointing_at_that_entry() -> None:
    text = '{"game": "berserk-tcg", "main": [{"card": "BK1-001", "count": 3}, {"card": "BK1-002", "count": 3, "count": 2}]}'
    deck = parse_deck(text)
    (problem,) = [p for p in deck.problems if p.code == "PARSE_ERROR"]
    assert problem.pointer == "/main/1" and "'count' given twice" in problem.message


def test_a_key_repeated_at_the_top_of_a_json_deck_has_no_deeper_pointer() -> None:
    deck = parse_deck('{"game": "berserk-tcg", "main": [{"card": "BK1-001", "count": 3}], "main": []}')
    (problem,) = [p for p in deck.problems if p.code == "PARSE_ERROR"]
    assert problem.pointer is None and "'main' given twice" in problem.message


def test_a_count_of_exactly_10000_is_allowed() -> None:
    assert parse_deck("game: berserk-tcg\n10000 BK1-001\n").main == {"BK1-001": 10000}


@pytest.mark.parametrize("line", ["Moonlight Raiders", "three BK1-003", "x3", "3x", "Guts: Black Swordsman"])
def test_a_line_that_is_no_card_line_is_a_parse_error(line: str) -> None:
    deck = parse_deck(f"game: berserk-tcg\n1 BK1-003\n{line}\n")
    assert [(p.code, p.line) for p in deck.problems] == [("PARSE_ERROR", 3)]


def test_unknown_header_keys_are_kept_not_errors() -> None:
    deck = parse_deck("game: berserk-tcg\nArchetype: Hawks\n1 BK1-003\n")
    assert deck.header["archetype"] == "Hawks" and deck.problems == []


def test_a_header_key_given_twice_is_a_parse_error() -> None:
    deck = parse_deck("game: berserk-tcg\nname: A\nname: B\n1 BK1-003\n")
    assert [(p.code, p.line) for p in deck.problems] == [("PARSE_ERROR", 3)]


def test_bom_and_crlf_files_read_like_plain_ones() -> None:
    deck = read_deck(DATA / "bom-crlf.deck")
    assert deck.game == "berserk-ccg" and deck.name == "BOM and CRLF"
    assert deck.main == {"10001": 3, "10002": 3, "10003": 3}
    assert deck.problems == []


def test_a_lone_carriage_return_stays_inside_its_line_so_a_comment_hides_what_follows_it() -> None:
    deck = parse_deck("game: berserk-tcg\n# c\r1 BK1-999\n3 BK1-001\n4 Nonexistent\n")
    assert deck.main == {"BK1-001": 3}
    assert [(p.code, p.line) for p in deck.problems if p.is_error][0] == ("UNKNOWN_CARD", 4)
    assert not any("BK1-999" in p.message for p in deck.problems)


def test_a_lone_carriage_return_read_from_a_file_is_no_line_end_but_crlf_is(tmp_path: Path) -> None:
    path = tmp_path / "cr.deck"
    path.write_bytes(b"game: berserk-tcg\r\n# c\r1 BK1-999\r\n3 BK1-001\n2 Nonexistent\n")
    deck = read_deck(path)
    assert deck.main == {"BK1-001": 3}
    assert [(p.code, p.line) for p in deck.problems if p.code in ("UNKNOWN_CARD", "PARSE_ERROR")] == [("UNKNOWN_CARD", 4)]


def test_a_file_that_is_not_utf8_is_unreadable() -> None:
    with pytest.raises(UnreadableInput, match="not UTF-8"):
        read_deck(DATA / "cp1251.deck")


@pytest.mark.parametrize("kind", ["missing", "directory", "binary", "too-big"])
def test_files_that_cannot_be_decks_are_unreadable(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "x.deck"
    if kind == "directory":
        path.mkdir()
    elif kind == "binary":
        path.write_bytes(b"game: berserk-tcg\n\x00\x01\x02")
    elif kind == "too-big":
        path.write_text("game: berserk-tcg\n" + "1 BK1-003\n" * 120_000, encoding="utf-8")
    with pytest.raises(UnreadableInput):
        read_deck(path)


def test_the_game_is_inferred_from_ids_when_unambiguous() -> None:
    deck = read_deck(DATA / "no-game-ids.deck")
    assert deck.game == "berserk-tcg" and deck.format == "berserk-tcg"


def test_a_deck_whose_game_cannot_be_told_is_a_clear_error() -> None:
    with pytest.raises(DeckGameUnknown, match="game"):
        parse_deck("3 Nothing Like A Card\n")
    with pytest.raises(DeckGameUnknown, match="no card lines"):
        parse_deck("# empty\n")


def test_names_shared_by_two_games_leave_the_game_undecided() -> None:
    # Аколит Дзара is a card of both the tabletop game and Berserk Online.
    with pytest.raises(DeckGameUnknown, match="equally"):
        parse_deck("3 Аколит Дзара\n")


def test_game_and_format_headers_are_read_in_any_case() -> None:
    deck = parse_deck("Game: Berserk-TCG\nFORMAT: Berserk-TCG-Casual\n3 BK1-003\n")
    assert (deck.game, deck.format) == ("berserk-tcg", "berserk-tcg-casual")


def test_an_unknown_game_header_is_an_unreadable_deck() -> None:
    with pytest.raises(DeckGameUnknown, match="line 1: unknown game"):
        parse_deck("game: chess\n1 BK1-003\n")


def test_format_comes_from_the_argument_then_the_header_then_the_default() -> None:
    text = "game: berserk-tcg\nformat: berserk-tcg-casual\n1 BK1-003\n"
    assert parse_deck(text).format == "berserk-tcg-casual"
    assert parse_deck(text, format_name="berserk-tcg").format == "berserk-tcg"
    assert parse_deck("game: berserk-tcg\n1 BK1-003\n").format == "berserk-tcg"


def test_the_format_alone_tells_the_game() -> None:
    deck = parse_deck("1 Кочевник\n", format_name="berserk-online")
    assert deck.game == "berserk-online"


def test_a_format_of_another_game_than_the_header_is_an_error() -> None:
    with pytest.raises(DeckGameUnknown, match="is for berserk-ccg"):
        parse_deck("game: berserk-tcg\n1 BK1-003\n", format_name="berserk-ccg")


def test_an_unknown_format_argument_raises_unknown_format() -> None:
    with pytest.raises(UnknownFormat):
        parse_deck("game: berserk-tcg\n1 BK1-003\n", format_name="nope")


def test_json_decks_carry_the_same_data() -> None:
    text = json.dumps({"game": "berserk-tcg", "player": "Alice", "main": [{"card": "BK1-003", "count": 3}],
                       "side": [{"card": "Guts (BK1-012)", "count": 1}]})
    deck = parse_deck(text)
    assert deck.source == "json" and deck.player == "Alice"
    assert deck.main == {"BK1-003": 3} and deck.side == {"BK1-012": 1}
    assert deck.entries[1].pointer == "/side/0"


def test_json_entries_with_bad_counts_are_parse_errors_with_a_pointer() -> None:
    text = json.dumps({"game": "berserk-tcg", "main": [{"card": "BK1-003", "count": 0}, {"card": "BK1-004"},
                                                        {"card": "BK1-005", "count": "3"}, "BK1-006"]})
    deck = parse_deck(text)
    assert [(p.code, p.pointer) for p in deck.problems] == [
        ("PARSE_ERROR", "/main/0"), ("PARSE_ERROR", "/main/1"), ("PARSE_ERROR", "/main/2"), ("PARSE_ERROR", "/main/3")]


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '"deck"'], ids=["broken", "array", "string"])
def test_json_that_is_not_a_deck_object_is_unreadable(tmp_path: Path, text: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UnreadableInput):
        read_deck(path)


def test_reading_never_modifies_the_file() -> None:
    path = DATA / "every-problem.deck"
    before = path.read_bytes()
    read_deck(path)
    assert path.read_bytes() == before


@settings(max_examples=examples(150), deadline=None, derandomize=True)
@given(st.text(max_size=300))
def test_random_text_never_raises_anything_but_unreadable_input(text: str) -> None:
    try:
        deck = parse_deck(text)
    except UnreadableInput:
        return
    assert all(p.code for p in deck.problems)


@settings(max_examples=examples(100), deadline=None, derandomize=True)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), max_size=12))
def test_random_lines_under_a_game_header_become_problems_not_exceptions(lines: list[str]) -> None:
    deck = parse_deck("game: berserk-tcg\n" + "\n".join(lines))
    for p in deck.problems:
        assert p.line is not None and p.line >= 2


def test_a_spelling_repeated_on_several_lines_is_reported_at_each_line() -> None:
    deck = parse_deck("game: berserk-tcg\n1 Gutz\n2 BK1-003\n1 Gutz\n")
    assert [(p.code, p.line) for p in deck.problems] == [("UNKNOWN_CARD", 2), ("UNKNOWN_CARD", 4)]


def test_past_the_suggestion_budget_unknown_cards_are_still_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardkit.decks.read as read

    monkeypatch.setattr(read, "SUGGESTION_BUDGET", 1)
    deck = parse_deck("game: berserk-tcg\n1 Moonlight Raidrs\n1 Moonlight Raidrz\n")
    first, second = deck.problems
    assert first.code == second.code == "UNKNOWN_CARD"
    assert "did you mean" in first.message and "did you mean" not in second.message


@pytest.mark.parametrize("sign", ["", "+", "-"], ids=["plain", "plus", "minus"])
def test_a_count_of_thousands_of_digits_is_a_parse_error_not_a_crash(sign: str) -> None:
    deck = parse_deck(f"game: berserk-tcg\n{sign}{'9' * 5000} BK1-003\n")
    (problem,) = deck.problems
    assert (problem.code, problem.line) == ("PARSE_ERROR", 2)
    assert len(problem.message) < 120 and deck.entries == []


@settings(max_examples=examples(200), deadline=None, derandomize=True)
@given(st.integers(min_value=-(10**30), max_value=10**30), st.integers(min_value=0, max_value=30))
def test_any_count_is_either_read_or_a_parse_error_at_its_line(n: int, zeros: int) -> None:
    digits = str(n) if n < 0 else "0" * zeros + str(n)
    deck = parse_deck(f"game: berserk-tcg\n{digits} BK1-003\n")
    if 1 <= n <= 10_000:
        assert deck.main == {"BK1-003": n} and deck.problems == []
    else:
        assert [(p.code, p.line) for p in deck.problems] == [("PARSE_ERROR", 2)]


@pytest.mark.parametrize(
    ("count", "reason"),
    [("9" * 5000, "5000-digit number"), ("1e400", "too large"), ("NaN", "NaN is not"), ("-Infinity", "Infinity is not")],
    ids=["5000-digits", "overflowing-float", "nan", "infinity"],
)
def test_json_numbers_no_count_can_be_are_unreadable(tmp_path: Path, count: str, reason: str) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"game": "berserk-tcg", "main": [{"card": "BK1-003", "count": ' + count + "}]}", encoding="utf-8")
    with pytest.raises(UnreadableInput, match=reason):
        read_deck(path)


@pytest.mark.parametrize(
    ("text", "first"),
    [('{"main": "BK1-003"}', "/main: `main` must be a list"),
     ('{"main": [{"card": "BK1-003", "count": "3"}]}', "/main/0: count '3' is not a whole number"),
     ("hello world\n", "line 1: not a card line")],
    ids=["json-main-not-a-list", "json-count-a-string", "text-no-card-line"],
)
def test_a_deck_of_only_broken_lines_names_its_first_problem(text: str, first: str) -> None:
    with pytest.raises(DeckGameUnknown, match="no card lines that parse") as caught:
        parse_deck(text)
    assert f"(first problem: {first}" in caught.value.message
