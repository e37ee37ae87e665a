"""A two-player Berserk TCG game: cities, attacks, locking, victory; each rule quotes the text."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import BadActionText, CardkitError, IllegalAction
from cardkit.games.berserk_tcg.game.apply import apply
from cardkit.games.berserk_tcg.game.cities import City
from cardkit.games.berserk_tcg.game.engine import ENGINE
from cardkit.games.berserk_tcg.game.legal import legal_actions
from cardkit.games.berserk_tcg.game.notation import (
    Attack,
    Defend,
    Discard,
    Draw,
    End,
    Move,
    Open,
    Ref,
    parse,
)
from cardkit.games.berserk_tcg.game.setup import deck_cards, new_game
from cardkit.games.berserk_tcg.game.state import Game, Player, Unit, from_dict

ROOT = Path(__file__).resolve().parent.parent
WHITE = ROOT / "decks/berserk-tcg/white-hawks.deck"
RED = ROOT / "decks/berserk-tcg/red-apostles.deck"
CASCA, GUTS, ARCHERS, CAVALRY, MERC = "BK1-013", "BK1-011", "BK1-005", "BK1-123", "BK1-001"
LIBRARY = (MERC,) * 10


def table(mine: tuple[Unit, ...] = (), theirs: tuple[Unit, ...] = (), held: dict[str, int] | None = None,
          revealed: tuple[str, ...] = (), phase: str = "main", hand: tuple[str, ...] = (),
          library: tuple[str, ...] = LIBRARY) -> Game:
    """Player 0 on move; cities c1..c4 basic, c5 royal; `held` maps a city to its controller."""
    base = new_game([list(LIBRARY), list(LIBRARY)], ["Alice", "Boris"])
    held = held or {}
    cities = tuple(City(f"c{i}", "CITY-R" if i == 5 else f"CITY-{i}", i == 5, f"c{i}" in revealed or f"c{i}" in held,
                        (sorted(set(revealed) | set(held)).index(f"c{i}") + 1)
                        if f"c{i}" in revealed or f"c{i}" in held else None, held.get(f"c{i}"))
                   for i in range(1, 6))
    return replace(base, players=(Player("Alice", library, hand, (), mine), Player("Boris", library, (), (), theirs)),
                   cities=cities, phase=phase)


def test_an_attack_reveals_a_face_down_city_as_the_next_level_and_an_unguarded_city_is_taken() -> None:
    """"as a character card is put in game and reveals a city, that city becomes the Level 1 city until the game ends"
    "Each time a player takes a city, he has to draw 2 cards from his Library and put them into his Hand."."""
    game, events = apply(table((Unit(CASCA),), revealed=("c1",)), Attack("c3", (Ref(CASCA),)))
    c3 = game.city("c3")
    assert (c3.revealed, c3.level, c3.controller) == (True, 2, 0)
    assert game.players[0].units == (Unit(CASCA, "c3", locked=True),)
    assert len(game.players[0].hand) == 2 and len(game.players[0].library) == len(LIBRARY) - 2
    assert [e["kind"] for e in events] == ["revealed", "took"]


def test_a_defender_who_wins_does_not_take_the_city_and_the_dead_attacker_goes_to_the_trash() -> None:
    """"During a battle over a city, when the defensive player wins, he doesn't acquire the city"."""
    start = table((Unit(CASCA),), (Unit(GUTS, "c2"),), held={"c2": 1})
    game, _ = apply(start, Attack("c2", (Ref(CASCA),)))
    game, events = apply(game, Defend("c2", (GUTS,)))
    assert game.city("c2").controller == 1 and game.players[0].units == ()
    assert game.players[0].trash == (CASCA,) and game.players[0].hand == ()
    assert game.players[1].units == (Unit(GUTS, "c2", damage=2),)
    assert events[-1]["kind"] == "held"


def test_an_attacker_who_defeats_the_guards_takes_the_city_and_its_survivors_guard_it() -> None:
    """"he just has to attack it and defeat the troops that defend it"
    "he just turns it toward him and let the characters that took its control inside, to guard it"."""
    start = table((Unit(ARCHERS),), (Unit(CAVALRY, "c2"),), held={"c2": 1})
    game, _ = apply(start, Attack("c2", (Ref(ARCHERS),)))
    game, _ = apply(game, Defend("c2", (CAVALRY,)))
    assert game.city("c2").controller == 0
    assert game.players[0].units == (Unit(ARCHERS, "c2", locked=True),)
    assert game.players[1].trash == (CAVALRY,) and game.players[1].units == ()


def test_a_player_attacks_once_a_turn_and_never_a_city_it_occupies() -> None:
    """"You can only attack once each turn." "you obviously can't attack one that you already occupy"."""
    start = table((Unit(CASCA), Unit(GUTS), Unit(ARCHERS, "c1")), held={"c1": 0})
    game, _ = apply(start, Attack("c2", (Ref(CASCA),)))
    with pytest.raises(IllegalAction, match="once each turn"):
        apply(game, Attack("c3", (Ref(GUTS),)))
    with pytest.raises(IllegalAction, match="already yours"):
        apply(start, Attack("c1", (Ref(GUTS),)))


def test_a_locked_card_can_take_no_action_until_its_players_next_unlocking_phase() -> None:
    """"A locked card can't take any action until its player next turn, more specifically his unlocking phase"."""
    with pytest.raises(IllegalAction, match="locked"):
        apply(table((Unit(CASCA, locked=True), Unit(GUTS, "c1")), held={"c1": 0}), Move(Ref(CASCA), "c1"))
    game, _ = apply(table((Unit(CASCA), Unit(GUTS, "c1")), held={"c1": 0}), Attack("c2", (Ref(CASCA),)))
    game, _ = apply(game, End())
    assert game.active == 1 and game.phase == "draw"
    assert Unit(CASCA, "c2", locked=True) in game.players[0].units
    game, _ = apply(apply(apply(game, Draw())[0], End())[0], Draw())
    assert game.active == 0 and not any(u.locked for u in game.players[0].units)


def test_moving_between_cities_locks_and_setting_a_character_in_a_city_does_not() -> None:
    """"When a character card attacks a city, or moves from one to another (using their Move value), you have to Lock it"."""
    start = table((Unit(CASCA), Unit(GUTS, "c1")), held={"c1": 0, "c2": 0})
    game, _ = apply(start, Move(Ref(CASCA), "c1"))
    assert Unit(CASCA, "c1") in game.players[0].units
    game, _ = apply(start, Move(Ref(GUTS, "c1"), "c2"))
    assert Unit(GUTS, "c2", locked=True) in game.players[0].units
    with pytest.raises(IllegalAction, match="attack it to take it"):
        apply(start, Move(Ref(CASCA), "c3"))


def test_the_royal_city_and_two_normal_cities_win() -> None:
    """"The victory condition is to take the royal city and at least 2 normal cities."."""
    game, events = apply(table((Unit(CASCA),), held={"c1": 0, "c2": 0}), Attack("c5", (Ref(CASCA),)))
    assert game.winner == 0 and events[-1]["kind"] == "won"
    assert list(legal_actions(game)) == []
    game, _ = apply(table((Unit(CASCA),), held={"c1": 0, "c2": 0}), Attack("c3", (Ref(CASCA),)))
    assert game.winner is None, "three normal cities without the royal one do not win"


def test_a_player_who_cannot_draw_in_the_drawing_phase_loses() -> None:
    """"A player loses when he can't draw a card from his deck during his drawing phase."."""
    game, events = apply(table(phase="draw", library=()), Draw())
    assert game.winner == 1 and events[0]["kind"] == "won"


def test_taking_a_city_with_an_empty_library_draws_nothing_and_does_not_lose() -> None:
    game, _ = apply(table((Unit(CASCA),), library=()), Attack("c1", (Ref(CASCA),)))
    assert game.winner is None and game.city("c1").controller == 0


def test_the_first_player_skips_its_first_draw_and_the_second_draws() -> None:
    """"The first player to take his turn has to skip his drawing phase (for that turn only)."."""
    game = new_game([deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]], seed=3)
    assert game.phase == "opening" and [len(p.hand) for p in game.players] == [7, 7]
    game, _ = apply(game, End())
    assert (game.active, game.phase) == (1, "draw")
    game, _ = apply(game, Draw())
    assert len(game.players[1].hand) == 8


def test_damage_that_did_not_kill_heals_in_the_ending_phase() -> None:
    """"During the Ending phase, the damages dealt and that didn't send a card to the Trash are healed"."""
    game, _ = apply(table((Unit(GUTS),), (Unit(CASCA, "c2"),), held={"c2": 1}), Attack("c2", (Ref(GUTS),)))
    game, _ = apply(game, Defend("c2", (CASCA,)))
    assert game.players[0].units == (Unit(GUTS, "c2", locked=True, damage=2),)
    game, _ = apply(game, End())
    assert not any(u.damage for p in game.players for u in p.units)


def test_a_revealed_city_raises_the_level_that_can_be_opened() -> None:
    """"you can play cards of a Level inferior or equal to the number of revealed cities"."""
    start = table(phase="opening", hand=(ARCHERS, MERC))
    with pytest.raises(IllegalAction, match="Level 1 needs 1"):
        apply(start, Open(ARCHERS, (MERC,)))
    game, events = apply(replace(start, cities=table(revealed=("c4",)).cities), Open(ARCHERS, (MERC,)))
    assert game.players[0].units == (Unit(ARCHERS),) and game.players[0].trash == (MERC,)
    assert game.phase == "main"


def test_the_cities_lie_face_down_in_a_seeded_order_that_hides_the_royal_one() -> None:
    """"their backside shown so that the royal city is hidden amongst the others"."""
    decks = [list(LIBRARY), list(LIBRARY)]
    royal = {next(c.name for c in new_game(decks, seed=s).cities if c.royal) for s in range(20)}
    assert len(royal) > 1
    assert new_game(decks, seed=4).to_dict() == new_game(decks, seed=4).to_dict()
    assert all(c["card"] is None and c["royal"] is None for c in new_game(decks, seed=4).summary()["cities"])


def test_a_random_game_round_trips_every_action_and_state() -> None:
    game = new_game([deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]], seed=1)
    rng = random.Random(1)
    kinds = set()
    for _ in range(300):
        actions = list(legal_actions(game))
        if not actions:
            break
        eager = [a for a in actions if isinstance(a, (Attack, Open))] or actions
        action = rng.choice(eager if rng.random() < 0.8 else actions)
        assert parse(str(action)) == action
        game, _ = apply(game, action)
        assert from_dict(json.loads(json.dumps(game.to_dict()))).to_dict() == game.to_dict()
        kinds.add(type(action).__name__)
    assert game.winner is not None and {"Attack", "Open", "End"} <= kinds


@pytest.mark.parametrize("text", ["attack c1", "move BK1-001 c2", "fly"], ids=["no cards", "no to", "verb"])
def test_text_that_is_no_action_is_refused(text: str) -> None:
    with pytest.raises(BadActionText):
        parse(text)


def test_tcg_apply_writes_only_legal_runs_and_has_the_fleet_apply_shape(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    assert runner.invoke(app, ["tcg", "new", str(WHITE), str(RED), "--seed", "1", "--out", str(state)]).exit_code == 0
    after = tmp_path / "after.json"
    result = runner.invoke(app, ["tcg", "apply", str(state), "pass", "attack c1 with BK1-001", "--out", str(after),
                                 "--json"])
    out = json.loads(result.output)
    assert result.exit_code == 1 and list(out) == ["path", "legal", "applied", "problems", "events", "state"]
    assert out["problems"][0]["code"] == "ILLEGAL_ACTION" and out["problems"][0]["line"] == 2
    assert not after.exists()
    result = runner.invoke(app, ["tcg", "apply", str(state), "open BK1-001 pay BK1-007", "end", "--out", str(after)])
    assert result.exit_code == 0, result.output
    assert from_dict(json.loads(after.read_text())).active == 1
    result = runner.invoke(app, ["tcg", "apply", str(state), "end", "--out", str(state)])
    assert result.exit_code == 2 and "input" in result.output
    moves = runner.invoke(app, ["tcg", "moves", str(state), "--json"])
    assert "open BK1-001 pay BK1-007" in json.loads(moves.output)["actions"]


def _mutations(data: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    out = [path]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _mutations(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            out += _mutations(v, path + (i,))
    return out


@pytest.mark.slow
def test_a_damaged_state_file_is_refused_or_played_never_a_crash(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    runner.invoke(app, ["tcg", "new", str(WHITE), str(RED), "--seed", "2", "--out", str(state)])
    runner.invoke(app, ["tcg", "apply", str(state), "open BK1-001 pay BK1-001", "attack c2 with BK1-001",
                        "--out", str(tmp_path / "t.json")])
    good = json.loads((tmp_path / "t.json").read_text())
    paths = _mutations(good)
    for path in paths:
        for bad in (None, "x", -1, 7, [], {}, True):
            data = json.loads(json.dumps(good))
            if not path:
                data = bad
            else:
                target = data
                for key in path[:-1]:
                    target = target[key]
                target[path[-1]] = bad
            try:
                ENGINE.apply_all(ENGINE.read_text(json.dumps(data)), ["end"])
            except CardkitError:
                pass  # the CLI shows it as one `error:` line


def test_a_hand_over_7_at_the_end_of_the_turn_is_cut_to_7_before_the_next_turn() -> None:
    """"If a player has more than 7 cards in his hand at the end of his turn, he must discard as many cards as needed"."""
    game, _ = apply(table(hand=(MERC,) * 8 + (CASCA,)), End())
    assert game.phase == "discard" and game.active == 0
    assert sorted(map(str, legal_actions(game))) == [f"discard {MERC},{MERC}", f"discard {MERC},{CASCA}"]
    with pytest.raises(IllegalAction, match="discard exactly 2"):
        apply(game, Discard((CASCA,)))
    game, _ = apply(game, Discard((CASCA, MERC)))
    assert len(game.players[0].hand) == 7 and sorted(game.players[0].trash) == [MERC, CASCA] and game.active == 1


def test_a_character_without_a_move_value_cannot_move_from_one_city_to_another() -> None:
    """"or moves from one to another (using their Move value)"."""
    golem = "BK1-042"
    with pytest.raises(IllegalAction, match="no Move value"):
        apply(table((Unit(golem, "c1"),), held={"c1": 0, "c2": 0}), Move(Ref(golem, "c1"), "c2"))


def test_a_unique_card_whose_name_the_opponent_has_in_play_cannot_be_opened() -> None:
    """"if your opponent has one in game, you can't play it"."""
    start = table(theirs=(Unit(GUTS, "c2"),), held={"c2": 1}, revealed=("c1",), phase="opening",
                  hand=("BK1-012", MERC, MERC))
    with pytest.raises(IllegalAction, match="Unique"):
        apply(start, Open("BK1-012", (MERC,)))


def test_the_library_examples_in_the_docs_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "tcg-battles.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "tcg-battles.md", "exec"), {})


def test_tcg_new_plays_an_illegal_deck_with_a_warning_and_sets_its_city_aside(runner: CliRunner, tmp_path: Path) -> None:
    illegal = ROOT / "decks/berserk-tcg/illegal-city-in-deck.deck"
    state = tmp_path / "game.json"
    result = runner.invoke(app, ["tcg", "new", str(illegal), str(RED), "--out", str(state)])
    assert result.exit_code == 0
    assert "NOT_A_DECK_CARD" in result.output and "set aside CITY-R" in result.output
    game = from_dict(json.loads(state.read_text()))
    assert not any(c.startswith("CITY") for c in game.players[0].library + game.players[0].hand)


def test_tcg_new_refuses_a_deck_of_another_game(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["tcg", "new", str(ROOT / "decks/berserker/standard.deck"), str(RED),
                                 "--out", str(tmp_path / "g.json")])
    assert result.exit_code == 2 and "berserker deck" in result.output and not (tmp_path / "g.json").exists()


def _hand_edited(runner: CliRunner, tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Path:
    """A state `tcg new` wrote, then edited by hand as `edit` says."""
    state = tmp_path / "game.json"
    assert runner.invoke(app, ["tcg", "new", str(WHITE), str(RED), "--seed", "1", "--out", str(state)]).exit_code == 0
    data = json.loads(state.read_text(encoding="utf-8"))
    assert from_dict(data).cities  # the untouched state reads
    edit(data)
    state.write_text(json.dumps(data), encoding="utf-8")
    return state


def _assert_unreadable(runner: CliRunner, state: Path, words: str) -> None:
    for args in (["tcg", "moves", str(state)], ["tcg", "apply", str(state), "pass"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and result.output.startswith("error: "), result.output
        assert words in result.output and result.output.count("\n") == 1, result.output


def test_a_state_whose_city_is_a_character_card_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    state = _hand_edited(runner, tmp_path, lambda d: d["cities"][0].update(card=GUTS))
    _assert_unreadable(runner, state, "not a city card")


def test_a_state_with_two_royal_cities_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    def two_royals(data: dict[str, Any]) -> None:
        for city in data["cities"]:
            if not city["royal"]:
                city["royal"] = True
                return

    _assert_unreadable(runner, _hand_edited(runner, tmp_path, two_royals), "royal")


def test_a_state_with_the_royal_city_card_in_a_hand_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    state = _hand_edited(runner, tmp_path, lambda d: d["players"][0]["hand"].append("CITY-R"))
    _assert_unreadable(runner, state, "city card CITY-R is in 'Alice Archer''s hand")


def test_a_state_with_a_normal_effect_in_play_as_a_unit_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    unit = {"card": "BK1-033", "city": None, "locked": False, "damage": 0}
    state = _hand_edited(runner, tmp_path, lambda d: d["players"][0]["units"].append(unit))
    _assert_unreadable(runner, state, "BK1-033 is in play as a unit")


def test_a_state_with_an_eternal_effect_standing_in_a_city_is_unreadable(runner: CliRunner, tmp_path: Path) -> None:
    unit = {"card": "BK1-145", "city": "c1", "locked": False, "damage": 0}
    state = _hand_edited(runner, tmp_path, lambda d: d["players"][0]["units"].append(unit))
    _assert_unreadable(runner, state, "only characters stand in cities")


QUICK = "BK1-023"  # a white Quick effect, Level 1, cost 1 white


@pytest.mark.parametrize("phase", ["draw", "main", "discard"])
def test_a_quick_card_opens_in_any_phase_of_either_players_turn_as_its_owners_action(phase: str) -> None:
    """Some cards have the Quick ability, which allows them to be played anytime, and to "cut into" a normal
    effect."""
    hand = (QUICK, MERC) + ((MERC,) * 8 if phase == "discard" else ())
    game = table(revealed=("c1",), phase=phase, hand=hand)
    game = replace(game, players=(game.players[0], replace(game.players[1], hand=(QUICK, MERC))))
    mine, _ = apply(game, parse(f"open {QUICK} pay {MERC}"))
    assert QUICK in mine.players[0].trash and mine.phase == phase
    theirs, events = apply(game, parse(f"open {QUICK} pay {MERC} by player 2"))
    assert QUICK in theirs.players[1].trash and theirs.active == 0 and events[0]["player"] == 1
    listed = {str(a) for a in legal_actions(game)}
    assert f"open {QUICK} pay {MERC}" in listed and f"open {QUICK} pay {MERC} by player 2" in listed
    with pytest.raises(IllegalAction, match="not Quick"):
        apply(table(revealed=("c1",), phase=phase, hand=(ARCHERS, MERC) + hand[2:]), parse(f"open {ARCHERS} pay {MERC}"))


def test_the_opening_engine_and_the_game_ask_one_function_whether_a_card_opens() -> None:
    """Some cards have the Quick ability, which allows them to be played anytime."""
    from cardkit.games.berserk_tcg.opening.state import can_open

    game = table(revealed=("c1",), phase="main", hand=(QUICK, ARCHERS, MERC))
    for p in (0, 1):
        state = game.player_state(p)
        assert state.phase != "opening"
        for card in set(state.hand):
            opens = any(str(a).startswith(f"open {card} ") for a in legal_actions(replace(
                game, players=(game.players[0], replace(game.players[1], hand=game.players[0].hand)))))
            assert opens == can_open(card, state).ok or p == 1


def test_the_defender_chooses_which_able_characters_defend_none_included() -> None:
    """When you choose to attack, your opponent can defend the city if he wants and is able to."""
    start = table((Unit(GUTS),), (Unit(CASCA, "c2"), Unit(CAVALRY, "c2"), Unit(ARCHERS, "c2", locked=True)),
                  held={"c2": 1})
    game, events = apply(start, Attack("c2", (Ref(GUTS),)))
    assert game.phase == "defend" and events[-1]["kind"] == "attacks"
    assert {str(a) for a in legal_actions(game) if isinstance(a, Defend)} == {
        "defend c2 with none", f"defend c2 with {CASCA}", f"defend c2 with {CAVALRY}",
        f"defend c2 with {CASCA},{CAVALRY}", f"defend c2 with {CAVALRY},{CASCA}"}
    with pytest.raises(IllegalAction, match="not one more able"):
        apply(game, parse(f"defend c2 with {ARCHERS}"))
    with pytest.raises(IllegalAction, match="defender answers"):
        apply(game, End())
    taken, _ = apply(game, parse("defend c2 with none"))
    assert taken.city("c2").controller == 0 and taken.phase == "main"
    assert all(u.city is None for u in taken.players[1].units), "guards that did not defend leave the city"
    fought, events = apply(game, parse(f"defend c2 with {CASCA}"))
    assert any(e["kind"] == "strike" for e in events)
    assert Unit(CAVALRY, "c2" if fought.city("c2").controller == 1 else None) in fought.players[1].units


def test_a_city_without_able_guards_is_fought_at_once() -> None:
    """When you choose to attack, your opponent can defend the city if he wants and is able to."""
    start = table((Unit(GUTS),), (Unit(CASCA, "c2", locked=True),), held={"c2": 1})
    game, _ = apply(start, Attack("c2", (Ref(GUTS),)))
    assert game.phase == "main" and game.city("c2").controller == 0


def test_every_action_names_exactly_one_card_in_play_and_moves_never_lists_a_text_twice() -> None:
    """When a character card attacks a city, or moves from one to another (using their Move value), you have to
    "Lock" it."""
    golem, mover = "BK1-042", ARCHERS  # no Move value; a Move value of 1
    start = table((Unit(MERC), Unit(MERC, "c1"), Unit(mover, "c1"), Unit(mover)), held={"c1": 0, "c3": 0})
    texts = [str(a) for a in legal_actions(start)]
    assert len(texts) == len(set(texts))
    assert f"move {MERC} to c1" in texts and f"move {mover} from c1 to c3" in texts
    game, _ = apply(start, parse(f"move {mover} from c1 to c3"))
    assert Unit(mover, "c3", locked=True) in game.players[0].units and Unit(mover) in game.players[0].units
    game, _ = apply(start, parse(f"attack c2 with {MERC} from c1,{MERC}"))
    assert game.city("c2").controller == 0
    with pytest.raises(IllegalAction, match="from CITY"):
        apply(table((Unit(golem, "c1"),), held={"c1": 0, "c3": 0}), parse(f"move {golem} to c3"))


def test_no_action_at_all_follows_a_decided_game() -> None:
    """The victory condition is to take the royal city and at least 2 normal cities."""
    game, _ = apply(table((Unit(CASCA),), held={"c1": 0, "c2": 0}, hand=(QUICK, MERC), revealed=("c3",)),
                    Attack("c5", (Ref(CASCA),)))
    assert game.winner == 0 and list(legal_actions(game)) == []
    for text in ("end", f"open {QUICK} pay {MERC}", "defend c5 with none"):
        with pytest.raises(IllegalAction, match="game is over"):
            apply(game, parse(text))


def test_a_quick_card_that_cuts_the_hand_to_7_in_the_discard_phase_ends_the_turn() -> None:
    """If a player has more than 7 cards in his hand at the end of his turn, he must discard as many cards as
    needed until he has only 7."""
    game = table(revealed=("c1",), phase="discard", hand=(QUICK,) + (MERC,) * 8)
    game, _ = apply(game, parse(f"open {QUICK} pay {MERC}"))
    assert (game.active, game.phase, len(game.players[0].hand)) == (1, "draw", 7)
    assert ENGINE.unreadable(game) is None


def test_each_player_draws_7_cards_from_its_library_to_form_its_hand() -> None:
    """"Players have to draw 7 cards from their Library to form their Hands." (the text's opening lines)"""
    decks = [deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]]
    game = new_game(decks, seed=5)
    for player, deck in zip(game.players, decks):
        assert len(player.hand) == 7 and sorted(player.hand + player.library) == sorted(deck)
        assert player.trash == () and player.units == ()


