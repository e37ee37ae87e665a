"""`cardkit tournament check|db` through the CLI: exit codes, human output, reports of each kind, the database."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardkit.cli import tournament as tournament_cli
from cardkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
REGISTRATIONS = str(EVENT / "registrations.csv")
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"
CHECK = ["tournament", "check", str(EVENT), "--registrations", REGISTRATIONS]


def no_traceback(result: object) -> None:
    assert "Traceback" not in result.output  # type: ignore[attr-defined]
    assert result.exception is None or isinstance(result.exception, SystemExit)  # type: ignore[attr-defined]


@pytest.fixture
def legal_event(tmp_path: Path) -> Path:
    """A folder with one legal, registered deck."""
    folder = tmp_path / "club-night"
    folder.mkdir()
    (folder / "alice.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "players.csv").write_text("player,format\nAlice Archer,berserk-tcg\n", encoding="utf-8")
    return folder


def test_an_event_with_findings_exits_1_with_one_line_per_row_and_a_summary(runner: CliRunner) -> None:
    result = runner.invoke(app, CHECK)
    assert result.exit_code == 1
    no_traceback(result)
    lines = result.stdout.splitlines()
    assert len(lines) == 10
    assert lines[0].startswith("LEGAL") and "alice.deck" in lines[0] and "IDENTICAL_DECKS" in lines[0]
    assert lines[2].startswith("UNREADABLE") and "broken.deck" in lines[2]
    assert lines[7].startswith("MISSING") and "Dmitri Nosubmission" in lines[7] and "MISSING_SUBMISSION" in lines[7]
    assert lines[8].startswith("identical decks, group 1: ") and "alice.deck" in lines[8] and "eve.deck" in lines[8]
    assert lines[9] == "spring-open: 8 rows: 1 legal, 5 illegal, 1 unreadable, 1 missing; 2 warning(s); format berserk-tcg"


def test_an_event_where_every_deck_is_legal_exits_0(runner: CliRunner, legal_event: Path) -> None:
    result = runner.invoke(app, ["tournament", "check", str(legal_event), "-r", str(legal_event / "players.csv")])
    assert result.exit_code == 0, result.output
    assert "club-night: 1 rows: 1 legal, 0 illegal" in result.stdout


def test_details_list_every_problem_under_its_submission(runner: CliRunner) -> None:
    result = runner.invoke(app, CHECK + ["--details"])
    lines = result.stdout.splitlines()
    eve = next(i for i, line in enumerate(lines) if "eve.deck" in line and line.startswith("ILLEGAL"))
    assert "UNREGISTERED_PLAYER" in lines[eve] and "IDENTICAL_DECKS" in lines[eve + 1] and "warning" in lines[eve + 1]


@pytest.mark.parametrize("args, message", [
    (["--format", "vintage"], "unknown format 'vintage'"),
    (["--format", "berserk-ccg"], "differs from the format 'berserk-tcg'"),
    (["--report", "out.xlsx"], "unknown suffix '.xlsx'"),
], ids=["unknown-format", "format-contradicts-registrations", "report-suffix"])
def test_usage_errors_exit_2_with_one_line(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    args = [str(tmp_path / a) if a.endswith(".xlsx") else a for a in args]
    result = runner.invoke(app, CHECK + args)
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr and len(result.stderr.splitlines()) == 1
    assert not list(tmp_path.iterdir())
    no_traceback(result)


def test_a_folder_without_decks_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["tournament", "check", str(tmp_path)])
    assert result.exit_code == 2 and "no deck submissions" in result.stderr
    no_traceback(result)


def test_an_unreadable_registration_list_exits_2(runner: CliRunner, tmp_path: Path) -> None:
    bad = tmp_path / "r.csv"
    bad.write_bytes(b"\xff\xfeplayer\n")
    result = runner.invoke(app, ["tournament", "check", str(EVENT), "-r", str(bad)])
    assert result.exit_code == 2 and "not UTF-8" in result.stderr
    no_traceback(result)


def test_json_output_is_the_event_with_every_row(runner: CliRunner) -> None:
    result = runner.invoke(app, CHECK + ["--json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["legal"] is False and data["format"] == "berserk-tcg"
    assert data["summary"] == {"rows": 8, "legal": 1, "illegal": 5, "unreadable": 1, "missing": 1, "warnings": 2}
    verdicts = {Path(s["path"]).name if s["path"] else s["player"]: s["verdict"] for s in data["submissions"]}
    assert verdicts["frank.deck"] == "illegal" and verdicts["Dmitri Nosubmission"] == "missing"
    broken = next(s for s in data["submissions"] if s["path"].endswith("broken.deck"))
    assert broken["problems"][0]["code"] == "UNREADABLE" and broken["legal"] is False


def test_the_progress_bar_is_for_terminals_and_never_for_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert tournament_cli.show_progress(as_json=False) is True
    assert tournament_cli.show_progress(as_json=True) is False
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert tournament_cli.show_progress(as_json=False) is False


def test_json_output_on_a_terminal_has_no_progress_bar(runner: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tournament_cli, "show_progress", lambda as_json: not as_json)
    result = runner.invoke(app, CHECK + ["--json"])
    assert json.loads(result.stdout)["summary"]["rows"] == 8
    assert "checking decks" not in result.output


def test_the_csv_report_has_one_row_per_submission_and_reads_back(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.csv"
    result = runner.invoke(app, CHECK + ["--report", str(out)])
    assert result.exit_code == 1 and f"report written to {out}" in result.stdout
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert list(rows[0]) == ["path", "player", "name", "game", "format", "verdict", "legal", "errors", "warnings",
                             "hash", "codes", "first_problem"]
    assert len(rows) == 8
    boris = next(r for r in rows if r["path"].endswith("boris.deck"))
    assert (boris["verdict"], boris["legal"], boris["errors"], boris["codes"]) == ("illegal", "no", "1", "TOO_MANY_COPIES")
    assert boris["first_problem"].startswith("TOO_MANY_COPIES: 4 copies of Guts") and len(boris["hash"]) == 64
    eve = next(r for r in rows if r["path"].endswith("eve.deck"))
    assert eve["player"] == '<script>alert("x")</script>' and eve["codes"] == "IDENTICAL_DECKS UNREGISTERED_PLAYER"
    assert eve["first_problem"].startswith("UNREGISTERED_PLAYER")  # an error shows before a warning
    missing = next(r for r in rows if r["verdict"] == "missing")
    assert missing["path"] == "" and missing["player"] == "Dmitri Nosubmission"


def test_the_csv_report_keeps_spreadsheet_formulas_as_text(runner: CliRunner, tmp_path: Path) -> None:
    deck = tmp_path / "x.deck"
    deck.write_text(HAWKS.read_text(encoding="utf-8").replace("player: Alice Archer", "player: =HYPERLINK(\"http://x\")"),
                    encoding="utf-8")
    out = tmp_path / "r.csv"
    runner.invoke(app, ["tournament", "check", str(deck), "--report", str(out)])
    row = next(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert row["player"] == "'=HYPERLINK(\"http://x\")"


def test_the_json_report_is_the_json_output(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(app, CHECK + ["--json", "--report", str(out)])
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(result.stdout)


def test_the_html_report_escapes_player_text_and_colours_verdicts(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = runner.invoke(app, CHECK + ["--report", str(out)])
    assert result.exit_code == 1
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "<b>copy" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page and "Hawks &lt;b&gt;copy&lt;/b&gt;" in page
    assert page.count('<tr class="legal">') == 1 and page.count('<tr class="illegal">') == 5
    assert page.count('<tr class="unreadable">') == 1 and page.count('<tr class="missing">') == 1
    assert page.count('class="verdict verdict-illegal"') == 5 and ".verdict-illegal { background" in page
    assert "http" not in page  # self-contained: no links out
    assert "MISSING_SUBMISSION" in page and "TOO_MANY_COPIES" in page


def test_a_report_is_replaced_whole(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    out.write_text("old", encoding="utf-8")
    runner.invoke(app, CHECK + ["--report", str(out), "--force"])
    assert json.loads(out.read_text(encoding="utf-8"))["event"] == "spring-open"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_the_database_holds_events_decks_verdicts_and_problems(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "tournament.db"
    result = runner.invoke(app, ["tournament", "db", str(EVENT), "-r", REGISTRATIONS, "--out", str(out), "--json"])
    assert result.exit_code == 0, result.output
    from cardkit.tournament import check_event
    from cardkit.tournament.metagame import metagame

    checked = check_event([EVENT], registrations=REGISTRATIONS)
    lists = [s.cards for s in checked.submissions]
    field = metagame(checked)
    assert json.loads(result.stdout)["tables"] == {
        "events": 1, "decks": 7, "deck_cards": sum(map(len, lists)), "cards": len({c.card for cards in lists for c in cards}),
        "verdicts": 8, "problems": 9, "event_problems": 0, "metagame_mixes": field.count("mixes"),
        "metagame_cards": field.count("cards"), "metagame_sizes": field.count("sizes")}
    with sqlite3.connect(out) as conn:
        verdicts = dict(conn.execute("SELECT verdict, count(*) FROM verdicts GROUP BY verdict").fetchall())
        identical = conn.execute("SELECT d.path FROM problems p JOIN verdicts v ON v.id = p.verdict_id "
                                 "JOIN decks d ON d.id = v.deck_id WHERE p.code = 'IDENTICAL_DECKS' ORDER BY d.path").fetchall()
        event = conn.execute("SELECT name, format, ok, missing FROM events").fetchone()
    assert verdicts == {"legal": 1, "illegal": 5, "unreadable": 1, "missing": 1}
    assert [Path(p).name for (p,) in identical] == ["alice.deck", "eve.deck"]
    assert event == ("spring-open", "berserk-tcg", 0, 1)
    assert [p.name for p in tmp_path.iterdir()] == ["tournament.db"]


def test_the_database_command_refuses_an_unwritable_place(runner: CliRunner, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    result = runner.invoke(app, ["tournament", "db", str(EVENT), "--out", str(blocker / "t.db")])
    assert result.exit_code == 2 and result.stderr.startswith("error: can't write")
    no_traceback(result)


@pytest.mark.parametrize("command", [["tournament"], ["tournament", "check"], ["tournament", "db"]], ids=" ".join)
def test_every_tournament_command_has_help(runner: CliRunner, command: list[str]) -> None:
    result = runner.invoke(app, command + ["--help"])
    assert result.exit_code == 0 and "Usage:" in result.stdout
    assert "--help" in result.stdout and len(result.stdout) > 300


@pytest.mark.parametrize("command", [["db", "--out"], ["publish", "--out"], ["register", "--out"]], ids=lambda c: c[0])
def test_the_progress_bar_names_every_step_up_to_the_writing(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path, command: list[str]) -> None:
    from contextlib import contextmanager

    seen: list[str] = []

    class Bar:
        def update(self, done: int, total: int | None) -> None:
            pass

        def phase(self, label: str) -> None:
            seen.append(label)

    @contextmanager
    def fake_bar(label: str, enabled: bool, total: int | None = None):  # type: ignore[no-untyped-def]
        seen.append(label)
        yield Bar()

    monkeypatch.setattr(tournament_cli, "progress_bar", fake_bar)
    out = tmp_path / {"db": "t.db", "publish": "p.html", "register": "r.json"}[command[0]]
    result = runner.invoke(app, ["tournament", command[0], str(EVENT), command[1], str(out)])
    assert result.exit_code == 0, result.output
    assert seen == ["checking decks", "finding submissions", "checking decks", "comparing decks", f"writing {out.name}"]


def test_an_unreadable_decks_terminal_advice_is_on_the_terminal_line_only_not_in_the_json_or_the_report(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    (folder / "boris.deck").write_bytes("game: berserk\n3 Кочевник\n".encode("cp1251"))
    advice = f"(convert it with `iconv -f CP1251 -t UTF-8 {folder / 'boris.deck'}"
    text = runner.invoke(app, ["tournament", "check", str(folder)])
    assert text.exit_code == 1 and advice in text.stdout
    report = tmp_path / "report.json"
    as_json = runner.invoke(app, ["tournament", "check", str(folder), "--json", "--report", str(report)])
    [problem] = json.loads(as_json.stdout)["submissions"][0]["problems"]
    assert problem["code"] == "UNREADABLE" and problem["message"].endswith("save it as UTF-8")
    assert "iconv" not in report.read_text(encoding="utf-8")


def test_a_player_name_of_900_000_characters_is_shortened_in_the_table_not_padded_into_every_row(
        runner: CliRunner, tmp_path: Path) -> None:
    text = HAWKS.read_text(encoding="utf-8")
    (tmp_path / "long.deck").write_text(text.replace("player: Alice Archer", "player: " + "x" * 900_000), encoding="utf-8")
    for n in range(3):
        (tmp_path / f"other{n}.deck").write_text(text.replace("Alice Archer", f"Player {n}"), encoding="utf-8")
    result = runner.invoke(app, ["tournament", "check", str(tmp_path)])
    no_traceback(result)
    assert "x" * 80 + "… (900,000 characters)" in result.output
    assert len(result.output) < 5_000


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["without-force", "with-force"])
def test_register_over_its_own_registration_list_says_it_is_an_input_with_or_without_force(
        runner: CliRunner, force: list[str]) -> None:
    before = Path(REGISTRATIONS).read_bytes()
    result = runner.invoke(app, ["tournament", "register", str(EVENT), "--registrations", REGISTRATIONS,
                                 "--out", REGISTRATIONS, *force])
    assert result.exit_code == 2 and "is an input of this command" in result.output and "--force" not in result.output
    assert Path(REGISTRATIONS).read_bytes() == before


def test_a_deck_saved_as_windows_1251_is_one_row_for_its_player_with_the_encoding_and_the_iconv_line(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "alice.deck").write_text(HAWKS.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "dmitri.deck").write_bytes("player: Дмитрий Соколов\nformat: berserk-tcg\n\n3 Guts (BK1-012)\n".encode("cp1251"))
    players = tmp_path / "players.csv"
    players.write_text("player\nAlice Archer\nДмитрий Соколов\n", encoding="utf-8")
    result = runner.invoke(app, ["tournament", "check", str(folder), "-r", str(players)])
    no_traceback(result)
    rows = [line for line in result.stdout.splitlines() if "Дмитрий Соколов" in line]
    assert len(rows) == 1 and rows[0].startswith("UNREADABLE") and "dmitri.deck" in rows[0]
    assert "Windows-1251" in rows[0] and "iconv -f CP1251 -t UTF-8" in rows[0]
    assert "MISSING" not in result.stdout and "1 unreadable, 0 missing" in result.stdout


def test_identical_decks_fold_into_one_line_per_group_however_many_players_sent_them(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    hawks = HAWKS.read_text(encoding="utf-8")
    names = [f"Player Number {i} With A Long Name" for i in range(12)]
    for i, name in enumerate(names):
        (folder / f"player-{i:02}-with-a-long-file-name.deck").write_text(
            hawks.replace("Alice Archer", name), encoding="utf-8")
    result = runner.invoke(app, ["tournament", "check", str(folder)])
    no_traceback(result)
    lines = result.stdout.splitlines()
    rows = [line for line in lines if line.startswith("LEGAL")]
    groups = [line for line in lines if line.startswith("identical decks")]
    assert len(rows) == 12 and len(groups) == 1
    assert all("IDENTICAL_DECKS: the same cards as 11 other deck(s): group 1" in row for row in rows)
    assert all(row.count("player-") == 1 for row in rows)
    assert groups[0].count("player-") == 10 and groups[0].endswith(" and 2 more")
    full = json.loads(runner.invoke(app, ["tournament", "check", str(folder), "--json"]).output)
    assert all("IDENTICAL_DECKS" in [p["code"] for p in s["problems"]] for s in full["submissions"])


def test_a_name_that_only_looks_like_a_registered_one_is_in_the_summary_without_details(
        runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "cup"
    folder.mkdir()
    (folder / "erik.deck").write_text(HAWKS.read_text(encoding="utf-8").replace("Alice Archer", "Еrik"), encoding="utf-8")
    players = tmp_path / "players.csv"
    players.write_text("player\nErik\n", encoding="utf-8")
    result = runner.invoke(app, ["tournament", "check", str(folder), "-r", str(players)])
    no_traceback(result)
    assert "CONFUSABLE_PLAYER" in result.stdout and "Cyrillic Е (U+0415)" in result.stdout
    missing = next(line for line in result.stdout.splitlines() if line.startswith("MISSING"))
    assert "erik.deck" in missing and "only looks like this name" in missing
