"""A cardkit file given to a command that reads another kind is named as what it is, with the command that reads it."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.filekinds import DECK, kind_of

ROOT = Path(__file__).resolve().parent.parent
TCG_DECKS = (ROOT / "decks" / "berserk-tcg" / "red-apostles.deck", ROOT / "decks" / "berserk-tcg" / "white-hawks.deck")
BATTLE = Path(__file__).parent / "data" / "battle"


@pytest.fixture
def files(runner: CliRunner, tmp_path: Path) -> dict[str, Path]:
    made = {"tcg state": tmp_path / "game.json", "battle state": tmp_path / "battle.json"}
    assert runner.invoke(app, ["tcg", "new", *map(str, TCG_DECKS), "--out", str(made["tcg state"])]).exit_code == 0
    assert runner.invoke(app, ["battle", "new", str(BATTLE / "online-first.json"), str(BATTLE / "online-second.json"),
                               "--out", str(made["battle state"])]).exit_code == 0
    counted_first = tmp_path / "counted.deck"
    counted_first.write_text("3 Guts (BK1-012)\n3 Casca (BK1-013)\n# player: nobody\nname: Hawks\n", encoding="utf-8")
    return {**made, "text deck": TCG_DECKS[0], "json deck": ROOT / "decks" / "berserk-tcg" / "black-forest.deck.json",
            "deck starting with a count": counted_first, "online deck": ROOT / "decks" / "berserk-online" / "forest-elves.deck",
            "squad file": ROOT / "squads" / "ccg-squad.txt", "json squad": ROOT / "squads" / "online-squad.json"}


CASES = [
    (["tcg", "moves"], "text deck", "a deck, not a Berserk TCG game state", "cardkit validate"),
    (["tcg", "moves"], "deck starting with a count", "a deck, not a Berserk TCG game state", "cardkit validate"),
    (["tcg", "apply"], "json deck", "a deck, not a Berserk TCG game state", "cardkit validate"),
    (["battle", "moves"], "online deck", "a deck, not a battle state", "cardkit validate"),
    (["battle", "moves"], "tcg state", "a Berserk TCG game state, not a battle state", "cardkit tcg moves"),
    (["tcg", "moves"], "squad file", "a squad file, not a Berserk TCG game state", "cardkit squad check"),
    (["fleet", "new"], "tcg state", "a Berserk TCG game state, not a fleet file", "cardkit tcg moves"),
    (["fleet", "check"], "battle state", "a battle state, not a fleet file", "cardkit battle moves"),
    (["fleet", "moves"], "text deck", "a deck, not a fleet board state", "cardkit validate"),
    (["squad", "check"], "online deck", "a deck, not a squad file", "cardkit validate"),
    (["squad", "check"], "tcg state", "a Berserk TCG game state, not a squad file", "cardkit tcg moves"),
    (["battle", "new"], "json squad", "a squad file, not a placement file", "cardkit squad check"),
]


def _args(command: list[str], path: Path, out: Path) -> list[str]:
    if command == ["fleet", "new"]:
        return [*command, str(path), str(path), "--out", str(out)]
    if command == ["battle", "new"]:
        return [*command, str(path), str(path), "--out", str(out)]
    if command[-1] == "apply":
        return [*command, str(path), "end"]
    return [*command, str(path)]


@pytest.mark.parametrize(("command", "given", "named", "reader"), CASES,
                         ids=[f"{' '.join(c)} on a {g}" for c, g, _, _ in CASES])
def test_a_file_of_another_kind_is_named_with_the_command_that_reads_it(
        runner: CliRunner, files: dict[str, Path], tmp_path: Path, command: list[str], given: str, named: str,
        reader: str) -> None:
    result = runner.invoke(app, _args(command, files[given], tmp_path / "out.json"))
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output
    assert named in lines[0] and f"`{reader} " in lines[0] and str(files[given]) in lines[0]
    assert not (tmp_path / "out.json").exists()


def test_a_state_of_the_commands_own_kind_keeps_its_own_complaint(runner: CliRunner, files: dict[str, Path]) -> None:
    state = files["battle state"]
    state.write_text(state.read_text(encoding="utf-8").replace('"turn": 1', '"turn": 0'), encoding="utf-8")
    result = runner.invoke(app, ["battle", "moves", str(state)])
    assert result.exit_code == 2 and "battle state" in result.output and "reads it" not in result.output


def test_a_squad_text_without_headings_is_no_deck() -> None:
    assert kind_of("format: berserk-online\nКшар\n2 x Аспид\n") is None
    assert kind_of("player: Lena\n3 Кшар\n") is DECK
