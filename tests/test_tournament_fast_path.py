"""The caches a big event leans on (spellings resolved once per run, each card's format rules worked
out once) change no verdict: an event checked with them gives the very problems of decks checked one
at a time from cold caches."""

from __future__ import annotations

import gc
import random
from pathlib import Path, PurePosixPath
from typing import Any

import pytest

from cardkit.decks import legality, parse, read
from cardkit.formats import load_format
from cardkit.tournament import batch, check_event, registrations
from cardkit.tournament.check import check_submission, cross_check, find_submissions
from cardkit.tournament.registrations import read_registrations

ROOT = Path(__file__).resolve().parent.parent
EVENTS = [(ROOT / "events" / "spring-open", "registrations.csv"),
          (ROOT / "tests" / "data" / "tournament" / "spring-open", "registrations.csv"),
          (ROOT / "events" / "deck-checks", None)]


def _cold() -> None:
    read._SHARED.clear()
    legality._RULES.clear()
    parse._KNOWN_LINES.clear()


def _plain(inputs: list[Path], registrations: Path | None, format_name: str | None = None) -> list[dict[str, Any]]:
    """Every deck checked on its own from cold caches, then the same cross-deck checks."""
    regs = read_registrations(registrations) if registrations else None
    name = format_name or (regs.format if regs else None)
    fmt = load_format(name) if name else None
    submissions = []
    for found in find_submissions(inputs):
        _cold()
        submissions.append(check_submission(found.path, fmt, found.relative))
    submissions.extend(cross_check(submissions, regs))
    return [_shape(s.to_dict(), s.cards) for s in submissions]


def _shape(row: dict[str, Any], cards: list[Any]) -> dict[str, Any]:
    problems = [(p["code"], p["severity"], p["message"], p.get("card"), p.get("line")) for p in row["problems"]]
    return {**row, "problems": problems, "all": row["problems"], "cards": [tuple(c) for c in cards]}


def _fast(inputs: list[Path], registrations: Path | None, format_name: str | None = None) -> list[dict[str, Any]]:
    _cold()
    result = check_event(inputs, registrations=registrations, format_name=format_name, jobs=1)
    return [_shape(s.to_dict(), s.cards) for s in result.submissions]


@pytest.mark.parametrize("folder, registrations", EVENTS, ids=lambda v: getattr(v, "name", str(v)))
def test_each_bundled_event_gets_the_same_problems_as_its_decks_checked_one_at_a_time(
        folder: Path, registrations: str | None) -> None:
    regs = folder / registrations if registrations else None
    inputs = [folder / "decks"] if (folder / "decks").is_dir() else [folder]
    assert _fast(inputs, regs) == _plain(inputs, regs)


