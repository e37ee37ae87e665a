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
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.tournament import check_event
from cardkit.tournament.registry import RegistryDamaged, build_registry, read_registry, render_registry
from sampling import examples

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
