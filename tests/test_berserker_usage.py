"""Which ship may use which card: every card of the card list against every ship of the unit tables.

The expectations are worked out here from the rule statements, by hand, not
by the code under test: a Move card's number <= Speed, an Attack card's
range <= Range, plus each card's note (Ramships only, C-Plus Guns only,
Humans only, Berserker only).
"""

from __future__ import annotations

import json

import pytest

from cardkit.games.berserker.model import UnknownName, load_rules
from cardkit.games.berserker.usage import (
    attacks_per_turn,
    can_use,
    can_use_named,
    fires_through_ships,
    hits,
    usage_table,
)

# The unit tables as printed: (hits, speed, range); side.
UNITS = {
    "berserker": (20, 2, 5, "berserker"),
    "c-plus-gun-ship": (1, 2, 6, "human"),
    "cruiser": (2, 3, 4, "human"),
    "ramship": (1, 4, 2, "human"),
}
SHIPS = list(UNITS)

# Card -> which of (Berserker, C-Plus Gun Ship, Cruiser, Ramship) may play it, worked out by hand:
#   attacks: range vs Range 5 / 6 / 4 / 2; moves: number vs Speed 2 / 2 / 3 / 4.
EXPECTED: dict[str, tuple[bool, bool, bool, bool]] = {
    "marines":        (False, False, False, True),   # range 1, Ramships only
    "point-blank":    (True, True, True, True),      # range 1
    "short":          (True, True, True, True),      # range 2 = Ramship's Range
    "medium":         (True, True, True, False),     # range 3 > Ramship 2
    "long":           (True, True, True, False),     # range 4 = Cruiser's Range
    "very-long":      (True, True, False, False),    # range 5 > Cruiser 4
    "extreme":        (False, True, False, False),   # range 6, C-Plus Guns only
    "tactical-speed": (True, True, True, True),      # move 1
    "cruising-speed": (True, True, True, True),      # move 2 = Speed of Berserker and C-Plus
    "fast":           (False, False, True, True),    # move 3 > Speed 2
    "very-fast":      (False, False, False, True),   # move 4, Ramships only
    "evasion":        (False, True, True, True),     # Humans only
    "superstructure": (True, False, False, False),   # Berserker only
    "robot-security": (True, False, False, False),   # Berserker only, vs Marines
}
CASES = [(card, ship, EXPECTED[card][i]) for card in EXPECTED for i, ship in enumerate(SHIPS)]


@pytest.mark.parametrize("card,ship,allowed", CASES, ids=[f"{c}-by-{s}" for c, s, _ in CASES])
def test_each_card_against_each_ship_type_follows_the_rules_text(card: str, ship: str, allowed: bool) -> None:
    rules = load_rules()
    usage = can_use(rules.cards[card], rules.ships[ship])
    assert usage.allowed is allowed, usage.reason
    assert usage.reason.startswith(f"{rules.ships[ship].name} {'can' if allowed else 'cannot'} use")


def test_the_catalogue_covers_exactly_the_fourteen_cards_and_four_ships_of_the_text() -> None:
    rules = load_rules()
    assert set(rules.cards) == set(EXPECTED)
    assert {s: (x.hits, x.speed, x.range, x.side) for s, x in rules.ships.items()} == UNITS


def test_marines_says_the_ramship_is_destroyed_and_does_two_damage() -> None:
    reason = can_use_named("Marines", "Ramship").reason
    assert "Ramship is destroyed" in reason
    assert "2 points of damage" in reason


def test_robot_security_is_only_against_marines_and_negates_one_point() -> None:
    reason = can_use_named("robot security", "BERSERKER").reason
    assert "only against Marines" in reason
    assert "negates 1 point" in reason


def test_a_card_broken_two_ways_gives_both_reasons() -> None:
    usage = can_use_named("very-fast", "cruiser")
    assert len(usage.refusals) == 2
    assert "only a Ramship" in usage.reason and "Speed of 3" in usage.reason


def test_evasion_refused_to_the_berserker_names_the_side() -> None:
    assert "only human ships" in can_use_named("Evasion", "Berserker").reason


def test_a_fleet_card_is_resolved_as_the_catalogue_resolves_any_card() -> None:
    from cardkit.catalogue.lookup import card_index

    rules = load_rules()
    for text in ("point blank", "POINT-BLANK", "Pointblank"):
        assert rules.card(text).id == card_index("berserker").find(text).resolved == "point-blank"
    with pytest.raises(UnknownName) as caught:
        rules.card("Point Blnak")
    assert caught.value.suggestions == card_index("berserker").find("Point Blnak").suggestions != ()


def test_names_and_ids_are_found_in_any_case_and_spacing() -> None:
    assert can_use_named("POINT  blank", "c plus gun ship").card.id == "point-blank"
    assert can_use_named("tactical-speed", "C-Plus Gun Ship").ship.id == "c-plus-gun-ship"


