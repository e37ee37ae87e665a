"""`cardkit squad check|best|place` and `cardkit simulate` for squad decks, through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app

DATA = Path(__file__).parent / "data" / "squads"
ROOT = Path(__file__).parent.parent


def test_check_of_a_legal_squad_exits_0_and_prints_the_ledger(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "check", str(DATA / "online-legal.json")])
    assert result.exit_code == 0, result.output
    assert "legal" in result.output and "= budget" in result.output and "left" in result.output
    assert "1 element(s)" in result.output


def test_check_of_an_illegal_squad_exits_1_and_lists_every_problem(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "check", str(DATA / "ccg-all-problems.json")])
    assert result.exit_code == 1
    for code in ("OVER_BUDGET", "CARD_NOT_DEALT", "DEAL_SIZE", "UNIQUE_TWICE", "FLYERS_OVER_LIMIT",
                 "TOO_MANY_TERRAINS", "UNKNOWN_CARD"):
        assert code in result.output


def test_check_json_has_the_documented_shape(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "check", str(DATA / "ccg-all-problems.json"), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert list(data)[:6] == ["path", "legal", "budget", "spent", "elements", "problems"]
    assert data["legal"] is False and data["budget"] == {"gold": 22, "silver": 22}
    assert data["elements"] == ["forest", "mountains", "steppe"]
    assert {p["code"] for p in data["problems"]} >= {"OVER_BUDGET", "TOO_MANY_TERRAINS"}


@pytest.mark.parametrize("content", ["{oops", "\x00\x01binary", '{"format": "berserk-online", "squad": "b_aspid"}'])
def test_check_of_an_unreadable_file_exits_2_with_one_line(runner: CliRunner, tmp_path: Path, content: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["squad", "check", str(path)])
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and result.output.startswith("error:")


def test_check_of_a_missing_file_or_unknown_format_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    assert runner.invoke(app, ["squad", "check", str(tmp_path / "none.json")]).exit_code == 2
    result = runner.invoke(app, ["squad", "check", str(DATA / "online-legal.json"), "--format", "nope"])
    assert result.exit_code == 2 and "unknown format" in result.output


def test_gold_override_changes_the_verdict(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "check", str(DATA / "online-legal.json"), "--gold", "20", "--json"])
    assert result.exit_code == 1
    assert json.loads(result.output)["budget"]["gold"] == 21


def test_best_prints_the_chosen_squad_and_what_was_left_out(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "best", str(ROOT / "squads" / "online-deal.json")])
    assert result.exit_code == 0, result.output
    assert "46 crystals" in result.output and "not chosen:" in result.output


def test_best_honours_seat_and_redeals_options(runner: CliRunner) -> None:
    args = ["squad", "best", str(ROOT / "squads" / "online-deal.json"), "--json"]
    plain = json.loads(runner.invoke(app, args).output)
    moved = json.loads(runner.invoke(app, args + ["--seat", "second", "--redeals", "2"]).output)
    assert moved["budget"]["silver"] == plain["budget"]["silver"] + 1
    assert moved["seat"] == "second" and moved["redeals"] == 2
    assert moved["derivation"][-1] == {"step": "2 re-deal(s)", "gold": -2, "silver": 0}


def test_best_rejects_a_bad_seat_with_exit_2(runner: CliRunner) -> None:
    result = runner.invoke(app, ["squad", "best", str(ROOT / "squads" / "online-deal.json"), "--seat", "third"])
    assert result.exit_code == 2


def test_best_reads_a_text_list_as_the_deal(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "deal.txt"
    path.write_text("format: berserk-ccg\n10001\n3 x 10002\n10014\n", encoding="utf-8")
    result = runner.invoke(app, ["squad", "best", str(path), "--json"])
    assert result.exit_code == 1  # five cards is not a deal of 15; the best squad is still shown
    data = json.loads(result.output)
    assert [p["code"] for p in data["problems"]] == ["DEAL_SIZE"]
    assert sorted(data["squad"]) == ["10001", "10002", "10002", "10002", "10014"]


def test_place_reports_exit_codes_and_json(runner: CliRunner, tmp_path: Path) -> None:
    ok = runner.invoke(app, ["squad", "place", str(DATA / "placement-first.json")])
    assert ok.exit_code == 0 and "row 1" in ok.output
    doc = json.loads((DATA / "placement-first.json").read_text(encoding="utf-8"))
    doc["cards"].append({"card": "n_mikael", "square": "a1"})
    doc["reserve"] = ["n_bersard"]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    bad = runner.invoke(app, ["squad", "place", str(path), "--json"])
    assert bad.exit_code == 1
    assert {p["code"] for p in json.loads(bad.output)["problems"]} == {"SQUARE_NOT_ALLOWED", "NOT_A_RESERVE_CARD", "NOT_IN_SQUAD"}


@pytest.mark.parametrize("deck", ["berserk-online/steppe-mountains.deck", "berserk-ccg/steppe-orcs.deck"])
def test_simulate_a_squad_deck_is_deterministic(runner: CliRunner, deck: str) -> None:
    args = ["simulate", str(ROOT / "decks" / deck), "--games", "200", "--seed", "4", "--json"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert first.output == second.output
    data = json.loads(first.output)
    assert data["games"] == 200 and sum(data["crystals_left"].values()) == 200


def test_simulate_accepts_gold_and_silver_for_squad_games(runner: CliRunner, tmp_path: Path) -> None:
    deck = str(ROOT / "decks" / "berserk-online" / "steppe-mountains.deck")
    result = runner.invoke(app, ["simulate", deck, "--games", "100", "--gold", "10", "--silver", "5",
                                 "--plot", str(tmp_path / "s.png")])
    assert result.exit_code == 0, result.output
    assert "mean squad size" in result.output and (tmp_path / "s.png").exists()


def test_every_squad_command_has_help(runner: CliRunner) -> None:
    for cmd in ("check", "best", "place"):
        result = runner.invoke(app, ["squad", cmd, "--help"])
        assert result.exit_code == 0 and "--json" in result.output
