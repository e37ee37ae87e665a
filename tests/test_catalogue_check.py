"""`check_catalogue` and `cardkit catalogue check` on a small valid copy broken one way at a time."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardkit import paths
from cardkit.catalogue.check import CheckReport, check_catalogue
from cardkit.cli.main import app

MINI = Path(__file__).resolve().parent / "data" / "catalogue" / "mini"

# game -> (catalogue file, required card field, a field and a value of the wrong type)
BREAKABLE: dict[str, tuple[str, str, str, Any]] = {
    "berserk-tcg": ("BK1.json", "level", "cost", "three"),
    "berserk-ccg": ("set-10.json", "elements", "elite", "yes"),
    "berserk-online": ("series-1.json", "cost", "elements", "forest"),
    "berserker": ("cards.json", "count", "type", 7),
}


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    """A writable copy of the small valid catalogue, with its expected totals."""
    shutil.copytree(MINI, tmp_path / "mini")
    return tmp_path / "mini"


def edit(root: Path, game: str, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = root / "cards" / game / name
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=2), encoding="utf-8")


def check(root: Path) -> CheckReport:
    return check_catalogue(root / "cards", expectations=root / "catalogue.json")


def test_the_small_copy_is_valid_so_each_break_below_is_the_only_problem(mini: Path) -> None:
    report = check(mini)
    assert report.ok and report.problems == []
    assert report.games["berserker"].extra["ships"] == 1


@pytest.mark.parametrize("game", BREAKABLE, ids=list(BREAKABLE))
def test_missing_field_names_file_card_and_field(mini: Path, game: str) -> None:
    name, field, _, _ = BREAKABLE[game]
    card_id: list[str] = []

    def drop(doc: dict[str, Any]) -> None:
        card_id.append(doc["cards"][1]["id"])
        del doc["cards"][1][field]

    edit(mini, game, name, drop)
    report = check(mini)
    assert not report.ok
    [p] = [p for p in report.problems if p.code == "SCHEMA_VIOLATION"]
    assert (p.code, p.file, p.card, p.pointer) == ("SCHEMA_VIOLATION", f"{game}/{name}", card_id[0], f"/cards/1/{field}")
    assert field in p.message


@pytest.mark.parametrize("game", BREAKABLE, ids=list(BREAKABLE))
def test_wrong_type_names_file_card_and_field(mini: Path, game: str) -> None:
    name, _, field, bad = BREAKABLE[game]
    edit(mini, game, name, lambda doc: doc["cards"][0].__setitem__(field, bad))
    problems = check(mini).problems
    assert problems, "a wrong type must be reported"
    card = json.loads((mini / "cards" / game / name).read_text(encoding="utf-8"))["cards"][0]["id"]
    for p in problems:
        assert (p.code, p.file, p.card) == ("SCHEMA_VIOLATION", f"{game}/{name}", card)
        assert p.pointer == f"/cards/0/{field}"


@pytest.mark.parametrize("game", BREAKABLE, ids=list(BREAKABLE))
def test_duplicate_id_names_both_places(mini: Path, game: str) -> None:
    name = BREAKABLE[game][0]
    edit(mini, game, name, lambda doc: doc["cards"].append(dict(doc["cards"][0])))
    problems = check(mini).problems
    dup = [p for p in problems if p.code == "DUPLICATE_ID"]
    assert len(dup) == 1
    n = len(json.loads((mini / "cards" / game / name).read_text(encoding="utf-8"))["cards"]) - 1
    assert dup[0].file == f"{game}/{name}" and dup[0].pointer == f"/cards/{n}/id"
    assert f"{game}/{name}" in dup[0].message
    # The copy also breaks the card total, and that is reported too, not hidden behind the first error.
    assert any(p.code == "WRONG_COUNT" and p.actual == p.limit + 1 for p in problems)


@pytest.mark.parametrize("game", BREAKABLE, ids=list(BREAKABLE))
def test_wrong_count_reports_expected_and_actual(mini: Path, game: str) -> None:
    name = BREAKABLE[game][0]
    edit(mini, game, name, lambda doc: doc["cards"].pop())
    wrong = [p for p in check(mini).problems if p.code == "WRONG_COUNT"]
    totals = [p for p in wrong if p.pointer is None]
    assert len(totals) == 1 and totals[0].file == f"{game}/"
    assert totals[0].actual == totals[0].limit - 1


def test_a_ship_with_a_wrong_type_is_named_by_its_id(mini: Path) -> None:
    edit(mini, "berserker", "ships.json", lambda doc: doc["ships"][0].__setitem__("hits", "many"))
    [p] = check(mini).problems
    assert (p.file, p.card, p.pointer) == ("berserker/ships.json", "berserker", "/ships/0/hits")


def test_mercenary_and_colour_totals_are_cross_checked(mini: Path) -> None:
    def recolour(doc: dict[str, Any]) -> None:
        doc["cards"][0]["mercenary"] = False
        doc["cards"][0]["colour"] = "black"

    edit(mini, "berserk-tcg", "BK1.json", recolour)
    messages = [p.message for p in check(mini).problems]
    assert any("mercenary true; expected 2" in m for m in messages)
    assert any("colour white; expected 2" in m for m in messages)


def test_every_problem_is_reported_not_just_the_first(mini: Path) -> None:
    edit(mini, "berserk-ccg", "set-10.json", lambda doc: doc["cards"][0].__setitem__("cost", "x"))
    edit(mini, "berserk-online", "series-1.json", lambda doc: doc["cards"][1].__setitem__("type", "dragon"))
    files = {p.file for p in check(mini).problems}
    assert files == {"berserk-ccg/set-10.json", "berserk-online/series-1.json"}


def test_a_file_that_is_not_json_is_reported_with_its_line(mini: Path) -> None:
    (mini / "cards" / "berserk-ccg" / "set-10.json").write_text('{\n  "game": \n', encoding="utf-8")
    problems = check(mini).problems
    bad = [p for p in problems if p.code == "INVALID_JSON"]
    assert len(bad) == 1 and bad[0].file == "berserk-ccg/set-10.json" and bad[0].line == 3


def test_check_json_on_the_real_catalogue_reports_every_game_total(runner: Any) -> None:
    result = runner.invoke(app, ["catalogue", "check", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert set(report) == {"legal", "games", "formats", "problems"}
    assert report["legal"] is True and report["problems"] == [] and report["formats"] == 5
    cards = {game: r["cards"] for game, r in report["games"].items()}
    assert cards == {"berserk-tcg": 453, "berserk-ccg": 1310, "berserk-online": 1015, "berserker": 14}
    assert report["games"]["berserker"]["ships"] == 4


def test_check_cli_exits_1_and_prints_problem_shape_on_a_broken_catalogue(
    runner: Any, mini: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit(mini, "berserk-tcg", "BK1.json", lambda doc: doc["cards"][0].pop("kind"))
    monkeypatch.setattr(paths, "CARDS_DIR", mini / "cards")
    monkeypatch.setattr(paths, "DATA_DIR", mini)
    result = runner.invoke(app, ["catalogue", "check", "--json"])
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert report["legal"] is False
    [p] = report["problems"]
    assert set(p) == {"code", "severity", "message", "card", "line", "limit", "actual", "file", "pointer"}
    assert (p["file"], p["card"], p["pointer"]) == ("berserk-tcg/BK1.json", "BK1-001", "/cards/0/kind")
    text = runner.invoke(app, ["catalogue", "check"])
    assert text.exit_code == 1 and "card BK1-001 /cards/0/kind" in text.output


@pytest.mark.parametrize("content", ["{bad", "[]", '{"berserker": 56}'], ids=["not-json", "a-list", "game-not-an-object"])
def test_a_broken_expectations_file_is_a_catalogue_error_not_a_traceback(mini: Path, content: str) -> None:
    from cardkit.errors import CatalogueError

    (mini / "catalogue.json").write_text(content, encoding="utf-8")
    with pytest.raises(CatalogueError, match="catalogue.json"):
        check(mini)
