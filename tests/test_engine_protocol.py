"""Every engine through the one protocol: random games whose listed moves are accepted, near misses refused,
cards conserved, states read back, replays identical and no dead ends. Seeded; a small count in CI."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sampling import examples

from cardkit.errors import IllegalAction
from cardkit.games.engine import Engine, distinct_combinations
from cardkit.jsonio import dumps_canonical

ROOT = Path(__file__).resolve().parents[1]
GAMES = 2
STEPS = 40


def battle_start(seed: int) -> tuple[Engine[Any, Any], Any]:
    from cardkit.games.squad_games.battle.engine import ENGINE
    from cardkit.games.squad_games.battle.setup import load_side, new_battle

    data = ROOT / "tests" / "data" / "battle"
    return ENGINE, new_battle(load_side(data / "online-first.json"), load_side(data / "online-second.json"), seed)


def tcg_start(seed: int) -> tuple[Engine[Any, Any], Any]:
    from cardkit.games.berserk_tcg.game.engine import ENGINE
    from cardkit.games.berserk_tcg.game.setup import deck_cards, new_game

    decks = [deck_cards(str(ROOT / "decks" / "berserk-tcg" / f)) for f in ("white-hawks.deck", "red-apostles.deck")]
    return ENGINE, new_game([d for _, d in decks], [n for n, _ in decks], seed=seed)


def fleet_start(seed: int) -> tuple[Engine[Any, Any], Any]:
    import json

    from cardkit.games.berserker.game.engine import ENGINE
    from cardkit.games.berserker.game.setup import new_game

    fleets = ROOT / "decks" / "berserker" / "fleets"
    human, berserker = (json.loads((fleets / f).read_text(encoding="utf-8"))
                        for f in ("human-ram-screen.fleet.json", "berserker-centre.fleet.json"))
    return ENGINE, new_game(human, berserker, seed=seed)


STARTS: dict[str, Callable[[int], tuple[Engine[Any, Any], Any]]] = {
    "battle": battle_start, "tcg": tcg_start, "fleet": fleet_start}


def near_misses(engine: Engine[Any, Any], listed: list[str], rng: random.Random) -> list[str]:
    """Texts one word away from a listed action: another listed action's word in its place."""
    words = sorted({w for text in listed for w in text.replace(",", " ").split()})
    out = []
    for _ in range(8):
        parts = rng.choice(listed).split(" ")
        i = rng.randrange(len(parts))
        parts[i] = rng.choice(words)
        out.append(" ".join(parts))
    return out


def play(name: str, seed: int) -> list[str]:
    """One random game through the protocol, checking every invariant on the way; the texts played."""
    engine, state = STARTS[name](seed)
    rng = random.Random(seed)
    stock = engine.inventory(state)
    played: list[str] = []
    for _ in range(STEPS):
        assert engine.unreadable(state) is None
        assert engine.to_dict(engine.read_text(dumps_canonical(engine.to_dict(state)))) == engine.to_dict(state)
        actions = list(engine.legal_actions(state))
        texts = [str(a) for a in actions]
        assert len(texts) == len(set(texts)), "moves lists a text twice"
        assert all(str(engine.parse(t)) == t and engine.parse(t) == a for t, a in zip(texts, actions))
        if not actions:
            assert engine.over(state), "a dead end: no legal action in an undecided game"
            return played
        for miss in near_misses(engine, texts, rng):
            try:
                action = engine.parse(miss)
            except Exception as exc:  # noqa: BLE001 - text that is no action is refused as BAD_ACTION
                assert getattr(exc, "error_code", None) == "BAD_ACTION"
                continue
            if str(action) not in texts and engine.listed_fully(state, action):
                with pytest.raises(IllegalAction):
                    engine.apply(state, action)
        action = engine.complete(state, rng.choice(actions), rng)
        after, events = engine.apply(state, action)
        assert all("text" in e for e in events)
        assert engine.inventory(after) == stock, f"{action} changed the cards in the game"
        state = after
        played.append(str(action))
    return played


@pytest.mark.parametrize("name", sorted(STARTS))
@pytest.mark.parametrize("seed", range(GAMES))
def test_random_games_keep_every_invariant_of_the_protocol_and_replay_identically(name: str, seed: int) -> None:
    played = play(name, seed)
    engine, start = STARTS[name](seed)
    replayed = engine.apply_all(start, played)
    assert replayed.legal and replayed.applied == len(played)
    again = engine.apply_all(STARTS[name](seed)[1], played)
    assert engine.to_dict(again.state) == engine.to_dict(replayed.state)


def decided(name: str) -> tuple[Engine[Any, Any], Any] | None:
    """A seeded game played to its end, attacks first, or None when none of a few seeds ends in the bound."""
    for seed in range(10):
        engine, state = STARTS[name](seed)
        rng = random.Random(seed)
        for _ in range(600):
            actions = list(engine.legal_actions(state))
            if not actions:
                return engine, state
            fights = [a for a in actions if str(a).split(" ")[0] in ("attack", "fire", "defend", "draw", "discard")]
            state, _ = engine.apply(state, engine.complete(state, rng.choice(fights or actions), rng))
    return None


@pytest.mark.parametrize("name", ["battle", "tcg"])
def test_a_decided_game_lists_no_action_and_refuses_every_one(name: str) -> None:
    found = decided(name)
    assert found is not None, "one of the seeded games comes to its end within the step bound"
    engine, state = found
    assert engine.over(state), "a game with no legal action is a decided one"
    assert list(engine.legal_actions(state)) == []
    with pytest.raises(IllegalAction):
        engine.apply(state, engine.parse("end"))


def test_distinct_combinations_give_each_choice_of_copies_once() -> None:
    hand = ["b", "a", "a", "c", "a"]
    got = list(distinct_combinations(hand, 2))
    assert got == [("a", "a"), ("a", "b"), ("a", "c"), ("b", "c")]
    assert list(distinct_combinations(hand, 0)) == [()] and list(distinct_combinations(hand, -1)) == []
    assert list(distinct_combinations(hand, 6)) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STARTS))
def test_many_longer_random_games_keep_every_invariant_of_the_protocol(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "STEPS", 150)
    for seed in range(100, 100 + examples(10)):  # ten seeds with --hypothesis-profile=thorough, five by default
        assert play(name, seed), "a game starts with a legal action"
