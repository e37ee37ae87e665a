"""The JSON a command prints with --json is a library function's: a program calls it and gets the same document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas" / "output"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
FLEETS = ROOT / "decks" / "berserker" / "fleets"


def fleet_check() -> Any:
    from cardkit.games.berserker.game.setup import check_fleet_file, fleet_report_to_json

    return fleet_report_to_json(check_fleet_file(FLEETS / "human-illegal-forward.fleet.json"))


def fleet_ships() -> Any:
    from cardkit.games.berserker.model import load_rules, ships_to_json

    return ships_to_json(load_rules())


def combat_odds() -> Any:
    from cardkit.games.squad_games.battle.lookup import find_battle_pair
    from cardkit.games.squad_games.battle.odds import card_strike_odds, odds_to_json

    game, attacker, defender = find_battle_pair("b_ammah", "b_ahti")
    return odds_to_json(card_strike_odds(game, attacker, defender, None, None), attacker, defender)


def deck_hash() -> Any:
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import hash_to_json

    return hash_to_json(read_deck(HAWKS))


def deck_code() -> Any:
    from cardkit.decks import read_deck
    from cardkit.decks.code import code_to_json

    return code_to_json(read_deck(HAWKS))


def deck_diff() -> Any:
    from cardkit.decks import parse_deck, read_deck
    from cardkit.decks.canonical import diff_decks, diff_to_json

    before = read_deck(HAWKS)
    after = parse_deck(HAWKS.read_text(encoding="utf-8") + "\nSide\n1 BK1-013\n", path="after.deck")
    return diff_to_json(before, after, diff_decks(before, after))


DOCUMENTS = {"fleet-check": fleet_check, "fleet-ships": fleet_ships, "combat-odds": combat_odds,
             "deck-hash": deck_hash, "deck-code": deck_code, "deck-diff": deck_diff}


@pytest.mark.parametrize("schema", sorted(DOCUMENTS))
def test_each_library_document_matches_the_schema_of_its_commands_json(schema: str) -> None:
    document = DOCUMENTS[schema]()
    validator = Draft202012Validator(json.loads((SCHEMAS / f"{schema}.schema.json").read_text(encoding="utf-8")))
    assert list(validator.iter_errors(document)) == []
    json.dumps(document)  # plain JSON values only, nothing a program would have to convert


def test_the_deck_documents_carry_the_hash_and_code_a_program_gets_from_the_deck_itself() -> None:
    from cardkit.decks import read_deck
    from cardkit.decks.canonical import deck_hash as hash_of
    from cardkit.decks.code import encode_deck

    deck = read_deck(HAWKS)
    assert deck_hash() == {"path": deck.path, "game": deck.game, "format": deck.format, "hash": hash_of(deck)}
    assert deck_code()["code"] == encode_deck(deck)


def test_the_diff_document_names_both_decks_and_every_change() -> None:
    document = deck_diff()
    assert (document["before"]["path"], document["after"]["path"]) == (str(HAWKS), "after.deck")
    assert [(c["section"], c["card"], c["delta"]) for c in document["changes"]] == [("side", "BK1-013", 1)]


def test_an_imports_document_names_its_source_and_every_file_written(tmp_path: Path) -> None:
    from cardkit.catalogue.importing import import_game

    source = Path(__file__).resolve().parent / "data" / "catalogue" / "reference" / "berserker-fleet.txt"
    result = import_game("berserker", source, tmp_path)
    document = result.to_dict(source)
    validator = Draft202012Validator(json.loads((SCHEMAS / "catalogue-import.schema.json").read_text(encoding="utf-8")))
    assert list(validator.iter_errors(document)) == []
    assert document["path"] == str(source) and document["written"] == [str(p) for p in result.written] != []
