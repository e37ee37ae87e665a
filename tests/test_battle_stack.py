"""The battle rules of the engine-shape issue: cards without life, nothing after the result, the first player at
random, the stack from the deal, and the judge's actions on decks and the graveyard.

Each docstring says in short words of our own the rule it checks and where the text has it.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.errors import IllegalAction
from cardkit.games.squad_games.battle.apply import apply
from cardkit.games.squad_games.battle.engine import ENGINE
from cardkit.games.squad_games.battle.legal import legal_actions
from cardkit.games.squad_games.battle.notation import Action
from cardkit.games.squad_games.battle.setup import IllegalSetup, load_side, new_battle
from cardkit.games.squad_games.battle.state import BattleState, check_state, state_from_dict

DATA = Path(__file__).resolve().parent / "data" / "battle"


def _write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _online(tmp_path: Path, seat: str | None, name: str, cards: list[dict[str, str]]) -> Path:
    data: dict[str, Any] = {"format": "berserk-online", "cards": cards}
    if seat:
        data["seat"] = seat
    return _write(tmp_path / name, data)


ELVES = [{"card": "b_ammah", "square": "c1"}, {"card": "m_ulfsark", "square": "b2"}]
OTHERS = [{"card": "b_ahti", "square": "c1"}, {"card": "b_bokor", "square": "b1"}]


def test_a_terrain_stands_in_the_reserve_with_life_none_and_every_command_reads_the_state(tmp_path: Path) -> None:
    """Part 2, 201.1: terrains stand in the auxiliary zone; a terrain (life 0 in the catalogue) has no life to lose,
    so the state shows none and the reader never refuses it."""
    first = _write(tmp_path / "f.json", {"format": "berserk-ccg", "seat": "first",
                                           "cards": [{"card": "10003", "square": "c1"}], "reserve": ["20011"]})
    second = _write(tmp_path / "s.json", {"format": "berserk-ccg", "seat": "second", "cards": [{"card": "10002", "square": "c1"}]})
    out = tmp_path / "b.json"
    made = CliRunner().invoke(app, ["battle", "new", str(first), str(second), "--out", str(out)])
    assert made.exit_code == 0, made.output
    terrain = next(c for c in json.loads(out.read_text(encoding="utf-8"))["cards"] if c["card"] == "20011")
    assert terrain["zone"] == "reserve" and terrain["life"] is None
    assert CliRunner().invoke(app, ["battle", "moves", str(out)]).exit_code == 0
    assert check_state(ENGINE.read(out)) == []


def _over() -> BattleState:
    state = new_battle(load_side(DATA / "online-first.json"), load_side(DATA / "online-second.json"))
    for c in state.cards:
        if c.owner == "second":
            state = state.with_card(replace(c, zone="graveyard", square=None, open=True, hidden=False))
    assert state.over and state.result == "first wins"
    return state


@pytest.mark.parametrize("text", ["counters c3 +2", "pay c3 0", "mark c3 poison 1", "to-deck c3", "end", "move c3 c2",
                                  "from-graveyard #5 e4", "look first"])
def test_no_action_at_all_judges_or_not_follows_the_decided_result(text: str) -> None:
    """Online text, "Zug des zweiten Spielers": the battle ends when one player has beaten all the other's figures;
    so nothing, not even a judge's adjustment, may flip the result afterwards."""
    state = _over()
    with pytest.raises(IllegalAction, match="over"):
        apply(state, Action.parse(text))
    assert list(legal_actions(state)) == []


def test_online_first_player_is_drawn_from_the_seed_when_neither_file_names_its_seat(tmp_path: Path) -> None:
    """Online text, "Wer zieht zuerst?": at the start of a duel who attacks first is fixed at random."""
    a = load_side(_online(tmp_path, None, "a.json", ELVES))
    b = load_side(_online(tmp_path, None, "b.json", OTHERS))
    firsts = {seed: new_battle(a, b, seed).cards[0].card for seed in range(16)}
    assert set(firsts.values()) == {"b_ammah", "b_ahti"}  # either file can be first
    assert all(new_battle(a, b, seed).cards[0].card == card for seed, card in firsts.items())  # the seed fixes it
    state = new_battle(a, b, 3)
    assert any("first_player" in n for n in state.notes) and check_state(state) == []


