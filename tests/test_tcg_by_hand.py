"""The Berserk TCG played by hand: the text output shows a player their own hand and names the cards of every listed action."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.games.berserk_tcg.game.engine import ENGINE as TCG

ROOT = Path(__file__).resolve().parent.parent


def test_the_text_table_shows_the_hand_of_the_player_to_act_by_id_and_name_and_moves_name_their_cards(
        tmp_path: Path) -> None:
    runner = CliRunner()
    decks = [str(ROOT / "decks" / "berserk-tcg" / name) for name in ("white-hawks.deck", "red-apostles.deck")]
    out = tmp_path / "game.json"
    started = runner.invoke(app, ["tcg", "new", *decks, "--seed", "1", "--out", str(out)])
    assert started.exit_code == 0, started.output
    game = TCG.read(out)
    own, other = game.players[game.to_act], game.players[1 - game.to_act]
    hand_lines = [line for line in started.output.splitlines() if line.startswith("  hand: ")]
    assert len(hand_lines) == 1
    for card in own.hand:
        assert f"{card} {game.stats[card]['name']}" in hand_lines[0]
    assert not any(f"{card} " in hand_lines[0] for card in set(other.hand) - set(own.hand))
    listed = runner.invoke(app, ["tcg", "moves", str(out)]).output.splitlines()
    opens = [line for line in listed if line.startswith("  open ")]
    assert opens
    for line in opens:
        action, _, names = line.strip().partition("  (")
        assert names.endswith(")") and all(f"{word} {game.stats[word]['name']}" in names
                                           for word in action.split() if word in game.stats)
    as_json = json.loads(runner.invoke(app, ["tcg", "moves", str(out), "--json"]).output)
    assert [a for a in as_json["actions"] if a.startswith("open ")] == [line.strip().partition("  (")[0] for line in opens]
