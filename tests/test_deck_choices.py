"""An ambiguous name is a choice: its problem carries every candidate, and what every candidate shares still counts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from cardkit.cli.main import app
from cardkit.decks import parse_deck, validate_deck
from cardkit.games.squad_games.squads.read import resolve

ROOT = Path(__file__).resolve().parent.parent
TCG_GUTS_IDS = ["BK1-011", "BK1-012", "BK1-044", "BK1-045", "BK1-046", "BK2-003", "BK2-018", "BK3-005",
                "BK3-018", "BK4-004", "BK4-005", "BK4-023", "BK5-004", "BK5-022", "BK5-023"]


def codes(problems: list) -> list[str]:
    return [p.code for p in problems]


def test_an_ambiguous_tcg_name_carries_all_fifteen_guts_with_the_tcg_fields() -> None:
    (problem,) = parse_deck("game: berserk-tcg\n3 Guts\n").problems
    assert problem.code == "AMBIGUOUS_CARD" and problem.candidates is not None
    assert [c["id"] for c in problem.candidates] == TCG_GUTS_IDS == problem.actual
    assert problem.candidates[0] == {
        "id": "BK1-011", "name": "Guts", "set": "BK1", "colour": "white",
        "cost": {"white": 1, "green": 0, "black": 0, "red": 0, "colourless": 1}, "level": 1, "power": 2, "hp": 3}


def test_an_ambiguous_online_name_carries_the_online_fields_with_the_series_as_its_set() -> None:
    (problem,) = parse_deck("game: berserk-online\n3 Лак-Нак\n").problems
    assert problem.candidates is not None and len(problem.candidates) == 2
    first = problem.candidates[0]
    assert set(first) == {"id", "name", "set", "elements", "cost", "life", "strike"}
    assert isinstance(first["set"], int) and set(first["strike"]) == {"weak", "medium", "strong"}


def test_only_a_name_several_cards_share_or_its_misspelling_has_candidates_and_only_their_json_has_the_key() -> None:
    problems = parse_deck("game: berserk-tcg\n3 Guts\n3 Gutz\n3 Moonlite Raiders\n").problems
    assert codes(problems) == ["AMBIGUOUS_CARD", "UNKNOWN_CARD", "UNKNOWN_CARD"]
    assert [("candidates" in p.to_dict()) for p in problems] == [True, True, False]


def test_a_misspelling_of_a_name_several_cards_share_offers_every_card_of_that_name() -> None:
    guts, gutz = parse_deck("game: berserk-tcg\n3 Guts\n3 Gutz\n").problems
    assert gutz.code == "UNKNOWN_CARD" and "did you mean Guts? 15 cards are called that" in gutz.message
    assert gutz.candidates == guts.candidates and len(guts.candidates or ()) == 15


def test_validate_json_lists_the_candidates_in_the_shape_of_the_validate_schema(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "names.deck"
    deck.write_text("game: berserk-tcg\n12 Mercenary\n3 Guts\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", "--json", str(deck)])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    schema = json.loads((ROOT / "schemas" / "output" / "validate.schema.json").read_text(encoding="utf-8"))
    assert list(Draft202012Validator(schema).iter_errors(data)) == []
    guts = next(p for p in data[0]["problems"] if p["card"] == "Guts")
    assert [c["id"] for c in guts["candidates"]] == TCG_GUTS_IDS


def test_the_terminal_shows_one_line_per_candidate_with_only_what_tells_them_apart(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "names.deck"
    deck.write_text("game: berserk-tcg\n12 Mercenary\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(deck)])
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "AMBIGUOUS_CARD" in line)
    shown = [line.strip() for line in lines[start + 1:start + 21]]
    # The 20 Mercenaries differ in set, colour and cost only: level, power and hp are the same, so not shown.
    assert shown[0] == "BK1-001  set BK1, white, cost 1 white"
    assert shown[19] == "BK5-061  set BK5, red, cost 1 red"
    assert not lines[start + 21].startswith(" " * 43)


def test_a_line_naming_only_mercenaries_counts_toward_the_mercenary_total() -> None:
    problems = validate_deck(parse_deck("game: berserk-tcg\n12 Mercenary\n"))
    assert "FEW_MERCENARIES" not in codes(problems)
    problems = validate_deck(parse_deck("game: berserk-tcg\n9 Mercenary\n"))
    (few,) = [p for p in problems if p.code == "FEW_MERCENARIES"]
    assert few.actual == 9


def test_a_line_whose_candidates_are_not_all_mercenaries_does_not_count_toward_them() -> None:
    problems = validate_deck(parse_deck("game: berserk-tcg\n12 Guts\n"))
    (few,) = [p for p in problems if p.code == "FEW_MERCENARIES"]
    assert few.actual == 0


@pytest.mark.parametrize(("name", "unpayable"), [("Judeau", False), ("Casca", True)],
                         ids=["every Judeau is white", "Casca is white or green"])
def test_a_line_whose_candidates_share_a_colour_pays_that_colour(name: str, unpayable: bool) -> None:
    # Griffith (BK1-009) needs two other white cards.
    problems = validate_deck(parse_deck(f"game: berserk-tcg\n1 BK1-009\n2 {name}\n"))
    assert ("UNPAYABLE_COST" in codes(problems)) is unpayable


def test_an_ambiguous_squad_card_carries_its_candidates_too() -> None:
    squad = resolve("squad.json", {"format": "berserk-online"}, {"squad": [("Лак-Нак", None, "/squad/0")]})
    (problem,) = squad.problems
    assert problem.code == "AMBIGUOUS_CARD" and problem.candidates is not None and len(problem.candidates) == 2


NAMES = "game: berserk-tcg\n# a first deck, written by name\n12 Mercenary\n3 Guts\n3 Moonlight Raiders\n"


@pytest.fixture
def names_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "names.deck"
    deck.write_text(NAMES, encoding="utf-8")
    return deck


@pytest.fixture
def on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """CliRunner's standard input is never a terminal; the command asks as if it were."""
    import cardkit.cli.deck

    monkeypatch.setattr(cardkit.cli.deck, "_can_ask", lambda deck: True)


