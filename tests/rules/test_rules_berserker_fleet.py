"""The Berserker fleet game text (English), rule by rule: each test cites its rule id of index.json and quotes
the sentence it rests on under the text's capitalised heading (SETUP, ORDERS PHASE, ...)."""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engine_play import apply_through

from cardkit.errors import IllegalAction
from cardkit.games.berserker.game.engine import ENGINE
from cardkit.games.berserker.game.legal import legal_actions
from cardkit.games.berserker.game.notation import Forward, Move, parse_action
from cardkit.games.berserker.game.setup import check_fleet, new_game
from cardkit.games.berserker.game.state import BadFleets, BoardState, ShipOnBoard, draw, standard_deck
from cardkit.games.berserker.model import load_rules
from cardkit.games.berserker.usage import can_use_named
from cardkit.jsonio import read_json_input

ROOT = Path(__file__).resolve().parents[2]
HUMAN = read_json_input(ROOT / "decks/berserker/fleets/human-ram-screen.fleet.json")
BERSERKER = read_json_input(ROOT / "decks/berserker/fleets/berserker-centre.fleet.json")
HITS = {"berserker": 20, "c-plus-gun-ship": 1, "cruiser": 2, "ramship": 1}



def apply(state: BoardState, action: object) -> tuple[BoardState, list[dict[str, Any]]]:
    return apply_through(ENGINE, state, action)

def board(*ships: str, turn: str = "human", phase: str = "maneuver") -> BoardState:
    """`board("ramship@d6", "berserker@d7")`: a sandbox (no hands) with human ships unless the type is the Berserker."""
    placed = tuple(ShipOnBoard("berserker" if t == "berserker" else "human", t, q, HITS[t])
                   for t, q in (s.split("@") for s in ships))
    return BoardState(ships=placed, turn=turn, phase=phase, sandbox=True, hands={"human": (), "berserker": ()})


def play(state: BoardState, text: str) -> BoardState:
    return apply(state, parse_action(text))[0]


def refused(state: BoardState, text: str, match: str) -> None:
    with pytest.raises(IllegalAction, match=match):
        apply(state, parse_action(text))


def fleet_problems(data: dict[str, Any]) -> list[str]:
    return [p.code for p in check_fleet(data).problems]


def game(seed: int = 0) -> BoardState:
    return new_game(HUMAN, BERSERKER, seed=seed)


# -- the game, the map, the ships ----------------------------------------------------------------------------

@pytest.mark.rule("fleet-intro")
def test_the_game_is_a_human_fleet_against_a_berserker_ship() -> None:
    """INTRODUCTION: "Board & card game for 2 players. Human fleet vs a Berserker Ship."."""
    state = game()
    assert {s.side for s in state.ships} == {"human", "berserker"} and len(state.fleet("berserker")) == 1
    with pytest.raises(BadFleets, match="expected the berserker fleet"):
        new_game(HUMAN, HUMAN)


@pytest.mark.rule("fleet-victory")
def test_destroying_the_opposing_fleet_wins() -> None:
    """VICTORY: "Destroy the opposing fleet." (data/rules/berserker.json, mutual_destruction)."""
    state, events = apply(board("cruiser@d4", "berserker@d6", turn="berserker"),
                          parse_action("fire d6 d4 card short"))
    assert state.winner is None and state.ship_at("d4").hits == 1
    state = play(state, "fire d6 d4 card short")
    assert state.winner == "berserker"
    both, _ = apply(board("ramship@d6", "cruiser@a1", "berserker@d7"), parse_action("fire d6 d7 card marines"))
    assert both.winner is None, "20 hits survive a Marines attack"
    last = BoardState(ships=(ShipOnBoard("human", "ramship", "d6", 1), ShipOnBoard("berserker", "berserker", "d7", 2)),
                      turn="human", phase="maneuver", sandbox=True, hands={"human": (), "berserker": ()})
    assert play(last, "fire d6 d7 card marines").winner == "human"


@pytest.mark.rule("fleet-map")
def test_the_map_is_an_8x8_board() -> None:
    """THE MAP: "Use an 8x8 chessboard."."""
    off = copy.deepcopy(BERSERKER)
    off["ships"][0]["square"] = "i8"
    assert fleet_problems(off) == ["OFF_BOARD"]
    off["ships"][0]["square"] = "d9"
    assert fleet_problems(off) == ["OFF_BOARD"]
    off["ships"][0]["square"] = "h8"
    assert fleet_problems(off) == []


