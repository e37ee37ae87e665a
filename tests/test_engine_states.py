"""Engine state files as a hostile user writes them: every engine reads strictly (types never coerced, impossible
states refused), lists a bounded number of moves without a traceback, and writes only states its reader accepts."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import CardkitError, UnreadableInput
from cardkit.games.berserk_tcg.game.engine import ENGINE as TCG
from cardkit.games.berserker.game.engine import ENGINE as FLEET

ROOT = Path(__file__).resolve().parent.parent
WHITE, RED = ROOT / "decks/berserk-tcg/white-hawks.deck", ROOT / "decks/berserk-tcg/red-apostles.deck"
FLEETS = ROOT / "decks/berserker/fleets"
HUMAN, BERSERKER = FLEETS / "human-ram-screen.fleet.json", FLEETS / "berserker-centre.fleet.json"
BATTLE = ROOT / "tests/data/battle"


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """A fresh state of each engine, as `new` writes it."""
    tmp = tmp_path_factory.mktemp("new")
    runner = CliRunner()
    out: dict[str, dict[str, Any]] = {}
    for name, args in (("tcg", ["tcg", "new", str(WHITE), str(RED), "--seed", "1"]),
                       ("fleet", ["fleet", "new", str(HUMAN), str(BERSERKER), "--seed", "1"]),
                       ("battle", ["battle", "new", str(BATTLE / "online-first.json"), str(BATTLE / "online-second.json")])):
        path = tmp / f"{name}.json"
        result = runner.invoke(app, [*args, "--out", str(path)])
        assert result.exit_code == 0, result.output
        out[name] = json.loads(path.read_text(encoding="utf-8"))
    return out


def changed(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    copy = json.loads(json.dumps(data))
    change(copy)
    return json.dumps(copy)


def refused(engine: Any, text: str) -> str:
    with pytest.raises(UnreadableInput) as info:
        engine.read_text(text)
    return info.value.reason


# --- strict readers (issue 25, family 5) ------------------------------------------------------------

def _first_unit(d: dict[str, Any], **unit: Any) -> None:
    d["players"][0]["units"] = [{"card": "BK1-011", "city": None, "locked": False, "damage": 0, **unit}]


def _pending(d: dict[str, Any], attacker_locked: bool = False, guard_locked: bool = False) -> None:
    """Player 1's Guts attacks c1, held by player 2's Casca, and waits for player 2 to choose its defenders."""
    d.update(phase="defend", opened=True, attacked=True, attack={"city": "c1", "attackers": [0]})
    d["cities"][0].update(revealed=True, level=1, controller=1)
    _first_unit(d, locked=attacker_locked)
    d["players"][1]["units"] = [{"card": "BK1-013", "city": "c1", "locked": guard_locked, "damage": 0}]


TCG_IMPOSSIBLE: dict[str, Callable[[dict[str, Any]], None]] = {
    "opened is the text false": lambda d: d.update(opened="false"),
    "locked is the text no": lambda d: _first_unit(d, locked="no"),
    "the winner is true": lambda d: d.update(winner=True),
    "turn -5": lambda d: d.update(turn=-5),
    "turn as text": lambda d: d.update(turn="7"),
    "turn 1.9": lambda d: d.update(turn=1.9),
    "50 damage on a 3-HP card": lambda d: _first_unit(d, damage=50),
    "a Unique card twice": lambda d: d["players"][0].update(units=[
        {"card": "BK1-011", "city": None, "locked": False, "damage": 0}] * 2),
    "a unit in a face-down city": lambda d: _first_unit(d, city="c2"),
    "a face-down city with a controller": lambda d: d["cities"][0].update(controller=0),
    "a revealed city with Level null": lambda d: d["cities"][0].update(revealed=True),
    "a Level of -3": lambda d: d["cities"][0].update(revealed=True, level=-3),
    "a Level of 10^50": lambda d: d["cities"][0].update(revealed=True, level=10**50),
    "a winner holding no city": lambda d: d.update(winner=0),
    "60 cards in a hand": lambda d: d["players"][1].update(hand=["BK1-001"] * 60),
    "the discard phase with a hand of 5": lambda d: (d.update(phase="discard"), d["players"][0].update(
        hand=d["players"][0]["hand"][:5])),
    "the discard phase with a hand of 7": lambda d: d.update(phase="discard"),
    "damage in the opening phase": lambda d: _first_unit(d, damage=1),
    "damage in the main phase before any battle": lambda d: (d.update(phase="main"), _first_unit(d, damage=1)),
    "a locked unit of the player on turn in its opening phase": lambda d: _first_unit(d, locked=True),
    "a hand of 8 before the draw": lambda d: (d.update(phase="draw", turn=2), d["players"][0].update(
        hand=d["players"][0]["hand"] + d["players"][0]["library"][:1], library=d["players"][0]["library"][1:])),
    "a hand of 9 in the opening phase": lambda d: d["players"][0].update(
        hand=d["players"][0]["hand"] + d["players"][0]["library"][:2], library=d["players"][0]["library"][2:]),
    "a locked attacker waiting for the defenders": lambda d: _pending(d, attacker_locked=True),
    "the defend phase on a city without able guards": lambda d: _pending(d, guard_locked=True),
}


@pytest.mark.parametrize("case", sorted(TCG_IMPOSSIBLE))
def test_the_tcg_reader_refuses_an_impossible_state_or_a_coerced_type(states: dict[str, Any], case: str) -> None:
    assert TCG.read_text(json.dumps(states["tcg"]))  # the untouched state reads
    assert TCG.read_text(changed(states["tcg"], _pending))  # and so does an attack waiting for its defenders
    refused(TCG, changed(states["tcg"], TCG_IMPOSSIBLE[case]))


def _ships(d: dict[str, Any], kind: str, n: int) -> None:
    free = [f"{f}{r}" for r in range(3, 7) for f in "abcdefgh"]
    d["ships"] += [{"side": "human" if kind != "berserker" else "berserker", "type": kind, "square": q,
                    "hits": 1} for q in free[:n]]


FLEET_IMPOSSIBLE: dict[str, Callable[[dict[str, Any]], None]] = {
    "sandbox is the text no": lambda d: d.update(sandbox="no"),
    "two Berserkers": lambda d: _ships(d, "berserker", 1),
    "no Berserker and no winner": lambda d: d.update(ships=[s for s in d["ships"] if s["side"] == "human"]),
    "63 C-Plus Gun Ships": lambda d: _ships(d, "c-plus-gun-ship", 32),
    "a winner while both fleets stand": lambda d: d.update(winner="human"),
    "the orders phase with a hand of 3": lambda d: d.update(phase="orders"),
    "a card more than the deck holds": lambda d: d["hands"]["human"].append("marines"),
    "the number as text": lambda d: d.update(number="3"),
    "hits as a float": lambda d: d["ships"][0].update(hits=1.0),
}


@pytest.mark.parametrize("case", sorted(FLEET_IMPOSSIBLE))
def test_the_fleet_reader_refuses_an_impossible_state_or_a_coerced_type(states: dict[str, Any], case: str) -> None:
    assert FLEET.read_text(json.dumps(states["fleet"]))
    refused(FLEET, changed(states["fleet"], FLEET_IMPOSSIBLE[case]))


# --- no traceback, and moves with a bound (families 1 and 3) -------------------------------------------

@pytest.mark.parametrize("name,change", [
    ("tcg", lambda d: (d.update(phase="discard"), d["players"][0].update(hand=d["players"][0]["hand"][:5]))),
    ("fleet", lambda d: d.update(phase="orders")),
], ids=["tcg discard with 5", "fleet orders with 3"])
def test_moves_of_a_state_with_too_small_a_hand_to_discard_is_one_error_line_never_a_traceback(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any], name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = tmp_path / "state.json"
    path.write_text(changed(states[name], change), encoding="utf-8")
    for extra in ([], ["--json"]):
        result = runner.invoke(app, [name, "moves", str(path), *extra])
        assert result.exit_code == 2 and result.exception is None or isinstance(result.exception, SystemExit)
        assert "Traceback" not in result.output and "not a possible" in result.output


def test_tcg_moves_with_24_unlocked_characters_lists_the_first_thousand_at_once(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any]) -> None:
    def army(d: dict[str, Any]) -> None:
        d["phase"] = "main"
        cards = [f"BK1-00{i}" for i in range(1, 9)] + [f"BK1-0{i}" for i in range(81, 97)]
        d["players"][0]["units"] = [{"card": c, "city": None, "locked": False, "damage": 0} for c in cards]

    path = tmp_path / "army.json"
    path.write_text(changed(states["tcg"], army), encoding="utf-8")
    start = time.perf_counter()
    result = runner.invoke(app, ["tcg", "moves", str(path), "--json"])
    assert result.exit_code == 0 and time.perf_counter() - start < 30  # unbounded: past 120 s and gigabytes
    out = json.loads(result.output)
    assert len(out["actions"]) == 1000 and out["complete"] is False
    assert len(set(out["actions"])) == 1000
    text = runner.invoke(app, ["tcg", "moves", str(path), "--limit", "3"]).output
    assert text.count("\n  ") == 3 and "note: the first 3 legal actions only" in text


@pytest.mark.parametrize("name", ["tcg", "fleet", "battle"])
def test_moves_refuses_a_limit_whose_listing_would_take_gigabytes(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any], name: str) -> None:
    """--limit bounds memory too: ten million listed actions are gigabytes of text, so the bound has a ceiling."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(states[name]), encoding="utf-8")
    result = runner.invoke(app, [name, "moves", str(path), "--limit", "10000000"])
    assert result.exit_code == 2 and "--limit" in result.output
    assert runner.invoke(app, [name, "moves", str(path), "--limit", "100000"]).exit_code == 0