def test_resolve_without_a_terminal_lists_every_choice_and_exits_2_writing_nothing(
        runner: CliRunner, names_deck: Path, tmp_path: Path) -> None:
    out = tmp_path / "resolved.deck"
    result = runner.invoke(app, ["deck", "resolve", str(names_deck), "--out", str(out)])
    assert result.exit_code == 2 and result.stdout == ""
    assert "BK1-001  set BK1, white, cost 1 white" in result.stderr
    assert "BK5-023  set BK5, green, cost 4 green, level 3, power 7, hp 6" in result.stderr
    assert "error: " in result.stderr and "2 line(s) name several cards" in result.stderr
    assert not out.exists() and names_deck.read_text(encoding="utf-8") == NAMES


def test_resolve_asks_one_numbered_question_per_line_and_writes_every_line_with_its_id(
        runner: CliRunner, names_deck: Path, on_a_terminal: None) -> None:
    # Mercenary: the 1st candidate (BK1-001); Guts: the 5th (BK1-046).
    result = runner.invoke(app, ["deck", "resolve", str(names_deck)], input="1\n5\n")
    assert result.exit_code == 0, result.output
    assert "(1/2) line 3: 12 Mercenary is 20 cards; which one?" in result.stderr
    assert "(2/2) line 4: 3 Guts is 15 cards; which one?" in result.stderr
    written = "game: berserk-tcg\n\nMain\n12 Mercenary (BK1-001)\n3 Guts (BK1-046)\n3 Moonlight Raiders (BK1-003)\n"
    # CliRunner echoes each answer to stdout, as a terminal shows it typed; the deck follows.
    assert result.stdout.split()[:2] == ["1", "5"] and result.stdout.endswith("\n" + written)
    assert parse_deck(written).problems == []
    assert names_deck.read_text(encoding="utf-8") == NAMES


def test_resolve_asks_again_after_an_answer_that_is_no_candidate_and_0_leaves_a_line(
        runner: CliRunner, names_deck: Path, on_a_terminal: None) -> None:
    # Full-width and Arabic-Indic digits are digits to str.isdigit, but no count in a deck is written so.
    result = runner.invoke(app, ["deck", "resolve", str(names_deck)], input="21\nfirst\n\uff11\n\u0662\n0\n2\n")
    assert result.exit_code == 0, result.output
    assert "'21' is not a number from 0 to 20" in result.stderr and "'first' is not" in result.stderr
    assert "'\uff11' is not" in result.stderr and "'\u0662' is not" in result.stderr
    assert "12 Mercenary\n3 Guts (BK1-012)\n" in result.stdout
    assert "1 line(s) left as written" in result.stderr


