"""Placement of a squad on its half of the 6x5 field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardkit.errors import UnreadableInput
from cardkit.games.squad_games.squads.placement import (
    allowed_squares,
    check_placement,
    read_placement,
    render_half,
    square_name,
)

DATA = Path(__file__).parent / "data" / "squads"
# Ordinary ground cards of Berserk Online, none unique, none flying.
GROUND = ["n_begushij_po_lezviyu", "n_bersard", "n_bich_nezhiti", "n_duhoborec", "n_ekzarh", "n_master_zasad",
          "n_eskaler", "n_grom-otstupnik", "n_kartograf", "n_varlok", "n_vechnyy_rycar", "n_apostol_boli"]
CENTRE = ["b1", "c1", "d1", "b2", "c2", "d2", "b3", "c3", "d3"]


def place(doc: dict[str, Any]):
    return check_placement({"format": "berserk-online", **doc})


def codes(report) -> list[str]:
    return [p.code for p in report.problems]


def on(squares: list[str], seat: str = "first", **extra: Any):
    cards = [{"card": GROUND[i], "square": sq} for i, sq in enumerate(squares)]
    return place({"seat": seat, "cards": cards, **extra})


def test_the_example_placement_is_legal() -> None:
    report = check_placement(read_placement(DATA / "placement-first.json"))
    assert report.legal, report.problems
    assert report.to_dict()["squares"]["d2"] == "n_oko_buri" and report.to_dict()["reserve"] == []


def test_the_first_player_may_fill_the_centre_three_by_three() -> None:
    assert on(CENTRE).legal


@pytest.mark.parametrize("square", ["a1", "e1", "a2", "e3"])
def test_the_first_player_may_not_use_side_squares_with_nine_cards_or_fewer(square: str) -> None:
    report = on(["c1", square])
    assert codes(report) == ["SQUARE_NOT_ALLOWED"]
    assert report.problems[0].actual == square


def test_the_second_player_may_use_all_five_squares_of_its_first_row() -> None:
    assert on(["a1", "b1", "c1", "d1", "e1"], seat="second").legal
    assert codes(on(["a2", "c1"], seat="second")) == ["SQUARE_NOT_ALLOWED"]


def test_more_than_nine_cards_open_the_side_squares_of_rows_two_and_three() -> None:
    assert on(CENTRE + ["a2", "e3"]).legal


def test_the_first_player_takes_front_side_squares_last() -> None:
    early = on(CENTRE + ["a1"])
    assert codes(early) == ["SQUARE_NOT_ALLOWED"] and "last" in early.problems[0].message
    assert on(CENTRE[:5] + ["a2", "a3", "e2", "e3", "a1"]).legal


def test_two_cards_on_one_square_are_a_square_taken_problem() -> None:
    report = on(["c2", "c2"])
    assert codes(report) == ["SQUARE_TAKEN"]


# "Karten mit dieser Eigenschaft befinden sich bis zum Aufdecken mit den übrigen Karten auf dem Spielfeld.
# Nachdem sie aufgedeckt werden, verlassen sie das Kampffeld und verlagern sich in die Reservezone."
def test_an_online_flyer_stands_on_a_square_with_the_other_cards_until_revealed() -> None:
    assert place({"cards": [{"card": "n_oko_buri", "square": "c2"}]}).legal


def test_an_online_flyer_put_in_the_reserve_at_the_set_up_is_not_a_reserve_card() -> None:
    report = place({"cards": [], "reserve": ["n_oko_buri"]})
    assert codes(report) == ["NOT_A_RESERVE_CARD"]
    assert "until revealed" in report.problems[0].message


def test_an_online_flyer_on_a_square_is_the_tenth_card_that_opens_the_side_squares() -> None:
    report = check_placement(read_placement(DATA / "online-flyer-tenth-card.json"))
    assert report.legal, report.problems
    assert report.to_dict()["squares"]["a2"] == "n_oko_buri"


def test_nine_online_cards_with_a_flyer_among_them_keep_the_side_squares_closed() -> None:
    doc = json.loads((DATA / "online-flyer-tenth-card.json").read_text(encoding="utf-8"))
    doc["cards"] = [c for c in doc["cards"] if c["square"] != "d3"]
    report = check_placement(doc)
    assert codes(report) == ["SQUARE_NOT_ALLOWED"] and report.problems[0].card == "n_oko_buri"


# Part 2 of the tabletop rules: "Вспомогательная зона – это зона, в которой располагаются летающие существа и местности."
def test_a_tabletop_flyer_goes_to_the_auxiliary_zone_not_on_a_square() -> None:
    on_square = check_placement({"format": "berserk-ccg", "cards": [{"card": "10014", "square": "c2"}]})
    assert codes(on_square) == ["FLYER_ON_FIELD"]
    assert check_placement({"format": "berserk-ccg", "cards": [], "reserve": ["10014"]}).legal


def test_online_terrains_go_to_the_reserve() -> None:
    assert codes(place({"cards": [{"card": "b_zybuny_fathi", "square": "c2"}]})) == ["TERRAIN_ON_FIELD"]
    assert codes(place({"cards": [], "reserve": ["n_bersard"]})) == ["NOT_A_RESERVE_CARD"]


def test_placed_cards_must_be_in_the_squad_and_squad_cards_placed() -> None:
    report = on(["c1", "c2"], squad=[GROUND[0], GROUND[2]])
    assert sorted(codes(report)) == ["NOT_IN_SQUAD", "NOT_PLACED"]
    assert next(p for p in report.problems if p.code == "NOT_IN_SQUAD").card == GROUND[1]


def test_symbiotes_lie_on_their_host_card() -> None:
    base = {"format": "berserk-ccg", "cards": [{"card": "10001", "square": "c2"}]}
    assert check_placement({**base, "cards": base["cards"] + [{"card": "20006", "host": "c2"}]}).legal
    no_host = check_placement({**base, "cards": base["cards"] + [{"card": "20006", "host": "b3"}]})
    assert codes(no_host) == ["HOST_MISSING"]
    own_square = check_placement({**base, "cards": base["cards"] + [{"card": "20006", "square": "b2"}]})
    assert codes(own_square) == ["SYMBIOTE_NEEDS_HOST"]
    not_symbiote = check_placement({**base, "cards": base["cards"] + [{"card": "10002", "host": "c2"}]})
    assert codes(not_symbiote) == ["NOT_A_SYMBIOTE"]


def test_row_and_column_notation_names_the_same_square() -> None:
    assert square_name({"row": 2, "column": 1}) == "a2" == square_name("A2")
    assert on(["c2"]).to_dict()["squares"] == place({"cards": [{"card": GROUND[0], "square": {"row": 2, "column": 3}}]}).to_dict()["squares"]


def test_allowed_squares_follow_the_seat_and_the_card_count() -> None:
    assert len(allowed_squares("first", 9)) == 9
    assert len(allowed_squares("second", 9)) == 11
    assert len(allowed_squares("first", 10)) == 13
    assert len(allowed_squares("first", 14, {"a2", "a3", "e2", "e3"})) == 15


def test_unknown_cards_are_reported() -> None:
    assert codes(place({"cards": [{"card": "nobody", "square": "c2"}]})) == ["UNKNOWN_CARD"]


@pytest.mark.parametrize("doc", [
    {"format": "berserk-online", "cards": [{"card": "b_aspid", "square": "f2"}]},
    {"format": "berserk-online", "cards": [{"card": "b_aspid", "square": "c4"}]},
    {"format": "berserk-online", "cards": [{"card": "b_aspid"}]},
    {"format": "berserk-online", "cards": [{"card": "b_aspid", "square": "c2", "host": "c1"}]},
], ids=["column-f", "row-4", "nowhere", "square-and-host"])
def test_malformed_placements_are_unreadable(tmp_path: Path, doc: dict[str, Any]) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(UnreadableInput, match="not a placement file"):
        read_placement(path)


def test_the_grid_marks_open_and_closed_squares_without_trailing_spaces() -> None:
    text = render_half(on(["c1", "b2"]))
    rows = [line for line in text.splitlines() if line.startswith("row ")]
    assert rows[0] == "row 1   x    .  [ 1]   .    x" and rows[1] == "row 2   x  [ 2]   .    .    x"
    assert all(line == line.rstrip() for line in text.splitlines())


def test_where_flyers_stand_at_the_set_up_is_the_formats_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit import paths

    formats = tmp_path / "formats"
    formats.mkdir()
    for source in paths.FORMATS_DIR.glob("*.json"):
        (formats / source.name).write_bytes(source.read_bytes())
    house = json.loads((formats / "berserk-online.json").read_text(encoding="utf-8"))
    house.update(name="online-house", default=False)
    house["squad"]["reserve_zone"] = ["flyer", "terrain"]
    (formats / "online-house.json").write_text(json.dumps(house, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setattr(paths, "FORMATS_DIR", formats)
    flyer_on_square = {"cards": [{"card": "n_oko_buri", "square": "c2"}]}
    assert check_placement({"format": "berserk-online", **flyer_on_square}).legal
    assert codes(check_placement({"format": "online-house", **flyer_on_square})) == ["FLYER_ON_FIELD"]


@pytest.mark.parametrize("twin", ["10021", "50027"])
def test_a_ccg_squad_holding_a_unique_card_twice_is_not_placed_legally(twin: str) -> None:
    doc = json.loads((Path(__file__).resolve().parent.parent / "squads" / "ccg-placement.json").read_text(encoding="utf-8"))
    assert check_placement(doc).legal
    doc["squad"].append(twin)
    doc["reserve"].append(twin)
    report = check_placement(doc)
    assert codes(report) == ["UNIQUE_TWICE"] and not report.legal
    assert report.problems[0].actual == 2


def test_a_unique_card_placed_twice_without_a_squad_list_is_unique_twice() -> None:
    report = check_placement({"format": "berserk-ccg", "cards": [], "reserve": ["10021", "50027"]})
    assert codes(report) == ["UNIQUE_TWICE"]


def test_placement_applies_the_squads_flyer_limit() -> None:
    from cardkit.games.squad_games.squads.budget import squad_rules
    from cardkit.games.squad_games.squads.cards import squad_cards

    rules, table = squad_rules("berserk-ccg"), squad_cards("berserk-ccg")
    assert rules.flyer_crystal_cap is not None
    flyers = sorted((c for c in table.values() if c.flyer and not c.unique), key=lambda c: -c.cost)
    picked, cost = [], 0
    for c in flyers:
        picked.append(c.id)
        cost += c.cost
        if cost > rules.flyer_crystal_cap:
            break
    report = check_placement({"format": "berserk-ccg", "cards": [], "reserve": picked})
    assert codes(report) == ["FLYERS_OVER_LIMIT"]
