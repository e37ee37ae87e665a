"""The Berserk TCG rules text (English), rule by rule: each test cites its rule id of index.json and quotes
the sentence it rests on, with the paragraph (¶N: the text's N-th paragraph, blank lines apart)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from engine_play import apply_through

from cardkit.decks import parse_deck, validate_deck
from cardkit.errors import BadArgument, IllegalAction
from cardkit.games.berserk_tcg.game.battle import Fighter, fight
from cardkit.games.berserk_tcg.game.cities import City, has_won
from cardkit.games.berserk_tcg.game.engine import ENGINE
from cardkit.games.berserk_tcg.game.legal import legal_actions
from cardkit.games.berserk_tcg.game.notation import Attack, Defend, Discard, Draw, End, Move, Open, Pass, Ref, parse
from cardkit.games.berserk_tcg.game.setup import deck_cards, new_game
from cardkit.games.berserk_tcg.game.state import Game, Player, Unit, catalogue
from cardkit.games.berserk_tcg.opening.cards import Cost, make_card
from cardkit.games.berserk_tcg.opening.play import cities_schedule, max_revealed, play_reference
from cardkit.games.berserk_tcg.opening.state import (
    COST_UNPAYABLE,
    LEVEL_TOO_HIGH,
    UNIQUE_IN_PLAY,
    PlayerState,
    can_open,
)
from cardkit.games.readings import load_readings

pytestmark = pytest.mark.filterwarnings("error")
ROOT = Path(__file__).resolve().parents[2]
WHITE, RED = ROOT / "decks/berserk-tcg/white-hawks.deck", ROOT / "decks/berserk-tcg/red-apostles.deck"
MERC, CASCA, GUTS, ARCHERS, CAVALRY = "BK1-001", "BK1-013", "BK1-011", "BK1-005", "BK1-123"
RAIDERS, RIDER, GRIFFITH = "BK1-003", "BK1-004", "BK1-009"  # 3/3 Range 0; 1/1 Move 2; Unique, Level 2
QUICK, NORMAL, ETERNAL = "BK1-023", "BK1-025", "BK4-039"  # Quick normal effect; normal effect; eternal, Level 0
LIBRARY = (MERC,) * 10
DECK_45 = "game: berserk-tcg\n12 BK1-001\n" + "".join(f"3 BK1-{n:03d}\n" for n in (3, 4, 5, 6, 7, 8, 13, 15, 17, 19, 21))



def apply(state: Game, action: object) -> tuple[Game, list[dict[str, Any]]]:
    return apply_through(ENGINE, state, action)

def table(mine: tuple[Unit, ...] = (), theirs: tuple[Unit, ...] = (), held: dict[str, int] | None = None,
          revealed: tuple[str, ...] = (), phase: str = "main", hand: tuple[str, ...] = (),
          library: tuple[str, ...] = LIBRARY) -> Game:
    """Player 0 on move; cities c1..c4 basic, c5 royal; `held` maps a city to its controller."""
    base = new_game([list(LIBRARY), list(LIBRARY)], ["Alice", "Boris"])
    held = held or {}
    shown = sorted(set(revealed) | set(held))
    cities = tuple(City(f"c{i}", "CITY-R" if i == 5 else f"CITY-{i}", i == 5, f"c{i}" in shown,
                        shown.index(f"c{i}") + 1 if f"c{i}" in shown else None, held.get(f"c{i}"))
                   for i in range(1, 6))
    return replace(base, players=(Player("Alice", library, hand, (), mine), Player("Boris", library, (), (), theirs)),
                   cities=cities, phase=phase)


def codes(text: str) -> list[str]:
    return [p.code for p in validate_deck(parse_deck(text)) if p.severity == "error"]


def warnings(text: str) -> list[str]:
    return [p.code for p in validate_deck(parse_deck(text)) if p.severity == "warning"]


def fighter(card: str) -> Fighter:
    return Fighter.from_catalogue(catalogue()[1][card])


def solo(hand: tuple[str, ...], cities: int = 5) -> PlayerState:
    cards = {c.id: c for c in (BLACK4, BLACK1, WHITE1, RED2, RED1)}
    return PlayerState(cards=cards, hand=hand, cities=cities)


WHITE1 = make_card("W1", colour="white", cost=Cost(white=1), level=1)
BLACK4 = make_card("B4", colour="black", cost=Cost(black=1, colourless=1), level=4)
RED2 = make_card("R2", colour="red", cost=Cost(red=2), level=2)
BLACK1 = make_card("B1", colour="black", cost=Cost(black=1), level=0)
RED1 = make_card("R1", colour="red", cost=Cost(red=1), level=0)


# -- deck building -------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-02a")
def test_a_deck_has_45_cards_or_more() -> None:
    """¶2: "The decks must have 45 cards or more" (data/formats/berserk-tcg.json, main.min; no maximum)."""
    assert codes(DECK_45) == []
    assert codes(DECK_45.replace("12 BK1-001", "11 BK1-001")) == ["DECK_TOO_SMALL"]
    assert codes(DECK_45.replace("12 BK1-001", "60 BK1-001")) == []


@pytest.mark.rule("tcg-02b")
def test_a_deck_holds_at_most_3_copies_of_a_card_number() -> None:
    """¶2: "you can't play more than 3 times the same card" — read by card number (README of the texts;
    data/formats/berserk-tcg.json, copies_by), main and side deck together."""
    assert codes(DECK_45 + "1 BK1-003\n") == ["TOO_MANY_COPIES"]
    assert codes(DECK_45 + "Sideboard:\n1 BK1-003\n") == ["TOO_MANY_COPIES"]
    assert codes(DECK_45 + "3 BK1-012\n") == [], "Guts BK1-011 and BK1-012 are different card numbers"


@pytest.mark.rule("tcg-02c")
def test_mercenaries_have_no_copy_limit() -> None:
    """¶2: "This however doesn't apply to mercenary cards ... that have no limit" (data/formats/berserk-tcg.json, copies.exempt)."""
    assert codes(DECK_45.replace("12 BK1-001", "30 BK1-001")) == []


@pytest.mark.rule("tcg-02d")
def test_fewer_than_10_mercenaries_is_a_warning_not_an_error() -> None:
    """¶2: "the official game rules recommends to play at least 10 of them" — a recommendation, so a warning
    (data/formats/berserk-tcg.json, minimums FEW_MERCENARIES)."""
    few = DECK_45.replace("12 BK1-001", "9 BK1-001\n3 BK1-002")
    assert codes(few) == [] and warnings(few) == ["FEW_MERCENARIES"]
    assert warnings(DECK_45) == []


@pytest.mark.rule("tcg-03")
def test_a_tournament_side_deck_holds_at_most_10_cards() -> None:
    """¶3: "For tournaments, the side deck is made of 10 cards at max." (data/formats/berserk-tcg.json, side.max)."""
    side = "Sideboard:\n" + "".join(f"2 BK1-{n:03d}\n" for n in (23, 24, 26, 27, 28))
    assert codes(DECK_45 + side) == []
    assert codes(DECK_45 + side + "1 BK1-029\n") == ["SIDE_TOO_LARGE"]


# -- the table and the start ---------------------------------------------------------------------------------

@pytest.mark.rule("tcg-04")
def test_the_table_has_5_cities_between_the_players_and_a_library_trash_and_hand_each() -> None:
    """¶4: "The gaming ground is composed of 5 cities that are placed between the two players, a "Library" ...
    for each players, as well as a Trash and a Hand for each."."""
    game = new_game([deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]], seed=1)
    assert len(game.cities) == 5 and {c.controller for c in game.cities} == {None}
    assert all(p.library and len(p.hand) == 7 and p.trash == () for p in game.players)


