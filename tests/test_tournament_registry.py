"""Registered decklists and deck checks at the table: a match, a swap, a card moved to the side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.decks import read_deck
from cardkit.decks.canonical import deck_hash
from cardkit.errors import OutputRefused, UnreadableInput
from cardkit.tournament import check_event
from cardkit.tournament.registry import UnknownPlayer, build_registry, deck_check, read_registry, write_registry

EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
ALICE = EVENT / "decks" / "alice.deck"
REGISTRATIONS = str(EVENT / "registrations.csv")


@pytest.fixture(scope="module")
def registry_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("registry") / "registry.json"
    result = CliRunner().invoke(app, ["tournament", "register", str(EVENT), "-r", REGISTRATIONS, "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


def presented(tmp_path: Path, *edits: tuple[str, str]) -> Path:
    """Alice's registered deck as typed at the table, with each (old line, new text) edit applied."""
    text = ALICE.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "at-the-table.deck"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_registration_records_each_players_file_hash_list_verdict_time_and_catalogue(registry_file: Path) -> None:
    registry = read_registry(registry_file)  # also checks schemas/registry.schema.json
    players = {d["player"]: d for d in registry["decks"]}
    # Gus's file can't be read and Dmitri Nosubmission sent nothing: neither has a list to register.
    assert sorted(players) == ["<script>alert(\"x\")</script>", "Alice Archer", "Boris Kovalev", "Clara Dietrich",
                               "Frank Fischer", "clara  dietrich"]
    alice = players["Alice Archer"]
    assert alice["hash"] == deck_hash(read_deck(ALICE))
    assert alice["verdict"] == "legal" and alice["file"].endswith("alice.deck")
    assert {"card": "BK1-012", "name": "Guts", "count": 3} in alice["main"]
    assert sum(c["count"] for c in alice["side"]) == 10
    assert alice["registered_at"] == registry["registered_at"] and len(alice["catalogue"]) == 64
    assert registry["format"] == "berserk-tcg"


def test_a_registry_is_not_replaced_without_force(registry_file: Path, runner: CliRunner) -> None:
    before = registry_file.read_bytes()
    result = runner.invoke(app, ["tournament", "register", str(EVENT), "--out", str(registry_file)])
    assert result.exit_code == 2
    assert "exists, and a registry is kept (nothing written); give --force to replace it" in result.output
    assert registry_file.read_bytes() == before


def test_a_registry_refused_without_force_is_output_refused_under_json(registry_file: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "register", "--json", str(EVENT), "--out", str(registry_file)])
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["code"] == "OUTPUT_REFUSED"


def test_an_unknown_player_under_json_is_unknown_player(registry_file: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "deck-check", "--json", str(registry_file), "nobody", str(ALICE)])
    assert result.exit_code == 2
    assert json.loads(result.output)["error"]["code"] == "UNKNOWN_PLAYER"


def test_a_misspelt_player_is_unknown_with_the_registered_name_suggested(registry_file: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "alise archer", str(ALICE)])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.splitlines()[-1].endswith("; did you mean: Alice Archer")


def test_a_misspelt_player_under_json_carries_the_suggestions(registry_file: Path, runner: CliRunner) -> None:
    from jsonschema import Draft202012Validator

    result = runner.invoke(app, ["tournament", "deck-check", "--json", str(registry_file), "Boris Kovalyov", str(ALICE)])
    assert result.exit_code == 2
    data = json.loads(result.output)
    assert data["error"]["code"] == "UNKNOWN_PLAYER" and data["error"]["suggestions"] == ["Boris Kovalev"]
    schema = json.loads((Path(__file__).resolve().parent.parent / "schemas/output/error.schema.json").read_text())
    assert list(Draft202012Validator(schema).iter_errors(data)) == []


@pytest.mark.parametrize("typed, suggested", [
    ("archer", ["Alice Archer"]), ("Frank Fisher", ["Frank Fischer"]), ("Zed Nobody", []),
], ids=["surname-alone", "one-letter-off", "nobody-close"])
def test_player_suggestions_are_the_close_registered_names(registry_file: Path, typed: str, suggested: list[str]) -> None:
    with pytest.raises(UnknownPlayer) as caught:
        deck_check(read_registry(registry_file), typed, ALICE)
    assert caught.value.suggestions == suggested