@pytest.mark.rule("fleet-berserker")
def test_the_berserker_is_one_ship_of_20_hits_speed_2_range_5() -> None:
    """THE BERSERKER: "1 Berserker 20 2 5" (# Type Hits Speed Range)."""
    b = load_rules().ships["berserker"]
    assert (b.count, b.hits, b.speed, b.range, b.side) == (1, 20, 2, 5, "berserker")
    assert game().fleet("berserker")[0].hits == 20


@pytest.mark.rule("fleet-units")
def test_the_human_fleet_is_4_c_plus_gun_ships_4_cruisers_and_8_ramships_with_their_table_values() -> None:
    """HUMAN FLEET UNIT TABLE: "4 C-Plus Gun Ship 1 2 6 4 Cruiser 2 3 4 8 Ramship 1 4 2"."""
    ships = load_rules().ships
    table = {sid: (s.count, s.hits, s.speed, s.range) for sid, s in ships.items() if s.side == "human"}
    assert table == {"c-plus-gun-ship": (4, 1, 2, 6), "cruiser": (4, 2, 3, 4), "ramship": (8, 1, 4, 2)}
    assert Counter(s.type for s in game().fleet("human")) == {"c-plus-gun-ship": 4, "cruiser": 4, "ramship": 8}


@pytest.mark.rule("fleet-units-count")
def test_a_fleet_starts_with_exactly_the_number_of_each_type_the_table_gives() -> None:
    """HUMAN FLEET UNIT TABLE: "# = Number of that type of Ship you start the game with."."""
    fewer = copy.deepcopy(HUMAN)
    fewer["ships"] = fewer["ships"][:-1]
    assert fleet_problems(fewer) == ["WRONG_FLEET"]
    assert fleet_problems(HUMAN) == []


@pytest.mark.rule("fleet-units-hits")
def test_a_ship_starts_with_the_hits_of_its_type() -> None:
    """HUMAN FLEET UNIT TABLE: "Hits = Number of Hits that type of Ship has."."""
    assert {(s.type, s.hits) for s in game().ships} == {(t, h) for t, h in HITS.items()}


@pytest.mark.rule("fleet-units-speed")
def test_a_ship_uses_move_cards_up_to_its_speed() -> None:
    """HUMAN FLEET UNIT TABLE: "Speed = Type of Move cards the unit can use (Maximum)"."""
    assert can_use_named("fast", "cruiser").allowed and not can_use_named("fast", "c-plus-gun-ship").allowed
    assert can_use_named("cruising-speed", "berserker").allowed and not can_use_named("fast", "berserker").allowed
    refused(board("c-plus-gun-ship@d2"), "move d2 d5 card fast", "above its Speed")


@pytest.mark.rule("fleet-units-range")
def test_a_ship_uses_attack_cards_up_to_its_range() -> None:
    """HUMAN FLEET UNIT TABLE: "Range = Type of Attack cards the unit can use (Maximum)"."""
    assert can_use_named("long", "cruiser").allowed and not can_use_named("very-long", "cruiser").allowed
    assert can_use_named("short", "ramship").allowed and not can_use_named("medium", "ramship").allowed
    refused(board("ramship@d2", "berserker@d4"), "fire d2 d4 card medium", "above its Range")


# -- set-up and the deck -------------------------------------------------------------------------------------

@pytest.mark.rule("fleet-setup")
def test_each_player_sets_up_on_its_back_two_rows() -> None:
    """SETUP: "Each player places one Ship on each square of his back two rows."."""
    forward = copy.deepcopy(HUMAN)
    forward["ships"][0]["square"] = "a3"
    assert "SQUARE_NOT_ALLOWED" in fleet_problems(forward)
    berserker = copy.deepcopy(BERSERKER)
    berserker["ships"][0]["square"] = "d7"
    assert fleet_problems(berserker) == []
    berserker["ships"][0]["square"] = "d6"
    assert fleet_problems(berserker) == ["SQUARE_NOT_ALLOWED"]
    assert {s.square[1] for s in game().fleet("human")} == {"1", "2"} and len(game().fleet("human")) == 16


@pytest.mark.rule("fleet-setup-stack")
def test_ships_may_not_stack() -> None:
    """SETUP: "Ships may not stack."."""
    stacked = copy.deepcopy(HUMAN)
    stacked["ships"][1]["square"] = stacked["ships"][0]["square"]
    assert "SQUARE_TAKEN" in fleet_problems(stacked)
    two = BoardState(ships=(ShipOnBoard("human", "ramship", "d4", 1), ShipOnBoard("human", "cruiser", "d4", 2),
                            ShipOnBoard("berserker", "berserker", "d8", 20)),
                     turn="human", sandbox=True, phase="maneuver", hands={"human": (), "berserker": ()})
    assert any("may not stack" in p.message for p in ENGINE.check(two))