@pytest.mark.rule("tcg-05a")
def test_each_player_draws_7_cards_from_its_library_to_form_its_hand() -> None:
    """¶5: "Players have to draw 7 cards from their Library to form their Hands."."""
    decks = [deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]]
    game = new_game(decks, seed=3)
    for player, deck in zip(game.players, decks):
        assert len(player.hand) == 7 and sorted(player.hand + player.library) == sorted(deck)


@pytest.mark.rule("tcg-05b")
def test_a_hand_over_7_at_the_end_of_the_turn_is_discarded_down_to_7() -> None:
    """¶5: "If a player has more than 7 cards in his hand at the end of his turn, he must discard as many cards
    as needed until he has only 7."."""
    game, _ = apply(table(hand=(MERC,) * 9), End())
    assert game.phase == "discard" and game.active == 0
    assert {str(a) for a in legal_actions(game)} == {f"discard {MERC},{MERC}"}
    with pytest.raises(IllegalAction, match="discard exactly 2"):
        apply(game, Discard((MERC,)))
    game, _ = apply(game, Discard((MERC, MERC)))
    assert len(game.players[0].hand) == 7 and game.active == 1
    kept, _ = apply(table(hand=(MERC,) * 7), End())
    assert kept.active == 1, "a hand of 7 is kept"