@pytest.mark.parametrize("name", ["tcg", "fleet", "battle"])
def test_moves_limited_to_one_says_the_first_legal_action_in_the_singular(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any], name: str) -> None:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(states[name]), encoding="utf-8")
    text = runner.invoke(app, [name, "moves", str(path), "--limit", "1"]).output
    assert "note: the first legal action only: there are more" in text and "first 1 " not in text


# --- written states read back (family 4) ----------------------------------------------------------------

def test_tcg_new_refuses_to_write_a_state_over_the_size_of_a_readable_one(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "many.deck"
    deck.write_text("game: berserk-tcg\nmain:\n10000 BK1-001\n", encoding="utf-8")
    out = tmp_path / "g.json"
    result = runner.invoke(app, ["tcg", "new", str(deck), str(RED), "--out", str(out)])
    assert result.exit_code == 2 and "would not read back" in result.output and not out.exists()


def test_fleet_end_at_the_last_turn_number_is_illegal_rather_than_a_state_no_command_reads(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any]) -> None:
    path, out = tmp_path / "s.json", tmp_path / "out.json"
    path.write_text(changed(states["fleet"], lambda d: d.update(number=100000)), encoding="utf-8")
    result = runner.invoke(app, ["fleet", "apply", str(path), "end", "--out", str(out)])
    assert result.exit_code == 1 and "ILLEGAL_ACTION" in result.output and not out.exists()


