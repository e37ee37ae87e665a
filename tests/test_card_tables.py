"""Engine commands build only the cards a state names, not every card of the game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.catalogue.store import CardTable
from cardkit.cli.main import app
from cardkit.games.berserk_tcg.game import setup
from cardkit.games.berserk_tcg.game import state as tcg_state
from cardkit.games.squad_games.battle.cards import battle_cards

ROOT = Path(__file__).resolve().parent.parent
FIRST, SECOND = str(ROOT / "squads" / "online-battle-first.json"), str(ROOT / "squads" / "online-battle-second.json")
TCG_DECKS = (str(ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"), str(ROOT / "decks" / "berserk-tcg" / "red-apostles.deck"))


def test_a_card_table_builds_a_card_once_and_only_when_looked_up() -> None:
    built: list[str] = []
    records = {"a": {"id": "a"}, "b": {"id": "b"}, "c": {"id": "c"}}

    def build(record: dict[str, str]) -> str:
        built.append(record["id"])
        return record["id"].upper()

    table = CardTable(records, build)
    assert len(table) == 3 and list(table) == ["a", "b", "c"] and "b" in table and "z" not in table
    assert built == []
    assert table["b"] == "B" and table["b"] == "B" and table.get("z") is None
    assert built == ["b"]


def test_battle_moves_and_apply_build_only_the_cards_on_the_board(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "battle.json"
    assert runner.invoke(app, ["battle", "new", FIRST, SECOND, "--out", str(state)]).exit_code == 0
    named = {card["card"] for card in json.loads(state.read_text(encoding="utf-8"))["cards"]}
    battle_cards.cache_clear()
    assert runner.invoke(app, ["battle", "moves", str(state)]).exit_code == 0
    assert runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4 dice 6 1", "end",
                               "--out", str(tmp_path / "after.json")]).exit_code == 0
    table = battle_cards("berserk-online")
    looked_up = set(table._built)
    assert looked_up and looked_up <= named
    assert len(table) > 10 * len(named)  # the game has many more cards than the battle


@pytest.mark.parametrize("command", ["moves", "apply"])
def test_tcg_moves_and_apply_build_only_the_cards_of_the_two_decks(command: str, runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "tcg.json"
    assert runner.invoke(app, ["tcg", "new", *TCG_DECKS, "--seed", "1", "--out", str(state)]).exit_code == 0
    deck_ids = set()
    for deck in TCG_DECKS:
        deck_ids |= set(setup.deck_cards(deck)[1])
    tcg_state.catalogue.cache_clear()
    args = ["tcg", "moves", str(state)] if command == "moves" else ["tcg", "apply", str(state), "open BK1-001 pay BK1-007", "end"]
    assert runner.invoke(app, args).exit_code == 0
    cards, _ = tcg_state.catalogue()
    assert isinstance(cards, CardTable)
    looked_up = set(cards._built)
    assert looked_up and looked_up <= deck_ids | _cities()
    assert len(cards) > 2 * len(looked_up)


def _cities() -> set[str]:
    from cardkit.catalogue.store import load_game

    return {cid for cid, record in load_game("berserk-tcg").cards.items() if record.get("kind") == "city"}