@pytest.mark.rule("tcg-06")
def test_the_first_player_skips_its_first_drawing_phase_only() -> None:
    """¶6: "The first player to take his turn has to skip his drawing phase (for that turn only)."."""
    game = new_game([deck_cards(str(WHITE))[1], deck_cards(str(RED))[1]], seed=2)
    assert (game.active, game.phase) == (0, "opening")
    assert not any(isinstance(a, Draw) for a in legal_actions(game))
    game, _ = apply(apply(game, Pass())[0], End())
    assert (game.active, game.phase) == (1, "draw")
    drawn, _ = apply(game, Draw())
    assert len(drawn.players[1].hand) == 8
    cards = catalogue()[0]
    first, second = (play_reference(cards, [MERC] * 20, (0, 0), seat=seat) for seat in ("first", "second"))
    assert (first.hand[0], second.hand[0]) == (7, 8), "the opening simulator skips the same draw"


@pytest.mark.rule("tcg-07")
def test_the_cards_come_in_4_colours_of_112_and_5_colourless_cities_4_basic_and_1_royal() -> None:
    """¶7: "There's 4 different types of cards, each of them containing 112 cards ..., plus the 5 cities
    (colorless), there are 4 basic cities and 1 royal city."."""
    cards, stats = catalogue()
    colours: dict[str, int] = {}
    for c in stats.values():
        if c.get("kind") != "city":
            colours[c["colour"]] = colours.get(c["colour"], 0) + 1
    assert colours == {"white": 112, "green": 112, "black": 112, "red": 112}
    cities = [c for c in stats.values() if c.get("kind") == "city"]
    assert len(cities) == 5 and all(c["colour"] is None for c in cities)
    assert {c.colour for c in cards.values() if not c.is_city} == {"white", "green", "black", "red"}
    assert sorted(s for c in cities for s in c["subtypes"]) == ["Basic"] * 4 + ["Royal"]


# -- winning and losing --------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-09a")
def test_the_royal_city_and_2_normal_cities_win() -> None:
    """¶9: "The victory condition is to take the royal city and at least 2 normal cities."
    (data/rules/berserk-tcg.json, normal_cities_to_win)."""
    one = table((Unit(CASCA),), held={"c1": 0}, revealed=("c2",))
    game, _ = apply(one, Attack("c5", (Ref(CASCA),)))
    assert game.winner is None and game.city("c5").controller == 0
    two = table((Unit(CASCA),), held={"c1": 0, "c2": 0})
    game, events = apply(two, Attack("c5", (Ref(CASCA),)))
    assert game.winner == 0 and events[-1]["kind"] == "won"
    assert not has_won(table(held={"c1": 0, "c2": 0, "c3": 0, "c4": 0}).cities, 0), "no royal city, no win"


@pytest.mark.rule("tcg-09b")
def test_a_player_who_cannot_draw_in_its_drawing_phase_loses() -> None:
    """¶9: "A player loses when he can't draw a card from his deck during his drawing phase."."""
    game, events = apply(table(phase="draw", library=()), Draw())
    assert game.winner == 1 and events[0]["kind"] == "won"
    taken, _ = apply(table((Unit(CASCA),), library=()), Attack("c1", (Ref(CASCA),)))
    assert taken.winner is None, "taking a city with an empty library draws nothing and does not lose"


# -- cities --------------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-10a")
def test_the_5_cities_start_face_down_in_a_random_order_that_hides_the_royal_one() -> None:
    """¶10: "the 5 city cards are set between the 2 players, their backside shown so that the royal city is
    hidden amongst the others." (the order comes from the game's seed)."""
    decks = [list(LIBRARY), list(LIBRARY)]
    games = [new_game(decks, seed=s) for s in range(12)]
    assert all(not c.revealed and c.level is None for g in games for c in g.cities)
    assert len({next(c.name for c in g.cities if c.royal) for g in games}) > 1
    assert new_game(decks, seed=4).cities == new_game(decks, seed=4).cities
    assert all(c["royal"] is None and c["card"] is None for c in games[0].summary()["cities"])
    assert "Royal" not in ENGINE.describe(games[0]) and "face down" in ENGINE.describe(games[0])


@pytest.mark.rule("tcg-10b")
def test_cities_are_turned_face_up_one_by_one_as_they_are_attacked() -> None:
    """¶10: "As the game goes on, the players return them one by one as they try to take them over."."""
    game, events = apply(table((Unit(CASCA),)), Attack("c4", (Ref(CASCA),)))
    assert [c.name for c in game.cities if c.revealed] == ["c4"] and events[0]["kind"] == "revealed"


@pytest.mark.rule("tcg-11")
def test_taking_a_city_draws_2_cards() -> None:
    """¶11: "Each time a player takes a city, he has to draw 2 cards from his Library and put them into his
    Hand." (data/rules/berserk-tcg.json, taking_city_draw)."""
    game, _ = apply(table((Unit(CASCA),)), Attack("c3", (Ref(CASCA),)))
    assert len(game.players[0].hand) == 2 and len(game.players[0].library) == len(LIBRARY) - 2


