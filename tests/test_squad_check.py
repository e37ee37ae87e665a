"""Squad legality: the ledger and every problem of a squad file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardkit.errors import BadArgument, UnreadableInput
from cardkit.games.squad_games.squads.budget import squad_rules
from cardkit.games.squad_games.squads.check import check_squad
from cardkit.games.squad_games.squads.read import read_squad_file

DATA = Path(__file__).parent / "data" / "squads"


def write(tmp_path: Path, name: str = "squad.json", **doc: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"format": "berserk-online", **doc}, ensure_ascii=False), encoding="utf-8")
    return path


def check(path: Path, **kw: Any):
    sq = read_squad_file(path)
    return check_squad(sq, squad_rules(sq.format or ""), **kw)


def codes(report) -> list[str]:
    return [p.code for p in report.problems]


def test_a_squad_within_budget_is_legal_and_shows_its_ledger() -> None:
    report = check(DATA / "online-legal.json")
    assert report.legal
    led = report.ledger
    assert (led.budget.gold, led.budget.silver) == (24, 22)  # one element (forest) besides neutral cards
    assert (led.spent_gold, led.spent_silver, led.left_gold, led.left_silver) == (24, 22, 0, 0)
    assert led.elements == ("forest",)


def test_neutral_only_squad_has_24_gold_in_online(tmp_path: Path) -> None:
    report = check(write(tmp_path, squad=["n_bersard", "n_ekzarh", "n_varlok", "d_samael"]))
    assert report.ledger.elements == ()
    assert report.ledger.budget.gold == 24 and report.legal


def test_the_ledger_names_a_neutral_only_squad_as_such(tmp_path: Path) -> None:
    report = check(write(tmp_path, squad=["n_bersard"]))
    assert report.to_dict()["derivation"][1] == {"step": "no element (neutral only)", "gold": 1, "silver": 0}


def test_ordinary_cards_pay_silver_first_then_leftover_gold_one_to_one(tmp_path: Path) -> None:
    # 24 crystals of ordinary neutral cards with 22 silver: the last 2 come from gold.
    squad = ["n_ekzarh", "n_ekzarh", "n_ekzarh"]
    report = check(write(tmp_path, squad=squad))
    assert report.legal
    pays = [(p.gold, p.silver) for p in report.ledger.payments]
    assert pays == [(0, 8), (0, 8), (2, 6)]
    assert (report.ledger.left_gold, report.ledger.left_silver) == (22, 0)


def test_elite_cards_are_never_paid_with_silver(tmp_path: Path) -> None:
    # 25 gold of elite cards against 24 gold is over budget although 22 silver is untouched.
    squad = ["d_samael", "d_teodorih", "n_varlok", "n_eskaler"]
    report = check(write(tmp_path, squad=squad))
    assert codes(report) == ["OVER_BUDGET"]
    assert report.problems[0].limit == 24 and report.problems[0].actual == 25
    assert report.ledger.spent_silver == 0


def test_over_budget_in_total_is_reported_with_its_numbers(tmp_path: Path) -> None:
    report = check(write(tmp_path, squad=["n_ekzarh"] * 6 + ["b_aspid"]))  # 57 crystals, 1 element: 24 + 22
    assert codes(report) == ["OVER_BUDGET"]
    assert (report.problems[0].limit, report.problems[0].actual) == (46, 57)


@pytest.mark.parametrize("seat, silver", [("first", 22), ("second", 23)])
def test_the_second_online_seat_has_one_more_silver(tmp_path: Path, seat: str, silver: int) -> None:
    report = check(write(tmp_path, seat=seat, squad=["n_ekzarh"]))
    assert report.ledger.budget.silver == silver


def test_redeals_in_the_file_take_gold(tmp_path: Path) -> None:
    report = check(write(tmp_path, redeals=2, squad=["b_aspid"]))
    assert report.ledger.budget.gold == 24 - 2


def test_gold_and_silver_arguments_override_the_file(tmp_path: Path) -> None:
    report = check(write(tmp_path, gold=10, squad=["b_aspid"]), gold=30, silver=5)
    assert (report.ledger.budget.gold, report.ledger.budget.silver) == (31, 5)


def test_every_problem_of_a_bad_ccg_squad_is_reported_at_once() -> None:
    report = check(DATA / "ccg-all-problems.json")
    assert not report.legal
    assert sorted(set(codes(report))) == sorted({"UNKNOWN_CARD", "DEAL_SIZE", "CARD_NOT_DEALT", "OVER_BUDGET",
                                                 "UNIQUE_TWICE", "FLYERS_OVER_LIMIT", "TOO_MANY_TERRAINS"})
    flyers = next(p for p in report.problems if p.code == "FLYERS_OVER_LIMIT")
    assert (flyers.limit, flyers.actual) == (15, 5 + 4 + 3 + 3 + 5)


def test_ccg_flyers_up_to_15_crystals_are_fine(tmp_path: Path) -> None:
    report = check(write(tmp_path, format="berserk-ccg", squad=["10014", "10021", "10036", "10001"]))  # flyers 12
    assert report.legal


def test_ccg_allows_one_terrain_but_not_two(tmp_path: Path) -> None:
    assert check(write(tmp_path, format="berserk-ccg", squad=["20011", "10001"])).legal
    two = check(write(tmp_path, format="berserk-ccg", squad=["20011", "20075"]))
    assert codes(two) == ["TOO_MANY_TERRAINS"]


def test_online_has_no_terrain_limit_nor_flyer_cap(tmp_path: Path) -> None:
    report = check(write(tmp_path, squad=["b_zybuny_fathi", "d_tajan", "n_oko_buri", "n_mikael"]))
    assert "TOO_MANY_TERRAINS" not in codes(report) and "FLYERS_OVER_LIMIT" not in codes(report)


def test_a_unique_card_twice_is_illegal_but_an_ordinary_card_twice_is_not(tmp_path: Path) -> None:
    assert codes(check(write(tmp_path, squad=["n_tachanka", "n_tachanka"]))) == ["UNIQUE_TWICE"]
    assert check(write(tmp_path, squad=["n_bersard", "n_bersard"])).legal


def test_a_card_used_more_often_than_dealt_is_not_dealt(tmp_path: Path) -> None:
    dealt = ["n_bersard"] + ["n_ekzarh"] * 14
    report = check(write(tmp_path, dealt=dealt, squad=["n_bersard", "n_bersard"]))
    assert codes(report) == ["CARD_NOT_DEALT"]
    assert report.problems[0].pointer == "/squad/1"


def test_a_deal_of_the_wrong_size_is_reported(tmp_path: Path) -> None:
    report = check(write(tmp_path, dealt=["n_bersard"] * 16, squad=["n_bersard"]))
    assert codes(report) == ["DEAL_SIZE"]


def test_text_form_gives_line_numbers_and_the_same_ledger_as_json(tmp_path: Path) -> None:
    text = check(DATA / "ccg-squad.txt")
    assert text.legal and text.seat == "second" and text.redeals == 1
    same = write(tmp_path, format="berserk-ccg", seat="second", redeals=1,
                 squad=["10001", "10002", "10003", "10014", "10021", "20011", "20006"])
    assert check(same).to_dict()["cards"] == text.to_dict()["cards"]
    bad = tmp_path / "bad.txt"
    bad.write_text("format: berserk-ccg\nsquad:\n10001\nNo Such Card\n", encoding="utf-8")
    report = check(bad)
    assert [(p.code, p.line) for p in report.problems] == [("UNKNOWN_CARD", 4)]


def test_a_squad_line_whose_name_and_id_are_different_cards_is_ambiguous_not_the_id(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("format: berserk-ccg\nsquad:\nКочевник (10002)\n", encoding="utf-8")
    report = check(mixed)
    assert [(p.code, p.line) for p in report.problems] == [("AMBIGUOUS_CARD", 3)]
    assert not report.legal


def test_json_shape_has_the_documented_keys() -> None:
    d = check(DATA / "online-legal.json").to_dict()
    assert list(d)[:6] == ["path", "legal", "budget", "spent", "elements", "problems"]
    assert set(d["budget"]) == {"gold", "silver"} and set(d["spent"]) == {"gold", "silver"}


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"),
    ('{"format": "berserk-online", "seat": "third", "squad": []}', "not a squad file"),
    ('{"format": "berserk-online"}', "not a squad file"),
    ("format: berserk-online\nredeals: many\nsquad:\nb_aspid\n", "redeals"),
], ids=["broken-json", "bad-seat", "no-cards", "bad-redeals"])
def test_unreadable_squad_files_raise_unreadable_input(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "x.squad"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UnreadableInput, match=message):
        read_squad_file(path)


def test_a_squad_file_without_a_format_is_a_bad_argument(tmp_path: Path) -> None:
    path = tmp_path / "x.txt"
    path.write_text("squad:\nb_aspid\n", encoding="utf-8")
    with pytest.raises(BadArgument):
        read_squad_file(path)


def test_more_redeals_than_gold_leaves_no_possible_squad(tmp_path: Path) -> None:
    report = check(write(tmp_path, redeals=3, squad=[]), gold=0)
    assert codes(report) == ["OVER_BUDGET"] and report.problems[0].actual == -2
