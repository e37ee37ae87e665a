"""The tournament check as a library: per-deck verdicts, checks across decks, and the registration list."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cardkit.decks import read_deck
from cardkit.decks.canonical import deck_hash
from cardkit.decks.report import validate_file
from cardkit.errors import BadArgument, UnknownFormat, UnreadableInput
from cardkit.tournament import EventCheck, Submission, Verdict, check_event, check_submission, read_registrations

ROOT = Path(__file__).resolve().parent.parent
EVENT = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open"
DECKS = EVENT / "decks"
REGISTRATIONS = EVENT / "registrations.csv"
HAWKS = ROOT / "decks" / "berserk-tcg" / "white-hawks.deck"


@pytest.fixture(scope="module")
def spring_open() -> EventCheck:
    return check_event([EVENT], registrations=REGISTRATIONS)


def row(result: EventCheck, name: str) -> Submission:
    return next(s for s in result.submissions if Path(s.path).name == name)


def codes(s: Submission) -> list[str]:
    return [p.code for p in s.problems]


def write_deck(folder: Path, name: str, player: str | None, source: Path = HAWKS, fmt: str | None = None) -> Path:
    """A copy of `source` with its `player:` (and optionally `format:`) line replaced."""
    lines = [ln for ln in source.read_text(encoding="utf-8").splitlines() if not ln.startswith(("player:", "format:"))]
    header = ([f"player: {player}"] if player is not None else []) + ([f"format: {fmt}"] if fmt else [])
    path = folder / name
    path.write_text("\n".join(header + lines) + "\n", encoding="utf-8")
    return path


def test_an_event_folder_gives_one_row_per_deck_file_and_per_missing_player(spring_open: EventCheck) -> None:
    names = [Path(s.path).name for s in spring_open.submissions if not s.missing]
    assert names == ["alice.deck", "boris.deck", "broken.deck", "clara-again.deck", "clara.deck.json", "eve.deck", "frank.deck"]
    assert [s.player for s in spring_open.submissions if s.missing] == ["Dmitri Nosubmission"]
    assert spring_open.format == "berserk-tcg" and spring_open.event == "spring-open"


def test_hidden_files_and_files_that_are_not_decks_are_skipped(spring_open: EventCheck) -> None:
    assert (DECKS / ".draft.deck").exists() and (DECKS / "notes.txt").exists()
    assert not any(Path(s.path).name in (".draft.deck", "notes.txt") for s in spring_open.submissions)


def test_a_legal_registered_deck_is_legal_even_with_a_warning(spring_open: EventCheck) -> None:
    alice = row(spring_open, "alice.deck")
    assert alice.verdict is Verdict.LEGAL
    assert codes(alice) == ["IDENTICAL_DECKS"]


def test_a_deck_over_the_copy_limit_is_illegal(spring_open: EventCheck) -> None:
    boris = row(spring_open, "boris.deck")
    assert boris.verdict is Verdict.ILLEGAL and codes(boris) == ["TOO_MANY_COPIES"]


def test_an_unreadable_submission_is_a_row_with_its_reason_and_the_check_goes_on(spring_open: EventCheck) -> None:
    broken = row(spring_open, "broken.deck")
    assert broken.verdict is Verdict.UNREADABLE
    assert codes(broken) == ["UNREADABLE"] and "unknown game 'chess'" in broken.problems[0].message
    assert broken.player == "Gus Broken"  # from the registration list's deck column: registered and not missing
    assert len(spring_open.submissions) == 8


def test_two_decks_from_one_player_are_both_duplicate_submissions_whatever_the_spelling(spring_open: EventCheck) -> None:
    again, first = row(spring_open, "clara-again.deck"), row(spring_open, "clara.deck.json")
    assert again.player == "clara  dietrich" and first.player == "Clara Dietrich"
    assert codes(again) == ["DUPLICATE_SUBMISSION"] and codes(first) == ["DUPLICATE_SUBMISSION"]
    assert "clara.deck.json" in again.problems[0].message and "clara-again.deck" in first.problems[0].message


def test_the_same_cards_from_different_players_warn_on_both_decks(spring_open: EventCheck) -> None:
    alice, eve = row(spring_open, "alice.deck"), row(spring_open, "eve.deck")
    assert alice.hash == eve.hash is not None
    assert [p for p in alice.problems if p.code == "IDENTICAL_DECKS"][0].severity.value == "warning"
    assert "alice.deck" in [p for p in eve.problems if p.code == "IDENTICAL_DECKS"][0].message


def test_a_player_missing_from_the_registration_list_is_unregistered(spring_open: EventCheck) -> None:
    eve = row(spring_open, "eve.deck")
    assert eve.verdict is Verdict.ILLEGAL and "UNREGISTERED_PLAYER" in codes(eve)


def test_a_registered_player_without_a_deck_is_a_missing_row(spring_open: EventCheck) -> None:
    missing = [s for s in spring_open.submissions if s.missing]
    assert len(missing) == 1 and missing[0].verdict is Verdict.MISSING
    assert codes(missing[0]) == ["MISSING_SUBMISSION"] and missing[0].problems[0].line == 7


def test_a_deck_of_another_game_is_the_wrong_format_for_the_event(spring_open: EventCheck) -> None:
    frank = row(spring_open, "frank.deck")
    assert codes(frank) == ["WRONG_FORMAT"] and frank.report.game == "berserk-ccg"
    assert frank.problems[0].limit == "berserk-tcg"


def test_a_deck_declaring_another_format_of_the_game_is_wrong_and_checked_in_the_event_format(tmp_path: Path) -> None:
    path = write_deck(tmp_path, "casual.deck", "Alice Archer", fmt="berserk-tcg-casual")
    s = check_submission(path, read_fmt("berserk-tcg"))
    assert codes(s) == ["WRONG_FORMAT"] and s.report.format == "berserk-tcg"
    assert s.problems[0].actual == "berserk-tcg-casual"


def test_a_deck_declaring_the_event_format_in_capitals_is_in_the_event_format(tmp_path: Path) -> None:
    path = write_deck(tmp_path, "loud.deck", "Alice Archer", fmt="Berserk-TCG")
    assert codes(check_submission(path, read_fmt("berserk-tcg"))) == []


def read_fmt(name: str):  # type: ignore[no-untyped-def]
    from cardkit.formats import load_format

    return load_format(name)


def test_the_submission_hash_is_the_deck_hash() -> None:
    assert check_submission(HAWKS).hash == deck_hash(read_deck(HAWKS))


def test_a_submission_extends_the_validate_json_object_without_changing_it() -> None:
    deck = ROOT / "decks" / "berserk-tcg" / "red-apostles.deck"
    ours, theirs = check_submission(deck).to_dict(), validate_file(deck).to_dict()
    assert {k: ours[k] for k in theirs} == theirs
    assert ours["verdict"] == "legal" and ours["warnings"] == len(theirs["problems"]) > 0


def test_the_deck_column_gives_its_player_to_a_deck_without_a_player_line(tmp_path: Path) -> None:
    write_deck(tmp_path, "a.deck", None)
    regs = tmp_path / "players.csv"
    regs.write_text("player,deck\nAlice Archer,a.deck\n", encoding="utf-8")
    result = check_event([tmp_path], registrations=regs)
    assert [(s.player, s.verdict) for s in result.submissions] == [("Alice Archer", Verdict.LEGAL)]
    assert result.ok


def test_the_deck_column_naming_another_player_is_a_player_mismatch(tmp_path: Path) -> None:
    write_deck(tmp_path, "a.deck", "Bob Builder")
    regs = tmp_path / "players.csv"
    regs.write_text("player,deck\nAlice Archer,a.deck\nBob Builder,\n", encoding="utf-8")
    result = check_event([tmp_path], registrations=regs)
    assert codes(result.submissions[0]) == ["PLAYER_MISMATCH"]
    assert [s.player for s in result.submissions if s.missing] == ["Alice Archer"]


def test_a_registered_player_whose_file_names_another_player_is_missing_with_that_said_not_file_not_found(
        tmp_path: Path) -> None:
    write_deck(tmp_path, "erik.deck", "Bob Builder")
    regs = tmp_path / "players.csv"
    regs.write_text("player,deck\nErik Hansen,erik.deck\nBob Builder,\nCarl Nobody,carl.deck\n", encoding="utf-8")
    result = check_event([tmp_path], registrations=regs)
    missing = {s.player: s.problems[0].message for s in result.submissions if s.missing}
    assert "not found" not in missing["Erik Hansen"]
    assert "its registered deck file 'erik.deck' was sent, but names another player, 'Bob Builder'" in missing["Erik Hansen"]
    assert "registered deck file 'carl.deck' not found" in missing["Carl Nobody"]


def test_a_deck_without_a_player_line_is_no_player(tmp_path: Path) -> None:
    path = write_deck(tmp_path, "anon.deck", None)
    result = check_event([path])
    assert codes(result.submissions[0]) == ["NO_PLAYER"] and not result.ok


def test_without_a_registration_list_only_the_decks_are_checked(tmp_path: Path) -> None:
    write_deck(tmp_path, "a.deck", "Alice Archer")
    write_deck(tmp_path, "b.deck", "Bob Builder", source=ROOT / "decks" / "berserk-ccg" / "steppe-orcs.deck")
    result = check_event([tmp_path])
    assert result.format is None and result.ok
    assert [s.report.format for s in result.submissions] == ["berserk-tcg", "berserk-ccg"]


def test_files_given_one_by_one_are_checked_once_each() -> None:
    result = check_event([DECKS / "boris.deck", DECKS / "boris.deck", DECKS / "notes.txt"])
    assert [Path(s.path).name for s in result.submissions] == ["boris.deck", "notes.txt"]
    assert result.submissions[1].verdict is Verdict.UNREADABLE


def test_progress_is_reported_once_per_file() -> None:
    calls: list[tuple[int, int]] = []
    check_event([DECKS], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(i, 7) for i in range(1, 8)]


def test_a_folder_without_decks_is_a_bad_argument(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("no decks here\n", encoding="utf-8")
    with pytest.raises(BadArgument, match="no deck submissions"):
        check_event([tmp_path])


def test_an_unknown_event_format_is_refused() -> None:
    with pytest.raises(UnknownFormat):
        check_event([DECKS], format_name="vintage")


def test_a_format_option_that_contradicts_the_registration_list_is_refused() -> None:
    with pytest.raises(BadArgument, match="differs"):
        check_event([DECKS], format_name="berserk-tcg-casual", registrations=REGISTRATIONS)


def test_the_input_folder_is_not_modified(tmp_path: Path) -> None:
    copy = tmp_path / "event"
    shutil.copytree(EVENT, copy)
    before = {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()}
    check_event([copy], registrations=copy / "registrations.csv")
    assert {p: p.read_bytes() for p in copy.rglob("*") if p.is_file()} == before


# The registration list


def test_the_registration_list_keeps_its_event_format_and_extra_columns() -> None:
    regs = read_registrations(REGISTRATIONS)
    assert regs.format == "berserk-tcg" and len(regs.rows) == 6
    alice = regs.find("ALICE archer")
    assert alice is not None and alice.deck == "alice.deck" and alice.extra == {"email": "alice@example.org"}


@pytest.mark.parametrize(
    ("text", "message"),
    [("name,deck\nAlice,a.deck\n", "no `player` column"),
     ("player,format\nA,berserk-tcg\nB,berserk-ccg\n", "line 3: format 'berserk-ccg' differs"),
     ("player,format\nA,vintage\n", "line 2: unknown format 'vintage'")],
    ids=["without-a-player-column", "naming-two-formats", "naming-an-unknown-format"],
)
def test_a_registration_list_that_is_not_one_event_s_list_is_unreadable(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UnreadableInput, match=message):
        read_registrations(path)


@pytest.mark.parametrize("text", [
    "player;deck;email\nAlice Archer;a.deck;alice@example.org\n\"Smith, Bob\";b.deck;\n",
    "player\tdeck\temail\nAlice Archer\ta.deck\talice@example.org\nSmith, Bob\tb.deck\t\n",
    "sep=;\nplayer;deck;email\nAlice Archer;a.deck;alice@example.org\nSmith, Bob;b.deck;\n",
], ids=["semicolons", "tabs", "excel-sep-line"])
def test_a_registration_list_separated_by_semicolons_or_tabs_reads_like_one_with_commas(tmp_path: Path, text: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(text, encoding="utf-8")
    regs = read_registrations(path)
    assert [(r.player, r.deck, r.extra) for r in regs.rows] == [
        ("Alice Archer", "a.deck", {"email": "alice@example.org"}), ("Smith, Bob", "b.deck", {"email": ""})]
    # The `sep=` line is blanked, not dropped: the rows keep the line numbers an editor shows.
    first = 3 if text.startswith("sep=") else 2
    assert [r.line for r in regs.rows] == [first, first + 1]


def test_a_registration_list_with_no_player_column_says_which_separators_it_reads(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text("player|deck\nAlice|a.deck\n", encoding="utf-8")
    with pytest.raises(UnreadableInput, match="commas, semicolons or tabs"):
        read_registrations(path)


def test_a_row_with_more_values_than_the_header_has_columns_is_an_error_not_a_name_cut_at_the_comma(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('player\nSmith, John\n"Doe, Jane"\nAlice Archer,\n', encoding="utf-8")
    regs = read_registrations(path)
    assert [r.player for r in regs.rows] == ["Doe, Jane", "Alice Archer"]  # an empty trailing cell is no value
    assert [(p.code, p.line) for p in regs.problems] == [("BAD_REGISTRATION", 2)]
    assert '2 values but the first line names 1 column(s)' in regs.problems[0].message
    assert '"Smith, John"' in regs.problems[0].message


@pytest.mark.parametrize("deck", ["a.deck", "./a.deck", "sub/a.deck", ".\\sub\\a.deck", "sub//a.deck", "a.deck/", ".", "./"])
def test_a_registered_deck_path_is_what_pathlib_makes_of_it(deck: str) -> None:
    from pathlib import PurePosixPath

    from cardkit.tournament.registrations import Registration

    expected = PurePosixPath(deck.replace("\\", "/")).as_posix().removeprefix("./")
    assert Registration(player="A", line=2, deck=deck).deck_path == expected


def test_a_second_registration_is_a_warning_and_a_blank_player_an_error(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes("\ufeffPlayer , Deck\r\nAlice Archer,a.deck\r\n,b.deck\r\n\r\nalice archer,\r\n".encode("utf-8"))
    regs = read_registrations(path)
    assert [r.player for r in regs.rows] == ["Alice Archer"]
    assert [(p.code, p.severity.value, p.line) for p in regs.problems] == [
        ("BAD_REGISTRATION", "error", 3), ("DUPLICATE_REGISTRATION", "warning", 5)]


@pytest.mark.parametrize("header", ["player,deck,player", "Player,deck,PLAYER ", "player,deck,Deck"])
def test_a_column_named_twice_in_any_case_is_a_bad_registration_not_the_last_column_silently(tmp_path: Path,
                                                                                            header: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(f"{header}\nAlice Archer,a.deck,Bob\n", encoding="utf-8")
    regs = read_registrations(path)
    assert regs.rows == []
    assert [(p.code, p.severity.value, p.line) for p in regs.problems] == [("BAD_REGISTRATION", "error", 1)]
    assert "named more than once" in regs.problems[0].message


@pytest.mark.parametrize("row", ["   ", "   ,b.deck", "\t,"])
def test_a_row_whose_player_is_only_spaces_is_a_bad_registration_not_skipped(tmp_path: Path, row: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text(f"player,deck\nAlice Archer,a.deck\n{row}\n", encoding="utf-8")
    regs = read_registrations(path)
    assert [(p.code, p.line) for p in regs.problems] == [("BAD_REGISTRATION", 3)]


def test_a_lone_carriage_return_in_a_registration_row_stays_in_its_cell_and_ends_no_row(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(b"player,deck\r\nAli\rce,a.deck\r\nBob,b.deck\n")
    regs = read_registrations(path)
    assert [(r.player, r.deck, r.line) for r in regs.rows] == [("Ali\rce", "a.deck", 2), ("Bob", "b.deck", 3)]
    assert regs.problems == []


def test_a_registration_list_with_carriage_returns_only_reads_as_its_lines(tmp_path: Path) -> None:
    # Classic Mac OS line ends, as universal newline mode reads them: not one header with no rows.
    mac = tmp_path / "mac.csv"
    mac.write_bytes(b"player,deck\rAlice Archer,a.deck\r\rBob,b.deck\r")
    unix = tmp_path / "unix.csv"
    unix.write_bytes(b"player,deck\nAlice Archer,a.deck\n\nBob,b.deck\n")
    regs = read_registrations(mac)
    assert [(r.player, r.deck, r.line) for r in regs.rows] == [("Alice Archer", "a.deck", 2), ("Bob", "b.deck", 4)]
    assert regs.rows == read_registrations(unix).rows and regs.problems == []


def test_a_registration_list_whose_header_ends_in_a_carriage_return_among_line_feeds_is_refused_with_a_sentence(
        tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.csv"
    mixed.write_bytes(b"player,deck\rAlice Archer,a.deck\nBob,b.deck\n")
    with pytest.raises(UnreadableInput, match=r"line 1: a carriage return \(CR\) ends a line inside the first line, "
                                              r"while line feeds end others; save the list with one kind of line end"):
        read_registrations(mixed)


def test_registration_list_errors_make_the_event_not_ok(tmp_path: Path) -> None:
    write_deck(tmp_path, "a.deck", "Alice Archer")
    regs = tmp_path / "players.csv"
    regs.write_text("player,deck\nAlice Archer,\n,b.deck\n", encoding="utf-8")
    result = check_event([tmp_path / "a.deck"], registrations=regs)
    assert all(s.verdict is Verdict.LEGAL for s in result.submissions) and not result.ok


@pytest.mark.parametrize("content", [b"", b"\x00\x01binary", b"player\n\"unclosed\n"], ids=["empty", "binary", "bad-quote"])
def test_a_broken_registration_file_is_unreadable_not_a_traceback(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(content)
    try:
        regs = read_registrations(path)
    except UnreadableInput:
        return
    # The csv module reads an unclosed quote to the end of the file: one odd but readable name.
    assert [r.player for r in regs.rows] == ["unclosed"]


def test_a_message_about_many_identical_decks_names_five_and_counts_the_rest(tmp_path: Path) -> None:
    for i in range(7):
        write_deck(tmp_path, f"p{i}.deck", f"Player {i}")
    result = check_event([tmp_path])
    message = [p for p in result.submissions[0].problems if p.code == "IDENTICAL_DECKS"][0].message
    assert message.count(".deck (Player") == 5 and message.endswith(" and 1 more")
    assert result.ok


def test_an_input_that_does_not_exist_is_a_bad_argument_not_a_row(tmp_path: Path) -> None:
    with pytest.raises(BadArgument, match="no such file or folder"):
        check_event([DECKS, tmp_path / "typo"])


def test_the_registration_list_s_event_column_names_the_event_unless_event_is_given(tmp_path: Path) -> None:
    folder = tmp_path / "folder-name"
    folder.mkdir()
    (folder / "a.deck").write_text((ROOT / "decks" / "berserk-tcg" / "white-hawks.deck").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    regs = tmp_path / "players.csv"
    regs.write_text("player,event\nAlice Archer,\nBob,Spring Open 2026\nCarol,Another Name\n", encoding="utf-8")
    assert check_event([folder], registrations=regs).event == "Spring Open 2026"
    assert check_event([folder], registrations=regs, event="Club Night").event == "Club Night"
    assert check_event([folder]).event == "folder-name"


def test_a_quote_never_closed_is_reported_at_the_line_where_it_opened_not_at_the_end_of_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('player,deck\nAlice,a.deck\n"Bob,b.deck\nCarol,c.deck\nDave,d.deck\n', encoding="utf-8")
    with pytest.raises(UnreadableInput) as exc:
        read_registrations(path)
    assert exc.value.reason.startswith('line 3: a `"` opened here is never closed')


@pytest.mark.parametrize("end", ["\n", ""], ids=["with-a-line-break", "without"])
def test_a_quote_never_closed_on_the_last_line_is_refused_not_read_as_a_player(tmp_path: Path, end: str) -> None:
    path = tmp_path / "r.csv"
    path.write_text('player,deck\nAlice,a.deck\n"Bob,b.deck' + end, encoding="utf-8")
    with pytest.raises(UnreadableInput) as exc:
        read_registrations(path)
    assert exc.value.reason.startswith('line 3: a `"` opened here is never closed, so the rest of the file (1 line)')


def test_a_quoted_value_on_the_last_line_is_read(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('player,deck\nAlice,a.deck\n"Smith, Bob",b.deck', encoding="utf-8")
    assert [r.player for r in read_registrations(path).rows] == ["Alice", "Smith, Bob"]


def test_a_row_whose_quoted_value_runs_over_lines_is_told_at_the_line_where_it_starts(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_text('player,deck,notes\nAlice,a.deck\n"Bob\nBobson",b.deck\nDave,d.deck,"two\nlines"\nEve,e.deck\nEve,f.deck\n',
                    encoding="utf-8")
    regs = read_registrations(path)
    assert [(r.player, r.line) for r in regs.rows] == [("Alice", 2), ("Bob\nBobson", 3), ("Dave", 5), ("Eve", 7)]
    (again,) = regs.problems
    assert again.code == "DUPLICATE_REGISTRATION" and again.line == 8


def test_a_submission_in_another_encoding_belongs_to_the_player_its_player_line_names(tmp_path: Path) -> None:
    from cardkit.tournament.check import check_submission

    text = tmp_path / "text.deck"
    text.write_bytes("# колода\nplayer: Дмитрий Соколов\ngame: berserk-ccg\n\n3 Кочевник\n".encode("cp1251"))
    as_json = tmp_path / "json.deck.json"
    as_json.write_bytes('{"player": "Зоя", "game": "berserk-ccg", "main": [], "side": []}'.encode("cp1251"))
    nobody = tmp_path / "nobody.deck"
    nobody.write_bytes("game: berserk-ccg\n\n3 Кочевник\n".encode("cp1251"))
    binary = tmp_path / "binary.deck"
    binary.write_bytes(b"player: Bin\x00\x01")
    found = {p.name: check_submission(p) for p in (text, as_json, nobody, binary)}
    assert all(s.verdict.value == "unreadable" for s in found.values())
    assert found["text.deck"].player == "Дмитрий Соколов" and "Windows-1251" in found["text.deck"].report.failure
    assert found["json.deck.json"].player == "Зоя"
    assert found["nobody.deck"].player is None and found["binary.deck"].player is None
