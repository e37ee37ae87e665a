"""A big event stays linear: names folded once per deck, messages short, the cores used with the same verdicts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardkit.decks.report import DeckReport
from cardkit.parallel import ordered_map
from cardkit.tournament import Submission, Verdict, batch, check, check_event
from cardkit.tournament.check import cross_check
from cardkit.tournament.registrations import Registration, Registrations

DECKS = Path(__file__).resolve().parent / "data" / "tournament" / "spring-open" / "decks"


def submission(path: str, player: str | None, hash: str = "same") -> Submission:
    return Submission(DeckReport(path=path, game="berserk-tcg", player=player), relative=path, hash=hash)


def test_a_thousand_identical_decks_fold_each_players_name_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = check.player_key
    monkeypatch.setattr(check, "player_key", lambda name: calls.append(name) or real(name))
    subs = [submission(f"d{i}.deck", f"Player {i}") for i in range(1000)]
    cross_check(subs, None)
    assert len(calls) == 1000
    assert all([p.code for p in s.problems] == ["IDENTICAL_DECKS"] for s in subs)
    assert subs[0].problems[0].actual == 1000
    assert subs[0].problems[0].message.endswith(" and 994 more")


def test_a_players_own_second_deck_is_a_duplicate_not_a_twin() -> None:
    subs = [submission(f"a{i}.deck", "Alice") for i in range(7)] + [submission("bob.deck", "Bob"),
                                                                     submission("anon.deck", None)]
    cross_check(subs, None)
    twin = [p for p in subs[0].problems if p.code == "IDENTICAL_DECKS"][0]
    # Alice's twins are Bob's deck and the deck without a player, never her own six others.
    assert twin.actual == 3 and "a1.deck" not in twin.message
    assert "bob.deck (Bob)" in twin.message and "anon.deck (no player)" in twin.message
    bob = [p for p in subs[7].problems if p.code == "IDENTICAL_DECKS"][0]
    assert bob.actual == 9 and bob.message.endswith(" and 3 more")
    anon = [p for p in subs[8].problems if p.code == "IDENTICAL_DECKS"][0]
    assert anon.actual == 9
    duplicate = [p for p in subs[0].problems if p.code == "DUPLICATE_SUBMISSION"][0]
    assert duplicate.message.endswith("and 1 more; a player sends one deck")


def test_decks_checked_over_two_processes_get_the_verdicts_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    serial = check_event([DECKS], jobs=1)
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "WARM_UP", 1)
    monkeypatch.setattr(batch, "CHUNK", 2)
    calls: list[tuple[int, int]] = []
    parallel = check_event([DECKS], jobs=2, progress=lambda done, total: calls.append((done, total)))
    assert parallel.to_dict() == serial.to_dict()
    assert [s.cards for s in parallel.submissions] == [s.cards for s in serial.submissions]
    # One call after the warm-up, then one per chunk of two: the bar ends full.
    assert calls[-1] == (7, 7) and len(calls) == 4


def test_the_phases_of_a_check_are_told_in_order() -> None:
    phases: list[str] = []
    check_event([DECKS], phase=phases.append)
    assert phases == ["finding submissions", "checking decks", "comparing decks"]


def test_a_submission_lists_each_card_once_per_section_with_its_first_line(tmp_path: Path) -> None:
    deck = tmp_path / "split.deck"
    deck.write_text("game: berserk-tcg\nplayer: Ann\n\nMain\n2 BK1-012\n1 Guts (BK1-012)\n3 Casca (BK1-013)\n\nSide\n1 BK1-012\n",
                    encoding="utf-8")
    [s] = check_event([deck]).submissions
    assert [(c.section, c.card, c.copies, c.line) for c in s.cards] == [
        ("main", "BK1-012", 3, 5), ("main", "BK1-013", 3, 7), ("side", "BK1-012", 1, 10)]
    assert s.verdict is Verdict.ILLEGAL  # far too small, but its list is still read


def test_a_refused_link_is_the_same_unreadable_row_from_a_worker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for source in sorted(DECKS.iterdir()):
        (tmp_path / source.name).write_bytes(source.read_bytes())
    (tmp_path / "gone.deck").symlink_to(tmp_path / "nowhere.deck")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.deck"
    outside.write_text("player: Mallory\n1 BK1-012\n", encoding="utf-8")
    (tmp_path / "out.deck").symlink_to(outside)
    serial = check_event([tmp_path], jobs=1)
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "WARM_UP", 1)
    monkeypatch.setattr(batch, "CHUNK", 2)
    parallel = check_event([tmp_path], jobs=2)
    assert parallel.to_dict() == serial.to_dict()
    rows = {Path(s.path).name: s for s in parallel.submissions}
    assert rows["gone.deck"].verdict is Verdict.UNREADABLE and rows["out.deck"].verdict is Verdict.UNREADABLE
    assert "outside the event folder" in rows["out.deck"].problems[0].message


_PARENT = os.getpid()


def _square_unless_in_a_worker_at_five(x: int) -> int:
    if x == 5 and os.getpid() != _PARENT:
        os._exit(3)  # a worker killed from outside, as the out-of-memory killer would
    return x * x


def test_a_killed_worker_leaves_the_batch_to_be_finished_here(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "PARALLEL_FROM", 2)
    monkeypatch.setattr(batch, "WARM_UP", 1)
    monkeypatch.setattr(batch, "CHUNK", 2)
    calls: list[tuple[int, int]] = []
    results = batch.check_all(_square_unless_in_a_worker_at_five, list(range(12)), lambda d, t: calls.append((d, t)), jobs=2)
    assert results == [x * x for x in range(12)]
    assert calls[-1] == (12, 12)


def test_a_killed_worker_leaves_the_batch_to_be_finished_here_when_this_process_only_waits() -> None:
    calls: list[tuple[int, int]] = []
    results = ordered_map(_square_unless_in_a_worker_at_five, list(range(12)), lambda d, t: calls.append((d, t)),
                          jobs=2, parallel_from=2, warm_up=1, chunk=2)
    assert results == [x * x for x in range(12)]
    assert calls[-1] == (12, 12) and [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_the_tasks_done_here_and_by_a_worker_come_back_in_order_with_a_rising_count() -> None:
    calls: list[tuple[int, int]] = []
    results = ordered_map(abs, [-x for x in range(40)], lambda d, t: calls.append((d, t)),
                          jobs=2, parallel_from=2, warm_up=3, chunk=4, here_too=True)
    assert results == list(range(40))
    done = [d for d, _ in calls]
    assert done == sorted(set(done)) and done[-1] == 40 and len(calls) == 3 + 10  # one per warm-up item, one per task


def _registrations(rows: list[tuple[str, str]]) -> Registrations:
    return Registrations("players.csv", [Registration(player, line=i + 2, deck=deck) for i, (player, deck) in enumerate(rows)])


@pytest.mark.parametrize("relative, expected", [
    ("alice.deck", "Alice"), ("round1/bob.deck", "Bob"), ("round2/bob.deck", "Bob Two"), ("x/alice.deck", "Alice"),
    ("carol.deck", "Carol"), ("nobody.deck", None), ("sub/carol.deck", "Carol"),
], ids=["by-name", "by-path", "other-path", "name-in-a-subfolder", "dot-slash-and-backslash", "unnamed", "first-row-wins"])
def test_the_file_index_finds_the_row_the_deck_column_names_as_a_scan_would(relative: str, expected: str | None) -> None:
    regs = _registrations([("Alice", "alice.deck"), ("Bob", "round1/bob.deck"), ("Bob Two", "round2\\bob.deck"),
                           ("Carol", "./carol.deck"), ("Carol Again", "sub/carol.deck")])
    row = regs.for_file(relative)
    assert (row.player if row else None) == expected
    scanned = next((r for r in regs.rows if r.names_file(relative)), None)
    assert row is scanned


def test_matching_submissions_to_registered_files_never_scans_the_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    regs = _registrations([(f"Player {i}", f"p{i}.deck") for i in range(3000)])
    calls: list[str] = []
    monkeypatch.setattr(Registration, "names_file", lambda self, rel: calls.append(rel) or False)
    subs = [submission(f"p{i}.deck", None, hash=f"h{i}") for i in range(3000)]
    missing = cross_check(subs, regs)
    assert calls == [] and missing == []
    assert [s.player for s in subs[:3]] == ["Player 0", "Player 1", "Player 2"]
