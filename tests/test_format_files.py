"""Format files: schema-valid data, one default per game, predicates that mean what they say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cardkit.errors import UnknownFormat
from cardkit.formats import default_format, describe, list_formats, load_format, matches
from cardkit.formats.model import FormatError, read_format_file
from cardkit.games.registry import GAMES

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((ROOT / "schemas" / "format.schema.json").read_text(encoding="utf-8"))


def test_every_format_file_passes_the_format_schema() -> None:
    validator = Draft202012Validator(SCHEMA)
    files = sorted((ROOT / "data" / "formats").glob("*.json"))
    assert len(files) >= 4
    for path in files:
        errors = list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8"))))
        assert errors == [], f"{path.name}: {errors[0].message if errors else ''}"


@pytest.mark.parametrize("game", GAMES)
def test_each_game_has_exactly_one_default_format(game: str) -> None:
    assert [f.name for f in list_formats(game) if f.is_default] == [default_format(game).name]
    assert default_format(game).game == game


@pytest.mark.parametrize("name", ["berserk-tcg", "berserk-ccg", "berserk-online", "berserker"])
def test_the_four_named_formats_exist(name: str) -> None:
    assert load_format(name).name == name


def test_unknown_format_names_the_known_ones() -> None:
    with pytest.raises(UnknownFormat) as exc:
        load_format("berserk-legacy")
    assert "berserk-tcg" in exc.value.message and exc.value.error_code == "UNKNOWN_FORMAT"


def test_format_schema_accepts_squad_and_fleet_objects() -> None:
    validator = Draft202012Validator(SCHEMA)
    doc = {"name": "x", "game": "berserker", "title": "X", "fleet": {}}
    assert list(validator.iter_errors(doc)) == []


@pytest.mark.parametrize(
    "change",
    [
        {"game": "chess"},
        {"main": {"min": -1}},
        {"copies": {"limit": 3, "exempt": [{"field": "mercenary"}]}},
        {"composition": {}},
        {"surprise": 1},
    ],
    ids=["unknown-game", "negative-bound", "predicate-without-test", "empty-composition", "unknown-key"],
)
def test_format_schema_rejects_broken_rules(change: dict) -> None:
    doc = {"name": "x", "game": "berserk-tcg", "title": "X", **change}
    assert list(Draft202012Validator(SCHEMA).iter_errors(doc)) != []


def test_reading_a_format_file_that_breaks_the_schema_is_a_format_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text(json.dumps({"name": "broken", "game": "berserk-tcg"}), encoding="utf-8")
    with pytest.raises(FormatError) as exc:
        read_format_file(path)
    assert "broken.json" in exc.value.message


def test_format_file_name_must_match_its_name(tmp_path: Path) -> None:
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"name": "berserk-x", "game": "berserk-tcg", "title": "X"}), encoding="utf-8")
    with pytest.raises(FormatError):
        read_format_file(path)


CARD = {"id": "BK1-001", "mercenary": True, "kind": "character", "subtypes": ["Mercenary"], "colour": "white"}


@pytest.mark.parametrize(
    ("predicate", "expected"),
    [
        ({"field": "mercenary", "equals": True}, True),
        ({"field": "mercenary", "equals": False}, False),
        ({"field": "kind", "in": ["city", "character"]}, True),
        ({"field": "subtypes", "contains": "Hawk"}, False),
        ({"field": "subtypes", "contains": "Mercenary"}, True),
        ({"field": "unlimited", "equals": False}, False),
        ({"not": {"field": "kind", "equals": "city"}}, True),
        ({"all": [{"field": "colour", "equals": "white"}, {"field": "mercenary", "equals": True}]}, True),
        ({"any": [{"field": "colour", "equals": "red"}, {"field": "kind", "equals": "city"}]}, False),
    ],
    ids=["equals", "equals-false", "in", "contains-miss", "contains-hit", "missing-field", "not", "all", "any"],
)
def test_predicates_match_cards_by_their_fields(predicate: dict, expected: bool) -> None:
    assert matches(CARD, predicate) is expected


def test_predicates_read_as_words() -> None:
    assert describe({"field": "mercenary", "equals": True}) == "mercenary"
    assert describe({"not": {"field": "kind", "equals": "city"}}) == "not (kind = city)"


@pytest.mark.parametrize("message", ["{actual} of {needed}", "{actual} of {0}", "{actual"], ids=["unknown-name", "positional", "unbalanced"])
def test_a_minimum_whose_message_has_a_bad_placeholder_is_a_format_error(tmp_path: Path, message: str) -> None:
    data = {"name": "odd", "game": "berserk-tcg", "title": "Odd",
            "minimums": [{"code": "FEW_X", "when": {"field": "mercenary", "equals": True}, "at_least": 1, "message": message}]}
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(FormatError, match="/minimums/0/message"):
        read_format_file(path)
