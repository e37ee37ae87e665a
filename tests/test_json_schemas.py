"""Every command's `--json` output, on bundled files, against its JSON Schema in schemas/output/; errors as JSON."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from console import Ran
from jsonschema import Draft202012Validator
from typer.testing import CliRunner

from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "schemas"
FLEETS = "decks/berserker/fleets/"

pytestmark = pytest.mark.smoke

# (schema under schemas/, the command's arguments; {tmp} is a folder of states the fixture writes first).
COMMANDS: list[tuple[str, list[str]]] = [
    ("output/validate", ["validate", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-ccg/illegal-sideboard.deck"]),
    ("output/deck-hash", ["deck", "hash", "decks/berserker/standard.deck"]),
    ("output/deck-code", ["deck", "code", "decks/berserk-online/forest-elves.deck"]),
    ("output/deck-diff", ["deck", "diff", "decks/berserker/standard.deck", "decks/berserker/illegal-house-rules.deck"]),
    ("output/deck-formats", ["deck", "formats"]),
    ("deck", ["deck", "convert", "decks/berserk-ccg/steppe-orcs.deck", "--to", "json"]),
    ("output/cards-search", ["cards", "search", "Guts", "-n", "3"]),
    ("output/cards-search", ["cards", "search", "colour:black", "level=2"]),
    ("output/cards-show", ["cards", "show", "BK1-012"]),
    ("output/catalogue-check", ["catalogue", "check"]),
    ("output/simulate", ["simulate", "decks/berserk-tcg/white-hawks.deck", "--games", "50", "--turns", "2"]),
    ("output/simulate", ["simulate", "decks/berserk-online/steppe-mountains.deck", "--games", "20"]),
    ("output/simulate", ["simulate", "decks/berserk-ccg/steppe-orcs.deck", "--games", "20"]),
    ("output/simulate", ["simulate", "decks/berserker/standard.deck", "--games", "50", "--turns", "2"]),
    ("output/squad-check", ["squad", "check", "squads/ccg-all-problems.json"]),
    ("output/squad-best", ["squad", "best", "squads/online-deal.json"]),
    ("output/squad-place", ["squad", "place", "squads/ccg-placement.json"]),
    ("output/fleet-check", ["fleet", "check", FLEETS + "human-illegal-forward.fleet.json"]),
    ("output/fleet-can-use", ["fleet", "can-use", "marines", "cruiser"]),
    ("output/fleet-table", ["fleet", "table"]),
    ("output/fleet-ships", ["fleet", "ships"]),
    ("output/fleet-new", ["fleet", "new", FLEETS + "human-ram-screen.fleet.json", FLEETS + "berserker-centre.fleet.json",
                          "--seed", "1", "--out", "{tmp}/fleet-new.json"]),
    ("output/fleet-moves", ["fleet", "moves", "{tmp}/fleet.json"]),
    ("output/fleet-apply", ["fleet", "apply", "{tmp}/fleet.json", "end"]),
    ("output/tcg-new", ["tcg", "new", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-tcg/red-apostles.deck",
                        "--seed", "1", "--out", "{tmp}/tcg-new.json"]),
    ("output/tcg-moves", ["tcg", "moves", "{tmp}/tcg.json"]),
    ("output/tcg-apply", ["tcg", "apply", "{tmp}/tcg.json", "open BK1-001 pay BK1-007"]),
    ("battle-state", ["battle", "new", "squads/online-battle-first.json", "squads/online-battle-second.json",
                      "--out", "{tmp}/battle-new.json"]),
    ("output/battle-moves", ["battle", "moves", "{tmp}/battle.json"]),
    ("output/battle-apply", ["battle", "apply", "{tmp}/battle.json", "end"]),
    ("output/combat-odds", ["combat", "odds", "b_ammah", "b_ahti"]),
    ("output/combat-tcg", ["combat", "tcg", "BK1-013", "BK1-011"]),
    ("output/tournament-check", ["tournament", "check", "events/spring-open", "-r", "events/spring-open/registrations.csv"]),
    ("output/tournament-db", ["tournament", "db", "events/spring-open", "--out", "{tmp}/event.db"]),
    ("output/build", ["build", "--out", "{tmp}/cardkit.db"]),
]


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def states(tmp_path_factory: pytest.TempPathFactory, catalogue_db: Path) -> Path:
    """A built database (a copy of the one built once per test process), and a fleet, TCG and battle state
    for the moves and apply commands to read."""
    tmp = tmp_path_factory.mktemp("states")
    shutil.copy(catalogue_db, tmp / "search.db")
    runner = CliRunner()
    for args in (["fleet", "new", FLEETS + "human-ram-screen.fleet.json", FLEETS + "berserker-centre.fleet.json", "--seed", "1"],
                 ["tcg", "new", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-tcg/red-apostles.deck", "--seed", "1"],
                 ["battle", "new", "squads/online-battle-first.json", "squads/online-battle-second.json"]):
        result = runner.invoke(app, [*args, "--out", str(tmp / f"{args[0]}.json")])
        assert result.exit_code == 0, result.output
    return tmp


@pytest.fixture(autouse=True)
def in_the_repository(monkeypatch: pytest.MonkeyPatch, states: Path) -> None:
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CARDKIT_DB", str(states / "search.db"))


@pytest.mark.parametrize(("schema", "args"), COMMANDS, ids=[" ".join(a[:2]) + f" {i}" for i, (_, a) in enumerate(COMMANDS)])
def test_every_commands_json_output_matches_its_schema(runner: CliRunner, states: Path, schema: str, args: list[str]) -> None:
    # `deck convert --to json` writes the deck file's own JSON form: its --to is its --json.
    extra = [] if "--to" in args else ["--json"]
    result = runner.invoke(app, [a.replace("{tmp}", str(states)) for a in args] + extra)
    assert result.exit_code in (0, 1), result.output
    data = json.loads(result.stdout)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(schema).iter_errors(data)]
    assert errors == []


def test_every_output_schema_is_used_by_a_command_and_every_reporting_command_is_covered() -> None:
    used = {name for name, _ in COMMANDS}
    files = {f"output/{p.name.removesuffix('.schema.json')}" for p in (SCHEMAS / "output").glob("*.schema.json")}
    # catalogue import writes the catalogue: tests/test_catalogue_import.py checks it against its schema.
    assert files - used == {"output/error", "output/catalogue-import"}


def test_the_shared_keys_mean_the_same_everywhere(runner: CliRunner, states: Path) -> None:
    """The input file is `path` and the verdict `legal` in every command's JSON, never `file`, `deck`, `ok` or `allowed`."""
    for name, _ in COMMANDS:
        top = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        props = top.get("properties") or top.get("items", {}).get("properties", {})
        assert not {"file", "ok", "allowed"} & set(props), name
        assert name == "output/simulate" or "deck" not in props, name