@pytest.mark.rule("fleet-cards")
def test_the_players_share_one_common_deck() -> None:
    """THE CARDS: "Players share a common deck."."""
    state = game(seed=7)
    held = Counter(state.deck) + Counter(state.hand("human")) + Counter(state.hand("berserker"))
    assert held == Counter(standard_deck(load_rules()))
    after = play(state, "end")
    assert after.deck == state.deck[3:] and after.hand("berserker") == state.deck[:3]


# -- the turn ------------------------------------------------------------------------------------------------

@pytest.mark.rule("fleet-turns")
def test_players_take_turns_each_of_orders_maneuver_and_fire() -> None:
    """TURN SEQUENCE: "Players take turns. Each turn has 3 phases: Orders Phase Maneuver Phase Fire Phase"."""
    state = board("ramship@d2", "berserker@d5")
    assert state.turn == "human"
    fired = play(board("ramship@d3", "berserker@d5"), "fire d3 d5 card short")
    assert fired.phase == "fire"
    refused(fired, "move d3 d4 card tactical-speed", "not in the fire phase")
    after = play(fired, "end")
    assert (after.turn, after.phase) == ("berserker", "maneuver")


@pytest.mark.rule("fleet-orders-draw")
def test_the_orders_phase_draws_3_cards() -> None:
    """ORDERS PHASE: "Draw 3 cards."."""
    state = game(seed=1)
    assert len(state.hand("human")) == 3 and len(state.deck) == sum(c.count for c in load_rules().cards.values()) - 3


@pytest.mark.rule("fleet-orders-hand")
def test_a_hand_over_5_cards_discards_the_excess_before_maneuvering() -> None:
    """ORDERS PHASE: "Max hand size = 5 cards. ... Discard excess cards." (data/rules/berserker.json,
    hand_limit_discard: the player chooses what to discard)."""
    state = play(play(game(seed=2), "end"), "end")  # the human now holds 6
    assert len(state.hand("human")) == 6 and state.phase == "orders"
    refused(state, "end", "discard down to 5")
    card = state.hand("human")[0]
    after = play(state, f"discard {card}")
    assert len(after.hand("human")) == 5 and after.phase == "maneuver" and after.discard[-1] == card


@pytest.mark.rule("fleet-orders-reshuffle")
def test_when_the_deck_runs_out_the_discard_is_shuffled_and_drawn_from() -> None:
    """ORDERS PHASE: "If the deck runs out, shuffle the discard and draw from it."."""
    state = game(seed=3)
    emptied = replace(state, deck=state.deck[:1], discard=state.deck[1:])
    drawn = draw(emptied, "berserker")
    assert len(drawn.hand("berserker")) == 3 and drawn.reshuffles == 1
    assert Counter(drawn.deck) + Counter(drawn.hand("berserker")) == Counter(state.deck)


@pytest.mark.rule("fleet-maneuver-card")
def test_a_move_card_is_played_and_discarded_to_move_one_ship() -> None:
    """MANEUVER PHASE: "Play (discard) a Move card to move one of your Ships."."""
    state = game(seed=4)
    move = next(a for a in legal_actions(state) if isinstance(a, Move))
    after = play(state, str(move))
    assert after.discard == (move.card,)
    assert Counter(after.hand("human")) + Counter({move.card: 1}) == Counter(state.hand("human"))
    assert after.ship_at(move.to) is not None and after.ship_at(move.frm) is None


@pytest.mark.rule("fleet-maneuver-distance")
def test_a_ship_moves_the_number_of_spaces_on_its_move_card() -> None:
    """MANEUVER PHASE: "The move card has a number. This is the number of spaces the Ship moves."
    (data/rules/berserker.json, move_distance: exactly that many)."""
    state = board("cruiser@d2", "berserker@d8")
    assert play(state, "move d2 d4 card cruising-speed").ship_at("d4") is not None
    refused(state, "move d2 d3 card cruising-speed", "exactly 2")


