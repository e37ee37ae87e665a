"""The fleet game on the board: maneuver, fire, defense, Marines, victory, the shared deck; each rule quotes the text."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import BadActionText, CardkitError, IllegalAction
from cardkit.games.berserker.game import state as fleet_state
from cardkit.games.berserker.game.apply import apply
from cardkit.games.berserker.game.engine import ENGINE
from cardkit.games.berserker.game.legal import legal_actions
from cardkit.games.berserker.game.notation import Discard, End, Fire, Forward, Move, parse_action
from cardkit.games.berserker.game.setup import new_game
from cardkit.games.berserker.game.state import BoardState, ShipOnBoard, draw, standard_deck
from cardkit.games.berserker.model import load_rules
from cardkit.jsonio import read_json_input

ROOT = Path(__file__).resolve().parent.parent
HUMAN = ROOT / "decks/berserker/fleets/human-ram-screen.fleet.json"
BERSERKER = ROOT / "decks/berserker/fleets/berserker-centre.fleet.json"
HITS = {"berserker": 20, "c-plus-gun-ship": 1, "cruiser": 2, "ramship": 1}


def board(*ships: str, turn: str = "human", phase: str = "maneuver", hands: dict[str, tuple[str, ...]] | None = None,
          deck: tuple[str, ...] = (), discard: tuple[str, ...] = ()) -> BoardState:
    """`board("ramship@d6", "berserker@d7")`: human ships unless the type is the Berserker; sandbox without hands."""
    placed = tuple(ShipOnBoard("berserker" if t == "berserker" else "human", t, q, HITS[t])
                   for t, q in (s.split("@") for s in ships))
    return BoardState(ships=placed, turn=turn, phase=phase, sandbox=hands is None,
                      hands=hands or {"human": (), "berserker": ()}, deck=deck, discard=discard)


def hits_at(state: BoardState, square: str) -> int | None:
    ship = state.ship_at(square)
    return None if ship is None else ship.hits


def test_a_ramship_beside_the_berserker_playing_marines_does_2_damage_and_is_destroyed() -> None:
    """"If a Ramship uses a "Marines" Attack card the Ramship is destroyed. A Marines card does 2 points of damage"."""
    state = new_game(read_json_input(HUMAN), read_json_input(BERSERKER), sandbox=True)
    result = ENGINE.apply_all(state, ["move d2 d6 card very-fast", "end", "end", "move d6 d7 card tactical-speed",
                               "fire d7 d8 card marines"])
    assert result.legal, result.problems
    assert hits_at(result.state, "d8") == 18
    assert result.state.ship_at("d7") is None and len(result.state.fleet("human")) == 15
    assert [e["kind"] for e in result.events][-2:] == ["fired", "destroyed"]


def test_robot_security_negates_1_point_of_a_marines_attack() -> None:
    """"A "Robot Security" defense card negates 1 point of damage caused by a Marines card."."""
    state, _ = apply(board("ramship@d6", "berserker@d7"), parse_action("fire d6 d7 card marines defend robot-security"))
    assert hits_at(state, "d7") == 19 and state.ship_at("d6") is None


def test_robot_security_answers_only_marines() -> None:
    """"Robot Security 4 - D Berserker only vs Marines"."""
    with pytest.raises(IllegalAction, match="only Marines"):
        apply(board("ramship@d6", "berserker@d7"), Fire("d6", "d7", "point-blank", ("robot-security",)))


def test_a_ramship_is_destroyed_by_marines_even_when_superstructure_negates_the_attack() -> None:
    """"If a Ramship uses a "Marines" Attack card the Ramship is destroyed." (reading marines_user_destroyed_when_negated)"""
    state, _ = apply(board("ramship@d6", "berserker@d7"), Fire("d6", "d7", "marines", ("superstructure",)))
    assert hits_at(state, "d7") == 20 and state.ship_at("d6") is None


def test_a_c_plus_gun_ship_fires_extreme_over_the_ramship_in_front_of_it() -> None:
    """"Ships cannot attack through other ships except for C-Plus Guns: Their Projectiles skip through Normal and Hyperspace."."""
    state, events = apply(board("c-plus-gun-ship@d1", "ramship@d2", "berserker@d7"), Fire("d1", "d7", "extreme"))
    assert hits_at(state, "d7") == 19
    assert events[0]["kind"] == "fired" and events[0]["damage"] == 1


def test_a_cruiser_may_not_fire_through_the_ramship_in_front_of_it() -> None:
    """"Ships cannot attack through other ships except for C-Plus Guns"."""
    with pytest.raises(IllegalAction, match="in the way"):
        apply(board("cruiser@d1", "ramship@d2", "berserker@d5"), Fire("d1", "d5", "long"))


def test_a_ramship_may_not_play_long() -> None:
    """"Range = Type of Attack cards the unit can use (Maximum)": a Ramship's Range is 2, Long's is 4"""
    with pytest.raises(IllegalAction, match="above its Range of 2"):
        apply(board("ramship@d6", "berserker@d7"), Fire("d6", "d7", "long"))


def test_an_attack_reaches_any_distance_up_to_its_number_in_a_straight_line() -> None:
    """"The attack card has a number. This is the range of the attack." (reading attack_distance: a maximum)"""
    state, _ = apply(board("cruiser@a1", "berserker@d4"), Fire("a1", "d4", "long"))
    assert hits_at(state, "d4") == 19
    with pytest.raises(IllegalAction, match="range 2"):
        apply(board("cruiser@a1", "berserker@d4"), Fire("a1", "d4", "short"))
    with pytest.raises(IllegalAction, match="straight line"):
        apply(board("cruiser@a1", "berserker@b3"), Fire("a1", "b3", "long"))


def test_a_ship_may_not_move_twice_in_a_turn() -> None:
    """"A ship can only make one move per turn."."""
    state, _ = apply(board("ramship@d2", "berserker@d8"), Move("d2", "d4", "cruising-speed"))
    with pytest.raises(IllegalAction, match="one move per turn"):
        apply(state, Move("d4", "d5", "tactical-speed"))
    with pytest.raises(IllegalAction, match="one move per turn"):
        apply(state, Forward("tactical-speed", ("d4",)))


def test_a_ship_may_not_move_through_or_onto_another_ship() -> None:
    """"Ships cannot move through other ships."."""
    start = board("cruiser@d1", "ramship@d2", "ramship@f3", "berserker@d8")
    with pytest.raises(IllegalAction, match="through other ships"):
        apply(start, Move("d1", "d3", "cruising-speed"))
    with pytest.raises(IllegalAction, match="through other ships"):
        apply(start, Move("d1", "f3", "cruising-speed"))
    state, _ = apply(start, Move("d1", "b3", "cruising-speed"))
    assert state.ship_at("b3") is not None and state.ship_at("d1") is None


def test_a_move_card_moves_exactly_its_number_orthogonally_or_diagonally_within_the_speed() -> None:
    """"The move card has a number. This is the number of spaces the Ship moves." "Moves can be diagonal or orthogonal."."""
    start = board("cruiser@d1", "berserker@d8")
    assert apply(start, Move("d1", "g4", "fast"))[0].ship_at("g4") is not None
    with pytest.raises(IllegalAction, match="exactly 3"):
        apply(start, Move("d1", "d3", "fast"))
    with pytest.raises(IllegalAction, match="straight line"):
        apply(start, Move("d1", "e3", "cruising-speed"))
    # "Speed = Type of Move cards the unit can use (Maximum)"
    with pytest.raises(IllegalAction, match="Speed of 2"):
        apply(board("berserker@d8", turn="berserker"), Move("d8", "d5", "fast"))


def test_one_move_card_moves_several_ships_forward_and_a_column_advances_together() -> None:
    """"you have the option of moving one or more Ships forward the indicated number of spaces using a single move card"."""
    start = board("cruiser@d1", "ramship@d2", "ramship@e2", "berserker@d8")
    state, events = apply(start, Forward("tactical-speed", ("d1", "d2", "e2")))
    assert sorted(s.square for s in state.fleet("human")) == ["d2", "d3", "e3"]
    assert len(events) == 3
    with pytest.raises(IllegalAction, match="through other ships"):
        apply(start, Forward("tactical-speed", ("d1",)))


def test_the_berserker_moves_forward_towards_rank_1() -> None:
    """"moving one or more Ships forward" (MANEUVER PHASE): the Berserker sets up on the far back rows
    ("his back two rows"), so its forward is towards rank 1."""
    state, _ = apply(board("berserker@d8", turn="berserker"), Forward("cruising-speed", ("d8",)))
    assert state.ship_at("d6") is not None


def test_a_cruiser_attacks_at_most_twice_a_turn_and_the_berserker_three_times() -> None:
    """"Cruisers can make up to 2 attacks per turn. The Berserker can make up to 3 attacks per turn."."""
    state = board("cruiser@d1", "berserker@d4")
    for _ in range(2):
        state, _ = apply(state, Fire("d1", "d4", "medium"))
    with pytest.raises(IllegalAction, match="2 per turn"):
        apply(state, Fire("d1", "d4", "medium"))
    state = board("cruiser@a1", "cruiser@b1", "cruiser@c1", "cruiser@a2", "berserker@b2", turn="berserker")
    for target in ("a1", "b1", "c1"):
        state, _ = apply(state, Fire("b2", target, "short"))
    with pytest.raises(IllegalAction, match="3 per turn"):
        apply(state, Fire("b2", "a2", "short"))


def test_a_ship_reduced_to_zero_hits_sinks_and_a_cruiser_takes_two() -> None:
    """"Every attack does 1 point of damage." "A ship reduced to zero Hits sinks and removed from the board."."""
    state = board("cruiser@d1", "berserker@d4", turn="berserker")
    state, _ = apply(state, Fire("d4", "d1", "medium"))
    assert hits_at(state, "d1") == 1
    state, events = apply(state, Fire("d4", "d1", "medium"))
    assert state.ship_at("d1") is None and events[-2]["kind"] == "sunk"


def test_destroying_the_opposing_fleet_wins_and_ends_the_game() -> None:
    """"VICTORY Destroy the opposing fleet."."""
    state, events = apply(board("cruiser@d1", "berserker@d3", turn="berserker"), Fire("d3", "d1", "short"))
    state, events = apply(state, Fire("d3", "d1", "short"))
    assert state.winner == "berserker" and events[-1]["kind"] == "won"
    assert list(legal_actions(state)) == []
    with pytest.raises(IllegalAction, match="game is over"):
        apply(state, End())


def test_evasion_negates_an_attack_on_a_human_ship_but_not_on_the_berserker() -> None:
    """"Your opponent may play (discard) Defense cards to negate your attack." "Evasion 4 - D Humans only"."""
    state, events = apply(board("cruiser@d1", "berserker@d3", turn="berserker"), Fire("d3", "d1", "short", ("evasion",)))
    assert hits_at(state, "d1") == 2 and [e["kind"] for e in events] == ["defended", "fired"]
    with pytest.raises(IllegalAction, match="only human ships"):
        apply(board("cruiser@d1", "berserker@d3"), Fire("d1", "d3", "short", ("evasion",)))
    state, _ = apply(board("cruiser@d1", "berserker@d3"), Fire("d1", "d3", "short", ("superstructure",)))
    assert hits_at(state, "d3") == 20


def test_played_cards_come_from_the_hand_and_go_to_the_discard() -> None:
    """"Play (discard) a Move card to move one of your Ships."."""
    hands = {"human": ("fast", "marines"), "berserker": ("evasion", "superstructure")}
    start = board("cruiser@d1", "berserker@d8", hands=hands)
    with pytest.raises(IllegalAction, match="holds no Cruising Speed"):
        apply(start, Move("d1", "d3", "cruising-speed"))
    state, _ = apply(start, Move("d1", "d4", "fast"))
    assert state.hand("human") == ("marines",) and state.discard == ("fast",)
    with pytest.raises(IllegalAction, match="holds no Robot Security"):
        apply(board("ramship@d6", "berserker@d7", hands=hands), Fire("d6", "d7", "marines", ("robot-security",)))


def test_the_orders_phase_draws_3_and_the_hand_is_cut_to_5() -> None:
    """"ORDERS PHASE Draw 3 cards. Max hand size = 5 cards. ... Discard excess cards."."""
    hands = {"human": (), "berserker": ("long", "short", "fast")}
    state = board("cruiser@d1", "berserker@d8", hands=hands, deck=("medium", "evasion", "marines", "extreme"))
    state, _ = apply(state, End())
    assert state.turn == "berserker" and state.phase == "orders"
    assert state.hand("berserker") == ("long", "short", "fast", "medium", "evasion", "marines")
    assert list(legal_actions(state)) == [Discard((c,)) for c in sorted(state.hand("berserker"))]
    with pytest.raises(IllegalAction, match="discard down to 5"):
        apply(state, Move("d8", "d7", "tactical-speed"))
    state, _ = apply(state, Discard(("marines",)))
    assert state.phase == "maneuver" and len(state.hand("berserker")) == 5 and state.discard == ("marines",)


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_with_the_seed() -> None:
    """"If the deck runs out, shuffle the discard and draw from it."."""
    state = board("cruiser@d1", "berserker@d8", hands={"human": (), "berserker": ()}, deck=("fast",),
                  discard=("long", "short", "medium", "evasion"))
    after = draw(state, "human")
    assert after.hand("human")[0] == "fast" and after.reshuffles == 1
    assert sorted(after.hand("human")[1:] + after.deck) == ["evasion", "long", "medium", "short"]
    assert after.discard == () and draw(state, "human") == after


def test_the_same_seed_deals_the_same_game_and_the_deck_is_the_card_list() -> None:
    """"THE CARDS Players share a common deck." and the CARD LIST gives its cards with their counts."""
    human, berserker = read_json_input(HUMAN), read_json_input(BERSERKER)
    a, b, c = new_game(human, berserker, seed=7), new_game(human, berserker, seed=7), new_game(human, berserker, seed=8)
    assert a.to_dict() == b.to_dict() and a.deck != c.deck
    assert len(a.hand("human")) == 3 and len(a.deck) == 53
    assert sorted(a.deck + a.hand("human")) == sorted(standard_deck(load_rules()))
    assert new_game(human, berserker, first="berserker").turn == "berserker"


def test_every_legal_action_prints_as_text_that_parses_back_to_it() -> None:
    states = [new_game(read_json_input(HUMAN), read_json_input(BERSERKER), sandbox=True),
              board("ramship@d6", "cruiser@c5", "c-plus-gun-ship@a1", "berserker@d7")]
    seen = 0
    for state in states:
        for action in legal_actions(state):
            assert parse_action(str(action)) == action
            apply(state, action)
            seen += 1
    assert seen > 50


def test_the_state_round_trips_through_json() -> None:
    state = new_game(read_json_input(HUMAN), read_json_input(BERSERKER), seed=5)
    assert fleet_state.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize("text", ["move d2", "fly d2 d4", "move z9 d4 card fast", "move d2 d4 card warp"],
                         ids=["short", "verb", "square", "card"])
def test_text_that_is_no_action_is_refused(text: str) -> None:
    with pytest.raises(BadActionText):
        parse_action(text)


def test_fleet_new_moves_apply_write_the_state_and_apply_json_has_the_issue_shape(runner: CliRunner,
                                                                                tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    result = runner.invoke(app, ["fleet", "new", str(HUMAN), str(BERSERKER), "--sandbox", "--out", str(state)])
    assert result.exit_code == 0, result.output
    moves = runner.invoke(app, ["fleet", "moves", str(state), "--json"])
    assert "move d2 d6 card very-fast" in json.loads(moves.output)["actions"]
    after = tmp_path / "after.json"
    result = runner.invoke(app, ["fleet", "apply", str(state), "move d2 d6 card very-fast", "--out", str(after), "--json"])
    out = json.loads(result.output)
    assert result.exit_code == 0 and list(out) == ["path", "legal", "applied", "problems", "events", "state"]
    assert list(out["state"]) == ["ships", "turn", "winner"]
    assert list(out["state"]["ships"][0]) == ["side", "type", "square", "hits"]
    assert fleet_state.from_dict(read_json_input(after)).ship_at("d6") is not None


def test_an_illegal_action_is_exit_1_and_writes_nothing(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    runner.invoke(app, ["fleet", "new", str(HUMAN), str(BERSERKER), "--sandbox", "--out", str(state)])
    after = tmp_path / "after.json"
    result = runner.invoke(app, ["fleet", "apply", str(state), "move d2 d6 card very-fast",
                                 "move d6 d7 card tactical-speed", "--out", str(after), "--json"])
    assert result.exit_code == 1
    out = json.loads(result.output)
    assert out["legal"] is False and out["problems"][0]["code"] == "ILLEGAL_ACTION" and out["problems"][0]["line"] == 2
    assert not after.exists()


def test_the_commands_never_write_over_their_input(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    runner.invoke(app, ["fleet", "new", str(HUMAN), str(BERSERKER), "--out", str(state)])
    before = state.read_bytes()
    result = runner.invoke(app, ["fleet", "apply", str(state), "end", "--out", str(state)])
    assert result.exit_code == 2 and "input" in result.output and state.read_bytes() == before
    copy = tmp_path / "human.json"
    copy.write_bytes(HUMAN.read_bytes())
    result = runner.invoke(app, ["fleet", "new", str(copy), str(BERSERKER), "--out", str(copy)])
    assert result.exit_code == 2 and copy.read_bytes() == HUMAN.read_bytes()


@pytest.mark.parametrize("args", [["fleet", "apply", "STATE", "teleport d2"], ["fleet", "moves", "BROKEN"],
                                  ["fleet", "new", str(BERSERKER), str(HUMAN), "--out", "OUT"]],
                         ids=["bad action", "not a state", "sides swapped"])
def test_unusable_input_is_one_error_line_and_exit_2(runner: CliRunner, tmp_path: Path, args: list[str]) -> None:
    state = tmp_path / "game.json"
    runner.invoke(app, ["fleet", "new", str(HUMAN), str(BERSERKER), "--out", str(state)])
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "cardkit-fleet-board", "ships": 3}')
    args = [str(state) if a == "STATE" else str(broken) if a == "BROKEN" else str(tmp_path / "o.json") if a == "OUT"
            else a for a in args]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ") and "Traceback" not in result.output


def test_a_damaged_state_file_is_refused_or_played_never_a_crash(runner: CliRunner, tmp_path: Path) -> None:
    state = tmp_path / "game.json"
    runner.invoke(app, ["fleet", "new", str(HUMAN), str(BERSERKER), "--seed", "2", "--out", str(state)])
    good = json.loads(state.read_text())
    keys = [(k,) for k in good] + [("ships", 0, k) for k in good["ships"][0]] + [("hands", "human")]
    for path in keys:
        for bad in [None, "x", -1, 99, [], {}, True, ["zz"]]:
            data = json.loads(json.dumps(good))
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = bad
            try:
                ENGINE.apply_all(ENGINE.read_text(json.dumps(data)), ["end"])
            except CardkitError:
                pass  # the CLI shows it as one `error:` line


def test_the_listed_forward_group_is_the_largest_and_holds_every_legal_group() -> None:
    """"moving one or more Ships forward the indicated number of spaces using a single move card"."""
    start = board("cruiser@d1", "ramship@d2", "ramship@e2", "ramship@f2", "cruiser@f1", "berserker@e4")
    every = {a.squares for a in legal_actions(start, all_groups=True) if isinstance(a, Forward)
             and a.card == "cruising-speed"}
    listed = [a.squares for a in legal_actions(start) if isinstance(a, Forward) and a.card == "cruising-speed"]
    assert len(listed) == 1 and listed[0] in every
    assert all(set(g) <= set(listed[0]) for g in every)
    assert "e2" not in listed[0], "the Berserker on e4 blocks the Ramship on e2 two squares forward"
    assert ("d1",) not in every and ("d1", "d2") in every


def test_the_library_examples_in_the_docs_run(monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    monkeypatch.chdir(ROOT)
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "fleet.md").read_text(encoding="utf-8"), re.S)
    assert blocks
    for code in blocks:
        exec(compile(code, "fleet.md", "exec"), {})


def test_two_robot_security_cards_cancel_a_two_point_marines_attack() -> None:
    """Your opponent may play (discard) Defense cards to negate your attack."""
    hands = {"human": ("marines",), "berserker": ("robot-security", "robot-security", "superstructure")}
    start = board("ramship@d6", "berserker@d7", hands=hands)
    state, events = apply(start, parse_action("fire d6 d7 card marines defend robot-security,robot-security"))
    assert hits_at(state, "d7") == 20 and [e["kind"] for e in events][:2] == ["defended", "defended"]
    assert state.hand("berserker") == ("superstructure",) and state.discard.count("robot-security") == 2
    one, _ = apply(start, parse_action("fire d6 d7 card marines defend robot-security"))
    assert hits_at(one, "d7") == 19
    listed = {str(a) for a in legal_actions(start)}
    assert {"fire d6 d7 card marines defend robot-security,robot-security",
            "fire d6 d7 card marines defend robot-security,robot-security,superstructure"} <= listed
    with pytest.raises(IllegalAction, match="holds 2 Robot Security, not 3"):
        apply(start, parse_action("fire d6 d7 card marines defend robot-security,robot-security,robot-security"))


def test_a_defense_card_answers_only_what_it_may_even_beside_another() -> None:
    """A "Robot Security" defense card negates 1 point of damage caused by a Marines card."""
    hands = {"human": ("point-blank",), "berserker": ("robot-security", "superstructure")}
    with pytest.raises(IllegalAction, match="answers only Marines"):
        apply(board("ramship@d6", "berserker@d7", hands=hands),
              parse_action("fire d6 d7 card point-blank defend robot-security,superstructure"))


def test_players_take_turns_of_orders_maneuver_and_fire_in_that_order() -> None:
    """"TURN SEQUENCE Players take turns. Each turn has 3 phases: Orders Phase Maneuver Phase Fire Phase":
    the first fire ends the maneuvers, `end` passes the turn, and the next player's orders draw its 3 cards."""
    hands = {"human": ("tactical-speed", "short", "tactical-speed"), "berserker": ()}
    state = board("cruiser@d1", "cruiser@e1", "berserker@d3", hands=hands, deck=("fast", "long", "medium", "evasion"))
    state, _ = apply(state, Move("e1", "e2", "tactical-speed"))
    assert (state.turn, state.phase) == ("human", "maneuver")
    state, _ = apply(state, Fire("d1", "d3", "short"))
    assert (state.turn, state.phase) == ("human", "fire")
    with pytest.raises(IllegalAction, match="fire phase"):
        apply(state, Move("d1", "d2", "tactical-speed"))
    state, _ = apply(state, End())
    assert (state.turn, state.phase) == ("berserker", "maneuver")
    assert state.hand("berserker") == ("fast", "long", "medium") and state.deck == ("evasion",)