def test_resolve_shows_an_answer_with_a_control_character_escaped_once(
        runner: CliRunner, names_deck: Path, on_a_terminal: None) -> None:
    result = runner.invoke(app, ["deck", "resolve", str(names_deck)], input="\x1b[A\n0\n0\n")
    assert result.exit_code == 0, result.output
    assert "'\\x1b[A' is not a number from 0 to 20" in result.stderr and "\\\\x1b" not in result.stderr


def test_end_of_input_at_a_question_stops_with_no_answer_given_exit_2_and_writes_nothing(
        runner: CliRunner, names_deck: Path, tmp_path: Path, on_a_terminal: None) -> None:
    out = tmp_path / "resolved.deck"
    result = runner.invoke(app, ["deck", "resolve", str(names_deck), "--out", str(out)], input="1\n")
    assert result.exit_code == 2, result.output
    assert "error: no answer given (end of input)" in result.stderr and "interrupted" not in result.stderr
    assert not out.exists() and names_deck.read_text(encoding="utf-8") == NAMES


def test_resolve_never_writes_over_its_input(runner: CliRunner, names_deck: Path, on_a_terminal: None) -> None:
    result = runner.invoke(app, ["deck", "resolve", str(names_deck), "--out", str(names_deck)], input="1\n1\n")
    assert result.exit_code == 2 and "error: " in result.stderr
    assert names_deck.read_text(encoding="utf-8") == NAMES


def test_resolve_writes_out_atomically_and_may_replace_its_own_earlier_output(
        runner: CliRunner, names_deck: Path, tmp_path: Path, on_a_terminal: None) -> None:
    out = tmp_path / "resolved.deck"
    for answers, expected in (("1\n1\n", "3 Guts (BK1-011)"), ("1\n2\n", "3 Guts (BK1-012)")):
        result = runner.invoke(app, ["deck", "resolve", str(names_deck), "--out", str(out)], input=answers)
        assert result.exit_code == 0, result.output
        assert expected in out.read_text(encoding="utf-8") and result.stdout.split() == answers.split()  # echoed answers only


def test_a_json_deck_is_resolved_into_json(runner: CliRunner, tmp_path: Path, on_a_terminal: None) -> None:
    deck = tmp_path / "names.json"
    deck.write_text('{"game": "berserk-tcg", "main": [{"card": "Guts", "count": 3}]}', encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)], input="2\n")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout[result.stdout.index("{"):])["main"] == [{"card": "Guts (BK1-012)", "count": 3}]


def test_choosing_a_card_the_line_cannot_mean_is_refused() -> None:
    from cardkit.decks.choices import choose, open_choices
    from cardkit.errors import BadArgument

    deck = parse_deck(NAMES)
    (mercenary, guts) = open_choices(deck)
    assert (mercenary.line, guts.line, len(guts.candidates)) == (3, 4, 15)
    with pytest.raises(BadArgument, match="not one of the cards"):
        choose(deck, {guts.index: "BK1-001"})
    assert choose(deck, {guts.index: "BK1-012"}).main == {"BK1-012": 3, "BK1-003": 3}


def test_resolve_of_standard_input_cannot_ask_says_the_deck_holds_standard_input_and_lists_the_choices(
        runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "resolve", "-"], input=NAMES)
    # `deck resolve - < file` is typed on a terminal: "no terminal" would mislead.
    assert result.exit_code == 2 and "no terminal" not in result.stderr
    assert "the deck itself comes from standard input" in result.stderr
    assert "save the deck to a file and run `cardkit deck resolve FILE` on a terminal" in result.stderr
    assert "BK1-011  set BK1, white, cost 1 white + 1, level 1, power 2, hp 3" in result.stderr