@pytest.mark.rule("tcg-12")
def test_a_normal_effect_goes_to_the_trash_and_an_eternal_effect_stays_in_play_like_a_character() -> None:
    """¶12: "Normal effect (you play the card, its effect occurs, then you trash it) and Eternal effect (these
    are permanents, like character cards)."."""
    game = table(phase="opening", hand=(NORMAL, MERC), revealed=("c1",))
    after, _ = apply(game, parse(f"open {NORMAL} pay {MERC}"))
    assert NORMAL in after.players[0].trash and after.players[0].units == ()
    game = table(phase="opening", hand=(ETERNAL, "BK1-041"))
    after, _ = apply(game, parse(f"open {ETERNAL} pay BK1-041"))
    assert after.players[0].units == (Unit(ETERNAL),) and ETERNAL not in after.players[0].trash


@pytest.mark.rule("tcg-13")
def test_cities_are_taken_only_by_battle_with_characters() -> None:
    """¶13: "taking them requires that your characters battle against the opponents." — a character cannot
    simply walk into a city it does not hold, and only characters attack."""
    with pytest.raises(IllegalAction, match="attack it to take it"):
        apply(table((Unit(CASCA),)), Move(Ref(CASCA), "c1"))
    with pytest.raises(IllegalAction, match="not a character"):
        apply(table((Unit(ETERNAL),)), Attack("c1", (Ref(ETERNAL),)))


@pytest.mark.rule("tcg-15")
def test_a_defender_who_wins_the_battle_does_not_acquire_the_city() -> None:
    """¶15: "when the defensive player wins, he doesn't acquire the city, he must attack in order to take it."."""
    game, _ = apply(table((Unit(MERC),), (Unit(RAIDERS, "c2"),), held={"c2": 1}), Attack("c2", (Ref(MERC),)))
    game, events = apply(game, Defend("c2", (RAIDERS,)))
    assert game.city("c2").controller == 1 and events[-1]["kind"] == "held"
    neutral, _ = apply(table((Unit(MERC),), (Unit(RAIDERS),)), Attack("c1", (Ref(MERC),)))
    assert neutral.city("c1").controller == 0, "an unheld city has no guards: the attack takes it"


@pytest.mark.rule("tcg-16")
def test_a_taken_city_stays_on_the_table_and_the_characters_that_took_it_stand_inside() -> None:
    """¶16: "he doesn't remove it from the game, nor he puts it in his hand or anything, he just turns it toward
    him and let the characters that took its control inside, to guard it against the enemy."."""
    game, _ = apply(table((Unit(CASCA), Unit(MERC))), Attack("c2", (Ref(CASCA), Ref(MERC))))
    assert len(game.cities) == 5 and game.city("c2").controller == 0
    assert {u.city for u in game.players[0].units} == {"c2"}
    assert "CITY-2" not in game.players[0].hand


@pytest.mark.rule("tcg-17")
def test_an_occupied_city_is_taken_back_by_defeating_the_troops_that_defend_it() -> None:
    """¶17: "it's possible for the opponent to take back a city when it's occupied, he just has to attack it and
    defeat the troops that defend it." (data/rules/berserk-tcg.json, attacker_wins_when)."""
    game, _ = apply(table((Unit(RAIDERS),), (Unit(MERC, "c2"),), held={"c2": 1}), Attack("c2", (Ref(RAIDERS),)))
    game, _ = apply(game, Defend("c2", (MERC,)))
    assert game.city("c2").controller == 0 and game.players[1].trash == (MERC,)


# -- battle --------------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-18")
def test_a_2_2_and_a_2_3_deal_each_other_2_the_2_2_dies_and_the_2_3_survives() -> None:
    """¶18: "if a 2/2 is fighting against a 2/3, they'll both deliver the other 2 points of damage, the 2/2 will
    then die, and the 2/3 will survive." (data/rules/berserk-tcg.json, battle_damage_order, for several on a side)."""
    stats = catalogue()[1].values()
    assert all(s["power"] is not None and s["hp"] is not None for s in stats if s["kind"] == "character")
    two_two, two_three = fighter(CASCA), fighter(GUTS)
    assert (two_two.power, two_two.hp, two_three.power, two_three.hp) == (2, 2, 2, 3)
    result = fight([two_two], [two_three])
    assert [f.damage for f in result.attackers + result.defenders] == [2, 2]
    assert not result.attackers[0].alive and result.defenders[0].alive and not result.attacker_wins


