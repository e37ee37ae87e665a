"""Reprints of one card are one card: the copy limit, unique cards in squads, and names in decks.

The rule these tests follow: later tabletop CCG sets reprint earlier cards under new ids
with the same name (set 50 reprints set 10, set 60 set 20), and "a reprint is the same
card, for the copy limit, for uniqueness and when a deck names it". The Berserk TCG
counts by card number ("no more than 3 copies of any single card (same card number)"),
and Berserk Online by card id, since versions of one name there have different stats.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from cardkit.catalogue.check import check_catalogue
from cardkit.catalogue.importing import import_game
from cardkit.catalogue.lookup import card_index
from cardkit.catalogue.store import load_game
from cardkit.decks import read_deck, validate_deck
from cardkit.decks.canonical import deck_hash
from cardkit.decks.legality import is_legal
from cardkit.decks.read import parse_deck
from cardkit.formats import list_formats, load_format
from cardkit.formats.model import read_format_file
from cardkit.games.squad_games.squads.budget import squad_rules
from cardkit.games.squad_games.squads.cards import squad_cards
from cardkit.games.squad_games.squads.check import best_for_file, check_squad
from cardkit.games.squad_games.squads.optimise import best_squad, brute_force_key
from cardkit.games.squad_games.squads.read import read_squad_file

DATA = Path(__file__).parent / "data"
DECKS = DATA / "decks"
MINI = DATA / "catalogue" / "mini"
MINI_SOURCE = DATA / "catalogue" / "reference" / "berserk-ccg-cards.json"

# The four names that made real name-only tournament decklists AMBIGUOUS_CARD: (earlier id, latest id).
REPRINTED = {
    "Шаман-душегрыз": ("10118", "50126"),
    "Мертвяцкая бомбарда": ("20159", "60173"),
    "Суккуб-истязатель": ("10142", "50154"),
    "Жрец штормов": ("20040", "60045"),
}


def codes(problems: list[Any]) -> list[str]:
    return [p.code for p in problems]


def test_three_mantikora_reprints_and_three_originals_are_six_copies() -> None:
    deck = read_deck(DECKS / "ccg-six-mantikora.deck")
    (p,) = validate_deck(deck)
    assert (p.code, p.limit, p.actual, p.line) == ("TOO_MANY_COPIES", 3, 6, 4)
    assert p.card == "10021, 50027"


def test_too_many_copies_names_each_printing_with_its_count_and_lines() -> None:
    deck = parse_deck("game: berserk-ccg\n2 10021\n24 Кочевник\n2 50027\n")
    (p,) = [p for p in validate_deck(deck) if p.card == "10021, 50027"]
    assert p.message == "4 cards named Мантикора (10021 ×2, 50027 ×2) on lines 2, 4; at most 3"


def test_too_many_copies_in_a_json_deck_names_the_entries_of_each_printing() -> None:
    doc = {"game": "berserk-ccg", "main": [{"card": "10021", "count": 2}, {"card": "50027", "count": 2}]}
    deck = parse_deck(json.dumps(doc), json_hint=True)
    (p,) = [p for p in validate_deck(deck) if p.code == "TOO_MANY_COPIES"]
    assert p.message == "4 cards named Мантикора (10021 ×2, 50027 ×2) at /main/0, /main/1; at most 3"


def test_three_copies_of_one_printing_alone_stay_within_the_limit() -> None:
    deck = parse_deck("game: berserk-ccg\n3 50027\n" + "".join(f"3 {cid}\n" for cid in range(10001, 10010)))
    assert validate_deck(deck) == []


def test_a_name_only_tournament_decklist_with_reprinted_names_is_legal() -> None:
    deck = read_deck(DECKS / "ccg-names-only.deck")
    assert validate_deck(deck) == []
    for name, (_, latest) in REPRINTED.items():
        assert deck.main[latest] == next(e.count for e in deck.entries if e.text == name)


@pytest.mark.parametrize("name", sorted(REPRINTED))
def test_a_name_a_card_and_its_reprint_share_resolves_to_the_latest_printing(name: str) -> None:
    earlier, latest = REPRINTED[name]
    index = card_index("berserk-ccg")
    assert index.find(name).resolved == latest
    assert index.find(f"{name} ({earlier})").resolved == earlier
    assert load_game("berserk-ccg").cards[latest]["printings"] == [earlier, latest]


def test_a_transliterated_name_of_a_reprinted_card_resolves_to_the_latest_printing_too() -> None:
    assert card_index("berserk-ccg").find("Mantikora").resolved == "50027"


def test_name_with_id_still_chooses_the_earlier_printing_and_counts_with_the_name() -> None:
    deck = parse_deck("game: berserk-ccg\n2 Мантикора (10021)\n2 Мантикора\n")
    assert deck.main == {"10021": 2, "50027": 2}
    assert "TOO_MANY_COPIES" in codes(validate_deck(deck))


def test_the_deck_hash_still_tells_two_printings_apart() -> None:
    base = "game: berserk-ccg\n" + "".join(f"3 {cid}\n" for cid in range(10001, 10010))
    assert deck_hash(parse_deck(base + "3 10021\n")) != deck_hash(parse_deck(base + "3 50027\n"))
    assert deck_hash(parse_deck(base + "3 Мантикора\n")) == deck_hash(parse_deck(base + "3 50027\n"))


def test_three_copies_each_of_several_different_guts_are_legal_in_the_tcg() -> None:
    deck = read_deck(DECKS / "tcg-three-of-several-guts.deck")
    assert is_legal(validate_deck(deck))
    assert [deck.main[g] for g in ("BK1-011", "BK1-012", "BK2-003")] == [3, 3, 3]


def test_the_two_lak_nak_versions_are_different_online_cards() -> None:
    deck = read_deck(DECKS / "online-lak-nak-versions.deck")
    assert validate_deck(deck) == []
    # Their stats differ, so the name alone still can't tell which one is meant.
    assert codes(parse_deck("game: berserk-online\n3 Лак-Нак\n").problems) == ["AMBIGUOUS_CARD"]


def test_berserk_ccg_counts_copies_by_name_and_every_other_format_by_card() -> None:
    assert {f.name: f.copies_by for f in list_formats()} == {
        "berserk-ccg": "name", "berserk-online": "card", "berserk-tcg": "card",
        "berserk-tcg-casual": "card", "berserker": "card",
    }
    assert all(f.data.get("copies_by_note") for f in list_formats())


def test_a_house_format_that_counts_ccg_copies_by_card_allows_three_of_each_printing(tmp_path: Path) -> None:
    house = {**load_format("berserk-ccg").data, "name": "house", "copies_by": "card", "default": False}
    path = tmp_path / "house.json"
    path.write_text(json.dumps(house, ensure_ascii=False), encoding="utf-8")
    assert validate_deck(read_deck(DECKS / "ccg-six-mantikora.deck"), read_format_file(path)) == []


def test_copies_by_must_be_card_or_name(tmp_path: Path) -> None:
    from cardkit.formats import FormatError

    path = tmp_path / "cup.json"
    path.write_text(json.dumps({"name": "cup", "game": "berserk-ccg", "title": "Cup", "copies_by": "latin"}), encoding="utf-8")
    with pytest.raises(FormatError, match="copies_by"):
        read_format_file(path)


def test_a_card_and_its_reprint_in_one_squad_are_the_unique_card_twice() -> None:
    squad = read_squad_file(DATA / "squads" / "ccg-mantikora-twice.txt")
    report = check_squad(squad, squad_rules("berserk-ccg"))
    (p,) = report.problems
    assert (p.code, p.card, p.actual) == ("UNIQUE_TWICE", "10021, 50027", 2)
    assert p.message == "Мантикора (10021 ×1, 50027 ×1) is unique and is in the squad 2 times"


def test_the_best_squad_never_recruits_a_unique_card_and_its_reprint_together() -> None:
    squad = read_squad_file(DATA / "squads" / "ccg-mantikora-twice.txt")
    rules = squad_rules("berserk-ccg")
    best = best_for_file(squad, rules)
    chosen = [best.deal[p].id for p in best.chosen]
    assert len({"10021", "50027"} & set(chosen)) == 1
    assert best.report.legal
    deal = [best.deal[p] for p in range(len(best.deal))]
    found = best_squad(deal, rules)
    assert (found.spent, len(found.positions)) == brute_force_key(deal, rules)[:2]


def test_online_unique_cards_stay_unique_per_id() -> None:
    rules = squad_rules("berserk-online")
    table = squad_cards("berserk-online")
    assert rules.unique_key(table["b_lak-nak"]) != rules.unique_key(table["b_lak_nak2"])


def test_the_catalogue_records_the_twenty_four_reprinted_ccg_cards() -> None:
    report = check_catalogue()
    assert report.ok and report.games["berserk-ccg"].extra["reprinted"] == 24
    cards = load_game("berserk-ccg").cards
    reprinted = {tuple(c["printings"]) for c in cards.values() if "printings" in c}
    assert len(reprinted) == 24
    for card in cards.values():
        if "printings" in card:
            assert [cards[i]["set"] for i in card["printings"]] == sorted(cards[i]["set"] for i in card["printings"])


def test_the_importer_records_a_later_set_reprint_as_a_printing_of_its_original(tmp_path: Path) -> None:
    records = json.loads(MINI_SOURCE.read_text(encoding="utf-8"))
    original = next(r for r in records if r["id"] == "10003")
    records.append({**original, "id": "50004", "set_id": 50, "number": 4})
    source = tmp_path / "cards.json"
    source.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    import_game("berserk-ccg", source, tmp_path / "cards")
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "cards" / "berserk-ccg").glob("*.json")}
    cards = {c["id"]: c for doc in docs.values() for c in doc["cards"]}
    assert cards["10003"]["printings"] == cards["50004"]["printings"] == ["10003", "50004"]
    assert "printings" not in cards["10001"]


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    shutil.copytree(MINI, tmp_path / "mini")
    return tmp_path / "mini"


def _edit_ccg(root: Path, change: Any) -> None:
    path = root / "cards" / "berserk-ccg" / "set-10.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc["cards"])
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")


def test_catalogue_check_refuses_printings_of_another_name(mini: Path) -> None:
    def change(cards: list[dict[str, Any]]) -> None:
        for c in cards:
            c["printings"] = ["10001", "10200"]

    _edit_ccg(mini, change)
    report = check_catalogue(mini / "cards", expectations=mini / "catalogue.json")
    mismatches = [p for p in report.problems if p.code == "PRINTINGS_MISMATCH"]
    assert len(mismatches) == 2 and "is called" in mismatches[0].message
    assert mismatches[0].pointer == "/cards/0/printings"


def test_catalogue_check_refuses_printings_that_name_no_card(mini: Path) -> None:
    def change(cards: list[dict[str, Any]]) -> None:
        cards[0]["printings"] = ["10001", "50001"]

    _edit_ccg(mini, change)
    report = check_catalogue(mini / "cards", expectations=mini / "catalogue.json")
    assert [(p.code, p.card) for p in report.problems] == [("PRINTINGS_MISMATCH", "10001")]
    assert "50001 is no berserk-ccg card" in report.problems[0].message


def test_a_printing_repeated_on_many_lines_is_named_with_its_first_lines_only() -> None:
    deck = parse_deck("game: berserk-ccg\n" + "1 10021\n" * 20 + "1 50027\n" + "".join(f"3 {cid}\n" for cid in range(10001, 10004)))
    (p,) = [p for p in validate_deck(deck) if p.code == "TOO_MANY_COPIES"]
    assert p.message == "21 cards named Мантикора (10021 ×20, 50027 ×1) on lines 2, 3, 4, 5, 6, 7, 8, 9 and 13 more; at most 3"


# Мародер (set 10) and its set-50 reprint Мародёр: the same card, the names differing only by ё.
MARODER = ("10171", "50184")


@pytest.mark.parametrize("name", ["Мародер", "Мародёр", "МАРОДЁР", "Maroder"])
def test_maroder_and_marodyor_are_printings_of_one_card_and_either_name_is_the_latest(name: str) -> None:
    cards = load_game("berserk-ccg").cards
    assert (cards["10171"]["name"], cards["50184"]["name"]) == ("Мародер", "Мародёр")
    assert cards["10171"]["printings"] == cards["50184"]["printings"] == list(MARODER)
    assert card_index("berserk-ccg").find(name).resolved == "50184"


def test_three_maroder_and_three_marodyor_are_six_copies() -> None:
    deck = parse_deck("game: berserk-ccg\n3 10171\n3 50184\n")
    (p,) = [p for p in validate_deck(deck) if p.code == "TOO_MANY_COPIES"]
    assert (p.card, p.limit, p.actual) == ("10171, 50184", 3, 6)


def test_three_maroder_named_without_yo_resolve_to_the_set_50_printing() -> None:
    assert parse_deck("game: berserk-ccg\n3 Мародер\n").main == {"50184": 3}


def test_maroder_and_marodyor_in_one_squad_are_the_unique_card_twice() -> None:
    squad = read_squad_file(DATA / "squads" / "ccg-maroder-twice.txt")
    report = check_squad(squad, squad_rules("berserk-ccg"))
    (p,) = [p for p in report.problems if p.code == "UNIQUE_TWICE"]
    assert (p.card, p.actual) == ("10171, 50184", 2)


def test_the_best_squad_never_recruits_maroder_and_marodyor_together() -> None:
    squad = read_squad_file(DATA / "squads" / "ccg-maroder-twice.txt")
    rules = squad_rules("berserk-ccg")
    best = best_for_file(squad, rules)
    assert len(set(MARODER) & {best.deal[p].id for p in best.chosen}) <= 1 and best.report.legal
    deal = [best.deal[p] for p in range(len(best.deal))]
    assert best_squad(deal, rules).spent == brute_force_key(deal, rules)[0]


def test_the_importer_groups_printings_by_the_folded_name_so_yo_and_ye_are_one_card(tmp_path: Path) -> None:
    records = json.loads(MINI_SOURCE.read_text(encoding="utf-8"))
    original = next(r for r in records if r["id"] == "10003")
    records.append({**original, "id": "50004", "set_id": 50, "number": 4, "name": " " + original["name"].upper() + " "})
    source = tmp_path / "cards.json"
    source.write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    import_game("berserk-ccg", source, tmp_path / "cards")
    docs = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in (tmp_path / "cards" / "berserk-ccg").glob("*.json")}
    cards = {c["id"]: c for doc in docs.values() for c in doc["cards"]}
    assert cards["10003"]["printings"] == cards["50004"]["printings"] == ["10003", "50004"]


def test_no_other_ccg_names_differ_only_by_case_yo_or_spacing() -> None:
    from cardkit.textfold import fold

    cards = load_game("berserk-ccg").cards.values()
    names: dict[str, set[str]] = {}
    for card in cards:
        names.setdefault(fold(card["name"]), set()).add(card["name"])
    assert [sorted(v) for v in names.values() if len(v) > 1] == [["Мародер", "Мародёр"]]


DEALT_10021 = ["10021"] + [str(i) for i in range(10001, 10014)] + ["10015"]


def _squad_file(tmp_path: Path, squad: list[str], dealt: list[str] = DEALT_10021) -> Path:
    path = tmp_path / "squad.txt"
    path.write_text("format: berserk-ccg\nseat: first\ndealt:\n" + "\n".join(dealt) + "\nsquad:\n" + "\n".join(squad) + "\n",
                    encoding="utf-8")
    return path


def test_a_squad_line_naming_a_reprinted_card_is_recruited_from_the_dealt_earlier_printing(tmp_path: Path) -> None:
    report = check_squad(read_squad_file(_squad_file(tmp_path, ["Мантикора", "10001"])), squad_rules("berserk-ccg"))
    assert report.problems == []
    assert [p.card.id for p in report.ledger.payments] == ["10021", "10001"]


def test_a_squad_line_giving_the_other_printings_id_is_still_not_dealt(tmp_path: Path) -> None:
    report = check_squad(read_squad_file(_squad_file(tmp_path, ["50027", "10001"])), squad_rules("berserk-ccg"))
    assert [(p.code, p.card, p.line) for p in report.problems] == [("CARD_NOT_DEALT", "50027", 20)]


def test_an_exact_id_keeps_its_printing_and_the_name_takes_the_other_dealt_one(tmp_path: Path) -> None:
    dealt = ["50027"] + DEALT_10021[:-1]
    report = check_squad(read_squad_file(_squad_file(tmp_path, ["Мантикора", "50027"], dealt)), squad_rules("berserk-ccg"))
    assert [p.code for p in report.problems] == ["UNIQUE_TWICE"]
    assert sorted(p.card.id for p in report.ledger.payments) == ["10021", "50027"]


def test_a_name_used_more_often_than_its_printings_were_dealt_is_not_dealt(tmp_path: Path) -> None:
    report = check_squad(read_squad_file(_squad_file(tmp_path, ["Мантикора", "Мантикора"])), squad_rules("berserk-ccg"))
    (p,) = [p for p in report.problems if p.code == "CARD_NOT_DEALT"]
    assert (p.line, p.limit, p.message) == (21, 1, "Мантикора was dealt 1 time(s) only")


def test_a_placed_card_named_by_name_is_the_squads_earlier_printing() -> None:
    from cardkit.games.squad_games.squads.placement import check_placement

    doc = {"format": "berserk-ccg", "seat": "first", "squad": ["10021", "10001"],
           "cards": [{"card": "10001", "square": "c1"}], "reserve": ["Мантикора"]}
    report = check_placement(doc)
    assert report.problems == [] and report.to_dict()["reserve"] == ["10021"]


def test_a_placed_id_of_the_other_printing_is_not_in_the_squad() -> None:
    from cardkit.games.squad_games.squads.placement import check_placement

    doc = {"format": "berserk-ccg", "seat": "first", "squad": ["10021", "10001"],
           "cards": [{"card": "10001", "square": "c1"}], "reserve": ["50027"]}
    assert sorted(p.code for p in check_placement(doc).problems) == ["NOT_IN_SQUAD", "NOT_PLACED"]


def test_online_printings_of_one_name_stay_different_cards_when_matching_a_deal(tmp_path: Path) -> None:
    from cardkit.games.squad_games.squads.printings import match_printings

    table = squad_cards("berserk-online")
    a, b = table["b_lak-nak"], table["b_lak_nak2"]
    assert match_printings([(a, True)], [(b, True)], squad_rules("berserk-online")) == [None]
