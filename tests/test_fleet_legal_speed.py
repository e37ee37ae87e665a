"""Listing a fleet state's legal actions got cheaper, and answers exactly as before."""

from __future__ import annotations

import json
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from fleet_legal_record import FLEETS, answers

from cardkit.games.berserker import usage
from cardkit.games.berserker.game import legal
from cardkit.games.berserker.game.setup import new_game
from cardkit.games.berserker.model import load_rules

RECORDED = Path(__file__).resolve().parent / "data" / "fleet" / "legal-actions.json"


def test_legal_actions_list_in_seeded_random_games_what_they_listed_before_they_were_made_cheaper() -> None:
    # Recorded by tests/fleet_legal_record.py with the code before (4 games, 40 states each, sandbox and not).
    assert answers() == json.loads(RECORDED.read_text(encoding="utf-8"))


def test_can_use_answers_from_its_memo_as_it_answers_afresh_for_every_card_and_ship() -> None:
    rules = load_rules()
    for card in rules.cards.values():
        for ship in rules.ships.values():
            fresh = usage._judged(card, ship, rules)
            assert usage.can_use(card, ship, rules) == fresh
            assert usage.can_use(card, ship, rules) == fresh


def sandbox_start() -> Any:
    def fleet(name: str) -> Any:
        return json.loads((FLEETS / f"{name}.fleet.json").read_text(encoding="utf-8"))

    return new_game(fleet("human-ram-screen"), fleet("berserker-centre"), seed=3, sandbox=True)


def test_listing_the_first_few_legal_actions_tries_a_fraction_of_what_listing_them_all_tries(
        monkeypatch: pytest.MonkeyPatch) -> None:
    tried = []
    judge = legal.is_legal

    def counted(*args: Any) -> bool:
        tried.append(1)
        return judge(*args)

    monkeypatch.setattr(legal, "is_legal", counted)
    state = sandbox_start()
    everything = len(list(legal.legal_actions(state)))
    all_tries = len(tried)
    tried.clear()
    assert len(list(islice(legal.legal_actions(state), 5))) == 5
    assert everything > 50 and len(tried) * 4 < all_tries