def test_a_file_that_names_its_seat_keeps_it_and_the_other_takes_the_other_seat(tmp_path: Path) -> None:
    a = load_side(_online(tmp_path, "second", "a.json", ELVES))
    b = load_side(_online(tmp_path, None, "b.json", OTHERS))
    for seed in range(6):
        state = new_battle(b, a, seed)
        assert {c.card: c.owner for c in state.cards}["b_ammah"] == "second"


def test_seats_named_in_the_files_hold_whichever_file_the_command_names_first(tmp_path: Path) -> None:
    """The docs: placement files that name their seats keep them, and a file that names none takes the seat the
    other leaves, whatever the files' order in the command."""
    second = load_side(_online(tmp_path, "second", "a.json", ELVES))
    for other in (load_side(_online(tmp_path, None, "b.json", OTHERS)), load_side(_online(tmp_path, "first", "c.json", OTHERS))):
        state = new_battle(second, other, seed=1)
        owners = {c.card: c.owner for c in state.cards}
        assert owners["b_ammah"] == "second" and owners["b_ahti"] == "first" and state.to_move == "first"


def test_the_tabletop_order_of_the_files_decides_the_first_player() -> None:
    """Part 2 does not say how the first player is chosen: the files' order does (reading first_player)."""
    state = new_battle(load_side(DATA / "ccg-first.json"), load_side(DATA / "../../../squads/ccg-placement.json"), seed=7)
    assert not any("first_player" in n for n in state.notes)


def test_the_stack_is_the_undealt_and_the_unchosen_cards_closed_in_the_deck_zone_and_shuffled(tmp_path: Path) -> None:
    """Online text, "Spielzonen": the stack holds the cards not dealt to you and those you did not choose for the squad."""
    deck = tmp_path / "set.deck"
    deck.write_text("game: berserk-online\n3 b_ammah\n2 m_ulfsark\n2 b_ahti\n", encoding="utf-8")
    deal = _write(tmp_path / "deal.json", {"format": "berserk-online", "dealt": ["b_ammah", "b_ammah", "m_ulfsark", "b_ahti"]})
    first = load_side(_online(tmp_path, "first", "a.json", ELVES), deal, deck)
    assert Counter(first.stack) == Counter({"b_ammah": 2, "m_ulfsark": 1, "b_ahti": 2})
    state = new_battle(first, load_side(_online(tmp_path, "second", "b.json", OTHERS)), seed=5)
    deck_cards = [c for c in state.cards if c.zone == "deck"]
    assert len(deck_cards) == 5 and all(c.owner == "first" and not c.open for c in deck_cards)
    assert state.shuffles == 1 and check_state(state) == [] and state_from_dict(state.to_dict()) == state
    again = new_battle(first, load_side(_online(tmp_path, "second", "b.json", OTHERS)), seed=5)
    assert [c.card for c in again.cards] == [c.card for c in state.cards]


def test_a_placed_card_that_was_not_dealt_is_an_illegal_setup(tmp_path: Path) -> None:
    deal = _write(tmp_path / "deal.json", {"format": "berserk-online", "dealt": ["b_ammah"]})
    with pytest.raises(IllegalSetup, match="m_ulfsark"):
        load_side(_online(tmp_path, "first", "a.json", ELVES), deal)


def _with_stack(tmp_path: Path) -> BattleState:
    deal = _write(tmp_path / "deal.json", {"format": "berserk-online",
                                            "dealt": ["b_ammah", "m_ulfsark", "b_bokor", "d_asgara", "f_artotis"]})
    return new_battle(load_side(_online(tmp_path, "first", "a.json", ELVES), deal),
                      load_side(_online(tmp_path, "second", "b.json", OTHERS)), seed=2)