@pytest.mark.rule("tcg-19a")
def test_a_quick_card_opens_at_any_time_in_either_players_turn() -> None:
    """¶19: "Some cards have the Quick ability, which allows them to be played anytime" (data/rules/berserk-tcg.json,
    quick_any_time: either player, any phase, as its owner's action)."""
    for phase in ("draw", "main", "discard"):
        hand = (QUICK, MERC) + ((MERC,) * 6 if phase == "discard" else ())
        game = table(revealed=("c1",), phase=phase, hand=hand)
        game = replace(game, players=(game.players[0], replace(game.players[1], hand=(QUICK, MERC))))
        mine, _ = apply(game, parse(f"open {QUICK} pay {MERC}"))
        theirs, _ = apply(game, parse(f"open {QUICK} pay {MERC} by player 2"))
        assert QUICK in mine.players[0].trash and QUICK in theirs.players[1].trash
    with pytest.raises(IllegalAction, match="not Quick"):
        apply(table(revealed=("c1",), hand=(NORMAL, MERC)), parse(f"open {NORMAL} pay {MERC}"))


@pytest.mark.rule("tcg-19c")
def test_where_both_players_may_open_a_quick_card_the_player_on_turn_comes_first() -> None:
    """¶19: "If two Quick effects went to be played simultaneously, the player which turn it is has the priority."
    — actions apply one at a time; `moves` lists the player on turn's opens first (data/rules/berserk-tcg.json,
    quick_priority)."""
    game = table(revealed=("c1",), hand=(QUICK, MERC))
    game = replace(game, players=(game.players[0], replace(game.players[1], hand=(QUICK, MERC))))
    assert [a.by for a in legal_actions(game) if isinstance(a, Open)] == [None, 1]


@pytest.mark.rule("tcg-20")
def test_the_character_of_higher_range_delivers_its_damage_first() -> None:
    """¶20: "The character cards also have a Range value, that indicates which one will deliver its damage first"."""
    assert all(s["range"] is not None for s in catalogue()[1].values() if s["kind"] == "character")
    archers, raiders = fighter(ARCHERS), fighter(RAIDERS)  # 2/1 Range 1 against 3/3 Range 0
    result = fight([archers], [raiders])
    assert [s.range for s in result.steps] == [1, 0]
    assert result.steps[0].hits == (("attacker", ARCHERS, RAIDERS, 2),)


@pytest.mark.rule("tcg-21")
def test_a_2_1_of_higher_range_kills_a_3_2_before_it_can_fight_back() -> None:
    """¶21: "So a 2/1 character card with a higher Range than a 3/2 will kill it before it can fight back."."""
    quick = Fighter("A", "archer", 2, 1, 1)
    slow = Fighter("L", "lancer", 3, 2, 0)
    result = fight([quick], [slow])
    assert result.attackers[0].damage == 0 and not result.defenders[0].alive and result.attacker_wins
    even = fight([replace(quick, range=0)], [slow])
    assert not even.attackers[0].alive, "at equal Range the 3/2 strikes back"


# -- Unique --------------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-22")
def test_a_unique_card_is_never_in_play_twice_at_the_same_time() -> None:
    """¶22: "Some character or effect cards are called Unique, it means that they can't be put in game more than
    once at the same time"."""
    game = table((Unit(CASCA),), phase="opening", hand=("BK1-014", MERC), revealed=("c1",))
    with pytest.raises(IllegalAction, match="Unique"):
        apply(game, parse(f"open BK1-014 pay {MERC}"))
    twice = table((Unit(CASCA),), (Unit("BK1-014"),))
    assert any("Unique" in p.message for p in ENGINE.check(twice))


@pytest.mark.rule("tcg-23a")
def test_a_deck_may_hold_three_cards_of_one_unique_character() -> None:
    """¶23: "Now it doesn't mean you can't have three Guts cards in your deck" — Unique limits play, not decks."""
    assert codes(DECK_45 + "2 BK1-011\n1 BK1-012\n") == []


@pytest.mark.rule("tcg-23b")
def test_a_unique_card_the_opponent_has_in_play_cannot_be_opened() -> None:
    """¶23: "if your opponent has one in game, you can't play it, if you do, it'll be trashed as soon as it comes
    in game." — under the reading cardkit plays by (data/rules/berserk-tcg.json, unique_in_play: refuse) the engine
    refuses the open (UNIQUE_IN_PLAY)."""
    assert load_readings("berserk-tcg")["unique_in_play"].value == "refuse"
    game = table(theirs=(Unit(CASCA),), phase="opening", hand=(CASCA, MERC), revealed=("c1",))
    with pytest.raises(IllegalAction, match="already in play on the opponent's side"):
        apply(game, parse(f"open {CASCA} pay {MERC}"))
    assert UNIQUE_IN_PLAY in can_open(CASCA, game.player_state(0)).codes
    assert not any(isinstance(a, Open) and a.card == CASCA for a in legal_actions(game))


