"""Fleet set-up: the unit tables' counts, the back two rows, no stacking, and bad files."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples

from cardkit.cli.main import app
from cardkit.errors import UnreadableInput
from cardkit.games.berserker.game.setup import check_fleet, check_fleet_file

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "fleet"
FLEETS = ROOT / "decks" / "berserker" / "fleets"


def human_fleet(**overrides: dict[str, str]) -> dict[str, Any]:
    """The text's human fleet (4 C-Plus Gun Ships, 4 Cruisers, 8 Ramships) filling ranks 1-2.

    `overrides` maps a ship index (as "i3") to a replacement entry.
    """
    ships = [{"type": "c-plus-gun-ship", "square": f"{f}1"} for f in "abcd"]
    ships += [{"type": "cruiser", "square": f"{f}1"} for f in "efgh"]
    ships += [{"type": "ramship", "square": f"{f}2"} for f in "abcdefgh"]
    for key, entry in overrides.items():
        ships[int(key[1:])] = entry
    return {"side": "human", "ships": ships}


def codes(report) -> list[str]:
    return [p.code for p in report.problems]


def test_the_full_human_fleet_on_ranks_one_and_two_is_legal() -> None:
    """Each player places one Ship on each square of his back two rows."""
    report = check_fleet(human_fleet())
    assert report.legal and report.problems == ()


def test_a_berserker_anywhere_on_ranks_seven_and_eight_is_legal() -> None:
    """THE BERSERKER # Type Hits Speed Range 1 Berserker 20 2 5."""
    for square in ("a7", "h8", "d8"):
        assert check_fleet({"side": "berserker", "ships": [{"type": "Berserker", "square": square}]}).legal


def test_a_missing_ramship_is_wrong_fleet_with_have_and_should() -> None:
    """# = Number of that type of Ship you start the game with."""
    data = human_fleet()
    del data["ships"][-1]
    report = check_fleet(data)
    assert codes(report) == ["WRONG_FLEET"]
    p = report.problems[0]
    assert (p.card, p.limit, p.actual) == ("ramship", 8, 7)


def test_a_berserker_in_the_human_fleet_is_wrong_fleet_for_the_berserker() -> None:
    data = human_fleet(i15={"type": "berserker", "square": "h2"})
    report = check_fleet(data)
    assert sorted((p.card, p.limit, p.actual) for p in report.problems) == [("berserker", 0, 1), ("ramship", 8, 7)]


def test_an_empty_berserker_fleet_is_wrong_fleet() -> None:
    report = check_fleet({"side": "berserker", "ships": []})
    assert codes(report) == ["WRONG_FLEET"] and report.problems[0].limit == 1


def test_a_ship_on_rank_three_is_square_not_allowed() -> None:
    """Each player places one Ship on each square of his back two rows."""
    report = check_fleet(human_fleet(i8={"type": "ramship", "square": "a3"}))
    assert codes(report) == ["SQUARE_NOT_ALLOWED"]
    assert report.problems[0].pointer == "/ships/8" and report.problems[0].actual == "a3"


def test_the_berserker_on_the_human_back_rows_is_square_not_allowed() -> None:
    report = check_fleet({"side": "berserker", "ships": [{"type": "berserker", "square": "e2"}]})
    assert codes(report) == ["SQUARE_NOT_ALLOWED"]


def test_two_ships_on_one_square_is_square_taken_naming_the_first() -> None:
    """Ships may not stack."""
    report = check_fleet(human_fleet(i9={"type": "ramship", "square": "a2"}))
    assert codes(report) == ["SQUARE_TAKEN"]
    assert "ship 9 is already there" in report.problems[0].message


@pytest.mark.parametrize("square", ["i1", "a9", "a0", "z12", "b" + "9" * 40])
def test_a_square_off_the_board_is_off_board(square: str) -> None:
    report = check_fleet(human_fleet(i0={"type": "c-plus-gun-ship", "square": square}))
    assert codes(report) == ["OFF_BOARD"]
    assert report.problems[0].actual.startswith(square[:9])  # as written, never a made-up rank


def test_an_unknown_ship_type_is_reported_with_a_suggestion_and_still_counted_missing() -> None:
    report = check_fleet(human_fleet(i4={"type": "Crusier", "square": "e1"}))
    assert sorted(codes(report)) == ["UNKNOWN_SHIP", "WRONG_FLEET"]
    unknown = next(p for p in report.problems if p.code == "UNKNOWN_SHIP")
    assert "Cruiser (cruiser)" in unknown.message and unknown.pointer == "/ships/4"


def test_malformed_entries_are_parse_errors_by_index_and_the_rest_is_checked() -> None:
    report = check_fleet_file(DATA / "ok" / "entries-malformed.fleet.json")
    assert [(p.code, p.pointer) for p in report.problems if p.code == "PARSE_ERROR"] == [
        ("PARSE_ERROR", "/ships/1"), ("PARSE_ERROR", "/ships/2"), ("PARSE_ERROR", "/ships/3"), ("PARSE_ERROR", "/ships/4")]
    # The entry with a bad square still counts as a Berserker: two of them.
    assert [(p.code, p.actual) for p in report.problems if p.code == "WRONG_FLEET"] == [("WRONG_FLEET", 2)]