def test_battle_end_at_the_last_turn_is_illegal_rather_than_a_state_no_command_reads(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any]) -> None:
    path, out = tmp_path / "s.json", tmp_path / "out.json"
    path.write_text(changed(states["battle"], lambda d: d.update(turn=100000)), encoding="utf-8")
    result = runner.invoke(app, ["battle", "apply", str(path), "end", "--out", str(out)])
    assert result.exit_code == 1 and "ILLEGAL_ACTION" in result.output and not out.exists()


# --- mutated states: read or refused, then played without a crash, and every write read back -----------------

FIELD_VALUES: list[Any] = [None, True, False, 0, 1, -1, 7, 10**50, 1.5, "", "x", "c1", "a2", "BK1-001", "marines",
                           "human", "main", "discard", [], {}, ["BK1-001"] * 9]


def _mutate(data: Any, path: list[Any], value: Any) -> None:
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _paths(data: Any, prefix: list[Any]) -> list[list[Any]]:
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            out.append(prefix + [k])
            out += _paths(v, prefix + [k])
    elif isinstance(data, list):
        for i, v in enumerate(data[:3]):
            out.append(prefix + [i])
            out += _paths(v, prefix + [i])
    return out


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["tcg", "fleet", "battle"]), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(FIELD_VALUES)),
                                                              min_size=1, max_size=3))