@pytest.mark.rule("tcg-23b")
def test_under_the_trash_reading_a_unique_card_the_opponent_has_in_play_is_paid_for_and_trashed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """¶23: "if your opponent has one in game, you can't play it, if you do, it'll be trashed as soon as it comes
    in game." — the other reading (data/rules/berserk-tcg.json, unique_in_play: trash): the card opens, is paid
    for and goes straight to the trash, with an event; a copy of a name the player has in play is still refused."""
    from cardkit.games.berserk_tcg.opening import state as opening_state

    real = opening_state.reading
    monkeypatch.setattr(opening_state, "reading", lambda g, r: "trash" if r == "unique_in_play" else real(g, r))
    game = table(theirs=(Unit(CASCA),), phase="opening", hand=(CASCA, MERC, RIDER), revealed=("c1",))
    assert any(isinstance(a, Open) and a.card == CASCA for a in legal_actions(game))
    after, events = apply(game, parse(f"open {CASCA} pay {MERC}"))
    alice = after.players[0]
    assert (alice.hand, sorted(alice.trash), alice.units) == ((RIDER,), sorted((MERC, CASCA)), ())
    assert after.players[1].units == (Unit(CASCA),) and (after.phase, after.opened) == ("main", True)
    assert [(e["kind"], e.get("card")) for e in events] == [("opened", CASCA), ("trashed", CASCA)]
    own = table(mine=(Unit(CASCA),), phase="opening", hand=(CASCA, MERC), revealed=("c1",))
    with pytest.raises(IllegalAction, match="already in play on this player's side"):
        apply(own, parse(f"open {CASCA} pay {MERC}"))


# -- locking, drawing, opening -------------------------------------------------------------------------------

@pytest.mark.rule("tcg-24a")
def test_attacking_and_moving_between_cities_lock_a_character() -> None:
    """¶24: "When a character card attacks a city, or moves from one to another (using their Move value), you
    have to "Lock" it" (data/rules/berserk-tcg.json, set_in_city_locks: setting in a city does not lock)."""
    game, _ = apply(table((Unit(CASCA),)), Attack("c1", (Ref(CASCA),)))
    assert game.players[0].units == (Unit(CASCA, "c1", locked=True),)
    moved, _ = apply(table((Unit(RIDER, "c1"),), held={"c1": 0, "c2": 0}), parse(f"move {RIDER} from c1 to c2"))
    assert moved.players[0].units == (Unit(RIDER, "c2", locked=True),)
    set_in, _ = apply(table((Unit(RIDER),), held={"c1": 0}), Move(Ref(RIDER), "c1"))
    assert set_in.players[0].units == (Unit(RIDER, "c1"),)


@pytest.mark.rule("tcg-24b")
def test_a_locked_card_takes_no_action_until_its_players_next_unlocking_phase() -> None:
    """¶24: "A locked card can't take any action until its player next turn, more specifically his unlocking
    phase (the first one)."."""
    game = table((Unit(RIDER, "c1", locked=True),), held={"c1": 0, "c2": 0})
    with pytest.raises(IllegalAction, match="locked"):
        apply(game, parse(f"move {RIDER} from c1 to c2"))
    with pytest.raises(IllegalAction, match="locked"):
        apply(game, Attack("c3", (Ref(RIDER, "c1"),)))
    game, _ = apply(apply(game, End())[0], Draw())
    game, _ = apply(apply(apply(game, Pass())[0], End())[0], Draw())
    assert game.players[0].units == (Unit(RIDER, "c1"),)


@pytest.mark.rule("tcg-25")
def test_the_drawing_phase_draws_one_card_from_the_library_to_the_hand() -> None:
    """¶25: "After the Unlocking phase comes the drawing phase where the player draws a card from his Library to
    his Hand."."""
    game, _ = apply(table(phase="draw", library=(RAIDERS, MERC)), Draw())
    assert game.players[0].hand == (RAIDERS,) and game.players[0].library == (MERC,) and game.phase == "opening"


@pytest.mark.rule("tcg-26")
def test_at_first_only_level_0_opens_and_the_first_revealed_city_is_the_level_1_city() -> None:
    """¶26: "At first, none is visible and only cards of Level 0 can be played (Opened). Then, as a character card
    is put in game and reveals a city, that city becomes the Level 1 city until the game ends"."""
    game = table(phase="opening", hand=(CASCA, MERC, MERC))
    assert {a.card for a in legal_actions(game) if isinstance(a, Open)} == {MERC}
    game, _ = apply(table((Unit(MERC),)), Attack("c3", (Ref(MERC),)))
    assert game.city("c3").level == 1