@pytest.mark.rule("fleet-maneuver-table")
def test_a_ship_plays_only_the_move_cards_its_unit_table_row_allows() -> None:
    """MANEUVER PHASE: "The Unit tables list what type of Move cards each unit can use."."""
    refused(board("cruiser@d2", "berserker@d8"), "move d2 d6 card very-fast", "Ramship")
    assert play(board("ramship@d2", "berserker@d8"), "move d2 d6 card very-fast").ship_at("d6") is not None


@pytest.mark.rule("fleet-maneuver-lines")
def test_moves_are_orthogonal_or_diagonal() -> None:
    """MANEUVER PHASE: "Moves can be diagonal or orthogonal."."""
    state = board("cruiser@d2", "berserker@h8")
    for to in ("d4", "f4", "b2", "b4"):
        assert play(state, f"move d2 {to} card cruising-speed").ship_at(to) is not None
    refused(state, "move d2 e4 card cruising-speed", "straight line")


@pytest.mark.rule("fleet-maneuver-forward")
def test_one_move_card_may_move_several_ships_forward() -> None:
    """MANEUVER PHASE: "you have the option of moving one or more Ships forward the indicated number of spaces using a
    single move card." (data/rules/berserker.json, forward_group_passes_through_itself)."""
    state = board("ramship@a2", "ramship@b2", "ramship@c2", "cruiser@c1", "berserker@h8")
    after, events = apply(state, Forward("tactical-speed", ("a2", "b2", "c2", "c1")))
    assert {s.square for s in after.fleet("human")} == {"a3", "b3", "c3", "c2"} and len(events) == 4
    backward = board("berserker@d7", "ramship@d1", turn="berserker")
    assert play(backward, "forward tactical-speed d7").ship_at("d6") is not None, "the Berserker's forward is down"


@pytest.mark.rule("fleet-maneuver-through")
def test_ships_cannot_move_through_other_ships() -> None:
    """MANEUVER PHASE: "Ships cannot move through other ships."."""
    state = board("cruiser@d2", "ramship@d3", "berserker@h8")
    refused(state, "move d2 d4 card cruising-speed", "cannot move through")
    refused(board("cruiser@d2", "berserker@d3"), "move d2 d3 card tactical-speed", "cannot move through")


@pytest.mark.rule("fleet-maneuver-once")
def test_a_ship_makes_at_most_one_move_per_turn() -> None:
    """MANEUVER PHASE: "A ship can only make one move per turn." (data/rules/berserker.json, move_cards_per_turn:
    several cards a turn, each for ships that have not moved)."""
    state = play(board("cruiser@d2", "ramship@a2", "berserker@h8"), "move d2 d3 card tactical-speed")
    refused(state, "move d3 d4 card tactical-speed", "one move per turn")
    assert play(state, "move a2 a3 card tactical-speed").ship_at("a3") is not None


# -- fire ----------------------------------------------------------------------------------------------------

@pytest.mark.rule("fleet-fire-card")
def test_an_attack_card_is_played_and_discarded_to_have_a_ship_attack() -> None:
    """FIRE PHASE: "Play (discard) an Attack card to have a Ship attack."."""
    state = BoardState(ships=(ShipOnBoard("human", "cruiser", "d5", 2), ShipOnBoard("berserker", "berserker", "d7", 20)),
                       turn="human", phase="maneuver", deck=_rest(("short", "long", "evasion")),
                       hands={"human": ("short", "long"), "berserker": ("evasion",)})
    assert ENGINE.check(state) == []
    after = play(state, "fire d5 d7 card short")
    assert after.hand("human") == ("long",) and after.discard[-1] == "short"
    refused(state, "fire d5 d7 card medium", "holds no Medium")


def _rest(held: tuple[str, ...]) -> tuple[str, ...]:
    deck = Counter(standard_deck(load_rules())) - Counter(held)
    return tuple(sorted(deck.elements()))


@pytest.mark.rule("fleet-fire-range")
def test_an_attack_reaches_as_far_as_the_number_on_its_card() -> None:
    """FIRE PHASE: "The attack card has a number. This is the range of the attack." (data/rules/berserker.json,
    attack_distance: at most that far)."""
    state = board("cruiser@d2", "berserker@d5")
    assert play(state, "fire d2 d5 card medium").ship_at("d5").hits == 19
    assert play(state, "fire d2 d5 card long").ship_at("d5").hits == 19
    refused(state, "fire d2 d5 card short", "range 2")


