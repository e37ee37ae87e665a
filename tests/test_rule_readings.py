"""Readings of open rule text are data: each file fits its schema, every reading the code asks for exists,
and changing a reading's value changes the engine."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import typer
from jsonschema import Draft202012Validator
from typer.main import get_command

from cardkit.errors import IllegalAction
from cardkit.games.berserker.game import apply as fleet_actions
from cardkit.games.berserker.game.apply import apply
from cardkit.games.berserker.game.notation import Fire, Move
from cardkit.games.berserker.game.state import BoardState, ShipOnBoard
from cardkit.games.readings import load_readings

ROOT = Path(__file__).resolve().parent.parent
RULE_FILES = sorted((ROOT / "data" / "rules").glob("*.json"))


@pytest.mark.parametrize("path", RULE_FILES, ids=[p.name for p in RULE_FILES])
def test_every_rule_readings_file_fits_the_schema_and_is_named_for_its_game(path: Path) -> None:
    schema = json.loads((ROOT / "schemas" / "rules.schema.json").read_text(encoding="utf-8"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert not list(Draft202012Validator(schema).iter_errors(data))
    assert data["game"] == path.stem
    ids = [r["id"] for r in data["readings"]]
    assert len(ids) == len(set(ids))


def test_every_reading_the_code_asks_for_is_in_the_games_data() -> None:
    asked = set()
    for source in (ROOT / "cardkit").rglob("*.py"):
        text = source.read_text(encoding="utf-8")
        # a module that imports GAME takes it from a sibling module of its package
        game = re.search(r'^GAME = "([a-z-]+)"', text, re.M) or next(
            (m for m in (re.search(r'^GAME = "([a-z-]+)"', s.read_text(encoding="utf-8"), re.M)
                         for s in sorted(source.parent.glob("*.py"))) if m), None)
        for m in re.finditer(r'reading\((GAME|"[a-z-]+"), "([a-z_]+)"\)', text):
            asked.add((game.group(1) if m[1] == "GAME" and game else m[1].strip('"'), m[2]))
    assert len(asked) >= 7
    for game, rid in asked:
        assert rid in load_readings(game), f"{game} reading {rid} is asked for but not in data/rules/{game}.json"


def test_every_reading_is_listed_in_its_games_docs() -> None:
    docs = {"berserker": "fleet.md", "berserk-tcg": "tcg-battles.md"}
    for game, doc in docs.items():
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        for rid in load_readings(game):
            assert f"`{rid}`" in text, f"{rid} is not in docs/{doc}"


def _flip(monkeypatch: pytest.MonkeyPatch, rid: str, value: object) -> None:
    real = fleet_actions.reading
    monkeypatch.setattr(fleet_actions, "reading", lambda game, r: value if r == rid else real(game, r))


def _board(*ships: tuple[str, str, str, int]) -> BoardState:
    return BoardState(ships=tuple(ShipOnBoard(*s) for s in ships), turn="human", phase="maneuver", sandbox=True)


def test_reading_move_distance_as_a_maximum_lets_fast_move_two(monkeypatch: pytest.MonkeyPatch) -> None:
    start = _board(("human", "cruiser", "d1", 2), ("berserker", "berserker", "d8", 20))
    with pytest.raises(IllegalAction):
        apply(start, Move("d1", "d3", "fast"))
    _flip(monkeypatch, "move_distance", "maximum")
    assert apply(start, Move("d1", "d3", "fast"))[0].ship_at("d3") is not None


def test_reading_attack_distance_as_exact_refuses_a_shorter_shot(monkeypatch: pytest.MonkeyPatch) -> None:
    start = _board(("human", "cruiser", "d1", 2), ("berserker", "berserker", "d3", 20))
    assert apply(start, Fire("d1", "d3", "long"))[0].ship_at("d3").hits == 19  # type: ignore[union-attr]
    _flip(monkeypatch, "attack_distance", "exact")
    with pytest.raises(IllegalAction, match="range 4"):
        apply(start, Fire("d1", "d3", "long"))


def test_reading_a_negated_marines_attack_as_sparing_the_ramship(monkeypatch: pytest.MonkeyPatch) -> None:
    start = _board(("human", "ramship", "d6", 1), ("berserker", "berserker", "d7", 20))
    _flip(monkeypatch, "marines_user_destroyed_when_negated", False)
    assert apply(start, Fire("d6", "d7", "marines", ("superstructure",)))[0].ship_at("d6") is not None
    assert apply(start, Fire("d6", "d7", "marines"))[0].ship_at("d6") is None


def test_combat_odds_and_combat_tcg_share_one_combat_group() -> None:
    from cardkit.cli import combat

    app = typer.Typer()
    combat.register(app)
    combat.register(typer.Typer())  # a second app (the slim one-command app) must not add `tcg` twice
    group = get_command(app).commands["combat"]  # type: ignore[attr-defined]
    assert sorted(group.commands) == ["odds", "tcg"]
    assert len(app.registered_groups) == 1