def test_every_problem_is_reported_not_only_the_first() -> None:
    data = human_fleet(i0={"type": "cruiser", "square": "a5"}, i1={"type": "ramship", "square": "a5"},
                       i2={"type": "zeppelin", "square": "q1"})
    assert sorted(codes(check_fleet(data))) == [
        "OFF_BOARD", "SQUARE_NOT_ALLOWED", "SQUARE_NOT_ALLOWED", "SQUARE_TAKEN",
        "UNKNOWN_SHIP", "WRONG_FLEET", "WRONG_FLEET", "WRONG_FLEET"]


def test_ship_names_and_squares_are_read_in_any_case_through_a_bom_and_crlf() -> None:
    assert check_fleet_file(DATA / "ok" / "human-bom-crlf.fleet.json").legal


@pytest.mark.parametrize("path", sorted(FLEETS.glob("*.json")), ids=lambda p: p.name)
def test_bundled_fleets_are_as_their_note_says(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    report = check_fleet_file(path)
    assert report.legal is doc["note"].startswith("Legal")
    assert set(codes(report)) == set(re.findall(r"\b[A-Z]+(?:_[A-Z]+)+\b", doc["note"]))


def test_bundled_fleets_follow_the_schema() -> None:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(json.loads((ROOT / "schemas" / "fleet.schema.json").read_text()))
    for path in FLEETS.glob("*.json"):
        assert not list(validator.iter_errors(json.loads(path.read_text()))), path.name


def test_check_cli_exits_0_for_a_legal_fleet(runner) -> None:
    result = runner.invoke(app, ["fleet", "check", str(FLEETS / "human-ram-screen.fleet.json")])
    assert result.exit_code == 0
    assert result.stdout.strip().endswith("human fleet of 16 ships: legal")


def test_check_cli_exits_1_and_lists_problems_as_json(runner) -> None:
    result = runner.invoke(app, ["fleet", "check", str(FLEETS / "berserker-illegal-stacked.fleet.json"), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["legal"] is False and set(data) == {"path", "side", "ships", "legal", "problems"}
    assert set(data["problems"][0]) == {"code", "severity", "message", "card", "line", "limit", "actual", "file", "pointer"}


@pytest.mark.parametrize("path", sorted((DATA / "broken").iterdir()) + [DATA / "missing.json", DATA],
                         ids=lambda p: p.name)
def test_check_cli_exits_2_with_one_line_for_an_unreadable_file(runner, path: Path) -> None:
    result = runner.invoke(app, ["fleet", "check", str(path)])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6) | st.sampled_from(["a1", "h8", "ramship", "human"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["side", "ships", "type", "square", "note"]), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=examples(300), deadline=None)
@given(json_values)
def test_any_json_value_is_a_report_or_an_unreadable_input_never_a_crash(data: Any) -> None:
    try:
        report = check_fleet(data)
    except UnreadableInput:
        return
    assert all(p.code in {"PARSE_ERROR", "UNKNOWN_SHIP", "OFF_BOARD", "SQUARE_NOT_ALLOWED", "SQUARE_TAKEN",
                          "WRONG_FLEET"} for p in report.problems)


@settings(max_examples=examples(100), deadline=None)
@given(st.dictionaries(st.sampled_from(["human", "berserker"]), st.just(None), min_size=1),
       st.lists(st.tuples(st.sampled_from(["berserker", "ramship", "cruiser", "c-plus-gun-ship"]),
                          st.sampled_from("abcdefgh"), st.integers(1, 8)), max_size=20))
def test_random_fleets_are_legal_exactly_when_counts_rows_and_squares_are_right(sides, ships) -> None:
    side = next(iter(sides))
    data = {"side": side, "ships": [{"type": t, "square": f"{f}{r}"} for t, f, r in ships]}
    should = {"human": {"c-plus-gun-ship": 4, "cruiser": 4, "ramship": 8}, "berserker": {"berserker": 1}}[side]
    rows = {"human": (1, 2), "berserker": (7, 8)}[side]
    squares = [f"{f}{r}" for _, f, r in ships]
    counts = {t: sum(1 for s, _, _ in ships if s == t) for t in ("berserker", "ramship", "cruiser", "c-plus-gun-ship")}
    expected = (all(counts[t] == should.get(t, 0) for t in counts) and all(r in rows for _, _, r in ships)
                and len(set(squares)) == len(squares))
    assert check_fleet(data).legal is expected


def test_a_ship_without_a_square_is_shown_in_json_spelling_not_python() -> None:
    report = check_fleet(human_fleet(i0={"type": "Berserker", "square": None}))
    (message,) = [p.message for p in report.problems if p.code == "PARSE_ERROR"]
    assert 'got {"type": "Berserker", "square": null}' in message


def test_a_fleet_reports_json_names_its_file_as_path_and_carries_every_problem() -> None:
    from cardkit.games.berserker.game.setup import fleet_report_to_json

    report = check_fleet_file(FLEETS / "human-illegal-forward.fleet.json")
    document = fleet_report_to_json(report)
    assert document["path"] == report.file and "file" not in document
    assert (document["side"], document["ships"], document["legal"]) == (report.side, report.ships, report.legal)
    assert [p["code"] for p in document["problems"]] == codes(report) and not report.legal


def test_the_ship_tables_json_has_one_row_per_ship_type_with_its_unit_table_values() -> None:
    from cardkit.games.berserker.model import load_rules, ships_to_json

    rules = load_rules()
    rows = ships_to_json(rules)
    assert [r["id"] for r in rows] == list(rules.ships)
    for row in rows:
        ship = rules.ships[row["id"]]
        assert row == {field: getattr(ship, field) for field in row}
        assert (row["count"], row["fires_through_ships"]) == (ship.count, ship.fires_through_ships)