def test_a_registry_never_replaces_an_input_even_with_force(tmp_path: Path, runner: CliRunner) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "alice.deck").write_bytes(ALICE.read_bytes())
    before = (folder / "alice.deck").read_bytes()
    result = runner.invoke(app, ["tournament", "register", str(folder), "--out", str(folder / "alice.deck"), "--force"])
    assert result.exit_code == 2 and "input" in result.output
    assert (folder / "alice.deck").read_bytes() == before


def test_invisible_characters_of_a_name_are_escaped_in_the_registry(tmp_path: Path) -> None:
    from cardkit.tournament.registry import render_registry

    (tmp_path / "a.deck").write_text(ALICE.read_text(encoding="utf-8").replace("Alice Archer", "Al\u202eice"),
                                     encoding="utf-8")
    registry = build_registry(check_event([tmp_path]))
    text = render_registry(registry)
    assert "\u202e" not in text and "Al\\u202eice" in text and json.loads(text) == registry


def test_force_replaces_a_registry(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    registry = build_registry(check_event([EVENT]))
    write_registry(registry, out)
    with pytest.raises(OutputRefused, match="forcing the write replaces it") as refused:
        write_registry(registry, out)
    assert refused.value.forcing_replaces and "--force" not in refused.value.message
    write_registry({**registry, "event": "again"}, out, force=True)
    assert read_registry(out)["event"] == "again"


@pytest.mark.smoke
def test_the_registered_deck_presented_again_matches(registry_file: Path, tmp_path: Path, runner: CliRunner) -> None:
    # Written another way (ids instead of names, other order) it is still the same deck.
    deck = presented(tmp_path, ("3 Guts (BK1-012)\n", ""), ("2 Bold Siege Squadron\n", "2 Bold Siege Squadron\n"),
                     ("Main\n", "Main\n3 BK1-012\n"))
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "alice  ARCHER", str(deck), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data == {"match": True, "player": "Alice Archer", "registration_unresolved": False, "registered_hash": data["presented_hash"],
                    "presented_hash": deck_hash(read_deck(ALICE)), "differences": [], "printings": []}


def test_one_card_swapped_and_one_moved_to_the_side_are_every_difference(registry_file: Path, tmp_path: Path,
                                                                          runner: CliRunner) -> None:
    deck = presented(tmp_path, ("3 Casca (BK1-013)", "2 Casca (BK1-013)\n1 Judeau (BK1-015)"),
                     ("3 Guts (BK1-012)", "2 Guts (BK1-012)"), ("Sideboard:\n", "Sideboard:\n1 Guts (BK1-012)\n"))
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Alice Archer", str(deck), "--json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert data["match"] is False and data["player"] == "Alice Archer"
    assert data["registered_hash"] != data["presented_hash"]
    assert data["differences"] == [
        {"card": "BK1-012", "name": "Guts", "section": "main", "registered": 3, "presented": 2},
        {"card": "BK1-012", "name": "Guts", "section": "side", "registered": 0, "presented": 1},
        {"card": "BK1-013", "name": "Casca", "section": "main", "registered": 3, "presented": 2},
        {"card": "BK1-015", "name": "Judeau", "section": "main", "registered": 2, "presented": 3},
    ]
    human = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Alice Archer", str(deck)])
    assert human.exit_code == 1
    lines = human.output.splitlines()
    assert lines[0].startswith("MISMATCH  Alice Archer") and "4 place(s)" in lines[0]
    assert lines[1].endswith("registered 3, presented 2: 1 moved to side")
    assert "1 moved from main" in lines[2]
    assert lines[3].endswith("1 missing") and lines[4].endswith("1 extra")


def test_moves_both_ways_and_a_missing_copy_are_told_apart(registry_file: Path) -> None:
    from cardkit.tournament.registry import compare_lists

    diffs = compare_lists("berserk-tcg", {"main": {"BK1-012": 3}, "side": {"BK1-012": 1}},
                          {"main": {"BK1-012": 1}, "side": {"BK1-012": 2}}, {})
    # Two fewer in main, one more in side: one moved, one gone.
    assert [(d.section, d.describe()) for d in diffs] == [("main", "1 moved to side, 1 missing"), ("side", "1 moved from main")]


def test_an_unknown_player_or_an_unreadable_deck_exits_2(registry_file: Path, tmp_path: Path, runner: CliRunner) -> None:
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Nobody Here", str(ALICE)])
    assert result.exit_code == 2 and "no registered deck for 'Nobody Here'" in result.output
    typo = presented(tmp_path, ("3 Casca (BK1-013)", "3 Kasca the Brave"))
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Alice Archer", str(typo)])
    assert result.exit_code == 2 and "needs every card line resolved" in result.output
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Alice Archer", str(tmp_path / "none.deck")])
    assert result.exit_code == 2
    with pytest.raises(UnknownPlayer):
        deck_check(read_registry(registry_file), "Dmitri Nosubmission", ALICE)
    # Clara sent two decks: there is no one list to check against.
    result = runner.invoke(app, ["tournament", "deck-check", str(registry_file), "Clara Dietrich", str(ALICE)])
    assert result.exit_code == 2 and "registered 2 decks" in result.output


def test_a_file_that_is_not_a_registry_is_unreadable(tmp_path: Path, runner: CliRunner) -> None:
    fake = tmp_path / "fake.json"
    fake.write_text('{"kind": "something else", "decks": []}', encoding="utf-8")
    with pytest.raises(UnreadableInput, match="not a cardkit registry"):
        read_registry(fake)
    result = runner.invoke(app, ["tournament", "deck-check", str(fake), "Alice Archer", str(ALICE)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_the_registry_text_is_the_registry_with_one_line_per_card() -> None:
    from cardkit.tournament.registry import render_registry

    registry = build_registry(check_event([EVENT], registrations=REGISTRATIONS))
    text = render_registry(registry)
    assert json.loads(text) == registry
    alice = next(d for d in registry["decks"] if d["player"] == "Alice Archer")
    assert '{"card": "BK1-012", "name": "Guts", "count": 3}' in [line.strip().rstrip(",") for line in text.splitlines()]
    card_lines = [line for line in text.splitlines() if line.lstrip().startswith('{"card":')]
    assert len(card_lines) == sum(len(d["main"]) + len(d["side"]) for d in registry["decks"])
    assert alice["main"]
    empty = {**registry, "decks": []}
    assert json.loads(render_registry(empty)) == empty


def test_the_registry_schema_is_a_valid_schema_and_a_registry_follows_it(registry_file: Path) -> None:
    from jsonschema import Draft202012Validator

    schema = json.loads((Path(__file__).resolve().parent.parent / "schemas" / "registry.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    data = json.loads(registry_file.read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    data["decks"][0]["hash"] = "not a hash"
    assert list(Draft202012Validator(schema).iter_errors(data))


@pytest.mark.smoke
def test_register_json_says_what_was_written(tmp_path: Path, runner: CliRunner) -> None:
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["tournament", "register", str(EVENT), "-r", REGISTRATIONS, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    registry = read_registry(out)
    assert data == {"path": str(out), "event": "spring-open", "decks": len(registry["decks"]),
                    "legal": sum(d["verdict"] == "legal" for d in registry["decks"]),
                    "illegal": sum(d["verdict"] == "illegal" for d in registry["decks"]),
                    "not_registered": 2}  # broken.deck (unreadable) and Dmitri Nosubmission (missing)


def test_a_registered_list_with_an_unresolved_line_never_matches(tmp_path: Path, runner: CliRunner) -> None:
    registry = build_registry(check_event([EVENT], registrations=REGISTRATIONS))
    alice = next(d for d in registry["decks"] if d["player"] == "Alice Archer")
    alice["hash"] = None  # as if one of her lines had named no card
    result = deck_check(registry, "Alice Archer", ALICE)
    assert not result.match and result.differences == []
    out = tmp_path / "r.json"
    write_registry(registry, out)
    shown = runner.invoke(app, ["tournament", "deck-check", str(out), "Alice Archer", str(ALICE)])
    assert shown.exit_code == 1 and "the registration itself was unresolved" in shown.output


def test_a_card_the_unresolved_registration_lacks_is_not_called_extra(tmp_path: Path, runner: CliRunner) -> None:
    registered, presented = tmp_path / "alice.deck", tmp_path / "table.deck"
    registered.write_text("player: Alice\nformat: berserk-tcg\n\n3 Gutz Gutz\n3 Casca (BK1-013)\n", encoding="utf-8")
    presented.write_text("player: Alice\nformat: berserk-tcg\n\n3 Guts (BK1-012)\n3 Casca (BK1-013)\n", encoding="utf-8")
    registry = build_registry(check_event([registered]))
    result = deck_check(registry, "Alice", presented)
    assert result.registration_unresolved and result.to_dict()["registration_unresolved"] is True
    assert [(d.card, d.registered, d.presented) for d in result.differences] == [("BK1-012", 0, 3)]
    assert "extra" not in result.differences[0].describe()
    out = tmp_path / "r.json"
    write_registry(registry, out)
    shown = runner.invoke(app, ["tournament", "deck-check", str(out), "Alice", str(presented)])
    assert shown.exit_code == 1 and "the registration itself was unresolved" in shown.output
    assert "extra" not in shown.output


def _ccg_registry(tmp_path: Path, cards: str) -> Path:
    event = tmp_path / "event"
    event.mkdir()
    (event / "boris.deck").write_text(f"game: berserk-ccg\nplayer: Boris Petrov\n{cards}", encoding="utf-8")
    out = tmp_path / "registry.json"
    write_registry(build_registry(check_event([event])), out)
    return out


def _at_table(tmp_path: Path, cards: str) -> Path:
    path = tmp_path / "table.deck"
    path.write_text(f"game: berserk-ccg\n{cards}", encoding="utf-8")
    return path


def test_a_ccg_card_presented_in_another_printing_matches_with_a_note(tmp_path: Path, runner: CliRunner) -> None:
    registry = _ccg_registry(tmp_path, "2 10021\n3 10001\n")
    deck = _at_table(tmp_path, "2 Мантикора\n3 10001\n")  # the name resolves to the latest printing, 50027
    result = deck_check(read_registry(registry), "Boris Petrov", deck)
    assert result.match and result.differences == []
    assert result.registered_hash != result.presented_hash
    assert [n.to_dict() for n in result.printings] == [
        {"name": "Мантикора", "section": "main", "registered": {"10021": 2}, "presented": {"50027": 2}}]
    human = runner.invoke(app, ["tournament", "deck-check", str(registry), "Boris Petrov", str(deck)])
    assert human.exit_code == 0, human.output
    assert human.output.startswith("MATCH")
    assert "note  main  Мантикора: registered as 2 10021, presented as 2 50027: printings of one card" in human.output


def test_a_missing_copy_of_a_reprinted_card_is_one_difference_under_the_registered_id(tmp_path: Path) -> None:
    registry = _ccg_registry(tmp_path, "2 10021\n3 10001\n")
    result = deck_check(read_registry(registry), "Boris Petrov", _at_table(tmp_path, "1 10021\n1 50027\n2 10001\n"))
    assert not result.match
    assert [(d.card, d.section, d.registered, d.presented) for d in result.differences] == [
        ("10001", "main", 3, 2)]
    assert [n.presented for n in result.printings] == [{"10021": 1, "50027": 1}]


def test_where_cards_count_by_id_two_cards_of_one_name_stay_different_cards(registry_file: Path, tmp_path: Path) -> None:
    from cardkit.formats.model import load_format

    assert load_format("berserk-tcg").copies_by == "card"
    deck = presented(tmp_path, ("3 Guts (BK1-012)", "3 Guts (BK1-011)"))
    result = deck_check(read_registry(registry_file), "Alice Archer", deck)
    assert not result.match and result.printings == []
    assert {d.card for d in result.differences} == {"BK1-011", "BK1-012"}
