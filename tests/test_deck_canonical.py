"""Hash, diff and convert: the same deck however it is written."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from sampling import examples

from cardkit.decks import parse_deck, read_deck
from cardkit.decks.canonical import UnresolvedDeck, convert, deck_hash, diff_decks, to_json, to_text
from cardkit.errors import BadArgument

ROOT = Path(__file__).resolve().parent.parent
DECK_SCHEMA = json.loads((ROOT / "schemas" / "deck.schema.json").read_text(encoding="utf-8"))
BUNDLED = sorted(p for p in (ROOT / "decks").glob("*/*") if p.name.endswith((".deck", ".deck.json")))

BY_ID = "game: berserk-tcg\n12 BK1-001\n3 BK1-003\n2 BK1-012\nSide\n1 BK1-013\n"
BY_NAME = "game: berserk-tcg\nSide\n1 Casca (BK1-013)\nMain\n2 guts (bk1-12)\n3 MOONLIGHT RAIDERS\n6 Mercenary (BK1-001)\n6 BK1-1\n"


def test_the_same_deck_by_names_and_ids_in_any_order_hashes_the_same() -> None:
    assert deck_hash(parse_deck(BY_ID)) == deck_hash(parse_deck(BY_NAME))


def test_shuffled_lines_hash_the_same() -> None:
    lines = BY_ID.split("\n")[1:4]
    rng = random.Random(42)
    for _ in range(5):
        rng.shuffle(lines)
        assert deck_hash(parse_deck("game: berserk-tcg\n" + "\n".join(lines) + "\nSide\n1 BK1-013\n")) == deck_hash(parse_deck(BY_ID))


def test_moving_a_card_to_the_side_changes_the_hash() -> None:
    moved = "game: berserk-tcg\n12 BK1-001\n3 BK1-003\n1 BK1-012\nSide\n1 BK1-013\n1 BK1-012\n"
    assert deck_hash(parse_deck(moved)) != deck_hash(parse_deck(BY_ID))


def test_the_hash_is_a_sha256_hex_digest() -> None:
    h = deck_hash(parse_deck(BY_ID))
    assert len(h) == 64 and int(h, 16) >= 0


def test_an_unresolved_deck_has_no_hash() -> None:
    with pytest.raises(UnresolvedDeck) as exc:
        deck_hash(parse_deck("game: berserk-tcg\n3 Guts\n"))
    assert exc.value.error_code == "UNRESOLVED_DECK" and "AMBIGUOUS_CARD" in exc.value.message


def test_diff_lists_count_changes_per_section() -> None:
    after = "game: berserk-tcg\n12 BK1-001\n3 BK1-004\n2 BK1-012\nSide\n1 BK1-013\n2 BK1-003\n"
    changes = [(c.section, c.card, c.before, c.after, c.delta) for c in diff_decks(parse_deck(BY_ID), parse_deck(after))]
    assert changes == [("main", "BK1-003", 3, 0, -3), ("main", "BK1-004", 0, 3, 3), ("side", "BK1-003", 0, 2, 2)]


def test_diff_of_one_deck_written_two_ways_is_empty() -> None:
    assert diff_decks(parse_deck(BY_ID), parse_deck(BY_NAME)) == []


def test_diff_across_games_is_a_bad_argument() -> None:
    with pytest.raises(BadArgument):
        diff_decks(parse_deck(BY_ID), parse_deck("game: berserker\n8 marines\n"))


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_convert_round_trips_through_both_forms(path: Path) -> None:
    deck = read_deck(path)
    as_json = parse_deck(convert(deck, "json"))
    as_text = parse_deck(convert(as_json, "text"))
    assert as_json.source == "json" and as_text.source == "text"
    for other in (as_json, as_text):
        assert [(e.section, e.count, e.card) for e in other.entries] == [(e.section, e.count, e.card) for e in deck.entries]
        assert other.header == {"game": deck.game, **deck.header}
    assert convert(as_text, "text") == convert(as_json, "text")


@pytest.mark.parametrize("path", BUNDLED, ids=[p.name for p in BUNDLED])
def test_converted_json_and_bundled_json_decks_follow_the_deck_schema(path: Path) -> None:
    validator = Draft202012Validator(DECK_SCHEMA)
    assert list(validator.iter_errors(json.loads(to_json(read_deck(path))))) == []
    if path.name.endswith(".json"):
        assert list(validator.iter_errors(json.loads(path.read_text(encoding="utf-8")))) == []


def test_converting_keeps_unresolved_cards_as_written() -> None:
    deck = parse_deck("game: berserk-tcg\n3 Guts\n1 BK1-003\n")
    assert to_text(deck).splitlines()[-2:] == ["3 Guts", "1 Moonlight Raiders (BK1-003)"]


def test_a_deck_with_unparsable_lines_is_not_converted_silently() -> None:
    with pytest.raises(UnresolvedDeck):
        to_json(parse_deck("game: berserk-tcg\nthree Guts\n"))


def test_converting_to_an_unknown_form_is_a_bad_argument() -> None:
    with pytest.raises(BadArgument):
        convert(parse_deck(BY_ID), "yaml")


def _spellings(game: str) -> dict[str, list[str]]:
    """Per card of `game` whose name is its own: its id, its name, `NAME (ID)` and the name in capitals."""
    from cardkit.catalogue.lookup import card_index

    index = card_index(game)
    out: dict[str, list[str]] = {}
    for cid, card in index.catalogue.cards.items():
        forms = [cid, f"{card['name']} ({cid})"]
        if index.find(card["name"], suggest=False).resolved == cid:
            forms += [card["name"], card["name"].upper()]
        out[cid] = forms
    return out


@settings(max_examples=examples(60), deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_hash_diff_and_convert_ignore_spelling_order_and_line_splits(data: st.DataObject) -> None:
    game = data.draw(st.sampled_from(["berserk-tcg", "berserk-ccg", "berserk-online", "berserker"]))
    forms = _spellings(game)
    cards = data.draw(st.lists(st.sampled_from(sorted(forms)), min_size=1, max_size=8, unique=True))
    counts = {(c, s): data.draw(st.integers(1, 5)) for c in cards for s in data.draw(
        st.lists(st.sampled_from(["Main", "Side"]), min_size=1, max_size=2, unique=True))}
    by_id = f"game: {game}\n" + "".join(f"{section}\n{n} {card}\n" for (card, section), n in counts.items())
    lines = []
    for (card, section), n in counts.items():
        parts = data.draw(st.integers(1, n))
        for i in range(parts):
            written = data.draw(st.sampled_from(forms[card]))
            lines.append(f"{section}\n{n // parts + (1 if i < n % parts else 0)} {written}\n")
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    rng.shuffle(lines)
    a, b = parse_deck(by_id), parse_deck(f"game: {game}\n" + "".join(lines))
    assert deck_hash(a) == deck_hash(b) and diff_decks(a, b) == []
    for form in ("json", "text"):
        assert deck_hash(parse_deck(convert(b, form))) == deck_hash(a)
