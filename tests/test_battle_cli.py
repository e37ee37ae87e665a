"""`cardkit battle new|moves|apply` and `cardkit combat odds`: output, exit codes, and nothing written on error."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app

DATA = Path(__file__).parent / "data" / "battle"
FIRST, SECOND = str(DATA / "online-first.json"), str(DATA / "online-second.json")


@pytest.fixture
def state(runner: CliRunner, tmp_path: Path) -> Path:
    out = tmp_path / "state.json"
    result = runner.invoke(app, ["battle", "new", FIRST, SECOND, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_battle_new_writes_a_state_with_ammah_on_c3_facing_ahti_on_c4(state: Path) -> None:
    data = json.loads(state.read_text(encoding="utf-8"))
    where = {c["card"]: c["square"] for c in data["cards"]}
    assert (where["b_ammah"], where["b_ahti"], data["to_move"], data["turn"]) == ("c3", "c4", "first", 1)


def test_battle_new_with_an_illegal_placement_lists_its_problems_and_writes_nothing(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "state.json"
    result = runner.invoke(app, ["battle", "new", SECOND, SECOND, "--out", str(out)])
    assert result.exit_code == 1
    assert "WRONG_SEAT" in result.output and not out.exists()


def test_battle_new_refuses_to_write_over_one_of_its_placements(runner: CliRunner, tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    first.write_bytes(Path(FIRST).read_bytes())
    result = runner.invoke(app, ["battle", "new", str(first), SECOND, "--out", str(first)])
    assert result.exit_code == 2 and "never writes over its input" in result.output
    assert first.read_bytes() == Path(FIRST).read_bytes()


def test_battle_new_can_show_the_second_players_third_row(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "state.json"
    result = runner.invoke(app, ["battle", "new", FIRST, SECOND, "--out", str(out), "--show-third-row", "--json"])
    assert result.exit_code == 0
    assert all(c["open"] for c in json.loads(result.output)["cards"])


def test_battle_moves_lists_the_attack_on_ahti_and_end(runner: CliRunner, state: Path) -> None:
    result = runner.invoke(app, ["battle", "moves", str(state), "--json"])
    assert result.exit_code == 0
    actions = json.loads(result.output)["actions"]
    assert "attack c3 c4" in actions and "attack c3 c4 defend d4" in actions and actions[-1] == "end"


def test_battle_apply_json_has_legal_problems_events_and_state(runner: CliRunner, state: Path, tmp_path: Path) -> None:
    out = tmp_path / "next.json"
    result = runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4 dice 6 1", "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["legal"] is True and data["problems"] == []
    cards = {c["card"]: c for c in data["state"]["cards"]}
    assert (cards["b_ahti"]["life"], cards["b_ammah"]["life"], cards["b_ammah"]["open"], cards["b_ahti"]["open"]) == (7, 9, False, True)
    assert {"card", "owner", "zone", "square", "open", "life", "counters"} <= set(cards["b_ahti"])
    assert json.loads(out.read_text(encoding="utf-8"))["cards"] == data["state"]["cards"]


def test_an_illegal_action_stops_with_illegal_action_exit_1_and_writes_nothing(runner: CliRunner, state: Path, tmp_path: Path) -> None:
    out = tmp_path / "next.json"
    result = runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4 dice 6 1", "attack c3 c4 dice 6 1",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["legal"] is False and [p["code"] for p in data["problems"]] == ["ILLEGAL_ACTION"]
    assert "closed" in data["problems"][0]["message"] and not out.exists()


def test_a_move_onto_a_taken_square_is_an_illegal_action(runner: CliRunner, state: Path) -> None:
    result = runner.invoke(app, ["battle", "apply", str(state), "move c1 c2", "move c1 c3"])
    assert result.exit_code == 1
    assert "ILLEGAL_ACTION" in result.output and "taken" in result.output


@pytest.mark.parametrize("text", ["attack c3", "fly c3 c4", "move c3 z9"])
def test_bad_notation_is_one_error_line_exit_2_and_nothing_written(runner: CliRunner, state: Path, tmp_path: Path, text: str) -> None:
    out = tmp_path / "next.json"
    result = runner.invoke(app, ["battle", "apply", str(state), "end", text, "--out", str(out)])
    assert result.exit_code == 2
    assert result.output.startswith("error: not a battle action") and result.output.count("\n") == 1
    assert not out.exists()


def test_apply_refuses_to_write_the_new_state_over_its_input(runner: CliRunner, state: Path) -> None:
    before = state.read_bytes()
    result = runner.invoke(app, ["battle", "apply", str(state), "end", "--out", str(state)])
    assert result.exit_code == 2 and state.read_bytes() == before


@pytest.mark.parametrize("change, words", [
    (lambda d: d["cards"][1].update(square="c3"), "stand on c3"),
    (lambda d: d["cards"][0].update(zone="reserve", square=None), "reserve"),
    (lambda d: d.update(turn=0), "turn"),
    (lambda d: d["cards"][0].update(card="no_such_card"), "no berserk-online card"),
    (lambda d: d["cards"].append(dict(d["cards"][0])), "used 2 times"),
], ids=["two-on-a-square", "ground-in-reserve", "turn-0", "unknown-card", "duplicate-id"])
def test_a_bad_state_is_one_error_line_and_exit_2(runner: CliRunner, state: Path, change, words: str) -> None:
    data = json.loads(state.read_text(encoding="utf-8"))
    change(data)
    state.write_text(json.dumps(data), encoding="utf-8")
    result = runner.invoke(app, ["battle", "moves", str(state)])
    assert result.exit_code == 2 and result.output.startswith("error: ") and words in result.output
    assert result.output.count("\n") == 1


def test_a_state_that_is_not_json_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    result = runner.invoke(app, ["battle", "apply", str(bad), "end"])
    assert result.exit_code == 2 and "not valid JSON" in result.output


def test_combat_odds_of_ammah_on_ahti_are_exact_and_sum_to_one(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ammah", "b_ahti", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert sum(Fraction(o["p_exact"]) for o in data["outcomes"]) == 1
    assert Fraction(data["expected_damage"]["to_defender_exact"]) == Fraction(65, 36)
    assert Fraction(data["expected_damage"]["to_attacker_exact"]) == Fraction(28, 36)
    assert abs(sum(o["p"] for o in data["outcomes"]) - 1) < 1e-12
    assert data["p_defender_dies"] == 0


def test_combat_odds_judges_deaths_against_the_lives_given(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ammah", "b_ahti", "--defender-life", "3", "--json"])
    data = json.loads(result.output)
    # Ahti dies to a medium (3) or strong (4) strike: 7 + 3 of the 36 rolls.
    assert Fraction(data["p_defender_dies_exact"]) == Fraction(10, 36)


def test_combat_odds_of_an_unknown_card_is_a_finding(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ammahh", "b_ahti"])
    assert result.exit_code == 1 and "error: no card matches" in result.output


def test_combat_odds_of_an_online_card_on_a_tabletop_card_is_not_found_in_the_attackers_game(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ahti", "10001"])
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert "no berserk-online card matches '10001'" in result.output and "berserk-ccg card" in result.output
    assert json.loads(runner.invoke(app, ["combat", "odds", "b_ahti", "10001", "--json"]).output)["error"]["code"] == "NOT_FOUND"


def test_combat_odds_with_game_refuses_an_attacker_of_another_game(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ahti", "b_ammah", "--game", "berserk-ccg"])
    assert result.exit_code == 1 and "b_ahti" in result.output and "b_ammah" not in result.output


def test_combat_odds_suggests_defenders_only_from_the_attackers_game(runner: CliRunner) -> None:
    from cardkit.games.squad_games.battle.cards import battle_cards

    result = runner.invoke(app, ["combat", "odds", "b_ammah", "b_ahtii"])
    assert result.exit_code == 1 and "did you mean" in result.output
    suggested = result.output.split("did you mean: ")[1].strip().split(", ")
    ids = [s.rsplit("(", 1)[1].rstrip(")") for s in suggested]
    assert ids and set(ids) <= set(battle_cards("berserk-online")), ids


def test_combat_odds_of_a_card_without_strike_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_chantar", "b_ahti"])
    assert result.exit_code == 2 and "no strike" in result.output


def test_combat_odds_shows_expected_damage_over_all_36_rolls(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "odds", "b_ammah", "b_ahti"])
    assert result.exit_code == 0
    assert "expected damage to Ахти: 65/36" in result.output and "expected damage to Аммах: 28/36" in result.output


@pytest.mark.parametrize("terminal", [True, False], ids=["on a terminal", "in a log"])
def test_apply_without_out_says_on_a_terminal_that_nothing_was_written(
        runner: CliRunner, state: Path, monkeypatch: pytest.MonkeyPatch, terminal: bool) -> None:
    import cardkit.cli._progress

    monkeypatch.setattr(cardkit.cli._progress, "stderr_is_terminal", lambda: terminal)
    before = sorted(state.parent.iterdir())
    result = runner.invoke(app, ["battle", "apply", str(state), "move c1 c2"])
    assert result.exit_code == 0, result.output
    assert ("not written" in result.stderr and "--out" in result.stderr) is terminal
    assert "not written" not in result.stdout and sorted(state.parent.iterdir()) == before


def test_every_action_moves_lists_without_an_x_is_one_apply_takes(runner: CliRunner, state: Path) -> None:
    listed = json.loads(runner.invoke(app, ["battle", "moves", str(state), "--json"]).output)["actions"]
    by_hand = [a for a in listed if " X" not in a]
    assert "attack c3 c4" in by_hand
    for action in by_hand:
        result = runner.invoke(app, ["battle", "apply", str(state), action, "--json"])
        assert result.exit_code == 0, (action, result.output)


def test_an_attack_without_dice_is_rolled_from_the_states_seed_and_says_so(runner: CliRunner, state: Path) -> None:
    runs = [runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4", "--json"]) for _ in range(2)]
    assert [r.exit_code for r in runs] == [0, 0]
    first, second = (json.loads(r.output) for r in runs)
    rolled = [e for e in first["events"] if e.get("event") == "rolled"]
    assert len(rolled) == 1 and rolled[0]["action"] == "attack c3 c4"
    assert rolled[0]["rolled"].startswith("attack c3 c4 dice ") and len(rolled[0]["rolled"].split()) == 6
    assert first == second
    text = runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4"]).output
    assert f"rolled from the state's seed: {rolled[0]['rolled']}" in text


def test_dice_written_by_hand_are_kept_and_nothing_is_rolled(runner: CliRunner, state: Path) -> None:
    data = json.loads(runner.invoke(app, ["battle", "apply", str(state), "attack c3 c4 dice 6 1", "--json"]).output)
    assert not [e for e in data["events"] if e.get("event") == "rolled"]
    assert "dice 6:1" in data["events"][0]["text"]