def test_at_first_no_city_is_revealed_and_only_level_0_cards_open() -> None:
    """"At first, none is visible and only cards of Level 0 can be played (Opened)." (the text on opening cards)"""
    game = new_game([deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]], seed=5)
    assert not any(c.revealed for c in game.cities)
    opened = {a.card for a in legal_actions(game) if isinstance(a, Open)}
    held = set(game.players[0].hand) | set(game.players[1].hand)
    assert opened and all(int(game.stats[c].get("level") or 0) == 0 for c in opened)
    assert any(int(game.stats[c].get("level") or 0) > 0 for c in held), "the hands hold a card that may not open yet"


def test_where_both_players_may_open_a_quick_card_the_player_on_turn_has_the_priority(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """"If two Quick effects went to be played simultaneously, the player which turn it is has the priority."
    (the Quick paragraph): actions apply one at a time, so `moves` lists the player on turn's opens first
    (reading quick_priority)."""
    from cardkit.games.berserk_tcg.game import legal

    game = table(revealed=("c1",), phase="main", hand=(QUICK, MERC))
    game = replace(game, players=(game.players[0], replace(game.players[1], hand=(QUICK, MERC))))
    assert [a.by for a in legal_actions(game) if isinstance(a, Open)] == [None, 1]
    assert [a.by for a in legal_actions(replace(game, active=1)) if isinstance(a, Open)] == [None, 0]
    real = legal.reading
    monkeypatch.setattr(legal, "reading", lambda g, r: "player-not-on-turn" if r == "quick_priority" else real(g, r))
    assert [a.by for a in legal_actions(game) if isinstance(a, Open)] == [1, None]


def test_an_illegal_action_is_shown_at_its_action_number_not_at_a_line(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    assert runner.invoke(app, ["tcg", "new", str(WHITE), str(RED), "--seed", "1", "--out", str(state)]).exit_code == 0
    result = runner.invoke(app, ["tcg", "apply", str(state), "pass", "attack c1 with BK1-001"])
    assert result.exit_code == 1
    (told,) = [line for line in result.stdout.splitlines() if "ILLEGAL_ACTION" in line]
    assert told.split()[:3] == ["action", "2", "error"] and "line" not in told