@pytest.mark.rule("tcg-27a")
def test_a_card_opens_only_when_its_level_is_at_most_the_number_of_revealed_cities() -> None:
    """¶27: "you can play cards of a Level inferior or equal to the number of revealed cities."."""
    hand = (GRIFFITH, MERC, MERC, MERC)
    assert LEVEL_TOO_HIGH in can_open(GRIFFITH, table(phase="opening", hand=hand, revealed=("c1",)).player_state(0)).codes
    assert can_open(GRIFFITH, table(phase="opening", hand=hand, revealed=("c1", "c4")).player_state(0)).ok


@pytest.mark.rule("tcg-27b")
def test_cities_are_revealed_in_no_particular_order_and_only_by_an_attack() -> None:
    """¶27: "The city cards are put in game randomly and the players reveal them in no particular order, while
    respecting the character cards battling procedure to attack before revealing."."""
    for target in ("c5", "c2"):
        game, _ = apply(table((Unit(MERC),)), Attack(target, (Ref(MERC),)))
        assert [c.name for c in game.cities if c.revealed] == [target]
    hidden = table(held={"c1": 0})
    bad = replace(hidden, cities=tuple(replace(c, revealed=True, level=2) if c.name == "c2" else c
                                       for c in hidden.cities))
    assert bad.city("c2").controller is None and ENGINE.check(bad) == []
    assert not any(str(a).startswith("reveal") for a in legal_actions(hidden))


# -- costs ---------------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-28")
def test_a_cost_is_paid_with_cards_of_its_colour_and_a_colourless_cost_with_a_card_of_any_colour() -> None:
    """¶28: "you have to sacrifice a number of cards, often from a specific color but not always, equivalent to the
    cost ... Colorless costs (generally [1]) allow to sacrifice a card from any color"."""
    assert can_open("B4", solo(("B4", "B1", "R1"))).ok
    assert COST_UNPAYABLE in can_open("B4", solo(("B4", "R1", "R1"))).codes
    assert COST_UNPAYABLE in can_open("B4", solo(("B4", "B1"))).codes


@pytest.mark.rule("tcg-29")
def test_sacrificing_puts_the_paying_cards_from_the_hand_into_the_trash() -> None:
    """¶29: "What I call "sacrificing" a card is just the action of discarding it (to put it from your Hand into
    the Trash)."."""
    game, _ = apply(table(phase="opening", hand=(ARCHERS, MERC, RAIDERS), revealed=("c1",)),
                    parse(f"open {ARCHERS} pay {MERC}"))
    assert game.players[0].hand == (RAIDERS,) and game.players[0].trash == (MERC,)
    with pytest.raises(IllegalAction):
        apply(table(phase="opening", hand=(ARCHERS, MERC), revealed=("c1",)), parse(f"open {ARCHERS} pay {RAIDERS}"))


@pytest.mark.rule("tcg-32")
def test_a_white_level_1_card_costing_1_white_card_opens_with_one_white_card() -> None:
    """¶32: "A white card, Level 1, cost: 1 white card."."""
    assert can_open("W1", solo(("W1", "W1"), cities=1)).ok
    assert not can_open("W1", solo(("W1", "B1"), cities=1)).ok
    assert LEVEL_TOO_HIGH in can_open("W1", solo(("W1", "W1"), cities=0)).codes


@pytest.mark.rule("tcg-33")
def test_a_black_level_4_card_costs_1_black_and_1_colourless_card() -> None:
    """¶33: "A black card, Level 4, cost: 1 black card and 1 colorless card."."""
    assert can_open("B4", solo(("B4", "B1", "W1"), cities=4)).ok
    assert LEVEL_TOO_HIGH in can_open("B4", solo(("B4", "B1", "W1"), cities=3)).codes


@pytest.mark.rule("tcg-34")
def test_a_red_level_2_card_costs_2_red_cards() -> None:
    """¶34: "A red card, Level 2, cost: 2 red cards."."""
    assert can_open("R2", solo(("R2", "R1", "R1"), cities=2)).ok
    assert COST_UNPAYABLE in can_open("R2", solo(("R2", "R1", "B1"), cities=2)).codes


# -- the turn ------------------------------------------------------------------------------------------------

@pytest.mark.rule("tcg-36")
def test_a_turn_runs_unlocking_drawing_opening_main_and_ending_in_that_order() -> None:
    """¶36: "1. Unlocking (Recovering) phase 2. Drawing phase 3. Opening phase 4. Main phase 5. Ending phase"."""
    game = table((Unit(MERC, "c1", locked=True),), held={"c1": 0}, phase="main")
    seen = []
    game, _ = apply(game, End())  # player 0's ending phase; player 1's unlocking phase runs at once
    seen.append(game.phase)
    game, _ = apply(game, Draw())
    seen.append(game.phase)
    game, _ = apply(game, Pass())
    seen.append(game.phase)
    assert seen == ["draw", "opening", "main"]
    with pytest.raises(IllegalAction):
        apply(table(phase="draw", library=LIBRARY), Pass())