ERRORS: list[tuple[list[str], int, str]] = [
    (["cards", "show", "Guts"], 1, "AMBIGUOUS"),
    (["cards", "show", "zzzzqqq"], 1, "NOT_FOUND"),
    (["fleet", "can-use", "zzzzqqq", "ramship"], 1, "NOT_FOUND"),
    (["cards", "search", "power>=3"], 2, "BAD_ARGUMENT"),
    (["deck", "hash", "nope.deck"], 2, "UNREADABLE"),
    (["squad", "check", "tests/data/hostile"], 2, "UNREADABLE"),
    (["simulate", "decks/berserk-tcg/white-hawks.deck", "--games", "0"], 2, "BAD_ARGUMENT"),
    (["deck", "formats", "--game", "chess"], 2, "UNKNOWN_GAME"),
    (["tcg", "apply", "{tmp}/tcg.json", "fly away"], 2, "BAD_ACTION"),
    (["build", "--out", "README.md"], 2, "OUTPUT_REFUSED"),
]


@pytest.mark.parametrize(("args", "code", "name"), ERRORS, ids=[e[2] + " " + " ".join(e[0][:2]) for e in ERRORS])
def test_with_json_an_error_is_one_json_object_on_stdout_with_the_same_exit_code(
        runner: CliRunner, states: Path, args: list[str], code: int, name: str) -> None:
    args = [a.replace("{tmp}", str(states)) for a in args]
    text = runner.invoke(app, args)
    result = runner.invoke(app, [*args, "--json"])
    assert (text.exit_code, result.exit_code) == (code, code)
    data = json.loads(result.stdout)
    assert list(validator("output/error").iter_errors(data)) == []
    assert data["error"]["code"] == name
    assert text.stderr.startswith("error: ") and data["error"]["message"] in text.stderr
    assert result.stderr == ""


@pytest.mark.parametrize("args", [["squad", "best", "squads/online-deal.json", "--bogus", "--json"],
                                  ["simulate", "--json", "decks/berserk-tcg/white-hawks.deck", "--games", "many"]])
def test_with_json_a_usage_error_the_parser_finds_is_json_too(args: list[str], cardkit_main: Callable[..., Ran]) -> None:
    # The console script's entry point (in this process): a usage error is reported outside any command,
    # where CliRunner doesn't reach.
    done = cardkit_main(*args)
    data = json.loads(done.stdout)
    assert done.returncode == 2 and done.stderr == ""
    assert list(validator("output/error").iter_errors(data)) == [] and data["error"]["code"] == "USAGE"
    assert data["error"]["message"].endswith(f" {' '.join(args[:1 if args[0] == 'simulate' else 2])} --help`)")


def test_json_after_a_double_dash_is_a_query_word_not_the_option(cardkit_main: Callable[..., Ran]) -> None:
    done = cardkit_main("cards", "search", "--bogus", "--", "--json")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.startswith("error: No such option: --bogus")
