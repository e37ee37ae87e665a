"""Squad, deal and placement files of any shape: a report, or one `error:` line and exit 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import BadArgument, CardkitError, UnreadableInput
from cardkit.games.squad_games.squads.budget import squad_rules
from cardkit.games.squad_games.squads.check import best_for_file, check_squad
from cardkit.games.squad_games.squads.placement import check_placement, read_placement
from cardkit.games.squad_games.squads.read import read_squad_file

SQUAD_KEYS = ["format", "seat", "redeals", "gold", "silver", "dealt", "squad"]
PLACEMENT_KEYS = ["format", "seat", "squad", "cards", "reserve", "card", "square", "host", "row", "column"]


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    """Any JSON value, leaning on the file's own keys and plausible leaves so that deep shapes get tried."""
    leaves = (st.none() | st.booleans() | st.integers(-3, 2000) | st.floats(allow_nan=False) | st.text(max_size=5)
              | st.sampled_from(["berserk-online", "berserk-ccg", "berserk-tcg", "berserker", "first", "second",
                                 "f_korred", "n_tachanka", "10001", "20006", "c2", "a1", "f9"]))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.sampled_from(keys), inner, max_size=5), max_leaves=20)


@settings(max_examples=examples(200), deadline=None)
@given(json_values(SQUAD_KEYS))
def test_any_json_squad_file_is_checked_or_refused_with_a_cardkit_error(tmp_path_factory, data: Any) -> None:
    path = tmp_path_factory.mktemp("sq") / "squad.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        squad = read_squad_file(path)
        rules = squad_rules(squad.format or "")
        report = check_squad(squad, rules)
        best = best_for_file(squad, rules)
    except CardkitError:
        return
    assert isinstance(report.to_dict()["legal"], bool) and isinstance(best.to_dict()["legal"], bool)


@settings(max_examples=examples(200), deadline=None)
@given(json_values(PLACEMENT_KEYS))
def test_any_json_placement_file_is_checked_or_refused_with_a_cardkit_error(tmp_path_factory, data: Any) -> None:
    path = tmp_path_factory.mktemp("pl") / "placement.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    try:
        report = check_placement(read_placement(path), str(path))
    except CardkitError:
        return
    assert isinstance(report.to_dict()["legal"], bool)


@pytest.mark.parametrize("content", ["[]", "null", "42", '"squad"', "[\"f_korred\"]"],
                         ids=["list", "null", "number", "string", "list-of-ids"])
def test_a_json_squad_file_that_is_not_an_object_is_not_read_as_a_card_list(tmp_path: Path, content: str) -> None:
    path = tmp_path / "squad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UnreadableInput, match="not a squad file|not valid JSON"):
        read_squad_file(path, "berserk-online")


@pytest.mark.parametrize("fmt", ["berserk-tcg", "berserker"])
def test_placement_in_a_format_without_squads_is_a_bad_argument(fmt: str) -> None:
    with pytest.raises(BadArgument, match="no squad rules"):
        check_placement({"format": fmt, "cards": [{"card": "marines", "square": "b2"}]})


@pytest.mark.parametrize("command", ["check", "best", "place"])
@pytest.mark.parametrize("doc", [
    [],
    None,
    {"format": "berserk-tcg", "squad": ["BK1-012"], "cards": []},
    {"format": "berserker", "squad": ["marines"], "cards": [{"card": "marines", "square": "b2"}]},
    {"format": "berserk-online", "squad": None, "cards": None},
    {"format": "berserk-online", "squad": ["f_korred"], "redeals": "2", "cards": [{"card": "f_korred", "square": 5}]},
    {"format": "berserk-online", "squad": ["f_korred"], "gold": 1e400, "cards": [], "seat": None},
], ids=["list", "null", "tcg-format", "fleet-format", "nulls", "strings-for-numbers", "huge-number"])
def test_bad_files_exit_2_with_one_error_line(runner: CliRunner, tmp_path: Path, command: str, doc: Any) -> None:
    path = tmp_path / "bad.json"
    text = json.dumps(doc)
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["squad", command, str(path)])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and len(result.stderr.strip().splitlines()) == 1
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert path.read_text(encoding="utf-8") == text


def test_a_text_squad_of_more_cards_than_any_deal_is_refused_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "many.txt"
    path.write_text("format: berserk-online\n" + "\n".join(f"card{i}" for i in range(5000)) + "\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="line 202: more than 200 cards"):
        read_squad_file(path)


def test_a_very_long_unknown_card_is_shown_shortened(tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    path.write_text("format: berserk-online\n" + "я" * 100_000 + "\n", encoding="utf-8")
    problem = read_squad_file(path).problems[0]
    assert problem.code == "UNKNOWN_CARD" and len(problem.message) < 200 and problem.line == 2


def test_an_unknown_spelling_repeated_is_reported_at_each_line_with_the_same_suggestions(tmp_path: Path) -> None:
    path = tmp_path / "again.txt"
    path.write_text("format: berserk-online\nKorrid\nKorrid\n", encoding="utf-8")
    first, second = read_squad_file(path).problems
    assert (first.line, second.line) == (2, 3) and first.message == second.message and "Корред" in first.message


text_lines = st.lists(st.one_of(
    st.sampled_from(["format: berserk-ccg", "format: berserk-online", "format: berserker", "seat: second",
                     "seat: 3rd", "redeals: 2", "redeals: -1", "gold: 99999", "silver: x", "dealt:", "squad:",
                     "2 x 10001", "0 x 10001", "51 10002", "10014", "Кочевник", "# note", "", "  ", ":", "x:"]),
    st.text(alphabet="ax2 :#х×\t", max_size=8)), max_size=25)


@settings(max_examples=examples(200), deadline=None)
@given(text_lines)
def test_any_text_squad_file_is_checked_or_refused_with_a_cardkit_error(tmp_path_factory, lines: list[str]) -> None:
    path = tmp_path_factory.mktemp("tx") / "squad.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        squad = read_squad_file(path)
        rules = squad_rules(squad.format or "")
        report = check_squad(squad, rules)
        best_for_file(squad, rules)
    except CardkitError:
        return
    assert report.legal == (not [p for p in report.problems if p.severity == "error"])


@pytest.mark.parametrize("value", ["+1", "-1"])
def test_redeals_written_with_a_sign_is_refused_like_a_signed_deck_count(tmp_path: Path, value: str) -> None:
    path = tmp_path / "signed.txt"
    path.write_text(f"format: berserk-ccg\nredeals: {value}\ndealt: 10001\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="redeals must be a whole number"):
        read_squad_file(path)


@pytest.mark.parametrize(("doc", "shown"), [
    ({"format": "berserk-ccg", "redeals": True, "squad": ["10001"]}, "/redeals: true is not of type 'integer'"),
    ({"format": "berserk-ccg", "seat": None, "squad": ["10001"]}, "/seat: null is not one of 'first', 'second'"),
], ids=["true", "null"])
def test_a_squad_json_value_of_the_wrong_kind_is_named_in_json_spelling(tmp_path: Path, doc: dict[str, Any],
                                                                         shown: str) -> None:
    path = tmp_path / "squad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(UnreadableInput) as caught:
        read_squad_file(path)
    assert shown in caught.value.message and "True" not in caught.value.message and "None" not in caught.value.message
