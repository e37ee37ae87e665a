"""Deck lists in the forms players paste: Cockatrice's `SB:` lines and `//` section comments, MTG Arena's sections."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardkit.decks import parse_deck, read_deck
from cardkit.decks.canonical import deck_hash
from cardkit.decks.parse import parse_text

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "decks"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"


@pytest.mark.parametrize("export", ["cockatrice-white-hawks.txt", "arena-white-hawks.txt"])
def test_an_exported_list_is_the_same_deck_as_the_hand_written_one(export: str) -> None:
    pasted = read_deck(DATA / export)
    assert pasted.resolved and pasted.game == "berserk-tcg"
    assert deck_hash(pasted) == deck_hash(read_deck(HAWKS))


def test_cockatrice_sb_lines_go_to_the_side_deck_and_its_count_comments_are_not_cards() -> None:
    deck = read_deck(DATA / "cockatrice-white-hawks.txt")
    assert deck.size("main") == 49 and deck.size("side") == 10
    assert all(e.section == "side" for e in deck.entries if e.line is not None and e.line > 21)


def test_an_sb_line_is_side_even_inside_the_main_section() -> None:
    parsed = parse_text("Main\n3 Guts (BK1-012)\nSB: 2 Volley Shot\nsb:1 Casca (BK1-013)\n3 Judeau (BK1-015)\n")
    assert [(e.section, e.text) for e in parsed.entries] == [
        ("main", "Guts (BK1-012)"), ("side", "Volley Shot"), ("side", "Casca (BK1-013)"), ("main", "Judeau (BK1-015)")]


@pytest.mark.parametrize("comment", ["// Sideboard", "//Side", "// side deck:", "// 10 Sideboard"])
def test_a_comment_naming_the_side_section_starts_it(comment: str) -> None:
    parsed = parse_text(f"// Main\n3 Guts (BK1-012)\n{comment}\n2 Volley Shot\n")
    assert [e.section for e in parsed.entries] == ["main", "side"] and not parsed.problems


@pytest.mark.parametrize("title", ["// Sideboard (15)", "// Sideboard - 15", "// Sideboard 15", "// 15 Sideboard cards",
                                   "// SIDEBOARD (15 cards)", "// Sideboard [2]", "// Side deck – 2"])
def test_a_side_title_with_a_count_around_it_starts_the_side_deck(title: str) -> None:
    parsed = parse_text(f"3 Guts (BK1-012)\n{title}\n2 Volley Shot\n")
    assert [e.section for e in parsed.entries] == ["main", "side"] and not parsed.problems


def test_a_main_title_with_a_count_after_the_side_returns_to_main() -> None:
    parsed = parse_text("// Sideboard (2)\n2 Volley Shot\n// Main deck (3 cards)\n3 Guts (BK1-012)\n")
    assert [e.section for e in parsed.entries] == ["side", "main"]


@pytest.mark.parametrize("prose", ["// swap these for the sideboard plan", "// sideboard plan: 15", "// 15 cards for the side",
                                   "// decks", "// 15"])
def test_a_comment_that_mentions_a_section_among_other_words_stays_a_comment(prose: str) -> None:
    parsed = parse_text(f"3 Guts (BK1-012)\n{prose}\n2 Volley Shot\n")
    assert [e.section for e in parsed.entries] == ["main", "main"] and not parsed.problems


def test_a_main_comment_after_the_side_returns_to_main() -> None:
    parsed = parse_text("// Sideboard\n2 Volley Shot\n// Main\n3 Guts (BK1-012)\n")
    assert [e.section for e in parsed.entries] == ["side", "main"]


def test_any_other_slash_comment_is_still_only_a_comment() -> None:
    parsed = parse_text("// my side deck ideas\n3 Guts (BK1-012)\n// 43 Character\n2 Casca (BK1-013)\n")
    assert [e.section for e in parsed.entries] == ["main", "main"] and not parsed.problems


def test_an_sb_prefix_without_a_card_line_is_a_parse_error_not_a_header() -> None:
    parsed = parse_text("SB: Volley Shot\n3 Guts (BK1-012)\n")
    assert not parsed.header
    assert [(p.code, p.line) for p in parsed.problems] == [("PARSE_ERROR", 1)]


def test_an_sb_line_with_a_bad_count_is_a_count_error_at_its_line() -> None:
    parsed = parse_text("3 Guts (BK1-012)\nSB: 0 Volley Shot\n")
    assert [(p.code, p.line) for p in parsed.problems] == [("PARSE_ERROR", 2)]


def test_an_arena_set_and_number_is_read_as_the_card_id() -> None:
    deck = parse_deck("Deck\n3 Guts (BK1) 12\n", format_name="berserk-tcg")
    assert deck.main == {"BK1-012": 3}


def test_an_arena_set_and_number_of_another_card_is_ambiguous_never_guessed() -> None:
    deck = parse_deck("Deck\n3 Guts (BK1) 13\n", format_name="berserk-tcg")
    assert [p.code for p in deck.problems if p.is_error] == ["AMBIGUOUS_CARD"]
