"""Issue 10, families 2 and 7 (write side): an import never empties the catalogue, and what
`cardkit catalogue check` rejects (format files included) is never built."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cardkit import paths
from cardkit.catalogue.check import check_catalogue
from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = Path(__file__).resolve().parent / "data" / "catalogue" / "reference"
TCG_HEADER = "set,number,name,cost,unique,level,range,movement,power,hp,quick,type,subtype\n"


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A writable copy of the real data folder (cards, formats, expected totals), in use by every command."""
    shutil.copytree(ROOT / "data", tmp_path / "data")
    monkeypatch.setattr(paths, "DATA_DIR", tmp_path / "data")
    monkeypatch.setattr(paths, "CARDS_DIR", tmp_path / "data" / "cards")
    monkeypatch.setattr(paths, "FORMATS_DIR", tmp_path / "data" / "formats")
    return tmp_path / "data"


def ten_card_list(tmp_path: Path) -> Path:
    rows = "".join(f"BK1,{n},Card {n},W,no,1,0,1,1,1,no,character,\n" for n in range(1, 11))
    source = tmp_path / "ten.csv"
    source.write_text(TCG_HEADER + rows, encoding="utf-8")
    return source


# --- family 2: the catalogue can't be emptied by an import ---------------------------------------------


def test_a_ten_card_list_is_refused_and_every_set_file_survives(runner: CliRunner, tmp_path: Path, data: Path) -> None:
    before = snapshot(data)
    result = runner.invoke(app, ["catalogue", "import", "berserk-tcg", str(ten_card_list(tmp_path))])
    assert result.exit_code == 2 and result.output.count("\n") == 1, result.output
    assert result.output.startswith("error: ") and "would make `cardkit catalogue check` fail" in result.output
    # The importer adds the five cities to the ten listed cards.
    assert "berserk-tcg has 15 cards; expected 453" in result.output and "--force" in result.output
    assert snapshot(data) == before
    assert runner.invoke(app, ["catalogue", "check"]).exit_code == 0


def test_force_imports_a_partial_list_and_the_check_then_says_what_is_missing(
    runner: CliRunner, tmp_path: Path, data: Path
) -> None:
    result = runner.invoke(app, ["catalogue", "import", "berserk-tcg", str(ten_card_list(tmp_path)), "--force"])
    assert result.exit_code == 0, result.output
    sets = {p.name: len(json.loads(p.read_text(encoding="utf-8"))["cards"]) for p in (data / "cards" / "berserk-tcg").iterdir()}
    assert sets == {"BK1.json": 10, "BK2.json": 0, "BK3.json": 0, "BK4.json": 0, "BK5.json": 0, "cities.json": 5}
    check = runner.invoke(app, ["catalogue", "check"])
    assert check.exit_code == 1 and "WRONG_COUNT" in check.output


def test_force_never_lets_a_misshapen_list_in(runner: CliRunner, tmp_path: Path, data: Path) -> None:
    source = tmp_path / "twice.csv"
    source.write_text(TCG_HEADER + "BK1,5,Test,W,no,1,0,1,1,1,no,character,\n" * 2, encoding="utf-8")
    before = snapshot(data)
    result = runner.invoke(app, ["catalogue", "import", "berserk-tcg", str(source), "--force"])
    assert result.exit_code == 2 and "card id BK1-005 also in" in result.output
    assert snapshot(data) == before