def test_resolve_of_a_deck_with_nothing_to_choose_writes_it_with_ids_without_asking(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "ids.deck"
    deck.write_text("game: berserk-tcg\n3 BK1-12\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)])
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout == "game: berserk-tcg\n\nMain\n3 Guts (BK1-012)\n"


def test_a_name_only_line_over_the_copy_limit_is_too_many_copies_whichever_card_it_means() -> None:
    problems = validate_deck(parse_deck("game: berserk-tcg\n4 Guts\n3 Casca\n20 Mercenary\n"))
    (too_many,) = [p for p in problems if p.code == "TOO_MANY_COPIES"]
    assert (too_many.line, too_many.card, too_many.actual, too_many.limit) == (2, "Guts", 4, 3)
    assert too_many.message == "4 copies of 'Guts', whichever of its 15 cards is meant; at most 3"


def test_resolve_without_a_terminal_lists_a_name_repeated_on_many_lines_once_with_its_lines(
        runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "pasted.deck"
    deck.write_text("game: berserk-tcg\n" + "1 Guts\n" * 500, encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.count("BK5-023  set BK5") == 1
    assert "(found alike on 500 lines: 2, 3, 4," in result.stderr and "500 line(s) name several cards" in result.stderr


def test_a_candidate_alike_an_earlier_one_in_every_shown_field_says_whose_twin_it_is(runner: CliRunner,
                                                                                      tmp_path: Path) -> None:
    from cardkit.decks.linefixes import line_fixes
    from cardkit.decks.report import validate_text

    deck = tmp_path / "casca.deck"
    deck.write_text("game: berserk-tcg\n3 Casca\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(deck)])
    assert "BK1-013  set BK1, white, cost 1 white, level 1, power 2, hp 2\n" in result.stdout
    assert ("BK1-014  set BK1, white, cost 1 white, level 1, power 2, hp 2 (the same as BK1-013 in these fields)\n"
            in result.stdout)
    options = {o.id: o.details for o in line_fixes(validate_text("game: berserk-tcg\n3 Casca\n", "casca.deck"))[2].options}
    assert options["BK1-014"].endswith("(the same as BK1-013 in these fields)")
    assert options["BK1-013"] == "set BK1, white, cost 1 white, level 1, power 2, hp 2"


def test_resolve_asks_once_for_a_name_on_several_lines_and_writes_the_answer_on_each(
        runner: CliRunner, tmp_path: Path, on_a_terminal: None) -> None:
    deck = tmp_path / "twice.deck"
    deck.write_text("game: berserk-tcg\n3 Guts\n12 Mercenary\n2 guts\nSideboard\n1 Guts\n", encoding="utf-8")
    # Guts: the 5th candidate (BK1-046), once for its three lines; Mercenary: the 1st.
    result = runner.invoke(app, ["deck", "resolve", str(deck)], input="5\n1\n")
    assert result.exit_code == 0, result.output
    assert "(1/2) lines 2, 4, 6: Guts is 15 cards; which one? (applies to 3 lines)" in result.stderr
    assert "(2/2) line 3: 12 Mercenary is 20 cards; which one?" in result.stderr
    assert result.stderr.count("which one?") == 2
    written = result.stdout[result.stdout.index("game:"):]
    assert written.count("Guts (BK1-046)") == 3 and "12 Mercenary (BK1-001)" in written
    assert parse_deck(written).problems == []


def test_lines_that_could_mean_the_same_cards_are_one_question_in_the_order_of_their_first_line() -> None:
    from cardkit.decks.choices import open_choices, questions
    from cardkit.decks.read import parse_deck as read_text

    deck = read_text("game: berserk-tcg\n1 Guts\n12 Mercenary\n1 Guts\n1 Casca\n1 Guts\n", path="x.deck")
    asked = questions(open_choices(deck))
    assert [[c.line for c in same] for same in asked] == [[2, 4, 6], [3], [5]]


def test_lines_that_name_the_same_cards_share_one_set_of_candidates_not_a_copy_each() -> None:
    from cardkit.decks.choices import open_choices, questions

    # A pasted list of 140,000 such lines made 15 dicts a line: five times `validate`'s memory.
    deck = parse_deck("game: berserk-tcg\n" + "1 Guts\n" * 50 + "Side\n2 guts\n")
    choices = open_choices(deck)
    assert len(choices) == 51 and len({id(c.candidates) for c in choices}) == 1
    assert [len(same) for same in questions(choices)] == [51]


def test_resolve_tells_a_line_that_names_no_card_as_validate_does_and_exits_1(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "pasted.deck"
    deck.write_text("game: berserk-tcg\n2 Moonlite Raiders\n3 BK1-12\n", encoding="utf-8")
    validated = runner.invoke(app, ["validate", str(deck)])
    (told,) = [line for line in validated.stdout.splitlines() if "UNKNOWN_CARD" in line]
    assert "did you mean Moonlight Raiders (BK1-003)" in told
    result = runner.invoke(app, ["deck", "resolve", str(deck)])
    assert result.exit_code == validated.exit_code == 1
    assert result.stderr.splitlines()[0] == told
    # The rest is still written, the unknown line as written: the player fixes it and resolves again.
    assert result.stdout == "game: berserk-tcg\n\nMain\n2 Moonlite Raiders\n3 Guts (BK1-012)\n"


def test_resolve_tells_a_line_that_names_no_card_before_asking_and_still_exits_1(
        runner: CliRunner, tmp_path: Path, on_a_terminal: None) -> None:
    deck = tmp_path / "pasted.deck"
    deck.write_text("game: berserk-tcg\n2 Moonlite Raiders\n3 Guts\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)], input="2\n")
    assert result.exit_code == 1, result.output
    assert result.stderr.index("UNKNOWN_CARD") < result.stderr.index("(1/1) line 3: 3 Guts is 15 cards")
    assert result.stdout.endswith("\n2 Moonlite Raiders\n3 Guts (BK1-012)\n")


def test_resolve_asks_which_card_a_misspelling_of_a_shared_name_means_and_settles_it(
        runner: CliRunner, tmp_path: Path, on_a_terminal: None) -> None:
    deck = tmp_path / "pasted.deck"
    deck.write_text("game: berserk-tcg\n2 Gats\n3 Guts\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)], input="2\n")
    assert result.exit_code == 0, result.output
    assert "lines 2, 3: Gats is 15 cards" in result.stderr
    assert result.stdout.endswith("\n2 Guts (BK1-012)\n3 Guts (BK1-012)\n")


def test_resolve_without_a_terminal_lists_a_line_that_names_no_card_with_the_choices(
        runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "pasted.deck"
    deck.write_text("game: berserk-tcg\n2 Gats\n3 Guts\n", encoding="utf-8")
    result = runner.invoke(app, ["deck", "resolve", str(deck)])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.index("UNKNOWN_CARD") < result.stderr.index("AMBIGUOUS_CARD")


def test_resolve_without_a_terminal_says_standard_input_is_not_one_rather_than_that_there_is_no_terminal(
        runner: CliRunner, names_deck: Path) -> None:
    # `deck resolve FILE < other` is typed on a terminal too: only standard input, where answers are typed, is not one.
    result = runner.invoke(app, ["deck", "resolve", str(names_deck)], input="")
    assert result.exit_code == 2 and "no terminal" not in result.stderr
    assert "questions are answered on standard input, which is not a terminal" in result.stderr


@pytest.mark.parametrize("name", ["/dev/stdin", "same-file"])
def test_resolve_of_a_deck_named_by_a_path_to_standard_input_says_the_deck_holds_standard_input(
        names_deck: Path, name: str) -> None:
    import subprocess
    import sys

    with names_deck.open("rb") as stdin:
        done = subprocess.run([sys.executable, "-m", "cardkit", "deck", "resolve",
                               str(names_deck) if name == "same-file" else name],
                              stdin=stdin, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and "the deck itself comes from standard input" in done.stderr, done.stderr


def test_an_ambiguous_line_says_which_differences_of_its_cards_the_format_checks() -> None:
    (mercenary,) = parse_deck("game: berserk-tcg\n12 Mercenary\n").problems
    # Mercenaries are exempt from the copy limit, so their ids are not checked; their colours pay costs.
    assert mercenary.code == "AMBIGUOUS_CARD"
    assert "'Mercenary' is 20 cards, which berserk-tcg tells apart (by colour, cost);" in mercenary.message
    (guts,) = parse_deck("game: berserk-tcg\n3 Guts\n").problems
    assert "which berserk-tcg tells apart (by id, colour, cost);" in guts.message


def test_an_ambiguous_line_whose_cards_the_format_checks_alike_says_its_legality_does_not_depend_on_the_choice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    from cardkit import paths

    formats = tmp_path / "formats"
    shutil.copytree(paths.FORMATS_DIR, formats)
    house = json.loads((formats / "berserk-tcg-casual.json").read_text(encoding="utf-8"))
    del house["costs"]
    house["name"] = "tcg-no-costs"
    (formats / "tcg-no-costs.json").write_text(json.dumps(house), encoding="utf-8")
    monkeypatch.setattr(paths, "FORMATS_DIR", formats)
    (problem,) = parse_deck("game: berserk-tcg\nformat: tcg-no-costs\n12 Mercenary\n").problems
    assert problem.code == "AMBIGUOUS_CARD" and problem.is_error
    assert ("'Mercenary' is 20 cards that tcg-no-costs checks alike (kind, mercenary), so its legality is the same "
            "whichever is meant, but a deck names one; write one id or `NAME (ID)`") == problem.message