@pytest.mark.rule("fleet-fire-table")
def test_a_ship_plays_only_the_attack_cards_its_unit_table_row_allows() -> None:
    """FIRE PHASE: "The Unit tables list what type of Attack cards each unit can use."."""
    refused(board("cruiser@d2", "berserker@d8"), "fire d2 d8 card extreme", "C-Plus")
    assert play(board("c-plus-gun-ship@d2", "berserker@d8"), "fire d2 d8 card extreme").ship_at("d8").hits == 19


@pytest.mark.rule("fleet-fire-lines")
def test_attacks_are_orthogonal_or_diagonal() -> None:
    """FIRE PHASE: "Attacks can be diagonal or orthogonal."."""
    for target in ("d5", "g5", "a2"):
        assert play(board("cruiser@d2", f"berserker@{target}"), f"fire d2 {target} card medium").winner is None
    refused(board("cruiser@d2", "berserker@e4"), "fire d2 e4 card medium", "straight line")


@pytest.mark.rule("fleet-fire-damage")
def test_every_attack_does_1_point_of_damage() -> None:
    """FIRE PHASE: "Every attack does 1 point of damage."."""
    for card in ("point-blank", "short", "medium", "long"):
        assert play(board("cruiser@d4", "berserker@d5"), f"fire d4 d5 card {card}").ship_at("d5").hits == 19


@pytest.mark.rule("fleet-fire-record")
def test_damage_is_recorded_on_the_ship_and_kept_in_the_state() -> None:
    """FIRE PHASE: "Use Chits or coins to record damage." — the state keeps each ship's hits left."""
    state = play(board("cruiser@d4", "berserker@d5"), "fire d4 d5 card short")
    again = ENGINE.from_dict(ENGINE.to_dict(state))
    assert again.ship_at("d5").hits == 19 and ENGINE.check(again) == []


@pytest.mark.rule("fleet-fire-sink")
def test_a_ship_reduced_to_zero_hits_sinks_and_is_removed() -> None:
    """FIRE PHASE: "A ship reduced to zero Hits sinks and removed from the board."."""
    state, events = apply(board("ramship@d4", "cruiser@a1", "berserker@d6", turn="berserker"),
                          parse_action("fire d6 d4 card short"))
    assert state.ship_at("d4") is None and events[-1]["kind"] == "sunk"


@pytest.mark.rule("fleet-fire-defense")
def test_the_opponent_may_play_a_defense_card_to_negate_the_attack() -> None:
    """FIRE PHASE: "Your opponent may play (discard) Defense cards to negate your attack." (data/rules/berserker.json,
    defense_cards: several cards, each doing what it says)."""
    state = board("cruiser@d4", "berserker@d6", turn="berserker")
    assert play(state, "fire d6 d4 card short defend evasion").ship_at("d4").hits == 2
    refused(state, "fire d6 d4 card short defend superstructure", "only berserker ships")
    assert play(board("cruiser@d4", "berserker@d6"), "fire d4 d6 card short defend superstructure") \
        .ship_at("d6").hits == 20


@pytest.mark.rule("fleet-fire-through")
def test_ships_cannot_attack_through_other_ships_except_c_plus_guns() -> None:
    """FIRE PHASE: "Ships cannot attack through other ships except for C-Plus Guns"."""
    refused(board("cruiser@d2", "ramship@d3", "berserker@d5"), "fire d2 d5 card medium", "in the way")
    through = play(board("c-plus-gun-ship@d2", "ramship@d3", "berserker@d5"), "fire d2 d5 card medium")
    assert through.ship_at("d5").hits == 19


@pytest.mark.rule("fleet-fire-cruiser")
def test_a_cruiser_makes_up_to_2_attacks_per_turn() -> None:
    """FIRE PHASE: "Cruisers can make up to 2 attacks per turn."."""
    state = play(play(board("cruiser@d4", "berserker@d6"), "fire d4 d6 card short"), "fire d4 d6 card short")
    assert state.ship_at("d6").hits == 18
    refused(state, "fire d4 d6 card short", "2 per turn")
    refused(play(board("ramship@d4", "berserker@d6"), "fire d4 d6 card short"), "fire d4 d6 card short", "1 per turn")


@pytest.mark.rule("fleet-fire-berserker")
def test_the_berserker_makes_up_to_3_attacks_per_turn() -> None:
    """FIRE PHASE: "The Berserker can make up to 3 attacks per turn."."""
    state = board("cruiser@d4", "cruiser@f4", "cruiser@a1", "berserker@d6", turn="berserker")
    for target in ("d4", "f4", "d4"):
        state = play(state, f"fire d6 {target} card short")
    assert state.attacks["d6"] == 3
    refused(state, "fire d6 d4 card short", "3 per turn")