def test_a_called_card_comes_from_the_stack_onto_its_owners_half_closed_and_the_deck_is_shuffled(tmp_path: Path) -> None:
    """Online text, "Spielzonen": figures may be called from the stack onto the field; part 2: a deck that gives
    a card is shuffled (a judge's action: no catalogue code says which card calls which; reading returning_card)."""
    state = _with_stack(tmp_path)
    bokor = next(c for c in state.cards if c.zone == "deck" and c.card == "b_bokor")
    with pytest.raises(IllegalAction, match="half"):
        apply(state, Action.parse(f"call #{bokor.iid} c5"))
    after, events = apply(state, Action.parse(f"call #{bokor.iid} a2"))
    called = after.by_id(bokor.iid)
    assert called is not None and called.square == "a2" and not called.open and called.life == 9
    assert after.shuffles == state.shuffles + 1 and events[-1]["event"] == "shuffled"
    flyer = next(c for c in state.cards if c.zone == "deck" and c.card == "d_asgara")
    with pytest.raises(IllegalAction, match="reserve"):
        apply(state, Action.parse(f"call #{flyer.iid} a2"))
    assert apply(state, Action.parse(f"call #{flyer.iid} reserve"))[0].by_id(flyer.iid).zone == "reserve"  # type: ignore[union-attr]


def test_taking_the_top_card_of_a_deck_shuffles_it(tmp_path: Path) -> None:
    """Part 2, Колода: after an action takes a card from a deck, that deck is shuffled."""
    state = _with_stack(tmp_path)
    top = next(c for c in state.cards if c.zone == "deck")
    to = "reserve" if top.card == "d_asgara" else "a1"
    after, _ = apply(state, Action.parse(f"take-from-deck first {to}"))
    assert after.by_id(top.iid).zone != "deck" and after.shuffles == state.shuffles + 1  # type: ignore[union-attr]
    with pytest.raises(IllegalAction, match="empty"):
        apply(state, Action.parse("take-from-deck second a5"))


def test_looking_at_a_deck_shows_its_owner_the_cards_and_shuffles_it(tmp_path: Path) -> None:
    """Part 2, Колода: only the owner looks at a deck, where a text allows it; after a look the deck is shuffled."""
    state = _with_stack(tmp_path)
    after, events = apply(state, Action.parse("look first"))
    assert events[0]["seat"] == "first" and len(events[0]["cards"]) == 3 and after.shuffles == state.shuffles + 1
    assert sorted(c.iid for c in after.cards if c.zone == "deck") == sorted(events[0]["cards"])


def test_a_card_comes_back_from_the_graveyard_at_its_printed_life_without_counters(tmp_path: Path) -> None:
    """Online text, "Spielzonen": some figures may return from the graveyard to the field during the battle."""
    state = _with_stack(tmp_path)
    dead = next(c for c in state.cards if c.card == "m_ulfsark")
    state = state.with_card(replace(dead, zone="graveyard", square=None, life=-2, counters=3, markers=(("poison", 1),)))
    after, _ = apply(state, Action.parse(f"from-graveyard #{dead.iid} e1"))
    back = after.by_id(dead.iid)
    assert back is not None and (back.zone, back.square, back.life, back.counters, back.markers) == ("battlefield", "e1", 9, 0, ())
    with pytest.raises(IllegalAction, match="graveyard"):
        apply(after, Action.parse(f"from-graveyard #{dead.iid} e2"))


def test_the_stack_actions_read_back_from_their_text() -> None:
    for text in ("call #12 c2", "take-from-deck first reserve", "from-graveyard #4 b1", "look second"):
        assert str(Action.parse(text)) == text


def test_battle_new_takes_each_players_deal_and_writes_the_stack(tmp_path: Path) -> None:
    deal = _write(tmp_path / "deal.json", {"format": "berserk-online", "dealt": ["b_ammah", "m_ulfsark", "b_bokor"]})
    a, b = _online(tmp_path, "first", "a.json", ELVES), _online(tmp_path, "second", "b.json", OTHERS)
    out = tmp_path / "battle.json"
    made = CliRunner().invoke(app, ["battle", "new", str(a), str(b), "--first-deal", str(deal), "--out", str(out)])
    assert made.exit_code == 0, made.output
    assert [c["card"] for c in json.loads(out.read_text(encoding="utf-8"))["cards"] if c["zone"] == "deck"] == ["b_bokor"]
    ENGINE.write(ENGINE.read(out), tmp_path / "again.json")