def test_a_mutated_state_is_read_or_refused_and_what_is_read_plays_and_writes_only_readable_states(
        states: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, name: str, changes: list[tuple[int, Any]]) -> None:
    from cardkit.games.squad_games.battle.engine import ENGINE as BATTLE_ENGINE

    engine = {"tcg": TCG, "fleet": FLEET, "battle": BATTLE_ENGINE}[name]
    data = json.loads(json.dumps(states[name]))
    for pick, value in changes:
        paths = _paths(data, [])
        _mutate(data, paths[pick % len(paths)], json.loads(json.dumps(value)))  # a fresh copy: no shared lists
    try:
        state = engine.read_text(json.dumps(data))
    except UnreadableInput:
        return
    moves = engine.moves(state, 50)
    tmp = tmp_path_factory.mktemp("mutated")
    for text in moves.actions[:5]:
        try:
            result = engine.apply_all(state, [text])
        except CardkitError:
            continue  # a listed battle action without its roll is refused with a reason
        if result.legal:
            engine.write(result.state, tmp / "out.json")
            engine.read(tmp / "out.json")


@pytest.mark.slow
def test_battle_moves_with_500_cards_in_the_reserve_stops_at_its_limit(states: dict[str, Any]) -> None:
    from cardkit.games.squad_games.battle.cards import battle_cards
    from cardkit.games.squad_games.battle.engine import ENGINE as BATTLE_ENGINE

    flyer = next(c for c, info in sorted(battle_cards("berserk-online").items()) if info.flyer and info.life)
    data = json.loads(json.dumps(states["battle"]))
    first = data["next_id"]
    data["cards"] += [{"id": first + k, "card": flyer, "owner": "first", "controller": "first", "zone": "reserve",
                       "square": None, "open": True, "hidden": False, "life": battle_cards("berserk-online")[flyer].life,
                       "counters": 0, "markers": {}, "acquired": [], "host": None}
                      for k in range(500 - len(data["cards"]))]
    data["next_id"] = first + 500
    moves = BATTLE_ENGINE.moves(BATTLE_ENGINE.read_text(json.dumps(data)), 200)
    assert len(moves.actions) == 200 and not moves.complete and len(set(moves.actions)) == 200


@pytest.mark.slow
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(["tcg", "fleet", "battle"]), st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(FIELD_VALUES)),
                                                              min_size=1, max_size=2))
def test_every_command_on_a_mutated_state_exits_0_1_or_2_and_whatever_it_writes_every_command_reads(
        states: dict[str, Any], tmp_path_factory: pytest.TempPathFactory, name: str, changes: list[tuple[int, Any]]) -> None:
    data = json.loads(json.dumps(states[name]))
    for pick, value in changes:
        paths = _paths(data, [])
        _mutate(data, paths[pick % len(paths)], json.loads(json.dumps(value)))
    tmp = tmp_path_factory.mktemp("cli")
    state, out = tmp / "state.json", tmp / "out.json"
    state.write_text(json.dumps(data), encoding="utf-8")
    runner = CliRunner()
    moves = runner.invoke(app, [name, "moves", str(state), "--json", "--limit", "5"])
    assert moves.exit_code in (0, 2) and (moves.exception is None or isinstance(moves.exception, SystemExit)), moves.output
    actions = json.loads(moves.output)["actions"] if moves.exit_code == 0 else ["end"]
    for action in actions[:2]:
        result = runner.invoke(app, [name, "apply", str(state), action, "--out", str(out)])
        assert result.exit_code in (0, 1, 2) and (result.exception is None or isinstance(result.exception, SystemExit))
        assert out.exists() == (result.exit_code == 0)
        if out.exists():
            assert runner.invoke(app, [name, "moves", str(out)]).exit_code == 0
            out.unlink()


@pytest.mark.parametrize("name,text", [("tcg", "open " + "B" * 100_000), ("fleet", "discard " + ",".join(["marines"] * 10_000))])
def test_an_illegal_action_of_a_hundred_kilobytes_is_named_short_in_its_problem(
        runner: CliRunner, tmp_path: Path, states: dict[str, Any], name: str, text: str) -> None:
    """A problem names the action as BAD_ACTION does, cut to a line: the text was echoed in full, twice under --json."""
    path = tmp_path / "state.json"
    path.write_text(json.dumps(states[name]), encoding="utf-8")
    for extra in ([], ["--json"]):
        result = runner.invoke(app, [name, "apply", str(path), text, *extra])
        assert result.exit_code == 1 and "ILLEGAL_ACTION" in result.output
        assert len(result.output) < 3000
