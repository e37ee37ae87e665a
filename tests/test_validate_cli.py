"""`cardkit validate` and `cardkit deck ...` through the CLI: output, JSON shape and exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data" / "decks"
HAWKS = str(ROOT / "decks" / "berserk-tcg" / "white-hawks.deck")
FOUR_GUTS = str(ROOT / "decks" / "berserk-tcg" / "illegal-four-guts.deck")
APOSTLES = str(ROOT / "decks" / "berserk-tcg" / "red-apostles.deck")
STANDARD = str(ROOT / "decks" / "berserker" / "standard.deck")
STANDARD_BY_NAME = str(ROOT / "decks" / "berserker" / "standard-by-name.deck")
MISSING_MARINES = str(ROOT / "decks" / "berserker" / "illegal-missing-marines.deck")


def test_a_legal_deck_exits_0_with_a_legal_verdict(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", HAWKS])
    assert result.exit_code == 0
    assert result.output.startswith(f"{HAWKS}: LEGAL  berserk-tcg, 49 main + 10 side")


def test_warnings_are_shown_but_keep_the_deck_legal(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", APOSTLES])
    assert result.exit_code == 0
    assert "LEGAL" in result.output and "FEW_MERCENARIES" in result.output and "warning" in result.output


def test_an_illegal_deck_exits_1_and_shows_the_problem_with_its_line(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", HAWKS, FOUR_GUTS])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert any(line.startswith(f"{FOUR_GUTS}: ILLEGAL") for line in lines)
    assert any("line 17" in line and "TOO_MANY_COPIES" in line for line in lines)


def test_json_output_has_one_object_per_deck_in_the_documented_shape(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "--json", HAWKS, FOUR_GUTS])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [set(d) for d in data] == [{"path", "game", "format", "player", "legal", "counts", "problems"}] * 2
    assert data[0] == {"path": HAWKS, "game": "berserk-tcg", "format": "berserk-tcg", "player": "Alice Archer",
                       "legal": True, "counts": {"main": 49, "side": 10}, "problems": []}
    (problem,) = data[1]["problems"]
    assert {k: problem[k] for k in ("code", "severity", "card", "line", "limit", "actual")} == {
        "code": "TOO_MANY_COPIES", "severity": "error", "card": "BK1-012", "line": 17, "limit": 3, "actual": 4}


def test_an_unreadable_deck_exits_2_after_reporting_the_others(runner: CliRunner, tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.deck")
    result = runner.invoke(app, ["validate", missing, FOUR_GUTS])
    assert result.exit_code == 2
    assert "error: " in result.stderr and "no such file" in result.stderr
    assert f"{FOUR_GUTS}: ILLEGAL" in result.stdout


def test_an_unreadable_deck_in_json_output_is_an_unreadable_problem(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "--json", str(DATA / "cp1251.deck"), HAWKS])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data[0]["legal"] is False and data[0]["problems"][0]["code"] == "UNREADABLE"
    assert data[1]["legal"] is True


def test_a_directory_is_not_a_deck(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["validate", str(tmp_path)])
    assert result.exit_code == 2 and "directory" in result.stderr


def test_an_unknown_format_is_a_usage_error(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "--format", "berserk-legacy", HAWKS])
    assert result.exit_code == 2 and "unknown format 'berserk-legacy'" in result.stderr


def test_format_option_overrides_the_deck_header(runner: CliRunner) -> None:
    result = runner.invoke(app, ["validate", "--format", "berserk-tcg-casual", HAWKS])
    assert result.exit_code == 1 and "SIDE_NOT_ALLOWED" in result.output


def test_no_deck_argument_is_a_usage_error(runner: CliRunner) -> None:
    assert runner.invoke(app, ["validate"]).exit_code == 2


def test_garbage_input_never_prints_a_traceback(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "garbage.deck"
    path.write_text("game: berserk-tcg\n\u202e\u0000x\n", encoding="utf-8")
    other = tmp_path / "noise.deck"
    other.write_text("}{ ][ 3 3 3\n\t\n-0 x\n", encoding="utf-8")
    result = runner.invoke(app, ["validate", str(path), str(other)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_deck_hash_prints_one_line_equal_for_names_and_ids(runner: CliRunner) -> None:
    a = runner.invoke(app, ["deck", "hash", STANDARD])
    b = runner.invoke(app, ["deck", "hash", STANDARD_BY_NAME])
    assert a.exit_code == b.exit_code == 0
    assert a.output == b.output and len(a.output.strip()) == 64 and a.output.count("\n") == 1


def test_deck_hash_of_an_unresolved_deck_exits_1(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "hash", str(DATA / "every-problem.deck")])
    assert result.exit_code == 1 and "unresolved" in result.stderr


def test_deck_diff_shows_changes_and_exits_1_when_decks_differ(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "diff", STANDARD, MISSING_MARINES])
    assert result.exit_code == 1
    assert result.output == "main:\n    -2  Marines (marines)  8 -> 6\n"


def test_deck_diff_of_equal_decks_exits_0(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "diff", STANDARD, STANDARD_BY_NAME])
    assert result.exit_code == 0 and result.output == "same cards\n"


def test_deck_diff_json_lists_each_changed_card_with_its_counts_before_and_after(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "diff", "--json", STANDARD, MISSING_MARINES])
    assert json.loads(result.stdout) == {
        "before": {"path": STANDARD}, "after": {"path": MISSING_MARINES},
        "changes": [{"section": "main", "card": "marines", "name": "Marines", "before": 8, "after": 6, "delta": -2}]}


def test_deck_convert_writes_stdout_or_a_file_that_round_trips(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["deck", "convert", HAWKS, "--to", "json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["player"] == "Alice Archer"
    out = tmp_path / "hawks.deck.json"
    assert runner.invoke(app, ["deck", "convert", HAWKS, "--to", "json", "--out", str(out)]).exit_code == 0
    back = tmp_path / "hawks.deck"
    assert runner.invoke(app, ["deck", "convert", str(out), "--to", "text", "-o", str(back)]).exit_code == 0
    hashes = {runner.invoke(app, ["deck", "hash", p]).output for p in (HAWKS, str(out), str(back))}
    assert len(hashes) == 1


def test_deck_convert_rejects_an_unknown_form_and_never_overwrites_its_input(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "d.deck"
    deck.write_text(Path(HAWKS).read_text(encoding="utf-8"), encoding="utf-8")
    before = deck.read_bytes()
    assert runner.invoke(app, ["deck", "convert", str(deck), "--to", "yaml"]).exit_code == 2
    result = runner.invoke(app, ["deck", "convert", str(deck), "--to", "text", "--out", str(deck)])
    assert result.exit_code == 2 and deck.read_bytes() == before


def test_every_deck_command_has_help(runner: CliRunner) -> None:
    for args in (["validate"], ["deck"], ["deck", "hash"], ["deck", "diff"], ["deck", "convert"], ["deck", "formats"]):
        result = runner.invoke(app, [*args, "--help"])
        assert result.exit_code == 0 and len(result.output) > 100


def test_deck_formats_lists_every_format_and_marks_defaults(runner: CliRunner) -> None:
    result = runner.invoke(app, ["deck", "formats"])
    assert result.exit_code == 0
    defaults = [line.split()[1] for line in result.output.splitlines() if line.startswith("*")]
    assert defaults == ["berserk-ccg", "berserk-online", "berserk-tcg", "berserker"]
    data = json.loads(runner.invoke(app, ["deck", "formats", "--json", "--game", "berserker"]).stdout)
    assert [f["name"] for f in data] == ["berserker"] and data[0]["composition"]["from_catalogue_field"] == "count"


def test_json_output_stays_strict_json_for_odd_counts(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "odd.deck.json"
    path.write_text('{"game": "berserk-tcg", "main": [{"card": "BK1-003", "count": 2.5}, {"card": "BK1-003", "count": 1e300}]}',
                    encoding="utf-8")
    result = runner.invoke(app, ["validate", "--json", str(path)])

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in --json output")

    (report,) = json.loads(result.stdout, parse_constant=refuse)
    assert result.exit_code == 1 and [p["pointer"] for p in report["problems"][:2]] == ["/main/0", "/main/1"]


def test_deck_convert_to_a_directory_or_an_unwritable_place_is_a_usage_error(runner: CliRunner, tmp_path: Path) -> None:
    for out in (tmp_path, tmp_path / "missing-parent" / "file-in-a-file" / "x.deck"):
        (tmp_path / "missing-parent").write_text("a file, not a folder\n", encoding="utf-8")
        result = runner.invoke(app, ["deck", "convert", HAWKS, "--to", "text", "--out", str(out)])
        assert result.exit_code == 2 and result.stderr.startswith("error: ") and result.stderr.count("\n") == 1
        assert result.exception is None or isinstance(result.exception, SystemExit)


def _unreadable(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.deck"
    if kind == "directory":
        path.mkdir()
    elif kind == "not-utf8":
        path.write_bytes("game: berserk-ccg\n3 Кочевник\n".encode("cp1251"))
    elif kind == "binary":
        path.write_bytes(b"game: berserk-tcg\n3 BK1-003\n\x00\x00")
    elif kind == "over-1-mib":
        path.write_text("game: berserk-tcg\n" + "1 BK1-003\n" * 110_000, encoding="utf-8")
    return path


@pytest.mark.parametrize(("kind", "reason"), [("missing", "no such file"), ("directory", "directory"),
                                              ("not-utf8", "not UTF-8"), ("binary", "binary"),
                                              ("over-1-mib", "the limit is 1048576")])
def test_each_kind_of_unreadable_file_exits_2_with_one_error_line(runner: CliRunner, tmp_path: Path, kind: str,
                                                                  reason: str) -> None:
    path = _unreadable(tmp_path, kind)
    for args in (["validate", str(path)], ["validate", "--json", str(path)], ["deck", "hash", str(path)]):
        result = runner.invoke(app, args)
        assert result.exit_code == 2, args
        assert result.stderr.startswith(f"error: {path}: ") and reason in result.stderr and result.stderr.count("\n") == 1
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_bom_and_crlf_copy_of_a_deck_is_legal_and_hashes_the_same(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "hawks-windows.deck"
    path.write_bytes(b"\xef\xbb\xbf" + Path(HAWKS).read_bytes().replace(b"\n", b"\r\n"))
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and result.output.startswith(f"{path}: LEGAL  berserk-tcg, 49 main + 10 side\n")
    assert runner.invoke(app, ["deck", "hash", str(path)]).output == runner.invoke(app, ["deck", "hash", HAWKS]).output


def _broken_catalogue_home(tmp_path: Path, how: str) -> Path:
    import os

    home = tmp_path / "home"
    shutil.copytree(ROOT / "data", home / "data")
    shutil.copytree(ROOT / "schemas", home / "schemas")
    target = home / "data" / "cards" / "berserk-tcg" / "BK1.json"
    if how == "fifo":
        target.unlink()
        os.mkfifo(target)
    else:
        target.write_text('{"game": "berserk-tcg", ' + target.read_text(encoding="utf-8").lstrip()[1:], encoding="utf-8")
    return home


@pytest.mark.parametrize("how", ["duplicate-key", "fifo"])
@pytest.mark.parametrize("as_json", [[], ["--json"]], ids=["text", "json"])
def test_a_broken_catalogue_is_one_error_line_naming_its_file_not_every_deck_unreadable(
        tmp_path: Path, how: str, as_json: list[str]) -> None:
    import os
    import subprocess
    import sys

    if how == "fifo" and not hasattr(os, "mkfifo"):
        pytest.skip("FIFOs need a POSIX system")
    home = _broken_catalogue_home(tmp_path, how)
    decks = [str(ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"), str(ROOT / "decks" / "berserk-tcg" / "red-apostles.deck")]
    env = {k: v for k, v in os.environ.items() if k not in ("CARDKIT_HOME", "CARDKIT_DB")}
    done = subprocess.run([sys.executable, "-m", "cardkit", "validate", *as_json, *decks], capture_output=True, text=True,
                          timeout=120, env={**env, "PYTHONPATH": str(ROOT), "CARDKIT_HOME": str(home)})
    assert done.returncode == 2
    if as_json:
        # With --json the error is the one JSON object on stdout, as for every command.
        error = json.loads(done.stdout)["error"]
        assert done.stderr == "" and error["code"] == "CATALOGUE"
        line = "error: " + error["message"]
    else:
        assert done.stdout == ""
        (line,) = done.stderr.splitlines()
    assert line.startswith("error: catalogue file ") and "BK1.json" in line
