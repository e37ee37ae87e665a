"""`cardkit cards search|show` through the CLI: exit codes, tables, JSON shape."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit.catalogue.store import load_game
from cardkit.cli.main import app


@pytest.fixture(scope="module")
def built(catalogue_db: Path) -> Path:
    return catalogue_db


@pytest.fixture(autouse=True)
def use_built_db(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDKIT_DB", str(built))


def run(runner: CliRunner, *args: str) -> Any:
    return runner.invoke(app, ["cards", *args])


def test_search_prints_an_aligned_table_and_a_count(runner: CliRunner) -> None:
    result = run(runner, "search", "Guts level<=1")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["GAME", "ID", "NAME", "LATIN", "KIND", "COST", "COLOUR/ELEMENT", "LEVEL"]
    id_column = lines[0].index("ID")
    assert all(line[id_column:].startswith("BK") for line in lines[1:-1])
    assert lines[-1] == f"{len(lines) - 2} card(s)"


def test_search_shows_the_transliteration_of_cyrillic_names(runner: CliRunner) -> None:
    result = run(runner, "search", "Kochevnik", "--game", "berserk-ccg")
    assert result.exit_code == 0
    assert "Кочевник" in result.output and "Kochevnik" in result.output and "steppe" in result.output


def test_search_json_lists_every_match_as_a_full_card(runner: CliRunner) -> None:
    result = run(runner, "search", "game:berserk-ccg type:flyer", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    cards = data["cards"]
    assert data["total"] == data["shown"] == len(cards) and data["query"] == "game:berserk-ccg type:flyer"
    flyers = [c for c in load_game("berserk-ccg").cards.values() if c["type"] == "flyer"]
    assert [c["id"] for c in cards] == [c["id"] for c in flyers]
    assert cards[0] == {"game": "berserk-ccg", **flyers[0]}


def test_search_limit_cuts_json_and_both_forms_say_how_many_matched(runner: CliRunner) -> None:
    limited = json.loads(run(runner, "search", "Guts", "--limit", "3", "--json").output)
    assert len(limited["cards"]) == limited["shown"] == 3 and limited["total"] == 15
    text = run(runner, "search", "Guts", "-n", "3")
    assert text.output.splitlines()[-1] == "3 of 15 card(s)"
    assert run(runner, "search", "Guts", "--limit", "0").exit_code == 2


@pytest.mark.parametrize("query", ["cost>=99999999999999999999999", "???", "level<=x", "'"])
def test_search_refuses_a_query_it_cannot_answer_with_one_line_and_exit_2(runner: CliRunner, query: str) -> None:
    result = run(runner, "search", query)
    assert result.exit_code == 2 and result.output.startswith("error: ") and result.output.count("\n") == 1, result.output


def test_search_with_no_match_exits_1(runner: CliRunner) -> None:
    result = run(runner, "search", "zzzzqqq")
    assert result.exit_code == 1 and "no cards match" in result.output
    as_json = run(runner, "search", "zzzzqqq", "--json")
    data = json.loads(as_json.output)
    assert as_json.exit_code == 1 and (data["total"], data["cards"]) == (0, [])


def test_search_unknown_field_exits_2_listing_the_fields(runner: CliRunner) -> None:
    result = run(runner, "search", "power>=3")
    assert result.exit_code == 2
    assert result.output.startswith("error: unknown field 'power'")
    assert "level" in result.output and "element" in result.output and "Traceback" not in result.output


def test_search_unknown_game_exits_2(runner: CliRunner) -> None:
    assert run(runner, "search", "Guts", "--game", "chess").exit_code == 2


def test_show_prints_every_field(runner: CliRunner) -> None:
    result = run(runner, "show", "BK1-9")
    assert result.exit_code == 0
    fields = dict(line.split(None, 1) for line in result.output.splitlines())
    card = load_game("berserk-tcg").cards["BK1-009"]
    assert set(fields) == {"game", *card}
    assert fields["name"] == card["name"] and fields["unique"] == ("yes" if card["unique"] else "no")


def test_show_json_is_the_card_with_its_game(runner: CliRunner) -> None:
    result = run(runner, "show", "Кочевник", "--json")
    assert result.exit_code == 0
    assert json.loads(result.output) == {"game": "berserk-ccg", **load_game("berserk-ccg").cards["10001"]}


def test_show_ambiguous_name_lists_candidates_and_exits_1(runner: CliRunner) -> None:
    result = run(runner, "show", "Guts")
    assert result.exit_code == 1
    assert "matches 15 cards" in result.output and "Guts (BK1-011)" in result.output


def test_show_name_with_id_resolves_the_ambiguity(runner: CliRunner) -> None:
    result = run(runner, "show", "Guts (BK2-3)", "--json")
    assert result.exit_code == 0 and json.loads(result.output)["id"] == "BK2-003"


def test_show_refuses_a_name_with_another_cards_id_and_exits_1(runner: CliRunner) -> None:
    result = run(runner, "show", "Guts (BK1-3)")
    assert result.exit_code == 1 and "Moonlight Raiders (BK1-003)" in result.output and "Guts (BK1-011)" in result.output


def test_show_unknown_card_suggests_and_exits_1(runner: CliRunner) -> None:
    result = run(runner, "show", "Griffit")
    assert result.exit_code == 1 and "did you mean: Griffith (" in result.output


def test_search_and_show_help_explain_the_syntax(runner: CliRunner) -> None:
    search_help = run(runner, "search", "--help").output
    assert all(word in search_help for word in ("element", "--limit", "--json", "yes/no"))
    assert "--game" in run(runner, "show", "--help").output


def test_query_words_need_no_quotes_several_arguments_are_one_query(runner: CliRunner) -> None:
    joined = run(runner, "search", "--json", "colour:black level=2")
    apart = run(runner, "search", "--json", "colour:black", "level=2")
    assert apart.exit_code == 0, apart.output
    assert json.loads(apart.output) == json.loads(joined.output)


def test_a_quoted_phrase_argument_keeps_its_words_in_order(runner: CliRunner) -> None:
    assert run(runner, "search", '"Moonlight Raiders"', "c:white").exit_code == 0
    assert run(runner, "search", '"Raiders Moonlight"').exit_code == 1
