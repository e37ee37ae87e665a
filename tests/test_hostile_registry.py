"""A registry edited by hand is refused, never read as a false MATCH or MISMATCH: every registered list is
checked against its recorded hash (recomputed as `cardkit deck hash` computes it) and for repeated cards."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sampling import examples
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament import check_event
from cardkit.tournament.registry import RegistryDamaged, build_registry, read_registry, render_registry

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
ALICE = EVENT / "decks" / "alice.deck"
REGISTRY = build_registry(check_event([EVENT], registrations=EVENT / "registrations.csv"))
ALICE_AT = next(i for i, d in enumerate(REGISTRY["decks"]) if d["player"] == "Alice Archer")


def write(tmp_path: Path, registry: dict[str, Any]) -> Path:
    path = tmp_path / "registry.json"
    path.write_text(render_registry(registry), encoding="utf-8")
    return path


def test_a_registry_as_written_reads_and_records_the_cardkit_and_catalogue_that_wrote_it(tmp_path: Path) -> None:
    from cardkit import __version__
    from cardkit.catalogue.store import catalogue_hash

    registry = read_registry(write(tmp_path, REGISTRY))
    assert registry["cardkit"] == __version__ and registry["catalogue"] == catalogue_hash()
    assert all(d["catalogue"] == catalogue_hash() for d in registry["decks"])


# Each edit a hand might make: (what it does, the edit, words the refusal must say).
def _count(r: dict[str, Any]) -> None:
    r["decks"][ALICE_AT]["main"][0]["count"] += 1


def _twice(r: dict[str, Any]) -> None:
    main = r["decks"][ALICE_AT]["main"]
    main.append(dict(main[0]))


def _split(r: dict[str, Any]) -> None:
    main = r["decks"][ALICE_AT]["main"]
    first = next(c for c in main if c["count"] > 1)
    first["count"] -= 1
    main.append({**first, "count": 1})


def _hash(r: dict[str, Any]) -> None:
    h = r["decks"][ALICE_AT]["hash"]
    r["decks"][ALICE_AT]["hash"] = ("0" if h[0] != "0" else "1") + h[1:]


def _to_side(r: dict[str, Any]) -> None:
    deck = r["decks"][ALICE_AT]
    deck["side"].append(deck["main"].pop())


EDITS = {"count-changed": (_count, "hash"), "card-twice": (_twice, "twice"), "card-split-in-two": (_split, "twice"),
         "hash-changed": (_hash, "hash"), "card-moved-to-side": (_to_side, "hash")}


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_hand_edited_registry_is_registry_damaged_exit_2(edit: str, tmp_path: Path, runner: CliRunner) -> None:
    change, words = EDITS[edit]
    registry = copy.deepcopy(REGISTRY)
    change(registry)
    path = write(tmp_path, registry)
    with pytest.raises(RegistryDamaged, match=words):
        read_registry(path)
    result = runner.invoke(app, ["tournament", "deck-check", "--json", str(path), "Alice Archer", str(ALICE)])
    assert result.exit_code == 2
    assert json.loads(result.stdout)["error"]["code"] == "REGISTRY_DAMAGED"
    text = runner.invoke(app, ["tournament", "deck-check", str(path), "Alice Archer", str(ALICE)])
    assert text.exit_code == 2 and text.stdout == "" and text.stderr.count("\n") == 1
    assert "Alice Archer" in text.stderr and "register the event again" in text.stderr


@settings(max_examples=examples(60))
@given(data=st.data())
def test_any_change_to_a_registered_list_is_refused_or_changes_nothing(data: st.DataObject) -> None:
    registry = copy.deepcopy(REGISTRY)
    deck = data.draw(st.sampled_from([d for d in registry["decks"] if d["hash"]]))
    section = data.draw(st.sampled_from(["main", "side"]))
    cards = deck[section]
    if not cards:
        return
    at = data.draw(st.integers(0, len(cards) - 1))
    action = data.draw(st.sampled_from(["count", "drop", "repeat", "card", "swap-order"]))
    before = {s: sorted((c["card"], c["count"]) for c in deck[s]) for s in ("main", "side")}
    if action == "count":
        cards[at]["count"] = data.draw(st.integers(1, 50))
    elif action == "drop":
        cards.pop(at)
    elif action == "repeat":
        cards.append(dict(cards[at]))
    elif action == "card":
        cards[at]["card"] = data.draw(st.sampled_from(["BK1-001", "BK1-012", "BK1-013", "BK9-999", "10001"]))
    else:
        cards.reverse()
    after = {s: sorted((c["card"], c["count"]) for c in deck[s]) for s in ("main", "side")}
    from cardkit.tournament.registry import verify_registry

    try:
        verify_registry(registry)
    except RegistryDamaged:
        assert after != before
    else:
        # Only an edit that leaves the same cards in the same counts (a reordering) is no damage.
        assert after == before and len({c["card"] for c in cards}) == len(cards)


# Every field of a registered deck and of the registry is sealed: a deck check reads `format` and `game`, and a judge
# shows `file`, `verdict`, `errors` and `catalogue` as what was registered.
DECK_FIELDS = {"format": "berserk-tcg-open", "verdict": "illegal", "errors": 3, "warnings": 2, "file": "other.deck",
               "name": "Another deck", "catalogue": "0" * 64, "registered_at": "2020-01-01T00:00:00Z",
               "player": "Alice Archer Jr"}
REGISTRY_FIELDS = {"event": "another event", "format": "berserk-tcg-open", "registrations": "other.csv",
                   "registered_at": "2020-01-01T00:00:00Z", "cardkit": "0.0.1", "catalogue": "0" * 64}


@pytest.mark.parametrize("field", DECK_FIELDS)
def test_an_edit_to_any_field_of_a_registered_deck_is_registry_damaged(field: str, tmp_path: Path,
                                                                        runner: CliRunner) -> None:
    registry = copy.deepcopy(REGISTRY)
    assert registry["decks"][ALICE_AT][field] != DECK_FIELDS[field]
    registry["decks"][ALICE_AT][field] = DECK_FIELDS[field]
    path = write(tmp_path, registry)
    with pytest.raises(RegistryDamaged, match="differs from what was registered"):
        read_registry(path)
    result = runner.invoke(app, ["tournament", "deck-check", "--json", str(path), "Alice Archer", str(ALICE)])
    assert result.exit_code == 2 and json.loads(result.stdout)["error"]["code"] == "REGISTRY_DAMAGED"


@pytest.mark.parametrize("field", REGISTRY_FIELDS)
def test_an_edit_to_the_registrys_own_fields_is_registry_damaged(field: str, tmp_path: Path) -> None:
    registry = copy.deepcopy(REGISTRY)
    registry[field] = REGISTRY_FIELDS[field]
    with pytest.raises(RegistryDamaged, match="the registry's own fields or its list of decks differ"):
        read_registry(write(tmp_path, registry))


def test_a_registered_deck_removed_or_a_card_renamed_is_registry_damaged(tmp_path: Path) -> None:
    fewer = copy.deepcopy(REGISTRY)
    del fewer["decks"][0]
    with pytest.raises(RegistryDamaged, match="list of decks differ"):
        read_registry(write(tmp_path, fewer))
    renamed = copy.deepcopy(REGISTRY)
    renamed["decks"][ALICE_AT]["main"][0]["name"] = "Someone else"
    with pytest.raises(RegistryDamaged, match="differs from what was registered"):
        read_registry(write(tmp_path, renamed))


def test_a_registry_written_before_seals_still_reads_by_its_list_hashes(tmp_path: Path) -> None:
    old = copy.deepcopy(REGISTRY)
    old["layout"] = 1
    del old["seal"]
    for deck in old["decks"]:
        del deck["seal"]
    assert read_registry(write(tmp_path, old))["layout"] == 1
    _count(old)
    with pytest.raises(RegistryDamaged, match="hash"):
        read_registry(write(tmp_path, old))


def test_a_layout_2_registry_without_its_seals_is_registry_damaged(tmp_path: Path) -> None:
    unsealed = copy.deepcopy(REGISTRY)
    del unsealed["decks"][ALICE_AT]["seal"]
    with pytest.raises(RegistryDamaged, match="differs from what was registered"):
        read_registry(write(tmp_path, unsealed))
    del unsealed["seal"]
    for deck in unsealed["decks"]:
        deck.pop("seal", None)
    with pytest.raises(RegistryDamaged, match="differs from what was registered"):
        read_registry(write(tmp_path, unsealed))
