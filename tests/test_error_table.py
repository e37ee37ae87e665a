"""The one table at the CLI's edge: library exceptions name no option and carry no exit code; the CLI words and exits."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from cardkit.cli._errors import EXIT_CODES, WORDINGS, exit_code_of, handled, option, terminal_message
from cardkit.errors import BadArgument, CardkitError, OutputRefused

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "cardkit"
CLI_WORDS = re.compile(r"(?<![\w-])--[a-z][\w-]*|`cardkit ")
"""An option, or a command to run."""



def _in_hint(raised: ast.expr, constant: ast.Constant) -> bool:
    return any(k.arg == "hint" and any(sub is constant for sub in ast.walk(k.value))
               for call in ast.walk(raised) if isinstance(call, ast.Call) for k in call.keywords)


def library_sources() -> list[Path]:
    return [p for p in sorted(LIBRARY.rglob("*.py")) if p.relative_to(LIBRARY).parts[0] != "cli"]


def error_codes_in_source() -> set[str]:
    codes = set()
    for path in library_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "error_code" for t in node.targets):
                if isinstance(node.value, ast.Constant):
                    codes.add(node.value.value)
    return codes - {"ERROR"}  # the base class's, never raised


def test_no_library_exception_class_carries_an_exit_code() -> None:
    found = []
    for path in library_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                found += [f"{path.relative_to(ROOT)}: {node.name}" for stmt in node.body if isinstance(stmt, ast.Assign)
                          and any(getattr(t, "id", None) == "exit_code" for t in stmt.targets)]
    assert found == []


def test_no_library_exception_names_a_command_line_option_or_command() -> None:
    # Advice for a terminal given apart from the message (`hint=`) is not scanned: `with_hint` shows it there only.
    found = []
    for path in library_sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {sub.value}" for sub in ast.walk(node.exc)
                          if isinstance(sub, ast.Constant) and isinstance(sub.value, str) and CLI_WORDS.search(sub.value)
                          and not _in_hint(node.exc, sub)]
    assert found == []


def test_every_error_code_the_library_raises_has_its_exit_code_in_the_table() -> None:
    codes = error_codes_in_source()
    assert len(codes) > 10
    assert sorted(codes - set(EXIT_CODES)) == []


def test_the_table_gives_the_exit_codes_docs_json_md_promises() -> None:
    text = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
    promised = {}
    for cells in (line.split("|")[1:3] for line in text.splitlines() if line.startswith("| `")):
        for code in re.findall(r"`([A-Z_]+)`", cells[0]):
            promised[code] = int(cells[1])
    assert promised and promised == {code: EXIT_CODES[code] for code in promised}
    assert sorted(set(EXIT_CODES) - set(promised)) == []


@pytest.mark.parametrize("name", sorted(WORDINGS))
def test_every_class_the_table_words_exists_and_is_a_cardkit_error(name: str) -> None:
    module, _, cls = name.rpartition(".")
    found = getattr(importlib.import_module(module), cls)
    assert issubclass(found, CardkitError) and f"{found.__module__}.{found.__qualname__}" == name


def test_a_bad_argument_names_the_parameter_in_the_library_and_the_option_at_the_terminal() -> None:
    from cardkit.games.squad_games.battle.lookup import find_battle_card

    with pytest.raises(BadArgument) as refused:
        find_battle_card("Ammah", game="chess")
    exc = refused.value
    assert exc.parameter == "game" and exc.message.startswith("game must be one of ") and "--" not in exc.message
    assert terminal_message(exc) == f"--game {exc.problem}" and exit_code_of(exc) == 2


def test_an_option_is_the_parameter_spelled_for_the_command_line_unless_the_table_says_otherwise() -> None:
    assert (option("games"), option("attacker_life"), option("format_name")) == ("--games", "--attacker-life", "--format")


def test_a_refusal_that_forcing_lifts_tells_the_terminal_to_give_force(tmp_path: Path) -> None:
    from cardkit.outputs import Kind, Output

    target = tmp_path / "kept.json"
    target.write_text("{}", encoding="utf-8")
    with pytest.raises(OutputRefused) as refused:
        Output(target, Kind("registry", lambda path: True, forceable=True, keep_existing=True)).write("{}")
    exc = refused.value
    assert exc.forcing_replaces and "--force" not in exc.message and exc.message.endswith("forcing the write replaces it")
    assert terminal_message(exc) == f"{target} {exc.reason}; give --force to replace it"


def test_the_terminal_words_a_takes_schedule_that_outruns_the_cities_with_both_options() -> None:
    from cardkit.games.berserk_tcg.opening.play import cities_schedule, takes_schedule

    schedule = cities_schedule(4, [0, 0, 1, 1])
    with pytest.raises(BadArgument) as refused:
        takes_schedule(4, [1], schedule)
    exc = refused.value
    assert exc.parameter == "takes" and "--" not in exc.message
    said = terminal_message(exc)
    assert said.startswith("--takes 1: ") and said.endswith("so give --cities with at least 1")


def test_a_squad_without_a_format_is_told_to_give_format_at_the_terminal(tmp_path: Path) -> None:
    from cardkit.games.squad_games.squads.read import read_squad_file

    squad = tmp_path / "squad.txt"
    squad.write_text("1 Something\n", encoding="utf-8")
    with pytest.raises(BadArgument) as refused:
        read_squad_file(squad)
    assert "--" not in refused.value.message and terminal_message(refused.value).endswith("or give --format")


def test_an_error_the_table_words_is_reported_in_its_terminal_words_and_exit_code() -> None:
    said: list[tuple[str, bool]] = []

    def echo(message: str, *, err: bool = False) -> None:
        said.append((message, err))

    assert handled(BadArgument("must be between 1 and 9; got 0", "games"), echo, False) == 2
    assert said == [("error: --games must be between 1 and 9; got 0", True)]


def test_a_catalogue_error_says_what_puts_it_right_and_the_terminal_names_the_command() -> None:
    from cardkit.errors import CatalogueError

    exc = CatalogueError("no catalogue files for berserk-tcg", remedy="import")
    assert exc.message == "no catalogue files for berserk-tcg; import the game's card list first"
    assert terminal_message(exc) == "no catalogue files for berserk-tcg; run `cardkit catalogue import`"
    assert terminal_message(CatalogueError("plain")) == "plain" and exit_code_of(exc) == 2


def test_an_unresolved_deck_is_sent_to_validate_at_the_terminal_only() -> None:
    from cardkit.decks import parse_deck
    from cardkit.decks.canonical import UnresolvedDeck, deck_hash

    with pytest.raises(UnresolvedDeck) as refused:
        deck_hash(parse_deck("game: berserk-tcg\n3 Guts\n", path="guts.deck"))
    exc = refused.value
    assert "cardkit" not in exc.message and exc.message.startswith(exc.summary)
    assert terminal_message(exc) == f"{exc.summary}; run `cardkit validate`" and exit_code_of(exc) == 1