@pytest.mark.rule("tcg-37a")
def test_the_recovering_phase_unlocks_all_of_the_players_cards() -> None:
    """¶37: "During your Recovering phase, you have to unlock all your cards"."""
    game = table((Unit(MERC, "c1", locked=True), Unit(CASCA, "c1", locked=True)), held={"c1": 0})
    game = replace(game, active=1)
    game, _ = apply(game, End())
    assert game.active == 0 and not any(u.locked for u in game.players[0].units)


@pytest.mark.rule("tcg-37b")
def test_the_opening_phase_opens_one_card_after_checking_level_and_unique_and_paying_its_cost() -> None:
    """¶37: "The Opening phase allows you to put a card in game after checking the Level allowed, and whether a
    Unique card of the same category is already in game or not. You then have to pay its cost"."""
    game = table(phase="opening", hand=(ARCHERS, RAIDERS, MERC, MERC), revealed=("c1",))
    game, _ = apply(game, parse(f"open {ARCHERS} pay {MERC}"))
    assert game.phase == "main" and game.opened
    with pytest.raises(IllegalAction, match="not Quick"):
        apply(game, parse(f"open {RAIDERS} pay {MERC}"))


@pytest.mark.rule("tcg-38")
def test_nothing_moves_after_the_battle_announcement_the_main_phases_last_step() -> None:
    """¶38: "it consists of 4 steps: moving your characters, setting them in a city ..., using special abilities
    ..., and lastly the battle anouncement." (data/rules/berserk-tcg.json, battle_announcement_last)."""
    start = table((Unit(CASCA), Unit(MERC)), held={"c1": 0})
    game, _ = apply(start, Attack("c2", (Ref(CASCA),)))
    with pytest.raises(IllegalAction, match="battle was announced"):
        apply(game, Move(Ref(MERC), "c1"))
    assert not any(isinstance(a, Move) for a in legal_actions(game))
    assert apply(start, Move(Ref(MERC), "c1"))[0].players[0].units[1].city == "c1"


@pytest.mark.rule("tcg-39a")
def test_a_player_cannot_attack_a_city_it_already_occupies() -> None:
    """¶39: "(you obviously can't attack one that you already occupy)"."""
    with pytest.raises(IllegalAction, match="already yours"):
        apply(table((Unit(CASCA),), held={"c1": 0}), Attack("c1", (Ref(CASCA),)))


@pytest.mark.rule("tcg-39b")
def test_a_player_attacks_at_most_once_each_turn() -> None:
    """¶39: "You can only attack once each turn."."""
    game, _ = apply(table((Unit(CASCA), Unit(MERC))), Attack("c1", (Ref(CASCA),)))
    with pytest.raises(IllegalAction, match="once each turn"):
        apply(game, Attack("c2", (Ref(MERC),)))
    assert not any(isinstance(a, Attack) for a in legal_actions(game))
    # the opening simulator's city schedules keep it too: each player's attack reveals at most one city a turn
    assert [max_revealed(t, "first") for t in (1, 2, 3)] == [0, 2, 4] and max_revealed(1, "second") == 1
    with pytest.raises(BadArgument, match="could have revealed|attack"):
        cities_schedule(2, [0, 3])


@pytest.mark.rule("tcg-39c")
def test_the_defender_chooses_which_able_guards_defend_none_included() -> None:
    """¶39: "When you choose to attack, your opponent can defend the city if he wants and is able to."
    (data/rules/berserk-tcg.json, defenders: the defender chooses; locked guards are not able)."""
    start = table((Unit(GUTS),), (Unit(CASCA, "c2"), Unit(ARCHERS, "c2", locked=True)), held={"c2": 1})
    game, _ = apply(start, Attack("c2", (Ref(GUTS),)))
    assert {str(a) for a in legal_actions(game)} == {"defend c2 with none", f"defend c2 with {CASCA}"}
    taken, _ = apply(game, parse("defend c2 with none"))
    assert taken.city("c2").controller == 0
    with pytest.raises(IllegalAction, match="able"):
        apply(game, parse(f"defend c2 with {ARCHERS}"))


@pytest.mark.rule("tcg-40a")
def test_damage_that_did_not_trash_a_card_heals_in_the_ending_phase() -> None:
    """¶40: "During the Ending phase, the damages dealt and that didn't send a card to the Trash are healed"."""
    game, _ = apply(table((Unit(GUTS),), (Unit(CASCA, "c2"),), held={"c2": 1}), Attack("c2", (Ref(GUTS),)))
    game, _ = apply(game, Defend("c2", (CASCA,)))
    assert game.players[0].units[0].damage == 2
    game, _ = apply(game, End())
    assert all(u.damage == 0 for p in game.players for u in p.units)