def test_an_import_never_removes_its_own_source_from_the_catalogue_folder(runner: CliRunner, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    cards = tmp_path / "cards"  # no catalogue.json beside it: no totals to meet
    shutil.copytree(REFERENCE.parent / "mini" / "cards", cards)
    source = cards / "berserk-ccg" / "zz-new-list.json"
    shutil.copy(REFERENCE / "berserk-ccg-cards.json", source)
    monkeypatch.setattr(paths, "CARDS_DIR", cards)
    before = snapshot(cards)
    result = runner.invoke(app, ["catalogue", "import", "berserk-ccg", str(source)])
    assert result.exit_code == 2 and "is the source of this import" in result.output, result.output
    assert snapshot(cards) == before


def test_an_import_of_the_full_lists_shape_passes_and_replaces_the_files(runner: CliRunner, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "mini"
    shutil.copytree(REFERENCE.parent / "mini", root)
    monkeypatch.setattr(paths, "CARDS_DIR", root / "cards")
    (root / "catalogue.json").write_text(json.dumps({"berserk-ccg": {"cards": 3}}), encoding="utf-8")
    result = runner.invoke(app, ["catalogue", "import", "berserk-ccg", str(REFERENCE / "berserk-ccg-cards.json")])
    assert result.exit_code == 0, result.output
    report = check_catalogue(root / "cards", expectations=root / "catalogue.json", games=("berserk-ccg",))
    assert report.ok, report.problems


# --- family 7: check the formats too; build refuses what check rejects --------------------------------

BREAK_FORMAT: dict[str, tuple[str, Callable[[Path], None], str]] = {
    "not-json": ("berserker.json", lambda p: p.write_text('{"name": "berserker",', encoding="utf-8"),
                 "INVALID_JSON"),
    "schema": ("berserk-ccg.json", lambda p: _edit(p, lambda d: d.update(main={"min": "thirty"})),
               "SCHEMA_VIOLATION"),
    "name-is-not-the-file-name": ("berserk-online.json", lambda p: _edit(p, lambda d: d.update(name="online")),
                                  "differs from the file name"),
    "two-defaults": ("berserk-tcg-casual.json", lambda p: _edit(p, lambda d: d.update(default=True)),
                     "berserk-tcg has 2 default formats"),
    "bad-placeholder": ("berserk-tcg.json",
                        lambda p: _edit(p, lambda d: d["minimums"][0].update(message="{nope} Mercenaries")),
                        "bad placeholder"),
}


def _edit(path: Path, change: Callable[[dict[str, Any]], None]) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(json.dumps(doc), encoding="utf-8")


@pytest.mark.parametrize("case", BREAK_FORMAT)
def test_a_broken_format_file_fails_the_check_and_the_build_writes_nothing(
    runner: CliRunner, tmp_path: Path, data: Path, case: str
) -> None:
    name, breaks, said = BREAK_FORMAT[case]
    breaks(data / "formats" / name)
    check = runner.invoke(app, ["catalogue", "check"])
    assert check.exit_code == 1 and said in check.output and "formats/" in check.output, check.output
    out = tmp_path / "out" / "cardkit.db"
    build = runner.invoke(app, ["build", "--out", str(out)])
    assert build.exit_code == 2 and build.output.count("\n") == 1, build.output
    assert "the catalogue fails its check: formats/" in build.output
    assert not out.parent.exists() or list(out.parent.iterdir()) == []


def test_the_check_counts_the_format_files(runner: CliRunner) -> None:
    report = json.loads(runner.invoke(app, ["catalogue", "check", "--json"]).stdout)
    assert report["formats"] == len(list((ROOT / "data" / "formats").glob("*.json")))


def test_a_link_in_the_catalogue_folder_never_lets_an_import_write_outside_it(
    runner: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards = tmp_path / "cards"
    shutil.copytree(REFERENCE.parent / "mini" / "cards", cards)
    secret = tmp_path / "secret.env"
    secret.write_text("API_KEY=do-not-lose\n", encoding="utf-8")
    (cards / "berserk-ccg" / "set-10.json").unlink()
    (cards / "berserk-ccg" / "set-10.json").symlink_to(secret)
    monkeypatch.setattr(paths, "CARDS_DIR", cards)
    result = runner.invoke(app, ["catalogue", "import", "berserk-ccg", str(REFERENCE / "berserk-ccg-cards.json")])
    assert result.exit_code == 2 and "never writes through a link" in result.output, result.output
    assert secret.read_text(encoding="utf-8") == "API_KEY=do-not-lose\n"
    assert (cards / "berserk-ccg" / "set-10.json").is_symlink()
