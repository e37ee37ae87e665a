"""Legality: every rule of every format, every problem reported, warnings never illegal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardkit.decks import parse_deck, read_deck, validate_deck
from cardkit.decks.legality import is_legal
from cardkit.errors import BadArgument
from cardkit.formats import load_format

DATA = Path(__file__).resolve().parent / "data" / "decks"

# 45 white cards: 12 Mercenaries and eleven different Hawks, three each.
TCG_BASE = """game: berserk-tcg
12 BK1-001
3 BK1-003
3 BK1-004
3 BK1-005
3 BK1-006
3 BK1-007
3 BK1-008
3 BK1-013
3 BK1-015
3 BK1-017
3 BK1-019
3 BK1-021
"""
BERSERKER_STANDARD = """game: berserker
8 marines
2 point-blank
2 short
2 medium
2 long
2 very-long
4 extreme
7 tactical-speed
6 cruising-speed
5 fast
4 very-fast
4 evasion
4 superstructure
4 robot-security
"""


def problems_of(text: str, format_name: str | None = None) -> list:
    return validate_deck(parse_deck(text, format_name=format_name))


def codes_of(text: str, format_name: str | None = None) -> list[str]:
    return [p.code for p in problems_of(text, format_name)]


def ccg_deck(n_cards: int, copies: int = 3) -> str:
    """A Berserk CCG deck of `n_cards` steppe cards, `copies` of each id (the last one fewer)."""
    lines, left, cid = ["game: berserk-ccg"], n_cards, 10001
    while left > 0:
        lines.append(f"{min(copies, left)} {cid}")
        left -= copies
        cid += 1
    return "\n".join(lines) + "\n"


def test_a_45_card_tcg_deck_with_12_mercenaries_is_legal_without_warnings() -> None:
    assert problems_of(TCG_BASE) == []


def test_tcg_deck_of_44_is_too_small_and_has_no_upper_bound() -> None:
    (p,) = problems_of(TCG_BASE.replace("12 BK1-001", "11 BK1-001"))
    assert (p.code, p.limit, p.actual) == ("DECK_TOO_SMALL", 45, 44)
    assert problems_of(TCG_BASE.replace("12 BK1-001", "500 BK1-001")) == []


def test_four_copies_of_a_tcg_card_are_too_many() -> None:
    (p,) = problems_of(TCG_BASE + "1 Moonlight Raiders\n")
    assert (p.code, p.card, p.limit, p.actual, p.line) == ("TOO_MANY_COPIES", "BK1-003", 3, 4, 3)


def test_the_copy_limit_counts_main_and_side_together() -> None:
    (p,) = problems_of(TCG_BASE + "Side\n1 BK1-003\n")
    assert p.code == "TOO_MANY_COPIES" and "across main and side" in p.message


def test_two_printings_of_one_character_count_separately() -> None:
    # Three Guts of each of two printings is six Guts but three copies of each card.
    assert problems_of(TCG_BASE + "3 Guts (BK1-011)\n3 Guts (BK1-012)\n") == []


def test_mercenaries_are_exempt_from_the_copy_limit() -> None:
    assert "TOO_MANY_COPIES" not in codes_of(TCG_BASE.replace("12 BK1-001", "30 BK1-001"))


def test_fewer_than_ten_mercenaries_is_a_warning_and_still_legal() -> None:
    problems = problems_of(TCG_BASE.replace("12 BK1-001", "9 BK1-001\n3 BK1-023"))
    (p,) = problems
    assert (p.code, p.severity.value, p.limit, p.actual) == ("FEW_MERCENARIES", "warning", 10, 9)
    assert is_legal(problems)


def test_side_deck_of_eleven_is_too_large() -> None:
    (p,) = problems_of(TCG_BASE + "Side\n3 BK1-023\n3 BK1-024\n3 BK1-025\n2 BK1-026\n")
    assert (p.code, p.limit, p.actual, p.line) == ("SIDE_TOO_LARGE", 10, 11, 15)


def test_a_city_is_not_a_deck_card() -> None:
    (p,) = problems_of(TCG_BASE + "1 Royal City\n")
    assert (p.code, p.card, p.line) == ("NOT_A_DECK_CARD", "CITY-R", 14)


def test_a_card_whose_colour_cost_the_deck_cannot_pay_is_a_warning() -> None:
    # Precision Strike costs two red cards; one other red card is not enough.
    problems = problems_of(TCG_BASE + "1 Precision Strike\n1 BK1-122\n")
    (p,) = problems
    assert (p.code, p.severity.value, p.card, p.limit, p.actual) == ("UNPAYABLE_COST", "warning", "BK1-153", 2, 1)
    assert is_legal(problems)


def test_the_card_being_opened_does_not_pay_for_itself() -> None:
    # Two copies of a two-red card: each copy sees only the other, one red card.
    assert "UNPAYABLE_COST" in codes_of(TCG_BASE + "2 Precision Strike\n")
    assert "UNPAYABLE_COST" not in codes_of(TCG_BASE + "3 Precision Strike\n")


@pytest.mark.parametrize(("others", "warned"), [(2, True), (3, False)], ids=["two-other-black", "three-other-black"])
def test_a_card_costing_three_black_balls_needs_three_other_black_cards(others: int, warned: bool) -> None:
    # Slan (BK2-041) is black and costs three black cards; Disgusting Fiend (BK1-082) is black too.
    problems = [p for p in problems_of(TCG_BASE + f"1 Slan\n{others} BK1-082\n") if p.code == "UNPAYABLE_COST"]
    if warned:
        (p,) = problems
        assert (p.card, p.limit, p.actual, p.line) == ("BK2-041", 3, others, 14)
    else:
        assert problems == []


def test_a_colourless_ball_is_paid_by_any_card_but_still_needs_one() -> None:
    # A Crimson Lake Appears (BK1-105) costs one black and one colourless card.
    text = "game: berserk-tcg\n1 BK1-105\n1 BK1-082\n"
    unpayable = [p for p in problems_of(text) if p.code == "UNPAYABLE_COST"]
    assert [(p.card, p.limit, p.actual) for p in unpayable] == [("BK1-105", 2, 1)]
    assert "needs 2 other card(s) of any colour" in unpayable[0].message
    assert [p.code for p in problems_of(text + "1 BK1-082\n") if p.code == "UNPAYABLE_COST"] == []


def test_the_casual_format_has_no_side_deck() -> None:
    (p,) = problems_of(TCG_BASE + "Side\n1 BK1-023\n", format_name="berserk-tcg-casual")
    assert (p.code, p.line) == ("SIDE_NOT_ALLOWED", 15)


@pytest.mark.parametrize(("n", "expected"), [(29, ["DECK_TOO_SMALL"]), (30, []), (50, []), (51, ["DECK_TOO_LARGE"])])
def test_ccg_decks_hold_30_to_50_cards(n: int, expected: list[str]) -> None:
    assert codes_of(ccg_deck(n)) == expected


def test_four_copies_of_a_ccg_card_are_too_many() -> None:
    assert codes_of(ccg_deck(32, copies=4)) == ["TOO_MANY_COPIES"] * 8


def test_a_ccg_side_deck_is_not_allowed() -> None:
    (p,) = problems_of(ccg_deck(30) + "Side\n1 10080\n")
    assert (p.code, p.actual) == ("SIDE_NOT_ALLOWED", 1)


def test_berserk_online_unlimited_cards_are_exempt_from_the_copy_limit() -> None:
    base = "game: berserk-online\n" + "".join(f"3 {cid}\n" for cid in
                                              ["s_kneht", "s_orog", "s_dev", "s_dzhinn", "s_etgen", "s_almadul", "s_akkan", "s_ille"])
    assert codes_of(base + "6 Пушинка\n") == []
    (p,) = problems_of(base + "6 Хускарл\n")
    assert (p.code, p.card, p.actual) == ("TOO_MANY_COPIES", "m_huskarl", 6)


def test_berserk_online_bounds_are_30_to_50() -> None:
    assert codes_of("game: berserk-online\n29 Пушинка\n") == ["DECK_TOO_SMALL"]
    assert codes_of("game: berserk-online\n51 Пушинка\n") == ["DECK_TOO_LARGE"]


def test_the_berserker_standard_deck_is_legal() -> None:
    assert problems_of(BERSERKER_STANDARD) == []


def test_each_berserker_card_that_differs_names_the_count_it_should_have() -> None:
    text = BERSERKER_STANDARD.replace("8 marines", "7 marines").replace("4 evasion\n", "") + "1 Evasion\n"
    problems = problems_of(text)
    assert [(p.code, p.card, p.limit, p.actual) for p in problems] == [
        ("COMPOSITION_MISMATCH", "marines", 8, 7),
        ("COMPOSITION_MISMATCH", "evasion", 4, 1),
    ]
    assert "Marines" in problems[0].message and "has 8" in problems[0].message


def test_every_problem_is_reported_not_just_the_first() -> None:
    deck = read_deck(DATA / "every-problem.deck")
    found = [(p.line, p.code) for p in validate_deck(deck)]
    assert found == [
        (8, "AMBIGUOUS_CARD"),
        (9, "UNKNOWN_CARD"),
        (10, "NOT_A_DECK_CARD"),
        (11, "PARSE_ERROR"),
        (12, "PARSE_ERROR"),
        (13, "PARSE_ERROR"),
        (14, "PARSE_ERROR"),
        (15, "WRONG_GAME"),
        (16, "TOO_MANY_COPIES"),
        (19, "SIDE_TOO_LARGE"),
        (None, "DECK_TOO_SMALL"),
        (None, "FEW_MERCENARIES"),
    ]


def test_problems_carry_code_severity_message_card_line_limit_actual() -> None:
    (p,) = problems_of(TCG_BASE + "1 Moonlight Raiders\n")
    d = p.to_dict()
    assert {"code", "severity", "message", "card", "line", "limit", "actual"} <= set(d)
    assert d["severity"] == "error" and d["message"]


def test_validating_against_another_games_format_is_a_bad_argument() -> None:
    with pytest.raises(BadArgument):
        validate_deck(parse_deck(TCG_BASE), load_format("berserk-ccg"))


def test_a_made_up_format_file_sets_new_rules_without_new_code(tmp_path: Path) -> None:
    from cardkit.formats.model import read_format_file

    rules = {
        "name": "hawk-cup", "game": "berserk-tcg", "title": "Hawk Cup",
        "main": {"min": 40, "max": 45}, "side": {"min": 2, "max": 5},
        "copies_by": "name", "copies": {"limit": 2, "sections": ["main"]},
        "minimums": [{"code": "FEW_HAWKS", "severity": "error", "when": {"field": "subtypes", "contains": "Hawk"},
                      "at_least": 40, "message": "{actual} Hawks; the cup needs {limit}"}],
    }
    path = tmp_path / "hawk-cup.json"
    path.write_text(json.dumps(rules), encoding="utf-8")
    fmt = read_format_file(path)
    # Two Guts (BK1-012, BK1-011) count as one name under `copies_by: name`.
    problems = validate_deck(parse_deck(TCG_BASE + "2 BK1-012\n1 BK1-011\n"), fmt)
    found = [(p.code, p.severity.value, p.limit, p.actual) for p in problems]
    assert ("TOO_MANY_COPIES", "error", 2, 3) in found
    assert ("DECK_TOO_LARGE", "error", 45, 48) in found
    assert ("SIDE_TOO_SMALL", "error", 2, 0) in found
    (hawks,) = [p for p in problems if p.code == "FEW_HAWKS"]
    assert hawks.is_error and hawks.message == f"{hawks.actual} Hawks; the cup needs 40"
    assert not is_legal(problems)


def test_a_berserker_deck_with_more_copies_than_the_standard_is_a_mismatch_too() -> None:
    (p,) = problems_of(BERSERKER_STANDARD.replace("8 marines", "9 marines"))
    assert (p.code, p.card, p.limit, p.actual) == ("COMPOSITION_MISMATCH", "marines", 8, 9)


def test_exactly_ten_mercenaries_is_enough() -> None:
    assert problems_of(TCG_BASE.replace("12 BK1-001", "10 BK1-001\n2 BK1-023")) == []


def _made_up_format(tmp_path: Path, **rules: object) -> object:
    from cardkit.formats.model import read_format_file

    path = tmp_path / "cup.json"
    path.write_text(json.dumps({"name": "cup", "game": "berserk-tcg", "title": "Cup", **rules}), encoding="utf-8")
    return read_format_file(path)


def test_a_side_deck_exactly_at_its_minimum_is_big_enough(tmp_path: Path) -> None:
    fmt = _made_up_format(tmp_path, main={"min": 45, "max": None}, side={"min": 2, "max": 5})
    assert validate_deck(parse_deck(TCG_BASE + "Side\n2 BK1-023\n"), fmt) == []
    (p,) = validate_deck(parse_deck(TCG_BASE + "Side\n1 BK1-023\n"), fmt)
    assert (p.code, p.limit, p.actual) == ("SIDE_TOO_SMALL", 2, 1)


def test_a_card_matching_several_banned_rules_is_reported_once(tmp_path: Path) -> None:
    fmt = _made_up_format(tmp_path, main={"min": 45, "max": None}, banned=[
        {"when": {"field": "kind", "equals": "city"}, "reason": "cities are laid out, not shuffled in"},
        {"when": {"field": "name", "equals": "Royal City"}, "reason": "the Royal City is banned by name"},
    ])
    (p,) = validate_deck(parse_deck(TCG_BASE + "1 Royal City\n"), fmt)
    assert (p.code, p.card) == ("NOT_A_DECK_CARD", "CITY-R")
    assert "cities are laid out" in p.message


def test_a_format_without_copies_by_counts_each_card_id_on_its_own(tmp_path: Path) -> None:
    fmt = _made_up_format(tmp_path, main={"min": 45, "max": None}, copies={"limit": 12})
    assert fmt.copies_by == "card"
    assert validate_deck(parse_deck(TCG_BASE + "3 BK1-012\n3 BK1-011\n"), fmt) == []
