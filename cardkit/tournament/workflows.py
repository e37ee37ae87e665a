"""An event from its files to each of its outputs, one function per output: the check and its report,
the database, the published page, the registry (what `cardkit tournament check|db|publish|register` run).

Each finds the event's submissions once, refuses an output it may not write before any work (an
input of the event, a special file, a file cardkit did not write, unless `force` allows it), then
checks the event and writes the output. `progress` is told after each deck is checked, `phase` as
each step starts (finding submissions, checking decks, comparing decks, writing the output).

Python's cycle collector rests from the walk to the last byte written: checking and writing make no
reference cycles, and its passes over the catalogue and every result found nothing to free.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cardkit.parallel import Progress
from cardkit.tournament.batch import collector_paused
from cardkit.tournament.check import EventCheck, Found, Verdict, check_event, find_submissions
from cardkit.tournament.metagame import Metagame

Phase = Callable[[str], None]
"""Told the name of each step as it starts."""

PathLike = str | os.PathLike[str]
# Every function below checks an event given as check_event takes it: `inputs` (folders searched for decks, or
# deck files), then `format_name`, `registrations` and `event` (its name), each optional.


def _find(inputs: tuple[PathLike, ...], registrations: PathLike | None,
          phase: Phase) -> tuple[list[Found], tuple[PathLike, ...]]:
    """The submissions under `inputs`, and every file the check will read: an output is refused over any of them."""
    phase("finding submissions")
    found = find_submissions(inputs)
    read = tuple(f.path for f in found if f.refusal is None)
    return found, inputs + read + ((registrations,) if registrations is not None else ())


def _quiet(label: str) -> None:
    pass


def check_and_report(inputs: Iterable[PathLike], report: PathLike | None = None, *, format_name: str | None = None,
                     registrations: PathLike | None = None, event: str | None = None, force: bool = False,
                     progress: Progress | None = None, phase: Phase | None = None) -> EventCheck:
    """The event checked (`check_event`); with `report`, its report written too, the kind chosen by the
    suffix (.csv, .json, .html; `write_report`). An unknown suffix, and a report file that may not be
    replaced (one that is no earlier report needs `force`), are refused before the check."""
    from cardkit.outputs import Output
    from cardkit.tournament.reports import REPORT, report_renderer, write_report

    tell = phase or _quiet
    with collector_paused():
        given = tuple(inputs)
        found, read = _find(given, registrations, tell)
        if report is not None:
            report_renderer(report)
            Output(Path(report), REPORT, read, force).check()
        result = check_event(given, format_name, registrations, event, progress, phase=tell, found=found)
        if report is not None:
            tell(f"writing {Path(report).name}")
            write_report(result, report, read, force)
    return result


@dataclass(frozen=True)
class DatabaseWritten:
    """The event checked and written to SQLite: the file, and the rows of each data table."""

    result: EventCheck
    path: Path
    tables: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "tables": self.tables, "summary": self.result.summary()}


def write_event_database(inputs: Iterable[PathLike], out: PathLike, *, format_name: str | None = None,
                         registrations: PathLike | None = None, event: str | None = None,
                         progress: Progress | None = None, phase: Phase | None = None) -> DatabaseWritten:
    """The event checked and written to a fresh SQLite file at `out` (`write_database`). An `out` that is an
    input, a special file or an existing file that is no tournament database cardkit wrote is refused
    before the check, and nothing is written."""
    from cardkit.outputs import Output
    from cardkit.tournament.database import TOURNAMENT_DATABASE, write_database

    tell = phase or _quiet
    with collector_paused():
        given = tuple(inputs)
        found, read = _find(given, registrations, tell)
        Output(Path(out), TOURNAMENT_DATABASE, read).check()
        result = check_event(given, format_name, registrations, event, progress, phase=tell, found=found)
        tell(f"writing {Path(out).name}")
        tables = write_database([result], out, read)
    return DatabaseWritten(result, Path(out), tables)


@dataclass(frozen=True)
class Published:
    """The event checked and published: the page, its metagame, and the CSV tables written beside it, if any."""

    result: EventCheck
    path: Path
    metagame: Metagame
    tables: list[Path] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        summary: dict[str, Any] = {"path": str(self.path), "decks": self.metagame.count("decks"),
                                   "mixes": self.metagame.count("mixes"), "cards": self.metagame.count("cards"),
                                   "not_published": len(self.metagame.unlisted)}
        if self.tables:
            summary["csv"] = [str(p) for p in self.tables]
        return summary


def publish_event(inputs: Iterable[PathLike], out: PathLike, *, format_name: str | None = None,
                  registrations: PathLike | None = None, event: str | None = None, force: bool = False,
                  card_url: str | None = None, csv_dir: PathLike | None = None, progress: Progress | None = None,
                  phase: Phase | None = None) -> Published:
    """The event checked and published to `out` (`write_page`), with its metagame tables as CSV in `csv_dir`
    if given: all of them written, or none. A bad `card_url`, an `out` that is not .html, and a page or
    table that may not be replaced (any file cardkit did not publish needs `force`) are refused before
    the check."""
    from cardkit.tournament.pages import card_links
    from cardkit.tournament.publish import check_page_target, check_tables_target, table_paths, write_page

    tell = phase or _quiet
    with collector_paused():
        given = tuple(inputs)
        found, read = _find(given, registrations, tell)
        card_links(card_url)
        check_page_target(out, force, read)
        if csv_dir is not None:
            check_tables_target(csv_dir, force, read)
        result = check_event(given, format_name, registrations, event, progress, phase=tell, found=found)
        tell(f"writing {Path(out).name}")
        meta = write_page(result, out, force, read, card_url, csv_dir)
    return Published(result, Path(out), meta, table_paths(csv_dir) if csv_dir is not None else [])


@dataclass(frozen=True)
class Registered:
    """The event checked and its registry written: every readable deck that names its player, legal or not."""

    result: EventCheck
    path: Path
    registry: dict[str, Any]

    @property
    def decks(self) -> int:
        return len(self.registry["decks"])

    @property
    def legal(self) -> int:
        return sum(d["verdict"] == "legal" for d in self.registry["decks"])

    @property
    def not_registered(self) -> int:
        """The rows with no list to register: unreadable files, decks naming no player, players who sent none."""
        # Each row once: an unreadable file that names no player is one row, not one unreadable and one unnamed.
        listed = (Verdict.LEGAL, Verdict.ILLEGAL)
        return sum(1 for s in self.result.submissions if not (s.player and s.verdict in listed))

    def to_dict(self) -> dict[str, Any]:
        return {"path": str(self.path), "event": self.registry["event"], "decks": self.decks, "legal": self.legal,
                "illegal": self.decks - self.legal, "not_registered": self.not_registered}


def register_event(inputs: Iterable[PathLike], out: PathLike, *, format_name: str | None = None,
                   registrations: PathLike | None = None, event: str | None = None, force: bool = False,
                   progress: Progress | None = None, phase: Phase | None = None) -> Registered:
    """The event checked and each player's registered decklist written to `out` (`build_registry`,
    `write_registry`). An existing `out` is refused before the check unless `force`: the registry is the
    record the deck checks compare with."""
    from cardkit.tournament.registry import build_registry, refuse_existing, write_registry
    from cardkit.tournament.reports import result_inputs

    tell = phase or _quiet
    with collector_paused():
        given = tuple(inputs)
        found, read = _find(given, registrations, tell)
        refuse_existing(out, force, read)
        result = check_event(given, format_name, registrations, event, progress, phase=tell, found=found)
        tell(f"writing {Path(out).name}")
        registry = build_registry(result)
        write_registry(registry, out, force, read + tuple(result_inputs(result)))
    return Registered(result, Path(out), registry)
