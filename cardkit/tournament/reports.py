"""Event reports for organizers: CSV for spreadsheets, JSON for scripts, one self-contained HTML page."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from cardkit.errors import BadArgument
from cardkit.outputs import Kind, Output, file_head
from cardkit.problems import Problem
from cardkit.tournament.check import EventCheck, Verdict
from cardkit.visible import csv_cell, quoted, visible_json

CSV_COLUMNS: tuple[str, ...] = ("path", "player", "name", "game", "format", "verdict", "legal", "errors", "warnings",
                                "hash", "codes", "first_problem")


def _problem_text(p: Problem) -> str:
    return f"{p.code}: {p.message}"


def render_csv(result: EventCheck) -> str:
    """One row per submission (and per missing player); `codes` lists every problem code, space-separated."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in result.submissions:
        problems = s.problems
        row = (s.path, s.player, s.name, s.report.game, s.report.format, s.verdict.value,
               "yes" if s.verdict.value == "legal" else "no", s.errors, s.warnings, s.hash,
               " ".join(p.code for p in problems), _problem_text(s.first_problem) if s.first_problem else "")
        writer.writerow([csv_cell(v) for v in row])
    return out.getvalue()


def render_json(result: EventCheck) -> str:
    return visible_json(json.dumps(result.to_dict(), ensure_ascii=False, indent=2)) + "\n"


# Marks the page as cardkit's own, so a later report may replace it without `force`.
_GENERATOR = '<meta name="generator" content="cardkit tournament check">'
_JSON_KEYS = {"event", "format", "registrations", "legal", "summary", "problems", "submissions"}
# A report written before the verdict was named `legal` everywhere is still cardkit's own.
_OLD_JSON_KEYS = (_JSON_KEYS - {"legal"}) | {"ok"}


FIELD_CARDS_CHARTED = 10


def render_html(result: EventCheck) -> str:
    """A page that opens anywhere: summary counts, the table of verdicts, the field's metagame (from the one
    table of deck cards `tournament publish` uses), then every submission's problems. The template is `tournament/report.html`."""
    from cardkit.tournament.metagame import metagame
    from cardkit.tournament.pages import card_labels, mix_fill, render

    field = None
    if any(s.verdict is Verdict.LEGAL for s in result.submissions):
        meta = metagame(result)
        mixes = meta.records("mixes")
        top = meta.records("cards")[:FIELD_CARDS_CHARTED]
        field = {"mixes": [{"label": str(m["mix"]), "value": int(m["decks"]), "fill": mix_fill(str(m["mix"]))} for m in mixes],
                 "cards": [{"label": label, "value": int(c["decks"]), "fill": None}
                           for label, c in zip(card_labels(top), top)]}
    return render("report.html", generator="cardkit tournament check", title=f"{result.event}: deck check",
                  format=result.format, registrations=result.registrations, summary=list(result.summary().items()),
                  problems=result.problems, submissions=result.submissions, field=field)


RENDERERS: dict[str, Callable[[EventCheck], str]] = {".csv": render_csv, ".json": render_json, ".html": render_html}


def report_renderer(path: str | os.PathLike[str]) -> Callable[[EventCheck], str]:
    """The renderer for the report file's suffix; `BadArgument` for any other suffix."""
    suffix = Path(path).suffix.lower()
    if suffix == ".htm":
        suffix = ".html"
    try:
        return RENDERERS[suffix]
    except KeyError:
        raise BadArgument(f"report {path}: unknown suffix {quoted(suffix or '(none)')}; use .csv, .json or .html") from None


def is_report(path: Path) -> bool:
    """True for a report `write_report` wrote: a CSV whose first line is exactly its header, a JSON
    object with exactly the report's keys, or an HTML page with cardkit's generator tag near its top."""
    head = file_head(path)
    if head is None:
        return False
    if head.startswith(b"{"):
        whole = file_head(path, 4096 + (64 << 20))
        try:
            data = json.loads((whole or b"").decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError):
            return False
        return isinstance(data, dict) and set(data) in (_JSON_KEYS, _OLD_JSON_KEYS)
    if head.startswith(b"<!DOCTYPE html>"):
        return _GENERATOR.encode() in head
    return head.split(b"\n", 1)[0] == ",".join(CSV_COLUMNS).encode()


REPORT = Kind("report", is_report, forceable=True)


def write_report(result: EventCheck, path: str | os.PathLike[str], inputs: Iterable[str | os.PathLike[str]] = (),
                 force: bool = False) -> None:
    """Write the report chosen by `path`'s suffix atomically (a crash leaves any old report whole),
    through the guarded writer: never over an input (the event's decks and registration list
    are added here), a special file, or a file that is not an earlier report unless `force`."""
    text = report_renderer(path)(result)
    out = Output(Path(path), REPORT, tuple(inputs), force).with_inputs(result_inputs(result))
    out.write(text)


def result_inputs(result: EventCheck) -> list[str]:
    """Every file the event check read: the submissions and the registration list, as the check names them."""
    found = [s.path for s in result.submissions if s.path]
    return found + ([result.registrations] if result.registrations else [])


def new_inputs(given: Iterable[str | os.PathLike[str]], found: list[str]) -> list[str]:
    """The files of `found` not already in `given` as the same string: the command line names each submission
    it found before the check, and each is stat'ed for every check of the output, so once is enough."""
    known = {os.fspath(p) for p in given}
    return [p for p in found if p not in known]
