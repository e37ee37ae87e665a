"""One battle of the Berserk TCG: Power against HP, Range deciding who strikes first."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.games.berserk_tcg.game.battle import Fighter, fight, healed, one_battle


def fighter(fid: str, power: int, hp: int, rng: int = 0) -> Fighter:
    return Fighter(fid, fid, power, hp, rng)


def test_a_2_2_against_a_2_3_dies_and_the_2_3_survives() -> None:
    """"if a 2/2 is fighting against a 2/3, they'll both deliver the other 2 points of damage,
     the 2/2 will then die, and the 2/3 will survive"."""
    result = fight([fighter("a", 2, 2)], [fighter("d", 2, 3)])
    assert (result.attacker_survives, result.defender_survives) == (False, True)
    assert [f.damage for f in (*result.attackers, *result.defenders)] == [2, 2]


@pytest.mark.parametrize("archer_attacks", [True, False], ids=["archer attacks", "archer defends"])
def test_a_2_1_with_higher_range_kills_a_3_2_before_it_can_fight_back(archer_attacks: bool) -> None:
    """"So a 2/1 character card with a higher Range than a 3/2 will kill it before it can fight back."."""
    archer, lancer = fighter("archer", 2, 1, 1), fighter("lancer", 3, 2, 0)
    result = fight([archer], [lancer]) if archer_attacks else fight([lancer], [archer])
    survivors = {f.id for f in (*result.attackers, *result.defenders) if f.alive}
    assert survivors == {"archer"}
    assert len(result.steps) == 1 and result.steps[0].range == 1


def test_equal_range_strikes_at_once_so_both_can_die() -> None:
    """"they'll both deliver the other 2 points of damage": equal Range, the blows cross"""
    result = fight([fighter("a", 2, 2)], [fighter("d", 3, 2)])
    assert not result.attacker_survives and not result.defender_survives
    assert set(result.steps[0].killed) == {"a", "d"}


def test_a_survivors_damage_heals_in_the_ending_phase_and_the_dead_stay_dead() -> None:
    """"During the Ending phase, the damages dealt and that didn't send a card to the Trash are healed"."""
    result = fight([fighter("a", 2, 2)], [fighter("d", 2, 3)])
    assert healed((*result.attackers, *result.defenders)) == (fighter("d", 2, 3),)


def test_several_defenders_take_pooled_power_in_order_with_the_surplus_passing_on() -> None:
    result = fight([fighter("a", 3, 5, 1)], [fighter("d1", 1, 2), fighter("d2", 1, 2)])
    assert [(h[2], h[3]) for h in result.steps[0].hits] == [("d1", 2), ("d2", 1)]
    assert [f.alive for f in result.defenders] == [False, True]
    assert result.attacker_survives and not result.attacker_wins


def test_casca_attacking_guts_dies_and_guts_survives() -> None:
    result = one_battle("BK1-013", "BK1-011")
    assert (result.attacker_survives, result.defender_survives) == (False, True)


@pytest.mark.parametrize("attacker,defender", [("BK1-005", "BK1-123"), ("BK1-123", "BK1-005")],
                         ids=["archers attack", "cavalry attacks"])
def test_readied_archers_kill_invading_cavalry_whichever_attacks(runner: CliRunner, attacker: str,
                                                                 defender: str) -> None:
    result = runner.invoke(app, ["combat", "tcg", attacker, defender, "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert list(out) == ["attacker_survives", "defender_survives", "steps"]
    archers_survive = out["attacker_survives"] if attacker == "BK1-005" else out["defender_survives"]
    cavalry_survives = out["defender_survives"] if attacker == "BK1-005" else out["attacker_survives"]
    assert archers_survive and not cavalry_survives
    assert out["steps"] == [{"range": 1, "hits": [{"side": "attacker" if attacker == "BK1-005" else "defender",
                                                   "striker": "BK1-005", "target": "BK1-123", "damage": 2}],
                             "killed": ["BK1-123"]}]


def test_combat_tcg_text_says_who_dies(runner: CliRunner) -> None:
    result = runner.invoke(app, ["combat", "tcg", "BK1-013", "BK1-011"])
    assert result.exit_code == 0
    assert "attacker Casca dies" in result.output and "defender Guts survives" in result.output


@pytest.mark.parametrize("args", [["CITY-1", "BK1-011"], ["no-such-card", "BK1-011"], ["Casca", "BK1-011"]],
                         ids=["a city", "unknown", "ambiguous name"])
def test_combat_tcg_refuses_what_cannot_fight_with_one_line_and_exit_1(runner: CliRunner, args: list[str]) -> None:
    result = runner.invoke(app, ["combat", "tcg", *args])
    assert result.exit_code == 1
    assert result.output.startswith("error: ") and "Traceback" not in result.output