def _generated(folder: Path, n: int, seed: int = 7) -> None:
    """`n` decks made from the bundled ones: counts changed, lines repeated, misspelt, foreign or broken."""
    rng = random.Random(seed)
    sources = [p.read_text(encoding="utf-8").splitlines() for p in sorted((ROOT / "decks").glob("berserk-*/*.deck"))]
    for i in range(n):
        lines = []
        for line in sources[i % len(sources)]:
            count, _, card = line.partition(" ")
            roll = rng.random()
            if count.isdigit() and card:
                if roll < 0.2:
                    line = f"{rng.choice([1, 2, 3, 4, 5, 9])} {card}"
                elif roll < 0.25:
                    line = f"{count} {card[:-1]}"  # a misspelling, with suggestions
                elif roll < 0.28:
                    line = f"{count} {card.upper()}"
                elif roll < 0.30:
                    lines.append(line)  # the same card on two lines
                elif roll < 0.31:
                    line = f"0 {card}"
            elif roll < 0.02:
                line = "this is not a card line"
            lines.append(line)
        if i % 3 == 0:
            lines.insert(0, f"player: Player {i % 40}")
        (folder / f"{i:04d}.deck").write_text("\n".join(lines) + "\n", encoding="utf-8")
    # Lines the parser remembers across decks whose meaning depends on where they stand: a `key: value` is a
    # header above the cards and a problem below them, a section title moves the cards after it, and a broken
    # card line must be reported in every deck that has it.
    broken = ["2 Gut\u202es", "00000000003 Guts", "-1 Guts", "SB: nothing"]
    for i in range(n // 4):
        lines = list(sources[i % len(sources)])
        if i % 2:
            lines.append("note: bring sleeves")
        else:
            lines.insert(0, "note: bring sleeves")
        if i % 3 == 1:
            lines.insert(len(lines) // 2, "Side")
        lines.insert(len(lines) // 3, broken[i % len(broken)])
        (folder / f"placed-{i:04d}.deck").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_generated_decks_get_the_same_problems_checked_together_as_one_at_a_time(tmp_path: Path) -> None:
    _generated(tmp_path, 240)
    fast = _fast([tmp_path], None)
    assert fast == _plain([tmp_path], None)
    codes = {p[0] for row in fast for p in row["problems"]}
    # The mix must reach the cached paths that can differ: unknown spellings, copy limits, identical decks.
    assert {"UNKNOWN_CARD", "TOO_MANY_COPIES", "IDENTICAL_DECKS"} <= codes


def test_generated_decks_against_an_event_format_match_one_at_a_time(tmp_path: Path) -> None:
    _generated(tmp_path, 120, seed=8)
    assert _fast([tmp_path], None, "berserk-tcg") == _plain([tmp_path], None, "berserk-tcg")


def _collector_state(item: int) -> bool:
    if item < 0:
        raise ValueError("a bad item")
    return gc.isenabled()


def test_the_cycle_collector_is_off_while_decks_are_checked_and_back_on_after_even_on_an_exception() -> None:
    assert gc.isenabled()
    assert batch.check_all(_collector_state, [1, 2, 3], jobs=1) == [False, False, False]
    assert gc.isenabled()
    with pytest.raises(ValueError):
        batch.check_all(_collector_state, [1, -1], jobs=1)
    assert gc.isenabled()



def test_the_cycle_collector_rests_while_a_page_is_rendered_and_is_back_on_after_the_check_and_the_page(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cardkit.tournament import publish

    event = ROOT / "events" / "spring-open"
    result = check_event([event / "decks"], registrations=event / "registrations.csv")
    assert gc.isenabled()
    seen: list[bool] = []
    render = publish.render_page
    monkeypatch.setattr(publish, "render_page", lambda *args: seen.append(gc.isenabled()) or render(*args))
    publish.write_page(result, tmp_path / "event.html")
    assert seen == [False] and gc.isenabled()


def test_a_tournament_command_keeps_the_collector_off_from_the_check_to_its_output_and_leaves_it_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from cardkit.cli.app import full_app
    from cardkit.tournament import database

    event = ROOT / "events" / "spring-open"
    seen: list[bool] = []
    write = database.write_database
    monkeypatch.setattr(database, "write_database", lambda *args, **kw: seen.append(gc.isenabled()) or write(*args, **kw))
    result = CliRunner().invoke(full_app(), ["tournament", "db", str(event / "decks"), "-r",
                                             str(event / "registrations.csv"), "--out", str(tmp_path / "event.db")])
    assert result.exit_code == 0, result.output
    assert seen == [False] and gc.isenabled()
    assert (tmp_path / "event.db").is_file()


@pytest.mark.parametrize("relative", ["a/b.deck", "b.deck", "", "a/b/", "a/./b", ".", "..", "a/..", "a//b", "a/b/.",
                                      "a\\b.deck", "./x.deck"])
def test_a_submissions_file_name_is_what_pathlib_calls_its_name(relative: str) -> None:
    assert registrations._file_name(relative) == PurePosixPath(relative).name


@pytest.mark.parametrize("command", ["check", "db", "register", "publish"])
def test_each_tournament_command_walks_the_event_folder_once(command: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from cardkit.cli.main import app
    from cardkit.tournament import check as check_module

    walks: list[Path] = []
    walk = check_module._walk

    def counted(root: Path) -> list[check_module.Found]:
        walks.append(root)
        return walk(root)

    monkeypatch.setattr(check_module, "_walk", counted)
    folder = ROOT / "events" / "spring-open"
    suffix = {"db": ".db", "register": ".json", "publish": ".html"}.get(command, "")
    out = [] if command == "check" else ["--out", str(tmp_path / f"out{suffix}")]
    result = CliRunner().invoke(app, ["tournament", command, str(folder / "decks"),
                                      "--registrations", str(folder / "registrations.csv"), *out])
    assert result.exit_code in (0, 1), result.output
    assert walks == [folder / "decks"]


def test_a_problem_comes_back_from_a_worker_process_equal_to_itself() -> None:
    import pickle

    from cardkit.problems import Problem, Severity

    full = Problem("AMBIGUOUS_CARD", "two cards", Severity.WARNING, card="Guts", line=3, limit=[1, 2], actual={"a": 1},
                   file="x.deck", pointer="/main/0", candidates=({"id": "BK1-012"},), count=2, lines=(3, 9))
    for problem in (full, Problem("NO_PLAYER", "no player")):
        back = pickle.loads(pickle.dumps(problem))
        assert back == problem and back.to_dict() == problem.to_dict()


def test_a_big_event_is_shared_out_over_every_core_whatever_the_load_average(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[int] = []

    def ordered_map(check: Any, items: Any, progress: Any, jobs: int, **_: Any) -> list[Any]:
        seen.append(jobs)
        return [check(item) for item in items]

    monkeypatch.setattr(batch, "available_cores", lambda: 4)
    monkeypatch.setattr(batch, "ordered_map", ordered_map)
    monkeypatch.setattr("os.getloadavg", lambda: (7.5, 7.5, 7.5))  # a busy machine: still every core
    assert batch.check_all(abs, [-1, 2], jobs=None) == [1, 2] and batch.check_all(abs, [-3], jobs=1) == [3]
    assert seen == [4, 1]