@pytest.mark.rule("fleet-fire-marines-ram")
def test_a_ramship_playing_marines_is_destroyed() -> None:
    """FIRE PHASE: "If a Ramship uses a "Marines" Attack card the Ramship is destroyed." (data/rules/berserker.json,
    marines_user_destroyed_when_negated: even when the attack is negated)."""
    state, events = apply(board("ramship@d6", "cruiser@a1", "berserker@d7"), parse_action("fire d6 d7 card marines"))
    assert state.ship_at("d6") is None and events[-1]["kind"] == "destroyed"
    refused(board("cruiser@d6", "berserker@d7"), "fire d6 d7 card marines", "Ramship")


@pytest.mark.rule("fleet-fire-marines-damage")
def test_a_marines_card_does_2_points_of_damage() -> None:
    """FIRE PHASE: "A Marines card does 2 points of damage (1 from the Ram, 1 from the Boarders)."."""
    state = play(board("ramship@d6", "cruiser@a1", "berserker@d7"), "fire d6 d7 card marines")
    assert state.ship_at("d7").hits == 18


@pytest.mark.rule("fleet-fire-robot-security")
def test_each_robot_security_negates_1_point_of_a_marines_attack() -> None:
    """FIRE PHASE: "A "Robot Security" defense card negates 1 point of damage caused by a Marines card."
    (data/rules/berserker.json, defense_cards: two of them cancel its 2 points)."""
    start = board("ramship@d6", "cruiser@a1", "berserker@d7")
    assert play(start, "fire d6 d7 card marines defend robot-security").ship_at("d7").hits == 19
    assert play(start, "fire d6 d7 card marines defend robot-security,robot-security").ship_at("d7").hits == 20
    refused(board("cruiser@d6", "berserker@d7"), "fire d6 d7 card short defend robot-security", "Marines")


# -- the card list -------------------------------------------------------------------------------------------

@pytest.mark.rule("fleet-notation")
def test_every_card_is_a_move_an_attack_or_a_defense_card() -> None:
    """CARD LIST NOTATION: "M = Movement A = Attack D = Defense X = Special" — the list has no X card."""
    kinds = Counter(c.type for c in load_rules().cards.values())
    assert kinds == {"attack": 7, "move": 4, "defense": 3}


@pytest.mark.rule("fleet-card-list")
def test_the_shared_deck_is_the_card_lists_56_cards_with_their_numbers() -> None:
    """CARD LIST: "Marines 8 1 A ... Point Blank 2 1 A Short 2 2 A Medium 2 3 A Long 2 4 A Very Long 2 5 A Extreme 4 6
    A ... Tactical Speed 7 1 M Cruising Speed 6 2 M Fast 5 3 M Very Fast 4 4 M ... Evasion 4 - D ...
    Superstructure 4 - D ... Robot Security 4 - D"."""
    cards = load_rules().cards
    got = {cid: (c.count, c.value) for cid, c in cards.items()}
    assert got == {"marines": (8, 1), "point-blank": (2, 1), "short": (2, 2), "medium": (2, 3), "long": (2, 4),
                   "very-long": (2, 5), "extreme": (4, 6), "tactical-speed": (7, 1), "cruising-speed": (6, 2),
                   "fast": (5, 3), "very-fast": (4, 4), "evasion": (4, None), "superstructure": (4, None),
                   "robot-security": (4, None)}
    assert len(standard_deck(load_rules())) == 56


@pytest.mark.rule("fleet-card-restrictions")
def test_the_card_lists_notes_say_which_ships_may_play_a_card() -> None:
    """CARD LIST: "Marines ... Ramships only; ... Extreme ... C-Plus Guns only ... Very Fast ... Ramships only Evasion
    ... Humans only Superstructure ... Berserker only Robot Security ... Berserker only vs Marines"."""
    allowed = {(card, ship) for card in ("marines", "extreme", "very-fast", "evasion", "superstructure", "robot-security")
               for ship in ("berserker", "c-plus-gun-ship", "cruiser", "ramship") if can_use_named(card, ship).allowed}
    assert allowed == {("marines", "ramship"), ("extreme", "c-plus-gun-ship"), ("very-fast", "ramship"),
                       ("evasion", "c-plus-gun-ship"), ("evasion", "cruiser"), ("evasion", "ramship"),
                       ("superstructure", "berserker"), ("robot-security", "berserker")}
    assert "only against Marines" in can_use_named("robot-security", "berserker").reason