def test_every_id_names_its_own_card_or_ship_whether_looked_up_as_it_is_or_folded() -> None:
    from cardkit.games.berserker.model import _find

    rules = load_rules()
    for cid in rules.cards:
        assert rules.card(cid).id == cid
        assert rules.card(cid.upper().replace("-", " ")).id == cid
    for sid in rules.ships:
        assert rules.ship(sid).id == sid == _find("ship", sid, rules._ship_keys, rules.ships.values())
        assert rules.ship(sid.upper().replace("-", " ")).id == sid


def test_an_unknown_card_suggests_close_names() -> None:
    with pytest.raises(UnknownName) as info:
        can_use_named("Marine", "ramship")
    assert info.value.error_code == "NOT_FOUND"
    assert "Marines (marines)" in info.value.message


@pytest.mark.parametrize("ship,attacks,through,hit_points", [
    ("berserker", 3, False, 20), ("c-plus-gun-ship", 1, True, 1), ("cruiser", 2, False, 2), ("ramship", 1, False, 1),
])
def test_attacks_per_turn_firing_through_ships_and_hits_come_from_the_text(
        ship: str, attacks: int, through: bool, hit_points: int) -> None:
    s = load_rules().ships[ship]
    assert (attacks_per_turn(s), fires_through_ships(s), hits(s)) == (attacks, through, hit_points)


def test_the_usage_table_is_the_same_grid_as_the_text() -> None:
    table = usage_table().to_dict()
    assert table["ships"] == SHIPS
    grid = {row["card"]: tuple(row["allowed"][s] for s in SHIPS) for row in table["cards"]}
    assert grid == EXPECTED


def test_can_use_cli_exits_0_when_allowed_and_prints_json(runner) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "can-use", "Extreme", "c-plus-gun-ship", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["legal"] is True and set(data) == {"card", "ship", "legal", "reason"}


def test_can_use_cli_exits_1_when_refused(runner) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "can-use", "extreme", "cruiser"])
    assert result.exit_code == 1
    assert result.stdout.startswith("no: Cruiser cannot use Extreme")


@pytest.mark.parametrize("args,named", [(["Marine", "ramship"], "card"), (["marines", "Rammship"], "ship")])
def test_can_use_cli_exits_1_not_found_for_an_unknown_name_with_a_suggestion(runner, args: list[str], named: str) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "can-use", *args])
    assert result.exit_code == 1
    assert f"error: no {named} called" in result.stderr and "did you mean" in result.stderr
    assert "Traceback" not in result.output


def test_table_cli_prints_one_row_per_card(runner) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "table"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split()[:3] == ["card", "type", "no."]
    assert len(lines) == 1 + len(EXPECTED) + 1
    very_fast = next(line for line in lines if line.startswith("Very Fast"))
    assert very_fast.split()[-4:] == ["-", "-", "-", "yes"]


def test_ships_cli_json_lists_the_unit_tables(runner) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "ships", "--json"])
    assert result.exit_code == 0
    assert {s["id"]: s["attacks_per_turn"] for s in json.loads(result.stdout)} == {
        "berserker": 3, "c-plus-gun-ship": 1, "cruiser": 2, "ramship": 1}


@pytest.mark.parametrize("command", ["check", "can-use", "table", "ships"])
def test_every_fleet_command_explains_itself_in_help(runner, command: str) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", command, "--help"])
    assert result.exit_code == 0
    assert "--json" in result.stdout and len(result.stdout.strip().splitlines()) > 5


@pytest.mark.parametrize("args", [["", "ramship"], ["marines", ""], ["x" * 100_000, "ramship"], ["ÄÖÜ", "Крейсер"]],
                         ids=["empty-card", "empty-ship", "huge-card", "unicode"])
def test_can_use_cli_refuses_odd_names_in_one_short_line(runner, args: list[str]) -> None:
    from cardkit.cli.main import app

    result = runner.invoke(app, ["fleet", "can-use", *args])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: no ") and len(result.stderr) < 300
    assert result.stderr.count("\n") == 1


def test_evasion_negates_the_whole_attack() -> None:
    assert can_use_named("Evasion", "Cruiser").reason == "Cruiser can use Evasion; negates the attack"


def test_negated_damage_is_one_point_or_several_points() -> None:
    from dataclasses import replace

    rules = load_rules()
    security, berserker = rules.cards["robot-security"], rules.ships["berserker"]
    assert "negates 1 point of the attack's damage" in can_use(security, berserker, rules).reason
    stronger = replace(security, damage=2)
    assert "negates 2 points of the attack's damage" in can_use(stronger, berserker, rules).reason


def test_the_table_stars_exactly_the_uses_that_come_with_a_condition() -> None:
    import re

    rows = [re.split(r" {2,}", line) for line in usage_table().render_text().splitlines()[1:-1]]
    starred = {(cells[0], SHIPS[i]) for cells in rows for i, cell in enumerate(cells[3:]) if cell == "yes*"}
    assert starred == {("Marines", "ramship"), ("Robot Security", "berserker")}
