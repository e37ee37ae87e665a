"""Start-up stays light: a short command loads none of the heavy libraries, help skips rich, checked formats skip jsonschema."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import cardkit.cli.app
from cardkit import paths
from cardkit.formats import model
from cardkit.formats.model import FormatError, read_format_file

ROOT = Path(__file__).resolve().parent.parent
DECK = "decks/berserk-tcg/white-hawks.deck"
# pydantic is among them because typer from 0.29 on coerces every parameter through it (pyproject.toml bounds typer below).
HEAVY = ("pydantic", "rich", "jsonschema", "pandas", "numpy", "sqlalchemy")


def modules_after(*args: str) -> list[str]:
    """The heavy modules a `cardkit` run imported."""
    script = (
        "import sys\n"
        f"sys.argv = ['cardkit', *{list(args)!r}]\n"
        "from cardkit.cli.main import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules], file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT)
    return json.loads(done.stderr.strip().splitlines()[-1].replace("'", '"'))


def test_validate_imports_no_heavy_module_once_the_formats_passed_their_schema() -> None:
    modules_after("validate", DECK)  # the first run may check the format files
    assert modules_after("validate", DECK) == []


@pytest.mark.smoke
@pytest.mark.parametrize("args", [["--help"], ["validate", "--help"], ["--version"]], ids=["help", "command-help", "version"])
def test_help_and_version_import_no_heavy_module(args: list[str]) -> None:
    assert modules_after(*args) == []


NEW_GAME = {
    "battle": ["battle", "new", "squads/online-battle-first.json", "squads/online-battle-second.json"],
    "tcg": ["tcg", "new", "decks/berserk-tcg/white-hawks.deck", "decks/berserk-tcg/red-apostles.deck", "--seed", "1"],
    "fleet": ["fleet", "new", "decks/berserker/fleets/human-ram-screen.fleet.json",
              "decks/berserker/fleets/berserker-centre.fleet.json", "--sandbox"],
}


@pytest.mark.parametrize("engine", sorted(NEW_GAME))
def test_an_engines_moves_and_apply_import_no_heavy_module(engine: str, tmp_path: Path) -> None:
    state = tmp_path / "state.json"
    modules_after(*NEW_GAME[engine], "--out", str(state))
    assert modules_after(engine, "moves", str(state)) == []
    assert modules_after(engine, "apply", str(state), "end", "--out", str(tmp_path / "after.json")) == []
    assert (tmp_path / "after.json").is_file()


FORMAT = {"name": "cup", "game": "berserk-tcg", "title": "Cup", "main": {"min": 40}}


@pytest.fixture
def formats(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "formats"
    folder.mkdir()
    monkeypatch.setattr(paths, "FORMATS_DIR", folder)
    monkeypatch.setattr(paths, "cache_dir", lambda: tmp_path / "cache")
    model._all_formats.cache_clear()
    yield folder
    model._all_formats.cache_clear()


def test_format_files_that_passed_the_schema_are_not_checked_again(formats: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (formats / "cup.json").write_text(json.dumps(FORMAT), encoding="utf-8")
    assert model.load_format("cup").game == "berserk-tcg"
    model._all_formats.cache_clear()

    def no_schema_check() -> None:
        raise AssertionError("the schema was checked again")

    monkeypatch.setattr(model, "_schema_validator", no_schema_check)
    assert model.load_format("cup").data["main"] == {"min": 40}


def test_a_changed_format_file_is_checked_again_and_reported_as_before(formats: Path) -> None:
    path = formats / "cup.json"
    path.write_text(json.dumps(FORMAT), encoding="utf-8")
    model.load_format("cup")
    model._all_formats.cache_clear()
    path.write_text(json.dumps({**FORMAT, "main": {"min": -1}}), encoding="utf-8")
    with pytest.raises(FormatError) as exc:
        model.load_format("cup")
    with pytest.raises(FormatError) as direct:
        read_format_file(path)
    assert exc.value.message == direct.value.message and "/main/min" in exc.value.message


def test_a_cache_folder_that_cannot_be_written_only_means_checking_every_time(
        formats: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "cache").write_text("a file where the folder would be", encoding="utf-8")
    (formats / "cup.json").write_text(json.dumps(FORMAT), encoding="utf-8")
    assert model.load_format("cup").name == "cup"
    model._all_formats.cache_clear()
    calls = []
    real = model._schema_validator
    monkeypatch.setattr(model, "_schema_validator", lambda: calls.append(1) or real())
    model.load_format("cup")
    assert calls


@pytest.mark.parametrize("name", cardkit.cli.app.COMMAND_MODULES)
def test_a_run_of_each_command_builds_only_that_commands_module(name: str) -> None:
    from cardkit.cli.app import app_for, full_app

    slim = app_for([name, "--help"])
    assert slim is not full_app()
    assert {c.name for c in slim.registered_commands} | {g.name for g in slim.registered_groups} == {name}
